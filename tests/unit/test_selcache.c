/* Selective caching (thesis Ch. VI, issue 20): the HW CC baseline, naive
 * selective caching, the remote directory, cacheless request coalescing,
 * the CPU-side client cache, variable-size link transfers and promiscuous
 * read-only caching, each against counts and times derived by hand.
 *
 * Most cases replay a tiny NVBit-format trace on one or two SMs, with
 * every page homed by BW-AWARE at co_percent 100 (host) or 0 (GPU): no
 * fault, no copy, so what crosses the link is only what the caches and the
 * coalescing let through. */
#include <check.h>
#include "suite_main.h"
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include "config/config.h"
#include "core/stats.h"
#include "core/engine.h"
#include "core/mem_req.h"
#include "system.h"
#include "core/rng.h"
#include "dram/dram.h"
#include "l2/l2.h"
#include "link/link.h"
#include "remote_bench.h"

#define N(a) (sizeof a / sizeof a[0])

/* ---- a trace of warp memory instructions ---- */

static char trace_path[64];
static FILE *trace_f;

static void trace_begin(unsigned ctas, unsigned threads)
{
    strcpy(trace_path, "/tmp/uvmsim-selcacheXXXXXX");
    int fd = mkstemp(trace_path);
    ck_assert_int_ge(fd, 0);
    trace_f = fdopen(fd, "w");
    ck_assert(trace_f != NULL);
    fprintf(trace_f, "MEMTRACE: CTX 0x1 - LAUNCH - Kernel pc 0x0 - Kernel name k - grid launch "
                     "id 0 - grid size %u,1,1 - block size %u,1,1 - nregs 16 - shmem 0 - cuda "
                     "stream id 0\n", ctas, threads);
}

/* One warp instruction: `lanes` lanes (from lane 0) at base + 4 x lane. */
static void trace_inst(unsigned cta, unsigned warp, const char *op, uint64_t base, unsigned lanes)
{
    fprintf(trace_f, "MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA %u,0,0 - warp %u - %s -",
            cta, warp, op);
    for (unsigned i = 0; i < 32; i++)
        fprintf(trace_f, " 0x%llx", i < lanes ? (unsigned long long)(base + 4 * i) : 0ULL);
    fprintf(trace_f, "\n");
}

/* A further kernel launch (grid launch id `id`). */
static void trace_launch(unsigned id, unsigned ctas, unsigned threads)
{
    fprintf(trace_f, "MEMTRACE: CTX 0x1 - LAUNCH - Kernel pc 0x0 - Kernel name k%u - grid launch "
                     "id %u - grid size %u,1,1 - block size %u,1,1 - nregs 16 - shmem 0 - cuda "
                     "stream id 0\n", id, id, ctas, threads);
}

/* trace_inst in launch `id`. */
static void trace_inst_k(unsigned id, unsigned cta, unsigned warp, const char *op, uint64_t base,
                         unsigned lanes)
{
    fprintf(trace_f, "MEMTRACE: CTX 0x1 - grid_launch_id %u - CTA %u,0,0 - warp %u - %s -",
            id, cta, warp, op);
    for (unsigned i = 0; i < 32; i++)
        fprintf(trace_f, " 0x%llx", i < lanes ? (unsigned long long)(base + 4 * i) : 0ULL);
    fprintf(trace_f, "\n");
}

static void trace_end(void)
{
    ck_assert_int_eq(fclose(trace_f), 0);
    trace_f = NULL;
}

/* ---- whole runs ---- */

struct run { struct config *c; struct system *s; };

/* A clean machine: 1 GHz core (1000 ps cycles), a 16 GB/s link with
 * neither line code nor DLLPs, 1 us one-way, host DDR4 without refresh,
 * the 100-cycle hop; every page homed at co_percent % host. */
static struct run run_trace(int co_percent, const char *const *x, size_t n)
{
    char file[96], co[64];
    snprintf(file, sizeof file, "workload.trace.file=%s", trace_path);
    snprintf(co, sizeof co, "driver.place.co_percent=%d", co_percent);
    const char *sets[40] = {
        "gpu.clock=1GHz", "dram.channels=1", "link.bandwidth=16GB/s", "link.encoding=none",
        "link.dllp_interval=0", "link.latency=1us", "host.dram.tREFI=0", "host.latency=100",
        "workload.kind=trace", file, "driver.placement=bw-aware", co,
    };
    size_t k = 12;
    ck_assert_uint_le(k + n, 40);
    if (n) memcpy(sets + k, x, n * sizeof *x);
    struct cfg_error err;
    struct run r;
    r.c = config_load(NULL, sets, k + n, &err);
    if (!r.c) ck_abort_msg("config: %s", err.msg);
    r.s = system_build(r.c);
    ck_assert_int_eq(system_run(r.s), RUN_COMPLETED);
    return r;
}

static void done(struct run *r) { system_free(r->s); config_free(r->c); }

/* A counter's value; 0 when the run does not register it. */
static uint64_t st(const struct run *r, const char *name)
{
    const struct stat_entry *e = stats_find(system_stats(r->s), name);
    return e ? *e->p.u : 0;
}

static bool has(const struct run *r, const char *name)
{
    return stats_find(system_stats(r->s), name) != NULL;
}

static inline sim_time end_of(const struct run *r) { return engine_end_time(system_engine(r->s)); }

#define HOST_LINE 0x10000000ULL

/* ---- point 1: the HW CC baseline ---- */

/* HW CC (gpu.caching.remote all, the default): one warp reads one
 * host-homed line twice.  The first read misses the L1D and the L2, and
 * the L2 fetches the line over the link (one remote read); the second hits
 * the L1D: nothing more reaches the L2 or the link. */
START_TEST(hw_cc_caches_host_lines_in_l1_and_l2)
{
    trace_begin(1, 32);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 32);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 32);
    trace_end();
    static const char *const x[] = { "gpu.sms=1" };
    struct run r = run_trace(100, x, N(x));
    ck_assert_uint_eq(st(&r, "gpu.l1d.misses"), 1);
    ck_assert_uint_eq(st(&r, "gpu.l1d.hits"), 1);
    ck_assert_uint_eq(st(&r, "l2.misses"), 1);
    ck_assert_uint_eq(st(&r, "l2.hits"), 0);
    ck_assert_uint_eq(st(&r, "remote.reads"), 1);
    ck_assert_uint_eq(st(&r, "remote.h2d_bytes"), 128);
    done(&r);
    /* Without the L1D the second read hits the L2. */
    static const char *const y[] = { "gpu.sms=1", "gpu.l1d.size=0" };
    r = run_trace(100, y, N(y));
    ck_assert_uint_eq(st(&r, "l2.misses"), 1);
    ck_assert_uint_eq(st(&r, "l2.hits"), 1);
    ck_assert_uint_eq(st(&r, "remote.reads"), 1);
    done(&r);
    unlink(trace_path);
}
END_TEST

/* l2.write_fill: a store that allocates its line.  One lane (4 B: sector
 * 0) or all 32 (128 B: the whole line) store to a line of an absent page:
 *   none:    never a fetch;
 *   partial: the sectors the store left invalid: 3 after one lane (one
 *            96 B request), none after a whole line;
 *   full:    the whole line in both cases (GPGPU-Sim 3.x wr_miss_wa).
 * GPU-homed (co 0): the fetch is a GDDR read; host-homed (co 100): a
 * remote read of 96 or 128 B over the link. */
START_TEST(write_fill_fetches_what_the_store_left)
{
    static const struct { const char *mode; unsigned lanes; uint64_t fetches, bytes; } c[] = {
        { "none", 1, 0, 0 }, { "none", 32, 0, 0 },
        { "partial", 1, 1, 96 }, { "partial", 32, 0, 0 },
        { "full", 1, 1, 128 }, { "full", 32, 1, 128 },
    };
    for (size_t i = 0; i < N(c); i++) {
        trace_begin(1, 32);
        trace_inst(0, 0, "STG.E", HOST_LINE, c[i].lanes);
        trace_end();
        char wf[64];
        snprintf(wf, sizeof wf, "l2.write_fill=%s", c[i].mode);
        const char *const x[] = { "gpu.sms=1", wf };
        struct run r = run_trace(0, x, N(x));
        ck_assert_uint_eq(st(&r, "l2.misses"), 1);
        ck_assert_uint_eq(st(&r, "l2.write_fills"), c[i].fetches);
        ck_assert_uint_eq(st(&r, "l2.dram_reads"), c[i].fetches);
        ck_assert_uint_eq(has(&r, "l2.write_fills"), strcmp(c[i].mode, "none") != 0);
        done(&r);
        r = run_trace(100, x, N(x));
        ck_assert_uint_eq(st(&r, "remote.reads"), c[i].fetches);
        ck_assert_uint_eq(st(&r, "remote.h2d_bytes"), c[i].bytes);
        ck_assert_uint_eq(st(&r, "l2.dram_reads"), 0);
        done(&r);
        unlink(trace_path);
    }
}
END_TEST

/* thesis-ch6.yaml is the Table 6.3 machine: 90 GB/s link in 16 B flits,
 * one header flit per <= 128 B, the hop once (host.latency 100, link
 * latency 0), GDDR5 336 GB/s, DDR4 80 GB/s, BW-AWARE 20C-80B, the L2
 * fetching on write-allocate. */
START_TEST(thesis_ch6_preset_is_table_6_3)
{
    struct cfg_error err;
    struct config *c = config_load("configs/thesis-ch6.yaml", NULL, 0, &err);
    if (!c) ck_abort_msg("config: %s", err.msg);
    ck_assert_double_eq_tol(cfg_f64(c, "link.bandwidth"), 90e9, 1);
    ck_assert_uint_eq(cfg_u64(c, "link.flit"), 16);
    ck_assert_uint_eq(cfg_u64(c, "link.header"), 16);
    ck_assert_uint_eq(cfg_u64(c, "link.max_payload"), 128);
    ck_assert_uint_eq(cfg_u64(c, "link.latency"), 0);
    ck_assert_uint_eq(cfg_u64(c, "host.latency"), 100);
    ck_assert_uint_eq(cfg_u64(c, "dram.channels"), 8);
    ck_assert_uint_eq(cfg_u64(c, "host.dram.channels"), 4);
    ck_assert_uint_eq(cfg_u64(c, "l2.size"), 1 << 20);
    ck_assert_str_eq(cfg_str(c, "l2.write_fill"), "full");
    ck_assert_str_eq(cfg_str(c, "driver.placement"), "bw-aware");
    ck_assert_double_eq(cfg_f64(c, "driver.place.co_percent"), 20);
    /* 8 x 8 B x 4 x 1312.5 MHz = 336 GB/s; 4 x 8 B x 2 x 1250 MHz = 80 GB/s. */
    ck_assert_double_eq_tol(cfg_f64(c, "dram.clock") * 8 * 8 * 4, 336e9, 1);
    ck_assert_double_eq_tol(cfg_f64(c, "host.dram.clock") * 4 * 8 * 2, 80e9, 1);
    config_free(c);
}
END_TEST

/* thesis-ch6-inputs.yaml is thesis-ch6.yaml's machine with the input
 * sizes of thesis-ch4-inputs.yaml: every key outside workload.* the same. */
static const struct config *cmp_other;
static int cmp_diffs;
static void cmp_key(void *ctx, const struct cfg_value *v)
{
    (void)ctx;
    if (!strncmp(v->key->path, "workload.", 9)) return;
    const struct cfg_value *o = cfg_get(cmp_other, v->key->path);
    if (!o || strcmp(o->text, v->text)) {
        fprintf(stderr, "%s: %s vs %s\n", v->key->path, v->text, o ? o->text : "-");
        cmp_diffs++;
    }
}

START_TEST(thesis_ch6_inputs_keep_the_machine)
{
    struct cfg_error err;
    struct config *a = config_load("configs/thesis-ch6.yaml", NULL, 0, &err);
    if (!a) ck_abort_msg("config: %s", err.msg);
    struct config *b = config_load("configs/thesis-ch6-inputs.yaml", NULL, 0, &err);
    if (!b) ck_abort_msg("config: %s", err.msg);
    cmp_other = a;
    cmp_diffs = 0;
    config_foreach(b, cmp_key, NULL);
    ck_assert_int_eq(cmp_diffs, 0);
    ck_assert_uint_eq(cfg_u64(b, "workload.bfs.nodes"), 250000);
    config_free(a);
    config_free(b);
}
END_TEST

/* ---- point 2: naive selective caching ---- */

/* One warp: load, load, store, load of one line (the store writes the
 * whole line).  HW CC: the first load misses both levels and fetches the
 * line over the link; the second hits the L1D; the store writes through
 * (the L1D copy updated, no allocation) and hits the L2's line, which
 * stays dirty; the last load hits the L1D: 1 remote read, 0 writes.
 * Naive selective caching (gpu.caching.remote none): the host-homed line
 * is never allocated: no L1D lookup, no L2 hit or miss, each of the four
 * requests crosses the link (3 reads, 1 posted write).  A GPU-homed line
 * is cached under both. */
START_TEST(naive_never_caches_host_lines)
{
    trace_begin(1, 32);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 32);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 32);
    trace_inst(0, 0, "STG.E", HOST_LINE, 32);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 32);
    trace_end();
    static const char *const all[] = { "gpu.sms=1" };
    struct run r = run_trace(100, all, N(all));
    ck_assert_uint_eq(st(&r, "gpu.l1d.misses"), 1);
    ck_assert_uint_eq(st(&r, "gpu.l1d.hits"), 2);
    ck_assert_uint_eq(st(&r, "l2.misses"), 1);
    ck_assert_uint_eq(st(&r, "l2.hits"), 1);
    ck_assert_uint_eq(st(&r, "remote.reads"), 1);
    ck_assert_uint_eq(st(&r, "remote.writes"), 0);
    ck_assert(!has(&r, "gpu.caching.uncached_lines"));
    done(&r);
    static const char *const none[] = { "gpu.sms=1", "gpu.caching.remote=none" };
    r = run_trace(100, none, N(none));
    ck_assert_uint_eq(st(&r, "gpu.l1d.misses") + st(&r, "gpu.l1d.hits"), 0);
    ck_assert_uint_eq(st(&r, "l2.misses") + st(&r, "l2.hits"), 0);
    ck_assert_uint_eq(st(&r, "l2.remote_uncached"), 4);
    ck_assert_uint_eq(st(&r, "gpu.caching.uncached_lines"), 4);
    ck_assert_uint_eq(st(&r, "remote.reads"), 3);
    ck_assert_uint_eq(st(&r, "remote.writes"), 1);
    ck_assert_uint_eq(st(&r, "remote.h2d_bytes"), 3 * 128);
    ck_assert_uint_eq(st(&r, "remote.d2h_bytes"), 128);
    done(&r);
    r = run_trace(0, none, N(none));
    ck_assert_uint_eq(st(&r, "gpu.l1d.misses"), 1);
    ck_assert_uint_eq(st(&r, "gpu.l1d.hits"), 2);
    ck_assert_uint_eq(st(&r, "l2.hits"), 1);
    ck_assert_uint_eq(st(&r, "gpu.caching.uncached_lines"), 0);
    done(&r);
    unlink(trace_path);
}
END_TEST

/* ---- point 3: the remote directory ---- */

/* The filter alone, at the thesis' sizing (64 KB, 4-slot buckets, 8-bit
 * fingerprints: 16384 buckets, 65536 slots = 8 MB of 128 B lines).  A
 * cuckoo filter of 4-slot buckets fills to about 95 % before an insertion
 * fails (Fan et al. 2014, Sec. 5: 95 %); every line put in is found (no
 * false negative); a line never put in is found with probability
 * 1 - (1 - 2^-8)^(2 x 4 x load) (two buckets of 4 slots, each holding a
 * given fingerprint with 2^-8): 2.93 % at a 95 % load, under the 2b / 2^f
 * = 3.1 % bound, "3 %" in Sec. 6.2.1.  100 000 lookups measure it to
 * +-0.06 % (one standard deviation). */
START_TEST(directory_filter_sizing_and_false_positives)
{
    struct rdir *d = rdir_create(64 * 1024, 4, 8, 1);
    ck_assert(d != NULL);
    ck_assert_uint_eq(rdir_capacity(d), 65536);
    struct rng g;
    rng_init(&g, 7, "test");
    static uint64_t in[65536];
    uint64_t n = 0;
    /* Distinct lines: odd numbers; the absent ones asked below are even. */
    while (n < 65536) {
        uint64_t line = (rng_next(&g) >> 8) | 1;
        if (!rdir_insert(d, line)) break;
        in[n++] = line;
    }
    ck_assert_msg(n >= 62000 && n < 65536, "filled %llu of 65536 slots", (unsigned long long)n);
    rdir_free(d);
    /* Again to 95 % exactly (below the failure point: nothing lost). */
    d = rdir_create(64 * 1024, 4, 8, 1);
    uint64_t k = 65536 * 95 / 100;
    for (uint64_t i = 0; i < k; i++) ck_assert(rdir_insert(d, in[i]));
    ck_assert_uint_eq(rdir_count(d), k);
    for (uint64_t i = 0; i < k; i++) ck_assert(rdir_contains(d, in[i]));
    uint64_t fp = 0, q = 100000;
    for (uint64_t i = 0; i < q; i++) fp += rdir_contains(d, (rng_next(&g) >> 8) & ~1ULL);
    double rate = (double)fp / (double)q;
    ck_assert_msg(rate > 0.0275 && rate < 0.0311, "false positives %.4f, derived 0.0293", rate);
    rdir_reset(d);
    ck_assert_uint_eq(rdir_count(d), 0);
    ck_assert(!rdir_contains(d, in[0]));
    rdir_free(d);
}
END_TEST

/* One L2 slice, host memory and the link, driven directly, with the CPU
 * side attached: 1 GHz core, a 16 GB/s link of 16 B flits and 16 B
 * headers (a request or a NACK 16 B = 1000 ps, a 128 B answer 144 B = 9000
 * ps), 1 us one way, the 100-cycle hop. */
static const struct l2_cpu bench_cpu = { link_cpu_probe, link_cpu_answer };

static void bench_init(struct bench *b, const char *const *extra, size_t n)
{
    static const char *const base[] = {
        "gpu.clock=1GHz", "dram.channels=1", "link.bandwidth=16GB/s", "link.encoding=none",
        "link.dllp_interval=0", "link.latency=1us", "host.dram.tREFI=0", "host.latency=100",
        "link.header=16B", "link.flit=16B", "link.completion_header=16B", "link.max_payload=128B",
        "link.max_read_request=128B", "link.rcb=0B", "dram.tREFI=0",
    };
    bench_setup(b, base, N(base), extra, n);
    link_remote_client_cache(b->link, b->c, b->st, b->core.period);
    b->cpu = link_cpu_create(b->link, b->c, b->st, b->core.period);
    l2_set_cpu(b->l, &bench_cpu, b->cpu, NULL, NULL);
}

static sim_time edge(sim_time t, sim_time p) { return (t + p - 1) / p * p; }

/* A load (or store) of `mask` at pa into the slice at the next core edge
 * after the engine's clock; runs the engine dry; returns the answer's time
 * and its LINE_* flags. */
static sim_time bench_access(struct bench *b, enum req_kind k, uint64_t pa, uint8_t mask,
                             uint8_t *flags)
{
    sim_time t0 = edge(engine_now(b->e) + 1000000, 1000);
    engine_run_until(b->e, t0, NULL, NULL, &(enum run_status){ 0 });
    struct mem_req *r = req_alloc(&b->pool);
    r->kind = k;
    r->paddr = pa;
    r->sector_mask = mask;
    r->size = (uint32_t)__builtin_popcount(mask) * 32;
    r->reply = &b->reply;
    r->t_issue = t0;
    ck_assert(mq_push(l2_slice_in(b->l, l2_slice_of(b->l, pa)), r, t0, NULL));
    engine_run(b->e);
    ck_assert_uint_eq(b->reply.n, 1);
    sim_time t = b->reply.ready[b->reply.head];
    struct mem_req *a = mq_pop(&b->reply, TIME_NEVER - 1);
    if (flags) *flags = a->xflags;
    req_release(&b->pool, a);
    return t - t0;
}

static void bench_cpu_read(struct bench *b, uint64_t pa)
{
    sim_time t0 = edge(engine_now(b->e) + 1000000, 1000);
    engine_run_until(b->e, t0, NULL, NULL, &(enum run_status){ 0 });
    l2_cpu_read(b->l, pa, t0);
    engine_run(b->e);
}

/* A CPU request for a GPU-homed line the L2 caches (Sec. 6.2.1): the line
 * enters the directory and leaves the L2 (its 128 B go D2H to the CPU);
 * the GPU's next load of it is routed to the CPU, which holds it: a 16 B
 * request D2H (1000 ps), 1 us, the CPU's cache answering after the
 * 100-cycle hop, 144 B H2D (9000 ps), 1 us, then the slice's next core
 * edge -- after the 8 + 120 cycles of crossbar and L2 latency:
 *   128 000 + 1000 + 1 000 000 + 100 000 + 9000 + 1 000 000 = 2 238 000 ps.
 * The answer says LINE_NOCACHE (the L1D must not keep it either), and the
 * line is routed again the next time: nothing kept it. */
START_TEST(cpu_request_flushes_line_into_directory)
{
    static const char *const x[] = { "gpu.caching.remote=none" };
    struct bench b;
    bench_init(&b, x, N(x));
    uint64_t pa = 0x40000;
    uint8_t fl;
    bench_access(&b, REQ_LOAD, pa, 0xf, &fl);
    ck_assert_uint_eq(bstat(&b, "l2.misses"), 1);
    ck_assert_uint_eq(bench_access(&b, REQ_LOAD, pa, 0xf, &fl), 128 * 1000);   /* a hit */
    ck_assert_uint_eq(bstat(&b, "l2.hits"), 1);
    ck_assert_uint_eq(bstat(&b, "remote_dir.inserts"), 0);
    bench_cpu_read(&b, pa);
    ck_assert_uint_eq(bstat(&b, "remote_dir.inserts"), 1);
    ck_assert_uint_eq(bstat(&b, "remote_dir.discarded_lines"), 1);
    ck_assert_uint_eq(bstat(&b, "cpu.d2h_bytes"), 128);
    ck_assert(l2_cpu_holds(b.l, pa));
    sim_time t = bench_access(&b, REQ_LOAD, pa, 0xf, &fl);
    ck_assert_uint_eq(t, 2238000);
    ck_assert(fl & LINE_NOCACHE);
    ck_assert_uint_eq(bstat(&b, "remote_dir.hits"), 1);
    ck_assert_uint_eq(bstat(&b, "cpu.probes"), 1);
    ck_assert_uint_eq(bstat(&b, "remote_dir.false_positives"), 0);
    ck_assert_uint_eq(bstat(&b, "l2.hits"), 1);
    ck_assert_uint_eq(bench_access(&b, REQ_LOAD, pa, 0xf, &fl), 2238000);
    ck_assert_uint_eq(bstat(&b, "remote_dir.hits"), 2);
    /* Another line is not routed (an empty bucket pair: no false positive
     * for it, checked on a twin filter). */
    struct rdir *twin = rdir_create(64 * 1024, 4, 8, 1);
    ck_assert(rdir_insert(twin, pa >> 7));
    uint64_t other = 0x80000;
    while (rdir_contains(twin, other >> 7)) other += 128;
    bench_access(&b, REQ_LOAD, other, 0xf, &fl);
    ck_assert(!(fl & LINE_NOCACHE));
    ck_assert_uint_eq(bstat(&b, "remote_dir.hits"), 2);
    ck_assert_uint_eq(bstat(&b, "remote_dir.lookups"), 3);
    /* A false positive: a line whose fingerprint the twin reports although
     * only pa was put in.  The CPU NACKs (16 B back: the round trip is
     * 128 000 + 1000 + 1 us + 100 000 + 1000 + 1 us), then GPU memory
     * serves it, uncached. */
    uint64_t fpl = 0x100000;
    while (!rdir_contains(twin, fpl >> 7)) fpl += 128;
    rdir_free(twin);
    uint64_t gddr = bstat(&b, "dram.reads");
    t = bench_access(&b, REQ_LOAD, fpl, 0xf, &fl);
    ck_assert_uint_gt(t, 128000 + 1000 + 1000000 + 100000 + 1000 + 1000000);
    ck_assert(fl & LINE_NOCACHE);
    ck_assert_uint_eq(bstat(&b, "remote_dir.false_positives"), 1);
    ck_assert_uint_eq(bstat(&b, "cpu.nacks"), 1);
    ck_assert_uint_eq(bstat(&b, "dram.reads"), gddr + 1);
    bench_free(&b);
}
END_TEST

/* Full or at the high-water mark: the CPU flushes its GPU-homed lines and
 * the directory starts empty.  64 B of 8-bit fingerprints in 4-slot
 * buckets: 16 buckets, 64 slots; a high-water mark of 50 % is 32.  The
 * 33rd distinct line finds 32 and flushes: one flush, 33 inserts, the
 * first line no longer held by the CPU, the last one held. */
START_TEST(directory_flushes_at_high_water)
{
    static const char *const x[] = { "gpu.caching.remote=none", "l2.remote_dir.size=64B",
                                     "l2.remote_dir.high_water=50%" };
    struct bench b;
    bench_init(&b, x, N(x));
    for (uint64_t i = 0; i < 33; i++) bench_cpu_read(&b, 0x40000 + i * 128);
    ck_assert_uint_eq(bstat(&b, "remote_dir.inserts"), 33);
    ck_assert_uint_eq(bstat(&b, "remote_dir.flushes"), 1);
    ck_assert(!l2_cpu_holds(b.l, 0x40000));
    ck_assert(l2_cpu_holds(b.l, 0x40000 + 32 * 128));
    bench_free(&b);
}
END_TEST

/* Whole runs: with no CPU traffic the directory stays empty (thesis Sec.
 * 6.2.1: "remains largely empty"): nothing inserted, nothing looked up.
 * With the stream (a read every 200 ns over the 1 MiB the GPU reads) it
 * fills: one read per 200 ns until the GPU is done (the run ends at most
 * one CPU round trip later, < 3 us: 1 us each way, a GDDR read and the
 * wire), every read sent is served, each inserts at most one line,
 * and every GPU request it routes is a CPU probe, every NACK a false
 * positive. */
START_TEST(directory_empty_without_cpu_traffic)
{
    static const char *const x[] = { "gpu.sms=1", "gpu.caching.remote=none",
                                     "workload.kind=stream", "workload.stream.footprint=1MiB",
                                     "workload.stream.op=read", "workload.stream.passes=2" };
    struct run r = run_trace(0, x, N(x));
    ck_assert(has(&r, "remote_dir.inserts"));
    ck_assert_uint_eq(st(&r, "remote_dir.inserts"), 0);
    ck_assert_uint_eq(st(&r, "remote_dir.lookups"), 0);
    ck_assert(!has(&r, "cpu.stream.requests"));
    done(&r);
    static const char *const y[] = { "gpu.sms=1", "gpu.caching.remote=none",
                                     "workload.kind=stream", "workload.stream.footprint=1MiB",
                                     "workload.stream.op=read", "workload.stream.passes=2",
                                     "cpu.stream.interval=200ns", "cpu.stream.footprint=1MiB" };
    r = run_trace(0, y, N(y));
    uint64_t sent = st(&r, "cpu.stream.requests");
    ck_assert_uint_eq(st(&r, "cpu.stream.skipped"), 0);
    ck_assert_uint_ge(sent, (end_of(&r) - 3000000) / 200000 - 1);
    ck_assert_uint_le(sent, end_of(&r) / 200000);
    ck_assert_uint_eq(st(&r, "cpu.reads"), sent);
    ck_assert_uint_le(st(&r, "remote_dir.inserts"), sent);
    ck_assert_uint_gt(st(&r, "remote_dir.inserts"), 0);
    ck_assert_uint_gt(st(&r, "remote_dir.lookups"), 0);
    ck_assert_uint_eq(st(&r, "cpu.probes"), st(&r, "remote_dir.hits"));
    ck_assert_uint_eq(st(&r, "cpu.nacks"), st(&r, "remote_dir.false_positives"));
    ck_assert_uint_eq(st(&r, "cpu.d2h_bytes"), 128 * sent);
    done(&r);
}
END_TEST

/* ---- point 4: cacheless request coalescing ---- */

/* Two warps of one SM each read the same host-homed line (32 lanes x 4 B):
 * both loads are in flight together (a remote round trip is > 2 us, the
 * second warp issues a cycle after the first).  Naive: two requests cross
 * the link.  L1 coalescing: the second attaches to the first's cacheless
 * MSHR: one 128 B request, 2 remote loads of which 1 coalesced, and the
 * line is not kept (a third read, after both, crosses again: 2 in all).
 * L1+L2 is the same on one SM. */
START_TEST(two_warps_one_line_one_request)
{
    trace_begin(1, 64);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 32);
    trace_inst(0, 1, "LDG.E", HOST_LINE, 32);
    trace_end();
    static const struct { const char *co; uint64_t reads, coalesced; } c[] = {
        { "none", 2, 0 }, { "l1", 1, 1 }, { "l1l2", 1, 1 },
    };
    for (size_t i = 0; i < N(c); i++) {
        char co[64];
        snprintf(co, sizeof co, "gpu.caching.coalesce=%s", c[i].co);
        const char *const x[] = { "gpu.sms=1", "gpu.caching.remote=none", co };
        struct run r = run_trace(100, x, N(x));
        ck_assert_uint_eq(st(&r, "remote.reads"), c[i].reads);
        ck_assert_uint_eq(st(&r, "remote.h2d_bytes"), 128 * c[i].reads);
        ck_assert_uint_eq(st(&r, "gpu.caching.l1_coalesced"), c[i].coalesced);
        ck_assert_uint_eq(st(&r, "gpu.caching.remote_loads"), i ? 2 : 0);
        ck_assert_uint_eq(st(&r, "gpu.l1d.hits") + st(&r, "gpu.l1d.misses"), 0);
        ck_assert_uint_eq(st(&r, "l2.hits") + st(&r, "l2.misses"), 0);
        done(&r);
    }
    unlink(trace_path);
    /* Read again after the line came back: it was discarded. */
    trace_begin(1, 32);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 32);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 32);
    trace_end();
    static const char *const x[] = { "gpu.sms=1", "gpu.caching.remote=none",
                                     "gpu.caching.coalesce=l1l2" };
    struct run r = run_trace(100, x, N(x));
    ck_assert_uint_eq(st(&r, "remote.reads"), 2);
    ck_assert_uint_eq(st(&r, "gpu.caching.l1_coalesced"), 0);
    ck_assert_uint_eq(st(&r, "l2.coalesced"), 0);
    done(&r);
    unlink(trace_path);
}
END_TEST

/* Two SMs (one block each, blocks go round robin) read the same host line
 * at the same time: each SM's L1 has its own MSHR, so L1 coalescing sends
 * two requests; L1+L2 coalescing attaches the second SM's 128 B request to
 * the slice's cacheless MSHR: one request crosses the link, and the line
 * is delivered to both SMs. */
START_TEST(two_sms_one_line_one_request_with_l2)
{
    trace_begin(2, 32);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 32);
    trace_inst(1, 0, "LDG.E", HOST_LINE, 32);
    trace_end();
    static const struct { const char *co; uint64_t reads, l2co; } c[] = {
        { "l1", 2, 0 }, { "l1l2", 1, 1 },
    };
    for (size_t i = 0; i < N(c); i++) {
        char co[64];
        snprintf(co, sizeof co, "gpu.caching.coalesce=%s", c[i].co);
        const char *const x[] = { "gpu.sms=2", "gpu.caching.remote=none", co };
        struct run r = run_trace(100, x, N(x));
        const struct stat_entry *e = stats_find(system_stats(r.s), "sm.mem_insts");
        ck_assert_uint_eq(e->p.u[0], 1);
        ck_assert_uint_eq(e->p.u[1], 1);
        ck_assert_uint_eq(st(&r, "remote.reads"), c[i].reads);
        ck_assert_uint_eq(st(&r, "gpu.caching.l1_coalesced"), 0);
        ck_assert_uint_eq(st(&r, "gpu.caching.remote_loads"), 2);
        ck_assert_uint_eq(st(&r, "l2.coalesced"), c[i].l2co);
        done(&r);
    }
    unlink(trace_path);
}
END_TEST

/* 128 B line utilisation (Table 6.2): two warps of one SM read sectors 0-1
 * (16 lanes) of two different host lines and, for the second line, a
 * third warp reads sectors 2-3 while it is in flight.  With whole-line
 * transfers each line brings 4 sectors: 8 came back, 2 + 4 = 6 were asked
 * for: 75 %; the link carried 2 x 128 B.  Measured at the L1D with L1
 * coalescing, at the L2 slice with L1+L2 coalescing (where the L1's
 * request says which sectors it wanted). */
START_TEST(line_utilisation_counts_asked_sectors)
{
    trace_begin(1, 96);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 16);
    trace_inst(0, 1, "LDG.E", HOST_LINE + 0x1000, 16);
    trace_inst(0, 2, "LDG.E", HOST_LINE + 0x1000 + 64, 16);
    trace_end();
    static const char *const l1[] = { "gpu.sms=1", "gpu.caching.remote=none",
                                      "gpu.caching.coalesce=l1" };
    struct run r = run_trace(100, l1, N(l1));
    ck_assert_uint_eq(st(&r, "remote.reads"), 2);
    ck_assert_uint_eq(st(&r, "remote.h2d_bytes"), 256);
    ck_assert_uint_eq(st(&r, "gpu.caching.l1_line_sectors"), 8);
    ck_assert_uint_eq(st(&r, "gpu.caching.l1_used_sectors"), 6);
    done(&r);
    static const char *const l12[] = { "gpu.sms=1", "gpu.caching.remote=none",
                                       "gpu.caching.coalesce=l1l2" };
    r = run_trace(100, l12, N(l12));
    ck_assert_uint_eq(st(&r, "remote.reads"), 2);
    ck_assert_uint_eq(st(&r, "l2.cacheless_sectors"), 8);
    /* The L2 sees each L1 MSHR's request once, with the sectors it wanted
     * when it was sent: the third warp's attach at the L1 comes later, so
     * the slice counts 2 + 2. */
    ck_assert_uint_eq(st(&r, "l2.cacheless_used_sectors"), 4);
    done(&r);
    unlink(trace_path);
}
END_TEST

/* ---- point 5: the CPU-side client cache ---- */

/* Reads of one host-homed line through a slice that does not keep it
 * (l2.remote_cache false: each read crosses), with a 512 KiB client cache
 * (100-cycle access after landing, the 100-cycle hop).  From the request
 * entering the slice (a core edge t0):
 *   miss: 128 cycles of crossbar + L2, 16 B request D2H (1000 ps), 1 us,
 *         the 100 000 ps lookup; DDR4 at its next 800 ps edge: 34 x 800
 *         ps (two 64 B bursts: tRCD 12 + tCL 12 + 4 + tCCD_L 6), the
 *         100 000 ps hop; 144 B H2D (9000 ps), 1 us, the next core edge;
 *   hit:  128 000 + 1000 + 1 000 000 + 100 000 (lookup) + 100 000 (hop)
 *         + 9000 + 1 000 000 = 2 338 000 ps: the 200 cycles of Sec. 6.3
 *         between landing and leaving.
 * A store to the line updates it (write-through: it goes on to DDR4 too);
 * a store to an absent line does not allocate it: its read misses. */
START_TEST(client_cache_hit_and_miss_latencies)
{
    static const char *const x[] = { "l2.remote_cache=false", "host.client_cache.size=512KiB" };
    struct bench b;
    bench_init(&b, x, N(x));
    uint64_t pa = PADDR_HOST | 0x40000;
    sim_time t0 = edge(engine_now(b.e) + 1000000, 1000);
    sim_time miss = bench_access(&b, REQ_LOAD, pa, 0xf, NULL);
    sim_time land = t0 + 128000 + 1000 + 1000000 + 100000;
    sim_time back = edge(land, 800) + 34 * 800 + 100000 + 9000 + 1000000;
    ck_assert_uint_eq(miss, edge(back, 1000) - t0);
    ck_assert_uint_eq(bstat(&b, "host.client_cache.misses"), 1);
    ck_assert_uint_eq(bstat(&b, "host.dram.reads"), 1);
    ck_assert_uint_eq(bench_access(&b, REQ_LOAD, pa, 0xf, NULL), 2338000);
    ck_assert_uint_eq(bstat(&b, "host.client_cache.hits"), 1);
    ck_assert_uint_eq(bstat(&b, "host.dram.reads"), 1);
    /* A hit asks for its own sectors: 2 of them come back, 64 B. */
    ck_assert_uint_eq(bench_access(&b, REQ_LOAD, pa, 0x3, NULL), 2338000 - 4000);
    ck_assert_uint_eq(bstat(&b, "remote.h2d_bytes"), 128 + 128 + 64);
    bench_access(&b, REQ_STORE, pa, 0xf, NULL);
    ck_assert_uint_eq(bstat(&b, "host.client_cache.write_updates"), 1);
    ck_assert_uint_eq(bstat(&b, "host.dram.writes"), 1);
    uint64_t other = PADDR_HOST | 0x80000;
    bench_access(&b, REQ_STORE, other, 0xf, NULL);
    ck_assert_uint_eq(bstat(&b, "host.client_cache.write_updates"), 1);
    bench_access(&b, REQ_LOAD, other, 0xf, NULL);
    ck_assert_uint_eq(bstat(&b, "host.client_cache.misses"), 2);
    ck_assert_uint_eq(bstat(&b, "host.client_cache.hits"), 2);
    bench_free(&b);
}
END_TEST

/* Two reads of one line land together: one DDR4 read fills the line, the
 * second waits for it in the client cache's MSHR (merge) and both are
 * answered with it. */
START_TEST(client_cache_merges_reads_of_a_pending_line)
{
    static const char *const x[] = { "l2.remote_cache=false", "host.client_cache.size=64KiB" };
    struct bench b;
    bench_init(&b, x, N(x));
    uint64_t pa = PADDR_HOST | 0x40000;
    sim_time t0 = edge(engine_now(b.e) + 1000000, 1000);
    engine_run_until(b.e, t0, NULL, NULL, &(enum run_status){ 0 });
    for (int i = 0; i < 2; i++) {
        struct mem_req *r = req_alloc(&b.pool);
        r->kind = REQ_LOAD;
        r->paddr = pa;
        r->sector_mask = i ? 0xc : 0x3;
        r->size = 64;
        r->reply = &b.reply;
        ck_assert(mq_push(l2_slice_in(b.l, 0), r, t0, NULL));
    }
    engine_run(b.e);
    ck_assert_uint_eq(b.reply.n, 2);
    while (b.reply.n) req_release(&b.pool, mq_pop(&b.reply, TIME_NEVER - 1));
    ck_assert_uint_eq(bstat(&b, "host.client_cache.misses"), 1);
    ck_assert_uint_eq(bstat(&b, "host.client_cache.merges"), 1);
    ck_assert_uint_eq(bstat(&b, "host.dram.reads"), 1);
    ck_assert_uint_eq(bstat(&b, "remote.h2d_bytes"), 128);
    bench_free(&b);
}
END_TEST

/* ---- point 6: variable-size link transfers ---- */

/* NVLink-like packets (16 B flits, one 16 B header per <= 128 B).  One
 * warp reads sectors 0-1 (16 lanes x 4 B) of a host line with L1
 * coalescing: whole-line transfers bring 128 B (144 B on the wire), a
 * variable transfer the 2 sectors asked: 64 B + one header flit = 80 B.
 * Then two warps read sectors 0-1 and 2-3 of one line in flight: one
 * MSHR; with whole lines one request and 144 B, with variable transfers
 * the second warp's sectors go out as a second request and the MSHR is
 * filled by two answers of 80 B. */
START_TEST(variable_transfers_move_asked_sectors)
{
    static const char *const pk[] = { "link.header=16B", "link.flit=16B",
                                      "link.completion_header=16B", "link.max_payload=128B",
                                      "link.max_read_request=128B", "link.rcb=0B",
                                      "gpu.sms=1", "gpu.caching.remote=none",
                                      "gpu.caching.coalesce=l1", NULL };
    const char *x[12];
    memcpy(x, pk, sizeof pk);
    trace_begin(1, 32);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 16);
    trace_end();
    struct run r = run_trace(100, x, 9);
    ck_assert_uint_eq(st(&r, "remote.h2d_bytes"), 128);
    ck_assert_uint_eq(st(&r, "link.h2d.remote_wire_bytes"), 144);
    done(&r);
    x[9] = "link.variable_transfers=true";
    r = run_trace(100, x, 10);
    ck_assert_uint_eq(st(&r, "remote.reads"), 1);
    ck_assert_uint_eq(st(&r, "remote.h2d_bytes"), 64);
    ck_assert_uint_eq(st(&r, "link.h2d.remote_wire_bytes"), 80);
    ck_assert_uint_eq(st(&r, "gpu.caching.l1_line_sectors"), 2);
    ck_assert_uint_eq(st(&r, "gpu.caching.l1_used_sectors"), 2);
    done(&r);
    unlink(trace_path);

    trace_begin(1, 64);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 16);
    trace_inst(0, 1, "LDG.E", HOST_LINE + 64, 16);
    trace_end();
    r = run_trace(100, x, 9);
    ck_assert_uint_eq(st(&r, "remote.reads"), 1);
    ck_assert_uint_eq(st(&r, "gpu.caching.l1_coalesced"), 1);
    ck_assert_uint_eq(st(&r, "link.h2d.remote_wire_bytes"), 144);
    done(&r);
    r = run_trace(100, x, 10);
    ck_assert_uint_eq(st(&r, "remote.reads"), 2);
    ck_assert_uint_eq(st(&r, "gpu.caching.l1_coalesced"), 1);
    ck_assert_uint_eq(st(&r, "remote.h2d_bytes"), 128);
    ck_assert_uint_eq(st(&r, "link.h2d.remote_wire_bytes"), 160);
    done(&r);
    /* The same through the slices' MSHRs (L1+L2). */
    x[8] = "gpu.caching.coalesce=l1l2";
    r = run_trace(100, x, 10);
    ck_assert_uint_eq(st(&r, "remote.reads"), 2);
    ck_assert_uint_eq(st(&r, "link.h2d.remote_wire_bytes"), 160);
    ck_assert_uint_eq(st(&r, "l2.cacheless_sectors"), 4);
    ck_assert_uint_eq(st(&r, "l2.cacheless_used_sectors"), 4);
    done(&r);
    unlink(trace_path);
}
END_TEST

/* ---- point 7: promiscuous read-only caching ---- */

static struct run run_ro(const char *lat, const char *max, const char *const *more, size_t n)
{
    char l[64], m[64];
    snprintf(l, sizeof l, "gpu.caching.ro_fault_latency=%s", lat);
    snprintf(m, sizeof m, "gpu.sm.max_prot_faults=%s", max);
    const char *x[16] = { "gpu.sms=1", "gpu.caching.remote=readonly", l, m };
    ck_assert_uint_le(4 + n, 16);
    if (n) memcpy(x + 4, more, n * sizeof *more);
    return run_trace(100, x, 4 + n);
}

/* Three warps of one SM: warps 0 and 2 write page A (whole lines), warp 1
 * reads a line of page B twice.  The first write to A raises a protection
 * fault; warp 2's write to A attaches to it; both warps wait the fault's
 * latency, then re-execute (translation again), uncached over the link.
 * Warp 1 is not held: B stays read-only, its second read hits the L1D.
 * Raising the latency from 20 to 40 us moves each stalled warp's wait by
 * exactly 20 us (20 000 cycles at 1 GHz; all times whole cycles): the
 * fault-stalled warp-cycles grow by 2 x 20 000 -- two warps, not three --
 * and the run's end by 20 us. */
START_TEST(write_to_readonly_page_costs_fault_latency)
{
    uint64_t a = HOST_LINE, b = HOST_LINE + 0x10000;
    trace_begin(1, 96);
    trace_inst(0, 0, "STG.E", a, 32);
    trace_inst(0, 1, "LDG.E", b, 32);
    trace_inst(0, 1, "LDG.E", b, 32);
    trace_inst(0, 2, "STG.E", a + 128, 32);
    trace_end();
    struct run r20 = run_ro("20us", "16", NULL, 0);
    struct run r40 = run_ro("40us", "16", NULL, 0);
    ck_assert_uint_eq(st(&r20, "gpu.caching.prot_faults"), 1);
    ck_assert_uint_eq(st(&r20, "gpu.caching.prot_fault_waits"), 1);
    ck_assert_uint_eq(st(&r20, "gpu.caching.rw_pages"), 1);
    ck_assert_uint_eq(st(&r20, "gpu.l1d.hits"), 1);
    ck_assert_uint_eq(st(&r20, "remote.reads"), 1);
    ck_assert_uint_eq(st(&r20, "remote.writes"), 2);
    ck_assert_uint_eq(st(&r20, "gpu.caching.pages_touched"), 2);
    ck_assert_uint_eq(st(&r20, "gpu.caching.pages_written"), 1);
    ck_assert_uint_eq(st(&r40, "gpu.fault_warp_cycles") - st(&r20, "gpu.fault_warp_cycles"),
                      2 * 20000);
    ck_assert_uint_eq(end_of(&r40) - end_of(&r20), 20000000);
    ck_assert_uint_ge(st(&r20, "gpu.fault_warp_cycles"), 2 * 20000);
    done(&r20);
    done(&r40);
    /* RO-ZeroCost: no fault, the page turns read-write at once. */
    static const char *const zc[] = { "gpu.caching.ro_zero_cost=true" };
    struct run z = run_ro("20us", "16", zc, 1);
    ck_assert_uint_eq(st(&z, "gpu.caching.prot_faults"), 0);
    ck_assert_uint_eq(st(&z, "gpu.caching.rw_pages"), 1);
    ck_assert_uint_eq(st(&z, "gpu.fault_warp_cycles"), 0);
    ck_assert_uint_lt(end_of(&z), 20000000);
    done(&z);
    unlink(trace_path);
}
END_TEST

/* Cached lines of a page that turns read-write are discarded: warp 0 reads
 * a line of page A (cached in L1D and L2), writes it (fault), reads it
 * again: the last read crosses the link (2 remote reads) and hits no
 * cache.  A second kernel re-marks A read-only (every launch): its write
 * faults again. */
START_TEST(readonly_page_turns_uncached_and_rearms_per_kernel)
{
    trace_begin(1, 32);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 32);
    trace_inst(0, 0, "STG.E", HOST_LINE, 32);
    trace_inst(0, 0, "LDG.E", HOST_LINE, 32);
    trace_launch(1, 1, 32);
    trace_inst_k(1, 0, 0, "LDG.E", HOST_LINE, 32);
    trace_inst_k(1, 0, 0, "STG.E", HOST_LINE, 32);
    trace_end();
    struct run r = run_ro("20us", "16", NULL, 0);
    ck_assert_uint_eq(st(&r, "gpu.kernels"), 2);
    ck_assert_uint_eq(st(&r, "gpu.caching.prot_faults"), 2);
    ck_assert_uint_eq(st(&r, "gpu.caching.rw_pages"), 2);
    /* Kernel 1: miss, (fault, write), remote read; kernel 2: its read is
     * cacheable again and misses (the lines went at the fault): 3. */
    ck_assert_uint_eq(st(&r, "remote.reads"), 3);
    ck_assert_uint_eq(st(&r, "gpu.l1d.hits"), 0);
    ck_assert_uint_eq(st(&r, "gpu.l1d.misses"), 2);
    ck_assert_uint_eq(st(&r, "remote.writes"), 2);
    /* gpu.caching.ro_remark never: A stays read-write after kernel 1, so
     * kernel 2's write does not fault (1 fault, 1 page made read-write)
     * and its read goes uncached (one L1D miss, kernel 1's first read);
     * the same 3 remote reads and 2 writes; kernel 2 no longer waits one
     * 20 us fault, so the run ends 20 us earlier, give or take the cycles
     * a cacheable miss and an uncached read differ by (< 1 us). */
    static const char *const nv[] = { "gpu.caching.ro_remark=never" };
    struct run n = run_ro("20us", "16", nv, 1);
    ck_assert_uint_eq(st(&n, "gpu.caching.prot_faults"), 1);
    ck_assert_uint_eq(st(&n, "gpu.caching.rw_pages"), 1);
    ck_assert_uint_eq(st(&n, "remote.reads"), 3);
    ck_assert_uint_eq(st(&n, "remote.writes"), 2);
    ck_assert_uint_eq(st(&n, "gpu.l1d.misses"), 1);
    uint64_t saved = end_of(&r) - end_of(&n);
    ck_assert_uint_ge(saved, 19000000);
    ck_assert_uint_le(saved, 21000000);
    done(&n);
    done(&r);
    unlink(trace_path);
}
END_TEST

/* 17 warps of one SM each write a page of its own (17 faults).  With 16
 * slots the 17th fault finds none: the SM stops issuing until the first
 * fault is over (20 us after it was raised), then raises the 17th, which
 * ends 20 us later: the run ends 20 us later than with 17 slots, less the
 * time between the first translation's return and the 17th's (17 page
 * walks, overlapping in the walker, each a few hundred cycles with its
 * PTE reads through the 120-cycle L2: under 500 ns), and the SM was
 * blocked once, for that long. */
START_TEST(seventeenth_fault_blocks_the_sm)
{
    trace_begin(1, 17 * 32);
    for (unsigned w = 0; w < 17; w++) trace_inst(0, w, "STG.E", HOST_LINE + w * 0x1000, 32);
    trace_end();
    struct run r16 = run_ro("20us", "16", NULL, 0);
    struct run r17 = run_ro("20us", "17", NULL, 0);
    ck_assert_uint_eq(st(&r16, "gpu.caching.prot_faults"), 17);
    ck_assert_uint_eq(st(&r17, "gpu.caching.prot_faults"), 17);
    ck_assert_uint_eq(st(&r16, "gpu.caching.prot_fault_blocks"), 1);
    ck_assert_uint_eq(st(&r17, "gpu.caching.prot_fault_blocks"), 0);
    ck_assert_uint_eq(st(&r17, "gpu.caching.prot_fault_blocked_ps"), 0);
    uint64_t blocked = st(&r16, "gpu.caching.prot_fault_blocked_ps");
    ck_assert_uint_le(blocked, 20000000);
    ck_assert_uint_ge(blocked, 20000000 - 500000);
    sim_time d = end_of(&r16) - end_of(&r17);
    ck_assert_uint_le(d, 20000000);
    ck_assert_uint_ge(d, 20000000 - 500000);
    done(&r16);
    done(&r17);
    unlink(trace_path);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("selcache");
    TCase *t = tcase_create("selcache");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, hw_cc_caches_host_lines_in_l1_and_l2);
    tcase_add_test(t, write_fill_fetches_what_the_store_left);
    tcase_add_test(t, thesis_ch6_preset_is_table_6_3);
    tcase_add_test(t, thesis_ch6_inputs_keep_the_machine);
    tcase_add_test(t, naive_never_caches_host_lines);
    tcase_add_test(t, directory_filter_sizing_and_false_positives);
    tcase_add_test(t, cpu_request_flushes_line_into_directory);
    tcase_add_test(t, directory_flushes_at_high_water);
    tcase_add_test(t, directory_empty_without_cpu_traffic);
    tcase_add_test(t, two_warps_one_line_one_request);
    tcase_add_test(t, two_sms_one_line_one_request_with_l2);
    tcase_add_test(t, line_utilisation_counts_asked_sectors);
    tcase_add_test(t, client_cache_hit_and_miss_latencies);
    tcase_add_test(t, client_cache_merges_reads_of_a_pending_line);
    tcase_add_test(t, variable_transfers_move_asked_sectors);
    tcase_add_test(t, write_to_readonly_page_costs_fault_latency);
    tcase_add_test(t, readonly_page_turns_uncached_and_rearms_per_kernel);
    tcase_add_test(t, seventeenth_fault_blocks_the_sm);
    suite_add_tcase(s, t);
    return run_suite(s);
}

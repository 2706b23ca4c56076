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
#include "config.h"
#include "stats.h"
#include "engine.h"
#include "mem_req.h"
#include "system.h"

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

int main(void)
{
    Suite *s = suite_create("selcache");
    TCase *t = tcase_create("selcache");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, hw_cc_caches_host_lines_in_l1_and_l2);
    tcase_add_test(t, write_fill_fetches_what_the_store_left);
    tcase_add_test(t, thesis_ch6_preset_is_table_6_3);
    tcase_add_test(t, naive_never_caches_host_lines);
    suite_add_tcase(s, t);
    return run_suite(s);
}

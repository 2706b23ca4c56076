/* Remote (CC-NUMA) accesses (sim/link link_remote.c, issue 18 point 1):
 * an L2 slice sends its misses on host-homed lines over the link to host
 * DDR4 and back, timed by hand below; the link's directions are shared
 * with copies. */
#include <check.h>
#include "suite_main.h"
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "config/config.h"
#include "core/stats.h"
#include "core/engine.h"
#include "core/mem_req.h"
#include "dram/dram.h"
#include "l2/l2.h"
#include "link/link.h"
#include "system.h"
#include "remote_bench.h"

#define N(a) (sizeof a / sizeof a[0])

/* A clean machine for hand timing: 1 GHz core (1000 ps cycles), one GDDR
 * channel (one L2 slice), a 16 GB/s link with neither line code nor DLLPs
 * (16e9 B/s of packets: 1 B = 62.5 ps), 1 us one-way latency, PCIe packet
 * formats (a read request 24 B, a completion 128 B + 20 B), host DDR4 at
 * 1250 MHz (800 ps) with no refresh, the 100-cycle hop. */
static const char *const base_sets[] = {
    "gpu.clock=1GHz", "dram.channels=1", "link.bandwidth=16GB/s", "link.encoding=none",
    "link.dllp_interval=0", "link.latency=1us", "host.dram.tREFI=0", "host.latency=100",
};

static void bench_init(struct bench *b, const char *const *extra, size_t n)
{
    bench_setup(b, base_sets, N(base_sets), extra, n);
}

static struct mem_req *req(struct bench *b, enum req_kind k, uint64_t pa, uint8_t mask, sim_time t0)
{
    struct mem_req *r = req_alloc(&b->pool);
    r->kind = k;
    r->paddr = pa;
    r->sector_mask = mask;
    r->size = (uint32_t)__builtin_popcount(mask) * 32;
    r->reply = &b->reply;
    r->t_issue = t0;
    return r;
}

/* Answers in arrival order: times into t[] (may be NULL), requests released. */
static size_t drain(struct bench *b, sim_time *t)
{
    size_t n = 0;
    while (b->reply.n) {
        if (t) t[n] = b->reply.ready[b->reply.head];
        req_release(&b->pool, mq_pop(&b->reply, TIME_NEVER - 1));
        n++;
    }
    return n;
}

static sim_time edge(sim_time t, sim_time p) { return (t + p - 1) / p * p; }

/* One 128 B line of a host-homed page, read through an idle L2 slice:
 *   t0                      the request enters the slice's queue (a core edge);
 *   t1 = t0 + (8 + 120) cy  visible after the crossbar and the L2 latency:
 *                           a miss, its fetch sent on the link at once;
 *   + 24 B / 16 GB/s        = 1500 ps: the read request on the D2H wire;
 *   + 1 us                  link latency: lands at the host;
 *   -> next 800 ps edge     host DDR4 channel sees it (input queue latency 0);
 *   + (tRCD 12 + tCL 12 + 4 + tCCD_L 6) x 800 ps = 27 200 ps: two 64 B
 *                           bursts of one row, one bank (dram_ctrl.c);
 *   + 100 x 1000 ps         the hop (host.latency, in the answer pipeline);
 *   + 148 B / 16 GB/s       = 9250 ps: the completion on the H2D wire;
 *   + 1 us                  link latency: back at the GPU end;
 *   -> next 1000 ps edge    the slice takes the fill and answers (port free).
 * That is link latency x 2 + hop + host DDR access + wire time, plus the
 * GPU's own crossbar + L2 and clock-edge alignment. */
START_TEST(one_line_read_timeline)
{
    struct bench b;
    bench_init(&b, NULL, 0);
    sim_time t0 = 1000000;
    engine_run_until(b.e, t0, NULL, NULL, &(enum run_status){ 0 });
    uint64_t pa = PADDR_HOST | 0x40000;
    ck_assert(mq_push(l2_slice_in(b.l, l2_slice_of(b.l, pa)), req(&b, REQ_LOAD, pa, 0xf, t0), t0, NULL));
    engine_run(b.e);
    sim_time t[4];
    ck_assert_uint_eq(drain(&b, t), 1);
    sim_time t1 = t0 + 128 * 1000;
    sim_time at_host = edge(t1 + 1500 + 1000000, 800);
    sim_time answered = at_host + 34 * 800 + 100 * 1000;
    sim_time back = answered + 9250 + 1000000;
    ck_assert_uint_eq(t[0], edge(back, 1000));
    /* GPU end to GPU end, as the statistic measures it. */
    const struct stat_entry *lat = stats_find(b.st, "remote.latency");
    ck_assert_double_eq_tol(stat_avg_value(lat->p.avg), (double)(back - t1), 0.5);
    ck_assert_uint_eq(bstat(&b, "remote.reads"), 1);
    ck_assert_uint_eq(bstat(&b, "remote.h2d_bytes"), 128);
    ck_assert_uint_eq(bstat(&b, "l2.remote_reads"), 1);
    ck_assert_uint_eq(bstat(&b, "l2.dram_reads"), 0);
    ck_assert_uint_eq(bstat(&b, "host.dram.reads"), 1);
    ck_assert_uint_eq(bstat(&b, "dram.reads"), 0);
    link_settle(b.link, engine_now(b.e));
    ck_assert_uint_eq(bstat(&b, "link.d2h.remote_busy_ps"), 1500);
    ck_assert_uint_eq(bstat(&b, "link.h2d.remote_busy_ps"), 9250);
    ck_assert_uint_eq(bstat(&b, "link.h2d.busy_ps"), 9250);
    /* Cached (l2.remote_cache, the CC-NUMA default): the line now hits. */
    sim_time t2 = edge(engine_now(b.e) + 1, 1000);
    ck_assert(mq_push(l2_slice_in(b.l, 0), req(&b, REQ_LOAD, pa, 0xf, t2), t2, NULL));
    engine_run(b.e);
    ck_assert_uint_eq(drain(&b, t), 1);
    ck_assert_uint_eq(t[0], t2 + 128 * 1000);
    ck_assert_uint_eq(bstat(&b, "remote.reads"), 1);
    bench_free(&b);
}
END_TEST

/* l2.remote_cache=false: each read crosses the link (the second one too,
 * same time as the first: both start from an idle machine at a core
 * edge); a store is posted: answered at the slice, its 128 B go D2H in one
 * write packet (24 B header: 152 B = 9500 ps) and are written to host
 * DDR4, and nothing comes back H2D. */
START_TEST(uncached_remote_lines_cross_every_time)
{
    static const char *const x[] = { "l2.remote_cache=false" };
    struct bench b;
    bench_init(&b, x, N(x));
    uint64_t pa = PADDR_HOST | 0x40000;
    sim_time d[2], t[2];
    for (int i = 0; i < 2; i++) {
        sim_time t0 = edge(engine_now(b.e) + 1000000, 1000);
        engine_run_until(b.e, t0, NULL, NULL, &(enum run_status){ 0 });
        ck_assert(mq_push(l2_slice_in(b.l, 0), req(&b, REQ_LOAD, pa, 0xf, t0), t0, NULL));
        engine_run(b.e);
        ck_assert_uint_eq(drain(&b, t), 1);
        d[i] = t[0] - t0;
    }
    ck_assert_uint_eq(bstat(&b, "remote.reads"), 2);
    ck_assert_uint_eq(bstat(&b, "l2.remote_uncached"), 2);
    ck_assert_uint_eq(bstat(&b, "l2.hits"), 0);
    ck_assert_msg(d[1] > 2000000, "second read took %llu ps: not across the link",
                  (unsigned long long)d[1]);
    sim_time t0 = edge(engine_now(b.e) + 1000000, 1000);
    engine_run_until(b.e, t0, NULL, NULL, &(enum run_status){ 0 });
    ck_assert(mq_push(l2_slice_in(b.l, 0), req(&b, REQ_STORE, pa, 0xf, t0), t0, NULL));
    engine_run(b.e);
    ck_assert_uint_eq(drain(&b, t), 1);
    ck_assert_uint_eq(t[0], t0 + 128 * 1000);        /* posted: answered by the slice */
    ck_assert_uint_eq(bstat(&b, "remote.writes"), 1);
    ck_assert_uint_eq(bstat(&b, "remote.d2h_bytes"), 128);
    ck_assert_uint_eq(bstat(&b, "host.dram.writes"), 1);
    link_settle(b.link, engine_now(b.e));
    ck_assert_uint_eq(bstat(&b, "link.d2h.remote_busy_ps"), 2 * 1500 + 9500);
    ck_assert_uint_eq(bstat(&b, "link.h2d.remote_busy_ps"), 2 * 9250);
    bench_free(&b);
}
END_TEST

/* N concurrent reads of distinct lines saturate the H2D wire: each answer
 * is one 148 B completion (9250 ps at 16 GB/s), the host answers faster
 * (4 DDR4 channels, 80 GB/s: ~1.6 ns a line), and 4 slices x 128 MSHRs
 * hold all 400 lines at once, more than the ~2.1 us round trip needs to
 * keep the wire busy (2.1 us / 9.25 ns = 227).  Once the
 * wire is busy the answers land exactly 9250 ps apart: the last - the
 * first = (N - 1) x 9250 ps, 128/148 x 16 GB/s = 13.84 GB/s of data, the
 * link's configured rate for 128 B completions. */
START_TEST(concurrent_reads_saturate_the_link)
{
    static const char *const x[] = { "dram.channels=4" };
    struct bench b;
    bench_init(&b, x, N(x));
    enum { NR = 400 };
    sim_time t0 = 1000000;
    engine_run_until(b.e, t0, NULL, NULL, &(enum run_status){ 0 });
    for (uint64_t i = 0; i < NR; i++) {
        uint64_t pa = PADDR_HOST | (0x100000 + i * 128);
        ck_assert(mq_push(l2_slice_in(b.l, l2_slice_of(b.l, pa)), req(&b, REQ_LOAD, pa, 0xf, t0),
                          t0, NULL));
    }
    engine_run(b.e);
    static sim_time t[NR];
    ck_assert_uint_eq(drain(&b, t), NR);
    /* Landings back at the GPU end are what the slices see, at their next
     * core edge: compare the exact wire spacing through the statistic. */
    link_settle(b.link, engine_now(b.e));
    ck_assert_uint_eq(bstat(&b, "link.h2d.remote_busy_ps"), (uint64_t)NR * 9250);
    ck_assert_uint_eq(bstat(&b, "link.h2d.busy_ps"), (uint64_t)NR * 9250);
    double span = (double)(t[NR - 1] - t[0]);
    /* Core-edge rounding moves each end by < 1000 ps. */
    ck_assert_msg(fabs(span - (NR - 1) * 9250.0) < 1000.0, "answers span %.0f ps, derived %.0f",
                  span, (NR - 1) * 9250.0);
    ck_assert_uint_eq(bstat(&b, "remote.h2d_bytes"), (uint64_t)NR * 128);
    bench_free(&b);
}
END_TEST

static void dma_done(void *obj, uint64_t arg, sim_time now) { (void)arg; *(sim_time *)obj = now; }

/* A 64 KiB H2D copy (512 completions of 148 B: 75 776 B, 4 736 000 ps on
 * the wire) and 200 remote reads (200 x 9250 = 1 850 000 ps) share the H2D
 * wire: its busy time is the sum, the remote share exactly the reads', and
 * the later of the two lands no earlier than the sum after the wire's
 * first use -- and no gap: not much later either.  The copy takes the wire
 * first (its engine sits at the host; the reads' requests cross 1 us
 * first), so the remote reads finish later than they do alone. */
START_TEST(copy_and_remote_reads_share_a_direction)
{
    static const char *const x[] = { "dram.channels=4" };
    sim_time alone = 0, with = 0;
    for (int pass = 0; pass < 2; pass++) {
        struct bench b;
        bench_init(&b, x, N(x));
        sim_time t0 = 1000000, done = 0;
        engine_run_until(b.e, t0, NULL, NULL, &(enum run_status){ 0 });
        if (pass) link_dma(b.link, LINK_H2D, 0x4000000, 65536, t0, dma_done, &done, 0);
        for (uint64_t i = 0; i < 200; i++) {
            uint64_t pa = PADDR_HOST | (0x100000 + i * 128);
            ck_assert(mq_push(l2_slice_in(b.l, l2_slice_of(b.l, pa)),
                              req(&b, REQ_LOAD, pa, 0xf, t0), t0, NULL));
        }
        engine_run(b.e);
        static sim_time t[200];
        ck_assert_uint_eq(drain(&b, t), 200);
        link_settle(b.link, engine_now(b.e));
        uint64_t remote = 200 * 9250ULL, copy = pass ? 4736000 : 0;
        ck_assert_uint_eq(bstat(&b, "link.h2d.busy_ps"), copy + remote);
        ck_assert_uint_eq(bstat(&b, "link.h2d.remote_busy_ps"), remote);
        if (pass) {
            with = t[199];
            sim_time last = done > t[199] ? done : t[199];
            /* First use: the copy's first host read answered (t0 + 34 x
             * 800 ps of DDR4 + the 100 ns hop). */
            sim_time first_use = t0 + 34 * 800 + 100000;
            ck_assert_uint_ge(last, first_use + copy + remote + 1000000);
            ck_assert_uint_le(last, first_use + copy + remote + 1000000 + 10000);
        } else {
            alone = t[199];
        }
        bench_free(&b);
    }
    ck_assert_msg(with > alone, "the reads ended at %llu ps beside a copy, %llu alone",
                  (unsigned long long)with, (unsigned long long)alone);
}
END_TEST

/* ---- whole runs: the advice paths that map pages to the host ---- */

struct run { struct config *c; struct system *s; };

static struct run run(const char *const *x, size_t n)
{
    const char *sets[16] = { "gpu.sms=1", "workload.stream.footprint=1MiB",
                             "workload.stream.op=read" };
    size_t k = 3;
    ck_assert_uint_le(k + n, 16);
    memcpy(sets + k, x, n * sizeof *x);
    struct cfg_error err;
    struct run r;
    r.c = config_load(NULL, sets, k + n, &err);
    if (!r.c) ck_abort_msg("config: %s", err.msg);
    r.s = system_build(r.c);
    ck_assert_int_eq(system_run(r.s), RUN_COMPLETED);
    return r;
}

static void done(struct run *r) { system_free(r->s); config_free(r->c); }

static uint64_t rstat(const struct run *r, const char *name)
{
    const struct stat_entry *st = stats_find(system_stats(r->s), name);
    ck_assert_msg(st != NULL, "no stat %s", name);
    return *st->p.u;
}

/* Preferred location host (cudaMemAdviseSetPreferredLocation(cpu)): each
 * of the 256 pages faults once and is mapped to its host copy; its 32
 * lines are then read over the link, one 128 B fetch each (a warp reads
 * 32 x 4 B = one line): 256 x 32 = 8192 remote reads, 8192 x 128 B back,
 * none from GDDR, no page copied.  (Before issue 18 these lines were
 * timed as GPU memory: 8192 GDDR fetches.) */
START_TEST(preferred_host_reads_cross_the_link)
{
    static const char *const x[] = { "workload.stream.advice=preferred_host",
                                     "workload.stream.passes=1" };
    struct run r = run(x, N(x));
    ck_assert_uint_eq(rstat(&r, "driver.remote_mapped"), 256);
    ck_assert_uint_eq(rstat(&r, "remote.reads"), 8192);
    ck_assert_uint_eq(rstat(&r, "l2.remote_reads"), 8192);
    ck_assert_uint_eq(rstat(&r, "remote.h2d_bytes"), 8192 * 128);
    ck_assert_uint_eq(rstat(&r, "host.dram.reads"), 8192);
    ck_assert_uint_eq(rstat(&r, "l2.dram_reads"), 0);
    ck_assert_uint_eq(rstat(&r, "link.h2d.transfers"), 0);
    done(&r);
}
END_TEST

/* Accessed-by (cudaMemAdviseSetAccessedBy(gpu)) at 50 % memory: pass 1
 * faults all 256 pages in and evicts 128, which stay mapped to their host
 * copies; pass 2 reads every line of those remotely, without a fault:
 * at least 32 remote reads per page mapped so, and no more than two
 * passes' worth (8192 + 8192 lines in all, less the resident ones). */
START_TEST(accessed_by_reads_evicted_pages_remotely)
{
    static const char *const x[] = { "workload.stream.advice=accessed_by",
                                     "gpu.memory.fraction=50%" };
    struct run r = run(x, N(x));
    uint64_t mapped = rstat(&r, "driver.accessed_by_mapped");
    ck_assert_uint_ge(mapped, 128);
    ck_assert_uint_ge(rstat(&r, "remote.reads"), 32 * 128);
    ck_assert_uint_le(rstat(&r, "remote.reads"), 2 * 8192);
    /* Host DDR4 serves the remote reads and the migrations' copies (32
     * reads of 128 B a page). */
    ck_assert_uint_eq(rstat(&r, "host.dram.reads"),
                      rstat(&r, "remote.reads") + 32 * rstat(&r, "driver.pages_migrated"));
    done(&r);
}
END_TEST

/* The remote path (and the host side in step with the engine) only when a
 * page can be host-homed: plain unified memory keeps the host side's
 * run-ahead and its statistics schema. */
START_TEST(remote_path_only_when_a_page_can_be_host_homed)
{
    static const char *const plain[] = { "workload.stream.passes=1" };
    struct run r = run(plain, N(plain));
    struct system_parts p;
    system_parts(r.s, &p);
    ck_assert(!link_remote_enabled(p.link));
    ck_assert(stats_find(system_stats(r.s), "remote.reads") == NULL);
    done(&r);
    static const char *const adv[] = { "workload.stream.passes=1",
                                       "workload.stream.advice=preferred_host" };
    r = run(adv, N(adv));
    system_parts(r.s, &p);
    ck_assert(link_remote_enabled(p.link));
    done(&r);
    static const char *const thr[] = { "workload.stream.passes=1", "driver.thrashing.enabled=true" };
    r = run(thr, N(thr));
    system_parts(r.s, &p);
    ck_assert(link_remote_enabled(p.link));
    ck_assert_uint_eq(rstat(&r, "remote.reads"), 0);
    done(&r);
}
END_TEST

/* ---- one warp of an SM reading one host-homed line (issue 18 acceptance) ----
 * A replayed trace of one LDG by 32 lanes of 4 B at 0x10000000: one 128 B
 * line, one warp, one SM; `driver.placement: bw-aware` with co_percent 100
 * homes every page in host memory at allocation (no fault, no copy), 0
 * homes it in GPU memory.  The machine is base_sets' (1 GHz core, 16 GB/s
 * link without line code, 1 us latency, DDR4 at 800 ps, 100-cycle hop). */
static char line_trace[64];

static void write_line_trace(void)
{
    strcpy(line_trace, "/tmp/uvmsim-remote-lineXXXXXX");
    int fd = mkstemp(line_trace);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert(f != NULL);
    fprintf(f, "MEMTRACE: CTX 0x1 - LAUNCH - Kernel pc 0x0 - Kernel name one_line - grid launch "
               "id 0 - grid size 1,1,1 - block size 32,1,1 - nregs 16 - shmem 0 - cuda stream id 0\n"
               "MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA 0,0,0 - warp 0 - LDG.E -");
    for (int i = 0; i < 32; i++) fprintf(f, " 0x%x", 0x10000000 + 4 * i);
    fprintf(f, "\n");
    ck_assert_int_eq(fclose(f), 0);
}

struct line_run { sim_time end; double remote_lat; uint64_t remote, host_reads, gddr_reads, faults; };

static struct line_run run_line(int co_percent, const char *const *x, size_t n)
{
    char file[96], co[64];
    snprintf(file, sizeof file, "workload.trace.file=%s", line_trace);
    snprintf(co, sizeof co, "driver.place.co_percent=%d", co_percent);
    const char *sets[32];
    size_t k = N(base_sets);
    memcpy(sets, base_sets, sizeof base_sets);
    const char *const mine[] = { "gpu.sms=1", "workload.kind=trace", file,
                                 "driver.placement=bw-aware", co };
    memcpy(sets + k, mine, sizeof mine);
    k += N(mine);
    ck_assert_uint_le(k + n, 32);
    if (n) memcpy(sets + k, x, n * sizeof *x);
    struct cfg_error err;
    struct run r;
    r.c = config_load(NULL, sets, k + n, &err);
    if (!r.c) ck_abort_msg("config: %s", err.msg);
    r.s = system_build(r.c);
    ck_assert_int_eq(system_run(r.s), RUN_COMPLETED);
    struct line_run o;
    o.end = engine_end_time(system_engine(r.s));
    o.gddr_reads = rstat(&r, "dram.reads");
    o.host_reads = rstat(&r, "host.dram.reads");
    o.faults = rstat(&r, "driver.faults");
    const struct stat_entry *rl = stats_find(system_stats(r.s), "remote.reads");
    o.remote = rl ? *rl->p.u : 0;
    const struct stat_entry *lat = stats_find(system_stats(r.s), "remote.latency");
    o.remote_lat = lat ? stat_avg_value(lat->p.avg) : 0;
    done(&r);
    return o;
}

/* What the warp waits for beyond a GPU-homed read is the remote round
 * trip, GPU end to GPU end, as one_line_read_timeline derives it:
 *   24 B request / 16 GB/s = 1500 ps, + 1 us to the host,
 *   + up to one 800 ps DDR4 edge, + 34 x 800 ps (tRCD 12 + tCL 12 + burst
 *   4 + tCCD_L 6: two 64 B bursts), + 100 x 1000 ps hop,
 *   + 148 B completion / 16 GB/s = 9250 ps, + 1 us back
 *   = 2 137 950 ps (+ < 800 ps of edge).
 * At SM level (the run's end, set by the warp's exit once its load is
 * answered), each term is moved on its own: link.latency 1 -> 2 us adds
 * 2 x 1 us (both ways; 1 us is a whole number of 800 and 1000 ps edges,
 * so no alignment moves); host.latency 100 -> 300 cycles adds 200 x 1000
 * ps; an 8 GB/s link doubles both wire times (+1500 +9250 ps, the 800 ps
 * DDR4 edge after the request lands and the 1000 ps core edge after the
 * fill may each absorb up to one period). */
START_TEST(one_warp_reads_one_host_line)
{
    write_line_trace();
    struct line_run gpu = run_line(0, NULL, 0);
    struct line_run host = run_line(100, NULL, 0);
    unlink(line_trace);
    write_line_trace();
    ck_assert_uint_eq(gpu.remote, 0);
    ck_assert_uint_eq(gpu.gddr_reads, 1);
    ck_assert_uint_eq(host.remote, 1);
    ck_assert_uint_eq(host.host_reads, 1);
    ck_assert_uint_eq(host.gddr_reads, 0);
    ck_assert_uint_eq(host.faults, 0);
    double round = 1500 + 1e6 + 34 * 800 + 100 * 1000 + 9250 + 1e6;
    ck_assert_double_ge(host.remote_lat, round);
    ck_assert_double_lt(host.remote_lat, round + 800);
    /* The SM waits that long instead of a GDDR access, which is shorter
     * than the hop alone: the host-homed run ends later by at least the
     * round trip less one GDDR access (well under 100 ns on GDDR) and by no
     * more than the round trip plus the core edge. */
    ck_assert_uint_gt(host.end, gpu.end + (sim_time)round - 100000);
    ck_assert_uint_le(host.end, gpu.end + (sim_time)round + 800 + 1000);

    static const char *const lat2[] = { "link.latency=2us" };
    struct line_run l2 = run_line(100, lat2, 1);
    ck_assert_uint_eq(l2.end - host.end, 2 * 1000000);
    static const char *const hop3[] = { "host.latency=300" };
    struct line_run h3 = run_line(100, hop3, 1);
    ck_assert_uint_eq(h3.end - host.end, 200 * 1000);
    static const char *const bw8[] = { "link.bandwidth=8GB/s" };
    struct line_run b8 = run_line(100, bw8, 1);
    ck_assert_uint_ge(b8.end - host.end, 1500 + 9250 - 800);
    ck_assert_uint_le(b8.end - host.end, 1500 + 9250 + 800 + 1000);
    /* A GPU-homed line does not see the link at all. */
    struct line_run g2 = run_line(0, lat2, 1);
    ck_assert_uint_eq(g2.end, gpu.end);
    unlink(line_trace);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("remote");
    TCase *t = tcase_create("remote");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, one_line_read_timeline);
    tcase_add_test(t, uncached_remote_lines_cross_every_time);
    tcase_add_test(t, concurrent_reads_saturate_the_link);
    tcase_add_test(t, copy_and_remote_reads_share_a_direction);
    tcase_add_test(t, preferred_host_reads_cross_the_link);
    tcase_add_test(t, accessed_by_reads_evicted_pages_remotely);
    tcase_add_test(t, remote_path_only_when_a_page_can_be_host_homed);
    tcase_add_test(t, one_warp_reads_one_host_line);
    suite_add_tcase(s, t);
    return run_suite(s);
}

/* The SM side end to end (compute-only kernels, far-fault overlap, L1D and
 * L2 reuse and merging) against numbers derived by hand. */
#include <check.h>
#include "suite_main.h"
#include <string.h>
#include <stdio.h>
#include "config/config.h"
#include "core/stats.h"
#include "system.h"

#define MAXSET 24

struct run { struct config *c; struct system *s; double t, p; };

static struct run run(const char *const *sets, size_t n)
{
    struct cfg_error err;
    struct run r;
    r.c = config_load(NULL, sets, n, &err);
    if (!r.c) ck_abort_msg("config: %s", err.msg);
    r.s = system_build(r.c);
    ck_assert_int_eq(system_run(r.s), RUN_COMPLETED);
    r.t = (double)engine_end_time(system_engine(r.s));
    r.p = (double)system_core_period(r.s);
    return r;
}

static uint64_t sm0(const struct run *r, const char *name)
{
    const struct stat_entry *st = stats_find(system_stats(r->s), name);
    ck_assert_msg(st && st->kind == STAT_VECTOR, "no vector %s", name);
    return st->p.u[0];
}

static void done(struct run *r) { system_free(r->s); config_free(r->c); }

static uint64_t counter(const struct run *r, const char *name)
{
    const struct stat_entry *st = stats_find(system_stats(r->s), name);
    ck_assert_msg(st && st->kind == STAT_COUNTER, "no counter %s", name);
    return *st->p.u;
}

/* Compute-only machine: one SM unless overridden, no memory traffic. */
static struct run compute(const char *const *extra, size_t n)
{
    const char *sets[MAXSET] = {
        "workload.kind=compute", "gpu.memory.fraction=100%", "gpu.sms=1",
        "workload.compute.grid=1", "workload.compute.block=256",
        "workload.compute.insts=1000",
    };
    size_t k = 6;
    ck_assert_uint_le(k + n, MAXSET);
    if (n) memcpy(sets + k, extra, n * sizeof *extra);
    return run(sets, k + n);
}

#define N(a) (sizeof a / sizeof a[0])
#define WITHIN(t, want, frac) \
    ck_assert_msg((t) >= (want) * (1 - (frac)) && (t) <= (want) * (1 + (frac)), \
                  "%s = %.0f ps, hand-derived %.0f ps", #t, (double)(t), (double)(want))

/* 8 warps on 2 schedulers (warp slot i -> scheduler i mod 2): 4 warps
 * each; every warp issues 1000 one-cycle instructions and an exit, the
 * latency (1) never leaves a scheduler without a ready warp, so each
 * scheduler issues every cycle: 4 x 1001 = 4004 cycles (the last exit
 * issues in cycle 4003, which ends the kernel). */
START_TEST(compute_issue_bound)
{
    struct run r = compute(NULL, 0);
    WITHIN(r.t, 4003 * r.p, 0.01);
    ck_assert_uint_eq(counter(&r, "gpu.warp_insts"), 8 * 1001);
    done(&r);
}
END_TEST

/* Issue 2 cycles, latency 4: a warp of a scheduler with 4 warps gets its
 * turn every 4 x 2 = 8 cycles >= 4, so the scheduler stays busy:
 * 4 x (1000 x 2 + 1) = 8004 cycles. */
START_TEST(compute_multi_cycle_issue)
{
    static const char *const x[] = { "workload.compute.issue_cycles=2",
                                     "workload.compute.latency=4" };
    struct run r = compute(x, N(x));
    WITHIN(r.t, 8003 * r.p, 0.01);
    done(&r);
}
END_TEST

/* Issue width 2: each of the 2 schedulers issues 2 of its 4 warps' one-
 * cycle instructions per cycle: 4 x 1001 / 2 = 2002 cycles. */
START_TEST(compute_dual_issue)
{
    static const char *const x[] = { "gpu.sm.issue_width=2" };
    struct run r = compute(x, N(x));
    WITHIN(r.t, 2001 * r.p, 0.01);
    done(&r);
}
END_TEST

/* One warp, latency 10: latency-bound, 1000 x 10 cycles, then the exit. */
START_TEST(compute_latency_bound)
{
    static const char *const x[] = { "workload.compute.block=32",
                                     "workload.compute.latency=10" };
    struct run r = compute(x, N(x));
    WITHIN(r.t, 10000 * r.p, 0.01);
    done(&r);
}
END_TEST

/* 15 SMs, 30 blocks of 256 threads: Fermi occupancy is 6 blocks per SM
 * (threads 1536 / 256), so round-robin dispatch gives each SM 2 blocks =
 * 16 warps = 8 per scheduler: 8 x 1001 = 8008 cycles.  With GTO the
 * scheduler is just as busy: the same time. */
START_TEST(compute_many_sms_and_gto)
{
    static const char *const x[] = { "gpu.sms=15", "workload.compute.grid=30" };
    struct run r = compute(x, N(x));
    WITHIN(r.t, 8007 * r.p, 0.01);
    done(&r);
    static const char *const y[] = { "gpu.sms=15", "workload.compute.grid=30",
                                     "gpu.sm.scheduler=gto" };
    r = compute(y, N(y));
    WITHIN(r.t, 8007 * r.p, 0.01);
    done(&r);
}
END_TEST

/* Two launches with a 1 us launch latency before each: they run in order,
 * 2 x (1 us + 4003 cycles). */
START_TEST(kernels_in_order_with_launch_latency)
{
    static const char *const x[] = { "workload.compute.kernels=2",
                                     "gpu.kernel_launch_latency=1us" };
    struct run r = compute(x, N(x));
    WITHIN(r.t, 2 * (1e6 + 4003 * r.p), 0.01);
    ck_assert_uint_eq(counter(&r, "gpu.kernels"), 2);
    done(&r);
}
END_TEST

/* Far-fault overlap.  One SM, one scheduler.  Warp 0 first loads a line of
 * a non-resident page (a far fault: ~20 us of fault handling plus the
 * transfer), then computes 1000 instructions; warp 1 only computes.
 *   T1  = warp 0 alone (block of 32 threads);
 *   C   = warp 1's work alone = 1001 issue cycles;
 * serialized, the two would take T1 + C.  Replayable faults park only
 * warp 0, so warp 1's 1001 cycles run inside the fault: T2 = T1 (to a
 * cycle or two), i.e. T1 + C - T2 = C. */
START_TEST(fault_stalls_only_its_warp)
{
    static const char *const alone[] = { "gpu.sm.schedulers=1", "workload.compute.block=32",
                                         "workload.compute.load_warps=1" };
    static const char *const both[] = { "gpu.sm.schedulers=1", "workload.compute.block=64",
                                        "workload.compute.load_warps=1" };
    struct run r1 = compute(alone, N(alone));
    struct run r2 = compute(both, N(both));
    double c = 1001 * r2.p, serial = r1.t + c;
    ck_assert_msg(r1.t > 20e6, "the fault takes 20 us: %.0f", r1.t);
    ck_assert_msg(serial - r2.t >= c - 2 * r2.p && serial - r2.t <= c + 2 * r2.p,
                  "saved %.0f ps, derived %.0f ps", serial - r2.t, c);
    /* Warp 0 waited on the fault for at least the 20 us of handling; the
     * SM's fault-stall cycles are that wait minus warp 1's 1001 issues. */
    double fault_cycles = 20e6 / r2.p;
    ck_assert_uint_ge(counter(&r2, "gpu.fault_warp_cycles"), (uint64_t)fault_cycles);
    ck_assert_uint_le(counter(&r2, "gpu.fault_warp_cycles"), (uint64_t)(r2.t / r2.p));
    ck_assert_uint_ge(counter(&r2, "gpu.stall.fault"), (uint64_t)(fault_cycles - 1001));
    /* Every cycle from 0 to the last exit either issued or stalled: the
     * SM issued 1 + 1000 + 1 (warp 0) + 1001 (warp 1) = 2003 times. */
    static const char *const why[] = { "shootdown", "fault", "memory", "barrier",
                                       "pipeline", "idle" };
    uint64_t stalls = 0;
    char name[64];
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "sm.stall.%s", why[i]);
        stalls += sm0(&r2, name);
    }
    ck_assert_uint_eq(sm0(&r2, "sm.issue_cycles"), 2003);
    ck_assert_uint_eq(sm0(&r2, "sm.issue_cycles") + stalls, (uint64_t)(r2.t / r2.p + 0.5) + 1);
    ck_assert_uint_eq(sm0(&r2, "sm.stall.idle"), 0);
    done(&r1);
    done(&r2);
}
END_TEST

static struct run stream(const char *const *extra, size_t n)
{
    const char *sets[MAXSET] = {
        "gpu.memory.fraction=100%", "gpu.sms=1", "workload.stream.footprint=8KiB",
        "workload.stream.op=read",
    };
    size_t k = 4;
    if (n) memcpy(sets + k, extra, n * sizeof *extra);
    return run(sets, k + n);
}

/* 8 KiB read twice on one SM: 64 lines of 4 sectors, one per warp.  Pass 1
 * misses everything in the L1D and the L2 (64 GDDR reads of 128 B); the
 * 16 KiB 4-way L1D (32 sets, 2 lines each here) keeps all 64 lines, so
 * pass 2 hits in the L1D and never reaches the L2. */
START_TEST(l1d_and_l2_reuse)
{
    static const char *const x[] = { "workload.stream.passes=2" };
    struct run r = stream(x, N(x));
    ck_assert_uint_eq(counter(&r, "gpu.l1d.misses"), 64);
    ck_assert_uint_eq(counter(&r, "gpu.l1d.hits"), 64);
    ck_assert_uint_eq(counter(&r, "l2.misses"), 64);
    ck_assert_uint_eq(counter(&r, "l2.hits"), 0);
    ck_assert_uint_eq(counter(&r, "dram.bytes"), 8192);
    done(&r);
    /* Every load bypassing the L1D: pass 2 hits in the L2 instead. */
    static const char *const y[] = { "workload.stream.passes=2", "gpu.l1d.bypass=true" };
    r = stream(y, N(y));
    ck_assert_uint_eq(counter(&r, "gpu.l1d.hits") + counter(&r, "gpu.l1d.misses"), 0);
    ck_assert_uint_eq(counter(&r, "l2.misses"), 64);
    ck_assert_uint_eq(counter(&r, "l2.hits"), 64);
    ck_assert_uint_eq(counter(&r, "dram.bytes"), 8192);
    done(&r);
}
END_TEST

/* Four warps load 128 B each at a 32 B stride: warp w reads global
 * sectors w..w+3, i.e. line 0 = sectors 0-3, line 1 = sectors 4-7:
 *   w0: L0{0,1,2,3}   w1: L0{1,2,3} L1{0}   w2: L0{2,3} L1{0,1}
 *   w3: L0{3} L1{0,1,2}
 * They share one page, so their translations return together and their
 * lines reach the L1D in warp order: w0 L0 misses (fill 0xf); w1 L0
 * merges, w1 L1 misses (fill 0x1); w2 L0 merges, w2 L1 merges and asks
 * for sector 1; w3 L0 merges, w3 L1 merges and asks for sector 2.
 * L1D: 2 misses, 5 merges (3 on L0, 2 on L1), 4 fills.  The L2 sees the 4 fills: L0 and L1
 * miss, the two later L1 fills merge with new sectors: 2 misses,
 * 2 merges, 4 GDDR reads of 4 + 1 + 1 + 1 sectors = 224 B. */
START_TEST(mshr_merges_with_sector_requests)
{
    static const char *const x[] = { "workload.compute.block=128",
                                     "workload.compute.load_warps=4",
                                     "workload.compute.load_stride=32B",
                                     "workload.compute.insts=10" };
    struct run r = compute(x, N(x));
    ck_assert_uint_eq(counter(&r, "gpu.l1d.misses"), 2);
    ck_assert_uint_eq(counter(&r, "gpu.l1d.mshr_merges"), 5);
    ck_assert_uint_eq(counter(&r, "l2.misses"), 2);
    ck_assert_uint_eq(counter(&r, "l2.mshr_merges"), 2);
    ck_assert_uint_eq(counter(&r, "l2.dram_reads"), 4);
    ck_assert_uint_eq(counter(&r, "dram.bytes"), 224);
    done(&r);
    /* The same loads marked to bypass the L1D: the L2 sees the 7 line
     * requests themselves: L0 misses, w1-w3 merge on it (no new sectors);
     * L1 misses (w1), w2 and w3 merge with one new sector each:
     * 2 misses, 5 merges, the same 4 reads and 224 B. */
    static const char *const y[] = { "workload.compute.block=128",
                                     "workload.compute.load_warps=4",
                                     "workload.compute.load_stride=32B",
                                     "workload.compute.insts=10",
                                     "workload.compute.load_bypass=true" };
    r = compute(y, N(y));
    ck_assert_uint_eq(counter(&r, "gpu.l1d.misses") + counter(&r, "gpu.l1d.hits"), 0);
    ck_assert_uint_eq(counter(&r, "l2.misses"), 2);
    ck_assert_uint_eq(counter(&r, "l2.mshr_merges"), 5);
    ck_assert_uint_eq(counter(&r, "l2.dram_reads"), 4);
    ck_assert_uint_eq(counter(&r, "dram.bytes"), 224);
    done(&r);
}
END_TEST

/* Duration of kernel `seq` from the kernels table. */
static double kernel_ps(const struct run *r, size_t seq)
{
    const struct stats *st = system_stats(r->s);
    for (size_t i = 0; i < stats_table_count(st); i++) {
        const struct rec_table *t = stats_table_at(st, i);
        if (strcmp(t->name, "kernels") || seq >= t->nrows) continue;
        const unsigned char *row = t->rows + seq * t->row_bytes;
        uint64_t start, end;            /* fields: seq, name[32], start, end */
        memcpy(&start, row + 8 + 32, 8);
        memcpy(&end, row + 8 + 32 + 8, 8);
        return (double)(end - start);
    }
    ck_abort_msg("no kernel %zu", seq);
    return 0;
}

/* One warp reads 64 KiB (512 lines, one per load) twice.  In pass 2 every
 * page is resident and every line is in the L2 (1.5 MB) but not the L1D
 * (16 KiB, streamed through), so each load takes one L2 round trip, about
 * 3 + 2 x 8 + 120 cycles.  With one memory instruction in flight the loads
 * serialize: 512 round trips; with four, the warp keeps four round trips
 * in flight (issue, crossbar and L2 ports need 1-4 cycles per load, far
 * less than a round trip), so pass 2 takes a quarter as long, give or take
 * the per-load cycles that do not overlap. */
START_TEST(outstanding_loads_overlap)
{
    static const char *const one[] = { "workload.stream.grid=1", "workload.stream.block=32",
                                       "workload.stream.footprint=64KiB", "workload.stream.passes=2",
                                       "gpu.sm.max_outstanding_mem=1" };
    static const char *const four[] = { "workload.stream.grid=1", "workload.stream.block=32",
                                        "workload.stream.footprint=64KiB", "workload.stream.passes=2",
                                        "gpu.sm.max_outstanding_mem=4" };
    struct run a = stream(one, N(one)), b = stream(four, N(four));
    double t1 = kernel_ps(&a, 1), t4 = kernel_ps(&b, 1);
    ck_assert_uint_eq(counter(&a, "l2.hits"), 512);
    ck_assert_uint_eq(counter(&b, "l2.hits"), 512);
    ck_assert_msg(t1 >= 512 * 139 * a.p, "pass 2 with 1 in flight: %.0f cycles", t1 / a.p);
    ck_assert_msg(t1 / t4 >= 3.6 && t1 / t4 <= 4.0, "speedup %.3f (%.0f / %.0f cycles)",
                  t1 / t4, t1 / a.p, t4 / a.p);
    done(&a);
    done(&b);
}
END_TEST

/* Every warp loads the same address of one non-resident page, so one far
 * fault (at least 20 us of handling) holds them all.  Two SMs, one warp
 * each: the GMMU reports the fault for one SM, yet both warps are
 * fault-stalled for the whole wait: >= 2 x 20 us of warp-cycles, 20 us on
 * each SM.  One SM with 48 warps issuing one per cycle: the fault is
 * reported some 20 cycles after the first issue, when most warps have not
 * issued yet; those that ask for the page later are fault-stalled from
 * their issue on: >= 48 x (20 us - 48 cycles). */
START_TEST(fault_stall_counts_every_waiting_warp)
{
    static const char *const two[] = { "gpu.sms=2", "workload.compute.grid=2",
                                       "workload.compute.block=32", "workload.compute.insts=0",
                                       "workload.compute.load_warps=1",
                                       "workload.compute.load_stride=0B" };
    struct run r = compute(two, N(two));
    double f = 20e6 / r.p;
    ck_assert_uint_ge(counter(&r, "gpu.fault_warp_cycles"), (uint64_t)(2 * f));
    const struct stat_entry *v = stats_find(system_stats(r.s), "sm.fault_warp_cycles");
    ck_assert_uint_ge(v->p.u[0], (uint64_t)f);
    ck_assert_uint_ge(v->p.u[1], (uint64_t)f);
    done(&r);
    static const char *const many[] = { "gpu.sm.schedulers=1", "workload.compute.grid=2",
                                        "workload.compute.block=768", "workload.compute.insts=0",
                                        "workload.compute.load_warps=24",
                                        "workload.compute.load_stride=0B" };
    r = compute(many, N(many));
    ck_assert_uint_ge(counter(&r, "gpu.fault_warp_cycles"), (uint64_t)(48 * (f - 48)));
    done(&r);
}
END_TEST

/* A barrier makes the other warp wait for the faulted one.  Block of two
 * warps, one scheduler, barrier after 500 of 1000 instructions:
 *   warp 0: load, 500 compute, barrier, 500 compute, exit
 *   warp 1:       500 compute, barrier, 500 compute, exit
 * Without the barrier warp 1 finishes inside the fault and warp 0 needs
 * 1001 issue cycles after its load returns.  With it, warp 1 issues 501
 * inside the fault and waits; after the load returns warp 0 issues its
 * 501, the barrier opens, and the two issue their remaining 501 each:
 * 501 + 1002 = 1503 cycles, 502 more. */
START_TEST(barrier_waits_for_the_faulted_warp)
{
    static const char *const no[] = { "gpu.sm.schedulers=1", "workload.compute.block=64",
                                      "workload.compute.load_warps=1" };
    static const char *const bar[] = { "gpu.sm.schedulers=1", "workload.compute.block=64",
                                       "workload.compute.load_warps=1",
                                       "workload.compute.barrier_every=500" };
    struct run a = compute(no, N(no)), b = compute(bar, N(bar));
    double extra = (b.t - a.t) / a.p;
    ck_assert_msg(extra >= 501 && extra <= 503, "barrier adds %.1f cycles, derived 502", extra);
    ck_assert_uint_eq(counter(&b, "gpu.warp_insts"), 1003 + 1002);
    done(&a);
    done(&b);
}
END_TEST

/* Crossbar port bandwidth.  One SM writes 64 KiB twice with 48 warps;
 * pass 2 is all resident.  Each warp store carries 128 B, which at
 * port_bw B/cycle holds the SM's crossbar port 128 / port_bw cycles: at
 * 8 B/cycle 16 cycles, so pass 2's 512 stores need at least 512 x 16 =
 * 8192 cycles; at 32 B/cycle 4 cycles each (2048), and 48 warps with a
 * round trip of ~150 cycles still offer more than one store per 4 cycles,
 * so the port binds there too: the ratio is 4 (a little less, for the
 * start and the drain). */
START_TEST(crossbar_port_bandwidth)
{
    static const char *const w32[] = { "workload.stream.footprint=64KiB", "workload.stream.passes=2",
                                       "workload.stream.op=write", "gpu.xbar.port_bw=32" };
    static const char *const w8[] = { "workload.stream.footprint=64KiB", "workload.stream.passes=2",
                                      "workload.stream.op=write", "gpu.xbar.port_bw=8" };
    struct run a = stream(w32, N(w32)), b = stream(w8, N(w8));
    double t32 = kernel_ps(&a, 1) / a.p, t8 = kernel_ps(&b, 1) / b.p;
    ck_assert_msg(t8 >= 8192 && t32 >= 2048, "%.0f and %.0f cycles", t8, t32);
    ck_assert_msg(t8 / t32 >= 3.5 && t8 / t32 <= 4.0, "ratio %.3f (%.0f / %.0f)", t8 / t32, t8, t32);
    done(&a);
    done(&b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sm_system");
    TCase *t = tcase_create("system");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, compute_issue_bound);
    tcase_add_test(t, compute_multi_cycle_issue);
    tcase_add_test(t, compute_latency_bound);
    tcase_add_test(t, compute_dual_issue);
    tcase_add_test(t, compute_many_sms_and_gto);
    tcase_add_test(t, kernels_in_order_with_launch_latency);
    tcase_add_test(t, fault_stalls_only_its_warp);
    tcase_add_test(t, l1d_and_l2_reuse);
    tcase_add_test(t, mshr_merges_with_sector_requests);
    tcase_add_test(t, outstanding_loads_overlap);
    tcase_add_test(t, fault_stall_counts_every_waiting_warp);
    tcase_add_test(t, barrier_waits_for_the_faulted_warp);
    tcase_add_test(t, crossbar_port_bandwidth);
    suite_add_tcase(s, t);
    return run_suite(s);
}

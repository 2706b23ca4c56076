/* Eviction policies in timed runs of the whole machine (system.c), and
 * what feeds them (the HIR's host buffer, the program's copies):
 * HPE with its defaults receives the HIR's records (issue 11.1), the
 * configuration that would starve it is refused, and Ideal is a lower
 * bound on the HPE pattern workloads (issue 11.13). */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <string.h>
#include "config/config.h"
#include "core/stats.h"
#include "system.h"
#include "gmmu/gmmu.h"
#include "workloads/workload.h"

static struct config *load(const char *const *sets, size_t n)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    if (!c) ck_abort_msg("config: %s", err.msg);
    return c;
}

static uint64_t counter(struct system *s, const char *name)
{
    const struct stat_entry *st = stats_find(system_stats(s), name);
    ck_assert_msg(st && st->kind == STAT_COUNTER, "no counter %s", name);
    return *st->p.u;
}

/* HPE type II (pattern thrashing, 2 passes over 1024 pages, 75 % memory)
 * with every other key at its default: hit_feed hir, gmmu.hir.enabled
 * auto.  1024 pages do not fit the 512-entry L2 TLB, so pass 2 walks pages
 * that stayed resident: walk hits, which the HIR records and hands over
 * every 16th fault and before evictions.  So the HIR records walk hits
 * (none lost: 1024 pages are 64 sets, in a 1024-entry HIR), transfers them,
 * and the policy receives per-page records, at most one per recorded hit
 * (a record carries a page's count of hits).  With the HIR off (the old
 * default) none of this happened. */
START_TEST(hpe_defaults_receive_hir_records)
{
    const char *sets[] = { "workload.kind=pattern", "workload.pattern.pages=1024",
                           "gpu.memory.fraction=75%", "driver.eviction=hpe" };
    struct config *c = load(sets, 4);
    struct system *s = system_build(c);
    ck_assert_int_eq(system_run(s), RUN_COMPLETED);
    uint64_t hits = counter(s, "gmmu.walk_hits"), rec = counter(s, "gmmu.hir.records");
    ck_assert_uint_gt(hits, 0);
    ck_assert_uint_eq(rec, hits);
    ck_assert_uint_eq(counter(s, "gmmu.hir.lost"), 0);
    ck_assert_uint_gt(counter(s, "gmmu.hir.transfers"), 0);
    uint64_t fed = counter(s, "evict.hit_records");
    ck_assert_uint_gt(fed, 0);
    ck_assert_uint_le(fed, rec);
    system_free(s);
    config_free(c);
}
END_TEST

/* gmmu.hir.drain=landing installs the driver's take-as-they-land hook
 * (system.c).  The run of hpe_defaults_receive_hir_records with a host
 * buffer of one record: drained only at each batch, every transfer after
 * the first finds the buffer holding a record and loses its records;
 * drained as each transfer lands, only transfers that overlap in flight
 * do, so strictly fewer records are dropped. */
START_TEST(hir_drained_as_it_lands_drops_fewer)
{
    uint64_t dropped[2];
    for (int landing = 0; landing < 2; landing++) {
        const char *sets[] = { "workload.kind=pattern", "workload.pattern.pages=1024",
                               "gpu.memory.fraction=75%", "driver.eviction=hpe",
                               "gmmu.hir.host_records=1",
                               landing ? "gmmu.hir.drain=landing" : "gmmu.hir.drain=batch" };
        struct config *c = load(sets, 6);
        struct system *s = system_build(c);
        ck_assert_int_eq(system_run(s), RUN_COMPLETED);
        ck_assert_uint_gt(counter(s, "gmmu.hir.transfers"), 1);
        dropped[landing] = counter(s, "gmmu.hir.host_dropped");
        system_free(s);
        config_free(c);
    }
    ck_assert_uint_gt(dropped[0], 0);
    ck_assert_uint_lt(dropped[1], dropped[0]);
}
END_TEST

/* workload.copies=managed runs the program as demand-paged unified memory
 * (HPE Sec. I): backprop's eight cudaMemcpy steps (rodinia_backprop.c: two
 * in, forward kernel, one out, three in, adjust kernel, two out) are not
 * run and count as skipped, so no page arrives as a copy's prefetch and
 * every page the kernels touch faults in; with copy all eight run and the
 * two inputs of the first kernel arrive before it starts. */
START_TEST(managed_copies_are_not_run)
{
    uint64_t steps[2], skipped[2], prefetched[2], faults[2];
    for (int managed = 0; managed < 2; managed++) {
        const char *sets[] = { "workload.kind=backprop", "workload.backprop.in=4096",
                               "driver.eviction=lru",
                               managed ? "workload.copies=managed" : "workload.copies=copy" };
        struct config *c = load(sets, 4);
        struct system *s = system_build(c);
        ck_assert_int_eq(system_run(s), RUN_COMPLETED);
        steps[managed] = counter(s, "driver.host_steps");
        skipped[managed] = counter(s, "workload.host_steps_skipped");
        prefetched[managed] = counter(s, "evict.fed_prefetches");
        faults[managed] = counter(s, "evict.fed_faults");
        system_free(s);
        config_free(c);
    }
    ck_assert_uint_eq(steps[0], 8);
    ck_assert_uint_eq(skipped[0], 0);
    ck_assert_uint_gt(prefetched[0], 0);
    ck_assert_uint_eq(steps[1], 0);
    ck_assert_uint_eq(skipped[1], 8);
    ck_assert_uint_eq(prefetched[1], 0);
    ck_assert_uint_gt(faults[1], faults[0]);
}
END_TEST

/* The HIR is HPE's hardware: other policies leave it off (no link bytes),
 * HPE fed otherwise (hit_feed ideal or none) too. */
START_TEST(hir_stays_off_without_a_consumer)
{
    static const char *const variants[][2] = {
        { "driver.eviction=lru", "driver.evict.hpe.hit_feed=hir" },
        { "driver.eviction=hpe", "driver.evict.hpe.hit_feed=ideal" },
        { "driver.eviction=hpe", "driver.evict.hpe.hit_feed=none" },
    };
    for (int i = 0; i < 3; i++) {
        const char *sets[] = { "workload.kind=pattern", "workload.pattern.pages=1024",
                               "gpu.memory.fraction=75%", variants[i][0], variants[i][1] };
        struct config *c = load(sets, 5);
        struct system *s = system_build(c);
        ck_assert_int_eq(system_run(s), RUN_COMPLETED);
        ck_assert_uint_gt(counter(s, "gmmu.walk_hits"), 0);
        ck_assert_uint_eq(counter(s, "gmmu.hir.records"), 0);
        ck_assert_uint_eq(counter(s, "gmmu.hir.transfer_bytes"), 0);
        system_free(s);
        config_free(c);
    }
}
END_TEST

/* HPE on the HIR feed with the HIR forced off is refused, naming both
 * keys and where the HIR was turned off. */
START_TEST(hpe_with_hir_forced_off_is_refused)
{
    const char *sets[] = { "driver.eviction=hpe", "gmmu.hir.enabled=false" };
    struct cfg_error err;
    ck_assert_ptr_null(config_load(NULL, sets, 2, &err));
    ck_assert_msg(strstr(err.msg, "-s 'gmmu.hir.enabled=false'") == err.msg, "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "driver.eviction=hpe"), "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "driver.evict.hpe.hit_feed=hir"), "%s", err.msg);
    const char *ok[] = { "driver.eviction=hpe", "gmmu.hir.enabled=false", "driver.evict.hpe.hit_feed=none" };
    struct config *c = config_load(NULL, ok, 3, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    config_free(c);
}
END_TEST

static uint64_t pages_in(const char *type, const char *fraction, const char *policy)
{
    char t[96], f[64], e[64];
    snprintf(t, sizeof t, "workload.pattern.type=%s", type);
    snprintf(f, sizeof f, "gpu.memory.fraction=%s", fraction);
    snprintf(e, sizeof e, "driver.eviction=%s", policy);
    const char *sets[] = { "workload.kind=pattern", "workload.pattern.pages=512", "gpu.sms=1", t, f, e };
    struct config *c = load(sets, 6);
    struct system *s = system_build(c);
    ck_assert_int_eq(system_run(s), RUN_COMPLETED);
    uint64_t n = counter(s, "driver.pages_migrated");
    if (!strcmp(policy, "ideal")) ck_assert_uint_eq(counter(s, "evict.ideal.unmatched"), 0);
    system_free(s);
    config_free(c);
    return n;
}

/* Timed Ideal is a lower bound (issue 11.13): on every HPE pattern type at
 * 75 % and 50 % memory it takes no more faults (pages migrated; no
 * prefetcher, so one per demand fault) than LRU, FIFO, RRIP-FP, CLOCK-Pro
 * or HPE, beyond 1 %.  One SM (48 warps at once) so that the 512 warps of
 * a launch run in waves and the order of references matters; with all of
 * them resident together every page of a loop is referenced before the
 * first eviction of its launch.  For the loops (II, V: K = 512 pages, 2
 * passes, C frames) both ends are known: MIN over the logical order
 * faults K + (K - C + 1) times (pass 2 hits the C - 1 lowest pages it kept),
 * and no policy can fault fewer than K + (K - C) times (pass 2 starts with
 * at most C of its pages resident). */
START_TEST(ideal_is_a_lower_bound_on_the_hpe_patterns)
{
    static const char *const types[] = { "streaming", "thrashing", "part-repetitive",
                                         "most-repetitive", "repetitive-thrashing", "region-moving" };
    static const char *const fractions[] = { "75%", "50%" };
    static const char *const others[] = { "lru", "fifo", "rrip-fp", "clock-pro", "hpe" };
    for (int t = 0; t < 6; t++) {
        for (int f = 0; f < 2; f++) {
            uint64_t best = pages_in(types[t], fractions[f], "ideal");
            for (int o = 0; o < 5; o++) {
                uint64_t n = pages_in(types[t], fractions[f], others[o]);
                ck_assert_msg(best * 100 <= n * 101, "%s at %s: ideal %llu > %s %llu", types[t],
                              fractions[f], (unsigned long long)best, others[o], (unsigned long long)n);
            }
            if (t == 1 || t == 4) {
                uint64_t C = f ? 256 : 384;
                ck_assert_uint_le(best, 2 * 512 - C + 1);
                ck_assert_uint_ge(best, 2 * 512 - C);
            }
        }
    }
}
END_TEST

/* RRIP-FP's type II insertion (HPE Sec. V-B) acts in a timed run.  The
 * walk of a replayed access is the reference that faulted, so it must not
 * reach the policy as a hit too: with frequency priority that hit lifted
 * every newcomer from distant to long, and distant/delay ran exactly as
 * long/0.  Machine: pattern thrashing, K = 16 pages, 2 passes, 12 frames
 * (48 KiB), one SM holding one 8-warp block, so each launch runs as two
 * blocks A (pages 0-7) and B (8-15), one batch each; 2-bit RRPV (distant
 * 3, long 2).  Victims of a batch are chosen before its pages land; pages
 * land in page order and take the freed slots last-freed first; the
 * search scans slots from 0; r->faults counts insertions.
 *   Pass 1: A fills slots 0-7 (delays 0-7).  B: 8-11 take free frames, 4
 *   victims at faults 8: long ages all to 3, slots 0-3 = pages 0-3;
 *   distant/4 (8 - d >= 4: pages 0-4) the same.  B lands: 8->s3, 9->s2,
 *   10->s1, 11->s0, 12-15 -> s8-s11 (delays 8-15).
 *   Pass 2, A faults on 0-3 (4-7 hit their L1 TLB entries: no walk).
 *     long/0: distant are only 4-7 (B's pages are at 2): victims 4, 5, 6,
 *     7; B then finds 8-15 resident: 8 evictions, page 0 resident, 7 not.
 *     distant/4 at faults 16: eligible d <= 12, slots 0-3 first: victims
 *     11, 10, 9, 8; 0-3 land in s3, s2, s1, s0 (delays 16-19).  B faults
 *     on 8-11 at faults 20 (eligible d <= 16): s0-s2 (pages 3, 2, 1) too
 *     young, then s3 (page 0), s4-s6 (pages 4-6): 12 evictions, page 0
 *     not resident, page 7 resident.
 * With the replay walk fed as a hit, distant/4 gives long/0's outcome. */
static uint64_t rrip_fp_run_walks(const char *insert, const char *delay, const char *walks,
                                  bool *res0, bool *res7)
{
    const char *sets[] = { "workload.kind=pattern", "workload.pattern.type=thrashing",
                           "workload.pattern.pages=16", "gpu.memory.capacity=48KiB",
                           "gpu.sms=1", "gpu.sm.max_blocks=1", "driver.eviction=rrip-fp",
                           insert, delay, walks };
    struct config *c = load(sets, 10);
    struct system *s = system_build(c);
    ck_assert_int_eq(system_run(s), RUN_COMPLETED);
    struct system_parts p;
    system_parts(s, &p);
    uint64_t base = WL_VA_BASE >> PAGE_SHIFT;
    *res0 = gmmu_is_resident(p.gmmu, base);
    *res7 = gmmu_is_resident(p.gmmu, base + 7);
    uint64_t n = counter(s, "driver.evictions");
    system_free(s);
    config_free(c);
    return n;
}

static uint64_t rrip_fp_run(const char *insert, const char *delay, bool *res0, bool *res7)
{
    return rrip_fp_run_walks(insert, delay, "driver.evict.replay_walks=skip", res0, res7);
}

START_TEST(rrip_fp_distant_insertion_acts_in_timed_runs)
{
    bool r0, r7;
    ck_assert_uint_eq(rrip_fp_run("driver.evict.rrip_fp.insert=long",
                                  "driver.evict.rrip_fp.delay=0", &r0, &r7), 8);
    ck_assert(r0 && !r7);
    ck_assert_uint_eq(rrip_fp_run("driver.evict.rrip_fp.insert=distant",
                                  "driver.evict.rrip_fp.delay=4", &r0, &r7), 12);
    ck_assert(!r0 && r7);
}
END_TEST

/* driver.evict.replay_walks=feed (issue 42): each newcomer's replayed walk
 * is a hit, which lifts it from distant to long at once, so distant/4 gives
 * long/0's outcome (8 evictions, page 0 resident, 7 not), as the comment
 * above derives; every faulted page reaches the policy once more. */
START_TEST(rrip_fp_with_replay_walks_fed)
{
    bool r0, r7;
    ck_assert_uint_eq(rrip_fp_run_walks("driver.evict.rrip_fp.insert=distant", "driver.evict.rrip_fp.delay=4",
                                        "driver.evict.replay_walks=feed", &r0, &r7), 8);
    ck_assert(r0 && !r7);
}
END_TEST

static Suite *timed_suite(void)
{
    Suite *s = suite_create("evict_timed");
    TCase *t = tcase_create("timed");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, hpe_defaults_receive_hir_records);
    tcase_add_test(t, hir_drained_as_it_lands_drops_fewer);
    tcase_add_test(t, managed_copies_are_not_run);
    tcase_add_test(t, hir_stays_off_without_a_consumer);
    tcase_add_test(t, hpe_with_hir_forced_off_is_refused);
    tcase_add_test(t, ideal_is_a_lower_bound_on_the_hpe_patterns);
    tcase_add_test(t, rrip_fp_distant_insertion_acts_in_timed_runs);
    tcase_add_test(t, rrip_fp_with_replay_walks_fed);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(timed_suite());
}

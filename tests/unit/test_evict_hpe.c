/* HPE: partition movement over two intervals, classification of page-set
 * counter populations into the three classes (Table III, both on counts
 * and on sets built by faults and hits), LRU versus MRU-C choice, page-set
 * division, and the type-II (thrashing) loop where HPE evicts clearly
 * fewer pages than LRU. */
#include <check.h>
#include "suite_main.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "core/stats.h"
#include "driver/driver.h"
#include "driver/replay/replay.h"
#include "driver/evict/evict.h"
#include "driver/replay/hir_feed.h"

static struct config *cfg_sets(const char *const *sets, size_t n)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    return c;
}

static uint64_t victim(void *p)
{
    uint64_t v;
    ck_assert(evict_hpe_ops.victim(p, &v));
    return v;
}

/* Sets of 2 pages (set = page / 2), intervals of 4 faults, hits in order.
 * Interval 1: faults 0 2 4 6 (sets 0-3), hit 4; at its end all four are
 *   middle.
 * Interval 2: fault 8 (set 4, new); hit 0 moves set 0 to the MRU end of new;
 *   hit 8 moves nothing (already new); faults 10 12 (sets 5, 6); checks;
 *   fault 14 ends it: sets 1-3 old, sets 4 0 5 6 7 middle, in that order.
 * LRU victims: old from its LRU end (2 4 6), then middle (8, then 0).
 * MRU-C from the MRU end of old: set 3 (counter 1), set 2 (counter 2 =
 *   the set size) -> page 4 first. */
static void *two_intervals(const char *strategy)
{
    const char *sets[] = { "driver.evict.hpe.set_pages=2", "driver.evict.hpe.interval=4",
                           "driver.evict.hpe.hit_feed=ideal", strategy };
    struct config *c = cfg_sets(sets, 4);
    void *p = evict_hpe_ops.create(c, 8);
    config_free(c);
    const struct evict_ops *o = &evict_hpe_ops;
    o->on_resident(p, 0); o->on_resident(p, 2); o->on_resident(p, 4);
    o->touch(p, 4);
    ck_assert_int_eq(evict_hpe_partition(p, 0), 2);
    o->on_resident(p, 6);
    for (uint64_t v = 0; v <= 6; v += 2) ck_assert_int_eq(evict_hpe_partition(p, v), 1);
    o->on_resident(p, 8);
    ck_assert_int_eq(evict_hpe_partition(p, 8), 2);
    o->touch(p, 0);
    o->touch(p, 8);
    ck_assert_int_eq(evict_hpe_partition(p, 0), 2);
    ck_assert_int_eq(evict_hpe_partition(p, 2), 1);
    o->on_resident(p, 10); o->on_resident(p, 12);
    ck_assert_int_eq(evict_hpe_partition(p, 12), 2);
    o->on_resident(p, 14);
    for (uint64_t v = 2; v <= 6; v += 2) ck_assert_int_eq(evict_hpe_partition(p, v), 0);
    ck_assert_int_eq(evict_hpe_partition(p, 0), 1);
    ck_assert_int_eq(evict_hpe_partition(p, 8), 1);
    ck_assert_int_eq(evict_hpe_partition(p, 14), 1);
    ck_assert_int_eq(evict_hpe_partition(p, 1), -1);
    return p;
}

START_TEST(partitions_move_over_two_intervals_lru)
{
    void *p = two_intervals("driver.evict.hpe.strategy=lru");
    ck_assert_uint_eq(victim(p), 2);
    ck_assert_uint_eq(victim(p), 4);
    ck_assert_uint_eq(victim(p), 6);
    ck_assert_uint_eq(victim(p), 8);
    ck_assert_uint_eq(victim(p), 0);
    evict_hpe_ops.destroy(p);
}
END_TEST

START_TEST(mru_c_takes_the_set_whose_counter_is_the_set_size)
{
    void *p = two_intervals("driver.evict.hpe.strategy=mru-c");
    ck_assert_uint_eq(victim(p), 4);
    evict_hpe_ops.destroy(p);
}
END_TEST

/* Table III on counts: ratio1 = irregular / regular, ratio2 = large /
 * small; ratio1 > 0.3 -> irregular#2, else ratio2 >= 2 -> irregular#1. */
START_TEST(classification_on_counts)
{
    double r1, r2;
    int cls;
    evict_hpe_classify_counts(100, 0, 95, 5, 0.3, 2, &r1, &r2, &cls);
    ck_assert_int_eq(cls, HPE_CLASS_REGULAR);
    evict_hpe_classify_counts(10, 3, 10, 0, 0.3, 2, &r1, &r2, &cls);   /* 0.3: not above */
    ck_assert(fabs(r1 - 0.3) < 1e-12);
    ck_assert_int_eq(cls, HPE_CLASS_REGULAR);
    evict_hpe_classify_counts(10, 4, 10, 0, 0.3, 2, &r1, &r2, &cls);
    ck_assert_int_eq(cls, HPE_CLASS_IRREGULAR2);
    evict_hpe_classify_counts(30, 0, 10, 20, 0.3, 2, &r1, &r2, &cls);  /* ratio2 exactly 2 */
    ck_assert(fabs(r2 - 2) < 1e-12);
    ck_assert_int_eq(cls, HPE_CLASS_IRREGULAR1);
    evict_hpe_classify_counts(30, 0, 11, 19, 0.3, 2, &r1, &r2, &cls);
    ck_assert_int_eq(cls, HPE_CLASS_REGULAR);
    evict_hpe_classify_counts(8, 0, 0, 8, 0.3, 2, &r1, &r2, &cls);     /* no small: ratio2 inf */
    ck_assert_int_eq(cls, HPE_CLASS_IRREGULAR1);
    evict_hpe_classify_counts(0, 5, 0, 0, 0.3, 2, &r1, &r2, &cls);     /* no regular: ratio1 inf */
    ck_assert_int_eq(cls, HPE_CLASS_IRREGULAR2);
}
END_TEST

/* Populations built through the policy (16-page sets, hits in order),
 * classified at the first victim:
 *  regular: 4 sets, every page faulted once -> counters 16 (small).
 *  irregular#1: the same plus two hits per page -> 48 (large): ratio2 inf.
 *  irregular#2: 6 sets with 10 pages faulted -> 10 (irregular): ratio1 inf.
 *  mixed: 10 sets of 16 + 3 sets of 10 pages -> ratio1 = 0.3: regular,
 *         10 + 4 -> 0.4: irregular#2. */
static uint64_t classify_population(size_t full_sets, size_t part_sets, int hits_per_page)
{
    const char *sets[] = { "driver.evict.hpe.hit_feed=ideal" };
    struct config *c = cfg_sets(sets, 1);
    size_t cap = full_sets * 16 + part_sets * 10;
    void *p = evict_hpe_ops.create(c, cap);
    struct stats *st = stats_new();
    evict_hpe_ops.register_stats(p, st);
    for (size_t s = 0; s < full_sets + part_sets; s++) {
        size_t pages = s < full_sets ? 16 : 10;
        for (size_t i = 0; i < pages; i++) evict_hpe_ops.on_resident(p, s * 16 + i);
        for (int h = 0; h < hits_per_page; h++)
            for (size_t i = 0; i < pages; i++) evict_hpe_ops.touch(p, s * 16 + i);
    }
    ck_assert_uint_eq(*stats_find(st, "evict.hpe.class")->p.u, HPE_CLASS_NONE);
    victim(p);
    uint64_t cls = *stats_find(st, "evict.hpe.class")->p.u;
    uint64_t strategy = *stats_find(st, "evict.hpe.strategy")->p.u;
    ck_assert_uint_eq(strategy, cls == HPE_CLASS_REGULAR ? 1 : 0);    /* MRU-C : LRU */
    evict_hpe_ops.destroy(p);
    stats_free(st);
    config_free(c);
    return cls;
}

START_TEST(classification_of_built_populations)
{
    ck_assert_uint_eq(classify_population(4, 0, 0), HPE_CLASS_REGULAR);
    ck_assert_uint_eq(classify_population(4, 0, 2), HPE_CLASS_IRREGULAR1);
    ck_assert_uint_eq(classify_population(0, 6, 0), HPE_CLASS_IRREGULAR2);
    ck_assert_uint_eq(classify_population(10, 3, 0), HPE_CLASS_REGULAR);
    ck_assert_uint_eq(classify_population(10, 4, 0), HPE_CLASS_IRREGULAR2);
}
END_TEST

/* Sets of 4 pages, counter saturating at 4, intervals of 2 faults, hits in
 * order, LRU.  Fault 0 and three hits saturate the counter with pages 1-3
 * untouched -> divided, primary = {0}.  Fault 2 (ends the interval; chain:
 * primary, then page 2's set, both middle) goes to a secondary set.  A hit
 * on 0 moves the primary alone to the new partition, so the first victim
 * is page 2 from the middle partition.  Undivided, page 2 would share the
 * primary's entry, moved to new with it, and go after page 0. */
START_TEST(page_set_division)
{
    const char *sets[] = { "driver.evict.hpe.set_pages=4", "driver.evict.hpe.counter_max=4",
                           "driver.evict.hpe.interval=2", "driver.evict.hpe.hit_feed=ideal",
                           "driver.evict.hpe.strategy=lru" };
    struct config *c = cfg_sets(sets, 5);
    void *p = evict_hpe_ops.create(c, 2);
    struct stats *st = stats_new();
    evict_hpe_ops.register_stats(p, st);
    evict_hpe_ops.on_resident(p, 0);
    evict_hpe_ops.touch(p, 0);
    evict_hpe_ops.touch(p, 0);
    ck_assert_uint_eq(*stats_find(st, "evict.hpe.divided")->p.u, 0);
    evict_hpe_ops.touch(p, 0);
    ck_assert_uint_eq(*stats_find(st, "evict.hpe.divided")->p.u, 1);
    evict_hpe_ops.on_resident(p, 2);
    ck_assert_int_eq(evict_hpe_partition(p, 2), 1);
    evict_hpe_ops.touch(p, 0);
    ck_assert_int_eq(evict_hpe_partition(p, 0), 2);
    ck_assert_int_eq(evict_hpe_partition(p, 2), 1);
    ck_assert_uint_eq(victim(p), 2);
    ck_assert_uint_eq(victim(p), 0);
    evict_hpe_ops.destroy(p);
    stats_free(st);
    config_free(c);
}
END_TEST

/* Regular, MRU-C (Algorithm 1, lines 1-7).  Sets of 2 pages, intervals of
 * 4 faults, threshold 2 wrong evictions.  Faults 0-7 fill 8 frames: sets
 * {0,1} {2,3} old, {4,5} {6,7} middle, every counter 2 = the set size:
 * regular.  MRU-C takes set {2,3} (MRU end of old): victims 2, then 3 for
 * the fault on 2 (wrong eviction 1), then 0 for the fault on 3 (wrong
 * eviction 2): the search point jumps, if the old partition held at least
 * large_footprint sets at the first fill (2 here). */
static uint64_t jumps_with(const char *large)
{
    const char *sets[] = { "driver.evict.hpe.set_pages=2", "driver.evict.hpe.interval=4",
                           "driver.evict.hpe.wrong_threshold=2", "driver.evict.hpe.jump=1",
                           "driver.evict.hpe.hit_feed=none", large };
    struct config *c = cfg_sets(sets, 6);
    void *p = evict_hpe_ops.create(c, 8);
    struct stats *st = stats_new();
    evict_hpe_ops.register_stats(p, st);
    for (uint64_t v = 0; v < 8; v++) evict_hpe_ops.on_resident(p, v);
    ck_assert_uint_eq(victim(p), 2);
    ck_assert_uint_eq(*stats_find(st, "evict.hpe.class")->p.u, HPE_CLASS_REGULAR);
    ck_assert_uint_eq(victim(p), 3);
    evict_hpe_ops.on_resident(p, 2);
    ck_assert_uint_eq(victim(p), 0);
    evict_hpe_ops.on_resident(p, 3);
    uint64_t jumps = *stats_find(st, "evict.hpe.jumps")->p.u;
    ck_assert_uint_eq(*stats_find(st, "evict.hpe.switches")->p.u, 0);
    evict_hpe_ops.destroy(p);
    stats_free(st);
    config_free(c);
    return jumps;
}

START_TEST(regular_jumps_search_point_on_wrong_evictions)
{
    ck_assert_uint_eq(jumps_with("driver.evict.hpe.large_footprint=2"), 1);
    ck_assert_uint_eq(jumps_with("driver.evict.hpe.large_footprint=3"), 0);
}
END_TEST

/* Irregular#2 (Algorithm 1, lines 9-15).  Sets of 4 pages with 3 faulted
 * ({0,1,2}, {4,5,6}: counters 3, irregular): LRU.  Victim 0 (lowest page
 * of the LRU set), a fault on 0, victim 0 again (same set, address order),
 * a fault on 0: 2 wrong evictions of LRU -> MRU-C, never tried, takes over
 * (the first switch); two more of MRU-C within the same interval: both
 * lasted 0 intervals, a tie: back to LRU. */
START_TEST(irregular2_switches_strategy)
{
    const char *sets[] = { "driver.evict.hpe.set_pages=4", "driver.evict.hpe.wrong_threshold=2",
                           "driver.evict.hpe.hit_feed=none" };
    struct config *c = cfg_sets(sets, 3);
    void *p = evict_hpe_ops.create(c, 6);
    struct stats *st = stats_new();
    evict_hpe_ops.register_stats(p, st);
    for (uint64_t v = 0; v < 7; v++) if (v != 3) evict_hpe_ops.on_resident(p, v);
    ck_assert_uint_eq(victim(p), 0);
    ck_assert_uint_eq(*stats_find(st, "evict.hpe.class")->p.u, HPE_CLASS_IRREGULAR2);
    ck_assert_uint_eq(*stats_find(st, "evict.hpe.strategy")->p.u, 0);
    evict_hpe_ops.on_resident(p, 0);
    ck_assert_uint_eq(victim(p), 0);
    evict_hpe_ops.on_resident(p, 0);
    ck_assert_uint_eq(*stats_find(st, "evict.hpe.switches")->p.u, 1);
    ck_assert_uint_eq(*stats_find(st, "evict.hpe.strategy")->p.u, 1);
    uint64_t a = victim(p);
    evict_hpe_ops.on_resident(p, a);
    uint64_t b = victim(p);
    evict_hpe_ops.on_resident(p, b);
    ck_assert_uint_eq(*stats_find(st, "evict.hpe.switches")->p.u, 2);
    ck_assert_uint_eq(*stats_find(st, "evict.hpe.strategy")->p.u, 0);
    evict_hpe_ops.destroy(p);
    stats_free(st);
    config_free(c);
}
END_TEST

/* The replay HIR stand-in: hit information reaches HPE only at the
 * transfer every hir_interval-th fault (3 here).  Sets of 2, intervals of
 * 4 faults: faults 0 2 4 6 (all four sets middle after the 4th; the 3rd
 * fault's transfer was empty); a hit on 2 is buffered: set 1 stays middle
 * through fault 8 (the 5th) and moves to new at fault 10 (the 6th). */
START_TEST(hir_transfer_delivers_hits_every_nth_fault)
{
    const char *sets[] = { "driver.evict.hpe.set_pages=2", "driver.evict.hpe.interval=4" };
    struct config *c = cfg_sets(sets, 2);
    struct evictor *ev = evictor_create(c, "hpe", 8, NULL);
    void *p = evictor_policy(ev);
    struct hir_feed f;
    hir_feed_init(&f, 16, 1, 3);
    for (uint64_t v = 0; v <= 6; v += 2) { hir_feed_fault(&f, ev); evictor_resident(ev, v, false); }
    ck_assert_int_eq(evict_hpe_partition(p, 2), 1);
    evictor_touch(ev, 2);                         /* hit_feed=hir: ignored */
    hir_feed_hit(&f, ev, 2);
    ck_assert_int_eq(evict_hpe_partition(p, 2), 1);
    hir_feed_fault(&f, ev);
    evictor_resident(ev, 8, false);
    ck_assert_int_eq(evict_hpe_partition(p, 2), 1);
    ck_assert_int_eq(evict_hpe_partition(p, 8), 2);
    hir_feed_fault(&f, ev);
    ck_assert_int_eq(evict_hpe_partition(p, 2), 2);
    ck_assert_int_eq(evict_hpe_partition(p, 4), 1);
    hir_feed_free(&f);
    evictor_free(ev);
    config_free(c);
}
END_TEST

/* HPE type II: a loop over K pages with 75 % of them in memory.  LRU
 * faults on every reference; HPE (defaults, faults only and with the HIR
 * stand-in) keeps part of the loop: clearly fewer evictions (< 80 % of
 * LRU's), and never fewer faults than Belady. */
START_TEST(type_two_loop_hpe_evicts_clearly_fewer_than_lru)
{
    enum { K = 2048, C = K * 3 / 4, P = 6 };
    char *text = malloc(K * P * 8), *q = text;
    for (int i = 0; i < K * P; i++) q += sprintf(q, "%d\n", i % K);
    struct replay_result r[3];
    const char *pol[3] = { "lru", "hpe", "ideal" };
    for (int k = 0; k < 3; k++) {
        struct config *c = cfg_sets(NULL, 0);
        FILE *f = fmemopen(text, strlen(text), "r");
        char e[128];
        ck_assert_int_eq(driver_replay(c, pol[k], C, f, "t", &r[k], e, sizeof e), 0);
        fclose(f);
        config_free(c);
    }
    ck_assert_uint_eq(r[0].evictions, (uint64_t)K * P - C);
    ck_assert_uint_lt(r[1].evictions * 5, r[0].evictions * 4);
    ck_assert_uint_ge(r[1].evictions, r[2].evictions);
    free(text);
}
END_TEST

/* Prefetched pages are no faults (issue 11.1).  Sets of 2, intervals of 4
 * faults, through the evictor: faults 0 2 4, prefetches 6 8 10 12 (four
 * sets join the new partition), still the first interval: page 0 new.
 * Fault 14, the 4th fault, ends it: 0 and the prefetched 6 are middle.
 * (Counted as faults, the prefetch of 6 would have ended the interval and
 * the fault on 14 found 0 already middle.) */
START_TEST(prefetched_pages_do_not_advance_the_interval)
{
    const char *sets[] = { "driver.evict.hpe.set_pages=2", "driver.evict.hpe.interval=4",
                           "driver.evict.hpe.hit_feed=none" };
    struct config *c = cfg_sets(sets, 3);
    struct evictor *ev = evictor_create(c, "hpe", 16, NULL);
    void *p = evictor_policy(ev);
    for (uint64_t v = 0; v <= 4; v += 2) evictor_resident(ev, v, false);
    for (uint64_t v = 6; v <= 12; v += 2) evictor_resident(ev, v, true);
    ck_assert_int_eq(evict_hpe_partition(p, 0), 2);
    ck_assert_int_eq(evict_hpe_partition(p, 12), 2);
    evictor_resident(ev, 14, false);
    ck_assert_int_eq(evict_hpe_partition(p, 0), 1);
    ck_assert_int_eq(evict_hpe_partition(p, 6), 1);
    ck_assert_int_eq(evict_hpe_partition(p, 14), 1);
    evictor_free(ev);
    config_free(c);
}
END_TEST

/* When HPE classifies (issue 42: a program's copies can fill memory before
 * its first fault).  Sets of 2 pages, 4 frames, no hit feed.  Pages 0-3
 * arrive by prefetch (sets 0 and 1, counters 0: untouched), filling
 * memory.  first_victim classifies at the first victim, over two counters
 * of 0 (divisible by the set size: "regular", neither small nor large):
 * ratio1 0, ratio2 0, regular, MRU-C.  faulted_fill waits for 4 faults
 * (the frames): victims 0, 1, 2, 3 go LRU-first unclassified, each making
 * room for a fault on 10, 12, 14, 16 (sets 5-8, one page each: counter 1,
 * irregular); the fifth victim classifies over four irregular counters and
 * no regular one: ratio1 infinite, irregular#2 (Table III), LRU. */
START_TEST(classification_waits_for_a_faulted_fill)
{
    for (int ff = 0; ff < 2; ff++) {
        const char *sets[] = { "driver.evict.hpe.set_pages=2", "driver.evict.hpe.hit_feed=none",
                               ff ? "driver.evict.hpe.classify=faulted_fill"
                                  : "driver.evict.hpe.classify=first_victim" };
        struct config *c = cfg_sets(sets, 3);
        struct stats *st = stats_new();
        struct evictor *ev = evictor_create(c, "hpe", 4, st);
        void *p = evictor_policy(ev);
        for (uint64_t v = 0; v < 4; v++) evictor_resident(ev, v, true);
        uint64_t *cls = stats_find(st, "evict.hpe.class")->p.u;
        if (!ff) {
            ck_assert_uint_eq(victim(p), 2);        /* MRU-C: the newer set first */
            ck_assert_uint_eq(*cls, HPE_CLASS_REGULAR);
            ck_assert_uint_eq(*stats_find(st, "evict.hpe.strategy")->p.u, 1);
        } else {
            for (uint64_t k = 0; k < 4; k++) {
                ck_assert_uint_eq(victim(p), k);
                ck_assert_uint_eq(*cls, 0);
                evictor_resident(ev, 10 + 2 * k, false);
            }
            ck_assert_uint_eq(victim(p), 10);
            ck_assert_uint_eq(*cls, HPE_CLASS_IRREGULAR2);
            ck_assert(isinf(*stats_find(st, "evict.hpe.ratio1")->p.real));
            ck_assert_uint_eq(*stats_find(st, "evict.hpe.strategy")->p.u, 0);
        }
        evictor_free(ev);
        stats_free(st);
        config_free(c);
    }
}
END_TEST

/* A victim brought back by a prefetch is no wrong eviction, neither of
 * the evictor's window nor of HPE's strategy FIFOs: the setup of
 * irregular2_switches_strategy (two faults on LRU's victims switch to
 * MRU-C) with the victims prefetched back instead switches nothing and
 * counts no wrong eviction; a fault on the next victim then counts one. */
START_TEST(prefetched_victims_are_not_wrong_evictions)
{
    const char *sets[] = { "driver.evict.hpe.set_pages=4", "driver.evict.hpe.wrong_threshold=2",
                           "driver.evict.hpe.hit_feed=none" };
    struct config *c = cfg_sets(sets, 3);
    struct stats *st = stats_new();
    struct evictor *ev = evictor_create(c, "hpe", 6, st);
    for (uint64_t v = 0; v < 7; v++) if (v != 3) evictor_resident(ev, v, false);
    uint64_t v;
    ck_assert(evictor_victim(ev, &v));
    ck_assert_uint_eq(v, 0);
    evictor_resident(ev, 0, true);
    ck_assert(evictor_victim(ev, &v));
    ck_assert_uint_eq(v, 0);
    evictor_resident(ev, 0, true);
    ck_assert_uint_eq(*stats_find(st, "evict.hpe.switches")->p.u, 0);
    ck_assert_uint_eq(*stats_find(st, "evict.wrong_evictions")->p.u, 0);
    ck_assert(evictor_victim(ev, &v));
    evictor_resident(ev, v, false);
    ck_assert_uint_eq(*stats_find(st, "evict.wrong_evictions")->p.u, 1);
    ck_assert_uint_eq(*stats_find(st, "evict.hpe.switches")->p.u, 0);
    evictor_free(ev);
    stats_free(st);
    config_free(c);
}
END_TEST

static Suite *hpe_suite(void)
{
    Suite *s = suite_create("evict_hpe");
    TCase *t = tcase_create("hpe");
    tcase_add_test(t, partitions_move_over_two_intervals_lru);
    tcase_add_test(t, mru_c_takes_the_set_whose_counter_is_the_set_size);
    tcase_add_test(t, classification_on_counts);
    tcase_add_test(t, classification_of_built_populations);
    tcase_add_test(t, page_set_division);
    tcase_add_test(t, regular_jumps_search_point_on_wrong_evictions);
    tcase_add_test(t, irregular2_switches_strategy);
    tcase_add_test(t, hir_transfer_delivers_hits_every_nth_fault);
    tcase_add_test(t, type_two_loop_hpe_evicts_clearly_fewer_than_lru);
    tcase_add_test(t, prefetched_pages_do_not_advance_the_interval);
    tcase_add_test(t, prefetched_victims_are_not_wrong_evictions);
    tcase_add_test(t, classification_waits_for_a_faulted_fill);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(hpe_suite());
}

/* Cyclic thrashing (Park et al.): peer-group detection on crafted eviction
 * histories, outliers ignored, pinning (pinned pages never victims, the
 * budget respected, pins released when the state ends) and shuffling. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "core/stats.h"
#include "driver/driver.h"
#include "driver/replay/replay.h"
#include "driver/evict/evict.h"

static struct config *cfg_sets(const char *const *sets, size_t n)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    return c;
}

/* 100 frames: min_group = 5 % = 5 pages, ratio 75 %.  Pages 0-19 evicted
 * once: group 1 = 20, nothing declared (no group with one fewer).  Pages
 * 0, 1, ... evicted again: after the n-th, group 2 = n and group 1 =
 * 20 - n; declared when n >= 0.75 (20 - n), first at n = 9 (9 >= 8.25;
 * n = 8: 8 < 9). */
START_TEST(peer_group_reaches_ratio_of_group_with_one_fewer)
{
    struct config *c = cfg_sets(NULL, 0);
    void *p = evict_cyclic_ops.create(c, 100);
    for (uint64_t v = 0; v < 20; v++) ck_assert(!evict_cyclic_count(p, v));
    for (uint64_t n = 1; n <= 12; n++)
        ck_assert_int_eq(evict_cyclic_count(p, n - 1), n >= 9);
    evict_cyclic_ops.destroy(p);
    config_free(c);
}
END_TEST

/* Pages 0-3 evicted once, then 0 and 1 again: after page 1, group 2 = 2 >=
 * 0.75 x group 1 = 1.5, but group 1 holds 2 pages, below min_group (5):
 * outliers, ignored.  With min_group 1 % (1 page) it is declared. */
START_TEST(small_groups_are_outliers)
{
    for (int strict = 1; strict >= 0; strict--) {
        const char *sets[] = { strict ? "driver.evict.cyclic.min_group=5%"
                                      : "driver.evict.cyclic.min_group=1%" };
        struct config *c = cfg_sets(sets, 1);
        void *p = evict_cyclic_ops.create(c, 100);
        for (uint64_t v = 0; v < 4; v++) evict_cyclic_count(p, v);
        ck_assert(!evict_cyclic_count(p, 0));
        ck_assert_int_eq(evict_cyclic_count(p, 1), !strict);
        evict_cyclic_ops.destroy(p);
        config_free(c);
    }
}
END_TEST

/* A loop over K = 120 pages with C = 100 frames, FIFO base, pin 25 %.
 * Once declared, the next 25 FIFO victims are pinned instead and never
 * evicted; at most 25 are pinned; the loop then faults less than FIFO
 * (which faults on every reference).  Afterwards 1000 references to new
 * pages (each evicted once: no group k >= 2 grows) end the state after
 * hold = 2 x 100 evictions and release the pins. */
START_TEST(pinning_holds_pages_and_releases_them)
{
    const char *sets[] = { "driver.evict.cyclic.mode=pin" };
    struct config *c = cfg_sets(sets, 1);
    const struct evict_ops *o = &evict_cyclic_ops;
    enum { C = 100, K = 120 };
    void *p = o->create(c, C);
    struct stats *st = stats_new();
    o->register_stats(p, st);
    uint64_t *pinned = stats_find(st, "evict.cyclic.pinned")->p.u;
    bool resident[K + 2000] = { false };
    uint64_t n = 0, faults = 0, max_pinned = 0;
    for (int i = 0; i < 6 * K + 1000; i++) {
        uint64_t page = i < 6 * K ? (uint64_t)(i % K) : (uint64_t)(K + i);
        if (resident[page]) continue;          /* FIFO base: hits not fed */
        faults += i < 6 * K;
        if (n == C) {
            uint64_t v;
            ck_assert(o->victim(p, &v));
            ck_assert(resident[v]);
            resident[v] = false;
            n--;
        }
        resident[page] = true;
        n++;
        o->on_resident(p, page);
        if (*pinned > max_pinned) max_pinned = *pinned;
        if (i == 6 * K - 1) ck_assert_uint_eq(*pinned, C / 4);
    }
    ck_assert_uint_eq(max_pinned, C / 4);
    ck_assert_uint_lt(faults, 6 * K);
    ck_assert_uint_eq(*pinned, 0);
    ck_assert_uint_eq(*stats_find(st, "evict.cyclic.thrashing")->p.u, 0);
    ck_assert_uint_ge(*stats_find(st, "evict.cyclic.detections")->p.u, 1);
    o->destroy(p);
    stats_free(st);
    config_free(c);
}
END_TEST

/* Shuffling: on the same loop the shuffled order keeps pages across
 * passes, so it faults less than FIFO's 6 K, never below MIN's bound. */
START_TEST(shuffling_breaks_the_cycle)
{
    enum { C = 100, K = 120, P = 6 };
    char *text = malloc(K * P * 8), *q = text;
    for (int i = 0; i < K * P; i++) q += sprintf(q, "%d\n", i % K);
    const char *sets[] = { "driver.evict.cyclic.mode=shuffle" };
    struct config *c = cfg_sets(sets, 1);
    FILE *f = fmemopen(text, strlen(text), "r");
    struct replay_result r;
    char e[128];
    struct stats *st = stats_new();
    ck_assert_int_eq(driver_replay_stats(c, "cyclic", C, f, "t", &r, st, e, sizeof e), 0);
    fclose(f);
    ck_assert_uint_lt(r.faults, K * P);
    ck_assert_uint_ge(r.faults, K + (P - 1) * (K - C));
    ck_assert_uint_ge(*stats_find(st, "evict.cyclic.shuffles")->p.u, 1);
    stats_free(st);
    config_free(c);
    free(text);
}
END_TEST

static Suite *cyclic_suite(void)
{
    Suite *s = suite_create("evict_cyclic");
    TCase *t = tcase_create("cyclic");
    tcase_add_test(t, peer_group_reaches_ratio_of_group_with_one_fewer);
    tcase_add_test(t, small_groups_are_outliers);
    tcase_add_test(t, pinning_holds_pages_and_releases_them);
    tcase_add_test(t, shuffling_breaks_the_cycle);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(cyclic_suite());
}

/* CLOCK-Pro: hot/cold/test transitions and hand positions on traces
 * derived by hand from Jiang et al.'s hand rules (Sec. 4.3), prefetched
 * pages, and a cyclic loop where it keeps its hot pages (fewer faults than
 * LRU). */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "driver/driver.h"
#include "driver/replay/replay.h"
#include "driver/evict/evict.h"

struct sim { const struct evict_ops *o; void *p; uint64_t res[8]; size_t n, cap; uint64_t faults; };

/* One reference: a hit sets the reference bit; a miss takes a victim when
 * memory is full; returns the victim or 0. */
static uint64_t ref(struct sim *s, uint64_t page)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->res[i] == page) { s->o->touch(s->p, page); return 0; }
    s->faults++;
    uint64_t v = 0;
    if (s->n == s->cap) {
        ck_assert(s->o->victim(s->p, &v));
        size_t i = 0;
        while (i < s->n && s->res[i] != v) i++;
        ck_assert_uint_lt(i, s->n);
        s->res[i] = s->res[--s->n];
    }
    s->res[s->n++] = page;
    s->o->on_resident(s->p, page);
    return v;
}

static struct config *cold_frames(const char *set)
{
    const char *sets[] = { set };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, set ? 1 : 0, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    return c;
}

/* The three hands: the pages they point to. */
static void ck_hands(void *p, uint64_t hot, uint64_t cold, uint64_t test, int line)
{
    uint64_t h, c, t;
    evict_clock_pro_hands(p, &h, &c, &t);
    ck_assert_msg(h == hot && c == cold && t == test,
                  "line %d: hands hot/cold/test at %llu/%llu/%llu, expected %llu/%llu/%llu", line,
                  (unsigned long long)h, (unsigned long long)c, (unsigned long long)t,
                  (unsigned long long)hot, (unsigned long long)cold, (unsigned long long)test);
}
#define HANDS(p, h, c, t) ck_hands(p, h, c, t, __LINE__)

/* m = 3 frames, m_c = 1, so m_h = 2.  Trace 1 2 3 1 4 1 3 5 2 4, by hand
 * from Jiang et al. Sec. 4.3.  Clock order is shown from HAND_hot; the
 * list head is just behind it.
 *  1, 2: hot (the first m_h pages while memory fills).  3: cold, in test.
 *  1: hit, ref bit.  4: HAND_cold passes hot 1, 2, finds cold 3 without
 *     ref -> evicted, stays as non-resident test page; 4 cold in test.
 *  1: hit.  3: HAND_cold: 1, 2 hot, 3 non-resident, 4 cold no ref ->
 *     evicted (non-resident test).  3 was in its test period -> hot, at
 *     the head (1 2 4 3); 3 hot pages > m_h: HAND_hot spares 1 (ref,
 *     cleared), turns 2 cold (no test period), keeps moving: 4 ends its
 *     test period and, non-resident, leaves; it stops at hot 3.
 *  5: HAND_cold from 1: 1 hot, 2 cold no ref, not in test -> evicted and
 *     removed.  5 cold in test (3 1 5).
 *  2: (no longer known) HAND_cold: 3, 1 hot, 5 cold no ref -> evicted to
 *     a non-resident test page.  2 cold in test (3 1 5 2).
 *  4: left the clock at the third fault on 3, so a new cold page: HAND_cold
 *     passes 3, 1, 5 and evicts 2 (non-resident test).  4 cold in test.
 * 8 faults (the hits are the 4th and 6th references). */
START_TEST(hot_cold_transitions_on_ten_references)
{
    struct config *c = cold_frames("driver.evict.clock_pro.cold=1");
    struct sim s = { .o = &evict_clock_pro_ops, .cap = 3 };
    s.p = s.o->create(c, 3);
    ck_assert_uint_eq(ref(&s, 1), 0);
    ck_assert_uint_eq(ref(&s, 2), 0);
    ck_assert_uint_eq(ref(&s, 3), 0);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 1), CP_HOT);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 2), CP_HOT);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 3), CP_COLD_TEST);
    ck_assert_uint_eq(ref(&s, 1), 0);
    ck_assert_uint_eq(ref(&s, 4), 3);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 3), CP_NONRES_TEST);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 4), CP_COLD_TEST);
    ck_assert_uint_eq(ref(&s, 1), 0);
    ck_assert_uint_eq(ref(&s, 3), 4);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 3), CP_HOT);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 1), CP_HOT);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 2), CP_COLD);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 4), CP_ABSENT);
    HANDS(s.p, 3, 1, 3);
    ck_assert_uint_eq(ref(&s, 5), 2);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 2), CP_ABSENT);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 5), CP_COLD_TEST);
    ck_assert_uint_eq(ref(&s, 2), 5);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 5), CP_NONRES_TEST);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 2), CP_COLD_TEST);
    ck_assert_uint_eq(ref(&s, 4), 2);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 4), CP_COLD_TEST);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 1), CP_HOT);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 3), CP_HOT);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 2), CP_NONRES_TEST);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 5), CP_NONRES_TEST);
    ck_assert_uint_eq(s.faults, 8);
    s.o->destroy(s.p);
    config_free(c);
}
END_TEST

/* The example, 3 frames, 3 1 5 2 1 7 4 6 2 7 3 1: 11 faults by
 * Sec. 4.3's rules.  m_c is HPE's 128 capped at m - 1 = 2, so m_h = 1.
 * After each reference: clock from HAND_hot (H hot, C cold, Ct cold in
 * test, N non-resident test), then the hands hot/cold/test.
 *   3  3H                    first m_h page hot          3/3/3
 *   1  3H 1Ct                                            3/3/3
 *   5  3H 1Ct 5Ct                                        3/3/3
 *   2  evict 1 (-> N); HAND_cold stops at the next resident cold page, 5
 *      3H 1N 5Ct 2Ct                                     3/5/3
 *   1  evict 5 (-> N), HAND_cold stops at 2; 1 (N) -> hot at the head:
 *      3H 5N 2Ct 1H; HAND_hot turns 3 cold, ends 5's test (removed) and
 *      2's, stops at hot 1, carrying HAND_test along:  1H 3C 2C    1/2/1
 *   7  evict 2 (not in test: removed), stop at 3:   1H 3C 7Ct      1/3/1
 *   4  evict 3 (removed):                           1H 7Ct 4Ct     1/7/1
 *   6  evict 7 (-> N):                              1H 7N 4Ct 6Ct  1/4/1
 *   2  evict 4 (-> N):                    1H 7N 4N 6Ct 2Ct         1/6/1
 *   7  evict 6 (-> N), stop at 2; 7 (N) -> hot: 1H 4N 6N 2Ct 7H;
 *      HAND_hot turns 1 cold, removes 4 and 6, ends 2's test, stops
 *      at 7:                                        7H 1C 2C       7/2/7
 *   3  evict 2 (removed), HAND_cold passes 7, stops at 1: 7H 1C 3Ct 7/1/7
 *   1  hit.
 * With HAND_hot stopping right after its demotion (the old code) 2 kept
 * its test period and the last reference missed: 12 faults. */
START_TEST(twelve_references_eleven_faults)
{
    static const uint64_t trace[12] = { 3, 1, 5, 2, 1, 7, 4, 6, 2, 7, 3, 1 };
    static const uint64_t victim[12] = { 0, 0, 0, 1, 5, 2, 3, 7, 4, 6, 2, 0 };
    static const uint64_t hands[12][3] = {
        {3, 3, 3}, {3, 3, 3}, {3, 3, 3}, {3, 5, 3}, {1, 2, 1}, {1, 3, 1},
        {1, 7, 1}, {1, 4, 1}, {1, 6, 1}, {7, 2, 7}, {7, 1, 7}, {7, 1, 7},
    };
    struct config *c = cold_frames(NULL);
    struct sim s = { .o = &evict_clock_pro_ops, .cap = 3 };
    s.p = s.o->create(c, 3);
    for (int i = 0; i < 12; i++) {
        ck_assert_msg(ref(&s, trace[i]) == victim[i], "reference %d", i + 1);
        ck_hands(s.p, hands[i][0], hands[i][1], hands[i][2], i + 1);
    }
    ck_assert_uint_eq(s.faults, 11);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 7), CP_HOT);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 1), CP_COLD);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 3), CP_COLD_TEST);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 2), CP_ABSENT);
    s.o->destroy(s.p);
    config_free(c);

    /* the same through `uvmsim replay` with the default m_c */
    c = cold_frames(NULL);
    const char *text = "3\n1\n5\n2\n1\n7\n4\n6\n2\n7\n3\n1\n";
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct replay_result r;
    char e[128];
    ck_assert_int_eq(driver_replay(c, "clock-pro", 3, f, "t", &r, e, sizeof e), 0);
    fclose(f);
    ck_assert_uint_eq(r.faults, 11);
    ck_assert_uint_eq(r.evictions, 8);
    config_free(c);
}
END_TEST

/* HAND_test ends the test period of the oldest non-resident page, also
 * after HAND_hot has passed it.  m = 5, m_c = 3, m_h = 2; trace
 * 1 2 3 4 5 6 7 3 8 9 10 11 12 (all faults).
 *   1 2 hot, 3 4 5 cold in test; hands at 1.
 *   6: evict 3 (N), HAND_cold stops at 4.  7: evict 4 (N), stops at 5.
 *   3: evict 5 (N), stops at 6; 3 -> hot at the head: 1H 2H 4N 5N 6Ct 7Ct 3H;
 *      HAND_hot turns 1 cold and stops at hot 2, carrying HAND_test from
 *      1 to 2.  The head is now between 1 and 2.                   2/6/2
 *   8: evict 6 (N), stop at 7; 8 goes between 1 and 2.              2/7/2
 *   9: evict 7 (N), HAND_cold passes 3 and stops at 1.              2/1/2
 *  10: evict 1 (not in test: removed), stop at 8.                   2/8/2
 *  11: evict 8 (N): non-resident 4 5 6 7 8 = 5 = m.                 2/9/2
 *  12: evict 9 (N): 6 > m, HAND_test runs from 2: passes hot 2, ends
 *      4's test period and removes it, stops at the next cold page, 5.
 *      The clock from HAND_hot: 2H 5N 6N 7N 3H 8N 9N 10Ct 11Ct 12Ct. 2/10/5
 * Had HAND_test stayed at 1, the removal of 1 would have moved it onto 8
 * (the head side of HAND_hot) and the newest non-resident page, 8, would
 * have gone instead of the oldest, 4. */
START_TEST(hand_test_ends_the_oldest_test_period)
{
    static const uint64_t trace[13] = { 1, 2, 3, 4, 5, 6, 7, 3, 8, 9, 10, 11, 12 };
    static const uint64_t victim[13] = { 0, 0, 0, 0, 0, 3, 4, 5, 6, 7, 1, 8, 9 };
    struct config *c = cold_frames("driver.evict.clock_pro.cold=3");
    struct sim s = { .o = &evict_clock_pro_ops, .cap = 5 };
    s.p = s.o->create(c, 5);
    for (int i = 0; i < 13; i++) {
        ck_assert_msg(ref(&s, trace[i]) == victim[i], "reference %d", i + 1);
        if (i == 7) HANDS(s.p, 2, 6, 2);
        if (i == 10) HANDS(s.p, 2, 8, 2);
    }
    HANDS(s.p, 2, 10, 5);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 4), CP_ABSENT);
    for (uint64_t v = 5; v <= 9; v++) ck_assert_int_eq(evict_clock_pro_status(s.p, v), CP_NONRES_TEST);
    for (uint64_t v = 10; v <= 12; v++) ck_assert_int_eq(evict_clock_pro_status(s.p, v), CP_COLD_TEST);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 2), CP_HOT);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 3), CP_HOT);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 1), CP_ABSENT);
    ck_assert_uint_eq(s.faults, 13);
    s.o->destroy(s.p);
    config_free(c);
}
END_TEST

/* A prefetched page is no access: a new one is resident cold without a
 * test period (so it leaves the clock when evicted unreferenced), and a
 * non-resident test page prefetched back stays cold in its test period,
 * not hot.  m = 3, m_c = 2: fault 1 (hot), prefetch 2, fault 3; fault 4
 * evicts 2 (HAND_cold: 1 hot, 2 cold, no ref, no test -> removed), fault
 * 5 evicts 3 (in test -> non-resident); prefetching 3 back makes it
 * resident cold in test; its status, not hot. */
START_TEST(prefetched_pages_are_not_accesses)
{
    struct config *c = cold_frames("driver.evict.clock_pro.cold=2");
    const struct evict_ops *o = &evict_clock_pro_ops;
    void *p = o->create(c, 3);
    uint64_t v;
    o->on_resident(p, 1);
    o->prefetched(p, 2);
    o->on_resident(p, 3);
    ck_assert_int_eq(evict_clock_pro_status(p, 1), CP_HOT);
    ck_assert_int_eq(evict_clock_pro_status(p, 2), CP_COLD);
    ck_assert(o->victim(p, &v));
    ck_assert_uint_eq(v, 2);
    ck_assert_int_eq(evict_clock_pro_status(p, 2), CP_ABSENT);
    o->on_resident(p, 4);
    ck_assert(o->victim(p, &v));
    ck_assert_uint_eq(v, 3);
    ck_assert_int_eq(evict_clock_pro_status(p, 3), CP_NONRES_TEST);
    o->prefetched(p, 3);
    ck_assert_int_eq(evict_clock_pro_status(p, 3), CP_COLD_TEST);
    o->destroy(p);
    config_free(c);
}
END_TEST

/* A loop over K = 80 pages with C = 64 frames, 6 passes: LRU faults on
 * every reference (480).  CLOCK-Pro with m_c = 16 never evicts a hot page
 * directly, so once its m_h = 48 hot pages settle a pass faults only on
 * the K - 48 = 32 others; allowing one more pass for them to settle:
 * <= 80 + 5 x 32 + 80 = 320 faults, and never below MIN's bound of
 * K + 5 x (K - C) = 160. */
START_TEST(loop_keeps_hot_pages)
{
    enum { C = 64, K = 80, P = 6 };
    char *text = malloc(K * P * 4), *q = text;
    for (int i = 0; i < K * P; i++) q += sprintf(q, "%d\n", i % K);
    const char *sets[] = { "driver.evict.clock_pro.cold=16" };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, 1, &err);
    FILE *f = fmemopen(text, strlen(text), "r");
    struct replay_result r;
    char e[128];
    ck_assert_int_eq(driver_replay(c, "clock-pro", C, f, "t", &r, e, sizeof e), 0);
    fclose(f);
    ck_assert_uint_le(r.faults, K + (P - 1) * (K - 48) + K);
    ck_assert_uint_ge(r.faults, K + (P - 1) * (K - C));
    config_free(c);
    free(text);
}
END_TEST

static Suite *clock_pro_suite(void)
{
    Suite *s = suite_create("evict_clock_pro");
    TCase *t = tcase_create("clock_pro");
    tcase_add_test(t, hot_cold_transitions_on_ten_references);
    tcase_add_test(t, twelve_references_eleven_faults);
    tcase_add_test(t, hand_test_ends_the_oldest_test_period);
    tcase_add_test(t, prefetched_pages_are_not_accesses);
    tcase_add_test(t, loop_keeps_hot_pages);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(clock_pro_suite());
}

/* CLOCK-Pro: hot/cold/test transitions on a 10-reference trace derived by
 * hand from Jiang et al.'s hand rules, and a cyclic loop where it keeps
 * its hot pages (fewer faults than LRU). */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "driver/driver.h"
#include "../../sim/driver/evict.h"

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

/* m = 3 frames, m_c = 1, so m_h = 2.  Trace 1 2 3 1 4 1 3 5 2 4.
 * Clock order is shown from HAND_hot; the list head is just behind it.
 *  1, 2: hot (the first m_h pages while memory fills).  3: cold, in test.
 *  1: hit, ref bit.  4: HAND_cold passes hot 1, 2, finds cold 3 without
 *     ref -> evicted, stays as non-resident test page; 4 cold in test.
 *  1: hit.  3: HAND_cold: 1, 2 hot, 3 non-resident, 4 cold no ref ->
 *     evicted (non-resident test).  3 was in its test period -> hot, at
 *     the head; 3 hot pages > m_h: HAND_hot spares 1 (ref, cleared) and
 *     turns 2 cold (no test period).
 *  5: HAND_cold from 1: 1 hot, 2 cold no ref, not in test -> evicted and
 *     removed.  5 cold in test.
 *  2: (no longer known) HAND_cold: 4 non-res, 3 hot, 1 hot, 5 cold no
 *     ref -> evicted to a non-resident test page.  2 cold in test.
 *  4: non-resident in test: HAND_cold: ..., 2 cold no ref -> evicted
 *     (non-resident test, 3 of them = m, no HAND_test yet).  4 -> hot;
 *     HAND_hot, at 3 (hot, no ref since it became hot), turns it cold. */
START_TEST(hot_cold_transitions_on_ten_references)
{
    const char *sets[] = { "driver.evict.clock_pro.cold=1" };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, 1, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
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
    ck_assert_int_eq(evict_clock_pro_status(s.p, 4), CP_NONRES_TEST);
    ck_assert_uint_eq(ref(&s, 5), 2);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 2), CP_ABSENT);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 5), CP_COLD_TEST);
    ck_assert_uint_eq(ref(&s, 2), 5);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 5), CP_NONRES_TEST);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 2), CP_COLD_TEST);
    ck_assert_uint_eq(ref(&s, 4), 2);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 4), CP_HOT);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 1), CP_HOT);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 3), CP_COLD);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 2), CP_NONRES_TEST);
    ck_assert_int_eq(evict_clock_pro_status(s.p, 5), CP_NONRES_TEST);
    ck_assert_uint_eq(s.faults, 8);
    s.o->destroy(s.p);
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
    tcase_add_test(t, loop_keeps_hot_pages);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(clock_pro_suite());
}

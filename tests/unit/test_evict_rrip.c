/* RRIP: insertion and ageing on a short hand-derived sequence (SRRIP,
 * RRIP-FP with and without the delay field, BRRIP's insertion), and the
 * policies against a naive RRIP written here (scan of the ways from way 0,
 * age all when nothing is distant) on random traces. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "core/rng.h"
#include "driver/driver.h"
#include "driver/replay/replay.h"
#include "driver/evict/evict.h"

static struct config *cfg_with(const char *a, const char *b)
{
    const char *sets[2];
    size_t n = 0;
    if (a) sets[n++] = a;
    if (b) sets[n++] = b;
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    return c;
}

static uint64_t victim(const struct evict_ops *o, void *p)
{
    uint64_t v;
    ck_assert(o->victim(p, &v));
    return v;
}

/* SRRIP-HP, M = 2 (long = 2, distant = 3), 3 frames:
 *   A B C inserted long (2 2 2); hit A -> 0.
 *   victim: none distant, age: A1 B3 C3 -> first distant in frame order: B.
 *   D takes B's frame, long: A1 D2 C3 -> victim C (already distant).
 *   E takes C's frame: A1 D2 E2 -> age: A2 D3 E3 -> victim D (frame 1). */
START_TEST(srrip_insertion_hit_and_ageing)
{
    struct config *c = cfg_with(NULL, NULL);
    const struct evict_ops *o = &evict_srrip_ops;
    void *p = o->create(c, 3);
    enum { A = 10, B, C, D, E };
    o->on_resident(p, A); o->on_resident(p, B); o->on_resident(p, C);
    ck_assert_int_eq(evict_rrip_prediction(p, A), 2);
    o->touch(p, A);
    ck_assert_int_eq(evict_rrip_prediction(p, A), 0);
    ck_assert_uint_eq(victim(o, p), B);
    ck_assert_int_eq(evict_rrip_prediction(p, A), 1);
    ck_assert_int_eq(evict_rrip_prediction(p, C), 3);
    o->on_resident(p, D);
    ck_assert_uint_eq(victim(o, p), C);
    o->on_resident(p, E);
    ck_assert_uint_eq(victim(o, p), D);
    ck_assert_int_eq(evict_rrip_prediction(p, A), 2);
    ck_assert_int_eq(evict_rrip_prediction(p, E), 3);
    ck_assert_int_eq(evict_rrip_prediction(p, D), -1);
    o->destroy(p);
    config_free(c);
}
END_TEST

/* RRIP-FP: a hit lowers the prediction by one (frequency priority). */
START_TEST(rrip_fp_hits_step_down_by_one)
{
    struct config *c = cfg_with(NULL, NULL);
    const struct evict_ops *o = &evict_rrip_fp_ops;
    void *p = o->create(c, 2);
    o->on_resident(p, 1);
    ck_assert_int_eq(evict_rrip_prediction(p, 1), 2);   /* default: long */
    o->touch(p, 1);
    ck_assert_int_eq(evict_rrip_prediction(p, 1), 1);
    o->touch(p, 1);
    o->touch(p, 1);
    ck_assert_int_eq(evict_rrip_prediction(p, 1), 0);
    o->destroy(p);
    config_free(c);
}
END_TEST

/* RRIP-FP inserting distant, 3 frames, faults numbered from 0:
 * A(0) B(1) C(2) all distant.  Victim at fault count 3: A (frame 0).
 * D(3) takes frame 0.  Next victim, fault count 4:
 *   delay 0: D is distant in frame 0 -> D (instant thrashing);
 *   delay 2: D's margin 4 - 3 = 1 < 2, skip; B's 4 - 1 = 3 -> B. */
START_TEST(rrip_fp_delay_field_stops_instant_thrashing)
{
    for (int delay = 0; delay <= 2; delay += 2) {
        char d[64];
        snprintf(d, sizeof d, "driver.evict.rrip_fp.delay=%d", delay);
        struct config *c = cfg_with("driver.evict.rrip_fp.insert=distant", d);
        const struct evict_ops *o = &evict_rrip_fp_ops;
        void *p = o->create(c, 3);
        o->on_resident(p, 'A'); o->on_resident(p, 'B'); o->on_resident(p, 'C');
        ck_assert_int_eq(evict_rrip_prediction(p, 'A'), 3);
        ck_assert_uint_eq(victim(o, p), 'A');
        o->on_resident(p, 'D');
        ck_assert_uint_eq(victim(o, p), delay ? 'B' : 'D');
        o->destroy(p);
        config_free(c);
    }
}
END_TEST

/* RRIP-FP's fault number does not count prefetched pages (issue 11.1).
 * Distant insertion, delay 2, 3 frames; faults numbered from 0:
 *   A(0) B(1) C(2); victim at count 3: A (slot 0); D(3) takes slot 0.
 *   Victim at count 4: D's margin 1 < 2, B's 3 -> B; prefetched P takes
 *   slot 1 with the current number 4, which stays 4.
 *   Victim at count 4: D 1, P 0, C 2 -> C.
 * Had P counted as fault 4, the count would be 5 and D (margin 2) would go. */
START_TEST(rrip_fp_prefetches_do_not_count_as_faults)
{
    struct config *c = cfg_with("driver.evict.rrip_fp.insert=distant", "driver.evict.rrip_fp.delay=2");
    const struct evict_ops *o = &evict_rrip_fp_ops;
    void *p = o->create(c, 3);
    o->on_resident(p, 'A'); o->on_resident(p, 'B'); o->on_resident(p, 'C');
    ck_assert_uint_eq(victim(o, p), 'A');
    o->on_resident(p, 'D');
    ck_assert_uint_eq(victim(o, p), 'B');
    o->prefetched(p, 'P');
    ck_assert_int_eq(evict_rrip_prediction(p, 'P'), 3);
    ck_assert_uint_eq(victim(o, p), 'C');
    o->destroy(p);
    config_free(c);
}
END_TEST

START_TEST(brrip_inserts_distant_except_a_chance_of_long)
{
    struct config *c = cfg_with(NULL, NULL);
    const struct evict_ops *o = &evict_brrip_ops;
    void *p = o->create(c, 4096);
    int lng = 0;
    for (int i = 0; i < 4096; i++) {
        o->on_resident(p, (uint64_t)i);
        int v = evict_rrip_prediction(p, (uint64_t)i);
        ck_assert(v == 2 || v == 3);
        lng += v == 2;
    }
    /* 1/32 of 4096 = 128; binomial sd ~ 11: within 5 sd */
    ck_assert_int_ge(lng, 128 - 55);
    ck_assert_int_le(lng, 128 + 55);
    o->destroy(p);
    config_free(c);
}
END_TEST

/* Naive RRIP: ways filled in order, a newcomer takes its victim's way. */
static uint64_t naive_rrip(const uint64_t *t, size_t n, size_t ways, bool fp,
                           int insert, uint64_t delay)
{
    uint64_t page[64], ins[64], faults = 0;
    int rr[64];
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < used && page[j] != t[i]) j++;
        if (j < used) { rr[j] = fp ? (rr[j] ? rr[j] - 1 : 0) : 0; continue; }
        size_t w = used;
        if (used == ways) {
            for (;;) {
                w = ways;
                for (size_t k = 0; k < ways && w == ways; k++)
                    if (rr[k] == 3 && faults - ins[k] >= delay) w = k;
                if (w < ways) break;
                bool all = true;
                for (size_t k = 0; k < ways; k++) all &= rr[k] == 3;
                if (all) {
                    w = 0;
                    for (size_t k = 1; k < ways; k++) if (ins[k] < ins[w]) w = k;
                    break;
                }
                for (size_t k = 0; k < ways; k++) if (rr[k] < 3) rr[k]++;
            }
        } else {
            used++;
        }
        page[w] = t[i];
        rr[w] = insert;
        ins[w] = faults++;
    }
    return faults;
}

START_TEST(rrip_matches_naive_model_on_random_traces)
{
    struct rng g;
    rng_init(&g, 5, "test.evict.rrip");
    for (int trial = 0; trial < 30; trial++) {
        enum { N = 1500 };
        uint64_t t[N];
        size_t ways = 2 + (size_t)rng_below(&g, 30);
        uint64_t pages = ways + 1 + rng_below(&g, 40);
        for (size_t i = 0; i < N; i++)
            t[i] = trial & 1 ? rng_below(&g, pages) : i % pages + rng_below(&g, 3);
        char *text = malloc(N * 24), *q = text;
        for (size_t i = 0; i < N; i++) q += sprintf(q, "%llu\n", (unsigned long long)t[i]);
        uint64_t delay = trial % 3 ? 0 : 1 + rng_below(&g, ways);
        char d[64];
        snprintf(d, sizeof d, "driver.evict.rrip_fp.delay=%llu", (unsigned long long)delay);
        struct { const char *pol, *a, *b; bool fp; int ins; uint64_t delay; } cases[] = {
            { "srrip", NULL, NULL, false, 2, 0 },
            { "rrip-fp", NULL, d, true, 2, delay },
            { "rrip-fp", "driver.evict.rrip_fp.insert=distant", d, true, 3, delay },
        };
        for (size_t k = 0; k < 3; k++) {
            struct config *c = cfg_with(cases[k].a, cases[k].b);
            FILE *f = fmemopen(text, strlen(text), "r");
            struct replay_result r;
            char err[128];
            ck_assert_int_eq(driver_replay(c, cases[k].pol, ways, f, "t", &r, err, sizeof err), 0);
            fclose(f);
            config_free(c);
            ck_assert_uint_eq(r.faults, naive_rrip(t, N, ways, cases[k].fp, cases[k].ins, cases[k].delay));
        }
        free(text);
    }
}
END_TEST

static Suite *rrip_suite(void)
{
    Suite *s = suite_create("evict_rrip");
    TCase *t = tcase_create("rrip");
    tcase_add_test(t, srrip_insertion_hit_and_ageing);
    tcase_add_test(t, rrip_fp_hits_step_down_by_one);
    tcase_add_test(t, rrip_fp_delay_field_stops_instant_thrashing);
    tcase_add_test(t, rrip_fp_prefetches_do_not_count_as_faults);
    tcase_add_test(t, brrip_inserts_distant_except_a_chance_of_long);
    tcase_add_test(t, rrip_matches_naive_model_on_random_traces);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(rrip_suite());
}

/* Belady's MIN (ideal): in replay equal to a brute-force MIN written here
 * and never more faults than any other policy on seeded random and
 * patterned traces; in timed runs its future is the program's references
 * at their logical places, which references made in any order find. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "core/stats.h"
#include "core/rng.h"
#include "driver/driver.h"
#include "driver/replay/replay.h"
#include "driver/evict/evict.h"

static struct config *cfg_with(const char *a, const char *b, const char *c3)
{
    const char *sets[3];
    size_t n = 0;
    if (a) sets[n++] = a;
    if (b) sets[n++] = b;
    if (c3) sets[n++] = c3;
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    return c;
}

static uint64_t faults_of(const char *policy, uint64_t frames, const char *text,
                          const char *set_a, const char *set_b, const char *set_c)
{
    struct config *c = cfg_with(set_a, set_b, set_c);
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct replay_result r;
    char err[256];
    ck_assert_int_eq(driver_replay(c, policy, frames, f, "t", &r, err, sizeof err), 0);
    fclose(f);
    config_free(c);
    return r.faults;
}

/* MIN by definition: on a miss with full memory, scan forward for each
 * resident page's next use and drop the one used last (or never). */
static uint64_t brute_min(const uint64_t *t, size_t n, size_t frames)
{
    uint64_t res[64], faults = 0;
    size_t nres = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < nres && res[j] != t[i]) j++;
        if (j < nres) continue;
        faults++;
        if (nres < frames) { res[nres++] = t[i]; continue; }
        size_t victim = 0, far = 0;
        for (size_t k = 0; k < nres; k++) {
            size_t nu = i + 1;
            while (nu < n && t[nu] != res[k]) nu++;
            if (nu > far) { far = nu; victim = k; }
        }
        res[victim] = t[i];
    }
    return faults;
}

static char *to_text(const uint64_t *t, size_t n)
{
    char *s = malloc(n * 24 + 1), *p = s;
    for (size_t i = 0; i < n; i++) p += sprintf(p, "%llu\n", (unsigned long long)t[i]);
    *p = 0;
    return s;
}

/* Patterns: uniform random; near-cyclic (HPE type II); repeated pages
 * inside a moving region (type VI); a hot set plus a stream (type III). */
static void make_trace(struct rng *g, int kind, uint64_t *t, size_t n, uint64_t pages)
{
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case 0: t[i] = rng_below(g, pages); break;
        case 1: t[i] = i % pages + rng_below(g, 2); break;
        case 2: t[i] = (i / 40) * 4 + rng_below(g, 12); break;
        default: t[i] = rng_below(g, 4) ? rng_below(g, 8) : 100 + i; break;
        }
    }
}

START_TEST(ideal_matches_brute_force_min_and_beats_every_policy)
{
    struct rng g;
    rng_init(&g, 2024, "test.evict.ideal");
    for (int trial = 0; trial < 24; trial++) {
        enum { N = 600 };
        uint64_t t[N];
        size_t frames = 3 + (size_t)rng_below(&g, 20);
        make_trace(&g, trial % 4, t, N, frames + 2 + rng_below(&g, 30));
        char *text = to_text(t, N);
        uint64_t best = faults_of("ideal", frames, text, NULL, NULL, NULL);
        ck_assert_uint_eq(best, brute_min(t, N, frames));
        for (size_t p = 0; evict_policies[p]; p++) {
            const char *name = evict_policies[p]->name;
            /* small page sets so that HPE's structures matter at these
             * sizes; every other trial the others see walks through a TLB */
            uint64_t f = faults_of(name, frames, text, "driver.evict.hpe.set_pages=4",
                                   "driver.evict.clock_pro.cold=2",
                                   trial & 1 ? "driver.evict.replay_tlb=4" : NULL);
            ck_assert_msg(best <= f, "trial %d: ideal %llu > %s %llu", trial,
                          (unsigned long long)best, name, (unsigned long long)f);
        }
        free(text);
    }
}
END_TEST

/* Timed Ideal finds each reference by its logical place, so the order in
 * which a run makes them does not matter.  Pattern type II over 16 pages,
 * 2 launches: 2 blocks of 8 warps, warp w of block b reads page 8b + w
 * once per launch, so page p's references are (launch, p / 8, 0, p % 8).
 * 4 frames.  Launch 0 made in reverse page order (15 .. 0), each page
 * landing (on_resident) then referenced: every resident page's next use is
 * in launch 1, the furthest the highest page, so 11 evicts 15, 10 evicts
 * 14, ..., 0 evicts 4: 12 victims, 0 1 2 3 stay.  Launch 1 in order: 0-3
 * made (next use: never).  A batch of two faults, 4 and 5: 4 evicts 3
 * (never, highest); 4 has landed but its reference is pending, so 5 evicts
 * 2, not 4.  Then 6 .. 15 each evict the highest page (all never) after
 * their reference: 28 faults in all, MIN's 16 + (16 - 4) for this order. */
START_TEST(references_in_any_order_find_their_place)
{
    const char *sets[] = { "workload.kind=pattern", "workload.pattern.type=thrashing",
                           "workload.pattern.pages=16", "workload.pattern.passes=2" };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, 4, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    const uint64_t base = 0x100000000000ULL >> 12;      /* WL_VA_BASE's page */
    struct stats *st = stats_new();
    struct evictor *ev = evictor_create(c, "ideal", 4, st);
    evictor_program(ev, c);
    ck_assert(evictor_wants_references(ev));
    ck_assert(!evictor_wants_touches(ev));
    ck_assert_uint_eq(*stats_find(st, "evict.ideal.references")->p.u, 32);
    uint64_t res[4], nres = 0, faults = 0, v;
#define FAULT(p, want) do {                                                        \
        faults++;                                                                  \
        if (nres == 4) {                                                           \
            ck_assert(evictor_victim(ev, &v));                                     \
            if ((int64_t)(want) >= 0) ck_assert_uint_eq(v - base, (uint64_t)(want)); \
            size_t i_ = 0;                                                         \
            while (res[i_] != v) i_++;                                             \
            res[i_] = res[--nres];                                                 \
        }                                                                          \
        res[nres++] = base + (p);                                                  \
        evictor_resident(ev, base + (p), false);                                   \
    } while (0)
#define REF(k, p) evictor_reference(ev, &(struct evict_ref){ (k), (p) / 8, 0, base + (p), (p) % 8 })
    for (int p = 15; p >= 0; p--) {
        FAULT(p, p < 12 ? p + 4 : -1);
        REF(0, p);
    }
    for (int p = 0; p < 4; p++) REF(1, p);
    FAULT(4, 3);
    FAULT(5, 2);
    REF(1, 4);
    REF(1, 5);
    for (int p = 6; p < 16; p++) {
        FAULT(p, -1);
        ck_assert_uint_eq(v - base, (uint64_t)(p - 1));
        REF(1, p);
    }
#undef FAULT
#undef REF
    ck_assert_uint_eq(faults, 28);
    ck_assert_uint_eq(*stats_find(st, "evict.ideal.unmatched")->p.u, 0);
    /* a reference the program never makes is counted and ignored */
    evictor_reference(ev, &(struct evict_ref){ 0, 0, 1, base, 0 });
    evictor_reference(ev, &(struct evict_ref){ 0, 0, 0, base + 99, 0 });
    ck_assert_uint_eq(*stats_find(st, "evict.ideal.unmatched")->p.u, 2);
    evictor_free(ev);
    stats_free(st);
    config_free(c);
}
END_TEST

static Suite *ideal_suite(void)
{
    Suite *s = suite_create("evict_ideal");
    TCase *t = tcase_create("ideal");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, ideal_matches_brute_force_min_and_beats_every_policy);
    tcase_add_test(t, references_in_any_order_find_their_place);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(ideal_suite());
}

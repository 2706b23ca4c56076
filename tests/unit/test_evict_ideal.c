/* Belady's MIN (ideal): equal to a brute-force MIN written here, never more
 * faults than any other policy on seeded random and patterned traces, and
 * the two-pass design (record a stream, replay with it as the future). */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config.h"
#include "rng.h"
#include "driver/driver.h"
#include "../../sim/driver/evict.h"

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

/* Pass 1 records what the policy is fed (every reference, in replay) and
 * pass 2 uses the file as the future: the same faults as with the trace. */
START_TEST(recorded_stream_is_the_future_of_a_second_pass)
{
    char path[] = "/tmp/uvmsim_future_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *text = "1\n2\n3\n4\n1\n2\n5\n1\n2\n3\n4\n5\n";
    char rec[300], fut[300];
    snprintf(rec, sizeof rec, "driver.evict.record=%s", path);
    snprintf(fut, sizeof fut, "driver.evict.ideal.future=%s", path);
    faults_of("fifo", 3, text, rec, NULL, NULL);
    /* Belady on this classic string with 3 frames: 7 faults
     * (1 2 3 miss, 4 evicts 3, 1 2 hit, 5 evicts 4, 1 2 hit, 3 evicts 1
     * or 2 -- neither is used again --, 4 evicts the other or 3, 5 hits). */
    ck_assert_uint_eq(faults_of("ideal", 3, text, NULL, NULL, NULL), 7);
    ck_assert_uint_eq(faults_of("ideal", 3, text, fut, NULL, NULL), 7);
    FILE *f = fopen(path, "r");
    uint64_t *refs;
    size_t n;
    char err[128];
    ck_assert_int_eq(page_trace_read(f, path, &refs, NULL, &n, err, sizeof err), 0);
    fclose(f);
    ck_assert_uint_eq(n, 12);
    ck_assert_uint_eq(refs[6], 5);
    free(refs);
    unlink(path);
    close(fd);
}
END_TEST

static Suite *ideal_suite(void)
{
    Suite *s = suite_create("evict_ideal");
    TCase *t = tcase_create("ideal");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, ideal_matches_brute_force_min_and_beats_every_policy);
    tcase_add_test(t, recorded_stream_is_the_future_of_a_second_pass);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(ideal_suite());
}

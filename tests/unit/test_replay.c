/* Policy-only replay: FIFO/LRU against references written independently
 * here, the cyclic-sweep property, random's advantage, and the page map. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "core/rng.h"
#include "driver/driver.h"
#include "driver/replay/replay.h"
#include "driver/mem/mem.h"

static struct config *cfg_seed(unsigned seed)
{
    char set[32];
    snprintf(set, sizeof set, "sim.seed=%u", seed);
    const char *sets[] = { set };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, 1, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    return c;
}

static struct replay_result replay(const char *policy, uint64_t frames,
                                   const char *text, unsigned seed)
{
    struct config *c = cfg_seed(seed);
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct replay_result r;
    char err[256];
    ck_assert_int_eq(driver_replay(c, policy, frames, f, "t", &r, err, sizeof err), 0);
    fclose(f);
    config_free(c);
    return r;
}

/* Reference models: an array of resident pages, linear scans. */
static uint64_t ref_faults(const uint64_t *t, size_t n, size_t frames, bool lru)
{
    uint64_t res[64], stamp[64], faults = 0, clock = 0;
    size_t nres = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < nres && res[j] != t[i]) j++;
        clock++;
        if (j < nres) { if (lru) stamp[j] = clock; continue; }
        faults++;
        if (nres < frames) { res[nres] = t[i]; stamp[nres++] = clock; continue; }
        size_t v = 0;          /* oldest stamp: insertion (FIFO) or use (LRU) */
        for (size_t k = 1; k < nres; k++) if (stamp[k] < stamp[v]) v = k;
        res[v] = t[i];
        stamp[v] = clock;
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

START_TEST(fifo_and_lru_match_reference_on_random_traces)
{
    struct rng g;
    rng_init(&g, 42, "test.replay");
    for (int trial = 0; trial < 20; trial++) {
        size_t n = 2000, frames = 4 + (size_t)rng_below(&g, 28);
        uint64_t pages = frames + 1 + rng_below(&g, 40), t[2000];
        for (size_t i = 0; i < n; i++)
            t[i] = (trial & 1) ? rng_below(&g, pages)        /* uniform */
                               : (i % pages + rng_below(&g, 3)); /* near-cyclic */
        char *text = to_text(t, n);
        ck_assert_uint_eq(replay("fifo", frames, text, 1).faults, ref_faults(t, n, frames, false));
        ck_assert_uint_eq(replay("lru", frames, text, 1).faults, ref_faults(t, n, frames, true));
        free(text);
    }
}
END_TEST

/* A cyclic sweep over K = 1.25 C pages: under FIFO and LRU the page
 * referenced next is always the one evicted longest ago, so every
 * reference faults: faults = passes x K. */
START_TEST(cyclic_sweep_faults_every_reference_for_fifo_and_lru)
{
    enum { C = 64, K = 80, PASSES = 5 };
    uint64_t t[K * PASSES];
    for (size_t i = 0; i < K * PASSES; i++) t[i] = i % K;
    char *text = to_text(t, K * PASSES);
    ck_assert_uint_eq(replay("fifo", C, text, 1).faults, K * PASSES);
    ck_assert_uint_eq(replay("lru", C, text, 1).faults, K * PASSES);
    /* Random keeps some pages across passes: strictly fewer faults on
     * average over several seeds (and never fewer than the K cold misses
     * plus (K - C) per later pass, the minimum any policy can do). */
    double sum = 0;
    for (unsigned s = 1; s <= 8; s++) {
        uint64_t f = replay("random", C, text, s).faults;
        ck_assert_uint_ge(f, K + (PASSES - 1) * (K - C));
        sum += (double)f;
    }
    ck_assert(sum / 8 < K * PASSES);
    free(text);
}
END_TEST

START_TEST(writebacks_count_dirty_victims_only)
{
    /* 3 frames, LRU: 1 2W 3 1 4 5 1 -> 4 evicts 2 (dirty), 5 evicts 3. */
    struct replay_result r = replay("lru", 3, "1\n2 W\n3\n1\n4\n# comment\n\n5 R\n1\n", 1);
    ck_assert_uint_eq(r.refs, 7);
    ck_assert_uint_eq(r.faults, 5);
    ck_assert_uint_eq(r.evictions, 2);
    ck_assert_uint_eq(r.writebacks, 1);
}
END_TEST

START_TEST(malformed_line_names_file_and_line)
{
    struct config *c = cfg_seed(1);
    const char *text = "1\n2\n3 X\n";
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct replay_result r;
    char err[256];
    ck_assert_int_eq(driver_replay(c, "fifo", 2, f, "pages.txt", &r, err, sizeof err), -1);
    ck_assert_msg(strncmp(err, "pages.txt:3: ", 13) == 0, "%s", err);
    fclose(f);
    config_free(c);
}
END_TEST

/* The page map against a naive array under random insert/erase. */
START_TEST(page_map_matches_naive_model)
{
    struct page_map m;
    page_map_init(&m, 100);
    uint32_t naive[300];
    for (int i = 0; i < 300; i++) naive[i] = PAGE_MAP_NONE;
    struct rng g;
    rng_init(&g, 7, "test.page_map");
    size_t live = 0;
    for (int step = 0; step < 20000; step++) {
        uint64_t k = rng_below(&g, 300);
        if (naive[k] == PAGE_MAP_NONE && live < 100 && rng_below(&g, 2)) {
            naive[k] = (uint32_t)step;
            page_map_put(&m, k * 4096 + 7, (uint32_t)step);
            live++;
        } else if (naive[k] != PAGE_MAP_NONE) {
            naive[k] = PAGE_MAP_NONE;
            page_map_erase(&m, k * 4096 + 7);
            live--;
        }
        uint64_t q = rng_below(&g, 300);
        ck_assert_uint_eq(page_map_get(&m, q * 4096 + 7), naive[q]);
    }
    ck_assert_uint_eq(m.n, live);
    page_map_free(&m);
}
END_TEST

static Suite *replay_suite(void)
{
    Suite *s = suite_create("replay");
    TCase *t = tcase_create("policies");
    tcase_add_test(t, fifo_and_lru_match_reference_on_random_traces);
    tcase_add_test(t, cyclic_sweep_faults_every_reference_for_fifo_and_lru);
    tcase_add_test(t, writebacks_count_dirty_victims_only);
    tcase_add_test(t, malformed_line_names_file_and_line);
    tcase_add_test(t, page_map_matches_naive_model);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(replay_suite());
}

/* Host memory of per-page state (issue 13): the compact PTE and the page
 * table's bytes per page, the fault-page map, the per-page counts and the
 * growable page map, each against a naive model; the byte figures are
 * derived from the layouts (512 8-byte entries per node, one byte per
 * counted page), not read off the program. */
#include <check.h>
#include "suite_main.h"
#include <stdlib.h>
#include <string.h>
#include "core/rng.h"
#include "gmmu/page_table.h"
#include "gmmu/fault_pages.h"
#include "driver/mem/mem.h"

/* 4 GiB of footprint (1 GiB-aligned) mapped page by page: 2^20 PTEs of
 * 8 bytes in 2048 leaves, 4 level-2 nodes (1 GiB each), 1 level-3 node
 * and the root: 2054 nodes of 4 KiB, so 8 B per page plus 0.03 B of upper
 * levels and headers. */
START_TEST(page_table_costs_eight_bytes_per_page)
{
    struct page_table pt;
    pt_init(&pt);
    uint64_t base = 0x40000000ULL >> 12, pages = 1ULL << 20;   /* 1 GiB in, 4 GiB */
    for (uint64_t i = 0; i < pages; i++) {
        struct pte *p = pt_get(&pt, base + i);
        pte_set_pfn(p, (i * 7919) % (1ULL << 40));
        p->flags = PTE_PRESENT;
    }
    ck_assert_uint_eq(pt.nodes, 2048 + 4 + 1 + 1);
    size_t b = pt_bytes(&pt);
    ck_assert_uint_ge(b, (size_t)pt.nodes * 4096);
    ck_assert_msg((double)b / (double)pages < 8.1, "%.3f B per page", (double)b / (double)pages);
    /* The packed frame number round-trips all 40 bits. */
    for (uint64_t i = 0; i < pages; i += 4099)
        ck_assert_uint_eq(pte_pfn(pt_find(&pt, base + i)), (i * 7919) % (1ULL << 40));
    struct pte *p = pt_get(&pt, base);
    pte_set_pfn(p, (1ULL << 40) - 1);
    ck_assert_uint_eq(pte_pfn(p), (1ULL << 40) - 1);
    ck_assert_uint_eq(p->flags, PTE_PRESENT);
    pt_free(&pt);
}
END_TEST

/* The fault-page map against a naive array under random get/erase, across
 * several growths; erasing leaves every other entry reachable (backward
 * shift). */
START_TEST(fault_pages_match_naive_model)
{
    enum { KEYS = 5000 };
    struct fault_pages m;
    fp_init(&m);
    static sim_time naive[KEYS];
    static bool live[KEYS];
    memset(live, 0, sizeof live);
    struct rng g;
    rng_init(&g, 11, "test.fault_pages");
    size_t n = 0;
    for (int step = 1; step < 200000; step++) {
        uint64_t k = rng_below(&g, KEYS), vpn = k * 512 + 3;
        if (!live[k] && rng_below(&g, 3)) {
            fp_get(&m, vpn)->t_fault = (sim_time)step;
            naive[k] = (sim_time)step;
            live[k] = true;
            n++;
        } else if (live[k]) {
            fp_erase(&m, vpn);
            live[k] = false;
            n--;
        }
        uint64_t q = rng_below(&g, KEYS);
        struct fault_page *e = fp_find(&m, q * 512 + 3);
        ck_assert(live[q] == (e != NULL));
        if (e) ck_assert_uint_eq(e->t_fault, naive[q]);
    }
    ck_assert_uint_eq(m.n, n);
    /* Load at most one half: the table is at most four times the peak. */
    ck_assert_uint_le(fp_bytes(&m), 4 * KEYS * sizeof(struct fault_page));
    fp_free(&m);
}
END_TEST

/* Counts against a naive array, with pages pushed past the one-byte
 * range (255 and more live in the overflow map) and back. */
START_TEST(page_counts_match_naive_model)
{
    enum { KEYS = 3000 };
    struct page_counts c;
    page_counts_init(&c);
    static uint32_t naive[KEYS];
    memset(naive, 0, sizeof naive);
    struct rng g;
    rng_init(&g, 5, "test.page_counts");
    /* Keys spread over 2 MiB blocks far apart (different directory nodes). */
    #define KEY(k) ((uint64_t)(k) * 1000003ULL % (1ULL << 36))
    for (int step = 0; step < 300000; step++) {
        /* A quarter of the steps go to four hot keys, which climb high;
         * the rest go up and down. */
        uint64_t k = rng_below(&g, 4) ? rng_below(&g, KEYS) : rng_below(&g, 4);
        bool up = k < 4 ? rng_below(&g, 8) != 0 : rng_below(&g, 2) != 0;
        if (up) ck_assert_uint_eq(page_counts_inc(&c, KEY(k)), ++naive[k]);
        else if (naive[k]) ck_assert_uint_eq(page_counts_dec(&c, KEY(k)), --naive[k]);
        uint64_t q = rng_below(&g, KEYS);
        ck_assert_uint_eq(page_counts_get(&c, KEY(q)), naive[q]);
    }
    uint32_t top = 0;
    for (int k = 0; k < 4; k++) if (naive[k] > top) top = naive[k];
    ck_assert_uint_gt(top, 1000);          /* the overflow path was taken */
    for (uint64_t k = 0; k < KEYS; k++) ck_assert_uint_eq(page_counts_get(&c, KEY(k)), naive[k]);
    /* Down through 255 to zero: exact all the way. */
    while (naive[0]) ck_assert_uint_eq(page_counts_dec(&c, KEY(0)), --naive[0]);
    ck_assert_uint_eq(page_counts_get(&c, KEY(0)), 0);
    page_counts_free(&c);
    #undef KEY
}
END_TEST

/* A 4 GiB footprint (1 GiB-aligned) counted page by page: 2048 leaves of
 * 512 bytes and six 4 KiB directory nodes (the root, one level-2 node and
 * four level-1 nodes of 512 leaves each), so one byte per page plus
 * 0.03 B; pages never counted read 0 and cost nothing. */
START_TEST(page_counts_cost_one_byte_per_page)
{
    struct page_counts c;
    page_counts_init(&c);
    uint64_t base = 0x7f0000000000ULL >> 12, pages = 1ULL << 20;
    for (uint64_t i = 0; i < pages; i++) page_counts_inc(&c, base + i);
    ck_assert_uint_eq(c.leaves, 2048);
    ck_assert_uint_eq(c.nodes, 6);
    double per = (double)page_counts_bytes(&c) / (double)pages;
    ck_assert_msg(per >= 1.0 && per < 1.03, "%.4f B per page", per);
    ck_assert_uint_eq(page_counts_get(&c, base - 1), 0);
    ck_assert_uint_eq(page_counts_get(&c, base + pages), 0);
    ck_assert_uint_eq(c.leaves, 2048);     /* reading allocates nothing */
    page_counts_free(&c);
}
END_TEST

/* A map sized for 16 entries holds 10000 (it doubles when half full) and
 * stays at load <= 1/2. */
START_TEST(page_map_grows_past_its_initial_size)
{
    struct page_map m;
    page_map_init(&m, 16);
    for (uint32_t i = 0; i < 10000; i++) page_map_put(&m, (uint64_t)i * 77 + 1, i);
    for (uint32_t i = 0; i < 10000; i++) ck_assert_uint_eq(page_map_get(&m, (uint64_t)i * 77 + 1), i);
    for (uint32_t i = 0; i < 10000; i += 2) page_map_erase(&m, (uint64_t)i * 77 + 1);
    for (uint32_t i = 0; i < 10000; i++)
        ck_assert_uint_eq(page_map_get(&m, (uint64_t)i * 77 + 1), i % 2 ? i : PAGE_MAP_NONE);
    ck_assert_uint_eq(m.n, 5000);
    ck_assert_uint_eq(m.mask + 1, 32768);  /* 2 x 10000 rounded up to a power of two */
    page_map_free(&m);
}
END_TEST

static Suite *pagestate_suite(void)
{
    Suite *s = suite_create("pagestate");
    TCase *t = tcase_create("bytes");
    tcase_set_timeout(t, 30);
    tcase_add_test(t, page_table_costs_eight_bytes_per_page);
    tcase_add_test(t, fault_pages_match_naive_model);
    tcase_add_test(t, page_counts_match_naive_model);
    tcase_add_test(t, page_counts_cost_one_byte_per_page);
    tcase_add_test(t, page_map_grows_past_its_initial_size);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(pagestate_suite());
}

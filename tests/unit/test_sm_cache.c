/* The sectored set-associative LRU tag store with MSHRs (sim/core/cache.c),
 * used by the L1D and the L2 slices, on a small config worked by hand. */
#include <check.h>
#include "suite_main.h"
#include "core/cache.h"

#define L(n) ((uint64_t)(n) * 128)   /* byte address of line n */

/* 512 B, 2 ways: 512 / (2 x 128) = 2 sets; line n lives in set n mod 2. */
START_TEST(lru_hit_miss_sequence)
{
    struct cache c;
    struct cache_victim v;
    bool tag;
    ck_assert(cache_init(&c, 512, 2, 4));
    ck_assert_uint_eq(c.sets, 2);
    /* 1. L0 misses; fill.  2. L2 (same set) misses; fill: set 0 = {L0, L2}. */
    ck_assert_uint_eq(cache_probe(&c, L(0), 0xf, &tag), 0xf);
    ck_assert(!tag);
    cache_fill(&c, L(0), 0xf, false, &v);
    ck_assert(!v.valid);
    ck_assert_uint_eq(cache_probe(&c, L(2), 0xf, &tag), 0xf);
    cache_fill(&c, L(2), 0xf, false, &v);
    ck_assert(!v.valid);
    /* 3. L0 hits and becomes most recent. */
    ck_assert_uint_eq(cache_probe(&c, L(0), 0xf, &tag), 0);
    ck_assert(tag);
    /* 4. L4 misses; its fill evicts the LRU of set 0, L2. */
    ck_assert_uint_eq(cache_probe(&c, L(4), 0xf, &tag), 0xf);
    cache_fill(&c, L(4), 0xf, false, &v);
    ck_assert(v.valid);
    ck_assert_uint_eq(v.addr, L(2));
    ck_assert_uint_eq(v.dirty, 0);
    /* 5. L2 misses again; its fill evicts L0 (used at 3, before L4 at 4). */
    ck_assert_uint_eq(cache_probe(&c, L(2), 0xf, &tag), 0xf);
    cache_fill(&c, L(2), 0xf, false, &v);
    ck_assert_uint_eq(v.addr, L(0));
    /* 6. L4 hits, L0 misses; set 1 is untouched by all of it. */
    ck_assert_uint_eq(cache_probe(&c, L(4), 0xf, &tag), 0);
    ck_assert_uint_eq(cache_probe(&c, L(0), 0xf, &tag), 0xf);
    ck_assert_uint_eq(cache_probe(&c, L(1), 0xf, &tag), 0xf);
    /* Sector miss: L3 holds only sector 0; asking for sectors 0-1 finds
     * the tag and misses sector 1. */
    cache_fill(&c, L(3), 0x1, false, &v);
    ck_assert_uint_eq(cache_probe(&c, L(3), 0x3, &tag), 0x2);
    ck_assert(tag);
    ck_assert_uint_eq(cache_probe(&c, L(3), 0x2, &tag), 0x2);
    /* Write without allocate: absent L5 stays absent; present L3 gains
     * sectors 2-3, dirty. */
    ck_assert(!cache_write_present(&c, L(5), 0x4, true));
    ck_assert_uint_eq(cache_probe(&c, L(5), 0x4, &tag), 0x4);
    ck_assert(!tag);
    ck_assert(cache_write_present(&c, L(3), 0xc, true));
    ck_assert_uint_eq(cache_probe(&c, L(3), 0xd, &tag), 0);
    /* Write-allocate of L5 (set 1 = {L3}, one way free): no victim.  Then
     * L7 evicts the LRU of set 1, L3 (last used before L5's fill), with
     * its dirty sectors 2-3 to write back. */
    cache_fill(&c, L(5), 0x4, true, &v);
    ck_assert(!v.valid);
    cache_fill(&c, L(7), 0xf, false, &v);
    ck_assert(v.valid);
    ck_assert_uint_eq(v.addr, L(3));
    ck_assert_uint_eq(v.dirty, 0xc);
    /* Invalidate returns L5's dirty sector. */
    cache_invalidate(&c, L(5), &v);
    ck_assert(v.valid);
    ck_assert_uint_eq(v.dirty, 0x4);
    ck_assert_uint_eq(cache_probe(&c, L(5), 0x4, &tag), 0x4);
    cache_free(&c);
}
END_TEST

START_TEST(mshr_merge_and_limit)
{
    struct cache c;
    struct mem_req r[3] = {{0}};
    ck_assert(cache_init(&c, 512, 2, 2));
    ck_assert_ptr_null(cache_mshr_find(&c, L(9)));
    struct cache_mshr *a = cache_mshr_alloc(&c, L(9) + 64);
    ck_assert_ptr_nonnull(a);
    /* Any byte of the same line finds the same MSHR: a merge. */
    ck_assert_ptr_eq(cache_mshr_find(&c, L(9) + 5), a);
    cache_mshr_wait(a, &r[0]);
    cache_mshr_wait(a, &r[1]);
    ck_assert_ptr_eq(a->head, &r[0]);
    ck_assert_ptr_eq(r[0].next, &r[1]);
    struct cache_mshr *b = cache_mshr_alloc(&c, L(10));
    ck_assert_ptr_nonnull(b);
    /* Two MSHRs: the third line has to wait. */
    ck_assert_ptr_null(cache_mshr_alloc(&c, L(11)));
    cache_mshr_release(&c, a);
    ck_assert_ptr_null(cache_mshr_find(&c, L(9)));
    ck_assert_ptr_nonnull(cache_mshr_alloc(&c, L(11)));
    cache_free(&c);
}
END_TEST

START_TEST(geometry)
{
    struct cache c;
    ck_assert(!cache_init(&c, 256, 4, 1));           /* less than one set */
    ck_assert(cache_init(&c, 16 * 1024, 4, 64));      /* HPE L1: 32 sets */
    ck_assert_uint_eq(c.sets, 32);
    cache_free(&c);
    ck_assert(cache_init(&c, 128 * 1024, 8, 128));    /* HPE L2 slice: 128 sets */
    ck_assert_uint_eq(c.sets, 128);
    cache_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sm_cache");
    TCase *t = tcase_create("cache");
    tcase_add_test(t, lru_hit_miss_sequence);
    tcase_add_test(t, mshr_merge_and_limit);
    tcase_add_test(t, geometry);
    suite_add_tcase(s, t);
    return run_suite(s);
}

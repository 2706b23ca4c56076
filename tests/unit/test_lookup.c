/* The lookup structures behind the CAMs and fully associative arrays
 * (issue 13): the index map against a plain array searched in order, the
 * TLB array's replacement worked by hand, a cache's frame filter. */
#include <check.h>
#include "suite_main.h"
#include "core/idxmap.h"
#include "core/cache.h"
#include "tlb/tlb_array.h"

/* Random puts and deletes, keys from a small range so that clusters form
 * and wrap around the table; every get agrees with a linear search. */
START_TEST(idxmap_agrees_with_linear_search)
{
    enum { MAX = 40, RANGE = 97 };
    struct idxmap m;
    idxmap_init(&m, MAX);
    uint64_t ref_key[MAX];
    uint32_t ref_val[MAX], n = 0;
    uint64_t x = 12345;
    for (int step = 0; step < 200000; step++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        /* keys spread over the whole 64-bit range, few distinct */
        uint64_t key = ((x >> 33) % RANGE) * 0x9e3779b97f4a7c15ULL;
        uint32_t at = n;
        for (uint32_t i = 0; i < n; i++) if (ref_key[i] == key) at = i;
        if ((x >> 20) & 1) {
            idxmap_del(&m, key);
            if (at < n) { ref_key[at] = ref_key[n - 1]; ref_val[at] = ref_val[n - 1]; n--; }
        } else if (at < n || n < MAX) {
            idxmap_put(&m, key, (uint32_t)step);
            if (at == n) ref_key[n++] = key;
            ref_val[at] = (uint32_t)step;
        }
        ck_assert_uint_eq(m.n, n);
        uint64_t probe = ((x >> 40) % RANGE) * 0x9e3779b97f4a7c15ULL;
        uint32_t want = IDXMAP_NONE;
        for (uint32_t i = 0; i < n; i++) if (ref_key[i] == probe) want = ref_val[i];
        ck_assert_uint_eq(idxmap_get(&m, probe), want);
    }
    for (uint32_t i = 0; i < n; i++) ck_assert_uint_eq(idxmap_get(&m, ref_key[i]), ref_val[i]);
    idxmap_free(&m);
}
END_TEST

#define PG(n) ((uint64_t)(n) << 12)

static uint32_t way_of(struct tlb_array *a, uint64_t vaddr)
{
    struct tlb_entry *e = tlb_array_find(a, vaddr);
    return e ? (uint32_t)(e - a->e) : 99;
}

/* One fully associative set of 4 ways.  Fill pages 1-4 (ways 0-3), use 1:
 * recency 2 3 4 1.  Invalidate 3: the next fill takes its way (2), the
 * lowest invalid way, although 2 is the least recently used: 2 4 1 5.
 * Then 6 evicts 2 (way 1), 7 evicts 4 (way 3).  A 64 KiB entry shares the
 * ways: 8 (64 KiB page 0x10) evicts 1 (way 0); page 0x10000 + 4 KiB then
 * finds it. */
START_TEST(tlb_array_lowest_invalid_then_lru)
{
    struct tlb_array a;
    tlb_array_init(&a, 4, 4);
    for (unsigned p = 1; p <= 4; p++) ck_assert(!tlb_array_insert(&a, PG(p), 12, PG(100 + p), 0));
    for (unsigned p = 1; p <= 4; p++) ck_assert_uint_eq(way_of(&a, PG(p)), p - 1);
    tlb_array_touch(&a, tlb_array_find(&a, PG(1)));
    ck_assert_uint_eq(tlb_array_invalidate(&a, 3), 1);
    ck_assert_uint_eq(way_of(&a, PG(3)), 99);
    ck_assert(!tlb_array_insert(&a, PG(5), 12, PG(105), 0));
    ck_assert_uint_eq(way_of(&a, PG(5)), 2);
    ck_assert(tlb_array_insert(&a, PG(6), 12, PG(106), 0));
    ck_assert_uint_eq(way_of(&a, PG(6)), 1);
    ck_assert_uint_eq(way_of(&a, PG(2)), 99);
    ck_assert(tlb_array_insert(&a, PG(7), 12, PG(107), 0));
    ck_assert_uint_eq(way_of(&a, PG(7)), 3);
    ck_assert_uint_eq(way_of(&a, PG(4)), 99);
    ck_assert(tlb_array_insert(&a, 0x10ULL << 16, 16, 0x7770000, 0));
    ck_assert_uint_eq(way_of(&a, PG(1)), 99);
    ck_assert_uint_eq(way_of(&a, (0x10ULL << 16) + 4096), 0);
    ck_assert_uint_eq(tlb_array_find(&a, (0x10ULL << 16) + 4096)->shift, 16);
    /* Refreshing an entry keeps its way and makes it most recent: 5 then
     * is evicted by 9 before 7 is (recency 5 6 7 8 -> 6 7 8 5 after the
     * refresh of 5; 9 evicts 6 in way 1). */
    ck_assert(!tlb_array_insert(&a, PG(5), 12, PG(205), 0));
    ck_assert_uint_eq(way_of(&a, PG(5)), 2);
    ck_assert_uint_eq(tlb_array_find(&a, PG(5))->pbase, PG(205));
    ck_assert(tlb_array_insert(&a, PG(9), 12, PG(109), 0));
    ck_assert_uint_eq(way_of(&a, PG(9)), 1);
    ck_assert_uint_eq(way_of(&a, PG(6)), 99);
    tlb_array_free(&a);
}
END_TEST

#define LN(n) ((uint64_t)(n) * 128)

/* 1 KiB, 2 ways, 4 sets.  Frame 0 holds lines 0-31, frame 1 lines 32-63. */
START_TEST(cache_frame_filter_counts_lines)
{
    struct cache c;
    struct cache_victim v;
    ck_assert(cache_init(&c, 1024, 2, 4));
    ck_assert(!cache_may_hold_frame(&c, 0));
    cache_fill(&c, LN(1), 0xf, false, &v);
    cache_fill(&c, LN(5), 0x1, false, &v);          /* set 1, both ways */
    ck_assert(cache_may_hold_frame(&c, 0));
    ck_assert(!cache_may_hold_frame(&c, 4096));
    /* Line 33 (frame 1) goes to set 1 and evicts line 1 (LRU). */
    cache_fill(&c, LN(33), 0xf, false, &v);
    ck_assert(v.valid);
    ck_assert_uint_eq(v.addr, LN(1));
    ck_assert(cache_may_hold_frame(&c, 4096 + 100));
    ck_assert(cache_may_hold_frame(&c, 0));         /* line 5 is left */
    cache_invalidate(&c, LN(5), &v);
    ck_assert(!cache_may_hold_frame(&c, 0));
    cache_invalidate(&c, LN(33), &v);
    ck_assert(!cache_may_hold_frame(&c, 4096));
    cache_free(&c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lookup");
    TCase *t = tcase_create("lookup");
    tcase_add_test(t, idxmap_agrees_with_linear_search);
    tcase_add_test(t, tlb_array_lowest_invalid_then_lru);
    tcase_add_test(t, cache_frame_filter_counts_lines);
    suite_add_tcase(s, t);
    return run_suite(s);
}

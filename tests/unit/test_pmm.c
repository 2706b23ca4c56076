/* The chunk allocator (sim/driver/pmm.c): root chunks of 512 frames split
 * into 32 chunks of 16 frames and those into frames, merging back. */
#include <check.h>
#include "suite_main.h"
#include <stdlib.h>
#include "core/rng.h"
#include "driver/mem/mem.h"

/* 2 whole roots + one 64 KiB chunk: 1040 frames. */
START_TEST(sizes_and_partial_root)
{
    struct pmm m;
    pmm_init(&m, 1040);
    uint64_t f;
    ck_assert(pmm_alloc(&m, PMM_2M, &f)); ck_assert_uint_eq(f, 0);
    ck_assert(pmm_alloc(&m, PMM_2M, &f)); ck_assert_uint_eq(f, 512);
    ck_assert(!pmm_alloc(&m, PMM_2M, &f));
    ck_assert(pmm_alloc(&m, PMM_64K, &f)); ck_assert_uint_eq(f, 1024);
    ck_assert(!pmm_alloc(&m, PMM_4K, &f));
    ck_assert_uint_eq(m.free_frames, 0);
    pmm_free_all(&m);
}
END_TEST

/* One frame taken splits a root and a 64 KiB chunk; giving it back merges
 * both, so the whole root can be had again. */
START_TEST(split_then_merge)
{
    struct pmm m;
    pmm_init(&m, 512);
    uint64_t f, g;
    ck_assert(pmm_alloc(&m, PMM_4K, &f));
    ck_assert_uint_eq(m.splits_root, 1);
    ck_assert_uint_eq(m.splits_64k, 1);
    ck_assert(!pmm_alloc(&m, PMM_2M, &g));
    /* 31 whole 64 KiB chunks and 15 frames remain. */
    for (int i = 0; i < 31; i++) {
        ck_assert(pmm_alloc(&m, PMM_64K, &g));
        ck_assert_uint_eq(g % 16, 0);
        ck_assert_uint_ne(g / 16, f / 16);
    }
    ck_assert(!pmm_alloc(&m, PMM_64K, &g));
    ck_assert_uint_eq(m.free_frames, 15);
    pmm_free_all(&m);
    pmm_init(&m, 512);
    ck_assert(pmm_alloc(&m, PMM_4K, &f));
    pmm_release(&m, f);
    ck_assert(pmm_alloc(&m, PMM_2M, &g));
    ck_assert_uint_eq(g, 0);
    pmm_free_all(&m);
}
END_TEST

/* Seeded random allocations and frees of frames over 3 roots: never a
 * frame twice (the allocator's own assertion would abort), the free count
 * always capacity - held, and once all is freed the 3 roots are whole. */
START_TEST(random_churn_merges_back)
{
    enum { CAP = 1536 };
    struct pmm m;
    pmm_init(&m, CAP);
    static uint8_t held[CAP];
    static uint64_t list[CAP];
    size_t n = 0;
    struct rng r;
    rng_init(&r, 7, "test.pmm");
    for (int op = 0; op < 20000; op++) {
        if (n && (n == CAP || rng_next(&r) % 3 == 0)) {
            size_t k = rng_next(&r) % n;
            pmm_release(&m, list[k]);
            held[list[k]] = 0;
            list[k] = list[--n];
        } else {
            enum pmm_size sz = rng_next(&r) % 4 == 0 ? PMM_64K : PMM_4K;
            uint64_t f;
            if (!pmm_alloc(&m, sz, &f)) continue;
            unsigned cnt = sz == PMM_64K ? 16 : 1;
            if (sz == PMM_64K) ck_assert_uint_eq(f % 16, 0);
            for (unsigned i = 0; i < cnt; i++) {
                ck_assert(!held[f + i]);
                held[f + i] = 1;
                list[n++] = f + i;
            }
        }
        ck_assert_uint_eq(m.free_frames, CAP - n);
    }
    while (n) { pmm_release(&m, list[--n]); }
    uint64_t f;
    for (int i = 0; i < 3; i++) ck_assert(pmm_alloc(&m, PMM_2M, &f));
    pmm_free_all(&m);
}
END_TEST

static Suite *pmm_suite(void)
{
    Suite *s = suite_create("pmm");
    TCase *tc = tcase_create("pmm");
    tcase_add_test(tc, sizes_and_partial_root);
    tcase_add_test(tc, split_then_merge);
    tcase_add_test(tc, random_churn_merges_back);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(pmm_suite()); }

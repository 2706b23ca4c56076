/* Static placement policies (sim/driver/place_*.c, thesis Ch. IV) on
 * crafted inputs, against counts derived by hand or binomial bounds. */
#include <check.h>
#include "suite_main.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "driver/place/placement.h"

static uint64_t count_gpu(const uint8_t *w, uint64_t from, uint64_t n)
{
    uint64_t k = 0;
    for (uint64_t i = from; i < from + n; i++) k += w[i] == PLACE_GPU;
    return k;
}

/* BW-AWARE 30C-70B over 100 000 pages with room for all: each page is in
 * GPU memory with p = 0.7 independently, so the count is Binomial(1e5,
 * 0.7): mean 70 000, sd sqrt(1e5 x 0.7 x 0.3) = 144.9; within 5 sd
 * (+-725) for every seed tried.  Pages keep no pattern: both halves hold
 * their share too (sd 102.5 each). */
START_TEST(bwaware_30c70b_fractions_are_binomial)
{
    enum { NP = 100000 };
    struct place_alloc a = { NP, WL_HINT_NONE, 0, (uint64_t)NP * 4096 };
    uint8_t *w = malloc(NP);
    for (uint64_t seed = 1; seed <= 5; seed++) {
        struct place_in in = { &a, 1, NP, NP, 0.70, seed, NULL };
        place_bwaware_ops.place(&in, w);
        uint64_t g = count_gpu(w, 0, NP);
        ck_assert_msg(g >= 70000 - 725 && g <= 70000 + 725, "seed %llu: %llu pages in GPU memory",
                      (unsigned long long)seed, (unsigned long long)g);
        uint64_t h = count_gpu(w, 0, NP / 2);
        ck_assert_msg(h >= 35000 - 513 && h <= 35000 + 513, "first half %llu", (unsigned long long)h);
    }
    /* 0C-100B and 100C-0B skip the draw's randomness entirely. */
    struct place_in all = { &a, 1, NP, NP, 1.0, 1, NULL };
    place_bwaware_ops.place(&all, w);
    ck_assert_uint_eq(count_gpu(w, 0, NP), NP);
    struct place_in none = { &a, 1, NP, NP, 0.0, 1, NULL };
    place_bwaware_ops.place(&none, w);
    ck_assert_uint_eq(count_gpu(w, 0, NP), 0);
    /* At 10 % capacity BW-AWARE ends at 90C-10B (Sec. 4.2.2.3): the GPU
     * fills to exactly its capacity. */
    struct place_in cap = { &a, 1, NP, NP / 10, 0.7, 1, NULL };
    place_bwaware_ops.place(&cap, w);
    ck_assert_uint_eq(count_gpu(w, 0, NP), NP / 10);
    free(w);
}
END_TEST

/* LOCAL: two allocations of 700 and 300 pages, 600 frames: pages 0..599
 * (all of the first allocation's first 600) in GPU memory, the next 400
 * in the host's -- the spill is exactly at capacity. */
START_TEST(local_spills_exactly_at_capacity)
{
    struct place_alloc a[2] = { { 700, WL_HINT_NONE, 0, 700 * 4096 },
                                { 300, WL_HINT_NONE, 0, 300 * 4096 } };
    uint8_t w[1000];
    struct place_in in = { a, 2, 1000, 600, 0.7, 1, NULL };
    place_local_ops.place(&in, w);
    for (int i = 0; i < 1000; i++) ck_assert_int_eq(w[i], i < 600 ? PLACE_GPU : PLACE_HOST);
    in.capacity = 1000;
    place_local_ops.place(&in, w);
    ck_assert_uint_eq(count_gpu(w, 0, 1000), 1000);
    /* INTERLEAVE: host, GPU, host, ...; with 300 frames the GPU's turns
     * after page 599 (its 300th: pages 1, 3, ..., 599) go to the host. */
    in.capacity = 300;
    place_interleave_ops.place(&in, w);
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(w[i], (i & 1) && i < 600 ? PLACE_GPU : PLACE_HOST);
}
END_TEST

/* Oracle on two hot arrays among four of 100 pages each: arrays 1 and 3
 * are hot (1000 accesses a page), 0 and 2 cold (10).  Total 202 000; the
 * GPU's share y = 0.714 is 144 228 accesses, reached with the 145th hot
 * page (145 x 1000): 145 of the 200 hot pages (ties in a seeded random
 * order) in GPU memory, no cold page.  With 50 frames: 50 hot pages.
 * With y = 1 and room: every page with accesses. */
START_TEST(oracle_puts_the_hot_arrays_in_gpu_memory)
{
    struct place_alloc a[4];
    uint64_t dram[400];
    for (int k = 0; k < 4; k++) a[k] = (struct place_alloc){ 100, WL_HINT_NONE, 0, 100 * 4096 };
    for (int i = 0; i < 400; i++) dram[i] = (i / 100) % 2 ? 1000 : 10;
    uint8_t w[400];
    struct place_in in = { a, 4, 400, 400, 0.714, 1, dram };
    place_oracle_ops.place(&in, w);
    ck_assert_uint_eq(count_gpu(w, 0, 100), 0);
    ck_assert_uint_eq(count_gpu(w, 200, 100), 0);
    uint64_t h1 = count_gpu(w, 100, 100), h3 = count_gpu(w, 300, 100);
    ck_assert_uint_eq(h1 + h3, 145);
    /* Equally hot pages in a seeded random order, not address order (which
     * would give 100 and 45): 145 of 200 drawn without replacement,
     * hypergeometric mean 72.5 per array, sd 3.2; +-5 sd. */
    ck_assert_msg(h1 >= 56 && h1 <= 89 && h3 >= 56 && h3 <= 89, "%llu and %llu hot pages",
                  (unsigned long long)h1, (unsigned long long)h3);
    in.capacity = 50;
    place_oracle_ops.place(&in, w);
    ck_assert_uint_eq(count_gpu(w, 100, 100) + count_gpu(w, 300, 100), 50);
    ck_assert_uint_eq(count_gpu(w, 0, 400), 50);
    in.capacity = 400;
    in.bo_share = 1.0;
    place_oracle_ops.place(&in, w);
    ck_assert_uint_eq(count_gpu(w, 0, 400), 400);
}
END_TEST

/* Annotated, explicit hints: BO (200 pages), BO (300), CO (100), BW (100)
 * with 400 frames: the first BO array all in GPU memory, the second 200
 * there and its last 100 falling back to the host (the pool is full),
 * CO all host, and BW finds no room left: all host. */
START_TEST(annotated_hints_fall_back_when_the_pool_is_full)
{
    struct place_alloc a[4] = { { 200, WL_HINT_BO, 0, 200 * 4096 },
                                { 300, WL_HINT_BO, 0, 300 * 4096 },
                                { 100, WL_HINT_CO, 0, 100 * 4096 },
                                { 100, WL_HINT_BW, 0, 100 * 4096 } };
    uint8_t w[700];
    struct place_in in = { a, 4, 700, 400, 0.7, 1, NULL };
    place_annotated_ops.place(&in, w);
    ck_assert_uint_eq(count_gpu(w, 0, 200), 200);
    ck_assert_uint_eq(count_gpu(w, 200, 200), 200);
    ck_assert_uint_eq(count_gpu(w, 400, 100), 0);
    ck_assert_uint_eq(count_gpu(w, 500, 100), 0);
    ck_assert_uint_eq(count_gpu(w, 600, 100), 0);
    /* CO honoured even with room to spare. */
    in.capacity = 700;
    place_annotated_ops.place(&in, w);
    ck_assert_uint_eq(count_gpu(w, 0, 500), 500);
    ck_assert_uint_eq(count_gpu(w, 500, 100), 0);
}
END_TEST

/* GetAllocation (Sec. 4.4.3) from sizes and hotness only, Fig. 4.10's
 * ranks 2, 3, 1 on 100, 200 and 300 pages: per byte 0.02, 0.015, 0.0033.
 * 600 pages x y 0.7 = 420 > 250 frames: constrained.  In that order, the
 * first (100) fits, the second (200 more: 300 > 250) exhausts BO: BO for
 * the first whole, the second's first 150 pages in the 150 frames left
 * and its other 50 on the host (the pool is full), CO for the third.
 * Allocated in the reverse order (the cold 300 pages first, the hot 100
 * last) the answer is the same per structure: GetAllocation's budgets,
 * not page order, decide.  With 450 frames (>= 420) every allocation is
 * BW: about 70 % of each in GPU. */
START_TEST(annotated_get_allocation_ranks_by_hotness)
{
    struct place_alloc a[3] = { { 100, WL_HINT_NONE, 2, 100 * 4096 },
                                { 200, WL_HINT_NONE, 3, 200 * 4096 },
                                { 300, WL_HINT_NONE, 1, 300 * 4096 } };
    uint8_t w[600];
    struct place_in in = { a, 3, 600, 250, 0.7, 1, NULL };
    place_annotated_ops.place(&in, w);
    ck_assert_uint_eq(count_gpu(w, 0, 100), 100);
    ck_assert_uint_eq(count_gpu(w, 100, 150), 150);
    ck_assert_uint_eq(count_gpu(w, 250, 50), 0);
    ck_assert_uint_eq(count_gpu(w, 300, 300), 0);
    struct place_alloc rev[3] = { a[2], a[1], a[0] };
    struct place_in ri = { rev, 3, 600, 250, 0.7, 1, NULL };
    place_annotated_ops.place(&ri, w);
    ck_assert_uint_eq(count_gpu(w, 0, 300), 0);
    ck_assert_uint_eq(count_gpu(w, 300, 150), 150);
    ck_assert_uint_eq(count_gpu(w, 450, 50), 0);
    ck_assert_uint_eq(count_gpu(w, 500, 100), 100);
    in.capacity = 450;
    place_annotated_ops.place(&in, w);
    /* Binomial(600, 0.7): 420 +- 5 x 11.2. */
    uint64_t g = count_gpu(w, 0, 600);
    ck_assert_msg(g >= 420 - 56 && g <= 420 + 56, "%llu pages in GPU memory", (unsigned long long)g);
    ck_assert_uint_gt(count_gpu(w, 200, 400), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("placement");
    TCase *t = tcase_create("placement");
    tcase_add_test(t, bwaware_30c70b_fractions_are_binomial);
    tcase_add_test(t, local_spills_exactly_at_capacity);
    tcase_add_test(t, oracle_puts_the_hot_arrays_in_gpu_memory);
    tcase_add_test(t, annotated_hints_fall_back_when_the_pool_is_full);
    tcase_add_test(t, annotated_get_allocation_ranks_by_hotness);
    suite_add_tcase(s, t);
    return run_suite(s);
}

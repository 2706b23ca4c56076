/* Prefetch policies on one 2 MiB block, against hand-derived page sets. */
#include <check.h>
#include "suite_main.h"
#include <string.h>
#include "../../sim/driver/prefetch.h"

static struct block_bits none_set(void) { struct block_bits b; memset(&b, 0, sizeof b); return b; }

/* 262 of 512 pages resident-or-faulted: 262*100 = 26200 > 51*512 = 26112,
 * so the root qualifies and the whole block comes (512 - resident). */
START_TEST(tree_brings_whole_block_at_262_not_261)
{
    const struct prefetch_ops *t = prefetch_find("tree");
    for (unsigned touched = 261; touched <= 262; touched++) {
        struct block_bits res = none_set(), flt = none_set(), out;
        /* Resident: the 256 even pages plus the first odd pages of the
         * lower half, touched - 1 in all; the fault is page 511.  The
         * upper half holds 128 + 1 (12900 <= 51 * 256), so only the root
         * can reach the whole block. */
        for (unsigned p = 0; p < 512; p += 2) bb_set(&res, p);
        for (unsigned p = 1; bb_count(&res) < touched - 1; p += 2) bb_set(&res, p);
        bb_set(&flt, 511);
        t->compute(&res, &flt, 51, &out);
        unsigned migrate = bb_count(&out);
        if (touched == 262) ck_assert_uint_eq(migrate, 512 - (touched - 1));
        /* 261: the largest qualifying subtree around 511 is 448..511
         * (32 + 1 of 64: 3300 > 3264; 128 pages: 6500 <= 6528): its 32
         * non-resident pages. */
        else ck_assert_uint_eq(migrate, 32);
    }
}
END_TEST

/* Below the root: with pages 256..511 holding 131 resident-or-faulted
 * (131*100 = 13100 > 51*256 = 13056) the upper half comes, not more. */
START_TEST(tree_takes_largest_qualifying_subtree)
{
    const struct prefetch_ops *t = prefetch_find("tree");
    struct block_bits res = none_set(), flt = none_set(), out;
    for (unsigned p = 256; p < 512; p += 2) bb_set(&res, p);   /* 128 */
    bb_set(&res, 257);
    bb_set(&res, 259);                                          /* 130 */
    bb_set(&flt, 511);
    t->compute(&res, &flt, 51, &out);
    ck_assert_uint_eq(bb_count(&out), 256 - 130);
    ck_assert_uint_eq(bb_count_range(&out, 0, 256), 0);
}
END_TEST

START_TEST(tree_alone_fault_fills_its_big_page)
{
    struct block_bits res = none_set(), flt = none_set(), out;
    bb_set(&flt, 37);                  /* big page 2: pages 32..47 */
    prefetch_find("tree")->compute(&res, &flt, 51, &out);
    ck_assert_uint_eq(bb_count(&out), 16);
    ck_assert_uint_eq(bb_count_range(&out, 32, 16), 16);
}
END_TEST

/* Sequential-local: exactly the 16 pages of each faulting 64 KiB block. */
START_TEST(seq_brings_16_pages_per_faulting_big_page)
{
    struct block_bits res = none_set(), flt = none_set(), out;
    bb_set(&flt, 3);
    bb_set(&flt, 9);                   /* same big page as 3 */
    bb_set(&flt, 100);                 /* big page 6 */
    bb_set(&flt, 511);                 /* big page 31 */
    prefetch_find("seq")->compute(&res, &flt, 51, &out);
    ck_assert_uint_eq(bb_count(&out), 3 * 16);
    bb_set(&res, 96);                  /* resident pages are not migrated */
    prefetch_find("seq")->compute(&res, &flt, 51, &out);
    ck_assert_uint_eq(bb_count(&out), 3 * 16 - 1);
}
END_TEST

START_TEST(none_brings_only_faulted_non_resident)
{
    struct block_bits res = none_set(), flt = none_set(), out;
    bb_set(&flt, 1); bb_set(&flt, 2); bb_set(&res, 2);
    prefetch_find("none")->compute(&res, &flt, 51, &out);
    ck_assert_uint_eq(bb_count(&out), 1);
    ck_assert(bb_test(&out, 1));
    ck_assert_ptr_null(prefetch_find("bogus"));
}
END_TEST

static Suite *prefetch_suite(void)
{
    Suite *s = suite_create("prefetch");
    TCase *t = tcase_create("block");
    tcase_add_test(t, tree_brings_whole_block_at_262_not_261);
    tcase_add_test(t, tree_takes_largest_qualifying_subtree);
    tcase_add_test(t, tree_alone_fault_fills_its_big_page);
    tcase_add_test(t, seq_brings_16_pages_per_faulting_big_page);
    tcase_add_test(t, none_brings_only_faulted_non_resident);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(prefetch_suite());
}

/* Prefetch policies on one 2 MiB block, against hand-derived page sets. */
#include <check.h>
#include "suite_main.h"
#include <string.h>
#include "driver/prefetch/prefetch.h"

static struct block_bits none_set(void) { struct block_bits b; memset(&b, 0, sizeof b); return b; }

/* The policy over a full 2 MiB block [0, 512). */
static void run(const char *name, const struct block_bits *res, const struct block_bits *flt,
                struct block_bits *out)
{
    struct prefetch_in in = { res, flt, NULL, 0, VA_BLOCK_PAGES, 51 };
    prefetch_find(name)->compute(&in, out);
}

/* The root threshold: count * 100 > 51 * 512 = 26112, i.e. 262 pages.
 * Resident: big pages 0..14 (240 pages) plus the first x pages of big
 * page 15; the fault is page 511, whose big page 31 (496..511) the tree
 * counts whole (grow_fault_granularity): 240 + x + 16.  x = 6 gives 262:
 * the whole block comes, 512 - 246 pages.  x = 5 gives 261: around page
 * 511 only big page 31 qualifies (16/16; 480..511 holds 16/32: 1600 <=
 * 1632), so its 16 pages come. */
START_TEST(tree_brings_whole_block_at_262_not_261)
{
    for (unsigned x = 5; x <= 6; x++) {
        struct block_bits res = none_set(), flt = none_set(), out;
        bb_set_range(&res, 0, 240 + x);
        bb_set(&flt, 511);
        run("tree", &res, &flt, &out);
        if (x == 6) ck_assert_uint_eq(bb_count(&out), 512 - 246);
        else {
            ck_assert_uint_eq(bb_count(&out), 16);
            ck_assert_uint_eq(bb_count_range(&out, 496, 16), 16);
        }
    }
}
END_TEST

/* Below the root: pages 256..511 hold the 128 even pages and 257, 259
 * resident (130); the fault on 511 grows big page 31 (its 7 odd pages
 * 497..509 and 511 itself: 8 more), so the upper half counts 138
 * (13800 > 51 * 256 = 13056) and the root 138 of 512 (no): the upper
 * half's 126 non-resident pages come, nothing below. */
START_TEST(tree_takes_largest_qualifying_subtree)
{
    struct block_bits res = none_set(), flt = none_set(), out;
    for (unsigned p = 256; p < 512; p += 2) bb_set(&res, p);   /* 128 */
    bb_set(&res, 257);
    bb_set(&res, 259);                                          /* 130 */
    bb_set(&flt, 511);
    run("tree", &res, &flt, &out);
    ck_assert_uint_eq(bb_count(&out), 256 - 130);
    ck_assert_uint_eq(bb_count_range(&out, 0, 256), 0);
}
END_TEST

/* Issue 11 point 4a: 17 faults in 17 distinct big pages (the first page
 * of big pages 0..16), nothing resident.  Grown to their big pages they
 * count 272 (27200 > 26112): the whole block, 512 pages.  Growing only
 * the output would give 17 x 16 = 272. */
START_TEST(tree_17_faults_in_17_big_pages_bring_512)
{
    struct block_bits res = none_set(), flt = none_set(), out;
    for (unsigned b = 0; b < 17; b++) bb_set(&flt, b * 16);
    run("tree", &res, &flt, &out);
    ck_assert_uint_eq(bb_count(&out), 512);
    /* 16 of them count 256 (25600 <= 26112): below the root the lower half
     * qualifies (256/256), so 256 pages. */
    memset(&flt, 0, sizeof flt);
    for (unsigned b = 0; b < 16; b++) bb_set(&flt, b * 16);
    run("tree", &res, &flt, &out);
    ck_assert_uint_eq(bb_count(&out), 256);
}
END_TEST

/* Point 4b: a VA block of 25 pages (an allocation's last 100 KiB): one
 * whole big page (0..15) and a 9-page suffix (16..24).  A fault on page
 * 24 grows the suffix as one unit (9 pages); climbing from leaf 24: the
 * 16-leaf subtree 16..31 is cut at 25 and holds 9 of 9, the 32-leaf tree
 * holds 9 of 25 (900 <= 51 x 25): pages 16..24 come, none past 24.  A
 * fault on page 0 as well: 25 of 25, the whole block, still not page 25. */
START_TEST(tree_stays_inside_a_short_block)
{
    struct block_bits res = none_set(), flt = none_set(), out;
    struct prefetch_in in = { &res, &flt, NULL, 0, 25, 51 };
    bb_set(&flt, 24);
    prefetch_find("tree")->compute(&in, &out);
    ck_assert_uint_eq(bb_count(&out), 9);
    ck_assert_uint_eq(bb_count_range(&out, 16, 9), 9);
    bb_set(&flt, 0);
    prefetch_find("tree")->compute(&in, &out);
    ck_assert_uint_eq(bb_count(&out), 25);
    ck_assert_uint_eq(bb_count_range(&out, 25, 512 - 25), 0);
    /* seq clips the suffix's big page at the block's end too. */
    memset(&flt, 0, sizeof flt);
    bb_set(&flt, 24);
    prefetch_find("seq")->compute(&in, &out);
    ck_assert_uint_eq(bb_count(&out), 9);
}
END_TEST

/* A thrashing page (uvm_perf_thrashing): the big page holding it is not
 * grown.  Fault on 37, page 40 thrashing: big page 2 counts only page 37,
 * no subtree above the leaf exceeds 51 % (1 of 2: 100 <= 102), so only the
 * fault comes; without the thrashing page, the whole big page. */
START_TEST(tree_skips_thrashing_pages)
{
    struct block_bits res = none_set(), flt = none_set(), thr = none_set(), out;
    struct prefetch_in in = { &res, &flt, &thr, 0, VA_BLOCK_PAGES, 51 };
    bb_set(&flt, 37);
    bb_set(&thr, 40);
    prefetch_find("tree")->compute(&in, &out);
    ck_assert_uint_eq(bb_count(&out), 1);
    ck_assert(bb_test(&out, 37));
    /* Without the thrashing page: the whole big page. */
    in.thrashing = NULL;
    prefetch_find("tree")->compute(&in, &out);
    ck_assert_uint_eq(bb_count(&out), 16);
    /* Big page 1 resident, fault on 0, page 5 thrashing: big page 0 is not
     * grown, yet 0..31 holds 17 of 32 (1700 > 1632), so the subtree comes
     * except page 5: 15 pages. */
    memset(&flt, 0, sizeof flt);
    memset(&thr, 0, sizeof thr);
    bb_set_range(&res, 16, 16);
    bb_set(&flt, 0);
    bb_set(&thr, 5);
    in.thrashing = &thr;
    prefetch_find("tree")->compute(&in, &out);
    ck_assert_uint_eq(bb_count(&out), 15);
    ck_assert(!bb_test(&out, 5));
}
END_TEST

START_TEST(tree_alone_fault_fills_its_big_page)
{
    struct block_bits res = none_set(), flt = none_set(), out;
    bb_set(&flt, 37);                  /* big page 2: pages 32..47 */
    run("tree", &res, &flt, &out);
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
    run("seq", &res, &flt, &out);
    ck_assert_uint_eq(bb_count(&out), 3 * 16);
    bb_set(&res, 96);                  /* resident pages are not migrated */
    run("seq", &res, &flt, &out);
    ck_assert_uint_eq(bb_count(&out), 3 * 16 - 1);
}
END_TEST

START_TEST(none_brings_only_faulted_non_resident)
{
    struct block_bits res = none_set(), flt = none_set(), out;
    bb_set(&flt, 1); bb_set(&flt, 2); bb_set(&res, 2);
    run("none", &res, &flt, &out);
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
    tcase_add_test(t, tree_17_faults_in_17_big_pages_bring_512);
    tcase_add_test(t, tree_stays_inside_a_short_block);
    tcase_add_test(t, tree_skips_thrashing_pages);
    tcase_add_test(t, seq_brings_16_pages_per_faulting_big_page);
    tcase_add_test(t, none_brings_only_faulted_non_resident);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(prefetch_suite());
}

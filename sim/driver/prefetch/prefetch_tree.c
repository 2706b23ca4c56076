/* Tree-based prefetch as the real driver's (uvm_perf_prefetch.c,
 * uvm_perf_prefetch_prenotify_fault_migrations): the pages of a VA block
 * are the leaves of a binary tree whose leaf 0 is the block's first page
 * rounded down to its 64 KiB big page (update_bitmap_tree_from_va_block's
 * offset).  The tree counts the pages resident or faulted, after
 * grow_fault_granularity has filled every big page that holds a fault (and
 * the block's partial prefix and suffix as one unit each; the whole block
 * when it holds no big page), unless a page there is thrashing.  For each
 * faulted page compute_prefetch_region climbs from its leaf and keeps the
 * largest subtree whose count exceeds the threshold (default 51 %:
 * count * 100 > threshold * subtree pages, a subtree cut by the block's
 * end counting only its pages inside); the subtree, clamped to the block,
 * is migrated, except its thrashing pages.  So 17 faults in 17 distinct big
 * pages of a full block count 17 x 16 = 272 pages (27200 > 51 x 512 =
 * 26112): the whole block comes.  Pages being prefetched do not count, so
 * the decision does not feed on itself. */
#include <string.h>
#include "prefetch.h"

static void grow(struct block_bits *occ, const struct prefetch_in *in, unsigned lo, unsigned hi)
{
    if (lo >= hi || !bb_count_range(in->faulted, lo, hi - lo)) return;
    if (in->thrashing && bb_count_range(in->thrashing, lo, hi - lo)) return;
    bb_set_range(occ, lo, hi - lo);
}

static void tree_compute(const struct prefetch_in *in, struct block_bits *out)
{
    const unsigned first = in->first, end = in->end;
    unsigned big_lo = (first + BIG_PAGE_PAGES - 1) / BIG_PAGE_PAGES * BIG_PAGE_PAGES;
    unsigned big_hi = end / BIG_PAGE_PAGES * BIG_PAGE_PAGES;
    bool has_big = big_lo < big_hi;
    struct block_bits occ;
    for (int i = 0; i < BLOCK_WORDS; i++) occ.w[i] = in->resident->w[i] | in->faulted->w[i];
    if (!has_big) {
        grow(&occ, in, first, end);
    } else {
        grow(&occ, in, first, big_lo);
        for (unsigned b = big_lo; b < big_hi; b += BIG_PAGE_PAGES) grow(&occ, in, b, b + BIG_PAGE_PAGES);
        grow(&occ, in, big_hi, end);
    }
    unsigned base0 = has_big ? first / BIG_PAGE_PAGES * BIG_PAGE_PAGES : first;
    unsigned leaves = end - base0, top = 1;
    while (top < leaves) top *= 2;
    struct block_bits region;
    memset(&region, 0, sizeof region);
    for (unsigned p = first; p < end; p++) {
        if (!bb_test(in->faulted, p) || (in->thrashing && bb_test(in->thrashing, p))) continue;
        unsigned leaf = p - base0, best_lo = 0, best_hi = 0;
        for (unsigned n = 1; n <= top; n *= 2) {
            unsigned lo = leaf / n * n, hi = lo + n < leaves ? lo + n : leaves;
            if (bb_count_range(&occ, base0 + lo, hi - lo) * 100u > in->threshold * (hi - lo)) {
                best_lo = lo;
                best_hi = hi;
            }
        }
        if (best_hi == best_lo) continue;
        unsigned lo = base0 + best_lo < first ? first : base0 + best_lo;
        bb_set_range(&region, lo, base0 + best_hi - lo);
    }
    if (in->thrashing) bb_drop_resident(&region, in->thrashing);
    for (int i = 0; i < BLOCK_WORDS; i++) out->w[i] = region.w[i] | in->faulted->w[i];
    bb_drop_resident(out, in->resident);
}

const struct prefetch_ops prefetch_tree_ops = { "tree", tree_compute };

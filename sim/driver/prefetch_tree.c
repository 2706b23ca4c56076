/* Tree-based prefetch as in the real driver (nvidia-uvm uvm_perf_prefetch.c):
 * the 512 pages of a 2 MiB VA block are the leaves of a binary tree.  For
 * each faulted page, climb from its leaf and keep the largest subtree in
 * which the pages that are resident or faulted exceed the threshold
 * (default 51 %: count * 100 > threshold * subtree size); the whole
 * subtree is migrated.  Each faulted page's 64 KiB big page is filled as
 * well (the driver maps big pages where it can).  The density counts
 * resident and faulted pages only, not the pages being prefetched, so the
 * decision does not feed on itself: with 262 of 512 pages resident or
 * faulted (262 * 100 > 51 * 512 = 26112) the whole block comes; with 261
 * it does not. */
#include <string.h>
#include "prefetch.h"

static void tree_compute(const struct block_bits *resident, const struct block_bits *faulted,
                         unsigned threshold, struct block_bits *out)
{
    struct block_bits occ;
    for (int i = 0; i < BLOCK_WORDS; i++) occ.w[i] = resident->w[i] | faulted->w[i];
    memset(out, 0, sizeof *out);
    for (unsigned p = 0; p < VA_BLOCK_PAGES; p++) {
        if (!bb_test(faulted, p)) continue;
        bb_set_range(out, p / BIG_PAGE_PAGES * BIG_PAGE_PAGES, BIG_PAGE_PAGES);
        unsigned best_first = p, best_n = 1;
        for (unsigned n = 2; n <= VA_BLOCK_PAGES; n *= 2) {
            unsigned first = p / n * n;
            if (bb_count_range(&occ, first, n) * 100u > threshold * n) {
                best_first = first;
                best_n = n;
            }
        }
        bb_set_range(out, best_first, best_n);
    }
    bb_drop_resident(out, resident);
}

const struct prefetch_ops prefetch_tree_ops = { "tree", tree_compute };

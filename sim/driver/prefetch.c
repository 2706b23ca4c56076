/* Block bitmaps and the prefetch policy table; the policies themselves:
 *  none: only the faulted pages;
 *  seq (sequential-local): the whole 64 KiB big page around each fault;
 *  tree (prefetch_tree.c): the real driver's density tree. */
#include <string.h>
#include "prefetch.h"

unsigned bb_count(const struct block_bits *b)
{
    unsigned n = 0;
    for (int i = 0; i < BLOCK_WORDS; i++) n += (unsigned)__builtin_popcountll(b->w[i]);
    return n;
}

unsigned bb_count_range(const struct block_bits *b, unsigned first, unsigned n)
{
    unsigned c = 0;
    for (unsigned i = first; i < first + n; i++) c += bb_test(b, i);
    return c;
}

void bb_set_range(struct block_bits *b, unsigned first, unsigned n)
{
    for (unsigned i = first; i < first + n; i++) bb_set(b, i);
}

void bb_drop_resident(struct block_bits *out, const struct block_bits *resident)
{
    for (int i = 0; i < BLOCK_WORDS; i++) out->w[i] &= ~resident->w[i];
}

static void none_compute(const struct block_bits *resident, const struct block_bits *faulted,
                         unsigned threshold, struct block_bits *out)
{
    (void)threshold;
    *out = *faulted;
    bb_drop_resident(out, resident);
}

static void seq_compute(const struct block_bits *resident, const struct block_bits *faulted,
                        unsigned threshold, struct block_bits *out)
{
    (void)threshold;
    memset(out, 0, sizeof *out);
    for (unsigned p = 0; p < VA_BLOCK_PAGES; p++)
        if (bb_test(faulted, p)) bb_set_range(out, p / BIG_PAGE_PAGES * BIG_PAGE_PAGES, BIG_PAGE_PAGES);
    bb_drop_resident(out, resident);
}

const struct prefetch_ops prefetch_none_ops = { "none", none_compute };
const struct prefetch_ops prefetch_seq_ops = { "seq", seq_compute };

static const struct prefetch_ops *const policies[] = {
    &prefetch_none_ops, &prefetch_tree_ops, &prefetch_seq_ops,
};

const struct prefetch_ops *prefetch_find(const char *name)
{
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (!strcmp(policies[i]->name, name)) return policies[i];
    return NULL;
}

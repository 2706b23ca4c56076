/* Block bitmaps and the prefetch policy table; the policies themselves:
 *  none: only the faulted pages;
 *  seq (sequential-local): the whole 64 KiB big page around each fault,
 *    clipped to the VA block;
 *  tree (prefetch_tree.c): the real driver's density tree. */
#include <string.h>
#include "prefetch.h"
#include "driver/driver.h"

unsigned bb_count(const struct block_bits *b)
{
    unsigned n = 0;
    for (int i = 0; i < BLOCK_WORDS; i++) n += (unsigned)__builtin_popcountll(b->w[i]);
    return n;
}

/* Bits [lo, hi) of word w of the bitmap. */
static uint64_t word_mask(unsigned w, unsigned lo, unsigned hi)
{
    unsigned a = lo > w * 64 ? lo - w * 64 : 0;
    unsigned b = hi < w * 64 + 64 ? hi - w * 64 : 64;
    if (a >= b) return 0;
    uint64_t upto = b == 64 ? ~0ULL : (1ULL << b) - 1;
    return upto & ~((1ULL << a) - 1);
}

unsigned bb_count_range(const struct block_bits *b, unsigned first, unsigned n)
{
    unsigned c = 0, end = first + n;
    for (unsigned w = first / 64; w < BLOCK_WORDS && w * 64 < end; w++)
        c += (unsigned)__builtin_popcountll(b->w[w] & word_mask(w, first, end));
    return c;
}

void bb_set_range(struct block_bits *b, unsigned first, unsigned n)
{
    unsigned end = first + n;
    for (unsigned w = first / 64; w < BLOCK_WORDS && w * 64 < end; w++)
        b->w[w] |= word_mask(w, first, end);
}

void bb_drop_resident(struct block_bits *out, const struct block_bits *resident)
{
    for (int i = 0; i < BLOCK_WORDS; i++) out->w[i] &= ~resident->w[i];
}

static void none_compute(const struct prefetch_in *in, struct block_bits *out)
{
    *out = *in->faulted;
    bb_drop_resident(out, in->resident);
}

static void seq_compute(const struct prefetch_in *in, struct block_bits *out)
{
    memset(out, 0, sizeof *out);
    for (unsigned p = in->first; p < in->end; p++) {
        if (!bb_test(in->faulted, p)) continue;
        unsigned lo = p / BIG_PAGE_PAGES * BIG_PAGE_PAGES, hi = lo + BIG_PAGE_PAGES;
        if (lo < in->first) lo = in->first;
        if (hi > in->end) hi = in->end;
        bb_set_range(out, lo, hi - lo);
    }
    bb_drop_resident(out, in->resident);
}

const struct prefetch_ops prefetch_none_ops = { "none", none_compute };
const struct prefetch_ops prefetch_seq_ops = { "seq", seq_compute };

static const struct prefetch_ops *const policies[] = {
    &prefetch_none_ops, &prefetch_seq_ops, &prefetch_tree_ops,
};

const struct prefetch_ops *prefetch_find(const char *name)
{
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (!strcmp(policies[i]->name, name)) return policies[i];
    return NULL;
}

/* driver.prefetch's registry (config_registries): its choices are these
 * names, in this order. */
const char *prefetch_policy_name(size_t i)
{
    return i < sizeof policies / sizeof policies[0] ? policies[i]->name : NULL;
}

/* Private to sim/driver: prefetch policies.  A policy looks at one VA block
 * (up to 512 pages of 4 KiB in a 2 MiB-aligned region, the real driver's
 * uvm_va_block_t) and, given which pages are resident and which faulted in
 * this batch, says which pages to migrate: the faulted ones plus its
 * prefetch, never a page outside the block's allocated extent. */
#ifndef UVMSIM_DRIVER_PREFETCH_H
#define UVMSIM_DRIVER_PREFETCH_H

#include "core/base.h"

#define VA_BLOCK_PAGES 512          /* 2 MiB / 4 KiB */
#define BIG_PAGE_PAGES 16           /* 64 KiB / 4 KiB */
#define BLOCK_WORDS (VA_BLOCK_PAGES / 64)

struct block_bits { uint64_t w[BLOCK_WORDS]; };

static inline bool bb_test(const struct block_bits *b, unsigned i)
{ return b->w[i / 64] >> (i % 64) & 1; }
static inline void bb_set(struct block_bits *b, unsigned i)
{ b->w[i / 64] |= 1ULL << (i % 64); }
unsigned bb_count(const struct block_bits *b);
/* Pages set in [first, first + n). */
unsigned bb_count_range(const struct block_bits *b, unsigned first, unsigned n);
void bb_set_range(struct block_bits *b, unsigned first, unsigned n);
/* out &= ~resident: a resident page is never migrated again. */
void bb_drop_resident(struct block_bits *out, const struct block_bits *resident);

/* What a policy sees of one block.  Page indices are the 4 KiB slots of the
 * 2 MiB-aligned region; the VA block is [first, end) of them (the whole
 * region, or less where an allocation starts or ends inside it). */
struct prefetch_in {
    const struct block_bits *resident;   /* resident on the GPU */
    const struct block_bits *faulted;    /* faulted in this batch, not resident */
    const struct block_bits *thrashing;  /* pages the thrashing detector flags; NULL: none */
    unsigned first, end;
    unsigned threshold;                  /* tree: percent (real driver: 51) */
};

struct prefetch_ops {
    const char *name;
    /* out = pages to migrate (the faulted ones included), none resident,
     * none outside [first, end). */
    void (*compute)(const struct prefetch_in *in, struct block_bits *out);
};

extern const struct prefetch_ops prefetch_none_ops;
extern const struct prefetch_ops prefetch_tree_ops;
extern const struct prefetch_ops prefetch_seq_ops;
const struct prefetch_ops *prefetch_find(const char *name);

#endif

/* Private to sim/driver: prefetch policies.  A policy looks at one 2 MiB VA
 * block (512 pages of 4 KiB, the real driver's uvm_va_block_t) and, given
 * which pages are resident and which faulted in this batch, says which
 * pages to migrate: the faulted ones plus its prefetch. */
#ifndef UVMSIM_DRIVER_PREFETCH_H
#define UVMSIM_DRIVER_PREFETCH_H

#include "../base.h"

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

struct prefetch_ops {
    const char *name;
    /* out = pages to migrate (faulted ones included), never resident ones. */
    void (*compute)(const struct block_bits *resident,
                    const struct block_bits *faulted, unsigned threshold_pct,
                    struct block_bits *out);
};

extern const struct prefetch_ops prefetch_none_ops;
extern const struct prefetch_ops prefetch_tree_ops;
extern const struct prefetch_ops prefetch_seq_ops;
const struct prefetch_ops *prefetch_find(const char *name);

#endif

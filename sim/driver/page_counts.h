/* Private to sim/driver: a small count per virtual page, for histories
 * that span the footprint rather than GPU memory (evictions of a page not
 * yet answered by a fault, for the premature-eviction count; the
 * cyclic-thrashing detector's eviction counts).  One byte per page, in
 * 512-page (2 MiB) leaves allocated on a page's first count, reached
 * through a radix directory over the 2 MiB block number that is itself
 * allocated on first use; counts of 255 and more are kept exactly in an
 * overflow map (rare: a page evicted that often).  So a footprint costs
 * 1 B per page of the 2 MiB blocks that ever had a count, where a hash
 * map of counts cost 24-48 B per counted page. */
#ifndef UVMSIM_DRIVER_PAGE_COUNTS_H
#define UVMSIM_DRIVER_PAGE_COUNTS_H

#include "core/base.h"
#include "page_map.h"

#define PC_LEVELS 3           /* directory levels over the 27-bit block number */
#define PC_BITS 9

struct page_counts {
    void **root;              /* PC_LEVELS of 512-pointer nodes, then leaves */
    struct page_map over;     /* counts >= 255 (the leaf holds 255) */
    size_t leaves, nodes;
};

void page_counts_init(struct page_counts *c);
void page_counts_free(struct page_counts *c);
uint32_t page_counts_get(const struct page_counts *c, uint64_t vpn);   /* 0 if never counted */
/* Add one; the new count. */
uint32_t page_counts_inc(struct page_counts *c, uint64_t vpn);
/* Take one from a count that is not 0; the new count. */
uint32_t page_counts_dec(struct page_counts *c, uint64_t vpn);
/* Bytes held (docs/performance.md's accounting). */
size_t page_counts_bytes(const struct page_counts *c);

#endif

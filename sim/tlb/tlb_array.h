/* Private to sim/tlb: one TLB's entry array (set-associative, LRU). */
#ifndef UVMSIM_TLB_ARRAY_H
#define UVMSIM_TLB_ARRAY_H

#include "../base.h"

/* Page sizes that may coexist in one array: 4 KiB, 64 KiB, 2 MiB. */
#define TLB_NSIZES 3
extern const uint8_t tlb_size_shift[TLB_NSIZES];

struct tlb_entry {
    uint64_t tag;          /* vaddr >> shift */
    uint64_t pbase;        /* physical address of the page's first byte */
    uint64_t stamp;        /* LRU: last use */
    uint8_t shift, flags;  /* flags: XLATE_* */
    bool valid;
};

struct tlb_array {
    uint32_t sets, ways;
    struct tlb_entry *e;
    uint64_t stamp;
    uint64_t nvalid[TLB_NSIZES];   /* sizes with no entry are not probed */
};

void tlb_array_init(struct tlb_array *a, uint32_t entries, uint32_t ways);
void tlb_array_free(struct tlb_array *a);
/* The entry translating vaddr, or NULL; does not touch LRU. */
struct tlb_entry *tlb_array_find(struct tlb_array *a, uint64_t vaddr);
static inline void tlb_array_touch(struct tlb_array *a, struct tlb_entry *e)
{ e->stamp = ++a->stamp; }
/* Install a translation; returns whether a valid entry was evicted. */
bool tlb_array_insert(struct tlb_array *a, uint64_t vaddr, uint8_t shift,
                      uint64_t pbase, uint8_t flags);
/* Invalidate every entry covering 4 KiB page vpn; returns how many. */
unsigned tlb_array_invalidate(struct tlb_array *a, uint64_t vpn);

#endif

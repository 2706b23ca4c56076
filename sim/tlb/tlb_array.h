/* Private to sim/tlb: one TLB's entry array (set-associative, LRU). */
#ifndef UVMSIM_TLB_ARRAY_H
#define UVMSIM_TLB_ARRAY_H

#include "core/base.h"
#include "core/idxmap.h"

/* Page sizes that may coexist in one array: 4 KiB, 64 KiB, 2 MiB. */
#define TLB_NSIZES 3
extern const uint8_t tlb_size_shift[TLB_NSIZES];

struct tlb_entry {
    uint64_t tag;          /* vaddr >> shift */
    uint64_t pbase;        /* physical address of the page's first byte */
    uint64_t stamp;        /* last use (shown by the stepper; LRU is the list) */
    uint32_t older, newer; /* recency list of its set (valid entries) */
    uint32_t set;
    uint8_t shift, flags;  /* flags: XLATE_* */
    bool valid;
};

/* Lookups go through a map from (tag, page size) to entry, so a fully
 * associative array is not searched way by way (issue 13).  Each set keeps
 * its valid entries in a list from least to most recently used (the order
 * of use stamps) and a bitset of its invalid ways. */
struct tlb_array {
    uint32_t sets, ways, fwords;
    struct tlb_entry *e;
    uint32_t *lru, *mru;           /* per set: list ends (TLB_NIL: empty) */
    uint64_t *free;                /* per set: fwords words, bit = invalid way */
    struct idxmap map;
    uint64_t nvalid[TLB_NSIZES];   /* sizes with no entry are not probed */
    uint64_t stamp;                /* uses so far: the entries' stamps */
};

#define TLB_NIL UINT32_MAX

void tlb_array_init(struct tlb_array *a, uint32_t entries, uint32_t ways);
void tlb_array_free(struct tlb_array *a);
/* The entry translating vaddr, or NULL; does not touch LRU. */
struct tlb_entry *tlb_array_find(struct tlb_array *a, uint64_t vaddr);
/* The entry becomes its set's most recently used. */
void tlb_array_touch(struct tlb_array *a, struct tlb_entry *e);
/* Install a translation; returns whether a valid entry was evicted. */
bool tlb_array_insert(struct tlb_array *a, uint64_t vaddr, uint8_t shift,
                      uint64_t pbase, uint8_t flags);
/* Invalidate every entry covering 4 KiB page vpn; returns how many. */
unsigned tlb_array_invalidate(struct tlb_array *a, uint64_t vpn);

#endif

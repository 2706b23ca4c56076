/* Private to sim/gmmu: the page table.  Skeleton: an open-addressing hash
 * from virtual page number to PTE, sized by the pages ever touched (the
 * 4-level radix table replaces it). */
#ifndef UVMSIM_GMMU_PAGE_TABLE_H
#define UVMSIM_GMMU_PAGE_TABLE_H

#include "../base.h"

struct mem_req;

enum { PTE_PRESENT = 1, PTE_DIRTY = 2 };

struct pte {
    uint64_t vpn;
    uint64_t pfn;
    uint8_t flags;
    bool used;
    sim_time t_fault;         /* first fault logged since last mapped */
    struct mem_req *waiters;  /* walks parked on a fault */
};

struct page_table {
    struct pte *slot;
    size_t cap, used;
};

void pt_init(struct page_table *pt);
void pt_free(struct page_table *pt);
/* The PTE of vpn, created not-present if absent. */
struct pte *pt_get(struct page_table *pt, uint64_t vpn);
/* The PTE of vpn or NULL (never creates). */
struct pte *pt_find(const struct page_table *pt, uint64_t vpn);

#endif

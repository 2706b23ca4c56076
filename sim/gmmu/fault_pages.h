/* Private to sim/gmmu: the fault state of the pages that have one (PTE
 * flags PTE_FAULTED or PTE_RECS): the uTLB fault records parked on the
 * page and the time of its unique fault.  Keeping it out of the PTE makes
 * the page table 8 B per page; the map holds only the pages with a fault
 * outstanding (bounded by the fault buffer and the parked accesses, never
 * by the footprint).  Linear probing with backward-shift deletion, grown
 * (doubled) when half full; never shrunk, so its size is the peak of
 * pages faulted at once.  Entry pointers are valid until the next
 * fp_get (which may grow the table). */
#ifndef UVMSIM_GMMU_FAULT_PAGES_H
#define UVMSIM_GMMU_FAULT_PAGES_H

#include "core/base.h"

struct fault_rec;

struct fault_page {
    uint64_t vpn;             /* UINT64_MAX: empty slot */
    struct fault_rec *recs;   /* the page's records (fault_rec->next) */
    sim_time t_fault;         /* when PTE_FAULTED was set */
};

struct fault_pages {
    struct fault_page *e;
    size_t mask, n;
};

void fp_init(struct fault_pages *m);
void fp_free(struct fault_pages *m);
/* vpn's entry, or NULL. */
struct fault_page *fp_find(const struct fault_pages *m, uint64_t vpn);
/* vpn's entry, created empty (no records, t_fault 0) if absent. */
struct fault_page *fp_get(struct fault_pages *m, uint64_t vpn);
void fp_erase(struct fault_pages *m, uint64_t vpn);
/* Bytes held (for docs/performance.md's accounting and its test). */
size_t fp_bytes(const struct fault_pages *m);

#endif

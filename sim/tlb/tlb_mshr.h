/* Private to sim/tlb: miss status holding registers of one TLB level.
 * One register per outstanding (page, dirty need); later misses to the
 * same page merge into it and are answered by its one fill. */
#ifndef UVMSIM_TLB_MSHR_H
#define UVMSIM_TLB_MSHR_H

#include "core/base.h"
#include "core/idxmap.h"

struct mem_req;

struct tlb_mshr {
    bool valid, want_dirty;
    uint64_t vpn;
    struct mem_req *waiters, *tail;   /* FIFO through ->next */
};

/* Registers are found through a map from (page, dirty need) (issue 13:
 * no walk over the file) and taken lowest free first. */
struct tlb_mshrs {
    uint32_t n, used;
    struct tlb_mshr *m;
    struct idxmap map;
    uint64_t *free;             /* bit i: register i is free */
};

void tlb_mshrs_init(struct tlb_mshrs *t, uint32_t n);
void tlb_mshrs_free(struct tlb_mshrs *t);
struct tlb_mshr *tlb_mshr_find(struct tlb_mshrs *t, uint64_t vpn, bool want_dirty);
/* A free register holding r as its first waiter, or NULL when all are busy. */
struct tlb_mshr *tlb_mshr_alloc(struct tlb_mshrs *t, uint64_t vpn, bool want_dirty,
                                struct mem_req *r);
void tlb_mshr_merge(struct tlb_mshr *m, struct mem_req *r);
/* Release the register; returns its waiters in arrival order. */
struct mem_req *tlb_mshr_release(struct tlb_mshrs *t, struct tlb_mshr *m);
static inline bool tlb_mshrs_full(const struct tlb_mshrs *t) { return t->used == t->n; }

#endif

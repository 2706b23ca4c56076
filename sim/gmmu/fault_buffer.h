/* Private to sim/gmmu: the fault buffer, the uTLB fault records behind its
 * entries, and the records waiting for room in it. */
#ifndef UVMSIM_GMMU_FAULT_BUFFER_H
#define UVMSIM_GMMU_FAULT_BUFFER_H

#include "gmmu.h"

#define FB_MAX_SMS 1024

/* One uTLB's fault on one page (fault.c): the accesses of one SM's L1 TLB
 * (or of a client with no TLB) that found the page absent, or read-only
 * for a write, parked until a replay re-executes them.  Its one buffer
 * entry is written when it is created, or later if the buffer is full.
 * Loads and writes of a page have separate records, as the L1's MSHRs
 * keep separate misses (a read-only page answers one and faults the
 * other). */
struct fault_rec {
    struct fault_rec *next;           /* the page's records (pte->recs); free list */
    struct fault_rec *wnext;          /* waiting for buffer room */
    struct fault_rec *lprev, *lnext;  /* every parked record, oldest first */
    struct mem_req *head, *tail;      /* the parked accesses, arrival order */
    uint64_t vpn;
    uint32_t n;                       /* accesses parked */
    uint16_t sm;                      /* the uTLB: the SM whose L1 TLB faulted */
    enum req_kind access;             /* the most intrusive parked access */
    bool write, protection;
    bool tlb;                         /* came through a TLB (a replay re-enters it there) */
    bool logged;                      /* its entry was written (else it waits for room) */
};

struct fault_buffer {
    struct fault_entry *e;        /* ring */
    uint32_t cap, head, n;
    /* Records that found the buffer full, in arrival order (through ->wnext). */
    struct fault_rec *wait_head, *wait_tail;
    uint32_t nwait;
    uint32_t wait_of_sm[FB_MAX_SMS];
};

void fb_init(struct fault_buffer *f, uint32_t cap);
void fb_free(struct fault_buffer *f);
static inline bool fb_full(const struct fault_buffer *f) { return f->n == f->cap; }
void fb_push(struct fault_buffer *f, const struct fault_entry *e);
struct fault_entry fb_pop(struct fault_buffer *f);
void fb_wait(struct fault_buffer *f, struct fault_rec *r);
/* Oldest waiting record, removed; NULL when none. */
struct fault_rec *fb_unwait(struct fault_buffer *f);

#endif

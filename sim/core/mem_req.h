/* The message that travels between components: one coalesced memory
 * access, one translation, one page-walk read.  Requests come from a pool
 * (free list): the hot path never calls malloc once the pool has grown to
 * the peak number in flight. */
#ifndef UVMSIM_MEM_REQ_H
#define UVMSIM_MEM_REQ_H

#include <stdio.h>
#include "base.h"

struct mq;

/* 4 KiB pages: the HPE and thesis machines' OS page (HPE Sec. III). */
#define PAGE_SHIFT 12
#define PAGE_SIZE (1ULL << PAGE_SHIFT)
/* 128 B cache lines of four 32 B sectors (Fermi/Volta L1/L2). */
#define LINE_SHIFT 7
#define LINE_SIZE (1u << LINE_SHIFT)
#define SECTOR_SIZE 32u

/* Sectors in a line's sector mask (4 bits): a table, as the default build
 * has no popcount instruction and __builtin_popcount became a library call
 * on the hot path (issue 13). */
static inline uint32_t sector_count(uint8_t mask)
{
    static const uint8_t n[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };
    return (uint32_t)n[mask & 15] + n[mask >> 4];
}

enum req_kind {
    REQ_LOAD,
    REQ_STORE,
    REQ_ATOMIC,
    REQ_XLATE,     /* translation of one page for one warp instruction */
};

/* Rank of an access when faults on one page coalesce: atomic > store >
 * load.  The real driver keeps the most intrusive one, the access the page
 * must be mapped for (uvm_gpu_replayable_faults.c, preprocess_fault_batch);
 * the GMMU's fault records and the driver's batch both keep the higher. */
static inline int req_intrusiveness(enum req_kind k)
{
    return k == REQ_ATOMIC ? 2 : k == REQ_STORE ? 1 : 0;
}

struct mem_req {
    uint64_t id;
    enum req_kind kind;
    enum req_kind access;  /* REQ_XLATE: the access that needs it */
    uint64_t vaddr;        /* byte address (line- or page-aligned) */
    uint64_t paddr;        /* filled by translation */
    uint32_t size;         /* REQ_XLATE answer: bytes of the translated page */
    uint8_t sector_mask;
    uint8_t xflags;        /* REQ_XLATE answer: XLATE_* below; line requests: LINE_* */
    uint16_t sm;
    uint32_t warp;         /* global warp slot id of the issuing SM */
    uint32_t slot;         /* issuer's index (page or line within the instruction) */
    sim_time t_issue;
    struct mq *reply;      /* where the answer goes */
    struct mem_req *next;  /* free list, MSHR merge lists, waiting lists */
};

/* What a translation answer says about its page besides the address;
 * XLATE_FAULT: no translation, the walk faulted (a fault NACK; with
 * XLATE_READONLY a write to a read-only page, else the page is absent). */
enum { XLATE_DIRTY = 1, XLATE_READONLY = 2, XLATE_REMOTE = 4, XLATE_FAULT = 8 };
/* Request-side flags of a REQ_XLATE (in xflags until it is answered):
 * XLATE_WANT_NACK: the requester is a TLB that takes a fault NACK (the
 * walker parks the walks of clients without one); XLATE_REPLAYED: the
 * access is being re-executed by a replay (sim/gmmu replay.c). */
enum { XLATE_WANT_NACK = 16, XLATE_REPLAYED = 32 };
/* Flags of a line request (REQ_LOAD, REQ_STORE, REQ_ATOMIC) in xflags,
 * 0 from req_alloc.  LINE_NOCACHE: no GPU cache level may allocate the line
 * (selective caching, thesis Sec. 6.2.1: the SM decides it from the page's
 * home and permission, sim/sm selcache.c); its answer is not kept either. */
enum { LINE_NOCACHE = 1 };
/* Inside the L2 (l2_remote.c): LINE_TOCPU, a slice's own request routed to
 * the CPU (a line the remote directory holds); LINE_NACK, the CPU's answer
 * that it does not hold the line. */
enum { LINE_TOCPU = 2, LINE_NACK = 4 };
/* Physical addresses with this bit set are in host memory (a page mapped
 * remote: reachable over the link without a fault). */
#define PADDR_HOST (1ULL << 62)

struct req_pool {
    struct mem_req *free;
    void **chunks;
    size_t nchunks;
    uint64_t next_id;
    uint64_t live;         /* requests handed out and not returned */
};

void req_pool_init(struct req_pool *p);
void req_pool_free(struct req_pool *p);
struct mem_req *req_alloc_slow(struct req_pool *p);

static inline struct mem_req *req_alloc(struct req_pool *p)
{
    struct mem_req *r = p->free;
    if (!r) r = req_alloc_slow(p);
    p->free = r->next;
    r->next = NULL;
    r->xflags = 0;
    r->id = p->next_id++;
    p->live++;
    return r;
}

static inline void req_release(struct req_pool *p, struct mem_req *r)
{
    r->next = p->free;
    p->free = r;
    p->live--;
}

static inline uint64_t page_of(uint64_t addr) { return addr >> PAGE_SHIFT; }

const char *req_kind_name(enum req_kind k);
/* One line describing r, for watchdog dumps. */
void req_dump(FILE *out, const struct mem_req *r);

/* A destination chosen by address (memory channel, L2 slice): the sender
 * asks the port which queue takes `paddr`. */
struct mem_port {
    struct mq *(*route)(void *ctx, uint64_t paddr);
    void *ctx;
};
static inline struct mq *port_route(const struct mem_port *p, uint64_t paddr)
{ return p->route(p->ctx, paddr); }

#endif

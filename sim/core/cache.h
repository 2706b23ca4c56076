/* A sectored, set-associative, LRU cache of tags with miss status holding
 * registers (MSHRs): the bookkeeping shared by the SMs' L1D (sim/sm) and
 * the L2 slices (sim/l2/l2*.c).  It stores no data, only which 32 B
 * sectors of each 128 B line are valid and dirty (Fermi/Volta L1 and L2:
 * 128 B lines of four 32 B sectors, fills per sector).
 *
 * Nothing here allocates after cache_init: lookups walk one set; MSHRs
 * are found through a map from line to register (issue 13: no walk over
 * the register file), taken lowest free first. */
#ifndef UVMSIM_CACHE_H
#define UVMSIM_CACHE_H

#include "base.h"
#include "idxmap.h"
#include "mem_req.h"

struct cache_line {
    uint64_t line;        /* address >> LINE_SHIFT */
    uint64_t stamp;       /* last use (LRU) */
    uint8_t valid, dirty; /* sector masks; valid == 0: way empty */
};

/* One outstanding line miss: requests merged on it wait in a list. */
struct cache_mshr {
    bool used;
    bool nocache;         /* cacheless (thesis Sec. 6.2.2.1): the answer is not kept */
    uint8_t want;         /* sectors its waiting requests asked for (cacheless) */
    uint64_t line;
    uint8_t pending;      /* sectors requested from below */
    uint16_t outstanding; /* requests below not yet answered */
    struct mem_req *head, *tail;  /* waiting requests, through ->next */
};

struct cache {
    uint32_t sets, ways, nmshr, mshr_used;
    uint32_t set_mask;    /* sets - 1 when a power of two, else 0 */
    uint64_t stamp;
    struct cache_line *l;
    struct cache_mshr *m;
    struct idxmap mmap;   /* line -> MSHR */
    uint64_t *mfree;      /* bit i: MSHR i free */
    /* Valid lines per bucket of 4 KiB frames (a counting filter: zero
     * means no line of any frame of the bucket is present). */
    uint32_t *frame_lines;
    uint32_t frame_mask;
};

/* What a fill pushed out. */
struct cache_victim {
    bool valid;
    uint64_t addr;        /* line address (bytes) */
    uint8_t dirty;        /* dirty sectors to write back */
};

/* size bytes, `ways` ways, `nmshr` MSHRs.  Sets = size / (ways x 128 B)
 * (any count, indexed by line modulo sets); false when that is zero. */
bool cache_init(struct cache *c, uint64_t size, uint32_t ways, uint32_t nmshr);
void cache_free(struct cache *c);

static inline uint64_t cache_line_of(uint64_t addr) { return addr >> LINE_SHIFT; }

/* Sectors of `mask` not valid at addr (0: hit).  *tag_hit tells whether
 * the line is present at all (a present line missing sectors is a sector
 * miss).  A present line becomes most recently used. */
uint8_t cache_probe(struct cache *c, uint64_t addr, uint8_t mask, bool *tag_hit);
/* The way (index into c->l) holding addr's line, UINT32_MAX when absent:
 * sim.model fast keeps a fill's ready time beside each way. */
uint32_t cache_slot(struct cache *c, uint64_t addr);
/* Make `mask` valid at addr (and dirty if `dirty`), allocating the line
 * over the LRU way when absent; *v tells what was evicted. */
void cache_fill(struct cache *c, uint64_t addr, uint8_t mask, bool dirty,
                struct cache_victim *v);
/* A write that does not allocate: the sectors become valid (and dirty if
 * `dirty`) only when the line is present.  Returns whether it was. */
bool cache_write_present(struct cache *c, uint64_t addr, uint8_t mask, bool dirty);
/* Drop the line (its dirty sectors returned through *v). */
void cache_invalidate(struct cache *c, uint64_t addr, struct cache_victim *v);
/* False when no line of the 4 KiB frame at pa is present (true may be
 * either): invalidating a frame can skip its 32 lookups. */
static inline bool cache_may_hold_frame(const struct cache *c, uint64_t pa)
{ return c->frame_lines[(pa >> PAGE_SHIFT) & c->frame_mask] != 0; }

/* MSHRs. */
struct cache_mshr *cache_mshr_find(struct cache *c, uint64_t addr);
/* NULL when every MSHR is taken. */
struct cache_mshr *cache_mshr_alloc(struct cache *c, uint64_t addr);
void cache_mshr_wait(struct cache_mshr *m, struct mem_req *r);
void cache_mshr_release(struct cache *c, struct cache_mshr *m);
static inline uint32_t cache_mshr_index(const struct cache *c, const struct cache_mshr *m)
{ return (uint32_t)(m - c->m); }

#endif

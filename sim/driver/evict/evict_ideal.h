/* Private to sim/driver: Ideal's future (evict_ideal_future.c), the page
 * references of the run in a logical order, grouped by page. */
#ifndef UVMSIM_DRIVER_EVICT_IDEAL_H
#define UVMSIM_DRIVER_EVICT_IDEAL_H

#include "driver/mem/mem.h"

struct config;

/* A reference's place: hi = kernel launch << 32 | thread block,
 * lo = memory instruction of the warp << 8 | warp in the block
 * (replay: 0 and position << 8). */
struct ideal_key { uint64_t hi, lo; };

static inline struct ideal_key ideal_key_of(uint64_t kernel, uint64_t block, uint64_t inst,
                                            uint32_t warp)
{
    return (struct ideal_key){ kernel << 32 | block, inst << 8 | warp };
}
static inline bool ideal_key_less(struct ideal_key a, struct ideal_key b)
{
    return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo;
}
static inline bool ideal_key_eq(struct ideal_key a, struct ideal_key b)
{
    return a.hi == b.hi && a.lo == b.lo;
}

struct ideal_future {
    size_t n;                     /* references */
    uint64_t npages;              /* distinct pages, ids 0..npages-1 */
    struct page_map page_id;      /* vpn -> id */
    uint64_t *first;              /* id's keys: key[first[id] .. first[id+1]) */
    struct ideal_key *key;        /* ascending per page */
    uint64_t *fill;               /* while building */
};

/* The program of the timed run that cfg describes (its workload). */
void ideal_future_program(struct ideal_future *f, const struct config *cfg);
/* A replay trace: reference i has key (0, i). */
void ideal_future_trace(struct ideal_future *f, const uint64_t *refs, size_t n);
void ideal_future_free(struct ideal_future *f);
/* The position of key k among page id's references, or SIZE_MAX. */
size_t ideal_future_find(const struct ideal_future *f, uint32_t id, struct ideal_key k);

#endif

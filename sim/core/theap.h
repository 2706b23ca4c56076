/* A bounded binary min-heap of times with a 32-bit payload, allocated once
 * (sim.model fast: the release times of a cache's MSHRs taken by fills
 * timed at lookup, l2_fast.c and sm/fast.c; the SM's memory instructions
 * answered at a known time).  Push and pop are O(log n) and allocate
 * nothing; the capacity is the structure's own bound (MSHRs, warps). */
#ifndef UVMSIM_THEAP_H
#define UVMSIM_THEAP_H

#include <stdlib.h>
#include "base.h"

struct theap_ent { sim_time t; uint64_t v; };
struct theap {
    struct theap_ent *e;
    uint32_t n, cap;
};

static inline void theap_init(struct theap *h, uint32_t cap)
{
    h->e = xcalloc(cap ? cap : 1, sizeof *h->e);
    h->n = 0;
    h->cap = cap;
}
static inline void theap_free(struct theap *h) { free(h->e); h->e = NULL; h->n = 0; }
static inline sim_time theap_min(const struct theap *h) { return h->n ? h->e[0].t : TIME_NEVER; }

/* Ties pop in push order of v (v carries a sequence where that matters). */
static inline bool theap_lt_(const struct theap_ent *a, const struct theap_ent *b)
{ return a->t < b->t || (a->t == b->t && a->v < b->v); }

static inline void theap_push(struct theap *h, sim_time t, uint64_t v)
{
    uint32_t i = h->n++;
    struct theap_ent x = { t, v };
    while (i) {
        uint32_t p = (i - 1) / 2;
        if (!theap_lt_(&x, &h->e[p])) break;
        h->e[i] = h->e[p];
        i = p;
    }
    h->e[i] = x;
}

static inline struct theap_ent theap_pop(struct theap *h)
{
    struct theap_ent top = h->e[0], last = h->e[--h->n];
    uint32_t i = 0;
    for (;;) {
        uint32_t l = 2 * i + 1, m = i;
        if (l >= h->n) break;
        if (theap_lt_(&h->e[l], &last)) m = l;
        if (l + 1 < h->n && theap_lt_(&h->e[l + 1], m == l ? &h->e[l] : &last)) m = l + 1;
        if (m == i) break;
        h->e[i] = h->e[m];
        i = m;
    }
    if (h->n) h->e[i] = last;
    return top;
}

/* An occupancy counter over `cap` registers: a request at t takes one
 * until `until` (set by the caller through the returned start): registers
 * whose release is at or before t are freed; with all taken, the request
 * starts when the earliest frees.  Returns the start time. */
static inline sim_time theap_take(struct theap *h, sim_time t)
{
    while (h->n && h->e[0].t <= t) theap_pop(h);
    if (h->n < h->cap) return t;
    return theap_pop(h).t;
}

#endif

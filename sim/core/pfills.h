/* sim.model fast: a cache's misses in flight, timed when they are looked
 * up (sm/fast.c for the L1D, l2/l2_fast.c for the L2).  Each miss holds
 * one of the config's MSHRs (a register table of its own, so the queue
 * path's registers never meet these) until its fill's ready time; the fill
 * then enters the tag store -- lazily, at the cache's next lookup at or
 * after that time, in ready order -- exactly as the cycle model allocates
 * a line when its fill arrives, not at the miss.  A lookup that finds its
 * line still in flight merges (asking for the sectors not yet asked).
 * Nothing here allocates after pfills_init; the heap and the map are
 * bounded by the MSHR count. */
#ifndef UVMSIM_PFILLS_H
#define UVMSIM_PFILLS_H

#include "cache.h"
#include "theap.h"

struct pfills {
    struct cache m;             /* its MSHRs only (one 128 B line of tags, unused) */
    struct theap h;             /* (ready time, register) */
    sim_time *ready;            /* per register: when its last sectors arrive */
    uint8_t *dirty;             /* per register: sectors an atomic leaves dirty at the fill */
};

static inline void pfills_init(struct pfills *p, uint32_t nmshr)
{
    cache_init(&p->m, LINE_SIZE, 1, nmshr);
    theap_init(&p->h, nmshr);
    p->ready = xcalloc(nmshr, sizeof *p->ready);
    p->dirty = xcalloc(nmshr, sizeof *p->dirty);
}

static inline void pfills_free(struct pfills *p)
{
    cache_free(&p->m);
    theap_free(&p->h);
    free(p->ready);
    free(p->dirty);
}

static inline struct cache_mshr *pfills_find(struct pfills *p, uint64_t pa)
{ return cache_mshr_find(&p->m, pa); }
static inline sim_time pfills_ready(const struct pfills *p, const struct cache_mshr *m)
{ return p->ready[cache_mshr_index(&p->m, m)]; }

/* m now waits for `mask` more sectors, arriving at `ready`. */
static inline void pfills_wait(struct pfills *p, struct cache_mshr *m, uint8_t mask, sim_time ready)
{
    uint32_t i = cache_mshr_index(&p->m, m);
    bool fresh = !m->pending;
    m->pending |= mask;
    if (ready > p->ready[i] || fresh) p->ready[i] = ready;
    if (fresh) theap_push(&p->h, ready, i);
}

/* The next fill due at or before t (or, with t = TIME_NEVER, the earliest
 * of all), NULL when none: the caller enters m->pending into its tags at
 * *at and then calls pfills_done. */
static inline struct cache_mshr *pfills_due(struct pfills *p, sim_time t, sim_time *at)
{
    while (p->h.n && p->h.e[0].t <= t) {
        struct theap_ent e = theap_pop(&p->h);
        uint32_t i = (uint32_t)e.v;
        if (p->ready[i] > e.t) { theap_push(&p->h, p->ready[i], i); continue; }  /* merged later */
        *at = e.t;
        return &p->m.m[i];
    }
    return NULL;
}

static inline void pfills_done(struct pfills *p, struct cache_mshr *m)
{
    uint32_t i = cache_mshr_index(&p->m, m);
    p->ready[i] = 0;
    p->dirty[i] = 0;
    cache_mshr_release(&p->m, m);
}

#endif

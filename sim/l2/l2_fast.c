/* sim.model fast (issue 41, 2: "L1D and L2: tag and sector state kept
 * exactly (hits, misses, MSHR merging, write-back lines), fixed hit
 * latencies"): an SM's line request for a GPU-homed line looked up in its
 * slice when the SM sends it, with no queue and no tick.  The slice's tags
 * and sectors are the cycle model's (core/cache.c, the same LRU, the same
 * write-back, write-allocate and l2.write_fill rules as l2.c's lookup);
 * the times are the config's own:
 *  - the lookup gpu.xbar.latency + l2.latency after the send (the slice
 *    queue's latency), l2.ports lookups per cycle (core/slots.h);
 *  - a miss takes one of l2.mshrs registers until its fill is in (with
 *    all taken it starts when the first frees) and fetches its sectors
 *    from the channel's fast server (dram_fast_access); a later request
 *    for a line still in flight merges and is answered with the fill,
 *    which enters the tags at its time (core/pfills.h), as l2.c's filled;
 *  - a dirty victim's write-back goes to its channel when it is pushed
 *    out (a store's allocation, a fill);
 *  - the crossbar output port at gpu.xbar.port_bw bytes per cycle from
 *    when an answer is ready (core/slots.h).
 * Left out: the l2.queue and l2.writeback_buffer back-pressure (the SMs'
 * MSHRs and in-flight slots bound what is sent).  Host-homed lines and
 * lines the remote directory holds are not taken (false): they keep the
 * slice's queue and the link's path. */
#include "l2_int.h"

void l2_set_fast(struct l2 *l)
{
    l->fast = true;
    for (unsigned i = 0; i < l->n; i++) {
        struct slice *s = &l->s[i];
        pfills_init(&s->fp, s->c.nmshr);
        slots_init(&s->f_in, l->ports, s->comp.dom->period);
        slots_init(&s->f_out, 1, s->comp.dom->period);
    }
}

void l2_fast_free(struct l2 *l)
{
    if (!l->fast) return;
    for (unsigned i = 0; i < l->n; i++) {
        pfills_free(&l->s[i].fp);
        slots_free(&l->s[i].f_in);
        slots_free(&l->s[i].f_out);
    }
}

static sim_time fetch(struct slice *s, uint64_t pa, uint8_t mask, sim_time at)
{
    struct l2 *l = s->l2;
    uint64_t a = pa >> LINE_SHIFT << LINE_SHIFT;
    *l->dram_reads += 1;
    if (l->mem_hook) l->mem_hook(l->mem_ctx, a, sector_count(mask));
    sim_time d = dram_fast_access(l->dram, a, sector_count(mask) * SECTOR_SIZE, false, at);
    return domain_edge(s->comp.dom, d);     /* the slice sees its fill at its next edge */
}

static void writeback(struct slice *s, const struct cache_victim *v, sim_time at)
{
    struct l2 *l = s->l2;
    if (!v->valid || !v->dirty) return;
    *l->writebacks += 1;
    if (l->mem_hook) l->mem_hook(l->mem_ctx, v->addr, sector_count(v->dirty));
    dram_fast_access(l->dram, v->addr, sector_count(v->dirty) * SECTOR_SIZE, true, at);
}

/* Fill m enters the tags at `at` (l2.c's filled): its victim written
 * back then, an atomic's sectors left dirty. */
static void fill(struct slice *s, struct cache_mshr *m, sim_time at)
{
    struct cache_victim v;
    uint64_t a = m->line << LINE_SHIFT;
    uint8_t dirty = s->fp.dirty[cache_mshr_index(&s->fp.m, m)];
    cache_fill(&s->c, a, m->pending, false, &v);
    writeback(s, &v, at);
    if (dirty) cache_write_present(&s->c, a, dirty, true);
    pfills_done(&s->fp, m);
}

static void fills(struct slice *s, sim_time t)
{
    struct cache_mshr *m;
    sim_time at;
    while ((m = pfills_due(&s->fp, t, &at))) fill(s, m, at);
}

/* m for pa's line in flight, or a fresh register; *st is when the miss
 * can start (later than t when every register was taken). */
static struct cache_mshr *reg(struct slice *s, uint64_t pa, sim_time t, sim_time *st, bool *merged)
{
    struct cache_mshr *m = pfills_find(&s->fp, pa);
    *st = t;
    *merged = m != NULL;
    if (m) return m;
    sim_time at = t;
    while (!(m = cache_mshr_alloc(&s->fp.m, pa))) {
        struct cache_mshr *f = pfills_due(&s->fp, TIME_NEVER, &at);
        fill(s, f, at);
        if (at > *st) *st = at;
    }
    if (*st > t) *s->l2->mshr_full += (*st - t) / s->comp.dom->period;
    return m;
}

bool l2_fast_access(struct l2 *l, enum req_kind k, uint64_t pa, uint8_t mask, sim_time sent,
                    sim_time *done)
{
    if (pa & PADDR_HOST) return false;
    struct mem_req probe = { .kind = k, .paddr = pa };
    if (l2_keeps_out(l, &probe)) return false;
    struct slice *s = &l->s[l2_slice_of(l, pa)];
    sim_time t = slots_take(&s->f_in, sent + s->in.latency, 1), st;
    fills(s, t);
    struct cache_victim v;
    struct cache_mshr *m;
    bool tag, merged;
    sim_time ready = t;
    uint32_t bytes = 0;
    if (k == REQ_STORE) {
        /* A hit when the line is present; a miss allocates it, fetching
         * what l2.write_fill says through a register (l2.c's lookup). */
        cache_probe(&s->c, pa, mask, &tag);
        if (!tag && l->write_fill != WF_NONE) {
            uint8_t want = l->write_fill == WF_FULL ? 0xf : (uint8_t)(0xf & ~mask);
            if (want) {
                m = reg(s, pa, t, &st, &merged);
                *l->write_fills += 1;
                uint8_t extra = (uint8_t)(want & ~m->pending);
                if (extra) pfills_wait(&s->fp, m, extra, fetch(s, pa, extra, st));
            }
        }
        cache_fill(&s->c, pa, mask, true, &v);
        writeback(s, &v, t);
        *(tag ? l->hits : l->misses) += 1;
        (tag ? l->v_hits : l->v_misses)[s->id] += 1;
    } else {
        uint8_t miss = cache_probe(&s->c, pa, mask, &tag);
        if (!miss) {
            if (k == REQ_ATOMIC) cache_write_present(&s->c, pa, mask, true);
            *l->hits += 1;
            l->v_hits[s->id] += 1;
        } else {
            m = reg(s, pa, t, &st, &merged);
            if (merged) {
                *l->merges += 1;
                ready = pfills_ready(&s->fp, m);
            } else {
                *l->misses += 1;
                l->v_misses[s->id] += 1;
                if (tag) *l->sector_misses += 1;
            }
            uint8_t extra = (uint8_t)(miss & ~m->pending);
            if (extra) {
                sim_time d = fetch(s, pa, extra, st);
                pfills_wait(&s->fp, m, extra, d);
                if (d > ready) ready = d;
            }
            if (k == REQ_ATOMIC) s->fp.dirty[cache_mshr_index(&s->fp.m, m)] |= mask;
        }
        bytes = sector_count(mask) * SECTOR_SIZE;
    }
    /* The output port from when the answer is ready: a load answer
     * carries its sectors, a store's is one cycle (l2.c's slice_tick). */
    uint32_t cyc = (bytes + l->bw - 1) / l->bw;
    *done = slots_take(&s->f_out, ready, cyc ? cyc : 1);
    return true;
}

bool l2_fast_hook(void *l2, enum req_kind k, uint64_t pa, uint8_t mask, sim_time sent,
                  sim_time *done)
{
    return l2_fast_access(l2, k, pa, mask, sent, done);
}

/* sim.model fast (issue 41, 2: "L1D and L2: tag and sector state kept
 * exactly (hits, misses, MSHR merging, write-back lines), fixed hit
 * latencies"): an SM's line request for a GPU-homed line looked up in its
 * slice when the SM sends it, with no queue and no tick.  The slice's tags
 * and sectors are the cycle model's (core/cache.c, the same LRU, the same
 * write-back, write-allocate and l2.write_fill rules as l2.c's lookup);
 * the times are the config's own:
 *  - the lookup gpu.xbar.latency + l2.latency after the send (the slice
 *    queue's latency), l2.ports lookups per cycle as an occupancy counter;
 *  - a miss fetches its sectors from the channel's fast server
 *    (dram_fast_access) at the lookup; the fill is the line's ready time,
 *    kept beside its way, so a later request for a line still in flight
 *    is an MSHR merge answered at that time; l2.mshrs misses in flight at
 *    once (an occupancy counter over their ready times: a miss with all
 *    taken starts when the first frees);
 *  - a dirty victim's write-back goes to its channel at the lookup;
 *  - the crossbar output port at gpu.xbar.port_bw bytes per cycle as a
 *    rate counted from the lookups (as dram_fast.c's bus).
 * Left out: the l2.queue and l2.writeback_buffer back-pressure (the SMs'
 * MSHRs and in-flight slots bound what is sent).  Host-homed lines and
 * lines the remote directory holds are not taken (false): they keep the
 * slice's queue and the link's path. */
#include "l2_int.h"
#include "core/theap.h"

struct l2_fast_way { uint64_t line; sim_time ready; };

void l2_set_fast(struct l2 *l)
{
    l->fast = true;
    for (unsigned i = 0; i < l->n; i++) {
        struct slice *s = &l->s[i];
        s->f_ready = xcalloc((size_t)s->c.sets * s->c.ways, sizeof *s->f_ready);
        theap_init(&s->f_mshr, s->c.nmshr);
    }
}

void l2_fast_free(struct l2 *l)
{
    if (!l->fast) return;
    for (unsigned i = 0; i < l->n; i++) {
        free(l->s[i].f_ready);
        theap_free(&l->s[i].f_mshr);
    }
}

/* When the line at `slot` is complete (0: not in flight). */
static sim_time way_ready(const struct slice *s, uint32_t slot, uint64_t line)
{
    if (slot == UINT32_MAX) return 0;
    const struct l2_fast_way *w = &s->f_ready[slot];
    return w->line == line ? w->ready : 0;
}

static void set_ready(struct slice *s, uint64_t pa, sim_time t)
{
    uint32_t slot = cache_slot(&s->c, pa);
    if (slot != UINT32_MAX) s->f_ready[slot] = (struct l2_fast_way){ cache_line_of(pa), t };
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

bool l2_fast_access(struct l2 *l, enum req_kind k, uint64_t pa, uint8_t mask, sim_time sent,
                    sim_time *done)
{
    if (pa & PADDR_HOST) return false;
    struct mem_req probe = { .kind = k, .paddr = pa };
    if (l2_keeps_out(l, &probe)) return false;
    struct slice *s = &l->s[l2_slice_of(l, pa)];
    sim_time p = s->comp.dom->period, t = sent + s->in.latency;
    if (s->f_port < t) { s->f_port = t; s->f_used = 0; }
    if (s->f_used == l->ports) { s->f_port += p; s->f_used = 0; }
    t = s->f_port;
    s->f_used++;
    uint64_t line = cache_line_of(pa);
    struct cache_victim v;
    bool tag;
    sim_time ready = t;
    uint32_t bytes = 0;
    if (k == REQ_STORE) {
        cache_probe(&s->c, pa, mask, &tag);
        sim_time lr = t;
        if (!tag && l->write_fill != WF_NONE) {
            uint8_t want = l->write_fill == WF_FULL ? 0xf : (uint8_t)(0xf & ~mask);
            if (want) {
                sim_time st = theap_take(&s->f_mshr, t);
                *l->write_fills += 1;
                lr = fetch(s, pa, want, st);
                theap_push(&s->f_mshr, lr, 0);
                cache_fill(&s->c, pa, want, false, &v);
                writeback(s, &v, st);
            }
        }
        cache_fill(&s->c, pa, mask, true, &v);
        writeback(s, &v, t);
        if (!tag) set_ready(s, pa, lr);
        *(tag ? l->hits : l->misses) += 1;
        (tag ? l->v_hits : l->v_misses)[s->id] += 1;
    } else {
        uint8_t miss = cache_probe(&s->c, pa, mask, &tag);
        sim_time old = tag ? way_ready(s, cache_slot(&s->c, pa), line) : 0;
        if (!miss) {
            if (old > t) { *l->merges += 1; ready = old; }
            else { *l->hits += 1; l->v_hits[s->id] += 1; }
        } else {
            bool infl = old > t;
            sim_time st = t;
            if (infl) {
                *l->merges += 1;
            } else {
                sim_time f = theap_take(&s->f_mshr, t);
                if (f > t) *l->mshr_full += (f - t) / p;
                st = f;
                *l->misses += 1;
                l->v_misses[s->id] += 1;
                if (tag) *l->sector_misses += 1;
            }
            sim_time d = fetch(s, pa, miss, st);
            cache_fill(&s->c, pa, miss, false, &v);
            writeback(s, &v, st);
            ready = d > old ? d : old;
            set_ready(s, pa, ready);
            if (!infl) theap_push(&s->f_mshr, d, 0);
        }
        if (k == REQ_ATOMIC) cache_write_present(&s->c, pa, mask, true);
        bytes = sector_count(mask) * SECTOR_SIZE;
    }
    /* The output port: a load answer carries its sectors, a store's is one
     * cycle (l2.c's slice_tick). */
    uint32_t cyc = (bytes + l->bw - 1) / l->bw;
    sim_time start = s->f_up > t ? s->f_up : t;
    s->f_up = start + (sim_time)(cyc ? cyc : 1) * p;
    *done = ready > start ? ready : start;
    return true;
}

bool l2_fast_hook(void *l2, enum req_kind k, uint64_t pa, uint8_t mask, sim_time sent,
                  sim_time *done)
{
    return l2_fast_access(l2, k, pa, mask, sent, done);
}

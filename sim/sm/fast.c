/* sim.model fast (issue 41, 2: "the SM pipeline: no per-cycle SM tick;
 * each warp is scheduled at its next issue time; schedulers' issue slots
 * and the L1D port as occupancy counters"; "L1D and L2: tag and sector
 * state kept exactly, fixed hit latencies").
 *
 * When a page of a memory instruction is translated, each of its lines
 * (GPU-homed) is timed at once instead of travelling the SM's queues:
 *  - the L1D lookup gpu.l1d.latency after the translation (the cycle
 *    model's l1q latency), gpu.l1d.ports lookups per cycle as an occupancy
 *    counter;
 *  - the L1D's tags and sectors as l1d.c keeps them (loads allocate,
 *    stores write through without allocating, atomics drop the line); a
 *    miss takes one of gpu.l1d.mshrs registers (an occupancy counter over
 *    the fills' ready times) and asks the L2 for its missing sectors; the
 *    fill's ready time is kept beside its way, so a later load of a line
 *    still in flight merges and is answered then;
 *  - the crossbar input port: one request a cycle, a store's data
 *    ceil(bytes / gpu.xbar.port_bw) cycles (l1d.c's xbar_send), as the
 *    same counter the queue path uses (s->xbar_free);
 *  - the L2 slice (l2_fast.c) and the way back, gpu.xbar.latency.
 * The instruction is answered at its last line's time: one entry in the
 * SM's heap of answers, which wakes the SM then; the SM's tick issues as
 * in the cycle model (its next tick is its warps' next issue time:
 * sched_issue_at), so between answers and issues the SM does not tick.
 * The tags change at the lookup, not when a fill lands: a line is valid
 * (and may be evicted) from its miss on, a later request waiting for its
 * ready time.  Host-homed lines keep the queues and the link. */
#include "sm_internal.h"
#include "core/stats.h"

void fast_sm_init(struct gpu *g, struct sm *s)
{
    uint32_t slots = g->max_warps * g->max_outstanding;
    theap_init(&s->fdone, slots);
    if (g->l1_enabled) {
        theap_init(&s->fl1m, s->l1.nmshr);
        s->fready = xcalloc((size_t)s->l1.sets * s->l1.ways, sizeof *s->fready);
    }
}

void fast_sm_free(struct gpu *g, struct sm *s)
{
    if (!g->mem_now) return;
    theap_free(&s->fdone);
    if (g->l1_enabled) theap_free(&s->fl1m);
    free(s->fready);
}

static sim_time way_ready(const struct sm *s, uint32_t slot, uint64_t line)
{
    if (slot == UINT32_MAX) return 0;
    return s->fready[slot].line == line ? s->fready[slot].ready : 0;
}

/* The L1D port: gpu.l1d.ports lookups in each cycle, from t on. */
static sim_time l1_slot(struct sm *s, sim_time t)
{
    if (s->fl1_port < t) { s->fl1_port = t; s->fl1_used = 0; }
    if (s->fl1_used == s->gpu->l1_ports) { s->fl1_port += s->comp.dom->period; s->fl1_used = 0; }
    s->fl1_used++;
    return s->fl1_port;
}

/* The crossbar input port (l1d.c's xbar_send): the send time. */
static sim_time xbar_slot(struct sm *s, sim_time t, uint32_t bytes)
{
    sim_time st = s->xbar_free > t ? s->xbar_free : t;
    uint32_t cyc = (bytes + s->gpu->xbar_bw - 1) / s->gpu->xbar_bw;
    s->xbar_free = st + (sim_time)(cyc ? cyc : 1) * s->comp.dom->period;
    return st;
}

static sim_time l2_at(struct sm *s, enum req_kind k, uint64_t pa, uint8_t mask, sim_time sent)
{
    struct gpu *g = s->gpu;
    sim_time done;
    bool ok = g->mem_now(g->mem_ctx, k, pa, mask, sent, &done);
    SIM_ASSERT(ok, s->name, sent, "fast L2 refused GPU-homed line %#llx", (unsigned long long)pa);
    return done + g->xbar_latency;
}

/* A load that the L1D may cache, looked up at t: its answer time. */
static sim_time l1_load(struct sm *s, uint64_t pa, uint8_t mask, sim_time t)
{
    struct gpu *g = s->gpu;
    uint64_t line = cache_line_of(pa);
    bool tag;
    uint8_t miss = cache_probe(&s->l1, pa, mask, &tag);
    sim_time old = tag ? way_ready(s, cache_slot(&s->l1, pa), line) : 0;
    if (!miss) {
        if (old > t) {                  /* its fill is still on the way: merged */
            *g->l1_merges += 1;
            g->v.l1_merges[s->id] += 1;
            return old;
        }
        *g->l1_hits += 1;
        g->v.l1_hits[s->id] += 1;
        return t;
    }
    bool infl = old > t;
    sim_time st = t;
    if (infl) {
        *g->l1_merges += 1;
        g->v.l1_merges[s->id] += 1;
    } else {
        st = theap_take(&s->fl1m, t);
        if (st > t) g->v.l1_mshr_full[s->id] += (st - t) / s->comp.dom->period;
        *g->l1_misses += 1;
        g->v.l1_misses[s->id] += 1;
        if (tag) { *g->l1_sector_misses += 1; g->v.l1_sector_misses[s->id] += 1; }
    }
    sim_time d = l2_at(s, REQ_LOAD, line << LINE_SHIFT, miss, xbar_slot(s, st, 0));
    struct cache_victim v;
    cache_fill(&s->l1, pa, miss, false, &v);   /* write-through: a victim is dropped */
    sim_time ready = d > old ? d : old;
    uint32_t slot = cache_slot(&s->l1, pa);
    s->fready[slot] = (struct fast_way){ line, ready };
    if (!infl) theap_push(&s->fl1m, d, 0);
    return ready;
}

bool fast_page_lines(struct sm *s, struct warp *w, struct minst *m, uint32_t p,
                     uint64_t frame, uint64_t paddr, sim_time now)
{
    (void)w;
    struct gpu *g = s->gpu;
    if (paddr & PADDR_HOST) return false;
    sim_time lat = s->l1q.latency, done = m->done_at;
    for (uint32_t l = 0; l < m->c.nlines; l++) {
        if (m->c.line_page[l] != p) continue;
        uint64_t pa = frame | (m->c.line_addr[l] & (PAGE_SIZE - 1));
        uint8_t mask = m->c.line_mask[l];
        uint32_t size = sector_count(mask) * SECTOR_SIZE;
        sim_time t = l1_slot(s, now + lat), at;
        struct cache_victim v;
        switch (m->access) {
        case REQ_LOAD:
            if (g->l1_enabled && !m->bypass) at = l1_load(s, pa, mask, t);
            else at = l2_at(s, REQ_LOAD, pa, mask, xbar_slot(s, t, 0));
            break;
        case REQ_STORE:
            if (g->l1_enabled) cache_write_present(&s->l1, pa, mask, false);
            at = l2_at(s, REQ_STORE, pa, mask, xbar_slot(s, t, size));
            break;
        case REQ_ATOMIC:
            if (g->l1_enabled) cache_invalidate(&s->l1, pa, &v);
            at = l2_at(s, REQ_ATOMIC, pa, mask, xbar_slot(s, t, size));
            break;
        default:
            sim_panic(s->name, now, "translation request as a line");
        }
        if (at > done) done = at;
        m->pending--;                   /* never the last: the translation still counts */
    }
    m->done_at = done;
    return true;
}

/* Called only from the SM's own tick (translations and line answers are
 * popped there), whose next tick is the earliest of the heap and its own
 * (sm_tick): no wake is needed, and none is paid for per instruction. */
void fast_defer(struct sm *s, struct warp *w, struct minst *m, sim_time now)
{
    (void)now;
    uint64_t id = (uint64_t)(w - s->w) * s->gpu->max_outstanding + (uint64_t)(m - w->mi);
    theap_push(&s->fdone, m->done_at, id);
}

void fast_due(struct sm *s, sim_time now)
{
    uint32_t mo = s->gpu->max_outstanding;
    while (s->fdone.n && s->fdone.e[0].t <= now) {
        struct theap_ent e = theap_pop(&s->fdone);
        struct warp *w = &s->w[e.v / mo];
        struct minst *m = &w->mi[e.v % mo];
        m->done_at = 0;
        warp_mem_done(s, w, m, now);
    }
}

void gpu_set_xlate_hit(struct gpu *g, bool (*fn)(void *ctx, unsigned sm, struct mem_req *r,
                                                 sim_time now, sim_time *at))
{
    g->xlate_hit = fn;
}

void gpu_set_mem_now(struct gpu *g, bool (*fn)(void *ctx, enum req_kind k, uint64_t pa,
                                               uint8_t mask, sim_time sent, sim_time *done),
                     void *ctx)
{
    g->mem_now = fn;
    g->mem_ctx = ctx;
    for (unsigned i = 0; i < g->nsms; i++) fast_sm_init(g, &g->sm[i]);
}

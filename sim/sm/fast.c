/* sim.model fast (issue 41, 2: "the SM pipeline: no per-cycle SM tick;
 * each warp is scheduled at its next issue time; schedulers' issue slots
 * and the L1D port as occupancy counters"; "L1D and L2: tag and sector
 * state kept exactly, fixed hit latencies").
 *
 * When a page of a memory instruction is translated, each of its lines
 * (GPU-homed) is timed at once instead of travelling the SM's queues:
 *  - the L1D lookup gpu.l1d.latency after the translation (the cycle
 *    model's l1q latency), gpu.l1d.ports lookups per cycle (core/slots.h:
 *    each cycle counts its uses);
 *  - the L1D's tags and sectors as l1d.c keeps them (loads allocate,
 *    stores write through without allocating, atomics drop the line); a
 *    miss takes one of gpu.l1d.mshrs registers until its fill is back
 *    (with all taken it waits for the first) and asks the L2 for its
 *    missing sectors; a later load of a line still in flight merges and
 *    is answered with the fill; the fill enters the tags at its time
 *    (core/pfills.h), as l1d_answer does;
 *  - the crossbar input port: one request a cycle, a store's data
 *    ceil(bytes / gpu.xbar.port_bw) cycles (l1d.c's xbar_send), a
 *    calendar of its own (host-homed lines keep l1d.c's);
 *  - the L2 slice (l2_fast.c) and the way back, gpu.xbar.latency.
 * The instruction is answered at its last line's time: one entry in the
 * SM's heap of answers, which wakes the SM then; the SM's tick issues as
 * in the cycle model (its next tick is its warps' next issue time:
 * sched_issue_at), so between answers and issues the SM does not tick.
 * Host-homed lines keep the queues and the link (their registers are
 * l1d.c's, apart from these). */
#include "sm_internal.h"
#include "core/stats.h"

void fast_sm_init(struct gpu *g, struct sm *s)
{
    theap_init(&s->fdone, g->max_warps * g->max_outstanding);
    if (g->l1_enabled) pfills_init(&s->fl1, s->l1.nmshr);
    slots_init(&s->fl1_port, g->l1_ports, s->comp.dom->period);
    slots_init(&s->fxbar, 1, s->comp.dom->period);
}

void fast_sm_free(struct gpu *g, struct sm *s)
{
    if (!g->mem_now) return;
    theap_free(&s->fdone);
    if (g->l1_enabled) pfills_free(&s->fl1);
    slots_free(&s->fl1_port);
    slots_free(&s->fxbar);
}

/* The L1D port: gpu.l1d.ports lookups in each cycle, from t on. */
static sim_time l1_slot(struct sm *s, sim_time t) { return slots_take(&s->fl1_port, t, 1); }

/* The crossbar input port (l1d.c's xbar_send): one request a cycle, a
 * store's data ceil(bytes / gpu.xbar.port_bw) cycles; the send time. */
static sim_time xbar_slot(struct sm *s, sim_time t, uint32_t bytes)
{
    uint32_t cyc = (bytes + s->gpu->xbar_bw - 1) / s->gpu->xbar_bw;
    return slots_take(&s->fxbar, t, cyc ? cyc : 1);
}

static sim_time l2_at(struct sm *s, enum req_kind k, uint64_t pa, uint8_t mask, sim_time sent)
{
    struct gpu *g = s->gpu;
    sim_time done;
    bool ok = g->mem_now(g->mem_ctx, k, pa, mask, sent, &done);
    SIM_ASSERT(ok, s->name, sent, "fast L2 refused GPU-homed line %#llx", (unsigned long long)pa);
    return done + g->xbar_latency;
}

/* A fill enters the tags (write-through: a victim is dropped). */
static void l1_fill(struct sm *s, struct cache_mshr *m)
{
    struct cache_victim v;
    cache_fill(&s->l1, m->line << LINE_SHIFT, m->pending, false, &v);
    pfills_done(&s->fl1, m);
}

/* Fills that have arrived by t, in their order. */
static void l1_fills(struct sm *s, sim_time t)
{
    struct cache_mshr *m;
    sim_time at;
    while ((m = pfills_due(&s->fl1, t, &at))) l1_fill(s, m);
}

/* A load that the L1D may cache, looked up at t: its answer time. */
static sim_time l1_load(struct sm *s, uint64_t pa, uint8_t mask, sim_time t)
{
    struct gpu *g = s->gpu;
    uint64_t la = pa >> LINE_SHIFT << LINE_SHIFT;
    bool tag;
    uint8_t miss = cache_probe(&s->l1, pa, mask, &tag);
    if (!miss) {
        *g->l1_hits += 1;
        g->v.l1_hits[s->id] += 1;
        return t;
    }
    struct cache_mshr *m = pfills_find(&s->fl1, pa);
    if (m) {                            /* its line is on the way: merged */
        *g->l1_merges += 1;
        g->v.l1_merges[s->id] += 1;
        sim_time r = pfills_ready(&s->fl1, m);
        uint8_t extra = (uint8_t)(miss & ~m->pending);
        if (extra) {
            sim_time d = l2_at(s, REQ_LOAD, la, extra, xbar_slot(s, t, 0));
            pfills_wait(&s->fl1, m, extra, d);
            if (d > r) r = d;
        }
        return r;
    }
    sim_time st = t, at = t;
    while (!(m = cache_mshr_alloc(&s->fl1.m, pa))) {
        /* Every register taken: the first fill frees one. */
        struct cache_mshr *f = pfills_due(&s->fl1, TIME_NEVER, &at);
        l1_fill(s, f);
        if (at > st) st = at;
    }
    if (st > t) g->v.l1_mshr_full[s->id] += (st - t) / s->comp.dom->period;
    *g->l1_misses += 1;
    g->v.l1_misses[s->id] += 1;
    if (tag) { *g->l1_sector_misses += 1; g->v.l1_sector_misses[s->id] += 1; }
    sim_time d = l2_at(s, REQ_LOAD, la, miss, xbar_slot(s, st, 0));
    pfills_wait(&s->fl1, m, miss, d);
    return d;
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
        if (g->l1_enabled) l1_fills(s, t);
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

/* The SM's L1 data cache and its crossbar input port.
 *
 * L1D (HPE Table I and batch-aware Table 1: 16 KB, 4-way, LRU; thesis
 * Table 3.1: 3-cycle latency, 64 MSHRs): 128 B lines of four 32 B sectors.
 * A load looks up its sectors; missing sectors are fetched from the L2 by
 * one fill request per MSHR (a later load of the same line merges, and
 * asks only for sectors not yet requested).  Global stores write through
 * and do not allocate (Fermi and Volta L1 behaviour: a present line is
 * updated, the store goes on to the L2).  Atomics are performed at the L2
 * and drop the L1 copy.  A load marked INST_F_BYPASS_L1, or every load
 * with gpu.l1d.bypass (nvcc -dlcm=cg), goes straight to the L2, as does
 * a load of a host-homed line with gpu.l1d.remote_cache false.
 *
 * Crossbar (GPGPU-Sim's SM-to-memory-partition network): each SM's input
 * port sends one request per cycle, a store's data taking
 * ceil(bytes / gpu.xbar.port_bw) cycles; the traversal latency is added on
 * the way to the slice and on the way back. */
#include "sm_internal.h"
#include "core/stats.h"

#define FILL_WARP UINT32_MAX

void l1d_fill(struct sm *s, struct cache_mshr *m, uint8_t mask, uint8_t pending,
              uint8_t flags, sim_time now)
{
    struct mem_req *f = req_alloc(s->gpu->pool);
    f->xflags = flags;
    f->kind = REQ_LOAD;
    f->paddr = f->vaddr = m->line << LINE_SHIFT;
    f->sector_mask = mask;
    f->size = sector_count(mask) * SECTOR_SIZE;
    f->sm = (uint16_t)s->id;
    f->warp = FILL_WARP;
    f->slot = cache_mshr_index(&s->l1, m);
    f->t_issue = now;
    f->reply = &s->mem_resp;
    ring_push(s, &s->oq, f);
    m->pending |= pending;
    m->outstanding++;
}

static void fill_request(struct sm *s, struct cache_mshr *m, uint8_t mask, sim_time now)
{
    l1d_fill(s, m, mask, mask, 0, now);
}

void l1d_access(struct sm *s, struct mem_req *r, sim_time now, bool *stalled)
{
    struct gpu *g = s->gpu;
    const struct minst *mi = &s->w[r->warp].mi[r->slot >> 8];
    *stalled = false;
    if (!g->l1_enabled) { ring_push(s, &s->oq, r); return; }
    struct cache_victim v;
    switch (r->kind) {
    case REQ_LOAD: {
        /* Host-homed lines bypass when the L1D may not cache them, and
         * so does every line selective caching marked uncacheable --
         * unless cacheless coalescing holds it in an MSHR (selcache.c). */
        if (mi->bypass || (!g->l1_remote && (r->paddr & PADDR_HOST))) break;
        if (r->xflags & LINE_NOCACHE) {
            if (!g->sc.coalesce) break;
            *stalled = !selcache_l1_load(s, r, now);
            return;
        }
        bool tag;
        uint8_t miss = cache_probe(&s->l1, r->paddr, r->sector_mask, &tag);
        if (!miss) {
            *g->l1_hits += 1;
            g->v.l1_hits[s->id] += 1;
            line_done(s, r, now);
            return;
        }
        struct cache_mshr *m = cache_mshr_find(&s->l1, r->paddr);
        if (m) {
            uint8_t extra = (uint8_t)(miss & ~m->pending);
            *g->l1_merges += 1;
            g->v.l1_merges[s->id] += 1;
            if (extra) fill_request(s, m, extra, now);
            cache_mshr_wait(m, r);
            return;
        }
        m = cache_mshr_alloc(&s->l1, r->paddr);
        if (!m) {
            g->v.l1_mshr_full[s->id] += 1;
            *stalled = true;
            return;
        }
        *g->l1_misses += 1;
        g->v.l1_misses[s->id] += 1;
        if (tag) { *g->l1_sector_misses += 1; g->v.l1_sector_misses[s->id] += 1; }
        fill_request(s, m, miss, now);
        cache_mshr_wait(m, r);
        return;
    }
    case REQ_STORE:
        cache_write_present(&s->l1, r->paddr, r->sector_mask, false);
        break;
    case REQ_ATOMIC:
        cache_invalidate(&s->l1, r->paddr, &v);
        break;
    case REQ_XLATE:
        sim_panic(s->name, now, "translation request in the L1D");
    }
    ring_push(s, &s->oq, r);
}

void l1d_answer(struct sm *s, struct mem_req *f, sim_time now)
{
    struct cache_mshr *m = &s->l1.m[f->slot];
    struct cache_victim v;
    /* Write-through: L1 lines are never dirty, a victim is dropped.  An
     * answer marked LINE_NOCACHE (a line the remote directory holds) is
     * handed to the waiting loads and not kept. */
    if (!(f->xflags & LINE_NOCACHE) && !m->nocache)
        cache_fill(&s->l1, f->paddr, f->sector_mask, false, &v);
    req_release(s->gpu->pool, f);
    if (--m->outstanding) return;
    struct mem_req *r = m->head;
    /* A cacheless MSHR's latch serves its loads and is discarded. */
    if (m->nocache && s->gpu->sc.l1_line_sectors) selcache_l1_done(s, m);
    cache_mshr_release(&s->l1, m);
    while (r) {
        struct mem_req *n = r->next;
        line_done(s, r, now);
        r = n;
    }
}

bool xbar_send(struct sm *s, sim_time now)
{
    struct mem_req *r = ring_head(&s->oq);
    if (!r || s->xbar_free > now) return false;
    struct mq *q = port_route(&s->mem_out, r->paddr);
    /* Polled, not waited on: the SM may already wait on its TLB queue. */
    if (!mq_push(q, r, now, NULL)) return false;
    ring_drop(&s->oq);
    uint32_t bytes = r->kind == REQ_LOAD ? 0 : r->size;
    uint32_t cycles = (bytes + s->gpu->xbar_bw - 1) / s->gpu->xbar_bw;
    s->xbar_free = now + (sim_time)(cycles ? cycles : 1) * s->comp.dom->period;
    return true;
}

void gpu_invalidate_frame(struct gpu *g, uint64_t pa)
{
    if (!g->l1_enabled) return;
    uint64_t base = pa & ~(PAGE_SIZE - 1);
    for (unsigned i = 0; i < g->nsms; i++)
        for (uint64_t a = base; a < base + PAGE_SIZE && cache_may_hold_frame(&g->sm[i].l1, base);
             a += LINE_SIZE) {
            struct cache_victim v;
            cache_invalidate(&g->sm[i].l1, a, &v);
        }
}

void gpu_invalidate_line(struct gpu *g, uint64_t pa)
{
    if (!g->l1_enabled) return;
    for (unsigned i = 0; i < g->nsms; i++) {
        struct cache_victim v;
        cache_invalidate(&g->sm[i].l1, pa, &v);
    }
}

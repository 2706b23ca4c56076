/* The page walker: up to N concurrent walks (batch-aware paper Sec. 5:
 * a highly threaded walker shared by all SMs, 64 concurrent walks, after
 * Power et al.); walks queue in gmmu_walk_in() while every walker is busy.
 *
 * Two modes.  `fixed` reproduces HPE Sec. III: every walk takes the fixed
 * latency (8 cycles) and reads no memory.  `memory` walks the 4-level
 * radix table: the page-walk cache is probed when the walk is taken
 * (the walk queue's latency is the probe's), the walk starts below the
 * deepest cached upper-level entry, and each remaining level is one 8-byte
 * read sent to the GPU memory port (L2 slices and GDDR, like any other
 * request), one after another, each waiting for the previous one.
 *
 * A walk that finds its page mapped (and may access it) is a walk hit:
 * the HIR records it, replayed accesses' walks included (a replay walks
 * again; docs/decisions.md).  A store on a clean page sets the PTE's
 * dirty bit (docs/decisions.md); otherwise the walk faults: a TLB's walk
 * is answered with a fault NACK (faults.c), a TLB-less client's walk is
 * parked here (gmmu_fault). */
#include <stdlib.h>
#include <stdio.h>
#include "gmmu_internal.h"
#include "core/stats.h"
#include "trace/trace.h"

void gmmu_answer(struct gmmu *g, struct mem_req *r, const struct pte *p, sim_time now)
{
    (void)g;
    uint8_t shift = p->shift ? p->shift : PAGE_SHIFT;
    uint64_t vpn = page_of(r->vaddr);
    uint64_t base_vpn = vpn & ~((1ULL << (shift - PAGE_SHIFT)) - 1);
    uint64_t pbase = (pte_pfn(p) - (vpn - base_vpn)) << PAGE_SHIFT;
    if (p->flags & PTE_REMOTE) pbase |= PADDR_HOST;
    uint64_t size = 1ULL << shift;
    r->paddr = pbase | (r->vaddr & (size - 1));
    r->size = (uint32_t)size;
    r->xflags = (uint8_t)((p->flags & PTE_DIRTY ? XLATE_DIRTY : 0) |
                          (p->flags & PTE_READONLY ? XLATE_READONLY : 0) |
                          (p->flags & PTE_REMOTE ? XLATE_REMOTE : 0));
    if (!mq_push(r->reply, r, now, NULL))
        sim_panic("gmmu", now, "reply queue '%s' full", r->reply->name);
}

static bool is_write(const struct mem_req *r) { return r->access != REQ_LOAD; }

/* The walk of r has read its last entry. */
static void finish(struct gmmu *g, uint32_t slot, struct mem_req *r, sim_time start, sim_time now)
{
    *g->walks += 1;
    stat_hist_add(g->walk_lat, (now - start) / g->dom->period);
    uint64_t vpn = page_of(r->vaddr);
    struct pte *p = pt_get(&g->pt, vpn);
    bool mapped = p->flags & (PTE_PRESENT | PTE_REMOTE);
    bool fault = !mapped || (is_write(r) && (p->flags & PTE_READONLY));
    if (TRACE_ON(TW_FAULTS | TW_WALKS)) trace_walk(slot, vpn, r->sm, start, now, fault);
    if (fault) {
        if (!(r->xflags & XLATE_WANT_NACK)) {   /* a client with no TLB */
            gmmu_fault(g, r, now);
            return;
        }
        /* The fault NACK: no translation; the TLBs free their MSHRs and
         * the L1s hand their accesses to gmmu_utlb_fault. */
        r->paddr = 0;
        r->size = 0;
        r->xflags = (uint8_t)(XLATE_FAULT | (mapped ? XLATE_READONLY : 0));
        if (!mq_push(r->reply, r, now, NULL))
            sim_panic("gmmu", now, "reply queue '%s' full", r->reply->name);
        return;
    }
    *g->walk_hits += 1;
    /* The sharers list: the GPU may now cache this translation.  A large
     * page's entry covers its base too (gmmu_referenced looks there). */
    p->flags |= PTE_REFERENCED;
    if (p->shift > PAGE_SHIFT)
        pt_get(&g->pt, vpn & ~((1ULL << (p->shift - PAGE_SHIFT)) - 1))->flags |= PTE_REFERENCED;
    if (is_write(r) && !(p->flags & PTE_DIRTY)) {
        p->flags |= PTE_DIRTY;
        *g->dirty_sets += 1;
        if (g->dirty_hook) g->dirty_hook(g->dirty_ctx, vpn);
    }
    /* The eviction policy's walk-hit feed (HPE Sec. V-B's "ideal model":
     * page walk hits and page faults in the exact reference order).  By
     * default it counts each program reference once: the walk of a
     * replayed access is the reference that faulted, already given to the
     * policy as its fault (on_resident), so it is no hit (fed, RRIP-FP's
     * frequency priority lifts every newcomer from distant to long at once
     * and CLOCK-Pro finds every newcomer re-referenced in its test
     * period).  The paper's words also read as every walk that hits,
     * which is what its HIR records for HPE: driver.evict.replay_walks
     * feed (issue 42). */
    if (g->hit_hook && (p->flags & PTE_PRESENT) && (g->hit_replayed || !(r->xflags & XLATE_REPLAYED)))
        g->hit_hook(g->hit_ctx, vpn, now);
    if (g->rwalk_hook && (p->flags & PTE_REMOTE)) g->rwalk_hook(g->rwalk_ctx, vpn, now);
    if (g->hir_on && (p->flags & PTE_PRESENT)) {
        if (hir_touch(&g->hir, vpn)) *g->hir_records += 1;
        else *g->hir_lost += 1;
    }
    gmmu_answer(g, r, p, now);
}

static void free_slot(struct gmmu *g, uint32_t s)
{
    g->slot[s].r = NULL;
    g->free_slot[g->nfree++] = s;
}

static void push_read(struct gmmu *g, struct mem_req *m, sim_time now)
{
    if (!g->out_n) {
        struct mq *q = port_route(&g->mem, m->paddr);
        if (mq_push(q, m, now, &g->comp)) return;
    }
    g->outq[(g->out_head + g->out_n++) % g->nwalkers] = m;
}

/* Reads refused by a full memory queue, in order; false if still blocked. */
static bool flush_reads(struct gmmu *g, sim_time now)
{
    while (g->out_n) {
        struct mem_req *m = g->outq[g->out_head];
        if (!mq_push(port_route(&g->mem, m->paddr), m, now, &g->comp)) return false;
        g->out_head = (g->out_head + 1) % g->nwalkers;
        g->out_n--;
    }
    return true;
}

static void send_read(struct gmmu *g, uint32_t s, sim_time now)
{
    struct walk_slot *w = &g->slot[s];
    uint64_t entry[PT_LEVELS + 1];
    pt_walk_path(&g->pt, page_of(w->r->vaddr), entry);
    struct mem_req *m = req_alloc(g->pool);
    m->kind = REQ_LOAD;
    m->access = REQ_LOAD;
    m->vaddr = m->paddr = entry[w->level];
    m->size = 8;
    m->sector_mask = (uint8_t)(1u << ((m->paddr & (LINE_SIZE - 1)) / SECTOR_SIZE));
    m->xflags = 0;
    m->sm = w->r->sm;
    m->warp = w->r->warp;
    m->slot = s;
    m->t_issue = now;
    m->reply = &g->mem_resp;
    *g->pte_reads += 1;
    push_read(g, m, now);
}

/* A PTE read of slot s came back. */
static void step(struct gmmu *g, uint32_t s, sim_time now)
{
    struct walk_slot *w = &g->slot[s];
    if (w->level <= w->last || w->level == 1) {
        finish(g, s, w->r, w->start, now);
        free_slot(g, s);
        return;
    }
    /* An upper-level entry pointing to the next table: worth caching. */
    if (g->pwc_on) pwc_insert(&g->pwc, page_of(w->r->vaddr), w->level);
    w->level--;
    send_read(g, s, now);
}

static void start(struct gmmu *g, struct mem_req *r, sim_time now)
{
    uint32_t s = g->free_slot[--g->nfree];
    struct walk_slot *w = &g->slot[s];
    *w = (struct walk_slot){ r, now, 0, 0 };
    stat_avg_add(g->walk_queue, (double)(now - r->t_issue));
    uint64_t vpn = page_of(r->vaddr);
    SIM_ASSERT(vpn >> (PT_LEVELS * PT_BITS) == 0, "gmmu", now,
               "address %#llx beyond the 48-bit virtual address space",
               (unsigned long long)r->vaddr);
    if (g->fixed) {
        g->busy[(g->busy_head + g->nbusy++) % g->nwalkers] = s;
        return;
    }
    w->level = PT_LEVELS;
    for (unsigned k = 2; g->pwc_on && k <= PT_LEVELS; k++)
        if (pwc_lookup(&g->pwc, vpn, k)) {
            w->level = (uint8_t)(k - 1);
            *g->pwc_hits += 1;
            break;
        }
    uint64_t entry[PT_LEVELS + 1];
    unsigned lowest = pt_walk_path(&g->pt, vpn, entry);
    w->last = (uint8_t)lowest;
    if (lowest == 1) {
        const struct pte *p = pt_find(&g->pt, vpn);
        if ((p->flags & (PTE_PRESENT | PTE_REMOTE)) && p->shift == 21) w->last = 2;
    }
    send_read(g, s, now);
}

static sim_time walker_tick(struct component *c, sim_time now)
{
    struct gmmu *g = (struct gmmu *)c;
    struct mem_req *m;
    while ((m = mq_pop(&g->mem_resp, now))) {
        uint32_t s = m->slot;
        req_release(g->pool, m);
        step(g, s, now);
    }
    while (g->nbusy) {
        uint32_t s = g->busy[g->busy_head];
        if (g->slot[s].start + g->fixed_lat > now) break;
        g->busy_head = (g->busy_head + 1) % g->nwalkers;
        g->nbusy--;
        finish(g, s, g->slot[s].r, g->slot[s].start, now);
        free_slot(g, s);
    }
    flush_reads(g, now);
    struct mem_req *r;
    while (g->nfree && (r = mq_pop(&g->walk_in, now))) start(g, r, now);
    /* Fixed-mode walks complete in start order; memory-mode reads wake us
     * through mem_resp, and a full memory queue through its wait list. */
    sim_time next = TIME_NEVER;
    if (g->nbusy) next = g->slot[g->busy[g->busy_head]].start + g->fixed_lat;
    if (g->nfree && g->walk_in.n) {
        sim_time q = mq_next_ready(&g->walk_in);
        if (q <= now) q = now + c->dom->period;
        if (q < next) next = q;
    }
    sim_time f = mq_next_ready(&g->mem_resp);
    return f < next ? f : next;
}

static void walker_dump(struct component *c, FILE *out)
{
    struct gmmu *g = (struct gmmu *)c;
    fprintf(out, "    %u walks queued, %u of %u walkers busy, %u PTE reads waiting for memory; "
            "%u faults in buffer, %u waiting for room; %llu accesses parked in %llu uTLB "
            "fault records%s\n",
            g->walk_in.n, g->nwalkers - g->nfree, g->nwalkers, g->out_n, g->fb.n,
            g->fb.nwait, (unsigned long long)g->parked, (unsigned long long)g->nrecs,
            g->deferred ? " (replay at the driver's signal)" : "");
    for (uint32_t i = 0; i < g->walk_in.n && i < 8; i++) req_dump(out, mq_at(&g->walk_in, i));
    for (uint32_t i = 0; i < g->nwalkers; i++) {
        const struct walk_slot *w = &g->slot[i];
        if (!w->r) continue;
        fprintf(out, "    walker %u: since %llu ps, level %u\n", i,
                (unsigned long long)w->start, w->level);
        req_dump(out, w->r);
    }
    unsigned k = 0;
    for (const struct fault_rec *f = g->live_head; f && k < 16; f = f->lnext, k++) {
        fprintf(out, "    parked: page %#llx %s%s sm %u, %u accesses, %s\n",
                (unsigned long long)f->vpn, req_kind_name(f->access),
                f->protection ? " (protection)" : "", f->sm, f->n,
                f->logged ? "entry written" : "waiting for buffer room");
        if (f->head) req_dump(out, f->head);
    }
    for (uint32_t i = 0; i < g->fb.n && i < 16; i++) {
        const struct fault_entry *f = &g->fb.e[(g->fb.head + i) % g->fb.cap];
        fprintf(out, "    fault page %#llx %s%s sm %u at %llu ps\n",
                (unsigned long long)f->vpn, req_kind_name(f->access),
                f->protection ? " (protection)" : "", f->sm, (unsigned long long)f->t);
    }
}

const struct comp_ops gmmu_walker_ops = { walker_tick, walker_dump };

/* Fault logging, as the real GPU's uTLBs do it (replayable far faults,
 * HPE Sec. III after Zheng et al.; the real driver reads the uTLB of
 * every entry, fault_source.utlb_id, uvm_gpu_replayable_faults.c).
 *
 * A walk that faults is answered to its TLB with a fault NACK; the L2 TLB
 * frees its MSHR and forwards the NACK to every L1 miss merged into it;
 * each L1 TLB frees its MSHR and hands its waiting accesses here
 * (gmmu_utlb_fault).  The GMMU keeps one record per uTLB, page and access
 * need: the first hand-over writes one fault-buffer entry, later ones
 * (other warps of the same SM re-missing on the page) join the record
 * without a new entry.  So a page faulted by k SMs has k entries in the
 * buffer and the driver's coalescing removes k - 1 of them, as on the
 * real GPU, and outstanding faults hold no TLB MSHR: nothing but the
 * fault buffer bounds them.  The accesses stay parked in their record
 * until a replay (replay.c) re-executes them.
 *
 * The driver is interrupted `gmmu.interrupt_latency` after an entry is
 * written.  A full buffer holds the record back (it waits, FIFO) and stops
 * its SM's translation until the driver drains (HPE Sec. II).  Every 16th
 * unique fault (a page's first entry while it is absent) hands the HIR to
 * the driver (HPE Sec. IV-B, V-A). */
#include <stdlib.h>
#include "gmmu_internal.h"
#include "core/stats.h"
#include "trace/trace.h"

#define REC_CHUNK 256

static struct fault_rec *rec_alloc(struct gmmu *g)
{
    if (!g->rec_free) {
        struct fault_rec *c = xcalloc(REC_CHUNK, sizeof *c);
        g->rec_chunks = xrealloc(g->rec_chunks, (g->rec_nchunks + 1) * sizeof *g->rec_chunks);
        g->rec_chunks[g->rec_nchunks++] = c;
        for (size_t i = 0; i < REC_CHUNK; i++) {
            c[i].next = g->rec_free;
            g->rec_free = &c[i];
        }
    }
    struct fault_rec *f = g->rec_free;
    g->rec_free = f->next;
    *f = (struct fault_rec){0};
    return f;
}

void gmmu_rec_free(struct gmmu *g, struct fault_rec *f)
{
    f->next = g->rec_free;
    g->rec_free = f;
}

bool gmmu_allows(const struct pte *p, enum req_kind access)
{
    return (p->flags & (PTE_PRESENT | PTE_REMOTE)) &&
           !(access != REQ_LOAD && (p->flags & PTE_READONLY));
}

static void live_append(struct gmmu *g, struct fault_rec *f)
{
    f->lnext = NULL;
    f->lprev = g->live_tail;
    if (g->live_tail) g->live_tail->lnext = f;
    else g->live_head = f;
    g->live_tail = f;
    g->nrecs++;
}

struct fault_rec *gmmu_page_recs(const struct gmmu *g, uint64_t vpn, const struct pte *p)
{
    if (!(p->flags & PTE_RECS)) return NULL;
    return fp_find(&g->fpages, vpn)->recs;
}

void gmmu_page_tidy(struct gmmu *g, uint64_t vpn, const struct pte *p)
{
    if (!(p->flags & (PTE_RECS | PTE_FAULTED))) fp_erase(&g->fpages, vpn);
}

void gmmu_page_unlink(struct gmmu *g, struct fault_rec *f)
{
    struct pte *p = pt_find(&g->pt, f->vpn);
    struct fault_page *e = fp_find(&g->fpages, f->vpn);
    SIM_ASSERT(e && (p->flags & PTE_RECS), "gmmu", engine_now(g->comp.eng),
               "fault record of page %#llx not on its page", (unsigned long long)f->vpn);
    struct fault_rec **pp = &e->recs;
    while (*pp != f) pp = &(*pp)->next;
    *pp = f->next;
    f->next = NULL;
    if (!e->recs) {
        p->flags &= (uint8_t)~PTE_RECS;
        gmmu_page_tidy(g, f->vpn, p);
    }
}

void gmmu_rec_detach(struct gmmu *g, struct fault_rec *f)
{
    gmmu_page_unlink(g, f);
    if (f->lprev) f->lprev->lnext = f->lnext;
    else g->live_head = f->lnext;
    if (f->lnext) f->lnext->lprev = f->lprev;
    else g->live_tail = f->lprev;
    g->nrecs--;
    g->parked -= f->n;
}

static void set_occupancy(struct gmmu *g)
{
    *g->fb_occ = g->fb.n;
    if (g->fb.n > *g->fb_max) *g->fb_max = g->fb.n;
}

/* Write the record's entry. */
static void log_entry(struct gmmu *g, struct fault_rec *f, sim_time now)
{
    struct fault_entry e = { f->vpn, f->access, f->sm, f->protection, now };
    fb_push(&g->fb, &e);
    f->logged = true;
    set_occupancy(g);
    *g->faults += 1;
    if (f->protection) *g->prot_faults += 1;
    if (g->driver) comp_wake_at(g->driver, now + g->irq_latency);
    struct pte *p = pt_find(&g->pt, f->vpn);
    if (TRACE_ON(TW_FAULTS | TW_COUNTERS))
        trace_fault(f->vpn, f->sm, f->write, !f->protection && !(p->flags & PTE_FAULTED), g->fb.n, now);
    if (f->protection || (p->flags & PTE_FAULTED)) return;
    /* A unique fault: the page's first entry since it became absent (not
     * a replayed access faulting again, nor another uTLB's duplicate). */
    p->flags |= PTE_FAULTED;
    fp_get(&g->fpages, f->vpn)->t_fault = now;
    *g->unique_faults += 1;
    /* HPE Sec. IV-B / V-A: the HIR goes to the driver every 16th fault. */
    if (g->hir_on && ++g->faults_since_xfer >= g->hir_every) {
        g->faults_since_xfer = 0;
        gmmu_hir_transfer(g, now);
    }
}

static void wait_for_room(struct gmmu *g, struct fault_rec *f, sim_time now)
{
    if (!g->fb.nwait) g->stall_start = now;
    fb_wait(&g->fb, f);
    *g->fb_waited += 1;
    if (g->fb.wait_of_sm[f->sm] == 1 && g->stall_hook)
        g->stall_hook(g->stall_ctx, f->sm, true, now);
}

/* Park the accesses `reqs` (one page, one access need) of uTLB `sm`.
 * Whether the fault is a protection fault is read from the PTE now: the
 * driver may have changed it since the walk. */
static void park(struct gmmu *g, unsigned sm, struct mem_req *reqs, bool tlb, sim_time now)
{
    SIM_ASSERT(sm < FB_MAX_SMS, "gmmu", now, "fault from SM %u (at most %u)", sm, FB_MAX_SMS);
    uint64_t vpn = page_of(reqs->vaddr);
    bool write = reqs->access != REQ_LOAD, fresh = false;
    struct pte *p = pt_get(&g->pt, vpn);
    if (gmmu_allows(p, reqs->access)) {
        /* Mapped since the walk found it absent: nothing to log, the
         * accesses re-execute at once. */
        struct fault_rec tmp = { .vpn = vpn, .sm = (uint16_t)sm, .tlb = tlb,
                                 .head = reqs, .access = reqs->access };
        gmmu_rec_replay(g, &tmp, now);
        return;
    }
    struct fault_rec *f = gmmu_page_recs(g, vpn, p);
    while (f && (f->sm != sm || f->write != write || f->tlb != tlb)) f = f->next;
    bool created = !f;
    if (created) {
        f = rec_alloc(g);
        f->vpn = vpn;
        f->sm = (uint16_t)sm;
        f->write = write;
        f->protection = (p->flags & (PTE_PRESENT | PTE_REMOTE)) != 0;
        f->tlb = tlb;
        f->access = reqs->access;
        struct fault_page *e = fp_get(&g->fpages, vpn);
        f->next = e->recs;
        e->recs = f;
        p->flags |= PTE_RECS;
        live_append(g, f);
    } else {
        *g->utlb_merges += 1;
    }
    for (struct mem_req *r = reqs, *n; r; r = n) {
        n = r->next;
        r->next = NULL;
        fresh = fresh || !(r->xflags & XLATE_REPLAYED);
        if (req_intrusiveness(r->access) > req_intrusiveness(f->access) && !f->logged)
            f->access = r->access;
        if (f->tail) f->tail->next = r;
        else f->head = r;
        f->tail = r;
        f->n++;
        g->parked++;
    }
    if (!created) return;
    if (fresh) {
        if (g->fault_hook) g->fault_hook(g->fault_ctx, sm, vpn, now);
    } else {
        *g->refaults += 1;
    }
    if (!fb_full(&g->fb) && !g->fb.nwait) log_entry(g, f, now);
    else wait_for_room(g, f, now);
}

void gmmu_utlb_fault(void *gmmu, unsigned sm, struct mem_req *reqs, sim_time now)
{
    park(gmmu, sm, reqs, true, now);
}

void gmmu_fault(struct gmmu *g, struct mem_req *r, sim_time now)
{
    r->next = NULL;
    park(g, r->sm, r, false, now);
}

void gmmu_fault_drained(struct gmmu *g, sim_time now)
{
    set_occupancy(g);
    if (TRACE_ON(TW_COUNTERS)) trace_fault_buffer(g->fb.n, now);
    bool was_waiting = g->fb.nwait != 0;
    struct fault_rec *f;
    while (!fb_full(&g->fb) && (f = fb_unwait(&g->fb))) {
        if (!g->fb.wait_of_sm[f->sm] && g->stall_hook)
            g->stall_hook(g->stall_ctx, f->sm, false, now);
        /* The driver may have mapped the page while this fault waited:
         * then it is not logged, and its accesses re-execute. */
        if (gmmu_allows(pt_find(&g->pt, f->vpn), f->access)) {
            gmmu_rec_detach(g, f);
            gmmu_rec_replay(g, f, now);
            gmmu_rec_free(g, f);
        } else {
            log_entry(g, f, now);
        }
    }
    if (was_waiting && !g->fb.nwait)
        *g->fb_stall += (now - g->stall_start) / g->dom->period;
}

/* Fault logging: one fault-buffer entry per faulting walk, the walk parked
 * on its PTE until the driver maps the page (replayable far faults, HPE
 * Sec. III after Zheng et al.), the driver interrupted after
 * `gmmu.interrupt_latency`.  A full buffer holds the fault back and stops
 * its SM's translation (fault_buffer.c) until the driver drains. */
#include "gmmu_internal.h"
#include "../stats.h"
#include "../trace/trace.h"

static void set_occupancy(struct gmmu *g)
{
    *g->fb_occ = g->fb.n;
    if (g->fb.n > *g->fb_max) *g->fb_max = g->fb.n;
}

static void log_fault(struct gmmu *g, struct mem_req *r, bool protection, sim_time now)
{
    uint64_t vpn = page_of(r->vaddr);
    struct fault_entry e = { vpn, r->access, r->sm, protection, now };
    fb_push(&g->fb, &e);
    set_occupancy(g);
    *g->faults += 1;
    if (protection) *g->prot_faults += 1;
    struct pte *p = pt_get(&g->pt, vpn);
    if (TRACE_ON(TW_FAULTS | TW_COUNTERS))
        trace_fault(vpn, r->sm, r->access != REQ_LOAD, !p->waiters, g->fb.n, now);
    if (!p->waiters) {
        if (!g->relogging) p->t_fault = now;
        if (g->deferred) gmmu_park_page(g, vpn);
    }
    r->next = p->waiters;
    p->waiters = r;
    g->parked++;
    /* A replayed access faulting again: its warps are already stalled. */
    if (g->fault_hook && !g->relogging) g->fault_hook(g->fault_ctx, r->sm, vpn, now);
    if (g->driver) comp_wake_at(g->driver, now + g->irq_latency);
    /* HPE Sec. IV-B / V-A: the HIR goes to the driver every 16th fault. */
    if (g->hir_on && ++g->faults_since_xfer >= g->hir_every) {
        g->faults_since_xfer = 0;
        gmmu_hir_transfer(g, now);
    }
}

void gmmu_fault(struct gmmu *g, struct mem_req *r, bool protection, sim_time now)
{
    if (!fb_full(&g->fb) && !g->fb.nwait) {
        log_fault(g, r, protection, now);
        return;
    }
    if (!g->fb.nwait) g->stall_start = now;
    fb_wait(&g->fb, r);
    *g->fb_waited += 1;
    if (g->fb.wait_of_sm[r->sm] == 1 && g->stall_hook)
        g->stall_hook(g->stall_ctx, r->sm, true, now);
}

void gmmu_fault_drained(struct gmmu *g, sim_time now)
{
    set_occupancy(g);
    if (TRACE_ON(TW_COUNTERS)) trace_fault_buffer(g->fb.n, now);
    bool was_waiting = g->fb.nwait != 0;
    struct mem_req *r;
    while (!fb_full(&g->fb) && (r = fb_unwait(&g->fb))) {
        if (!g->fb.wait_of_sm[r->sm] && g->stall_hook)
            g->stall_hook(g->stall_ctx, r->sm, false, now);
        /* The driver may have mapped the page while this fault waited. */
        struct pte *p = pt_get(&g->pt, page_of(r->vaddr));
        bool mapped = p->flags & (PTE_PRESENT | PTE_REMOTE);
        bool denied = r->access != REQ_LOAD && (p->flags & PTE_READONLY);
        if (mapped && !denied) {
            if (r->access != REQ_LOAD) p->flags |= PTE_DIRTY;
            gmmu_answer(g, r, p, now);
        } else {
            log_fault(g, r, mapped, now);
        }
    }
    if (was_waiting && !g->fb.nwait)
        *g->fb_stall += (now - g->stall_start) / g->dom->period;
}

/* The replay.  On the real GPU a faulting access waits in its uTLB until
 * the driver issues a replay (uvm_gpu_replayable_faults.c,
 * push_replay_on_gpu); the replayed accesses are translated again, and
 * those whose page is still absent fault again with a new buffer entry.
 * Here the parked accesses of a record re-enter translation at their SM's
 * L1 TLB (the replay hook, tlb_replay): they miss (a fault installs no
 * entry), walk again and fill the TLBs, or fault again.  The accesses of a
 * client with no TLB are answered by the GMMU when their page allows
 * them, else they fault again here.
 *
 * With gmmu_defer_replay() the driver's signal (gmmu_replay) replays every
 * record whose entry was written; without it, mapping a page (or lifting
 * its protection) releases the records parked on it at once.  Records
 * still waiting for buffer room are left alone (the driver has not seen
 * them), except by a flush (the batch_flush replay policy), which empties
 * the buffer and discards them too: all their accesses are replayed and
 * fault again if their page is still absent, so no fault is lost. */
#include <stdlib.h>
#include "gmmu_internal.h"
#include "core/stats.h"

void gmmu_defer_replay(struct gmmu *g, bool on) { g->deferred = on; }

void gmmu_set_replay_hook(struct gmmu *g, gmmu_replay_hook fn, void *ctx)
{
    g->replay_hook = fn;
    g->replay_ctx = ctx;
}

void gmmu_rec_replay(struct gmmu *g, struct fault_rec *f, sim_time now)
{
    struct mem_req *r = f->head;
    f->head = f->tail = NULL;
    if (f->tlb) {
        SIM_ASSERT(g->replay_hook, "gmmu", now, "accesses of SM %u to replay but no TLB to "
                   "replay them into", f->sm);
        for (struct mem_req *q = r; q; q = q->next) {
            q->xflags = XLATE_REPLAYED;
            *g->replayed += 1;
        }
        g->replay_hook(g->replay_ctx, f->sm, r, now);
        return;
    }
    while (r) {
        struct mem_req *n = r->next;
        r->next = NULL;
        *g->replayed += 1;
        struct pte *p = pt_get(&g->pt, page_of(r->vaddr));
        if (gmmu_allows(p, r->access)) {
            /* The replayed access sets the dirty bit as a walk would. */
            if (r->access != REQ_LOAD && !(p->flags & PTE_DIRTY)) {
                p->flags |= PTE_DIRTY;
                if (g->dirty_hook) g->dirty_hook(g->dirty_ctx, page_of(r->vaddr));
            }
            gmmu_answer(g, r, p, now);
        } else {
            r->xflags = XLATE_REPLAYED;
            gmmu_fault(g, r, now);
        }
        r = n;
    }
}

/* Not deferred: the page's mapping (or protection) changed; its records
 * whose access it now allows are released. */
void gmmu_release_page(struct gmmu *g, uint64_t vpn, sim_time now)
{
    const struct pte *p = pt_find(&g->pt, vpn);
    struct fault_rec *f = gmmu_page_recs(g, vpn, p);
    while (f) {
        struct fault_rec *n = f->next;
        if (f->logged && gmmu_allows(p, f->access)) {
            gmmu_rec_detach(g, f);
            gmmu_rec_replay(g, f, now);
            gmmu_rec_free(g, f);
        }
        f = n;
    }
}

/* A flush also discards the faults waiting for room (the driver has not
 * seen them either): their accesses are replayed with the others and
 * fault again behind them, and their SMs' translation resumes.  So, as on
 * the real GPU, whose fault buffer delivers nothing while it overflows
 * (uvm_turing_fault_buffer.c) and relies on the replay, a flushing replay
 * leaves nothing pending but what the replayed accesses raise anew. */
static void discard_waiting(struct gmmu *g, sim_time now)
{
    bool was_waiting = g->fb.nwait != 0;
    struct fault_rec *f;
    while ((f = fb_unwait(&g->fb)))
        if (!g->fb.wait_of_sm[f->sm] && g->stall_hook)
            g->stall_hook(g->stall_ctx, f->sm, false, now);
    if (was_waiting) *g->fb_stall += (now - g->stall_start) / g->dom->period;
}

size_t gmmu_replay(struct gmmu *g, bool flush, sim_time now)
{
    *g->replays += 1;
    if (flush) {
        size_t n = 0;
        while (g->fb.n) { fb_pop(&g->fb); n++; }
        *g->flushed += n;
        discard_waiting(g, now);
    }
    /* Take the parked list: records raised during the replay (a TLB-less
     * client's accesses faulting again) join a fresh one. */
    struct fault_rec *f = g->live_head;
    g->live_head = g->live_tail = NULL;
    uint64_t n = g->nrecs;
    g->nrecs = 0;
    size_t replayed = 0;
    while (f) {
        struct fault_rec *next = f->lnext;
        if (!f->logged && !flush) {         /* back on the list, in order */
            f->lprev = g->live_tail;
            f->lnext = NULL;
            if (g->live_tail) g->live_tail->lnext = f;
            else g->live_head = f;
            g->live_tail = f;
            g->nrecs++;
        } else {
            /* Detach by hand: it is on no live list now. */
            gmmu_page_unlink(g, f);
            g->parked -= f->n;
            replayed += f->n;
            gmmu_rec_replay(g, f, now);
            gmmu_rec_free(g, f);
        }
        n--;
        f = next;
    }
    SIM_ASSERT(n == 0, "gmmu", now, "parked-record list out of count");
    /* Faults that waited for room get the room the flush made, in order. */
    gmmu_fault_drained(g, now);
    if (replayed) engine_progress(g->comp.eng);
    return replayed;
}

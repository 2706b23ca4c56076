/* The replay signal.  On the real GPU a faulting access stalls in its
 * uTLB until the driver issues a replay (uvm_gpu_replayable_faults.c,
 * push_replay_on_gpu); the replayed accesses walk again, and those whose
 * page is still absent fault again with a new buffer entry.  With
 * gmmu_defer_replay() the GMMU models that: mapping a page no longer
 * answers its parked walks; gmmu_replay() answers every parked walk whose
 * page now allows the access and re-logs one entry per other parked walk.
 * With flush (the batch_flush replay policy) the fault buffer is emptied
 * first: the discarded entries' walks stay parked and fault again at this
 * replay, so no fault is lost. */
#include <stdlib.h>
#include "gmmu_internal.h"
#include "../stats.h"

void gmmu_defer_replay(struct gmmu *g, bool on) { g->deferred = on; }

void gmmu_park_page(struct gmmu *g, uint64_t vpn)
{
    if (g->pk_n == g->pk_cap) {
        g->pk_cap = g->pk_cap ? 2 * g->pk_cap : 256;
        g->pk = xrealloc(g->pk, g->pk_cap * sizeof *g->pk);
        g->pk_tmp = xrealloc(g->pk_tmp, g->pk_cap * sizeof *g->pk_tmp);
    }
    g->pk[g->pk_n++] = vpn;
}

size_t gmmu_replay(struct gmmu *g, bool flush, sim_time now)
{
    *g->replays += 1;
    if (flush) {
        /* Not drained yet: faults waiting for room must not be logged
         * before the replay, or their walks would be re-logged twice. */
        size_t n = 0;
        while (g->fb.n) { fb_pop(&g->fb); n++; }
        *g->flushed += n;
    }
    /* Take the list: re-logged walks park again onto a fresh one. */
    uint64_t *list = g->pk;
    size_t n = g->pk_n;
    g->pk = g->pk_tmp;
    g->pk_tmp = list;
    g->pk_n = 0;
    size_t answered = 0;
    g->relogging = true;
    for (size_t i = 0; i < n; i++) {
        struct pte *p = pt_find(&g->pt, list[i]);
        struct mem_req *r = p->waiters;
        p->waiters = NULL;
        bool mapped = p->flags & (PTE_PRESENT | PTE_REMOTE);
        if (mapped && r) stat_avg_add(g->fault_wait, (double)(now - p->t_fault));
        while (r) {
            struct mem_req *next = r->next;
            r->next = NULL;
            g->parked--;
            bool denied = r->access != REQ_LOAD && (p->flags & PTE_READONLY);
            if (mapped && !denied) {
                if (r->access != REQ_LOAD) p->flags |= PTE_DIRTY;
                gmmu_answer(g, r, p, now);
                answered++;
            } else {
                *g->refaults += 1;
                gmmu_fault(g, r, mapped, now);
            }
            r = next;
        }
    }
    g->relogging = false;
    /* Re-raised faults queued behind earlier waiters; room goes in order. */
    gmmu_fault_drained(g, now);
    if (answered) engine_progress(g->comp.eng);
    return answered;
}

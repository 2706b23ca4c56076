/* Frames whose evicted page's write-back is still on the link: a bit per
 * frame, and per D2H write-back transfer the frames it frees (mem.h).  No
 * migration may copy into a frame still marked (batch-aware Sec. 4.2: a
 * new page never overwrites one not yet evicted; drv_ue.c). */
#include <stdlib.h>
#include "mem.h"

#define NO_REC UINT32_MAX

void wb_init(struct wb_track *w, uint64_t frames)
{
    w->busy = xcalloc(frames / 64 + 1, sizeof *w->busy);
    w->free_head = NO_REC;
}

void wb_free(struct wb_track *w)
{
    for (uint32_t i = 0; i < w->nrec; i++) free(w->rec[i].pfn);
    free(w->rec);
    free(w->busy);
}

uint64_t wb_begin(struct wb_track *w, const uint64_t *pfn, unsigned n, sim_time now)
{
    uint32_t id = w->free_head;
    if (id == NO_REC) {
        w->rec = xrealloc(w->rec, (w->nrec + 1) * sizeof *w->rec);
        w->rec[w->nrec] = (struct wb_rec){ NULL, 0, 0, NO_REC };
        id = w->nrec++;
    } else {
        w->free_head = w->rec[id].next;
    }
    struct wb_rec *r = &w->rec[id];
    if (r->cap < n) {
        r->pfn = xrealloc(r->pfn, n * sizeof *r->pfn);
        r->cap = n;
    }
    r->n = n;
    for (unsigned i = 0; i < n; i++) {
        SIM_ASSERT(!wb_busy(w, pfn[i]), "driver", now,
                   "frame %llu evicted again while its write-back is in flight",
                   (unsigned long long)pfn[i]);
        w->busy[pfn[i] / 64] |= 1ULL << (pfn[i] % 64);
        r->pfn[i] = pfn[i];
    }
    return id;
}

void wb_end(struct wb_track *w, uint64_t id, sim_time now)
{
    SIM_ASSERT(id < w->nrec, "driver", now, "write-back %llu unknown", (unsigned long long)id);
    struct wb_rec *r = &w->rec[id];
    for (uint32_t i = 0; i < r->n; i++) w->busy[r->pfn[i] / 64] &= ~(1ULL << (r->pfn[i] % 64));
    r->n = 0;
    r->next = w->free_head;
    w->free_head = (uint32_t)id;
}

/* How an eviction's write-back is ordered against the migrations that need
 * frames (driver.eviction_timing), and which frames still have a
 * write-back on the link.
 *
 *   block        a VA block's copies start when the write-backs of the
 *                evictions made for it have landed; a later block's
 *                evictions run beside earlier blocks' copies (drv_block.c);
 *   serial       the batch-aware paper's baseline (Kim et al., ASPLOS 2020,
 *                Sec. 3, Fig. 4): the runtime evicts when an allocation
 *                fails and the migration waits for the eviction to finish,
 *                so evictions and migrations never overlap: an eviction
 *                starts only when the batch's copies in flight have landed
 *                (drv_block.c fill_paged);
 *   unobtrusive  Sec. 4.2, Fig. 9-10: when a batch starts with GPU memory
 *                at capacity (the runtime's memory status tracker, read by
 *                the top-half ISR) one page is evicted at once, its
 *                write-back overlapping the fault-handling time; each
 *                migration takes the frame evicted ahead once its
 *                write-back has landed, and the next eviction starts beside
 *                it on the other direction of the full-duplex link (eviction
 *                k+1 with migration k), so one free frame is always being
 *                made ahead of the migration stream;
 *   ideal        Sec. 4.2, Fig. 8 "instant page eviction": the serial
 *                order, but an eviction frees its frame at once and puts
 *                nothing on the link (drv_evict.c copy_back).  The order
 *                is kept so that a victim still leaves just before the
 *                page that replaces it is copied: evicting every victim
 *                of a batch when its service starts (nothing waits for a
 *                free eviction) would push hot pages out up to a whole
 *                batch's copy time early and fault them back.
 * The invariant of every mode, and the point of UE's ordering: no
 * migration starts into a frame whose previous page's write-back has not
 * landed (a new page never overwrites one not yet evicted, Sec. 4.2); the
 * frames of each write-back in flight are marked here and launch_chunk
 * (drv_block.c) checks every frame it copies into. */
#include <stdlib.h>
#include "drv_internal.h"
#include "core/stats.h"

#define NO_REC UINT32_MAX

void drv_wb_init(struct driver *d)
{
    d->wb.busy = xcalloc(d->capacity / 64 + 1, sizeof *d->wb.busy);
    d->wb.free_head = NO_REC;
}

void drv_wb_free(struct driver *d)
{
    for (uint32_t i = 0; i < d->wb.nrec; i++) free(d->wb.rec[i].pfn);
    free(d->wb.rec);
    free(d->wb.busy);
}

uint64_t drv_wb_begin(struct driver *d, const uint64_t *pfn, unsigned n, sim_time now)
{
    struct wb_track *w = &d->wb;
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
        SIM_ASSERT(!drv_wb_busy(d, pfn[i]), "driver", now,
                   "frame %llu evicted again while its write-back is in flight",
                   (unsigned long long)pfn[i]);
        w->busy[pfn[i] / 64] |= 1ULL << (pfn[i] % 64);
        r->pfn[i] = pfn[i];
    }
    return id;
}

void drv_wb_end(struct driver *d, uint64_t id, sim_time now)
{
    struct wb_track *w = &d->wb;
    SIM_ASSERT(id < w->nrec, "driver", now, "write-back %llu unknown", (unsigned long long)id);
    struct wb_rec *r = &w->rec[id];
    for (uint32_t i = 0; i < r->n; i++) w->busy[r->pfn[i] / 64] &= ~(1ULL << (r->pfn[i] % 64));
    r->n = 0;
    r->next = w->free_head;
    w->free_head = (uint32_t)id;
}

/* Evict the policy's victim now into the one-frame reserve (its frames
 * belong to the driver, neither free nor holding a page, until a
 * migration takes them); false when nothing can be evicted. */
static bool ue_evict(struct driver *d, sim_time now)
{
    uint64_t pfn;
    if (!drv_evict_victim(d, &pfn, now)) return false;
    d->ue_have = true;
    d->ue_pfn = pfn;
    return true;
}

void drv_ue_batch_start(struct driver *d, sim_time now)
{
    if (d->evict_timing != ET_UNOBTRUSIVE || d->ue_have || !d->npages || drv_frames_free_unit(d))
        return;
    if (ue_evict(d, now)) *d->n_ue_preemptive += 1;
}

bool drv_ue_take(struct driver *d, uint64_t *pfn, sim_time now)
{
    if (!d->ue_have) {
        /* Nothing evicted ahead (the pre-emptive eviction found no victim,
         * or the batch's pages outran the reserve): evict now and wait. */
        if (!ue_evict(d, now)) return false;
        *d->n_ue_demand += 1;
    }
    for (unsigned k = 0; k < d->unit; k++)
        if (drv_wb_busy(d, d->ue_pfn + k)) {
            if (!d->ue_waited) *d->n_ue_waits += 1;
            d->ue_waited = true;
            return false;                       /* its landing wakes us */
        }
    d->ue_have = d->ue_waited = false;
    *pfn = d->ue_pfn;
    return true;
}

void drv_ue_ahead(struct driver *d, bool more, sim_time now)
{
    if (!more || d->ue_have || drv_frames_free_unit(d)) return;
    if (ue_evict(d, now)) *d->n_ue_ahead += 1;
}

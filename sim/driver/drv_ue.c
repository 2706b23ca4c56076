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
    if (d->evict_timing != ET_UNOBTRUSIVE || d->ue_have || !d->batch.npages || drv_frames_free_unit(d))
        return;
    if (ue_evict(d, now)) *d->stat.n_ue_preemptive += 1;
}

bool drv_ue_take(struct driver *d, uint64_t *pfn, sim_time now)
{
    if (!d->ue_have) {
        /* Nothing evicted ahead (the pre-emptive eviction found no victim,
         * or the batch's pages outran the reserve): evict now and wait. */
        if (!ue_evict(d, now)) return false;
        *d->stat.n_ue_demand += 1;
    }
    for (unsigned k = 0; k < d->unit; k++)
        if (drv_wb_busy(d, d->ue_pfn + k)) {
            if (!d->ue_waited) *d->stat.n_ue_waits += 1;
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
    if (ue_evict(d, now)) *d->stat.n_ue_ahead += 1;
}

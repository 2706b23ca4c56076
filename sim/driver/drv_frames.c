/* GPU frames come from the chunk allocator (pmm.c, after the real
 * driver's PMM); each frame records the page it holds and since when, so a
 * double allocation is caught (SIM_ASSERT) and residency lifetimes come out
 * at eviction.  An evicted page's frame goes straight to the page that
 * needed it, as the real driver reuses the evicted chunk. */
#include <stdlib.h>
#include "drv_internal.h"
#include "../stats.h"



void drv_frames_init(struct driver *d)
{
    pmm_init(&d->pmm, d->capacity);
    d->frames = xcalloc(d->capacity, sizeof *d->frames);
    for (uint64_t i = 0; i < d->capacity; i++) d->frames[i].vpn = NO_FRAME_PAGE;
    count_map_init(&d->evicted);
    count_map_init(&d->refaulted);
}

void drv_frames_free(struct driver *d)
{
    pmm_free_all(&d->pmm);
    free(d->frames);
    count_map_free(&d->evicted);
    count_map_free(&d->refaulted);
}

bool drv_frame_take(struct driver *d, enum pmm_size size, uint64_t *pfn)
{
    if (!pmm_alloc(&d->pmm, size, pfn)) return false;
    if (size == PMM_64K) *d->n_alloc64 += 1;
    if (size == PMM_2M) *d->n_alloc2m += 1;
    return true;
}

void drv_frame_hold(struct driver *d, uint64_t pfn, uint64_t vpn, sim_time now)
{
    SIM_ASSERT(pfn < d->capacity && d->frames[pfn].vpn == NO_FRAME_PAGE, "driver", now,
               "frame %llu given to page %#llx while holding page %#llx",
               (unsigned long long)pfn, (unsigned long long)vpn,
               (unsigned long long)(pfn < d->capacity ? d->frames[pfn].vpn : 0));
    d->frames[pfn] = (struct frame){ vpn, now };
}

void drv_frame_evicted(struct driver *d, uint64_t pfn, uint64_t vpn, sim_time now)
{
    SIM_ASSERT(pfn < d->capacity && d->frames[pfn].vpn == vpn, "driver", now,
               "evicting page %#llx from frame %llu, which does not hold it",
               (unsigned long long)vpn, (unsigned long long)pfn);
    stat_hist_add(d->lifetime, (now - d->frames[pfn].since) / 1000000);
    d->frames[pfn].vpn = NO_FRAME_PAGE;
    count_map_inc(&d->evicted, vpn);
}

void drv_frame_released(struct driver *d, uint64_t pfn, uint64_t vpn, sim_time now)
{
    SIM_ASSERT(pfn < d->capacity && d->frames[pfn].vpn == vpn, "driver", now,
               "releasing page %#llx from frame %llu, which does not hold it",
               (unsigned long long)vpn, (unsigned long long)pfn);
    stat_hist_add(d->lifetime, (now - d->frames[pfn].since) / 1000000);
    d->frames[pfn].vpn = NO_FRAME_PAGE;
    pmm_release(&d->pmm, pfn);
}

void drv_note_fault(struct driver *d, uint64_t vpn)
{
    if (count_map_get(&d->evicted, vpn) > count_map_get(&d->refaulted, vpn)) {
        count_map_inc(&d->refaulted, vpn);
        *d->n_premature += 1;
    }
}

/* GPU frames come from the chunk allocator (pmm.c, after the real
 * driver's PMM); each frame records the page it holds and since when, so a
 * double allocation is caught (SIM_ASSERT) and residency lifetimes come out
 * at eviction.  Per 64 KiB and per 2 MiB of frames the driver counts the
 * pages resident there: a full count is when a big page or a block may be
 * mapped with one PTE (drv_map.c), and under driver.evict_unit=chunk a root
 * chunk whose count leaves and returns to zero moves between the UNUSED and
 * USED eviction lists, as block_clear_resident_processor /
 * block_set_resident_processor mark it (uvm_va_block.c).  In the page modes
 * an evicted page's frame goes straight to the page that needed it. */
#include <stdlib.h>
#include "drv_internal.h"
#include "../stats.h"

#define NO_CHUNK UINT64_MAX

void drv_frames_init(struct driver *d)
{
    pmm_init(&d->pmm, d->capacity);
    d->frames = xcalloc(d->capacity, sizeof *d->frames);
    for (uint64_t i = 0; i < d->capacity; i++) d->frames[i].vpn = NO_FRAME_PAGE;
    d->res64 = xcalloc(d->capacity / BIG_PAGE_PAGES + 1, sizeof *d->res64);
    d->resroot = xcalloc(d->capacity / VA_BLOCK_PAGES + 1, sizeof *d->resroot);
    if (d->chunked) {
        d->chunk_vpn = xmalloc(d->capacity * sizeof *d->chunk_vpn);
        for (uint64_t i = 0; i < d->capacity; i++) d->chunk_vpn[i] = NO_CHUNK;
        page_map_init(&d->chunks, d->capacity);
    }
    count_map_init(&d->evicted);
    count_map_init(&d->refaulted);
}

void drv_frames_free(struct driver *d)
{
    pmm_free_all(&d->pmm);
    free(d->frames);
    free(d->res64);
    free(d->resroot);
    if (d->chunked) {
        free(d->chunk_vpn);
        page_map_free(&d->chunks);
    }
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

void drv_frame_hold(struct driver *d, uint64_t pfn, uint64_t vpn, bool prefetched, sim_time now)
{
    SIM_ASSERT(pfn < d->capacity && d->frames[pfn].vpn == NO_FRAME_PAGE, "driver", now,
               "frame %llu given to page %#llx while holding page %#llx",
               (unsigned long long)pfn, (unsigned long long)vpn,
               (unsigned long long)(pfn < d->capacity ? d->frames[pfn].vpn : 0));
    d->frames[pfn] = (struct frame){ vpn, now, prefetched };
    /* A root with a copy in flight is not evictable (the real driver pins
     * the chunks it is populating, uvm_pmm_gpu_unpin_allocated). */
    if (d->chunked) pmm_root_pin(&d->pmm, (uint32_t)(pfn / VA_BLOCK_PAGES));
}

void drv_frame_landed(struct driver *d, uint64_t pfn, sim_time now)
{
    d->frames[pfn].since = now;
    *d->n_resident += 1;
    if (TRACE_ON(TW_COUNTERS)) trace_resident(*d->n_resident, now);
    d->res64[pfn / BIG_PAGE_PAGES]++;
    uint32_t r = (uint32_t)(pfn / VA_BLOCK_PAGES);
    if (!d->chunked) {
        d->resroot[r]++;
        return;
    }
    pmm_root_unpin(&d->pmm, r);
    if (d->resroot[r]++ == 0) pmm_root_list(&d->pmm, r, PMM_LIST_USED);
}

static void gone(struct driver *d, uint64_t pfn, uint64_t vpn, sim_time now, const char *what)
{
    SIM_ASSERT(pfn < d->capacity && d->frames[pfn].vpn == vpn, "driver", now,
               "%s page %#llx from frame %llu, which does not hold it", what,
               (unsigned long long)vpn, (unsigned long long)pfn);
    stat_hist_add(d->lifetime, (now - d->frames[pfn].since) / 1000000);
    d->frames[pfn].vpn = NO_FRAME_PAGE;
    *d->n_resident -= 1;
    if (TRACE_ON(TW_COUNTERS)) trace_resident(*d->n_resident, now);
    d->res64[pfn / BIG_PAGE_PAGES]--;
    d->resroot[pfn / VA_BLOCK_PAGES]--;
}

void drv_frame_evicted(struct driver *d, uint64_t pfn, uint64_t vpn, sim_time now)
{
    if (d->frames[pfn].prefetched) *d->n_evict_prefetched += 1;
    gone(d, pfn, vpn, now, "evicting");
    if (vpn == drv_unit_base(d, vpn)) count_map_inc(&d->evicted, vpn);
}

void drv_frame_released(struct driver *d, uint64_t pfn, uint64_t vpn, sim_time now)
{
    gone(d, pfn, vpn, now, "releasing");
    if (!d->chunked) {
        pmm_release(&d->pmm, pfn);
        return;
    }
    uint32_t r = (uint32_t)(pfn / VA_BLOCK_PAGES);
    if (!d->resroot[r]) pmm_root_list(&d->pmm, r, PMM_LIST_UNUSED);
}

void drv_note_fault(struct driver *d, uint64_t vpn)
{
    if (count_map_get(&d->evicted, vpn) > count_map_get(&d->refaulted, vpn)) {
        count_map_inc(&d->refaulted, vpn);
        *d->n_premature += 1;
    }
}

/* A handful of allocations: a scan per block serviced.  Allocations start
 * 2 MiB-aligned (workload.h), so a block's allocation is the one holding
 * its region; a region no allocation covers (test rigs, traces without
 * allocations) is a whole 2 MiB block. */
void drv_block_extent(const struct driver *d, uint64_t base, unsigned *first, unsigned *end)
{
    uint64_t lo = base + VA_BLOCK_PAGES, hi = base;
    for (size_t i = 0; i < d->nallocs; i++) {
        uint64_t a = d->allocs[i].first_vpn, b = a + d->allocs[i].npages;
        if (b <= base || a >= base + VA_BLOCK_PAGES) continue;
        if (a < lo) lo = a;
        if (b > hi) hi = b;
    }
    if (lo >= hi) { *first = 0; *end = VA_BLOCK_PAGES; return; }
    *first = lo > base ? (unsigned)(lo - base) : 0;
    *end = hi < base + VA_BLOCK_PAGES ? (unsigned)(hi - base) : VA_BLOCK_PAGES;
}

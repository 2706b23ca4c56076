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
#include "core/stats.h"

#define NO_CHUNK UINT64_MAX

void drv_frames_init(struct driver *d)
{
    pmm_init(&d->mem.pmm, d->mem.capacity);
    d->mem.frames = xcalloc(d->mem.capacity, sizeof *d->mem.frames);
    for (uint64_t i = 0; i < d->mem.capacity; i++) d->mem.frames[i].page = NO_FRAME_PAGE;
    d->mem.res64 = xcalloc(d->mem.capacity / BIG_PAGE_PAGES + 1, sizeof *d->mem.res64);
    d->mem.resroot = xcalloc(d->mem.capacity / VA_BLOCK_PAGES + 1, sizeof *d->mem.resroot);
    if (d->chunked) {
        d->mem.chunk_vpn = xmalloc(d->mem.capacity * sizeof *d->mem.chunk_vpn);
        for (uint64_t i = 0; i < d->mem.capacity; i++) d->mem.chunk_vpn[i] = NO_CHUNK;
        /* One entry per allocated chunk: 64 KiB chunks in the common
         * case; the map grows if 4 KiB pieces are many. */
        page_map_init(&d->mem.chunks, d->mem.capacity / BIG_PAGE_PAGES + 1);
    }
    page_counts_init(&d->mem.unanswered);
}

void drv_frames_free(struct driver *d)
{
    pmm_free_all(&d->mem.pmm);
    free(d->mem.frames);
    free(d->mem.res64);
    free(d->mem.resroot);
    if (d->chunked) {
        free(d->mem.chunk_vpn);
        page_map_free(&d->mem.chunks);
    }
    page_counts_free(&d->mem.unanswered);
}

bool drv_frame_take(struct driver *d, enum pmm_size size, uint64_t *pfn)
{
    if (!pmm_alloc(&d->mem.pmm, size, pfn)) return false;
    if (size == PMM_64K) *d->stat.n_alloc64 += 1;
    if (size == PMM_2M) *d->stat.n_alloc2m += 1;
    return true;
}

void drv_frame_hold(struct driver *d, uint64_t pfn, uint64_t vpn, bool prefetched, sim_time now)
{
    SIM_ASSERT(pfn < d->mem.capacity && d->mem.frames[pfn].page == NO_FRAME_PAGE, "driver", now,
               "frame %llu given to page %#llx while holding page %#llx",
               (unsigned long long)pfn, (unsigned long long)vpn,
               (unsigned long long)(pfn < d->mem.capacity ? drv_frame_vpn(d, pfn) : 0));
    SIM_ASSERT(!(vpn & FRAME_PREFETCHED), "driver", now, "page %#llx beyond the address space",
               (unsigned long long)vpn);
    d->mem.frames[pfn] = (struct frame){ vpn | (prefetched ? FRAME_PREFETCHED : 0), now };
    /* A root with a copy in flight is not evictable (the real driver pins
     * the chunks it is populating, uvm_pmm_gpu_unpin_allocated). */
    if (d->chunked) pmm_root_pin(&d->mem.pmm, (uint32_t)(pfn / VA_BLOCK_PAGES));
}

void drv_frame_landed(struct driver *d, uint64_t pfn, sim_time now)
{
    d->mem.frames[pfn].since = now;
    *d->stat.n_resident += 1;
    if (TRACE_ON(TW_COUNTERS)) trace_resident(*d->stat.n_resident, now);
    d->mem.res64[pfn / BIG_PAGE_PAGES]++;
    uint32_t r = (uint32_t)(pfn / VA_BLOCK_PAGES);
    if (!d->chunked) {
        d->mem.resroot[r]++;
        return;
    }
    pmm_root_unpin(&d->mem.pmm, r);
    if (d->mem.resroot[r]++ == 0) pmm_root_list(&d->mem.pmm, r, PMM_LIST_USED);
}

static void gone(struct driver *d, uint64_t pfn, uint64_t vpn, sim_time now, const char *what)
{
    SIM_ASSERT(pfn < d->mem.capacity && drv_frame_vpn(d, pfn) == vpn, "driver", now,
               "%s page %#llx from frame %llu, which does not hold it", what,
               (unsigned long long)vpn, (unsigned long long)pfn);
    stat_hist_add(d->stat.lifetime, (now - d->mem.frames[pfn].since) / 1000000);
    d->mem.frames[pfn].page = NO_FRAME_PAGE;
    *d->stat.n_resident -= 1;
    if (TRACE_ON(TW_COUNTERS)) trace_resident(*d->stat.n_resident, now);
    d->mem.res64[pfn / BIG_PAGE_PAGES]--;
    d->mem.resroot[pfn / VA_BLOCK_PAGES]--;
}

void drv_frame_evicted(struct driver *d, uint64_t pfn, uint64_t vpn, sim_time now)
{
    if (d->mem.frames[pfn].page & FRAME_PREFETCHED) *d->stat.n_evict_prefetched += 1;
    gone(d, pfn, vpn, now, "evicting");
    if (vpn == drv_unit_base(d, vpn)) page_counts_inc(&d->mem.unanswered, vpn);
}

void drv_frame_released(struct driver *d, uint64_t pfn, uint64_t vpn, sim_time now)
{
    gone(d, pfn, vpn, now, "releasing");
    if (!d->chunked) {
        pmm_release(&d->mem.pmm, pfn);
        return;
    }
    uint32_t r = (uint32_t)(pfn / VA_BLOCK_PAGES);
    if (!d->mem.resroot[r]) pmm_root_list(&d->mem.pmm, r, PMM_LIST_UNUSED);
}

void drv_frames_on_fault(void *ctx, const struct drv_event *e)
{
    struct driver *d = ctx;
    uint64_t vpn = e->vpn;
    /* Counting evictions minus the faults that answered them is the same
     * as comparing the two counts, in one byte per page. */
    if (page_counts_get(&d->mem.unanswered, vpn)) {
        page_counts_dec(&d->mem.unanswered, vpn);
        *d->stat.n_premature += 1;
    }
}

/* O(driver page): 16 lookups at each landing and eviction of a driver
 * page, so it stays on.  A piece is held when resident or, under
 * driver.evict_unit=chunk, when the frame its chunk has for it holds it
 * (its copy in flight), so the check names a page whose pieces are split
 * between frames and nowhere (the page modes hold and land a driver page
 * at once). */
void drv_check_unit(const struct driver *d, uint64_t vpn, sim_time now, const char *why)
{
    if (d->unit == 1) return;
    uint64_t u = drv_unit_base(d, vpn), base = u / VA_BLOCK_PAGES * VA_BLOCK_PAGES;
    unsigned first, end;
    drv_block_extent(d, base, &first, &end);
    unsigned lo = (unsigned)(u - base), hi = lo + d->unit, held = 0;
    if (lo < first) lo = first;
    if (hi > end) hi = end;
    if (lo >= hi) return;
    char map[65] = {0};
    for (unsigned k = lo; k < hi; k++) {
        bool r = gmmu_is_resident(d->gmmu, base + k);
        bool h = r || (d->chunked && drv_chunk_holds(d, base, first, end, base + k));
        held += h;
        map[k - lo] = r ? 'R' : h ? 'F' : '-';
    }
    /* map: R resident, F copy in flight, - neither, per 4 KiB piece */
    SIM_ASSERT(held == 0 || held == hi - lo, "driver", now,
               "driver page %#llx held in part at %s: %s (a driver page is resident "
               "whole or not at all)", (unsigned long long)u, why, map);
}

/* The chunk holding slot i of the block [first, end): its first slot and
 * its size.  The smallest chunk is a driver page: the real driver never
 * allocates user memory in chunks smaller than PAGE_SIZE, "so we don't have
 * to handle allocating multiple chunks per page" (uvm_mmu.c
 * uvm_mmu_init_gpu_chunk_sizes: mmu_user_chunk_sizes = sizes & PAGE_MASK),
 * so on a 64 KiB-page kernel a block cut inside a big page still gets a
 * 64 KiB chunk for it.  Were a 64 KiB driver page cut by its allocation's
 * end given 4 KiB chunks, each would come from whichever root had one
 * free, and a root eviction would take some of the page's pieces and leave
 * the others resident in other roots: a page resident in part. */
void drv_chunk_geometry(const struct driver *d, unsigned first, unsigned end, unsigned i,
                     unsigned *lo, enum pmm_size *size)
{
    if (first == 0 && end == VA_BLOCK_PAGES) {
        *lo = 0;
        *size = PMM_2M;
        return;
    }
    unsigned b = i / BIG_PAGE_PAGES * BIG_PAGE_PAGES;
    if ((b >= first && b + BIG_PAGE_PAGES <= end) || d->unit == BIG_PAGE_PAGES) {
        *lo = b;
        *size = PMM_64K;
    } else {
        *lo = i;
        *size = PMM_4K;
    }
}

bool drv_chunk_holds(const struct driver *d, uint64_t base, unsigned first, unsigned end,
                     uint64_t vpn)
{
    unsigned i = (unsigned)(vpn - base), lo;
    enum pmm_size size;
    drv_chunk_geometry(d, first, end, i, &lo, &size);
    uint32_t f0 = page_map_get(&d->mem.chunks, base + lo);
    return f0 != PAGE_MAP_NONE && drv_frame_vpn(d, f0 + (i - lo)) == vpn;
}

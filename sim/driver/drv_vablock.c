/* The VA-block floor: what the driver knows of a 2 MiB VA block and its
 * pages without servicing it -- the allocation it belongs to and that
 * allocation's cudaMemAdvise hints, where a page is mapped, and a driver
 * page wanted whole.  The real driver keeps this in uvm_va_block.c and
 * uvm_va_policy.c below its fault and migration services; here every file
 * of the thread and the heuristics that map pages call down into it, and it
 * calls nothing of the driver's but the GMMU. */
#include "drv_internal.h"
#include "gmmu/gmmu.h"

void drv_map_host(struct driver *d, uint64_t vpn, sim_time now)
{
    gmmu_map_page(d->gmmu, vpn, vpn, PAGE_SHIFT, GMMU_MAP_REMOTE, now);
}

bool drv_mapped(const struct driver *d, uint64_t vpn)
{
    return gmmu_is_resident(d->gmmu, vpn) || gmmu_is_remote(d->gmmu, vpn);
}

void drv_want_whole_pages(struct driver *d)
{
    if (d->unit == 1) return;
    for (unsigned p = d->blk.blk_first; p < d->blk.blk_end; p += d->unit - p % d->unit)
        if (bb_count_range(&d->blk.want, p, d->unit - p % d->unit)) {
            unsigned n = d->unit - p % d->unit;
            bb_set_range(&d->blk.want, p, p + n > d->blk.blk_end ? d->blk.blk_end - p : n);
        }
}

/* A handful of allocations: a scan per looked-up page. */
unsigned drv_advice(const struct driver *d, uint64_t vpn)
{
    for (size_t i = 0; i < d->nallocs; i++)
        if (vpn - d->allocs[i].first_vpn < d->allocs[i].npages) return d->allocs[i].advice;
    return 0;
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

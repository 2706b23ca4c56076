/* Mapping landed pages.  The page modes map every page with a PTE of the
 * driver page size, as the papers' machines have one page size (4 KiB:
 * HPE Table I; 64 KiB: batch-aware Table 1).  driver.evict_unit=chunk
 * maps with the largest PTEs the residency allows, as the real driver's
 * block_gpu_compute_new_pte_state (uvm_va_block.c): a
 * 2 MiB PTE when the whole 2 MiB block is resident in one physically
 * contiguous root chunk, a 64 KiB PTE for each big page resident whole in
 * a contiguous 64 KiB of frames, 4 KiB PTEs for the rest, all with the
 * same protection.  A run that covers such a region is mapped large at
 * once; a region completed by a run next to pages that landed earlier is
 * merged (the earlier 4 KiB entries still cached in TLBs translate the
 * same way, so no shootdown; unmapping shoots down the whole range,
 * drv_evict.c).  The TLBs then reach 64 KiB or 2 MiB per entry. */
#include "drv_internal.h"
#include "core/stats.h"

/* Do pages m[0..n) (virtually contiguous) fill one aligned region of n
 * pages in contiguous, aligned frames with the same protection? */
static bool region_fits(const struct migr_page *m, size_t n)
{
    if (m[0].vpn % n || m[0].pfn % n) return false;
    for (size_t k = 1; k < n; k++)
        if (m[k].pfn != m[0].pfn + k || m[k].readonly != m[0].readonly) return false;
    return true;
}

/* If the n frames from f0 hold the aligned region of n pages, all
 * resident with the same protection, make it one PTE of 2^shift bytes. */
static void try_merge(struct driver *d, uint64_t f0, unsigned n, unsigned shift, sim_time now)
{
    uint64_t v0 = drv_frame_vpn(d, f0);
    if (v0 == NO_FRAME_PAGE || v0 % n || gmmu_page_shift(d->gmmu, v0) >= shift) return;
    bool ro = gmmu_is_read_only(d->gmmu, v0);
    for (unsigned k = 1; k < n; k++)
        if (drv_frame_vpn(d, f0 + k) != v0 + k || gmmu_is_read_only(d->gmmu, v0 + k) != ro) return;
    gmmu_set_page_size(d->gmmu, v0, shift, now);
    *(shift == 21 ? d->stat.n_map2m : d->stat.n_map64) += 1;
}

void drv_map_landed(struct driver *d, const struct migr_page *m, size_t n, sim_time now)
{
    for (size_t k = 0; k < n;) {
        unsigned shift = PAGE_SHIFT;
        if (d->max_shift >= 21 && n - k >= VA_BLOCK_PAGES && region_fits(m + k, VA_BLOCK_PAGES))
            shift = 21;
        else if (d->max_shift >= 16 && n - k >= BIG_PAGE_PAGES && region_fits(m + k, BIG_PAGE_PAGES))
            shift = 16;
        gmmu_map_page(d->gmmu, m[k].vpn, m[k].pfn, shift, m[k].readonly ? GMMU_MAP_READONLY : 0, now);
        if (shift == 21) *d->stat.n_map2m += 1;
        if (shift == 16) *d->stat.n_map64 += 1;
        size_t end = k + (1u << (shift - PAGE_SHIFT));
        for (; k < end; k++) {
            drv_frame_landed(d, m[k].pfn, now);
            drv_post(d, m[k].prefetched ? DRV_EV_PREFETCHED : DRV_EV_RESIDENT, m[k].vpn, now);
        }
    }
    for (size_t k = 0; k < n; k++)
        if (!k || drv_unit_base(d, m[k].vpn) != drv_unit_base(d, m[k - 1].vpn))
            drv_check_unit(d, m[k].vpn, now, "a landing");
    /* Big pages and blocks completed with pages that landed before. */
    for (size_t k = 0; d->chunked && k < n; k++) {
        uint64_t c = m[k].pfn / BIG_PAGE_PAGES, r = m[k].pfn / VA_BLOCK_PAGES;
        if (d->mem.res64[c] == BIG_PAGE_PAGES) try_merge(d, c * BIG_PAGE_PAGES, BIG_PAGE_PAGES, 16, now);
        if (d->mem.resroot[r] == VA_BLOCK_PAGES) try_merge(d, r * VA_BLOCK_PAGES, VA_BLOCK_PAGES, 21, now);
    }
}

void drv_replay(struct driver *d, bool flush, sim_time now)
{
    if (TRACE_ON(TW_BATCHES)) trace_replay(flush, now);
    gmmu_replay(d->gmmu, flush, now);
    *d->stat.n_replays += 1;
    d->unreplayed = false;
}

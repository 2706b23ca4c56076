/* GPU memory as the real driver manages it on Pascal and later
 * (driver.evict_unit=chunk).  A VA block's chunks follow from its geometry
 * alone (uvm_va_block_gpu_chunk_index_range): a block spanning its whole
 * 2 MiB region is one 2 MiB root chunk; a shorter block (an allocation's
 * last, or one cut by its start) has a 64 KiB chunk for each whole aligned
 * big page and 4 KiB chunks for the rest -- never smaller than a driver
 * page: with 64 KiB driver pages a big page cut by the block's end is a
 * 64 KiB chunk too (geometry below).  A chunk is allocated when the
 * first of its pages is made resident (block_populate_gpu_chunk), so the
 * first touch of a full block takes a whole root chunk however few pages
 * come, and later pages of the block land in it without allocating.  An
 * allocation that finds no free chunk evicts a root chunk: the first of the
 * UNUSED list (roots whose blocks have no resident page), else of the USED
 * list, which a root joins at its tail when one of its chunks is allocated
 * (uvm_pmm_gpu_unpin_allocated) or its pages become resident again
 * (block_set_resident_processor) -- never on an access, so the order is by
 * age, the papers' "age-based LRU" (pick_root_chunk_to_evict).  Every page
 * resident in the root goes (evict_root_chunk, uvm_va_block_evict_chunks),
 * the blocks lose those chunks, and the root is free whole. */
#include "drv_internal.h"
#include "core/stats.h"

#define NO_CHUNK UINT64_MAX

bool drv_chunk_frame(struct driver *d, uint64_t base, unsigned i, uint64_t *pfn, sim_time now)
{
    unsigned lo;
    enum pmm_size size;
    drv_chunk_geometry(d, d->blk.blk_first, d->blk.blk_end, i, &lo, &size);
    uint64_t cvpn = base + lo;
    uint32_t f0 = page_map_get(&d->mem.chunks, cvpn);
    if (f0 == PAGE_MAP_NONE) {
        uint64_t f;
        while (!drv_frame_take(d, size, &f)) {
            uint32_t r;
            if (!d->pol.chunk_ev->victim(d, &r)) return false;
            drv_evict_root(d, r, now);
        }
        static const unsigned pages[] = { 1, BIG_PAGE_PAGES, VA_BLOCK_PAGES };
        for (unsigned k = 0; k < pages[size]; k++) d->mem.chunk_vpn[f + k] = cvpn;
        page_map_put(&d->mem.chunks, cvpn, (uint32_t)f);
        pmm_root_list(&d->mem.pmm, (uint32_t)(f / VA_BLOCK_PAGES), PMM_LIST_USED);
        f0 = (uint32_t)f;
    }
    *pfn = f0 + (i - lo);
    return true;
}

void drv_evict_root(struct driver *d, uint32_t r, sim_time now)
{
    uint64_t first = (uint64_t)r * VA_BLOCK_PAGES, end = first + VA_BLOCK_PAGES;
    SIM_ASSERT(end <= d->mem.capacity && !d->mem.pmm.pins[r], "driver", now,
               "evicting root chunk %u (pinned or beyond memory)", r);
    *d->stat.n_root_evictions += 1;
    /* The VA block the root holds (a root of a whole block holds only it;
     * a split root is named by its first chunk's block). */
    uint64_t block = UINT64_MAX;
    for (uint64_t f = first; f < end && block == UINT64_MAX; f++)
        if (d->mem.chunk_vpn[f] != NO_CHUNK) block = d->mem.chunk_vpn[f] / VA_BLOCK_PAGES;
    uint64_t t = now, addr = block == UINT64_MAX ? 0 : block * VA_BLOCK_PAGES * PAGE_SIZE;
    const void *row[] = { d->stat.n_root_evictions, &t, &addr };
    rec_append(d->stat.root_evict_tab, row);
    /* The driver pages the root holds, each checked once it has gone. */
    uint64_t gone[VA_BLOCK_PAGES];
    unsigned ngone = 0;
    for (uint64_t f = first; f < end; f++) {
        uint64_t v = drv_frame_vpn(d, f);
        if (v != NO_FRAME_PAGE && (!ngone || drv_unit_base(d, v) != drv_unit_base(d, gone[ngone - 1])))
            gone[ngone++] = v;
    }
    /* The resident pages, one virtually contiguous run at a time. */
    for (uint64_t f = first; f < end;) {
        uint64_t v = drv_frame_vpn(d, f), g = f + 1;
        if (v == NO_FRAME_PAGE) { f++; continue; }
        while (g < end && drv_frame_vpn(d, g) == v + (g - f) &&
               (v + (g - f)) % VA_BLOCK_PAGES != 0) g++;
        drv_unmap_pages(d, v, (unsigned)(g - f), false, now);
        f = g;
    }
    for (uint64_t f = first; f < end; f++) {
        if (d->mem.chunk_vpn[f] == NO_CHUNK) continue;
        if (page_map_get(&d->mem.chunks, d->mem.chunk_vpn[f]) == f) page_map_erase(&d->mem.chunks, d->mem.chunk_vpn[f]);
        d->mem.chunk_vpn[f] = NO_CHUNK;
        pmm_release(&d->mem.pmm, f);
    }
    pmm_root_list(&d->mem.pmm, r, PMM_LIST_NONE);
    for (unsigned k = 0; k < ngone; k++) drv_check_unit(d, gone[k], now, "a root-chunk eviction");
    if (block != UINT64_MAX) drv_post(d, DRV_EV_ROOT_EVICTED, block, now);
}

/* Park et al. Fig. 1 draws evictions by VA block address over time: one
 * row per root eviction (uvmsim scripts/plot_evictions.py draws it). */
void drv_chunks_stats(struct driver *d, struct stats *st)
{
    static const struct rec_field f[] = {
        {"eviction", REC_U64, "chunks"}, {"time_ps", REC_U64, "ps"}, {"va_block", REC_U64, "B"},
    };
    d->stat.root_evict_tab = stat_table(st, "driver_root_evictions",
                                   "every root-chunk eviction: its number, time and the address "
                                   "of the 2 MiB VA block it held", f, 3);
}

/* The coalescer: a warp's lane addresses become distinct 128 B lines with
 * 32 B sector masks, and distinct 4 KiB pages (one translation each).
 * Fermi/Volta global-memory coalescing (CUDA Programming Guide, "Device
 * Memory Accesses", compute capability 2.x and later: a warp request is
 * split into 128 B line transactions, of which only the touched 32 B
 * sectors are fetched).  Lanes are visited in lane order, so lines and
 * pages keep first-touch order.  An access is naturally aligned (CUDA
 * requires it), so its bytes never leave their line; bytes past the line's
 * end would be clipped. */
#include "sm_internal.h"

static uint32_t find_or_add(uint64_t *v, uint32_t *n, uint64_t x, bool *added)
{
    for (uint32_t i = 0; i < *n; i++)
        if (v[i] == x) { *added = false; return i; }
    v[*n] = x;
    *added = true;
    return (*n)++;
}

void gpu_coalesce(const uint64_t *addr, uint32_t active, uint32_t size,
                  struct coalesced *out)
{
    out->nlines = out->npages = out->nsectors = 0;
    if (!size) size = 1;
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        if (!(active >> l & 1)) continue;
        uint64_t a = addr[l];
        uint64_t line = a & ~(uint64_t)(LINE_SIZE - 1);
        bool added;
        uint32_t li = find_or_add(out->line_addr, &out->nlines, line, &added);
        if (added) {
            bool padd;
            out->line_mask[li] = 0;
            out->line_page[li] = (uint8_t)find_or_add(out->page_vpn, &out->npages,
                                                      page_of(a), &padd);
        }
        uint64_t off = a - line, last = off + size - 1;
        if (last >= LINE_SIZE) last = LINE_SIZE - 1;
        for (uint64_t sct = off / SECTOR_SIZE; sct <= last / SECTOR_SIZE; sct++)
            out->line_mask[li] |= (uint8_t)(1u << sct);
    }
    for (uint32_t i = 0; i < out->nlines; i++)
        out->nsectors += (uint32_t)__builtin_popcount(out->line_mask[i]);
}

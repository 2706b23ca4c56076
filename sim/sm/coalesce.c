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
    uint64_t prev = UINT64_MAX;     /* the previous active lane's line */
    uint32_t li = 0;
    uint8_t cur = 0;                /* its sectors, not yet in line_mask[li] */
    for (uint32_t m = active; m; m &= m - 1) {
        uint64_t a = addr[__builtin_ctz(m)];
        uint64_t line = a & ~(uint64_t)(LINE_SIZE - 1);
        /* Neighbouring lanes mostly share a line: that one is found
         * without a search (the same index the search would return). */
        if (line != prev) {
            bool added;
            if (prev != UINT64_MAX) out->line_mask[li] |= cur;
            cur = 0;
            li = find_or_add(out->line_addr, &out->nlines, line, &added);
            if (added) {
                bool padd;
                out->line_mask[li] = 0;
                out->line_page[li] = (uint8_t)find_or_add(out->page_vpn, &out->npages,
                                                          page_of(a), &padd);
            }
            prev = line;
        }
        uint64_t off = a - line, last = off + size - 1;
        if (last >= LINE_SIZE) last = LINE_SIZE - 1;
        /* sectors off / 32 .. last / 32 */
        unsigned lo = (unsigned)(off / SECTOR_SIZE), hi = (unsigned)(last / SECTOR_SIZE);
        cur |= (uint8_t)(((2u << hi) - 1) & ~((1u << lo) - 1));
    }
    if (prev != UINT64_MAX) out->line_mask[li] |= cur;
    for (uint32_t i = 0; i < out->nlines; i++)
        out->nsectors += sector_count(out->line_mask[i]);
}

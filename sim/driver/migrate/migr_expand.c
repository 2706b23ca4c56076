/* Range expansion (thesis Sec. 5.3): with each trigger "the runtime also
 * schedules an additional N pages in its (virtual address) neighborhood",
 * "within a single allocation (i.e. were allocated in the same call to
 * malloc)", inserted "in the order of furthest, from the triggered address,
 * to the nearest".  The thesis does not give the neighbourhood's shape; as
 * spec C.2.3 assumes, it is symmetric: ceil(N/2) pages above the trigger
 * and floor(N/2) below, each side clipped at the allocation's end (the
 * quota a side loses is not moved to the other: move_pages simply fails
 * on them, Sec. 5.3), in order of decreasing distance, the page above
 * before the page below at equal distance. */
#include "migrate.h"

size_t migr_expand_order(uint64_t vpn, uint64_t first, uint64_t end, unsigned n, uint64_t *out)
{
    unsigned above = (n + 1) / 2, below = n / 2;
    size_t c = 0;
    for (unsigned k = above > below ? above : below; k >= 1; k--) {
        if (k <= above && vpn + k < end) out[c++] = vpn + k;
        if (k <= below && vpn >= first + k) out[c++] = vpn - k;
    }
    return c;
}

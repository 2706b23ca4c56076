/* Annotated placement (thesis Sec. 4.4.2-4.4.3).  Each allocation's hint:
 *   - the workload's own (cudaMalloc(ptr, size, hint): BO, CO or BW);
 *   - else, for allocations with a hotness (declared by the workload, or
 *     the profile's references, Sec. 4.4.1), GetAllocation's: when GPU
 *     memory holds BW-AWARE's share of the footprint (y/100 x footprint
 *     <= capacity, docs/decisions.md) all BW; otherwise, in order of
 *     hotness per byte, the structures "from [1:N] that will fit within
 *     the bandwidth-optimized memory before it exhausts the BO capacity"
 *     get BO -- the prefix that fits whole -- then the structure that
 *     exhausts it gets BO for the frames left (its hint is BO and "memory
 *     hints are honored unless the memory pool is filled to capacity, in
 *     which case the allocator will fall back"), and the rest CO
 *     (docs/decisions.md: with that structure all CO, BO stayed empty
 *     whenever the hottest structure exceeded it, e.g. 14 of 18
 *     workloads at 10 % capacity, against the thesis' "at least
 *     BW-AWARE in all cases");
 *   - else BW ("If no placement hint is provided, the CUDA runtime will
 *     fall back to using the application agnostic BW-AWARE placement").
 * Pages then go in allocation order: BO to GPU memory, CO to the host's,
 * BW by BW-AWARE's draw; "memory hints are honored unless the memory pool
 * is filled to capacity, in which case the allocator will fall back to
 * the alternate domain" (host memory is never full here). */
#include <stdlib.h>
#include "placement.h"
#include "core/rng.h"

struct rank { double density; size_t i; };

static int denser(const void *a, const void *b)
{
    const struct rank *x = a, *y = b;
    if (x->density != y->density) return x->density > y->density ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* budget[i]: the GPU frames GetAllocation gives a BO structure (its whole
 * size for the prefix, the frames left for the one that exhausts them);
 * UINT64_MAX for workload hints, which take what is free in page order. */
static void get_allocation(const struct place_in *in, enum wl_hint *hint, uint64_t *budget)
{
    struct rank r[WL_MAX_ALLOCS];
    size_t n = 0;
    for (size_t i = 0; i < in->nallocs; i++)
        if (in->a[i].hint == WL_HINT_NONE && in->a[i].hotness > 0)
            r[n++] = (struct rank){ in->a[i].hotness / (double)(in->a[i].bytes ? in->a[i].bytes : 1), i };
    if (in->bo_share * (double)in->npages <= (double)in->capacity) {
        for (size_t k = 0; k < n; k++) hint[r[k].i] = WL_HINT_BW;
        return;
    }
    qsort(r, n, sizeof *r, denser);
    uint64_t left = in->capacity;
    for (size_t k = 0; k < n; k++) {
        uint64_t np = in->a[r[k].i].npages;
        hint[r[k].i] = left ? WL_HINT_BO : WL_HINT_CO;
        budget[r[k].i] = np < left ? np : left;
        left -= budget[r[k].i];
    }
}

static void place(const struct place_in *in, uint8_t *where)
{
    enum wl_hint hint[WL_MAX_ALLOCS];
    uint64_t budget[WL_MAX_ALLOCS];
    for (size_t i = 0; i < in->nallocs; i++) {
        hint[i] = in->a[i].hint != WL_HINT_NONE ? in->a[i].hint : WL_HINT_BW;
        budget[i] = UINT64_MAX;
    }
    get_allocation(in, hint, budget);
    struct rng r;
    rng_init(&r, in->seed, "driver.placement.bw-aware");
    uint64_t room = in->capacity, first = 0;
    for (size_t i = 0; i < in->nallocs; i++) {
        uint64_t n = in->a[i].npages;
        switch (hint[i]) {
        case WL_HINT_BW:
            place_bw_draw(&r, in->bo_share, first, n, &room, where);
            break;
        case WL_HINT_BO:
            for (uint64_t p = first, b = budget[i]; p < first + n; p++) {
                where[p] = room && b ? PLACE_GPU : PLACE_HOST;   /* full: the other pool */
                if (room && b) { room--; b--; }
            }
            break;
        default:
            for (uint64_t p = first; p < first + n; p++) where[p] = PLACE_HOST;
            break;
        }
        first += n;
    }
}

const struct place_ops place_annotated_ops = { "annotated", place };

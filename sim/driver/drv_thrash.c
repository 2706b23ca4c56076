/* The driver's side of thrashing detection (perf/drv_thrashing.c keeps the
 * bookkeeping on (page, time)): unpinning a page mapped remotely, acting
 * on a fault's hint, and the prefetch mask, as the real driver's
 * uvm_perf_thrashing.c acts on the VA block. */
#include "drv_internal.h"
#include "tlb/tlb.h"
#include "workloads/workload.h"

/* thrashing_unpin_pages: processors mapping the page remotely (here the
 * GPU, unless accessed-by advice keeps it mapped) lose the mapping, so the
 * next access faults and migrates. */
static void drv_unpin(void *ctx, uint64_t vpn, sim_time now)
{
    struct driver *d = ctx;
    if (!gmmu_is_remote(d->gmmu, vpn) || (drv_advice(d, vpn) & WL_ADV_ACCESSED_BY_GPU)) return;
    gmmu_unmap(d->gmmu, vpn, now);
    tlb_shootdown(d->tlb, vpn, now);
}

struct thrashing *drv_thrashing_create(struct driver *d, const struct config *cfg,
                                       struct stats *st)
{
    return thrashing_create(cfg, st, d->comp.eng, d->comp.dom, drv_unpin, d);
}

bool drv_thrashing_fault(struct driver *d, uint64_t vpn, sim_time now)
{
    if (!d->pol.thrash) return false;
    switch (thrashing_hint(d->pol.thrash, vpn, now)) {
    case THR_THROTTLE:
        d->unreplayed = true;       /* its walks fault again after the replay */
        return true;
    case THR_PIN_HOST:
        drv_map_host(d, vpn, now);
        d->unreplayed = true;
        return true;
    default:
        return false;
    }
}

void drv_thrashing_prefetch(struct driver *d, uint64_t base, struct prefetch_in *in,
                            struct block_bits *want)
{
    struct block_bits thr, plain;
    if (!d->pol.thrash || !thrashing_block_mask(d->pol.thrash, base, &thr)) {
        d->pol.prefetch->compute(in, want);
        return;
    }
    /* Faults on thrashing pages still come (the prefetcher keeps every
     * faulted page) but seed and receive no prefetch (uvm_perf_prefetch.c
     * takes the thrashing mask out of the region); counted against the
     * prefetch the block would have had without the mask. */
    d->pol.prefetch->compute(in, &plain);
    in->thrashing = &thr;
    d->pol.prefetch->compute(in, want);
    in->thrashing = NULL;
    unsigned excluded = 0;
    for (int w = 0; w < BLOCK_WORDS; w++)
        excluded += (unsigned)__builtin_popcountll(plain.w[w] & ~want->w[w]);
    thrashing_count_excluded(d->pol.thrash, excluded);
}

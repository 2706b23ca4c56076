/* Servicing one batch's VA blocks in address order, as the real driver's
 * service_fault_batch_block (uvm_gpu_replayable_faults.c) and
 * uvm_va_block_make_resident: for each 2 MiB block
 *   1. the pages to migrate: the faulted non-resident pages plus the
 *      prefetcher's choice over the block (driver.prefetch; prefetch.c);
 *      a fault on a page already mapped only needs its protection lifted;
 *   2. a frame per page: a free one, or the eviction policy's victim,
 *      unmapped, shot down and its frame's cache lines dropped; a written
 *      victim (or every victim without driver.drop_clean) is copied back
 *      D2H, and the migration that needs the frame starts only when the
 *      write-backs have landed (the baseline serialises eviction before
 *      migration, batch-aware paper Sec. 3, Fig. 4);
 *   3. one H2D copy-engine transfer per run of virtually contiguous pages
 *      (the real driver copies contiguous regions with one CE operation);
 *      a run's pages are mapped, and the walks parked on them answered,
 *      when its last byte lands; the walks parked on them are answered at
 *      the next replay (driver.replay_policy, drv_loop.c).
 * When every frame holds a page still in flight, the allocation waits for
 * landings (tiny memories, large prefetches). */
#include <string.h>
#include "drv_internal.h"
#include "../../workloads/workload.h"
#include "../stats.h"
#include "../tlb/tlb.h"
#include "../pcie/pcie.h"

static uint64_t block_base(const struct driver *d)
{
    return d->pages[d->block_start[d->cur_block]].vpn / VA_BLOCK_PAGES * VA_BLOCK_PAGES;
}

void drv_map_host(struct driver *d, uint64_t vpn, sim_time now)
{
    gmmu_map_page(d->gmmu, vpn, vpn, PAGE_SHIFT, GMMU_MAP_REMOTE, now);
}

static bool mapped(const struct driver *d, uint64_t vpn)
{
    return gmmu_is_resident(d->gmmu, vpn) || gmmu_is_remote(d->gmmu, vpn);
}

/* A fault on a page whose preferred location is the host (cudaMemAdvise
 * SetPreferredLocation(cpu)) is answered with a remote mapping of the host
 * copy instead of a migration, as the real driver keeps a page at its
 * preferred location when the faulting GPU can map it
 * (uvm_va_policy / uvm_va_block_select_residency).  Read-mostly pages read
 * by the GPU are duplicated: copied and mapped read-only, the host copy
 * stays valid; a later write faults on the protection and collapses the
 * duplicates (the write lifts the protection here). */
static void compute_block(struct driver *d, sim_time now)
{
    uint64_t base = block_base(d);
    struct block_bits resident = {{0}}, faulted = {{0}}, written = {{0}};
    bool any_ro = false;
    for (size_t i = d->block_start[d->cur_block]; i < d->block_start[d->cur_block + 1]; i++) {
        const struct batch_page *p = &d->pages[i];
        if (mapped(d, p->vpn)) {
            if (p->access != REQ_LOAD && gmmu_is_read_only(d->gmmu, p->vpn))
                gmmu_set_writable(d->gmmu, p->vpn, now);
            d->unreplayed = true;
            continue;
        }
        unsigned adv = drv_advice(d, p->vpn);
        if ((adv & WL_ADV_PREFERRED_HOST) && !(adv & WL_ADV_READ_MOSTLY)) {
            drv_map_host(d, p->vpn, now);
            *d->n_remote += 1;
            d->unreplayed = true;
            continue;
        }
        if (drv_thrashing_fault(d, p->vpn, now)) continue;   /* throttled or pinned at host */
        any_ro = any_ro || (adv & WL_ADV_READ_MOSTLY);
        bb_set(&faulted, (unsigned)(p->vpn - base));
        if (p->access != REQ_LOAD) bb_set(&written, (unsigned)(p->vpn - base));
    }
    /* Only a prefetcher needs the block's residency (512 lookups). */
    if (d->prefetch != &prefetch_none_ops)
        for (unsigned p = 0; p < VA_BLOCK_PAGES; p++)
            if (mapped(d, base + p)) bb_set(&resident, p);
    drv_thrashing_prefetch(d, base, &resident, &faulted, &d->want);  /* prefetcher, less thrashing pages */
    d->faulted = faulted;
    /* A prefetch larger than GPU memory would evict the block's own faulted
     * pages before the replay (a livelock); the real driver cannot evict a
     * block it is servicing.  Such a block gets its faulted pages only. */
    if (bb_count(&d->want) > d->capacity) {
        d->want = faulted;
        *d->n_prefetch_dropped += 1;
    }
    *d->n_prefetched += bb_count(&d->want) - bb_count(&faulted);
    memset(&d->ro, 0, sizeof d->ro);
    if (any_ro)
        for (unsigned p = 0; p < VA_BLOCK_PAGES; p++)
            if (bb_test(&d->want, p) && !bb_test(&written, p) &&
                (drv_advice(d, base + p) & WL_ADV_READ_MOSTLY))
                bb_set(&d->ro, p);
    d->want_next = 0;
    d->block_ready = true;
}

static void d2h_landed(void *obj, uint64_t pfn, sim_time now)
{
    struct driver *d = obj;
    (void)pfn;
    d->pending_d2h--;
    comp_wake(&d->comp, now);
}

static void h2d_landed(void *obj, uint64_t idx, sim_time now)
{
    struct driver *d = obj;
    const struct run *r = &d->runs[idx];
    for (uint32_t i = r->first; i < r->first + r->n; i++) {
        const struct migr_page *m = &d->migr[i];
        gmmu_map_page(d->gmmu, m->vpn, m->pfn, PAGE_SHIFT, m->readonly ? GMMU_MAP_READONLY : 0, now);
        d->frames[m->pfn].since = now;
        evictor_resident(d->evict, m->vpn, m->prefetched);
    }
    *d->n_mapped += r->n;
    d->inflight -= r->n;
    d->unreplayed = true;
    /* block policy: replay when a block's last copy has landed, once every
     * page of it has been allocated (the service has moved past it). */
    if (d->replay == RP_BLOCK && !d->step_active &&
        (d->block_inflight[r->block] -= r->n) == 0 && r->block < d->cur_block)
        drv_replay(d, false, now);
    comp_wake(&d->comp, now);
}

/* Unmap resident page vpn from `frame`: shootdown, caches, write-back of
 * dirty data (or of all data without drop_clean). */
static void evict_page(struct driver *d, uint64_t vpn, uint64_t frame, sim_time now)
{
    bool dirty = gmmu_unmap(d->gmmu, vpn, now);
    tlb_shootdown(d->tlb, vpn, now);
    if (d->unmap_hook) d->unmap_hook(d->unmap_ctx, frame << PAGE_SHIFT, now);
    drv_frame_evicted(d, frame, vpn, now);
    drv_thrashing_evicted(d, vpn, now);
    /* An accessed-by page stays mapped for the GPU: to its host copy. */
    if (drv_advice(d, vpn) & WL_ADV_ACCESSED_BY_GPU) {
        drv_map_host(d, vpn, now);
        *d->n_accessed_by += 1;
    }
    *d->n_evictions += 1;
    d->batch_evictions++;
    if (!dirty) *d->n_clean += 1;
    if (dirty || !d->drop_clean) {
        *d->n_writebacks += 1;
        d->batch_d2h += PAGE_SIZE;
        d->pending_d2h++;
        link_dma(d->link, LINK_D2H, vpn << PAGE_SHIFT, PAGE_SIZE, now, d2h_landed, d, frame);
    }
}

/* The real driver evicts whole root chunks (uvm_pmm_gpu.c,
 * pick_root_chunk_to_evict / evict_root_chunk): every page mapped in the
 * victim's 2 MiB of frames goes, and the frames other than the victim's
 * return to the allocator.  Frames still being filled are not resident
 * and stay. */
static void evict_rest_of_root(struct driver *d, uint64_t victim_frame, sim_time now)
{
    uint64_t first = victim_frame / VA_BLOCK_PAGES * VA_BLOCK_PAGES;
    for (uint64_t f = first; f < first + VA_BLOCK_PAGES && f < d->capacity; f++) {
        uint64_t vpn = d->frames[f].vpn;
        if (f == victim_frame || vpn == NO_FRAME_PAGE || !gmmu_is_resident(d->gmmu, vpn))
            continue;
        evictor_forget(d->evict, vpn);
        evict_page(d, vpn, f, now);
        pmm_release(&d->pmm, f);
    }
}

/* Free a frame by evicting the policy's victim; false when no page can be
 * evicted (every resident page's frame is still being filled). */
static bool evict_one(struct driver *d, uint64_t *pfn, sim_time now)
{
    uint64_t vpn;
    if (!evictor_victim(d->evict, &vpn)) return false;
    /* HPE Sec. IV-B: the HIR goes to the driver before each eviction. */
    gmmu_hir_flush(d->gmmu, now);
    uint64_t frame = gmmu_frame_of(d->gmmu, vpn);
    evict_page(d, vpn, frame, now);
    if (d->evict_chunk) evict_rest_of_root(d, frame, now);
    *pfn = frame;
    return true;
}

/* Start the copies of the pages allocated since the last launch. */
static void launch_chunk(struct driver *d, sim_time now)
{
    size_t i = d->chunk_first;
    while (i < d->nmigr) {
        size_t j = i + 1;
        while (j < d->nmigr && d->migr[j].vpn == d->migr[j - 1].vpn + 1) j++;
        struct run *r = &d->runs[d->nruns];
        *r = (struct run){ (uint32_t)i, (uint32_t)(j - i), (uint32_t)d->cur_block };
        d->inflight += r->n;
        if (!d->step_active) d->block_inflight[d->cur_block] += r->n;
        *d->n_pages += r->n;
        *d->n_transfers += 1;
        d->batch_migrated += r->n;
        d->batch_h2d += (uint64_t)r->n * PAGE_SIZE;
        /* Host pages are identity-mapped: the DMA reads the page's own
         * host address (host DRAM row locality follows the VA). */
        link_dma(d->link, LINK_H2D, d->migr[i].vpn << PAGE_SHIFT, (uint64_t)r->n * PAGE_SIZE,
                 now, h2d_landed, d, d->nruns++);
        i = j;
    }
    d->chunk_first = d->nmigr;
}

/* The real driver populates a VA block with the largest chunks that the
 * region being made resident fills (uvm_va_block.c, block_populate_pages):
 * a whole 2 MiB block takes a root chunk, a whole 64 KiB big page a 64 KiB
 * chunk, the rest 4 KiB pieces; only 4 KiB pieces are freed by evicting. */
static void hold_run(struct driver *d, uint64_t base, unsigned i, uint64_t pfn, unsigned n,
                     sim_time now)
{
    for (unsigned k = 0; k < n; k++) {
        drv_frame_hold(d, pfn + k, base + i + k, now);
        drv_thrashing_migrated(d, base + i + k, now);
        d->migr[d->nmigr++] = (struct migr_page){ base + i + k, pfn + k, bb_test(&d->ro, i + k),
                                                  !bb_test(&d->faulted, i + k) };
    }
    d->want_next = i + n;
}

bool drv_block_fill(struct driver *d, uint64_t base, sim_time now)
{
    while (d->want_next < VA_BLOCK_PAGES) {
        unsigned i = d->want_next;
        if (!bb_test(&d->want, i)) { d->want_next++; continue; }
        uint64_t pfn;
        if (i == 0 && bb_count(&d->want) == VA_BLOCK_PAGES &&
            drv_frame_take(d, PMM_2M, &pfn)) {
            hold_run(d, base, i, pfn, VA_BLOCK_PAGES, now);
            continue;
        }
        if (i % BIG_PAGE_PAGES == 0 && bb_count_range(&d->want, i, BIG_PAGE_PAGES) == BIG_PAGE_PAGES &&
            drv_frame_take(d, PMM_64K, &pfn)) {
            hold_run(d, base, i, pfn, BIG_PAGE_PAGES, now);
            continue;
        }
        if (!drv_frame_take(d, PMM_4K, &pfn) && !evict_one(d, &pfn, now)) break;
        hold_run(d, base, i, pfn, 1, now);
    }
    if (d->pending_d2h) return false;          /* a write-back landing wakes us */
    launch_chunk(d, now);
    if (d->want_next < VA_BLOCK_PAGES) {
        SIM_ASSERT(d->inflight > 0, "driver", now,
                   "no frame free, none evictable and no copy in flight");
        return false;                           /* a copy landing wakes us */
    }
    return true;
}

bool drv_service(struct driver *d, sim_time now)
{
    while (d->cur_block < d->nblocks) {
        if (!d->block_ready) compute_block(d, now);
        if (!drv_block_fill(d, block_base(d), now)) return false;
        d->cur_block++;
        d->block_ready = false;
    }
    return true;
}

/* Servicing one batch's VA blocks in address order, as the real driver's
 * service_fault_batch_block (uvm_gpu_replayable_faults.c) and
 * uvm_va_block_make_resident: for each block
 *   1. the pages to migrate: the faulted driver pages that are not
 *      resident plus the prefetcher's choice over the block's allocated
 *      extent (driver.prefetch; prefetch.c); a fault on a page already
 *      mapped only needs its protection lifted;
 *   2. frames for them: page modes take a free chunk (a whole 2 MiB root
 *      when the whole block comes, a 64 KiB chunk for a whole big page or
 *      a 64 KiB driver page, else a 4 KiB piece: sized by what comes, not
 *      by the block's geometry as the real driver does) or the eviction
 *      policy's victim's frames (drv_evict.c); driver.evict_unit=chunk takes the
 *      frame the block's chunk has for the page, allocating the chunk
 *      (evicting a root chunk) when it has none (drv_chunks.c); the
 *      migration that needs evicted frames starts only when their
 *      write-backs have landed (batch-aware paper Sec. 3, Fig. 4), and
 *      driver.eviction_timing orders evictions against the other
 *      migrations (drv_ue.c: block, serial, unobtrusive, ideal);
 *   3. one H2D copy-engine transfer per run of virtually contiguous pages
 *      (the real driver copies contiguous regions with one CE operation;
 *      under replay_policy page one per driver page, as the batch-aware
 *      paper migrates the pages one after another); a run's pages are
 *      mapped when its last byte lands (drv_map.c), and the walks parked
 *      on them answered then (replay_policy page) or at the next replay
 *      (drv_loop.c).
 * When every frame holds a page still in flight, the allocation waits for
 * landings (tiny memories, large prefetches). */
#include <string.h>
#include "drv_internal.h"
#include "workloads/workload.h"
#include "core/stats.h"
#include "tlb/tlb.h"
#include "link/link.h"

static uint64_t block_base(const struct driver *d)
{
    return d->batch.pages[d->batch.block_start[d->batch.cur_block]].vpn / VA_BLOCK_PAGES * VA_BLOCK_PAGES;
}

/* A fault on a page whose preferred location is the host (cudaMemAdvise
 * SetPreferredLocation(cpu)) is answered with a remote mapping of the host
 * copy instead of a migration, as the real driver keeps a page at its
 * preferred location when the faulting GPU can map it
 * (uvm_va_policy / uvm_va_block_select_residency).  Read-mostly pages read
 * by the GPU are duplicated: copied and mapped read-only, the host copy
 * stays valid; a later write faults on the protection and collapses the
 * duplicates (the write lifts the protection here).  A driver page of
 * 64 KiB is resident whole or not at all, so its first page speaks for it. */
static void compute_block(struct driver *d, sim_time now)
{
    uint64_t base = block_base(d);
    drv_block_extent(d, base, &d->blk.blk_first, &d->blk.blk_end);
    SIM_ASSERT(d->blk.blk_first % d->unit == 0, "driver", now,
               "VA block at %#llx starts inside a driver page (allocations start 2 MiB-aligned)",
               (unsigned long long)base);
    struct block_bits resident = {{0}}, faulted = {{0}}, written = {{0}};
    bool any_ro = false;
    for (size_t i = d->batch.block_start[d->batch.cur_block]; i < d->batch.block_start[d->batch.cur_block + 1]; i++) {
        const struct batch_page *p = &d->batch.pages[i];
        unsigned lo = (unsigned)(p->vpn - base), hi = lo + d->unit;
        if (hi > d->blk.blk_end) hi = d->blk.blk_end;
        if (lo < d->blk.blk_first) lo = d->blk.blk_first;
        if (drv_mapped(d, p->vpn)) {
            if (!d->step.active) d->batch.batch_resident++;
            if (p->access != REQ_LOAD)
                for (unsigned k = lo; k < hi; k++)
                    if (gmmu_is_read_only(d->gmmu, base + k)) gmmu_set_writable(d->gmmu, base + k, now);
            d->unreplayed = true;
            continue;
        }
        unsigned adv = drv_advice(d, p->vpn);
        if ((adv & WL_ADV_PREFERRED_HOST) && !(adv & WL_ADV_READ_MOSTLY)) {
            for (unsigned k = lo; k < hi; k++)
                if (!drv_mapped(d, base + k)) drv_map_host(d, base + k, now);
            *d->stat.n_remote += 1;
            d->unreplayed = true;
            continue;
        }
        if (drv_thrashing_fault(d, p->vpn, now)) continue;   /* throttled or pinned at host */
        any_ro = any_ro || (adv & WL_ADV_READ_MOSTLY);
        bb_set_range(&faulted, lo, hi - lo);
        if (p->access != REQ_LOAD) bb_set_range(&written, lo, hi - lo);
    }
    /* Only a prefetcher needs the block's residency (512 lookups). */
    if (d->pol.prefetch != &prefetch_none_ops)
        for (unsigned p = d->blk.blk_first; p < d->blk.blk_end; p++)
            if (drv_mapped(d, base + p)) bb_set(&resident, p);
    struct prefetch_in in = { &resident, &faulted, NULL, d->blk.blk_first, d->blk.blk_end,
                              d->pol.prefetch_threshold };
    drv_thrashing_prefetch(d, base, &in, &d->blk.want);   /* prefetcher, less thrashing pages */
    /* A driver page comes whole (its part inside the block).  None of it
     * is resident: a driver page is resident whole or not at all
     * (drv_check_unit at every landing and eviction; a driver page's
     * pieces share one chunk, drv_chunks.c), and a resident piece's frame
     * would be given to it a second time. */
    drv_want_whole_pages(d);
    if (d->unit > 1)
        for (unsigned p = d->blk.blk_first; p < d->blk.blk_end; p++)
            SIM_ASSERT(!bb_test(&d->blk.want, p) || !gmmu_is_resident(d->gmmu, base + p), "driver", now,
                       "driver page %#llx wanted whole with its page %#llx resident",
                       (unsigned long long)drv_unit_base(d, base + p), (unsigned long long)(base + p));
    d->blk.faulted = faulted;
    /* A prefetch larger than GPU memory would evict the block's own faulted
     * pages before the replay (a livelock); the real driver cannot evict a
     * block it is servicing.  Such a block gets its faulted pages only. */
    if (bb_count(&d->blk.want) > d->mem.capacity) {
        d->blk.want = faulted;
        *d->stat.n_prefetch_dropped += 1;
    }
    *d->stat.n_prefetched += bb_count(&d->blk.want) - bb_count(&faulted);
    memset(&d->blk.ro, 0, sizeof d->blk.ro);
    if (any_ro)
        for (unsigned p = 0; p < VA_BLOCK_PAGES; p++)
            if (bb_test(&d->blk.want, p) && !bb_test(&written, p) &&
                (drv_advice(d, base + p) & WL_ADV_READ_MOSTLY))
                bb_set(&d->blk.ro, p);
    d->blk.want_next = 0;
    d->blk.block_ready = true;
}

static void h2d_landed(void *obj, uint64_t idx, sim_time now)
{
    struct driver *d = obj;
    const struct run *r = &d->batch.runs[idx];
    /* A page landing is progress for the watchdog (engine.h): a host step
     * copying more than sim.watchdog's worth of data retires nothing else. */
    engine_progress(d->comp.eng);
    drv_map_landed(d, &d->batch.migr[r->first], r->n, now);
    *d->stat.n_mapped += r->n;
    d->batch.inflight -= r->n;
    d->unreplayed = true;
    /* block policy: replay when a block's last copy has landed, once every
     * page of it has been allocated (the service has moved past it). */
    if (d->replay == RP_BLOCK && !d->step.active &&
        (d->batch.block_inflight[r->block] -= r->n) == 0 && r->block < d->batch.cur_block)
        drv_replay(d, false, now);
    comp_wake(&d->comp, now);
}

/* Start the copies of the pages allocated since the last launch. */
static void launch_chunk(struct driver *d, sim_time now)
{
    size_t i = d->blk.chunk_first;
    const bool per_page = d->replay == RP_PAGE;
    while (i < d->batch.nmigr) {
        /* A new page never overwrites one not yet evicted (batch-aware
         * Sec. 4.2): the frame's write-back has landed. */
        SIM_ASSERT(!drv_wb_busy(d, d->batch.migr[i].pfn), "driver", now,
                   "page %#llx copied into frame %llu before its evicted page's write-back landed",
                   (unsigned long long)d->batch.migr[i].vpn, (unsigned long long)d->batch.migr[i].pfn);
        size_t j = i + 1;
        while (j < d->batch.nmigr && d->batch.migr[j].vpn == d->batch.migr[j - 1].vpn + 1 &&
               !(per_page && d->batch.migr[j].vpn % d->unit == 0))
            j++;
        struct run *r = &d->batch.runs[d->batch.nruns];
        *r = (struct run){ (uint32_t)i, (uint32_t)(j - i), (uint32_t)d->batch.cur_block };
        d->batch.inflight += r->n;
        if (!d->step.active) d->batch.block_inflight[d->batch.cur_block] += r->n;
        *d->stat.n_pages += r->n;
        *d->stat.n_transfers += 1;
        d->batch.batch_migrated += r->n;
        d->batch.batch_h2d += (uint64_t)r->n * PAGE_SIZE;
        /* Host pages are identity-mapped: the DMA reads the page's own
         * host address (host DRAM row locality follows the VA). */
        link_dma(d->link, LINK_H2D, d->batch.migr[i].vpn << PAGE_SHIFT, (uint64_t)r->n * PAGE_SIZE,
                 now, h2d_landed, d, d->batch.nruns++);
        i = j;
    }
    d->blk.chunk_first = d->batch.nmigr;
}

/* Pages [i, i + n) of the block at base go to frames pfn.. (the wanted
 * ones; a 64 KiB driver page cut by the block's end holds fewer). */
static void hold_run(struct driver *d, uint64_t base, unsigned i, uint64_t pfn, unsigned n,
                     sim_time now)
{
    for (unsigned k = 0; k < n; k++) {
        if (!bb_test(&d->blk.want, i + k)) continue;
        bool pre = !bb_test(&d->blk.faulted, i + k);
        drv_frame_hold(d, pfn + k, base + i + k, pre, now);
        drv_post(d, DRV_EV_MIGRATED, base + i + k, now);
        d->batch.migr[d->batch.nmigr++] = (struct migr_page){ base + i + k, pfn + k, bb_test(&d->blk.ro, i + k), pre };
    }
    d->blk.want_next = i + n;
}

/* Page modes: the largest chunk the wanted pages fill (a whole 2 MiB block
 * a root chunk, a whole big page or a 64 KiB driver page a 64 KiB chunk,
 * else a 4 KiB piece), so that the frames of a page-granular policy stay
 * as compact as the real driver's chunks without taking memory for pages
 * that do not come; with none free, the policy's victim's frames. */
static bool fill_paged(struct driver *d, uint64_t base, unsigned i, sim_time now)
{
    uint64_t pfn;
    if (i == 0 && bb_count(&d->blk.want) == VA_BLOCK_PAGES && drv_frame_take(d, PMM_2M, &pfn)) {
        hold_run(d, base, i, pfn, VA_BLOCK_PAGES, now);
        return true;
    }
    unsigned n = d->unit;
    if (n == 1 && i % BIG_PAGE_PAGES == 0 &&
        bb_count_range(&d->blk.want, i, BIG_PAGE_PAGES) == BIG_PAGE_PAGES)
        n = BIG_PAGE_PAGES;
    if (n == BIG_PAGE_PAGES && drv_frame_take(d, PMM_64K, &pfn)) {
        hold_run(d, base, i, pfn, n, now);
        return true;
    }
    n = d->unit;
    if (n == 1 && drv_frame_take(d, PMM_4K, &pfn)) {
        hold_run(d, base, i, pfn, 1, now);
        return true;
    }
    if (d->evict_timing == ET_UNOBTRUSIVE) {
        if (!drv_ue_take(d, &pfn, now)) return false;
    } else {
        /* serial: the eviction waits for every copy of the batch started
         * or allocated before it (batch-aware Sec. 3, Fig. 4); ideal
         * keeps that order, its evictions costing nothing. */
        if ((d->evict_timing == ET_SERIAL || d->evict_timing == ET_IDEAL) &&
            (d->batch.inflight || d->blk.pending_d2h || d->batch.nmigr > d->blk.chunk_first))
            return false;
        if (!drv_evict_victim(d, &pfn, now)) return false;
    }
    hold_run(d, base, i, pfn, n, now);
    return true;
}

/* Unobtrusive eviction: does another page of this batch (or host step)
 * still need a frame after the one just started? */
static bool more_to_come(const struct driver *d)
{
    if (d->blk.want_next < VA_BLOCK_PAGES &&
        bb_count_range(&d->blk.want, d->blk.want_next, VA_BLOCK_PAGES - d->blk.want_next))
        return true;
    if (d->step.active)         /* bring_in: the blocks after step.next's */
        return d->step.next / VA_BLOCK_PAGES * VA_BLOCK_PAGES + VA_BLOCK_PAGES < d->step.end;
    return d->batch.cur_block + 1 < d->batch.nblocks;
}

bool drv_block_fill(struct driver *d, uint64_t base, sim_time now)
{
    const bool ue = d->evict_timing == ET_UNOBTRUSIVE;
    while (d->blk.want_next < VA_BLOCK_PAGES) {
        unsigned i = d->blk.want_next;
        if (!bb_test(&d->blk.want, i)) { d->blk.want_next++; continue; }
        if (d->chunked) {
            uint64_t pfn;
            if (!drv_chunk_frame(d, base, i, &pfn, now)) break;
            hold_run(d, base, i, pfn, 1, now);
        } else if (!fill_paged(d, base, i, now)) {
            break;
        }
        if (ue) {
            /* Its copy starts now; the next eviction runs beside it. */
            launch_chunk(d, now);
            drv_ue_ahead(d, more_to_come(d), now);
        }
    }
    if (d->blk.pending_d2h && !ue) return false;   /* a write-back landing wakes us */
    launch_chunk(d, now);
    if (d->blk.want_next < VA_BLOCK_PAGES) {
        SIM_ASSERT(d->batch.inflight > 0 || (ue && d->blk.pending_d2h), "driver", now,
                   "no frame free, none evictable and no copy in flight");
        return false;                           /* a landing wakes us */
    }
    return true;
}

/* The CPU work of servicing the block just computed, before its copies
 * start: driver.page_cost per page it migrates (the real driver's
 * uvm_va_block_make_resident: block_populate_pages, the DMA mappings of
 * the host pages, block_unmap_cpu, the PTE writes of uvm_va_block_map),
 * and driver.new_block_cost the first time a fault batch services the
 * block (uvm_va_block_find_create, uvm_va_block_gpu_state_get_alloc,
 * block_pre_populate_pde1_gpu, the root chunk's alloc_root_chunk and
 * block_zero_new_gpu_chunk).  With both 0 nothing waits.  A prefetch to
 * the GPU (drv_step.c) runs the same functions: uvm_migrate.c's
 * uvm_va_block_migrate_locked calls uvm_va_block_make_resident and then
 * adds the mappings, creating the block first (uvm_va_block_find_create),
 * and so does an access-counter migration (drv_access_counters.c:
 * service_va_block_locked -> uvm_va_block_service_locked).
 * driver.first_fault_cost stays the first fault batch's (drv_batch.c): the
 * fit cannot split its fault set-up from the page tree's first levels. */
sim_time drv_block_cpu_cost(struct driver *d, uint64_t base)
{
    sim_time t = d->cost.page_cost * bb_count(&d->blk.want);
    if (d->cost.new_block_cost && page_map_get(&d->seen_blocks, base / VA_BLOCK_PAGES) == PAGE_MAP_NONE) {
        page_map_put(&d->seen_blocks, base / VA_BLOCK_PAGES, 1);
        t += d->cost.new_block_cost;
    }
    return t;
}

sim_time drv_service_wake(const struct driver *d, sim_time now)
{
    return d->blk.block_ready && d->blk.ready_at > now ? d->blk.ready_at : TIME_NEVER;
}

bool drv_service(struct driver *d, sim_time now)
{
    while (d->batch.cur_block < d->batch.nblocks) {
        if (!d->blk.block_ready) {
            d->blk.blk_t0 = now;
            compute_block(d, now);
            d->blk.ready_at = now + drv_block_cpu_cost(d, block_base(d));
        }
        if (now < d->blk.ready_at) return false;    /* drv_service_wake */
        if (!drv_block_fill(d, block_base(d), now)) return false;
        if (TRACE_ON(TW_BATCHES)) trace_block(block_base(d), d->blk.blk_t0, now);
        d->batch.cur_block++;
        d->blk.block_ready = false;
    }
    return true;
}

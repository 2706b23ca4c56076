/* Host steps between kernels, run on the driver thread while the GPU waits
 * (the stream's order: the next kernel launches when the step completes):
 *   prefetch to GPU (cudaMemPrefetchAsync): the range's absent pages are
 *     migrated block by block exactly as faulted pages are (frames,
 *     eviction, runs of contiguous pages as one copy), without a fault
 *     batch's handling time but with its per-page and new-block CPU work;
 *     as the real driver's uvm_migrate, which makes each 2 MiB VA block
 *     resident in turn;
 *   memcpy H2D (the legacy explicit-copy baseline): the same copy into
 *     GPU frames, plus a copy of the range's pages already resident;
 *   prefetch to host: the range's GPU-resident pages (whole driver pages)
 *     leave GPU memory (unmapped, shot down, frames freed, the eviction
 *     policy told through its forget op; under driver.evict_unit=chunk the
 *     block keeps its chunks, as the real driver does, and a root chunk
 *     left without resident pages goes to the UNUSED list); every page
 *     (the written ones with driver.drop_clean) goes back in one D2H
 *     transfer per contiguous run.  Policies without a forget op (only
 *     FIFO, LRU and random have one) get the copy without the move, as a
 *     memcpy D2H;
 *   memcpy D2H: the range's GPU-resident pages are copied back, one D2H
 *     transfer per run, and stay on the GPU;
 *   advise: the allocation's hint bits change (set or unset); they act at
 *     the next fault (drv_block.c): preferred location host -> remote
 *     mapping, read-mostly -> read-only duplicate.  Accessed-by and
 *     preferred location GPU change nothing in this model (the GPU is the
 *     only processor that faults). */
#include <stdlib.h>
#include <string.h>
#include "drv_internal.h"
#include "core/stats.h"
#include "link/link.h"
#include "tlb/tlb.h"
#include "workloads/workload.h"

void driver_set_workload(struct driver *d, const struct workload *wl)
{
    free(d->allocs);
    d->allocs = xcalloc(wl->nallocs ? wl->nallocs : 1, sizeof *d->allocs);
    d->nallocs = wl->nallocs;
    for (size_t i = 0; i < wl->nallocs; i++)
        d->allocs[i] = (struct drv_alloc){ wl->allocs[i].base >> PAGE_SHIFT,
                                           (wl->allocs[i].size + PAGE_SIZE - 1) >> PAGE_SHIFT,
                                           wl->allocs[i].advice };
}

void driver_host_step(struct driver *d, const struct wl_step *step,
                      driver_step_done done, void *ctx, sim_time now)
{
    const struct wl_host_step *s = &step->host;
    SIM_ASSERT(!d->step.active, "driver", now, "host step while another runs");
    SIM_ASSERT(s->alloc < d->nallocs, "driver", now,
               "host step on allocation %u of %zu (driver_set_workload)", s->alloc, d->nallocs);
    const struct drv_alloc *a = &d->allocs[s->alloc];
    uint64_t first = a->first_vpn + (s->offset >> PAGE_SHIFT);
    uint64_t end = a->first_vpn + ((s->offset + s->bytes + PAGE_SIZE - 1) >> PAGE_SHIFT);
    d->step = (struct drv_step){ (int)step->kind, s->dir, s->advice, s->unset, s->device, s->alloc,
                                 first, end, first, s->bytes, false, true, done, ctx };
    d->blk.block_ready = false;
    *d->stat.n_steps += 1;
    comp_wake(&d->comp, now);
}

/* A step's copy of resident pages (either direction) has landed. */
static void d2h_step_landed(void *obj, uint64_t bytes, sim_time now)
{
    struct driver *d = obj;
    (void)bytes;
    engine_progress(d->comp.eng);          /* a copy landed (watchdog) */
    d->blk.pending_d2h--;
    comp_wake(&d->comp, now);
}

/* One transfer in `dir` per run of GPU-resident pages of the range, all
 * issued at once; a range smaller than its pages moves only its bytes. */
static void copy_resident(struct driver *d, enum link_dir dir, sim_time now)
{
    uint64_t v = d->step.first;
    while (v < d->step.end) {
        if (!gmmu_is_resident(d->gmmu, v)) { v++; continue; }
        uint64_t w = v + 1;
        while (w < d->step.end && gmmu_is_resident(d->gmmu, w)) w++;
        uint64_t bytes = (w - v) * PAGE_SIZE;
        if (bytes > d->step.bytes) bytes = d->step.bytes;
        *(dir == LINK_D2H ? d->stat.n_step_d2h : d->stat.n_step_h2d) += bytes;
        d->blk.pending_d2h++;
        link_dma(d->link, dir, v << PAGE_SHIFT, bytes, now, d2h_step_landed, d, bytes);
        v = w;
    }
    d->step.copied = true;
}

/* Prefetch to host: move the range's resident pages out of GPU memory,
 * whole driver pages, one 2 MiB region at a time (drv_evict.c: written
 * pages, or all without drop_clean, go back one D2H run each). */
static void send_home(struct driver *d, sim_time now)
{
    uint64_t v = drv_unit_base(d, d->step.first);
    while (v < d->step.end) {
        uint64_t end = (v / VA_BLOCK_PAGES + 1) * VA_BLOCK_PAGES;
        if (end > d->step.end) end = d->step.end;
        end = (end + d->unit - 1) / d->unit * d->unit;
        /* A 64 KiB driver page cut by its allocation's end held a whole
         * 64 KiB chunk: the frames it did not fill go back too. */
        uint64_t f0[VA_BLOCK_PAGES / BIG_PAGE_PAGES];
        unsigned nu = 0;
        if (d->unit > 1 && !d->chunked)
            for (uint64_t u = v; u < end; u += d->unit)
                f0[nu++] = gmmu_is_resident(d->gmmu, u) ? gmmu_frame_of(d->gmmu, u) : UINT64_MAX;
        drv_unmap_pages(d, v, (unsigned)(end - v), true, now);
        for (uint64_t u = v; u < end; u += d->unit) drv_check_unit(d, u, now, "a prefetch to the host");
        for (unsigned k = 0; k < nu; k++)
            for (uint64_t f = f0[k]; f0[k] != UINT64_MAX && f < f0[k] + d->unit; f++)
                if (d->mem.pmm.used[f]) pmm_release(&d->mem.pmm, f);
        v = end;
    }
    d->step.copied = true;
}

/* To the GPU: one VA block of the range at a time. */
static bool bring_in(struct driver *d, sim_time now)
{
    while (d->step.next < d->step.end) {
        uint64_t base = d->step.next / VA_BLOCK_PAGES * VA_BLOCK_PAGES;
        if (!d->blk.block_ready) {
            /* Landed copies free their migr slots only between blocks. */
            if (d->batch.nmigr + VA_BLOCK_PAGES > (size_t)d->cost.batch_size * VA_BLOCK_PAGES) {
                if (d->batch.inflight) return false;
                d->batch.nmigr = d->batch.nruns = d->blk.chunk_first = 0;
            }
            memset(&d->blk.want, 0, sizeof d->blk.want);
            memset(&d->blk.ro, 0, sizeof d->blk.ro);
            memset(&d->blk.faulted, 0, sizeof d->blk.faulted);   /* every page is a prefetch */
            drv_block_extent(d, base, &d->blk.blk_first, &d->blk.blk_end);
            /* Whole driver pages, inside the block. */
            uint64_t first = drv_unit_base(d, d->step.next);
            uint64_t end = base + VA_BLOCK_PAGES < d->step.end ? base + VA_BLOCK_PAGES : d->step.end;
            end = (end + d->unit - 1) / d->unit * d->unit;
            if (end > base + d->blk.blk_end) end = base + d->blk.blk_end;
            if (first < base + d->blk.blk_first) first = base + d->blk.blk_first;
            for (uint64_t v = first; v < end; v++) {
                /* A prefetch moves a remotely mapped page too (accessed-by
                 * or preferred-host mappings): the remote mapping goes, the
                 * landing maps it in GPU memory. */
                if (gmmu_is_remote(d->gmmu, v)) {
                    gmmu_unmap(d->gmmu, v, now);
                    tlb_shootdown(d->tlb, v, now);
                }
                if (!gmmu_is_resident(d->gmmu, v)) {
                    bb_set(&d->blk.want, (unsigned)(v - base));
                    if (drv_advice(d, v) & WL_ADV_READ_MOSTLY) bb_set(&d->blk.ro, (unsigned)(v - base));
                }
            }
            unsigned nwant = bb_count(&d->blk.want);
            *d->stat.n_step_h2d += (uint64_t)nwant * PAGE_SIZE;
            d->blk.want_next = 0;
            d->blk.block_ready = true;
            /* cudaMemPrefetchAsync is uvm_migrate: the fault path's CPU
             * work per page and per new block (drv_block_cpu_cost).  A
             * memcpy (or the Baseline's stand-in for cudaMalloc) writes
             * device memory the UVM driver does not manage. */
            d->blk.ready_at = now;
            if (d->step.kind == WL_STEP_PREFETCH && !d->step.device && nwant)
                d->blk.ready_at += drv_block_cpu_cost(d, base);
        }
        if (now < d->blk.ready_at) return false;    /* drv_service_wake */
        if (!drv_block_fill(d, base, now)) return false;
        d->blk.block_ready = false;
        d->step.next = base + VA_BLOCK_PAGES;
    }
    return true;
}

bool drv_step_service(struct driver *d, sim_time now)
{
    struct drv_alloc *a = &d->allocs[d->step.alloc];
    switch (d->step.kind) {
    case WL_STEP_ADVISE:
        if (d->step.unset) a->advice &= ~(unsigned)d->step.advice;
        else a->advice |= (unsigned)d->step.advice;
        /* SetAccessedBy(gpu) keeps the GPU mapped to the data wherever it
         * lives and never migrates it by itself (CUDA programming guide,
         * cudaMemAdvise; the real driver maps eagerly,
         * uvm_va_policy / uvm_va_range_set_accessed_by): pages not in GPU
         * memory are mapped remotely now, so GPU accesses do not fault. */
        if (!d->step.unset && (d->step.advice & WL_ADV_ACCESSED_BY_GPU))
            for (uint64_t v = d->step.first; v < d->step.end; v++)
                if (!gmmu_is_resident(d->gmmu, v) && !gmmu_is_remote(d->gmmu, v)) {
                    drv_map_host(d, v, now);
                    *d->stat.n_accessed_by += 1;
                }
        break;
    case WL_STEP_PREFETCH:
    case WL_STEP_MEMCPY:
        if (d->placed) {
            /* Pages were placed at allocation (drv_place.c): nothing moves. */
            *d->stat.n_copies_skipped += 1;
            break;
        }
        if (d->step.dir == WL_TO_GPU) {
            /* A memcpy writes the pages already on the GPU too. */
            if (d->step.kind == WL_STEP_MEMCPY && !d->step.copied) copy_resident(d, LINK_H2D, now);
            if (!bring_in(d, now)) return false;
        } else if (!d->step.copied) {
            if (d->step.kind == WL_STEP_PREFETCH && (d->chunked || evictor_can_forget(d->pol.evict)))
                send_home(d, now);
            else copy_resident(d, LINK_D2H, now);
        }
        break;
    default:
        sim_panic("driver", now, "host step of kind %d", d->step.kind);
    }
    if (d->batch.inflight || d->blk.pending_d2h) return false;
    d->batch.nmigr = d->batch.nruns = d->blk.chunk_first = 0;
    return true;
}

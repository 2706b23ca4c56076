/* Pages leaving GPU memory: an eviction (the policy's victim driver page,
 * or a whole root chunk under driver.evict_unit=chunk) or a prefetch to the
 * host.  Each mapping is torn down at the size it has: a large PTE that
 * reaches outside the pages leaving is split first, as the real driver's
 * block_gpu_split_2m / block_gpu_split_big (uvm_va_block.c), so the pages
 * staying keep their translations; one ranged TLB shootdown covers the
 * pages leaving (uvm_tlb_batch_invalidate).  Their data goes back to the
 * host: every page, since the real driver copies each evicted chunk back
 * without dirty tracking (uvm_va_block_evict_chunks), and both the HPE and
 * batch-aware papers count that copy; with driver.drop_clean only the pages
 * the GPU wrote.  One D2H transfer per contiguous run, as the real driver
 * copies contiguous regions with one copy-engine operation; the migration
 * that waits for the frames starts when they have landed (batch-aware
 * Sec. 3, Fig. 4: eviction serialised before migration; the frames of each
 * write-back in flight are marked busy, drv_ue.c).  Under
 * driver.eviction_timing=ideal (batch-aware Fig. 8) the write-back costs
 * nothing: counted, but not sent. */
#include "drv_internal.h"
#include "core/stats.h"
#include "tlb/tlb.h"
#include "link/link.h"
#include "workloads/workload.h"

static void d2h_landed(void *obj, uint64_t arg, sim_time now)
{
    struct driver *d = obj;
    engine_progress(d->comp.eng);          /* a write-back landed */
    drv_wb_end(d, arg, now);
    d->blk.pending_d2h--;
    comp_wake(&d->comp, now);
}

/* Pages [first, first + n) leave frames pfn[0..n). */
static void copy_back(struct driver *d, uint64_t first, unsigned n, const uint64_t *pfn,
                      bool home, sim_time now)
{
    if (!n) return;
    uint64_t bytes = (uint64_t)n * PAGE_SIZE;
    *d->stat.n_writebacks += n;
    if (d->evict_timing == ET_IDEAL && !home) return;
    if (home) {
        *d->stat.n_step_d2h += bytes;
    } else {
        d->batch.batch_d2h += bytes;
    }
    d->blk.pending_d2h++;
    link_dma(d->link, LINK_D2H, first << PAGE_SHIFT, bytes, now, d2h_landed, d,
             drv_wb_begin(d, pfn, n, now));
}

/* Split the large page holding vpn until it lies within [lo, hi). */
static void split_to_fit(struct driver *d, uint64_t vpn, uint64_t lo, uint64_t hi, sim_time now)
{
    if (!gmmu_is_resident(d->gmmu, vpn)) return;
    for (unsigned s = gmmu_page_shift(d->gmmu, vpn); s > PAGE_SHIFT; s = gmmu_page_shift(d->gmmu, vpn)) {
        uint64_t n = 1ULL << (s - PAGE_SHIFT), b = vpn & ~(n - 1);
        if (b >= lo && b + n <= hi) return;
        gmmu_set_page_size(d->gmmu, vpn, s == 21 ? 16 : PAGE_SHIFT, now);
    }
}

unsigned drv_unmap_pages(struct driver *d, uint64_t vpn, unsigned n, bool home, sim_time now)
{
    SIM_ASSERT(n && n <= VA_BLOCK_PAGES && vpn / VA_BLOCK_PAGES == (vpn + n - 1) / VA_BLOCK_PAGES,
               "driver", now, "unmap of %u pages from %#llx", n, (unsigned long long)vpn);
    split_to_fit(d, vpn, vpn, vpn + n, now);
    split_to_fit(d, vpn + n - 1, vpn, vpn + n, now);
    struct block_bits copy = {{0}};
    uint64_t pfn[VA_BLOCK_PAGES];       /* frame of each page leaving */
    unsigned count = 0;
    for (uint64_t v = vpn; v < vpn + n;) {
        if (!gmmu_is_resident(d->gmmu, v)) { v++; continue; }
        uint64_t m = 1ULL << (gmmu_page_shift(d->gmmu, v) - PAGE_SHIFT), f0 = gmmu_frame_of(d->gmmu, v);
        SIM_ASSERT(v % m == 0, "driver", now, "page %#llx inside a large page", (unsigned long long)v);
        bool dirty = gmmu_unmap(d->gmmu, v, now);
        for (uint64_t k = 0; k < m; k++, v++) {
            if (d->unmap_hook) d->unmap_hook(d->unmap_ctx, (f0 + k) << PAGE_SHIFT, now);
            if (dirty || !d->drop_clean) bb_set(&copy, (unsigned)(v - vpn));
            pfn[v - vpn] = f0 + k;
            count++;
            if (home) {
                drv_post(d, DRV_EV_RELEASED, v, now);
                drv_frame_released(d, f0 + k, v, now);
                *d->stat.n_sent_home += 1;
                continue;
            }
            if (TRACE_ON(TW_EVICT)) trace_evict(v, f0 + k, now);
            drv_frame_evicted(d, f0 + k, v, now);
            *d->stat.n_evictions += 1;
            d->batch.batch_evictions++;
            if (!dirty) *d->stat.n_clean += 1;
            drv_post(d, DRV_EV_EVICTED, v, now);
            /* An accessed-by page stays mapped for the GPU: to its host
             * copy; so does any page access counters can bring back
             * (map_remote_on_eviction, drv_ac_on_event). */
            if (drv_advice(d, v) & WL_ADV_ACCESSED_BY_GPU) {
                drv_map_host(d, v, now);
                *d->stat.n_accessed_by += 1;
            }
        }
    }
    if (count) tlb_shootdown_range(d->tlb, vpn, n, now);
    for (unsigned i = 0; i < n;) {
        if (!bb_test(&copy, i)) { i++; continue; }
        unsigned j = i;
        while (j < n && bb_test(&copy, j)) j++;
        copy_back(d, vpn + i, j - i, pfn + i, home, now);
        i = j;
    }
    return count;
}

bool drv_evict_victim(struct driver *d, uint64_t *pfn, sim_time now)
{
    uint64_t vpn;
    if (!evictor_victim(d->pol.evict, &vpn)) return false;
    /* HPE Sec. IV-B: the HIR goes to the driver before each eviction. */
    gmmu_hir_flush(d->gmmu, now);
    uint64_t frame = gmmu_frame_of(d->gmmu, vpn);
    SIM_ASSERT(vpn % d->unit == 0 && frame % d->unit == 0, "driver", now,
               "victim %#llx in frame %llu is not a whole driver page",
               (unsigned long long)vpn, (unsigned long long)frame);
    drv_unmap_pages(d, vpn, d->unit, false, now);
    drv_check_unit(d, vpn, now, "an eviction");
    *pfn = frame;
    return true;
}

void drv_evict_on_event(void *ctx, const struct drv_event *e)
{
    struct driver *d = ctx;
    if (e->vpn != drv_unit_base(d, e->vpn)) return;
    if (e->kind == DRV_EV_RELEASED) evictor_forget(d->pol.evict, e->vpn);
    else evictor_resident(d->pol.evict, e->vpn, e->kind == DRV_EV_PREFETCHED);
}

/* The policy sees driver pages; under evict_unit chunk it sees nothing. */
void driver_walk_hit(struct driver *d, uint64_t vpn)
{
    if (!d->chunked) evictor_touch(d->pol.evict, drv_unit_base(d, vpn));
}

bool driver_wants_walk_hits(const struct driver *d)
{
    return !d->chunked && evictor_wants_touches(d->pol.evict);
}

void driver_hit_info(struct driver *d, uint64_t vpn, uint32_t count)
{
    if (!d->chunked) evictor_hits(d->pol.evict, drv_unit_base(d, vpn), count);
}

bool driver_wants_references(const struct driver *d) { return !d->chunked && evictor_wants_references(d->pol.evict); }

void driver_reference(struct driver *d, uint64_t kernel, uint64_t block, uint64_t inst,
                      uint32_t warp, uint64_t vpn)
{
    if (d->chunked) return;
    struct evict_ref r = { kernel, block, inst, drv_unit_base(d, vpn), warp };
    evictor_reference(d->pol.evict, &r);
}

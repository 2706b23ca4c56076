/* Static placement (driver.placement other than fault; thesis Ch. IV):
 * before the first kernel every page of every allocation is mapped, in
 * GPU memory (a frame, resident as if it had landed) or remotely to its
 * host copy, as the policy (placement.h) decides -- no faults, no copies,
 * no time.  Host steps that copy (prefetch, memcpy) are then skipped: the
 * thesis' placement is the OS's at allocation time, with nothing to copy. */
#include <stdlib.h>
#include <string.h>
#include "drv_internal.h"
#include "driver/place/placement.h"
#include "config/config.h"
#include "core/stats.h"
#include "workloads/workload.h"

double driver_bo_share(const struct config *cfg, double bw_gpu, double bw_host)
{
    double x = cfg_f64(cfg, "driver.place.co_percent");
    if (x >= 0) return 1.0 - x / 100.0;
    /* Sec. 4.2.1: f_B = b_B / (b_B + b_C). */
    return bw_gpu / (bw_gpu + bw_host);
}

uint64_t driver_place(struct driver *d, const struct config *cfg, const struct workload *wl,
                      double bo_share, struct stats *st)
{
    const struct place_ops *ops = place_find(cfg_str(cfg, "driver.placement"));
    if (!ops) return 0;
    d->placed = true;
    struct place_alloc a[WL_MAX_ALLOCS];
    uint64_t npages = 0;
    for (size_t i = 0; i < wl->nallocs; i++) {
        uint64_t n = (wl->allocs[i].size + PAGE_SIZE - 1) / PAGE_SIZE;
        a[i] = (struct place_alloc){ n, wl->allocs[i].hint, wl->allocs[i].hotness, wl->allocs[i].size };
        npages += n;
    }
    struct place_profile prof = { 0 };
    const char *path = cfg_str(cfg, "driver.place.profile");
    if (path[0]) {
        place_profile_read(path, "driver.place.profile", wl, &prof);
        /* The profiler's references are the allocations' hotness (Sec. 4.4.1). */
        for (size_t i = 0; i < wl->nallocs; i++) a[i].hotness = (double)prof.refs[i];
    }
    struct place_in in = { a, wl->nallocs, npages, d->mem.capacity, bo_share,
                           cfg_u64(cfg, "sim.seed"), prof.page_dram };
    uint8_t *where = xmalloc(npages ? npages : 1);
    ops->place(&in, where);
    uint64_t k = 0, host = 0, gpu = 0;
    for (size_t i = 0; i < wl->nallocs; i++) {
        uint64_t v0 = wl->allocs[i].base >> PAGE_SHIFT;
        for (uint64_t p = 0; p < a[i].npages; p++, k++) {
            uint64_t vpn = v0 + p, pfn;
            if (where[k] == PLACE_HOST) {
                drv_map_host(d, vpn, 0);
                host++;
                continue;
            }
            SIM_ASSERT(drv_frame_take(d, PMM_4K, &pfn), "driver", 0,
                       "placement '%s' put more pages in GPU memory than its %llu frames",
                       ops->name, (unsigned long long)d->mem.capacity);
            drv_frame_hold(d, pfn, vpn, false, 0);
            gmmu_map_page(d->gmmu, vpn, pfn, PAGE_SHIFT, 0, 0);
            drv_frame_landed(d, pfn, 0);
            drv_post(d, DRV_EV_RESIDENT, vpn, 0);
            gpu++;
        }
    }
    free(where);
    place_profile_free(&prof);
    *stat_counter(st, "placement.gpu_pages", "pages",
                  "pages placed in GPU memory before the first kernel") = gpu;
    *stat_counter(st, "placement.host_pages", "pages",
                  "pages placed in host memory (reached over the link)") = host;
    *stat_real(st, "placement.bo_share", "", "the GPU memory's intended share y/100 of xC-yB") =
        bo_share;
    d->stat.n_copies_skipped = stat_counter(st, "placement.copies_skipped", "steps",
                                       "prefetch and memcpy steps skipped: pages are placed");
    return host;
}

bool driver_placed(const struct driver *d) { return d->placed; }

/* ---- the profiling pass (uvmsim profile; thesis Sec. 4.3.2, 4.4.1) ---- */

struct driver_profile {
    const struct driver *d;
    const struct workload *wl;
    struct place_profile p;
    uint64_t first[WL_MAX_ALLOCS + 1];
};

struct driver_profile *driver_profile_new(const struct driver *d, const struct workload *wl)
{
    struct driver_profile *p = xcalloc(1, sizeof *p);
    p->d = d;
    p->wl = wl;
    for (size_t i = 0; i < wl->nallocs; i++)
        p->first[i + 1] = p->first[i] + (wl->allocs[i].size + PAGE_SIZE - 1) / PAGE_SIZE;
    p->p.nallocs = wl->nallocs;
    p->p.npages = p->first[wl->nallocs];
    p->p.page_dram = xcalloc(p->p.npages ? p->p.npages : 1, sizeof *p->p.page_dram);
    return p;
}

void driver_profile_free(struct driver_profile *p)
{
    if (!p) return;
    place_profile_free(&p->p);
    free(p);
}

/* The allocation holding vpn (a handful: a scan), or nallocs. */
static size_t alloc_of(const struct driver_profile *p, uint64_t vpn, uint64_t *page)
{
    for (size_t i = 0; i < p->wl->nallocs; i++) {
        uint64_t v0 = p->wl->allocs[i].base >> PAGE_SHIFT;
        if (vpn - v0 < p->first[i + 1] - p->first[i]) { *page = vpn - v0; return i; }
    }
    return p->wl->nallocs;
}

void driver_profile_ref(struct driver_profile *p, uint64_t vpn)
{
    uint64_t pg;
    size_t i = alloc_of(p, vpn, &pg);
    if (i < p->wl->nallocs) p->p.refs[i]++;
}

/* Weighted by the request's 32 B sectors: the oracle fills "the GDDR
 * bandwidth" (Sec. 4.3.2), and in a sectored memory system a one-sector
 * request moves a quarter of a full line's bytes; GPGPU-Sim 3.x, the
 * thesis' simulator, moved whole 128 B lines, where requests and bytes
 * agree.  Counting requests put kmeans' uncoalesced feature reads (one
 * sector each) ahead of its coalesced ones in the oracle's order. */
void driver_profile_dram(struct driver_profile *p, uint64_t pa, unsigned sectors)
{
    /* GPU frames hold the pages (the pass places everything locally);
     * a host address is the page's own (drv_map_host: identity). */
    uint64_t vpn;
    if (pa & PADDR_HOST) {
        vpn = (pa & ~PADDR_HOST) >> PAGE_SHIFT;
    } else {
        uint64_t pfn = pa >> PAGE_SHIFT;
        if (pfn >= p->d->mem.capacity) return;
        vpn = drv_frame_vpn(p->d, pfn);
        if (vpn == NO_FRAME_PAGE) return;
    }
    uint64_t pg;
    size_t i = alloc_of(p, vpn, &pg);
    if (i == p->wl->nallocs) return;       /* page-table reads and the like */
    p->p.dram[i] += sectors;
    p->p.page_dram[p->first[i] + pg] += sectors;
}

void driver_profile_write(const struct driver_profile *p, FILE *f)
{
    place_profile_write(f, p->wl, &p->p);
}

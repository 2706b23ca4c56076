/* The thread's side of the migration wing (migrate/, thesis Ch. V): the
 * struct migr_host it hands the wing at create -- the frames, the landing
 * and the unmap hook, so that the wing calls back into the thread only
 * through this table -- and driver.h's entry points, which forward to the
 * wing (none of them does anything under driver.migration none). */
#include "drv_internal.h"
#include "driver/migrate/migrate.h"

static bool host_frame_take(void *ctx, uint64_t *pfn) { return drv_frame_take(ctx, PMM_4K, pfn); }

/* No fault asked for the page: a prefetch for the eviction bookkeeping. */
static void host_frame_hold(void *ctx, uint64_t pfn, uint64_t vpn, sim_time now)
{ drv_frame_hold(ctx, pfn, vpn, true, now); }

static void host_unmapped(void *ctx, uint64_t pa, sim_time now)
{
    struct driver *d = ctx;
    if (d->unmap_hook) d->unmap_hook(d->unmap_ctx, pa, now);
}

static void host_landed(void *ctx, uint64_t vpn, uint64_t pfn, sim_time now)
{
    struct driver *d = ctx;
    drv_frame_landed(d, pfn, now);
    drv_post(d, DRV_EV_PREFETCHED, vpn, now);
}

static uint64_t host_frame_vpn(const void *ctx, uint64_t pfn) { return drv_frame_vpn(ctx, pfn); }

static bool host_alloc_of(const void *ctx, uint64_t vpn, uint64_t *first, uint64_t *end)
{
    const struct driver *d = ctx;
    for (size_t i = 0; i < d->nallocs; i++)
        if (vpn - d->allocs[i].first_vpn < d->allocs[i].npages) {
            *first = d->allocs[i].first_vpn;
            *end = *first + d->allocs[i].npages;
            return true;
        }
    return false;
}

struct migr *drv_migrate_create(struct driver *d, const struct config *cfg, struct stats *st)
{
    struct migr_host h = {
        d, d->comp.eng, d->comp.dom, d->gmmu, d->tlb, d->link,
        host_frame_take, host_frame_hold, host_unmapped, host_landed, host_frame_vpn, host_alloc_of,
    };
    return migr_create(&h, cfg, st);
}

void driver_migration_attach(struct driver *d, const struct config *cfg,
                             const struct driver_mem *mem, struct stats *st)
{
    if (!d->pol.dmig) return;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < d->nallocs; i++) {
        if (d->allocs[i].first_vpn < lo) lo = d->allocs[i].first_vpn;
        if (d->allocs[i].first_vpn + d->allocs[i].npages > hi)
            hi = d->allocs[i].first_vpn + d->allocs[i].npages;
    }
    migr_attach(d->pol.dmig, cfg, mem, st, lo < hi ? lo : 0, lo < hi ? hi - lo : 0);
}

bool driver_migration_counts(const struct driver *d) { return d->pol.dmig && migr_counts(d->pol.dmig); }
bool driver_migration_walks(const struct driver *d) { return d->pol.dmig && migr_walks(d->pol.dmig); }

void driver_migration_touch(struct driver *d, uint64_t vpn)
{
    if (d->pol.dmig) migr_touch(d->pol.dmig, vpn);
}

bool driver_prologue(struct driver *d, driver_step_done done, void *ctx, sim_time now)
{
    return d->pol.dmig && migr_prologue(d->pol.dmig, done, ctx, now);
}

void driver_migration_check(const struct driver *d, sim_time now)
{
    if (d->pol.dmig) migr_check(d->pol.dmig, now);
}

/* Access-counter notifications serviced by the driver thread (keys
 * driver.access_counters.*), after the real driver's Volta-era path
 * (open-gpu-kernel-modules 515.43.04, kernel-open/nvidia-uvm:
 * uvm_gpu_access_counters.c uvm_gpu_service_access_counters,
 * service_phys_notification, service_va_block_locked; uvm_va_block.c
 * block_select_residency, uvm_va_block_service_locked), read against
 * 595.45.04's (service_notifications_in_block):
 *   - when: notifications have their own bottom half on the same kthread
 *     queue as replayable faults, scheduled after it (uvm_gpu_isr.c), so the
 *     thread services them once a fault wake-up's batches are done (or it
 *     yields at driver.batches_per_wake), and alone when only a
 *     notification woke it (gmmu.interrupt_latency after the threshold
 *     crossing).  Never inside a host step (those wait for it).
 *   - batches: up to driver.access_counters.batch_size (256,
 *     uvm_perf_access_counter_batch_count) notifications per fetch,
 *     fetched until the buffer is empty (no per-wake-up limit).  A batch
 *     costs driver.access_counters.batch_latency plus driver.block_cost
 *     per 2 MiB VA block it touches; each block then pays driver.page_cost
 *     per page it migrates and, the first time any service reaches the
 *     block, driver.new_block_cost (drv_block_cpu_cost: the same
 *     uvm_va_block_service_locked -> uvm_va_block_make_resident migrates
 *     both), its copies run and the next batch waits for them to land, as
 *     a fault batch.
 *   - pages: a notification names one gmmu.access_counters.granularity
 *     region (64 KiB here; the driver's 64K counters have sub_granularity
 *     1: the whole region); its pages inside an allocation's VA block that
 *     are not in GPU memory (so in host memory, where the reverse map of
 *     the host physical range finds them) are the candidates; GPU-resident
 *     ones are stale and skipped.  Notifications of one VA block are
 *     serviced together (sorted by address; 595's
 *     service_notifications_in_block), whole driver pages.
 *   - where each goes (block_select_residency with access type PREFETCH):
 *     a throttled page (thrashing) is ignored; read-mostly pages get a
 *     read-only duplicate in GPU memory; a page pinned at the host stays
 *     there, mapped; preferred location host keeps the page there (the
 *     GPU can reach it); accessed-by does NOT keep it (that rule excludes
 *     UVM_SERVICE_OPERATION_ACCESS_COUNTERS); the rest go to GPU memory.
 *     The prefetcher (driver.prefetch) adds pages as for a fault
 *     (uvm_va_block_service_locked asks uvm_perf_prefetch_get_hint).
 *   - how: the block's remote mappings of those pages go first (one ranged
 *     TLB shootdown per run), then the pages move exactly as faulted ones
 *     (drv_block.c: frames, eviction, one copy per contiguous run, mapped
 *     on landing).  They are thrashing events (thrashing_event_cb counts
 *     UVM_MAKE_RESIDENT_CAUSE_ACCESS_COUNTER migrations) and, coming
 *     without a fault, prefetched for the eviction policy.  No replay:
 *     accesses that faulted while their page moved are the fault path's.
 *   - driver.access_counters.map_remote_on_eviction: with migrations on,
 *     an evicted page stays mapped for the GPU to its host copy, so its
 *     counters can bring it back (uvm_va_block.c
 *     block_deferred_eviction_mappings, uvm_perf_map_remote_on_eviction =
 *     1: "we can map evicted memory since we can pull it back thanks to the
 *     access counters"); drv_ac_on_event subscribes to DRV_EV_EVICTED.
 * Default off: the real driver turns access-counter migrations on by
 * default only on ATS systems (is_migration_enabled: POWER9 with NVLink,
 * the SC19 machine); on an x86 / PCIe Volta they are off and the counters
 * not even armed (uvm_gpu_access_counters_required), so the driver ignores
 * the GMMU's notifications.
 * Departures (docs/decisions.md, "access counters"): the batch's cost is
 * not in the source (20 us, the papers' per-batch fault handling, by
 * default); no sub-granularity mask (a notification covers its whole
 * region); the eviction mappings are made at once, not by a deferred work
 * item. */
#include <stdlib.h>
#include <string.h>
#include "drv_internal.h"
#include "config/config.h"
#include "core/stats.h"
#include "tlb/tlb.h"
#include "workloads/workload.h"

const struct cfg_key access_counters_config_keys[] = {
    {"driver.access_counters.migrate", CFG_BOOL, "false", 0, -1, NULL,
     "service the GMMU's access-counter notifications (gmmu.access_counters.*): the notified "
     "region's host-resident pages migrate to GPU memory unless their preferred location is the "
     "host (real driver: uvm_perf_access_counter_mimc_migration_enable, by default on only on ATS "
     "systems such as POWER9 + NVLink, the SC19 machine; off on x86 / PCIe)"},
    {"driver.access_counters.batch_size", CFG_INT, "256", 1, 1048576, NULL,
     "notifications fetched and serviced per batch (uvm_perf_access_counter_batch_count: 256)"},
    {"driver.access_counters.batch_latency", CFG_TIME, "20us", 0, 1e12, NULL,
     "driver time per notification batch before its migrations start, plus driver.block_cost per "
     "VA block (not in the source: the papers' 20 us per fault batch, as driver.fault_latency)"},
    {"driver.access_counters.map_remote_on_eviction", CFG_BOOL, "true", 0, -1, NULL,
     "with migrate: an evicted page stays mapped for the GPU, remotely to its host copy, so its "
     "access counters can bring it back (uvm_perf_map_remote_on_eviction: 1)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

bool access_counters_config_check(const struct config *c, struct cfg_error *err)
{
    if (!cfg_bool(c, "driver.access_counters.migrate")) return true;
    if (!cfg_is(c, "driver.placement", "fault")) {
        const char *keys[] = {"driver.access_counters.migrate", "driver.placement", NULL};
        return cfg_fail_keys(c, err, keys, "access-counter migration moves pages that fault-driven "
                             "unified memory left in host memory; a static placement (and "
                             "driver.migration) decides where pages live: needs driver.placement fault");
    }
    return true;
}

enum ac_phase { AC_FETCH, AC_HANDLING, AC_SERVICE, AC_WAIT };

struct drv_ac {
    bool map_evicted;
    uint32_t batch_size;
    uint64_t gran_pages;              /* 4 KiB pages per counter region */
    sim_time batch_latency;
    struct access_notification *note; /* the batch, sorted by address */
    size_t n, next, block_end;        /* notes; the block's first and past its last */
    enum ac_phase phase;
    bool ready;                       /* d->blk.want holds the block at note[next] */
    bool unreplayed;                  /* d->unreplayed when the service began */
    sim_time busy_until, t0;
    sim_time ready_at;                /* the block's CPU work done (drv_block_cpu_cost) */
    uint64_t *n_batches, *n_notes, *n_pages, *n_kept, *n_stale, *n_dropped,
             *n_evicted_mapped, *busy_ps;
};

struct drv_ac *drv_ac_create(struct driver *d, const struct config *cfg, struct stats *st)
{
    (void)d;
    if (!cfg_bool(cfg, "driver.access_counters.migrate")) return NULL;
    struct drv_ac *a = xcalloc(1, sizeof *a);
    a->map_evicted = cfg_bool(cfg, "driver.access_counters.map_remote_on_eviction");
    a->batch_size = (uint32_t)cfg_u64(cfg, "driver.access_counters.batch_size");
    a->batch_latency = cfg_u64(cfg, "driver.access_counters.batch_latency");
    uint64_t gran = cfg_u64(cfg, "gmmu.access_counters.granularity");
    a->gran_pages = gran >= PAGE_SIZE ? gran / PAGE_SIZE : 1;
    a->note = xcalloc(a->batch_size, sizeof *a->note);
    a->n_batches = stat_counter(st, "driver.access_counters.batches", "batches",
                                "access-counter notification batches serviced");
    a->n_notes = stat_counter(st, "driver.access_counters.notifications", "notifications",
                              "access-counter notifications fetched and serviced");
    a->n_pages = stat_counter(st, "driver.access_counters.pages_migrated", "pages",
                              "4 KiB pages migrated to GPU memory by access-counter notifications "
                              "(prefetched ones included)");
    a->n_kept = stat_counter(st, "driver.access_counters.pages_kept", "pages",
                             "notified host-resident pages left in host memory, per notification "
                             "(preferred location host, thrashing throttled or pinned at the host)");
    a->n_stale = stat_counter(st, "driver.access_counters.stale", "notifications",
                              "notifications whose region held no host-resident page any more");
    a->n_dropped = stat_counter(st, "driver.access_counters.blocks_dropped", "blocks",
                                "VA blocks whose notified pages exceed GPU memory (not migrated)");
    a->n_evicted_mapped = stat_counter(st, "driver.access_counters.evicted_mapped", "pages",
                                       "evicted pages left mapped remotely for the GPU "
                                       "(map_remote_on_eviction)");
    a->busy_ps = stat_counter(st, "driver.access_counters.busy_ps", "ps",
                              "time from a notification batch's fetch to its last page landing, summed");
    return a;
}

void drv_ac_free(struct drv_ac *a)
{
    if (!a) return;
    free(a->note);
    free(a);
}

bool drv_ac_ready(const struct driver *d)
{
    return d->pol.ac && !d->step.active && gmmu_access_notifications_pending(d->gmmu);
}

void drv_ac_on_event(void *ctx, const struct drv_event *e)
{
    struct driver *d = ctx;
    if (!d->pol.ac->map_evicted || drv_advice(d, e->vpn) & WL_ADV_ACCESSED_BY_GPU) return;
    drv_map_host(d, e->vpn, e->now);
    *d->pol.ac->n_evicted_mapped += 1;
}

static uint64_t block_of(const struct access_notification *n)
{
    return (n->vaddr >> PAGE_SHIFT) / VA_BLOCK_PAGES * VA_BLOCK_PAGES;
}

/* By address; equal regions (a counter crossing twice) kept once.  An
 * insertion sort: at most batch_size entries, no allocation. */
static size_t sort_unique(struct access_notification *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        struct access_notification x = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1].vaddr > x.vaddr) { a[j] = a[j - 1]; j--; }
        a[j] = x;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!m || a[m - 1].vaddr != a[i].vaddr) a[m++] = a[i];
    return m;
}

static void fetch(struct driver *d, sim_time now)
{
    struct drv_ac *a = d->pol.ac;
    size_t got = gmmu_fetch_access_notifications(d->gmmu, a->note, a->batch_size);
    *a->n_notes += got;
    *a->n_batches += 1;
    a->n = sort_unique(a->note, got);
    uint64_t blocks = 0;
    for (size_t i = 0; i < a->n; i++)
        if (!i || block_of(&a->note[i]) != block_of(&a->note[i - 1])) blocks++;
    a->next = 0;
    a->ready = false;
    a->t0 = now;
    a->busy_until = now + a->batch_latency + d->cost.block_cost * blocks;
    a->phase = AC_HANDLING;
}

/* Where a notified host-resident driver page u goes (block_select_residency
 * for an access-counter "prefetch" access): true for GPU memory, *ro for a
 * read-only duplicate; false when it stays in host memory. */
static bool goes_to_gpu(struct driver *d, uint64_t u, bool *ro, sim_time now)
{
    enum thr_hint h = d->pol.thrash ? thrashing_hint(d->pol.thrash, u, now) : THR_NONE;
    if (h == THR_THROTTLE) return false;
    unsigned adv = drv_advice(d, u);
    *ro = adv & WL_ADV_READ_MOSTLY;
    if (*ro) return true;
    if (h == THR_PIN_HOST) {
        for (uint64_t v = u; v < u + d->unit; v++)
            if (!drv_mapped(d, v)) drv_map_host(d, v, now);
        return false;
    }
    return !(adv & WL_ADV_PREFERRED_HOST);
}

/* The block of note[next]: d->blk.want (and d->blk.ro) from its notifications, the
 * prefetcher's pages added, remote mappings of them torn down.  False
 * when the migration slots must drain first (a landing wakes the thread). */
static bool prepare(struct driver *d, uint64_t base, sim_time now)
{
    struct drv_ac *a = d->pol.ac;
    /* Landed copies free their migr slots only between blocks (drv_step.c). */
    if (d->batch.nmigr + VA_BLOCK_PAGES > (size_t)d->cost.batch_size * VA_BLOCK_PAGES) {
        if (d->batch.inflight) return false;
        d->batch.nmigr = d->batch.nruns = d->blk.chunk_first = 0;
    }
    memset(&d->blk.want, 0, sizeof d->blk.want);
    memset(&d->blk.ro, 0, sizeof d->blk.ro);
    memset(&d->blk.faulted, 0, sizeof d->blk.faulted);      /* no page came by a fault */
    drv_block_extent(d, base, &d->blk.blk_first, &d->blk.blk_end);
    struct block_bits seen = {{0}}, cand = {{0}};
    const uint64_t lo_v = base + d->blk.blk_first, hi_v = base + d->blk.blk_end;
    size_t i = a->next;
    for (; i < a->n && block_of(&a->note[i]) == base; i++) {
        uint64_t v0 = a->note[i].vaddr >> PAGE_SHIFT, v1 = v0 + a->gran_pages;
        if (v0 < lo_v) v0 = lo_v;
        if (v1 > hi_v) v1 = hi_v;
        bool any = false;
        for (uint64_t u = v0 < v1 ? drv_unit_base(d, v0) : v1; u < v1; u += d->unit) {
            unsigned lo = (unsigned)(u - base), n = d->unit;
            if (lo + n > d->blk.blk_end) n = d->blk.blk_end - lo;
            if (bb_test(&seen, lo)) continue;
            bb_set(&seen, lo);
            /* A driver page is resident whole or not at all (checked:
             * a page held in part would be given its frames twice). */
            drv_check_unit(d, u, now, "an access-counter notification");
            if (gmmu_is_resident(d->gmmu, u)) continue;
            any = true;
            bool ro = false;
            if (!goes_to_gpu(d, u, &ro, now)) { *a->n_kept += n; continue; }
            bb_set_range(&cand, lo, n);
            if (ro) bb_set_range(&d->blk.ro, lo, n);
        }
        if (!any) *a->n_stale += 1;
    }
    a->block_end = i;
    d->blk.want = cand;
    if (d->pol.prefetch != &prefetch_none_ops && bb_count(&cand)) {
        /* The prefetcher sees the block's other mapped pages as present,
         * as for a fault (drv_block.c), and the notified ones as faulted. */
        struct block_bits present = {{0}};
        for (unsigned p = d->blk.blk_first; p < d->blk.blk_end; p++)
            if (!bb_test(&cand, p) && drv_mapped(d, base + p)) bb_set(&present, p);
        struct prefetch_in in = { &present, &cand, NULL, d->blk.blk_first, d->blk.blk_end,
                                  d->pol.prefetch_threshold };
        drv_thrashing_prefetch(d, base, &in, &d->blk.want);
        drv_want_whole_pages(d);
        for (unsigned p = d->blk.blk_first; p < d->blk.blk_end; p++)
            if (bb_test(&d->blk.want, p) && !bb_test(&cand, p) &&
                (drv_advice(d, base + p) & WL_ADV_READ_MOSTLY))
                bb_set(&d->blk.ro, p);
    }
    /* More than GPU memory would evict the block's own pages (drv_block.c). */
    if (bb_count(&d->blk.want) > d->mem.capacity) d->blk.want = cand;
    if (bb_count(&d->blk.want) > d->mem.capacity) {
        memset(&d->blk.want, 0, sizeof d->blk.want);
        *a->n_dropped += 1;
    }
    *a->n_pages += bb_count(&d->blk.want);
    /* The remote mappings go before the copies (make_resident unmaps the
     * old location); one ranged shootdown per run. */
    for (unsigned p = d->blk.blk_first; p < d->blk.blk_end;) {
        if (!bb_test(&d->blk.want, p) || !gmmu_is_remote(d->gmmu, base + p)) { p++; continue; }
        unsigned q = p;
        for (; q < d->blk.blk_end && bb_test(&d->blk.want, q) && gmmu_is_remote(d->gmmu, base + q); q++)
            gmmu_unmap(d->gmmu, base + q, now);
        tlb_shootdown_range(d->tlb, base + p, q - p, now);
        p = q;
    }
    d->blk.want_next = 0;
    a->ready = true;
    return true;
}

void drv_ac_begin(struct driver *d, sim_time now)
{
    struct drv_ac *a = d->pol.ac;
    (void)now;
    a->phase = AC_FETCH;
    a->unreplayed = d->unreplayed;
    /* The fault batch is over: its block bookkeeping serves the copies
     * (one block slot, never completing a block replay: drv_block.c). */
    d->batch.nblocks = 0;
    d->batch.cur_block = 0;
    d->batch.block_inflight[0] = 0;
    d->batch.nmigr = d->batch.nruns = d->blk.chunk_first = 0;
    d->state = D_ACCESS;
}

bool drv_ac_service(struct driver *d, sim_time now, sim_time *wake)
{
    struct drv_ac *a = d->pol.ac;
    for (;;) {
        switch (a->phase) {
        case AC_FETCH:
            /* The fault batches' copies land first: a page in flight holds
             * its frame but is not resident yet, and would be taken twice. */
            if (d->batch.inflight) { *wake = TIME_NEVER; return false; }
            if (!gmmu_access_notifications_pending(d->gmmu)) {
                /* Its landings asked for a replay the fault path decides on. */
                d->unreplayed = a->unreplayed;
                return true;
            }
            fetch(d, now);
            break;
        case AC_HANDLING:
            if (now < a->busy_until) { *wake = a->busy_until; return false; }
            a->phase = AC_SERVICE;
            break;
        case AC_SERVICE:
            while (a->next < a->n) {
                uint64_t base = block_of(&a->note[a->next]);
                if (!a->ready) {
                    if (!prepare(d, base, now)) { *wake = TIME_NEVER; return false; }
                    /* service_va_block_locked runs uvm_va_block_service_locked ->
                     * uvm_va_block_make_resident, as a fault's block does: the same
                     * per-page and first-touch CPU work (driver.page_cost,
                     * driver.new_block_cost).  A block moving nothing does none. */
                    a->ready_at = bb_count(&d->blk.want) ? now + drv_block_cpu_cost(d, base) : now;
                }
                if (now < a->ready_at) { *wake = a->ready_at; return false; }
                if (!drv_block_fill(d, base, now)) { *wake = TIME_NEVER; return false; }
                a->ready = false;
                a->next = a->block_end;
            }
            a->phase = AC_WAIT;
            break;
        case AC_WAIT:
            if (d->batch.inflight) { *wake = TIME_NEVER; return false; }
            *a->busy_ps += now - a->t0;
            d->batch.nmigr = d->batch.nruns = d->blk.chunk_first = 0;
            a->phase = AC_FETCH;
            break;
        }
    }
}

void drv_ac_dump(const struct driver *d, FILE *out)
{
    const struct drv_ac *a = d->pol.ac;
    if (!a) return;
    static const char *const ph[] = {"fetching", "handling", "servicing", "waiting for copies"};
    fprintf(out, "    access counters: %s, %zu of %zu notifications of the batch serviced, "
            "%zu pending\n", d->state == D_ACCESS ? ph[a->phase] : "idle", a->next, a->n,
            gmmu_access_notifications_pending(d->gmmu));
}

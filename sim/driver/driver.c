/* The timed UVM driver: configuration, construction and the public entry
 * points.  The driver is a CPU thread in its own clock domain (driver.clock)
 * whose steps cost simulated time; the servicing loop is drv_loop.c, after
 * the real NVIDIA UVM driver's replayable-fault handler
 * (open-gpu-kernel-modules, kernel-open/nvidia-uvm/uvm_gpu_replayable_faults.c). */
#include <stdlib.h>
#include <string.h>
#include "drv_internal.h"
#include "driver/migrate/migrate.h"
#include "config/config.h"
#include "core/stats.h"

const struct cfg_key driver_config_keys[] = {
    {"driver.clock", CFG_FREQ, "3GHz", 1e6, 1e11, NULL,
     "clock of the CPU core running the driver thread"},
    {"driver.fault_latency", CFG_TIME, "20us", 0, 1e12, NULL,
     "runtime fault-handling time per batch (HPE Sec. III, batch-aware Table 1: 20 us)"},
    {"driver.fault_cost", CFG_TIME, "0ns", 0, 1e12, NULL,
     "extra handling time per fault-buffer entry of a batch (0: the papers' fixed 20 us; "
     "raise it to model the measured 50-430 us batches)"},
    {"driver.block_cost", CFG_TIME, "0ns", 0, 1e12, NULL,
     "extra handling time per 2 MiB VA block a batch touches (real driver: per-block locking and state)"},
    {"driver.page_cost", CFG_TIME, "0ns", 0, 1e12, NULL,
     "driver CPU time per page a fault batch, a prefetch to the GPU or an access-counter batch "
     "migrates, before its VA block's "
     "copies start (real driver: uvm_va_block_make_resident's per-page work: block_populate_pages, DMA "
     "mapping, block_unmap_cpu, the PTE writes of uvm_va_block_map; docs/driver.md)"},
    {"driver.new_block_cost", CFG_TIME, "0ns", 0, 1e12, NULL,
     "driver CPU time the first time a fault batch, a prefetch to the GPU or an access-counter batch "
     "migrates into a 2 MiB VA block (real driver: "
     "uvm_va_block_find_create, uvm_va_block_gpu_state_get_alloc, block_pre_populate_pde1_gpu, "
     "the root chunk's alloc_root_chunk and block_zero_new_gpu_chunk)"},
    {"driver.first_fault_cost", CFG_TIME, "0ns", 0, 1e12, NULL,
     "driver CPU time added to the run's first fault batch (real driver: the first fault's set-up, "
     "the GPU page tree's upper levels in uvm_page_tree_get_ptes and the first service's allocations)"},
    {"driver.batch_size", CFG_INT, "256", 1, 1048576, NULL,
     "fault-buffer entries fetched per batch (real driver default: 256)"},
    {"driver.batches_per_wake", CFG_INT, "20", 1, 1000000, NULL,
     "batches serviced per interrupt before the thread yields (real driver: 20)"},
    {"driver.prefetch", CFG_ENUM, "none", 0, -1, NULL /* prefetch.c policies[] */,
     "prefetcher: none (the HPE paper's machine; the real driver's default is tree), "
     "seq (the faulting 64 KiB big page), tree (the real driver's density tree over the VA block, "
     "uvm_perf_prefetch.c)"},
    {"driver.prefetch.threshold", CFG_INT, "51", 1, 100, NULL,
     "tree prefetch: a subtree comes when more than this % of it is resident or faulted "
     "(real driver: UVM_PREFETCH_THRESHOLD_DEFAULT 51)"},
    {"driver.replay_policy", CFG_ENUM, "batch_flush", 0, -1, "block|batch|batch_flush|once|page",
     "when the GPU replays faulted accesses (real driver's uvm_perf_fault_replay_policy, default batch_flush): "
     "when each block's last copy lands, after each batch, after each batch with the fault buffer flushed, "
     "once the wake-up's batches are done, or page: the accesses waiting on a page resume when it lands, "
     "one copy per driver page (batch-aware paper Sec. 2.2)"},
    {"driver.page_size", CFG_ENUM, "4KiB", 0, -1, "4KiB|64KiB",
     "the driver's fault, migration and eviction unit: 4KiB (the real driver on x86, HPE Table I) or "
     "64KiB (batch-aware Table 1: faults of one 64 KiB page coalesce, it migrates and is evicted whole "
     "and maps with one 64 KiB PTE)"},
    {"driver.evict_unit", CFG_ENUM, "page", 0, -1, "page|chunk",
     "GPU memory management: page (frames per page, the eviction policy's victim driver page is "
     "evicted, as HPE Sec. IV) or chunk (the real driver's PMM: a full 2 MiB VA block takes a "
     "2 MiB root chunk at first touch, shorter blocks 64 KiB / 4 KiB chunks; eviction takes the "
     "root chunk at the head of the age-ordered list and evicts it whole, uvm_pmm_gpu.c "
     "pick_root_chunk_to_evict / evict_root_chunk; needs driver.eviction fifo, or cyclic over "
     "fifo: Park et al.'s pinning/shuffling of that list's root chunks)"},
    {"driver.eviction_timing", CFG_ENUM, "block", 0, -1, "block|serial|unobtrusive|ideal",
     "how evictions' write-backs are ordered against migrations: block (a VA block's copies start "
     "when its evictions' write-backs have landed; later blocks' evictions overlap earlier copies), "
     "serial (batch-aware Sec. 3, Fig. 4: an eviction waits for the batch's copies in flight, its "
     "migration for it: never overlapped), unobtrusive (batch-aware Sec. 4.2: one page evicted when a "
     "batch starts with memory full, then eviction k+1 beside migration k on the full-duplex link), "
     "ideal (batch-aware Fig. 8: serial, but evictions cost nothing and send no write-back); serial and "
     "unobtrusive need driver.evict_unit page"},
    {"driver.drop_clean", CFG_BOOL, "false", 0, -1, NULL,
     "evicted pages the GPU did not write are dropped (host copy valid) instead of copied back "
     "(real driver: every evicted page is copied back, uvm_va_block_evict_chunks)"},
    {"gpu.memory.capacity", CFG_SIZE, "0B", 0, 1.2e18, NULL,
     "GPU memory for migrated pages (0: gpu.memory.fraction of the footprint); driver.evict_unit "
     "chunk uses whole 2 MiB root chunks of it, as the real driver (the rest is not UVM's)"},
    {"gpu.memory.fraction", CFG_FRACTION, "100%", 1e-6, 1, NULL,
     "GPU memory as a share of the workload footprint (the papers' oversubscription rate)"},
    {"gpu.memory.compression", CFG_FLOAT, "1", 1, 64, NULL,
     "capacity compression (ETC's CC, Li et al. ASPLOS 2019): GPU memory holds this many times "
     "its size in pages (1: off; docs/decisions.md for the ratio of the batch-aware comparators)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* GPU memory in 4 KiB frames, whole driver pages.  Under evict_unit=chunk
 * whole 2 MiB root chunks: the real driver's PMM takes memory from PMA
 * only as naturally aligned 2 MiB pages (uvm_pmm_gpu.c alloc_root_chunk:
 * nvUvmInterfacePmaAllocPages of UVM_CHUNK_SIZE_MAX pages, alignment
 * asserted; root_chunk_from_address indexes roots by address / 2 MiB), and
 * splits those for 64 KiB / 4 KiB chunks (alloc_chunk_with_splits), so
 * memory outside whole roots is never UVM's (docs/decisions.md "GPU memory
 * between root chunks"). */
static uint64_t capacity_pages(const struct config *cfg, uint64_t footprint, uint64_t grain)
{
    uint64_t bytes = cfg_u64(cfg, "gpu.memory.capacity");
    if (!bytes) bytes = (uint64_t)(cfg_f64(cfg, "gpu.memory.fraction") * (double)footprint);
    /* Capacity compression (ETC's CC): compressed pages take fewer frames;
     * modelled as a larger memory at the same access cost (docs/decisions.md). */
    double cc = cfg_f64(cfg, "gpu.memory.compression");
    if (cc > 1.0) bytes = (uint64_t)((double)bytes * cc);
    uint64_t pages = bytes / PAGE_SIZE / grain * grain;
    if (pages == 0)
        user_error("GPU memory (gpu.memory.capacity / gpu.memory.fraction) "
                   "holds no %llu-byte %s", (unsigned long long)(grain * PAGE_SIZE),
                   grain == VA_BLOCK_PAGES ? "root chunk (driver.evict_unit=chunk)" :
                   grain > 1 ? "driver page (driver.page_size)" : "page");
    return pages;
}

/* Impossible combinations, named at the key that makes them so. */
static bool bad_key(const struct config *c, struct cfg_error *err, const char *key, const char *why)
{
    const char *keys[] = {key, NULL};
    return cfg_fail_keys(c, err, keys, "%s", why);
}

bool driver_config_check(const struct config *c, struct cfg_error *err)
{
    if (!cfg_is(c, "driver.evict_unit", "chunk")) return true;
    char why[200];
    /* Only a policy of the chunk-level table evicts root chunks. */
    const struct chunk_evict_ops *ce = chunk_evict_find(cfg_str(c, "driver.eviction"));
    if (!ce || (ce->over && !cfg_is(c, "driver.evict.cyclic.base", ce->over))) {
        snprintf(why, sizeof why, "chunk evicts root chunks in the real driver's age order, "
                 "which is driver.eviction fifo (or cyclic over it), not '%s'",
                 cfg_str(c, "driver.eviction"));
        return bad_key(c, err, "driver.evict_unit", why);
    }
    const char *et = "driver.eviction_timing";
    if (cfg_is(c, et, "serial") || cfg_is(c, et, "unobtrusive")) {
        snprintf(why, sizeof why, "%s orders single-page evictions against migrations, "
                 "which needs driver.evict_unit page, not chunk", cfg_str(c, et));
        return bad_key(c, err, "driver.eviction_timing", why);
    }
    return true;
}

static const struct comp_ops driver_ops = { drv_tick, drv_dump };

/* The oversubscription controller (perf/drv_oversub.c) decided a new
 * degree: the GPU is told, if it asked (driver_set_oversub_hook). */
static void oversub_tell(void *ctx, unsigned extra, sim_time now)
{
    struct driver *d = ctx;
    if (d->oversub_fn) d->oversub_fn(d->oversub_ctx, extra, now);
}

/* The throttling policy (perf/drv_throttle.c) changed the SMs to run. */
static void throttle_tell(void *ctx, unsigned active, sim_time now)
{
    struct driver *d = ctx;
    if (d->throttle_fn) d->throttle_fn(d->throttle_ctx, active, now);
}

struct driver *driver_create(struct engine *e, const struct config *cfg,
                             struct stats *st, const struct domain *dom,
                             struct gmmu *g, struct tlb *t, struct link *l,
                             uint64_t footprint)
{
    struct driver *d = xcalloc(1, sizeof *d);
    comp_init(&d->comp, e, &driver_ops, "driver", dom);
    d->gmmu = g;
    d->tlb = t;
    d->link = l;
    d->cost.fault_latency = cfg_u64(cfg, "driver.fault_latency");
    d->cost.fault_cost = cfg_u64(cfg, "driver.fault_cost");
    d->cost.block_cost = cfg_u64(cfg, "driver.block_cost");
    d->cost.page_cost = cfg_u64(cfg, "driver.page_cost");
    d->cost.new_block_cost = cfg_u64(cfg, "driver.new_block_cost");
    d->cost.first_fault_cost = cfg_u64(cfg, "driver.first_fault_cost");
    /* The VA blocks serviced so far (by 2 MiB block number), only kept
     * where a first touch costs something. */
    if (d->cost.new_block_cost) page_map_init(&d->seen_blocks, footprint / PAGE_SIZE / VA_BLOCK_PAGES + 16);
    d->cost.irq_latency = cfg_u64(cfg, "gmmu.interrupt_latency");
    d->cost.batch_size = (uint32_t)cfg_u64(cfg, "driver.batch_size");
    d->cost.batches_per_wake = (uint32_t)cfg_u64(cfg, "driver.batches_per_wake");
    d->pol.prefetch = prefetch_find(cfg_str(cfg, "driver.prefetch"));
    SIM_ASSERT(d->pol.prefetch, "driver", 0, "prefetch policy not in the table");
    d->pol.prefetch_threshold = (unsigned)cfg_u64(cfg, "driver.prefetch.threshold");
    d->drop_clean = cfg_bool(cfg, "driver.drop_clean");
    d->replay = (enum drv_replay)cfg_choice(cfg, "driver.replay_policy");
    d->evict_timing = (enum drv_evict_timing)cfg_choice(cfg, "driver.eviction_timing");
    d->unit = cfg_is(cfg, "driver.page_size", "64KiB") ? BIG_PAGE_PAGES : 1;
    d->chunked = cfg_is(cfg, "driver.evict_unit", "chunk");
    d->max_shift = d->chunked ? 21 : d->unit > 1 ? 16 : PAGE_SHIFT;
    d->batch.fetched = xcalloc(d->cost.batch_size, sizeof *d->batch.fetched);
    d->batch.pages = xcalloc(d->cost.batch_size, sizeof *d->batch.pages);
    d->batch.block_start = xcalloc(d->cost.batch_size + 1, sizeof *d->batch.block_start);
    d->batch.block_inflight = xcalloc(d->cost.batch_size + 1, sizeof *d->batch.block_inflight);
    /* At most every page of every block a batch touches. */
    size_t max_migr = (size_t)d->cost.batch_size * VA_BLOCK_PAGES;
    d->batch.migr = xcalloc(max_migr, sizeof *d->batch.migr);
    d->batch.runs = xcalloc(max_migr, sizeof *d->batch.runs);
    d->mem.capacity = capacity_pages(cfg, footprint, d->chunked ? VA_BLOCK_PAGES : d->unit);
    drv_frames_init(d);
    wb_init(&d->mem.wb, d->mem.capacity);
    /* The policy holds driver pages; under evict_unit chunk the
     * chunk-level table picks roots and the page policy is not asked
     * (FIFO stands in, holding nothing). */
    if (d->chunked) {
        d->pol.chunk_ev = chunk_evict_find(cfg_str(cfg, "driver.eviction"));
        SIM_ASSERT(d->pol.chunk_ev, "driver", 0, "driver.eviction has no chunk-level form");
    }
    d->pol.evict = evictor_create(cfg, d->chunked ? "fifo" : cfg_str(cfg, "driver.eviction"),
                              d->mem.capacity / d->unit, st);
    if (d->pol.chunk_ev && d->pol.chunk_ev->create) d->pol.chunk_ev->create(d, cfg, st);
    if (d->chunked) drv_chunks_stats(d, st);
    evictor_program(d->pol.evict, cfg);
    /* HPE's batched hit information comes from the HIR (Sec. IV-B): a
     * policy that takes it turns the HIR on (gmmu.hir.enabled=auto). */
    if (evictor_wants_hits(d->pol.evict)) gmmu_hir_wanted(g);
    drv_stats_init(d, st);
    d->pol.thrash = drv_thrashing_create(d, cfg, st);
    d->pol.oversub = drv_oversub_create(cfg, st, d->comp.eng, d->stat.lifetime, oversub_tell, d);
    d->pol.throttle = drv_throttle_create(cfg, st, d->comp.eng, d->stat.n_faults,
                                          d->stat.n_evictions, throttle_tell, d);
    d->pol.dmig = drv_migrate_create(d, cfg, st);
    d->pol.ac = drv_ac_create(d, cfg, st);
    /* The reactions to the driver's events (drv_events.h), in the order
     * they run on one event; a heuristic that reacts is one line here. */
    struct drv_events *ev = &d->events;
    drv_events_subscribe(ev, DRV_EV(DRV_EV_FAULT), drv_frames_on_fault, d);
    if (!d->chunked)
        drv_events_subscribe(ev, DRV_EV(DRV_EV_RESIDENT) | DRV_EV(DRV_EV_PREFETCHED) |
                             DRV_EV(DRV_EV_RELEASED), drv_evict_on_event, d);
    if (d->pol.thrash)
        drv_events_subscribe(ev, DRV_EV(DRV_EV_MIGRATED) | DRV_EV(DRV_EV_EVICTED),
                             thrashing_on_event, d->pol.thrash);
    if (d->pol.ac) drv_events_subscribe(ev, DRV_EV(DRV_EV_EVICTED), drv_ac_on_event, d);
    if (d->pol.cyc) drv_events_subscribe(ev, DRV_EV(DRV_EV_ROOT_EVICTED), drv_cyclic_on_event, d->pol.cyc);
    gmmu_set_driver(g, &d->comp);
    gmmu_defer_replay(g, d->replay != RP_PAGE);
    return d;
}

void driver_free(struct driver *d)
{
    if (!d) return;
    evictor_free(d->pol.evict);
    page_map_free(&d->seen_blocks);
    drv_cyclic_free(d->pol.cyc);
    thrashing_free(d->pol.thrash);
    drv_oversub_free(d->pol.oversub);
    drv_throttle_free(d->pol.throttle);
    migr_free(d->pol.dmig);
    drv_ac_free(d->pol.ac);
    drv_frames_free(d);
    wb_free(&d->mem.wb);
    free(d->batch.fetched);
    free(d->batch.pages);
    free(d->batch.block_start);
    free(d->batch.block_inflight);
    free(d->batch.migr);
    free(d->batch.runs);
    free(d->allocs);
    free(d);
}

struct component *driver_component(struct driver *d) { return &d->comp; }
void driver_set_unmap_hook(struct driver *d, driver_unmap_hook fn, void *ctx)
{
    d->unmap_hook = fn;
    d->unmap_ctx = ctx;
}
uint64_t driver_capacity_pages(const struct driver *d) { return d->mem.capacity; }
void driver_set_oversub_hook(struct driver *d, driver_oversub_fn fn, void *ctx)
{
    d->oversub_fn = fn;
    d->oversub_ctx = ctx;
}
void driver_set_throttle_hook(struct driver *d, driver_throttle_fn fn, void *ctx)
{
    d->throttle_fn = fn;
    d->throttle_ctx = ctx;
}

/* The same capacity before the driver exists (system_build checks it). */
uint64_t driver_capacity_for(const struct config *cfg, uint64_t footprint)
{
    uint64_t unit = cfg_is(cfg, "driver.page_size", "64KiB") ? BIG_PAGE_PAGES : 1;
    bool chunked = cfg_is(cfg, "driver.evict_unit", "chunk");
    return capacity_pages(cfg, footprint, chunked ? VA_BLOCK_PAGES : unit);
}

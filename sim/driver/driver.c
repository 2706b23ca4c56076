/* The timed UVM driver: configuration, construction and the public entry
 * points.  The driver is a CPU thread in its own clock domain (driver.clock)
 * whose steps cost simulated time; the servicing loop is drv_loop.c, after
 * the real NVIDIA UVM driver's replayable-fault handler
 * (open-gpu-kernel-modules, kernel-open/nvidia-uvm/uvm_gpu_replayable_faults.c). */
#include <stdlib.h>
#include <string.h>
#include "drv_internal.h"
#include "../config.h"
#include "../stats.h"

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
    {"driver.batch_size", CFG_INT, "256", 1, 1048576, NULL,
     "fault-buffer entries fetched per batch (real driver default: 256)"},
    {"driver.batches_per_wake", CFG_INT, "20", 1, 1000000, NULL,
     "batches serviced per interrupt before the thread yields (real driver: 20)"},
    {"driver.prefetch", CFG_ENUM, "none", 0, -1, "none|seq|tree",
     "prefetcher: none (the HPE paper's machine; the real driver's default is tree), "
     "seq (the faulting 64 KiB block), tree (real driver's density tree)"},
    {"driver.prefetch.threshold", CFG_INT, "51", 1, 100, NULL,
     "tree prefetch: a subtree comes when more than this % of it is resident or faulted (real driver: 51)"},
    {"driver.replay_policy", CFG_ENUM, "batch_flush", 0, -1, "block|batch|batch_flush|once",
     "when the GPU replays faulted accesses (real driver's uvm_perf_fault_replay_policy, default batch_flush): "
     "when each block's last copy lands, after each batch, after each batch with the fault buffer flushed, "
     "or once the wake-up's batches are done"},
    {"driver.evict_unit", CFG_ENUM, "page", 0, -1, "page|chunk",
     "what one eviction frees: the victim page (HPE Sec. IV: one page at a time) or every "
     "resident page in the victim's 2 MiB root chunk (the real driver's evict_root_chunk)"},
    {"driver.drop_clean", CFG_BOOL, "true", 0, -1, NULL,
     "evicted pages the GPU did not write are dropped (host copy valid) instead of copied back"},
    {"gpu.memory.capacity", CFG_SIZE, "0B", 0, 1.2e18, NULL,
     "GPU memory for migrated pages (0: gpu.memory.fraction of the footprint)"},
    {"gpu.memory.fraction", CFG_FRACTION, "100%", 1e-6, 1, NULL,
     "GPU memory as a share of the workload footprint (the papers' oversubscription rate)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t capacity_pages(const struct config *cfg, uint64_t footprint)
{
    uint64_t bytes = cfg_u64(cfg, "gpu.memory.capacity");
    if (!bytes) bytes = (uint64_t)(cfg_f64(cfg, "gpu.memory.fraction") * (double)footprint);
    uint64_t pages = bytes / PAGE_SIZE;
    if (pages == 0)
        user_error("GPU memory (gpu.memory.capacity / gpu.memory.fraction) "
                   "holds no %llu-byte page", (unsigned long long)PAGE_SIZE);
    return pages;
}

sim_time drv_tick(struct component *c, sim_time now);
void drv_dump(struct component *c, FILE *out);
static const struct comp_ops driver_ops = { drv_tick, drv_dump };

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
    d->fault_latency = cfg_u64(cfg, "driver.fault_latency");
    d->fault_cost = cfg_u64(cfg, "driver.fault_cost");
    d->block_cost = cfg_u64(cfg, "driver.block_cost");
    d->irq_latency = cfg_u64(cfg, "gmmu.interrupt_latency");
    d->batch_size = (uint32_t)cfg_u64(cfg, "driver.batch_size");
    d->batches_per_wake = (uint32_t)cfg_u64(cfg, "driver.batches_per_wake");
    d->prefetch = prefetch_find(cfg_str(cfg, "driver.prefetch"));
    SIM_ASSERT(d->prefetch, "driver", 0, "prefetch policy not in the table");
    d->prefetch_threshold = (unsigned)cfg_u64(cfg, "driver.prefetch.threshold");
    d->drop_clean = cfg_bool(cfg, "driver.drop_clean");
    static const char *const rp[] = { "block", "batch", "batch_flush", "once" };
    const char *pol = cfg_str(cfg, "driver.replay_policy");
    for (int i = 0; i < 4; i++)
        if (!strcmp(pol, rp[i])) d->replay = (enum drv_replay)i;
    d->fetched = xcalloc(d->batch_size, sizeof *d->fetched);
    d->pages = xcalloc(d->batch_size, sizeof *d->pages);
    d->block_start = xcalloc(d->batch_size + 1, sizeof *d->block_start);
    d->block_inflight = xcalloc(d->batch_size + 1, sizeof *d->block_inflight);
    /* At most every page of every block a batch touches. */
    size_t max_migr = (size_t)d->batch_size * VA_BLOCK_PAGES;
    d->migr = xcalloc(max_migr, sizeof *d->migr);
    d->runs = xcalloc(max_migr, sizeof *d->runs);
    d->capacity = capacity_pages(cfg, footprint);
    drv_frames_init(d);
    d->evict = evictor_create(cfg, cfg_str(cfg, "driver.eviction"), d->capacity, st);
    evictor_program(d->evict, cfg);
    d->evict_chunk = !strcmp(cfg_str(cfg, "driver.evict_unit"), "chunk");
    if (d->evict_chunk && !evictor_can_forget(d->evict))
        user_error("driver.evict_unit=chunk needs an eviction policy that can drop pages "
                   "it did not choose (fifo, lru, random), not '%s'",
                   cfg_str(cfg, "driver.eviction"));
    /* HPE's batched hit information comes from the HIR (Sec. IV-B): a
     * policy that takes it turns the HIR on (gmmu.hir.enabled=auto). */
    if (evictor_wants_hits(d->evict)) gmmu_hir_wanted(g);
    drv_stats_init(d, st);
    gmmu_set_driver(g, &d->comp);
    gmmu_defer_replay(g, true);
    return d;
}

void driver_free(struct driver *d)
{
    if (!d) return;
    evictor_free(d->evict);
    drv_frames_free(d);
    free(d->fetched);
    free(d->pages);
    free(d->block_start);
    free(d->block_inflight);
    free(d->migr);
    free(d->runs);
    free(d->allocs);
    free(d);
}

struct component *driver_component(struct driver *d) { return &d->comp; }
void driver_set_unmap_hook(struct driver *d, driver_unmap_hook fn, void *ctx)
{
    d->unmap_hook = fn;
    d->unmap_ctx = ctx;
}
uint64_t driver_capacity_pages(const struct driver *d) { return d->capacity; }

void driver_walk_hit(struct driver *d, uint64_t vpn) { evictor_touch(d->evict, vpn); }
bool driver_wants_walk_hits(const struct driver *d) { return evictor_wants_touches(d->evict); }
void driver_hit_info(struct driver *d, uint64_t vpn, uint32_t count) { evictor_hits(d->evict, vpn, count); }
bool driver_wants_references(const struct driver *d) { return evictor_wants_references(d->evict); }
void driver_reference(struct driver *d, uint64_t kernel, uint64_t block, uint64_t inst,
                      uint32_t warp, uint64_t vpn)
{
    struct evict_ref r = { kernel, block, inst, vpn, warp };
    evictor_reference(d->evict, &r);
}

/* The simulated UVM driver thread (sim/driver): wakes on the fault
 * interrupt, services faults in batches, allocates GPU frames (evicting when
 * full), migrates pages over the link and maps them. */
#ifndef UVMSIM_DRIVER_H
#define UVMSIM_DRIVER_H

#include <stdio.h>
#include "core/engine.h"
#include "core/mem_req.h"
#include "config/config.h"
#include "core/engine.h"
#include "core/mem_req.h"

struct config;
struct stats;
struct gmmu;
struct tlb;
struct link;

struct driver;

struct driver *driver_create(struct engine *e, const struct config *cfg,
                             struct stats *st, const struct domain *dom,
                             struct gmmu *g, struct tlb *t, struct link *l,
                             uint64_t footprint);
void driver_free(struct driver *d);
struct component *driver_component(struct driver *d);
/* Called when the driver unmaps a page from frame address pa, so the
 * caches drop the frame's lines before the frame is reused. */
typedef void (*driver_unmap_hook)(void *ctx, uint64_t pa, sim_time now);
void driver_set_unmap_hook(struct driver *d, driver_unmap_hook fn, void *ctx);
/* Thread oversubscription (batch-aware Sec. 4.1): the runtime's
 * controller (drv_oversub.c, on with gpu.sm.oversub.enabled and
 * driver.oversub.control) calls fn with the new number of extra blocks
 * per SM whenever it changes. */
typedef void (*driver_oversub_fn)(void *ctx, unsigned extra, sim_time now);
void driver_set_oversub_hook(struct driver *d, driver_oversub_fn fn, void *ctx);
/* SM throttling (driver.throttle, perf/drv_throttle.c: ETC's memory-aware
 * throttling): fn is called with the number of SMs to run (SMs 0 ..
 * active-1; the rest are throttled) whenever it changes. */
typedef void (*driver_throttle_fn)(void *ctx, unsigned active, sim_time now);
void driver_set_throttle_hook(struct driver *d, driver_throttle_fn fn, void *ctx);
/* GPU memory capacity in pages, as resolved from the config. */
uint64_t driver_capacity_pages(const struct driver *d);
/* The same before the driver exists (system_build checks it first). */
uint64_t driver_capacity_for(const struct config *cfg, uint64_t footprint);
/* Feeds for the eviction policy (docs/policies.md).  A page-walk hit on a
 * resident page, in order (the exact-order feed of LRU, RRIP, CLOCK-Pro
 * and HPE's ideal model); false from wants when the policy ignores it, so
 * the walker can skip the call. */
void driver_walk_hit(struct driver *d, uint64_t vpn);
bool driver_wants_walk_hits(const struct driver *d);
/* HIR transfer records: `count` walk hits on vpn since the last transfer
 * (HPE Sec. IV-B); only HPE with driver.evict.hpe.hit_feed=hir uses them. */
void driver_hit_info(struct driver *d, uint64_t vpn, uint32_t count);
/* Take every HIR record that has landed in the host buffer by `now` into
 * the policy (at each batch; also as they land with gmmu.hir.drain=landing). */
void driver_take_hir(struct driver *d, sim_time now);
/* Every page reference of a warp memory instruction at its logical place
 * (sim/sm gpu_ref), for Ideal's future; false from wants for the others. */
bool driver_wants_references(const struct driver *d);
void driver_reference(struct driver *d, uint64_t kernel, uint64_t block, uint64_t inst,
                      uint32_t warp, uint64_t vpn);


/* The workload's allocations and their initial cudaMemAdvise hints. */
struct workload;
void driver_set_workload(struct driver *d, const struct workload *wl);
/* Static placement (driver.placement other than fault; drv_place.c):
 * every page of wl mapped before the first kernel, in GPU memory or
 * remotely in host memory, by the policy; bo_share is y/100 of xC-yB
 * (driver_bo_share).  Registers placement.* statistics.  Returns the
 * pages placed in host memory (0 with driver.placement fault). */
uint64_t driver_place(struct driver *d, const struct config *cfg, const struct workload *wl,
                      double bo_share, struct stats *st);
bool driver_placed(const struct driver *d);
/* y/100: 1 - driver.place.co_percent / 100, or b_B / (b_B + b_C). */
double driver_bo_share(const struct config *cfg, double bw_gpu, double bw_host);

/* A host step or the prologue is over (see below). */
typedef void (*driver_step_done)(void *ctx, sim_time now);

/* ---- dynamic migration (driver.migration; thesis Ch. V, migrate.h) ----
 * What the runtime needs besides the driver's own parts: the memories
 * (bandwidth balancing reads their byte counters), GPU memory's channels
 * (a migrated page is written there), the request pool, and whether the
 * program still runs (no migration starts after its last kernel). */
struct dram;
struct req_pool;
struct driver_mem {
    struct dram *gpu, *host;
    struct mem_port gpu_port;
    struct req_pool *pool;
    bool (*busy)(void *ctx);
    void *busy_ctx;
};
/* Set up the policy's per-page state over the workload's allocations
 * (after driver_set_workload and driver_place); nothing without one. */
void driver_migration_attach(struct driver *d, const struct config *cfg,
                             const struct driver_mem *mem, struct stats *st);
/* Whether the policy counts GPU touches, and from where: walks of
 * host-homed pages (the GPU's TLB misses) or the requests the L2 sends to
 * host memory (driver.migrate.touch). */
bool driver_migration_counts(const struct driver *d);
bool driver_migration_walks(const struct driver *d);
/* One touch of host-homed page vpn (hot path: O(1)). */
void driver_migration_touch(struct driver *d, uint64_t vpn);
/* Work before the first kernel (the legacy memcpy baseline): true when
 * it started, done(ctx, t) when it is over; false: start at once. */
bool driver_prologue(struct driver *d, driver_step_done done, void *ctx, sim_time now);
/* Every page's migration state against its mapping and frame (no page
 * both resident and remote, a migrated page in the frame that holds it);
 * an internal error aborts (SIM_ASSERT). */
void driver_migration_check(const struct driver *d, sim_time now);

/* The profiling pass (uvmsim profile; placement.h's file format): every
 * page reference of a warp instruction before the caches (the thesis'
 * profiler, Sec. 4.4.1: per allocation) and every access that reaches
 * memory after them (the oracle's first pass, Sec. 4.3.2: per 4 KiB page,
 * in 32 B sectors moved; pa a GPU frame address or a host one). */
struct driver_profile;
struct driver_profile *driver_profile_new(const struct driver *d, const struct workload *wl);
void driver_profile_free(struct driver_profile *p);
void driver_profile_ref(struct driver_profile *p, uint64_t vpn);
void driver_profile_dram(struct driver_profile *p, uint64_t pa, unsigned sectors);
void driver_profile_write(const struct driver_profile *p, FILE *f);

/* Run a host step between kernels (workloads/workload.h wl_host_step:
 * prefetch, memcpy, advise) on the driver thread; done(ctx, t) when it has
 * completed. */
struct wl_step;
void driver_host_step(struct driver *d, const struct wl_step *step,
                      driver_step_done done, void *ctx, sim_time now);

/* ---- read-only views (uvmsim step) ---- */
/* State, frames, the batch in progress (the watchdog's dump). */
void driver_describe(const struct driver *d, FILE *out);
/* The batch in progress: its phase and its pages by VA block. */
void driver_describe_batch(const struct driver *d, FILE *out);

/* Config keys and checks of this room (sim/config_schema.c lists them). */
extern const struct cfg_key driver_config_keys[], placement_config_keys[],
    migration_config_keys[], thrashing_config_keys[], access_counters_config_keys[],
    oversub_ctl_config_keys[], throttle_config_keys[], evict_config_keys[];
bool driver_config_check(const struct config *c, struct cfg_error *err);
bool evict_config_check(const struct config *c, struct cfg_error *err);
bool placement_config_check(const struct config *c, struct cfg_error *err);
bool migration_config_check(const struct config *c, struct cfg_error *err);
bool access_counters_config_check(const struct config *c, struct cfg_error *err);
/* The registries (config.h struct cfg_registry) of driver.eviction,
 * driver.prefetch, driver.placement and driver.migration: ops table entry
 * i's name, NULL past the last. */
const char *evict_policy_name(size_t i);
const char *prefetch_policy_name(size_t i);
const char *place_policy_name(size_t i);
const char *migr_policy_name(size_t i);
const char *throttle_policy_name(size_t i);

#endif

/* GPU cores (sim/sm): kernel launch and occupancy, thread-block dispatch,
 * warps, warp schedulers, the coalescer, the per-SM L1 data cache and the
 * SM side of the crossbar.  Each SM sends translation requests to its L1
 * TLB and line requests (L1D misses, stores, atomics, bypassing loads) to
 * the memory side through a port routed by physical address (the L2
 * slices); answers come back into the SM's own queues through req->reply. */
#ifndef UVMSIM_SM_H
#define UVMSIM_SM_H

#include <stdio.h>
#include "core/engine.h"
#include "core/mem_req.h"
#include "config/config.h"
#include "core/engine.h"
#include "core/mem_req.h"

struct config;
struct stats;
struct req_pool;
struct workload;

struct gpu;

struct gpu *gpu_create(struct engine *e, const struct config *cfg,
                       struct stats *st, struct req_pool *pool,
                       const struct domain *dom, struct workload *wl);
void gpu_free(struct gpu *g);
unsigned gpu_num_sms(const struct gpu *g);
/* Where SM `sm` sends translations, and where line requests go (routed by
 * physical address). */
void gpu_set_ports(struct gpu *g, unsigned sm, struct mq *xlate_out,
                   struct mem_port mem_out);
/* sim.model fast: a translation is first offered to fn (tlb_l1_lookup_hook),
 * which answers it without the L1 TLB's tick or returns false, and only
 * then pushed to the SM's xlate port.  Unset (cycle): always the port. */
/* sim.model fast (fast.c): the lines of GPU-homed pages are looked up in
 * the L1D when translated and handed to fn (l2_fast_hook) at their
 * crossbar send time, which answers when they leave the L2 (false: not
 * taken); each memory instruction is answered once, at its last line's
 * time.  Unset (cycle): every line takes the L1D queue and the crossbar. */
void gpu_set_mem_now(struct gpu *g, bool (*fn)(void *ctx, enum req_kind k, uint64_t pa,
                                               uint8_t mask, sim_time sent, sim_time *done),
                     void *ctx);
/* sim.model fast: a translation of a GPU-homed page is first offered to fn
 * (tlb_l1_hit_hook, its context the xlate_now one), which answers a hit
 * with its time; the page's lines are then timed at once (fast.c). */
void gpu_set_xlate_hit(struct gpu *g, bool (*fn)(void *ctx, unsigned sm, struct mem_req *r,
                                                 sim_time now, sim_time *at));
void gpu_set_xlate_now(struct gpu *g, bool (*fn)(void *ctx, unsigned sm, struct mem_req *r,
                                                 sim_time now), void *ctx);
/* SM `sm`'s uTLB raised a fault for page vpn (fits gmmu_fault_hook): its
 * warps waiting on vpn are fault-stalled until their translation returns. */
void gpu_note_fault(void *gpu, unsigned sm, uint64_t vpn, sim_time now);
/* Thread oversubscription: the runtime's controller allows `extra` blocks
 * per SM beyond the occupancy (fits driver_oversub_fn). */
void gpu_set_oversub_extra(void *gpu, unsigned extra, sim_time now);
/* SM throttling (ETC's memory-aware throttling, driver/perf/drv_throttle.c;
 * fits driver_throttle_fn): SMs 0 .. active-1 run, the others issue
 * nothing and get no new block until they run again. */
void gpu_set_active_sms(void *gpu, unsigned active, sim_time now);
/* SM `sm` issues no instruction before `until` (TLB shootdown cost). */
void gpu_block_issue(struct gpu *g, unsigned sm, sim_time until);
/* The driver evicted the page in the 4 KiB frame at pa: every SM's L1D
 * drops its lines (write-through: none is dirty).  For the driver to call
 * when it unmaps a page, with l2_invalidate_frame. */
void gpu_invalidate_frame(struct gpu *g, uint64_t pa);
/* Every SM's L1D drops the 128 B line at pa (selective caching's remote
 * directory: the CPU requested it). */
void gpu_invalidate_line(struct gpu *g, uint64_t pa);
/* Promiscuous read-only caching (gpu.caching.remote readonly): a host page
 * made read-write drops its lines from every L1D and calls fn(ctx, pa) for
 * the rest of the GPU's caches (the L2: l2_invalidate_frame). */
void gpu_set_prot_flush(struct gpu *g, void (*fn)(void *ctx, uint64_t pa), void *ctx);
/* Host steps between kernels (prefetch, memcpy, advise: workload.h
 * wl_host_step) go to `fn`, which must call gpu_host_step_done when the
 * step has completed; the next kernel launches only then (program order,
 * as a CUDA stream).  Without a hook host steps are skipped. */
struct wl_step;
typedef void (*gpu_host_step_fn)(void *ctx, const struct wl_step *step, sim_time now);
void gpu_set_host_step_hook(struct gpu *g, gpu_host_step_fn fn, void *ctx);
void gpu_host_step_done(struct gpu *g, sim_time now);
/* Where the program's steps come from instead of wl_next_step (sim/runtime
 * rewrites the program around each kernel): false at its end; *delay is
 * host time spent before a kernel (added to its launch latency). */
typedef bool (*gpu_step_fn)(void *ctx, struct wl_step *out, sim_time now, sim_time *delay);
void gpu_set_step_source(struct gpu *g, gpu_step_fn fn, void *ctx);
/* Every page reference of a warp memory instruction, reported when its
 * translation reaches the SM (after the fault, for a faulted page), with
 * its place in the program's logical order: kernel launch number, thread
 * block, the warp's memory-instruction number, warp in the block.  The
 * same reference gets the same place in every run of a config, however
 * the timing interleaves warps (Ideal's future, sim/driver/evict_ideal.c). */
struct gpu_ref { uint64_t kernel, block, inst, vpn; uint32_t warp; };
typedef void (*gpu_ref_fn)(void *ctx, const struct gpu_ref *r);
void gpu_set_ref_hook(struct gpu *g, gpu_ref_fn fn, void *ctx);
/* Start the workload's program. */
void gpu_start(struct gpu *g, sim_time now);
bool gpu_busy(const struct gpu *g);
uint64_t gpu_kernels_done(const struct gpu *g);

/* ---- model pieces with no state, exposed for tests ---- */

/* Per-SM resources and CUDA's allocation granularities. */
struct occ_limits {
    uint32_t max_threads, max_warps, max_blocks;
    uint32_t regs, reg_unit;        /* registers per SM; per-warp allocation unit */
    uint32_t smem, smem_unit;       /* shared memory bytes per SM; allocation unit */
};
enum occ_limit { OCC_BLOCKS, OCC_WARPS, OCC_THREADS, OCC_REGS, OCC_SMEM };
const char *occ_limit_name(enum occ_limit l);
/* Resident blocks of `threads` threads, `regs` registers per thread and
 * `smem` bytes of shared memory per block (0: the block does not fit);
 * *why names the binding limit. */
uint32_t gpu_occupancy(const struct occ_limits *l, uint32_t threads,
                       uint32_t regs, uint32_t smem, enum occ_limit *why);

/* One warp memory instruction, coalesced: distinct 128 B lines with their
 * 32 B sector masks, and distinct pages, in first-touch lane order. */
#define COAL_MAX 32
struct coalesced {
    uint32_t nlines, npages, nsectors;
    uint64_t line_addr[COAL_MAX];
    uint8_t line_mask[COAL_MAX];
    uint8_t line_page[COAL_MAX];
    uint64_t page_vpn[COAL_MAX];
};
/* addr[l] for each lane l set in `active`, each access `size` bytes. */
void gpu_coalesce(const uint64_t *addr, uint32_t active, uint32_t size,
                  struct coalesced *out);

/* ---- read-only views (uvmsim step) ---- */
/* An SM: its live warps and what each waits on (the watchdog's dump). */
void gpu_describe_sm(const struct gpu *g, unsigned sm, FILE *out);
/* One warp slot: its state and the pages of its memory instructions. */
void gpu_describe_warp(const struct gpu *g, unsigned sm, unsigned warp, FILE *out);

/* Config keys and checks of this room (sim/config_schema.c lists them). */
extern const struct cfg_key gpu_config_keys[], oversub_config_keys[], selcache_config_keys[];
/* gpu.sm.scheduler's registry: the scheduler table's entry i's name, NULL
 * past the last. */
const char *sched_policy_name(size_t i);

#endif

/* Wiring of the house (DESIGN.md, "the path of one access"):
 *   SM --xlate--> L1 TLB --> L2 TLB --> GMMU walker --fault--> driver
 *   SM --line---> L1D --crossbar--> L2 slice --miss--> GPU memory channel
 *                                        walker --PTE reads--> L2 slice
 *                                        HIR records --link--> driver
 *   shootdowns: TLB --> SM issue stall;  full fault buffer: GMMU --> L1 TLB stall
 *   driver --> link (H2D/D2H) --> map page --> parked walks answered */
#include <stdlib.h>
#include <string.h>
#include "system.h"
#include "system_check.h"
#include "config/config.h"
#include "core/stats.h"
#include "core/mem_req.h"
#include "sm/sm.h"
#include "tlb/tlb.h"
#include "gmmu/gmmu.h"
#include "dram/dram.h"
#include "l2/l2.h"
#include "link/link.h"
#include "driver/driver.h"
#include "runtime/runtime.h"
#include "workloads/workload.h"
#include "trace/trace.h"

/* Tie order between domains at the same picosecond: fixed, so runs are
 * reproducible. */
enum { ORDER_CORE, ORDER_DRAM, ORDER_LINK, ORDER_DRIVER, ORDER_HOST };

struct system {
    struct engine *eng;
    struct stats *st;
    struct req_pool pool;
    struct domain core, dram_dom, link_dom, drv_dom, host_dom;
    struct workload *wl;
    struct gpu *gpu;
    struct tlb *tlb;
    struct gmmu *gmmu;
    struct dram *dram, *host;
    struct l2 *l2;
    struct link *link;
    struct link_cpu *cpu;       /* selective caching's CPU side, or NULL */
    struct driver *drv;
    struct runtime *rt;         /* runtime.policy's layer, or NULL */
    struct readback *rb;        /* workload.read_back, or NULL */
    double *ipc;
    uint64_t *cycles, *footprint, *host_steps;
    bool copies_managed;          /* workload.copies=managed */
    const uint64_t *warp_insts;
};

/* The end of a shootdown stall is progress for the watchdog: shootdowns
 * queue up without limit (each starts when the previous one ended), so no
 * watchdog derived from tlb.shootdown.cycles could cover the queue. */
static void stall_ended(void *obj, uint64_t arg, sim_time now)
{
    (void)arg; (void)now;
    engine_progress(obj);
}

/* A TLB shootdown stops the SM's issue (sim/tlb has no view of the SMs). */
static void shootdown_stall(void *ctx, unsigned sm, sim_time until)
{
    struct system *s = ctx;
    gpu_block_issue(s->gpu, sm, until);
    engine_at(s->eng, until, &s->core, stall_ended, s->eng, 0);
}

/* An evicted frame leaves every cache before it is reused: the copy
 * engine read the page through the L2 (the point of coherence), so its
 * lines are dropped, not written back. */
static void frame_unmapped(void *ctx, uint64_t pa, sim_time now)
{
    struct system *s = ctx;
    (void)now;
    gpu_invalidate_frame(s->gpu, pa);
    l2_invalidate_frame(s->l2, pa);
}

/* Host steps between kernels run on the driver thread; the front end
 * resumes the program when the driver says the step is done. */
static void host_step_done(void *ctx, sim_time now)
{
    struct system *s = ctx;
    gpu_host_step_done(s->gpu, now);
}

static void host_step(void *ctx, const struct wl_step *step, sim_time now)
{
    struct system *s = ctx;
    /* workload.copies=managed: a demand-paged program has no copies. */
    if (s->copies_managed && step->kind == WL_STEP_MEMCPY) {
        gpu_host_step_done(s->gpu, now);
        return;
    }
    driver_host_step(s->drv, step, host_step_done, s, now);
}

static void walk_hit(void *ctx, uint64_t vpn, sim_time now)
{
    (void)now;
    driver_walk_hit(ctx, vpn);
}

static void hir_landed(void *ctx, sim_time now)
{
    driver_take_hir(ctx, now);
}

static void page_ref(void *ctx, const struct gpu_ref *r)
{
    driver_reference(ctx, r->kernel, r->block, r->inst, r->warp, r->vpn);
}

/* The SC19 runtime layer rewrites the program's steps around kernels. */
static bool runtime_step(void *ctx, struct wl_step *out, sim_time now, sim_time *delay)
{
    return runtime_next_step(ctx, out, now, delay);
}

/* The host's read-back after the program (rt_readback.c) wraps the step
 * source and learns from the GMMU which objects the kernels wrote. */
static bool readback_step(void *ctx, struct wl_step *out, sim_time now, sim_time *delay)
{
    return readback_next_step(ctx, out, now, delay);
}
static void page_dirtied(void *ctx, uint64_t vpn) { readback_note_write(ctx, vpn); }

static bool busy(void *ctx) { return gpu_busy(((struct system *)ctx)->gpu); }

/* Dynamic migration's touches (driver.migrate.touch): a walk of a
 * host-homed page, or a request the L2 sends to host memory. */
static void migr_walk(void *ctx, uint64_t vpn, sim_time now)
{
    (void)now;
    driver_migration_touch(ctx, vpn);
}

static void migr_mem(void *ctx, uint64_t pa, unsigned sectors)
{
    (void)sectors;   /* a touch is a request, whatever its size (Sec. 5.2) */
    if (pa & PADDR_HOST) driver_migration_touch(ctx, (pa & ~PADDR_HOST) >> PAGE_SHIFT);
}

/* The legacy memcpy baseline's copies are over: the program starts. */
static void prologue_done(void *ctx, sim_time now)
{
    struct system *s = ctx;
    gpu_start(s->gpu, now);
}

static void remote_send(void *ctx, struct mem_req *r, sim_time now)
{
    link_remote_send(ctx, r, now);
}

/* Selective caching's CPU side (thesis Sec. 6.2.1): CPU reads of GPU-homed
 * lines reach the L2 slices; GPU requests the remote directory routes go
 * to the CPU over the link; the directory's probe-and-discard reaches
 * every L1D. */
static void cpu_read(void *ctx, uint64_t pa, sim_time now) { l2_cpu_read(ctx, pa, now); }
static void flush_line(void *ctx, uint64_t pa) { gpu_invalidate_line(ctx, pa); }
/* A host page made read-write (promiscuous read-only caching): its lines
 * leave the L2 too. */
static void prot_flush(void *ctx, uint64_t pa) { l2_invalidate_frame(ctx, pa); }
static const struct l2_cpu cpu_ops = { link_cpu_probe, link_cpu_answer };

static bool cpu_side(const struct config *cfg)
{
    return !cfg_is(cfg, "gpu.caching.remote", "all") || cfg_u64(cfg, "cpu.stream.interval");
}

/* Whether host memory serves more than page copies by the config alone:
 * a static placement (driver.placement), advice that maps to the host
 * (preferred location host, accessed-by), or a CPU stream
 * (cpu.stream.interval). */
static bool placed_remote(const struct config *cfg, const struct workload *wl)
{
    return !cfg_is(cfg, "driver.placement", "fault") || wl->host_advice ||
           cfg_u64(cfg, "cpu.stream.interval");
}

/* Whether any page can be homed in host memory and reached remotely: the
 * above, or thrashing's pinning at the host.  Only then is the remote path
 * on: its statistics exist, and the host side of the link runs in step
 * with the engine (link/link.h link_remote_enable); other runs keep the
 * host side's run-ahead. */
static bool remote_possible(const struct config *cfg, const struct workload *wl)
{
    return placed_remote(cfg, wl) || cfg_bool(cfg, "driver.thrashing.enabled");
}


static void update_ipc(struct system *s, sim_time now)
{
    *s->cycles = now / s->core.period;
    *s->ipc = *s->cycles ? (double)*s->warp_insts / (double)*s->cycles : 0.0;
}

static void sample(void *ctx, sim_time now)
{
    struct system *s = ctx;
    update_ipc(s, now);
    link_settle(s->link, now);
    stats_sample(s->st, now);
    if (TRACE_ON(TW_COUNTERS)) trace_sample(now);
}

struct system *system_build(const struct config *cfg)
{
    /* User errors while building and running name where the keys they
     * mention were set (config.h, cfg_locate_message). */
    user_error_set_locator(cfg_locate_message, (void *)cfg);
    system_check_watchdog(cfg);
    /* The workload first: its footprint sizes GPU memory, and the checks
     * run before anything is allocated for the machine. */
    struct workload *wl = workload_create(cfg);
    system_check_workload(cfg, wl);
    system_check_footprint(cfg, wl);
    uint64_t pages = driver_capacity_for(cfg, wl->footprint);
    system_check_memory(cfg, wl, pages);
    struct engine_limits lim = {
        cfg_u64(cfg, "sim.max_time"), cfg_u64(cfg, "sim.max_events"),
        system_watchdog(cfg),
    };
    struct system *s = xcalloc(1, sizeof *s);
    s->wl = wl;
    s->eng = engine_new(&lim);
    s->st = stats_new();
    /* Before the remote path is decided: a pinning policy advises host. */
    s->rt = runtime_create(cfg, wl, pages * PAGE_SIZE, s->st);
    req_pool_init(&s->pool);
    s->core = (struct domain){ "core", cfg_period(cfg, "gpu.clock"), ORDER_CORE };
    s->dram_dom = (struct domain){ "dram", cfg_period(cfg, "dram.clock"), ORDER_DRAM };
    s->link_dom = (struct domain){ "link", 1, ORDER_LINK };
    s->drv_dom = (struct domain){ "driver", cfg_period(cfg, "driver.clock"), ORDER_DRIVER };
    s->host_dom = (struct domain){ "host", hostmem_period(cfg), ORDER_HOST };

    s->gpu = gpu_create(s->eng, cfg, s->st, &s->pool, &s->core, s->wl);
    unsigned nsms = gpu_num_sms(s->gpu);
    s->tlb = tlb_create(s->eng, cfg, s->st, &s->pool, &s->core, nsms);
    s->gmmu = gmmu_create(s->eng, cfg, s->st, &s->core);
    s->dram = sim_model_of(cfg)->gpu_memory(s->eng, cfg, s->st, &s->dram_dom);
    bool remote = remote_possible(cfg, s->wl);
    /* Host memory is the model's copy-path memory unless pages are placed
     * or advised there: a page that thrashing pins at the host (the
     * real-driver presets enable the detection) reaches the same memory
     * (docs/decisions.md). */
    s->host = (placed_remote(cfg, s->wl) ? hostmem_create
                                         : sim_model_of(cfg)->copy_host_memory)(s->eng, cfg, s->st,
                                                                               &s->host_dom);
    s->l2 = l2_create(s->eng, cfg, s->st, &s->pool, &s->core, s->dram);
    s->link = link_create(s->eng, cfg, s->st, &s->link_dom);
    link_attach_host(s->link, s->host, &s->pool);
    s->drv = driver_create(s->eng, cfg, s->st, &s->drv_dom, s->gmmu, s->tlb,
                           s->link, s->wl->footprint);
    for (unsigned i = 0; i < nsms; i++)
        gpu_set_ports(s->gpu, i, tlb_l1_in(s->tlb, i), l2_port(s->l2));
    if (sim_model_of(cfg)->tlb_at_lookup) gpu_set_xlate_now(s->gpu, tlb_l1_lookup_hook, s->tlb);
    if (sim_model_of(cfg)->mem_at_send) {
        l2_set_fast(s->l2);
        gpu_set_mem_now(s->gpu, l2_fast_hook, s->l2);
        gpu_set_xlate_hit(s->gpu, tlb_l1_hit_hook);
    }
    tlb_set_walker(s->tlb, gmmu_walk_in(s->gmmu));
    tlb_set_shootdown_hook(s->tlb, shootdown_stall, s);
    tlb_set_remote_hook(s->tlb, gmmu_note_remote_access, s->gmmu);
    tlb_set_sharer_hook(s->tlb, gmmu_referenced, s->gmmu);
    gmmu_set_fault_hook(s->gmmu, gpu_note_fault, s->gpu);
    gmmu_set_stall_hook(s->gmmu, tlb_stall_sm, s->tlb);
    tlb_set_fault_hook(s->tlb, gmmu_utlb_fault, s->gmmu);
    gmmu_set_replay_hook(s->gmmu, tlb_replay, s->tlb);
    gmmu_set_memory(s->gmmu, l2_port(s->l2), &s->pool);
    gmmu_set_link(s->gmmu, s->link);
    driver_set_unmap_hook(s->drv, frame_unmapped, s);
    gpu_set_prot_flush(s->gpu, prot_flush, s->l2);
    driver_set_workload(s->drv, s->wl);
    if (remote) {
        link_remote_enable(s->link);
        l2_set_remote(s->l2, s->st, remote_send, s->link);
        link_remote_client_cache(s->link, cfg, s->st, s->core.period);
        if (cpu_side(cfg)) {
            s->cpu = link_cpu_create(s->link, cfg, s->st, s->core.period);
            l2_set_cpu(s->l2, &cpu_ops, s->cpu, flush_line, s->gpu);
            link_cpu_start(s->cpu, cpu_read, s->l2);
        }
    }
    driver_place(s->drv, cfg, s->wl,
                 driver_bo_share(cfg, dram_peak_bandwidth(s->dram), dram_peak_bandwidth(s->host)),
                 s->st);
    /* Dynamic migration (thesis Ch. V) of the pages placed in host memory. */
    struct driver_mem mem = { s->dram, s->host, dram_port(s->dram), &s->pool, busy, s };
    driver_migration_attach(s->drv, cfg, &mem, s->st);
    if (driver_migration_walks(s->drv)) gmmu_set_remote_walk_hook(s->gmmu, migr_walk, s->drv);
    else if (driver_migration_counts(s->drv)) l2_set_mem_hook(s->l2, migr_mem, s->drv);
    /* Thread oversubscription: the runtime's controller sets the extra
     * blocks per SM (batch-aware Sec. 4.1). */
    driver_set_oversub_hook(s->drv, gpu_set_oversub_extra, s->gpu);
    /* SM throttling (ETC's MT): the driver's policy disables SMs. */
    driver_set_throttle_hook(s->drv, gpu_set_active_sms, s->gpu);
    s->copies_managed = cfg_is(cfg, "workload.copies", "managed");
    gpu_set_host_step_hook(s->gpu, host_step, s);
    if (s->rt) gpu_set_step_source(s->gpu, runtime_step, s->rt);
    s->rb = readback_create(cfg, s->wl, s->rt, s->st);
    if (s->rb) {
        gpu_set_step_source(s->gpu, readback_step, s->rb);
        gmmu_set_dirty_hook(s->gmmu, page_dirtied, s->rb);
    }
    /* Policies that rank pages by use see every walk hit (the HPE paper's
     * "ideal" feed; with the HIR on, HPE takes the HIR records instead). */
    if (driver_wants_walk_hits(s->drv))
        gmmu_set_walk_hit_hook(s->gmmu, walk_hit, s->drv, cfg_is(cfg, "driver.evict.replay_walks", "feed"));
    /* gmmu.hir.drain=landing: HPE's chain takes each HIR transfer as it
     * lands (Sec. V-C: the update runs beside fault handling), so the
     * host buffer holds one transfer, not a batch's worth of them. */
    if (cfg_is(cfg, "gmmu.hir.drain", "landing"))
        gmmu_set_hir_landed_hook(s->gmmu, hir_landed, s->drv);
    /* Ideal marks each reference of its future made when it happens. */
    if (driver_wants_references(s->drv)) gpu_set_ref_hook(s->gpu, page_ref, s->drv);

    s->footprint = stat_counter(s->st, "workload.footprint", "bytes",
                                "bytes of all the workload's allocations");
    *s->footprint = s->wl->footprint;
    /* Host steps (prefetch, memcpy, advise) run on the driver; any the
     * front end handed out that the driver did not run (none while the
     * hook is set) are counted so a run shows what it left out. */
    s->host_steps = stat_counter(s->st, "workload.host_steps_skipped", "steps",
                                 "host-side program steps not executed (prefetch, memcpy, advise)");
    s->cycles = stat_counter(s->st, "gpu.cycles", "cycles",
                             "simulated time in core cycles");
    s->ipc = stat_real(s->st, "gpu.ipc", "instructions/cycle",
                       "warp instructions per core cycle, all SMs");
    s->warp_insts = stats_find(s->st, "gpu.warp_insts")->p.u;
    /* Both follow the clock alone; an epoch in which nothing else moved
     * is held back by sim.epoch_rows=changed (stats.h). */
    stats_mark_clock(s->st, "gpu.cycles");
    stats_mark_clock(s->st, "gpu.ipc");
    stats_series_skip_unchanged(s->st, cfg_is(cfg, "sim.epoch_rows", "changed"));
    engine_set_busy_fn(s->eng, busy, s);
    engine_every(s->eng, cfg_u64(cfg, "sim.epoch"), sample, s);
    return s;
}

enum run_status system_run(struct system *s)
{
    system_start(s);
    enum run_status st = engine_run(s->eng);
    system_finish(s);
    return st;
}

void system_start(struct system *s)
{
    if (!driver_prologue(s->drv, prologue_done, s, 0)) gpu_start(s->gpu, 0);
}

void system_finish(struct system *s)
{
    const struct stat_entry *ran = stats_find(s->st, "driver.host_steps");
    *s->host_steps = s->wl->host_steps - (ran ? *ran->p.u : 0);
    sim_time now = engine_end_time(s->eng);
    driver_migration_check(s->drv, now);
    update_ipc(s, now);
    link_settle(s->link, now);
    sim_time last;
    if (!stats_series_last_time(s->st, &last) || last != now)
        stats_sample(s->st, now);       /* the final state, once */
    stats_series_end(s->st);
}

void system_free(struct system *s)
{
    if (!s) return;
    driver_free(s->drv);
    runtime_free(s->rt);
    readback_free(s->rb);
    link_cpu_free(s->cpu);
    link_free(s->link);
    dram_free(s->host);
    l2_free(s->l2);
    dram_free(s->dram);
    gmmu_free(s->gmmu);
    tlb_free(s->tlb);
    gpu_free(s->gpu);
    workload_free(s->wl);
    req_pool_free(&s->pool);
    stats_free(s->st);
    engine_free(s->eng);
    free(s);
    user_error_set_locator(NULL, NULL);
}

/* ---- the profiling pass (uvmsim profile) ---- */

static void prof_ref(void *ctx, const struct gpu_ref *r) { driver_profile_ref(ctx, r->vpn); }
static void prof_mem(void *ctx, uint64_t pa, unsigned sectors) { driver_profile_dram(ctx, pa, sectors); }

struct driver_profile *system_profile(struct system *s)
{
    struct driver_profile *p = driver_profile_new(s->drv, s->wl);
    gpu_set_ref_hook(s->gpu, prof_ref, p);
    l2_set_mem_hook(s->l2, prof_mem, p);
    return p;
}

struct engine *system_engine(struct system *s) { return s->eng; }
struct stats *system_stats(struct system *s) { return s->st; }
sim_time system_core_period(const struct system *s) { return s->core.period; }
uint64_t system_kernels_done(const struct system *s) { return gpu_kernels_done(s->gpu); }
void system_set_progress(struct system *s, void (*fn)(void *, sim_time), void *ctx)
{
    engine_set_progress_fn(s->eng, fn, ctx);
}

void system_parts(const struct system *s, struct system_parts *p)
{
    *p = (struct system_parts){ s->gpu, s->tlb, s->gmmu, s->dram, s->host, s->link, s->drv };
}

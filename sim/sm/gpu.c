/* The GPU's cores: configuration, construction, statistics and the public
 * entry points.  Defaults: HPE Table I (GTX 480 / Fermi): 15 SMs at
 * 1.4 GHz, 16 KB 4-way LRU L1D; Fermi per-SM limits (CUDA compute
 * capability 2.0: 48 warps, 8 blocks, 1536 threads, 32768 registers
 * allocated per warp in units of 64, 48 KB shared memory in units of
 * 128 B, two warp schedulers); thesis Table 3.1 (the same Fermi-like
 * machine in GPGPU-Sim): L1D 3-cycle latency, 64 MSHRs. */
#include <stdlib.h>
#include <string.h>
#include "sm_internal.h"
#include "config/config.h"
#include "core/stats.h"

const struct cfg_key gpu_config_keys[] = {
    {"gpu.sms", CFG_INT, "15", 1, 1024, NULL, "streaming multiprocessors (HPE Table I: 15)"},
    {"gpu.clock", CFG_FREQ, "1.4GHz", 1e6, 1e11, NULL, "SM core clock (HPE Table I: 1.4 GHz)"},
    {"gpu.sm.max_warps", CFG_INT, "48", 1, 1024, NULL, "resident warps per SM (Fermi: 48)"},
    {"gpu.sm.max_blocks", CFG_INT, "8", 1, 1024, NULL, "resident thread blocks per SM (Fermi: 8)"},
    {"gpu.sm.max_threads", CFG_INT, "1536", 32, 65536, NULL, "resident threads per SM (Fermi: 1536)"},
    {"gpu.sm.registers", CFG_INT, "32768", 1, 16777216, NULL, "32-bit registers per SM (Fermi: 32768)"},
    {"gpu.sm.reg_alloc_unit", CFG_INT, "64", 1, 65536, NULL,
     "registers are allocated per warp in multiples of this (Fermi: 64; Kepler and later: 256)"},
    {"gpu.sm.shared_memory", CFG_SIZE, "48KiB", 0, 1073741824, NULL,
     "shared memory per SM (Fermi with a 16 KB L1: 48 KB)"},
    {"gpu.sm.smem_alloc_unit", CFG_SIZE, "128B", 1, 1048576, NULL,
     "shared memory is allocated per block in multiples of this (Fermi: 128 B)"},
    {"gpu.sm.schedulers", CFG_INT, "2", 1, 64, NULL, "warp schedulers per SM (Fermi: 2)"},
    {"gpu.sm.issue_width", CFG_INT, "1", 1, 8, NULL, "instructions each scheduler issues per cycle"},
    {"gpu.sm.scheduler", CFG_ENUM, "lrr", 0, -1, NULL /* sched.c policies[] */,
     "warp scheduling policy: loose round robin, greedy-then-oldest"},
    {"gpu.sm.max_outstanding_mem", CFG_INT, "1", 1, 64, NULL,
     "memory instructions a warp may have in flight (1: it waits for each load)"},
    {"gpu.sm.lsu_width", CFG_INT, "1", 1, 64, NULL, "translation requests an SM sends to its L1 TLB per cycle"},
    {"gpu.l1d.size", CFG_SIZE, "16KiB", 0, 1073741824, NULL,
     "L1 data cache per SM (HPE Table I: 16 KB; 0: no L1D)"},
    {"gpu.l1d.assoc", CFG_INT, "4", 1, 1024, NULL, "L1D ways (HPE Table I: 4)"},
    {"gpu.l1d.latency", CFG_INT, "3", 0, 10000, NULL, "L1D hit latency in core cycles (thesis Table 3.1: 3)"},
    {"gpu.l1d.mshrs", CFG_INT, "64", 1, 65536, NULL, "L1D outstanding line misses (thesis Table 3.1: 64)"},
    {"gpu.l1d.ports", CFG_INT, "1", 1, 64, NULL, "L1D line lookups per cycle"},
    {"gpu.l1d.bypass", CFG_BOOL, "false", 0, -1, NULL,
     "every load bypasses the L1D (nvcc -dlcm=cg); single loads can with INST_F_BYPASS_L1"},
    {"gpu.l1d.remote_cache", CFG_BOOL, "true", 0, -1, NULL,
     "lines of host-homed pages are cached in the L1D (CC-NUMA, hardware-coherent: thesis "
     "Sec. 4.2.2 caches them like any; false: loads of them bypass the L1D)"},
    {"gpu.xbar.latency", CFG_INT, "8", 0, 100000, NULL,
     "crossbar traversal in core cycles, each way between an SM and an L2 slice (assumed; no paper gives it)"},
    {"gpu.xbar.port_bw", CFG_INT, "32", 1, 65536, NULL,
     "bytes per core cycle through one crossbar port (GPGPU-Sim: 32 B flits)"},
    {"gpu.kernel_launch_latency", CFG_TIME, "0ns", 0, 1e12, NULL,
     "before each kernel starts (after the previous one ends)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static const char *const stall_names[ST_NREASONS] = {
    "shootdown", "fault", "memory", "barrier", "pipeline", "idle",
};

static void register_stats(struct gpu *g, struct stats *st)
{
    static const struct rec_field kfields[] = {
        {"seq", REC_U64, ""}, {"name", REC_STR32, ""},
        {"start_ps", REC_U64, "ps"}, {"end_ps", REC_U64, "ps"},
        {"grid_x", REC_U64, ""}, {"grid_y", REC_U64, ""}, {"grid_z", REC_U64, ""},
        {"block_x", REC_U64, ""}, {"block_y", REC_U64, ""}, {"block_z", REC_U64, ""},
        {"regs_per_thread", REC_U64, "registers"}, {"smem_per_block", REC_U64, "bytes"},
        {"blocks", REC_U64, "blocks"}, {"warp_insts", REC_U64, "instructions"},
        {"blocks_per_sm", REC_U64, "blocks"}, {"occupancy", REC_F64, "fraction"},
        {"occupancy_limit", REC_STR32, ""},
    };
    unsigned n = g->nsms;
    g->kernels = stat_table(st, "kernels", "one row per kernel launch (occupancy: resident warps / max warps)",
                            kfields, sizeof kfields / sizeof kfields[0]);
    g->n_kernels = stat_counter(st, "gpu.kernels", "kernels", "kernels completed");
    g->warp_insts = stat_counter(st, "gpu.warp_insts", "instructions", "warp instructions issued, all SMs");
    g->mem_insts = stat_counter(st, "gpu.mem_insts", "instructions", "warp memory instructions issued");
    g->xlates = stat_counter(st, "gpu.xlate_reqs", "requests", "translation requests (distinct pages per memory instruction)");
    g->lines = stat_counter(st, "gpu.line_reqs", "requests", "line requests (distinct 128 B lines per memory instruction)");
    g->sectors = stat_counter(st, "gpu.sector_reqs", "sectors", "distinct 32 B sectors per memory instruction, summed");
    g->lines_per_inst = stat_histogram(st, "gpu.lines_per_inst", "lines",
                                       "distinct lines per memory instruction", 33, 1);
    g->pages_per_inst = stat_histogram(st, "gpu.pages_per_inst", "pages",
                                       "distinct pages per memory instruction", 33, 1);
    g->l1_hits = stat_counter(st, "gpu.l1d.hits", "requests", "L1D line lookups that found every sector");
    g->l1_misses = stat_counter(st, "gpu.l1d.misses", "requests", "L1D misses that took an MSHR");
    g->l1_sector_misses = stat_counter(st, "gpu.l1d.sector_misses", "requests",
                                       "L1D misses whose line was present without the sectors");
    g->l1_merges = stat_counter(st, "gpu.l1d.mshr_merges", "requests", "L1D misses merged into an MSHR");
    g->fault_warp_cycles = stat_counter(st, "gpu.fault_warp_cycles", "warp-cycles",
                                        "sum over cycles of warps waiting on a far fault");
    g->v.insts = stat_vector(st, "sm.warp_insts", n, "instructions", "warp instructions issued per SM");
    g->v.mem_insts = stat_vector(st, "sm.mem_insts", n, "instructions", "warp memory instructions per SM");
    g->v.l1_hits = stat_vector(st, "sm.l1d.hits", n, "requests", "L1D hits per SM");
    g->v.l1_misses = stat_vector(st, "sm.l1d.misses", n, "requests", "L1D misses per SM");
    g->v.l1_sector_misses = stat_vector(st, "sm.l1d.sector_misses", n, "requests", "L1D sector misses per SM");
    g->v.l1_merges = stat_vector(st, "sm.l1d.mshr_merges", n, "requests", "L1D MSHR merges per SM");
    g->v.l1_mshr_full = stat_vector(st, "sm.l1d.mshr_full", n, "cycles", "L1D lookups refused for want of an MSHR");
    g->v.faults = stat_vector(st, "sm.faults", n, "faults", "translation faults raised on behalf of each SM");
    g->v.fault_warp_cycles = stat_vector(st, "sm.fault_warp_cycles", n, "warp-cycles",
                                         "sum over cycles of warps waiting on a far fault, per SM");
    g->v.issue_cycles = stat_vector(st, "sm.issue_cycles", n, "cycles", "cycles in which the SM issued");
    for (int r = 0; r < ST_NREASONS; r++) {
        char name[64], desc[128];
        snprintf(name, sizeof name, "gpu.stall.%s", stall_names[r]);
        snprintf(desc, sizeof desc, "SM-cycles with no issue, reason %s, all SMs", stall_names[r]);
        g->stall[r] = stat_counter(st, name, "cycles", desc);
        snprintf(name, sizeof name, "sm.stall.%s", stall_names[r]);
        snprintf(desc, sizeof desc, "cycles with no issue, reason %s, per SM", stall_names[r]);
        g->v.stall[r] = stat_vector(st, name, n, "cycles", desc);
    }
}

static const struct comp_ops sm_ops = { sm_tick, sm_dump };

struct gpu *gpu_create(struct engine *e, const struct config *cfg,
                       struct stats *st, struct req_pool *pool,
                       const struct domain *dom, struct workload *wl)
{
    struct gpu *g = xcalloc(1, sizeof *g);
    g->eng = e;
    g->dom = dom;
    g->pool = pool;
    g->wl = wl;
    g->nsms = (unsigned)cfg_u64(cfg, "gpu.sms");
    g->lim = (struct occ_limits){
        .max_threads = (uint32_t)cfg_u64(cfg, "gpu.sm.max_threads"),
        .max_warps = (uint32_t)cfg_u64(cfg, "gpu.sm.max_warps"),
        .max_blocks = (uint32_t)cfg_u64(cfg, "gpu.sm.max_blocks"),
        .regs = (uint32_t)cfg_u64(cfg, "gpu.sm.registers"),
        .reg_unit = (uint32_t)cfg_u64(cfg, "gpu.sm.reg_alloc_unit"),
        .smem = (uint32_t)cfg_u64(cfg, "gpu.sm.shared_memory"),
        .smem_unit = (uint32_t)cfg_u64(cfg, "gpu.sm.smem_alloc_unit"),
    };
    /* Thread oversubscription: slots for the extra blocks and their warps
     * (each at most max_warps warps). */
    uint32_t nslots = g->lim.max_blocks;
    g->to = oversub_create(g, cfg, st, &nslots);
    g->max_warps = g->lim.max_warps * (1 + (nslots - g->lim.max_blocks));
    g->nsched = (uint32_t)cfg_u64(cfg, "gpu.sm.schedulers");
    if (g->nsched > g->max_warps)
        user_error("gpu.sm.schedulers (%u) exceeds gpu.sm.max_warps (%u)", g->nsched, g->max_warps);
    g->issue_width = (uint32_t)cfg_u64(cfg, "gpu.sm.issue_width");
    g->bwords = ((g->max_warps + g->nsched - 1) / g->nsched + 63) / 64;
    g->sched = sched_policy(cfg_choice(cfg, "gpu.sm.scheduler"));
    g->max_outstanding = (uint32_t)cfg_u64(cfg, "gpu.sm.max_outstanding_mem");
    g->lsu_width = (uint32_t)cfg_u64(cfg, "gpu.sm.lsu_width");
    g->l1_ports = (uint32_t)cfg_u64(cfg, "gpu.l1d.ports");
    g->l1_bypass_all = cfg_bool(cfg, "gpu.l1d.bypass");
    g->l1_remote = cfg_bool(cfg, "gpu.l1d.remote_cache");
    g->xbar_bw = (uint32_t)cfg_u64(cfg, "gpu.xbar.port_bw");
    g->xbar_latency = cfg_u64(cfg, "gpu.xbar.latency") * dom->period;
    g->launch_latency = cfg_u64(cfg, "gpu.kernel_launch_latency");
    uint64_t l1_size = cfg_u64(cfg, "gpu.l1d.size");
    uint32_t l1_ways = (uint32_t)cfg_u64(cfg, "gpu.l1d.assoc");
    uint32_t l1_mshrs = (uint32_t)cfg_u64(cfg, "gpu.l1d.mshrs");
    g->l1_enabled = l1_size > 0;
    register_stats(g, st);
    selcache_init(g, cfg, st);

    /* Everything an SM can have in flight: every warp's slots full of
     * 32-line instructions, plus one fill per MSHR sector. */
    uint32_t lines = g->max_warps * g->max_outstanding * WARP_SIZE;
    uint32_t inflight = lines + l1_mshrs * 4;
    g->sm = xcalloc(g->nsms, sizeof *g->sm);
    for (unsigned i = 0; i < g->nsms; i++) {
        struct sm *s = &g->sm[i];
        snprintf(s->name, sizeof s->name, "sm.%u", i);
        s->gpu = g;
        s->id = i;
        s->w = xcalloc(g->max_warps, sizeof *s->w);
        for (uint32_t j = 0; j < g->max_warps; j++)
            s->w[j].mi = xcalloc(g->max_outstanding, sizeof *s->w[j].mi);
        s->b = xcalloc(nslots, sizeof *s->b);
        s->sch = xcalloc(g->nsched, sizeof *s->sch);
        for (uint32_t k = 0; k < g->nsched; k++) s->sch[k] = (struct scheduler){ k, k, 0 };
        for (uint32_t j = 0; j < g->max_warps; j++)
            s->w[j].sched = j % g->nsched, s->w[j].sbit = j / g->nsched;
        s->nstate[W_FREE] = g->max_warps;
        s->rdy = xcalloc((size_t)g->nsched * g->bwords, sizeof *s->rdy);
        s->pip = xcalloc((size_t)g->nsched * g->bwords, sizeof *s->pip);
        s->pipe_min = xmalloc(g->nsched * sizeof *s->pipe_min);
        uint32_t nodes = g->max_warps * g->max_outstanding * COAL_MAX;
        s->pbits = 6;
        while ((1u << s->pbits) < nodes) s->pbits++;
        s->pnext = xmalloc(nodes * sizeof *s->pnext);
        s->pprev = xmalloc(nodes * sizeof *s->pprev);
        s->phead = xmalloc((1u << s->pbits) * sizeof *s->phead);
        for (uint32_t b = 0; b < 1u << s->pbits; b++) s->phead[b] = PNIL;
        for (uint32_t k = 0; k < g->nsched; k++) s->pipe_min[k] = TIME_NEVER;
        ring_init(&s->xq, lines);
        ring_init(&s->oq, inflight);
        if (g->l1_enabled && !cache_init(&s->l1, l1_size, l1_ways, l1_mshrs))
            user_error("gpu.l1d.size (%llu B) holds no set of gpu.l1d.assoc (%u) 128 B lines",
                       (unsigned long long)l1_size, l1_ways);
        comp_init(&s->comp, e, &sm_ops, s->name, dom);
        mq_init(&s->xlate_resp, s->name, lines, 0, &s->comp);
        mq_init(&s->mem_resp, s->name, inflight, g->xbar_latency, &s->comp);
        mq_init(&s->l1q, s->name, lines,
                cfg_u64(cfg, "gpu.l1d.latency") * dom->period, &s->comp);
        if (g->to) oversub_init_sm(g, s);
    }
    return g;
}

void gpu_free(struct gpu *g)
{
    if (!g) return;
    for (unsigned i = 0; i < g->nsms; i++) {
        struct sm *s = &g->sm[i];
        for (uint32_t j = 0; j < g->max_warps; j++) free(s->w[j].mi);
        free(s->w);
        free(s->b);
        free(s->sch);
        free(s->rdy);
        free(s->pip);
        free(s->pipe_min);
        free(s->pnext);
        free(s->pprev);
        free(s->phead);
        fast_sm_free(g, s);
        ring_free(&s->xq);
        ring_free(&s->oq);
        if (g->l1_enabled) cache_free(&s->l1);
        mq_free(&s->xlate_resp);
        mq_free(&s->mem_resp);
        mq_free(&s->l1q);
    }
    oversub_free(g);
    rofault_free(g);
    free(g->sm);
    free(g);
}

unsigned gpu_num_sms(const struct gpu *g) { return g->nsms; }

void gpu_set_ports(struct gpu *g, unsigned sm, struct mq *xlate_out, struct mem_port mem_out)
{
    g->sm[sm].xlate_out = xlate_out;
    g->sm[sm].mem_out = mem_out;
}

void gpu_set_xlate_now(struct gpu *g, bool (*fn)(void *ctx, unsigned sm, struct mem_req *r,
                                                 sim_time now), void *ctx)
{
    g->xlate_now = fn;
    g->xlate_ctx = ctx;
}

bool gpu_busy(const struct gpu *g) { return !g->program_done; }
uint64_t gpu_kernels_done(const struct gpu *g) { return g->kernels_done; }

void gpu_block_issue(struct gpu *g, unsigned sm, sim_time until)
{
    struct sm *s = &g->sm[sm];
    if (until > s->blocked_until) s->blocked_until = until;
    comp_wake_at(&s->comp, until);
}

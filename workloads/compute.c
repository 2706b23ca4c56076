/* Compute-only kernel, for checking the SM's issue model against hand
 * arithmetic: every warp issues `insts` compute instructions (each holding
 * its scheduler `issue_cycles` cycles and ready again after `latency`
 * cycles), then exits.  Optionally the first `load_warps` warps of every
 * block first load 128 contiguous bytes (32 lanes x 4 B) at `load_stride` x
 * their warp index: with the default 4 KiB stride each has a page of its
 * own, so that a far fault on it stalls only that warp while the others
 * compute; smaller strides make the warps share lines (MSHR merges).
 * `block_stride` moves each block's loads that many bytes past the
 * previous block's (0: every block loads the same lines). */
#include <stdlib.h>
#include <string.h>
#include "workload.h"
#include "catalog.h"
#include "config/config.h"

struct compute {
    uint32_t grid, block, regs, smem, issue, latency, load_warps;
    uint64_t barrier_every;
    bool bypass;
    uint64_t insts, kernels, launched, base, stride, block_stride;
};

const struct cfg_key compute_config_keys[] = {
    {"workload.compute.grid", CFG_INT, "15", 1, 2147483647, NULL, "blocks per launch"},
    {"workload.compute.block", CFG_INT, "256", 1, 1024, NULL, "threads per block"},
    {"workload.compute.insts", CFG_INT, "1000", 0, 1e12, NULL, "compute instructions per warp"},
    {"workload.compute.issue_cycles", CFG_INT, "1", 1, 1024, NULL,
     "cycles each instruction holds its warp scheduler"},
    {"workload.compute.latency", CFG_INT, "1", 1, 100000, NULL,
     "cycles from an instruction's issue until its warp may issue again"},
    {"workload.compute.regs", CFG_INT, "16", 0, 255, NULL, "registers per thread"},
    {"workload.compute.smem", CFG_SIZE, "0B", 0, 1048576, NULL, "shared memory per block"},
    {"workload.compute.kernels", CFG_INT, "1", 1, 1e6, NULL, "launches of the kernel"},
    {"workload.compute.load_warps", CFG_INT, "0", 0, 1024, NULL,
     "warps of each block that first load 128 B (32 lanes x 4 B)"},
    {"workload.compute.barrier_every", CFG_INT, "0", 0, 1e12, NULL,
     "a block-wide barrier after every this many compute instructions (0: none)"},
    {"workload.compute.load_bypass", CFG_BOOL, "false", 0, -1, NULL,
     "the opening loads bypass the L1D (ld.global.cg)"},
    {"workload.compute.load_stride", CFG_SIZE, "4KiB", 0, 1073741824, NULL,
     "bytes between the loads of consecutive load warps"},
    {"workload.compute.block_stride", CFG_SIZE, "0B", 0, 1073741824, NULL,
     "bytes between the loads of consecutive blocks (0: every block loads the same lines)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void *compute_create(struct workload *wl, const struct config *cfg)
{
    struct compute *c = xcalloc(1, sizeof *c);
    c->grid = (uint32_t)cfg_u64(cfg, "workload.compute.grid");
    c->block = (uint32_t)cfg_u64(cfg, "workload.compute.block");
    c->insts = cfg_u64(cfg, "workload.compute.insts");
    c->issue = (uint32_t)cfg_u64(cfg, "workload.compute.issue_cycles");
    c->latency = (uint32_t)cfg_u64(cfg, "workload.compute.latency");
    c->regs = (uint32_t)cfg_u64(cfg, "workload.compute.regs");
    c->smem = (uint32_t)cfg_u64(cfg, "workload.compute.smem");
    c->kernels = cfg_u64(cfg, "workload.compute.kernels");
    c->load_warps = (uint32_t)cfg_u64(cfg, "workload.compute.load_warps");
    uint32_t nw = (c->block + WARP_SIZE - 1) / WARP_SIZE;
    if (c->load_warps > nw)
        user_error("workload.compute.load_warps (%u) exceeds the warps of a block (%u)",
                   c->load_warps, nw);
    c->stride = cfg_u64(cfg, "workload.compute.load_stride");
    c->barrier_every = cfg_u64(cfg, "workload.compute.barrier_every");
    c->bypass = cfg_bool(cfg, "workload.compute.load_bypass");
    c->block_stride = cfg_u64(cfg, "workload.compute.block_stride");
    uint64_t bytes = (uint64_t)c->load_warps * c->stride + 128 +
                     (c->load_warps ? (uint64_t)(c->grid - 1) * c->block_stride : 0);
    c->base = wl_add_alloc(wl, "loads", (bytes + 4095) / 4096 * 4096);
    return c;
}

static bool compute_next_step(void *impl, struct wl_step *st)
{
    struct compute *c = impl;
    if (c->launched == c->kernels) return false;
    memset(st, 0, sizeof *st);
    st->kind = WL_STEP_KERNEL;
    struct wl_kernel *k = &st->kernel;
    strcpy(k->name, "compute");
    k->grid = (struct dim3){ c->grid, 1, 1 };
    k->block = (struct dim3){ c->block, 1, 1 };
    k->regs_per_thread = c->regs;
    k->smem_per_block = c->smem;
    k->arg = c->launched++;
    return true;
}

/* s[0]: compute instructions issued; s[1]: 1 while the opening load is
 * due; s[2]: 1 once the barrier after the current group is issued. */
static void compute_warp_start(void *impl, struct warp_ctx *w)
{
    struct compute *c = impl;
    w->s[0] = 0;
    w->s[1] = w->warp < c->load_warps;
    w->s[2] = 0;
}

static void compute_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *in)
{
    struct compute *c = impl;
    in->active = w->threads >= WARP_SIZE ? 0xffffffffu : (1u << w->threads) - 1;
    if (w->s[1]) {
        w->s[1] = 0;
        in->op = INST_LOAD;
        in->size = 4;
        in->flags = c->bypass ? INST_F_BYPASS_L1 : 0;
        for (uint32_t l = 0; l < WARP_SIZE; l++)
            in->addr[l] = c->base + w->block * c->block_stride + w->warp * c->stride + 4 * l;
        return;
    }
    /* Barriers sit between groups of barrier_every instructions, not
     * after the last one. */
    if (c->barrier_every && w->s[0] && w->s[0] < c->insts &&
        w->s[0] % c->barrier_every == 0 && !w->s[2]) {
        w->s[2] = 1;
        in->op = INST_BARRIER;
        return;
    }
    w->s[2] = 0;
    if (w->s[0]++ < c->insts) {
        in->op = INST_COMPUTE;
        in->issue_cycles = c->issue;
        in->cycles = c->latency;
        return;
    }
    in->op = INST_EXIT;
}

static void compute_destroy(void *impl) { free(impl); }

static const struct workload_ops compute_workload_ops = {
    .name = "compute",
    .create = compute_create,
    .next_step = compute_next_step,
    .warp_start = compute_warp_start,
    .next_inst = compute_next_inst,
    .destroy = compute_destroy,
};

const struct wl_info compute_info = {
    &compute_workload_ops, compute_config_keys,
    "Compute-only micro-kernel for timing the SM model (issue cycles, latency, "
    "barriers, optional opening load); no paper kernel.",
    "`load_warps` x `stride` + 128 B (+ (grid - 1) x `block_stride` with loads), rounded up to 4 KiB",
};

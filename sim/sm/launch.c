/* Kernel launch, occupancy and thread-block dispatch. */
#include <string.h>
#include "sm_internal.h"
#include "core/stats.h"
#include "trace/trace.h"

const char *occ_limit_name(enum occ_limit l)
{
    static const char *const n[] = {"blocks", "warps", "threads", "registers", "shared memory"};
    return n[l];
}

static uint32_t round_up(uint32_t x, uint32_t unit)
{ return unit > 1 ? (x + unit - 1) / unit * unit : x; }

/* The CUDA occupancy calculator's rules (CUDA Occupancy Calculator,
 * "warp" register allocation granularity): a block takes ceil(threads/32)
 * warps; registers are allocated per warp in units of reg_unit (Fermi: 64,
 * Kepler and later: 256); shared memory per block in units of smem_unit
 * (Fermi: 128 B).  The resident blocks are the minimum over the limits. */
uint32_t gpu_occupancy(const struct occ_limits *l, uint32_t threads,
                       uint32_t regs, uint32_t smem, enum occ_limit *why)
{
    uint32_t wpb = (threads + WARP_SIZE - 1) / WARP_SIZE;
    uint32_t n[5] = { l->max_blocks, l->max_warps / wpb, l->max_threads / threads,
                      UINT32_MAX, UINT32_MAX };
    if (regs) {
        uint32_t per_warp = round_up(regs * WARP_SIZE, l->reg_unit);
        n[OCC_REGS] = (l->regs / per_warp) / wpb;
    }
    if (smem) n[OCC_SMEM] = l->smem / round_up(smem, l->smem_unit);
    enum occ_limit best = OCC_BLOCKS;
    for (int i = 1; i < 5; i++)
        if (n[i] < n[best]) best = (enum occ_limit)i;
    if (why) *why = best;
    return n[best];
}

static uint32_t block_threads(const struct gpu *g)
{ return g->k.block.x * g->k.block.y * g->k.block.z; }

static void place_block(struct gpu *g, struct sm *s, sim_time now)
{
    uint32_t threads = block_threads(g);
    uint32_t nw = (threads + WARP_SIZE - 1) / WARP_SIZE;
    uint32_t slot = 0;
    while (s->b[slot].used) slot++;
    uint32_t regs = nw * round_up(g->k.regs_per_thread * WARP_SIZE, g->lim.reg_unit);
    uint32_t smem = round_up(g->k.smem_per_block, g->lim.smem_unit);
    /* Thread oversubscription: blocks beyond the occupancy come inactive. */
    bool active = !g->to || s->active_blocks < g->k_blocks_per_sm;
    struct block_slot *b = &s->b[slot];
    uint32_t gen = b->gen;
    *b = (struct block_slot){ .used = true, .active = active, .nwarps = nw, .live = nw,
                              .threads = threads, .regs = regs, .smem = smem };
    b->gen = gen;
    s->res_blocks++;
    if (active) s->active_blocks++;
    s->res_warps += nw;
    s->res_threads += threads;
    s->res_regs += regs;
    s->res_smem += smem;
    uint64_t block = g->next_block++;
    for (uint32_t i = 0, wi = 0; i < nw; wi++) {
        SIM_ASSERT(wi < g->max_warps, s->name, now, "no free warp slot for a placed block");
        struct warp *w = &s->w[wi];
        if (w->st != W_FREE) continue;
        w->outstanding = w->nfault = 0;
        w->parked = !active;            /* before warp_set: not listed if parked */
        warp_set(s, w, W_READY);
        w->block = slot;
        w->age = g->warp_age++;
        w->held = false;
        w->nmem = 0;
        w->ctx = (struct warp_ctx){ .k = &g->k, .block = block, .warp = i };
        uint32_t left = threads - i * WARP_SIZE;
        w->ctx.threads = left < WARP_SIZE ? left : WARP_SIZE;
        wl_warp_start(g->wl, &w->ctx);
        i++;
    }
    if (g->to) oversub_placed(s, b, slot);
    sm_issue_wake(s);
    comp_wake(&s->comp, now);
}

/* Round-robin over SMs with room for one more block (GPGPU-Sim's block
 * issue: next SM in turn that can take the kernel's next block). */
void launch_dispatch(struct gpu *g, sim_time now)
{
    unsigned tried = 0;
    uint32_t limit = oversub_limit(g);
    while (g->next_block < g->nblocks && tried < g->nsms) {
        struct sm *s = &g->sm[g->next_sm];
        g->next_sm = (g->next_sm + 1) % g->nsms;
        if (s->res_blocks < limit && !s->throttled) { place_block(g, s, now); tried = 0; }
        else tried++;
    }
}

static void launch_after(struct gpu *g, sim_time now);

static void kernel_end(struct gpu *g, sim_time now)
{
    uint64_t seq = g->k.seq, start = g->k_start, end = now, blocks = g->nblocks,
             gx = g->k.grid.x, gy = g->k.grid.y, gz = g->k.grid.z,
             bx = g->k.block.x, by = g->k.block.y, bz = g->k.block.z,
             regs = g->k.regs_per_thread, smem = g->k.smem_per_block,
             bps = g->k_blocks_per_sm;
    uint32_t wpb = (block_threads(g) + WARP_SIZE - 1) / WARP_SIZE;
    double occ = (double)(bps * wpb) / (double)g->lim.max_warps;
    const void *row[] = { &seq, g->k.name, &start, &end, &gx, &gy, &gz,
                          &bx, &by, &bz, &regs, &smem, &blocks, &g->k_insts,
                          &bps, &occ, occ_limit_name(g->k_limit) };
    rec_append(g->kernels, row);
    if (TRACE_ON(TW_KERNELS)) trace_kernel(g->k.name, false, now);
    g->kernel_active = false;
    g->kernels_done++;
    *g->n_kernels += 1;
    launch_after(g, now);
}

/* Kernels of the (single) stream run in order: the next kernel is taken
 * from the workload when the previous one has retired its last block (or
 * at the start), and starts gpu.kernel_launch_latency later.  Host steps
 * before it (prefetch, memcpy, advise) are handed to the driver in order
 * and the walk through the program resumes when each completes.  The
 * program ends with its last step. */
static void launch_after(struct gpu *g, sim_time now)
{
    struct wl_step st;
    sim_time delay = 0;
    for (;;) {
        bool more = g->step_fn ? g->step_fn(g->step_ctx, &st, now, &delay)
                               : wl_next_step(g->wl, &st);
        if (!more) { g->program_done = true; return; }
        if (st.kind == WL_STEP_KERNEL) break;
        if (g->host_fn) {               /* the driver runs it, then calls back */
            g->host_step = st;
            g->host_fn(g->host_ctx, &g->host_step, now);
            return;
        }
    }
    g->k = st.kernel;
    engine_at(g->eng, now + delay + g->launch_latency, g->dom, launch_next, g, 0);
}

void launch_next(void *obj, uint64_t arg, sim_time now)
{
    struct gpu *g = obj;
    (void)arg;
    uint32_t threads = block_threads(g);
    if (!threads)
        user_error("kernel '%s': a block of zero threads", g->k.name);
    g->k_blocks_per_sm = gpu_occupancy(&g->lim, threads, g->k.regs_per_thread,
                                       g->k.smem_per_block, &g->k_limit);
    if (!g->k_blocks_per_sm)
        user_error("kernel '%s': a block of %u threads, %u registers/thread, %u B "
                   "shared memory does not fit on an SM (limit: %s; gpu.sm.max_threads, "
                   "gpu.sm.max_warps, gpu.sm.registers, gpu.sm.shared_memory)",
                   g->k.name, threads, g->k.regs_per_thread, g->k.smem_per_block,
                   occ_limit_name(g->k_limit));
    g->kernel_active = true;
    g->nblocks = (uint64_t)g->k.grid.x * g->k.grid.y * g->k.grid.z;
    g->next_block = g->blocks_done = g->k_insts = 0;
    g->k_start = now;
    if (TRACE_ON(TW_KERNELS)) trace_kernel(g->k.name, true, now);
    if (!g->nblocks) { kernel_end(g, now); return; }
    launch_dispatch(g, now);
}

void gpu_start(struct gpu *g, sim_time now) { launch_after(g, now); }

void gpu_set_host_step_hook(struct gpu *g, gpu_host_step_fn fn, void *ctx)
{
    g->host_fn = fn;
    g->host_ctx = ctx;
}

void gpu_host_step_done(struct gpu *g, sim_time now) { launch_after(g, now); }

void gpu_set_step_source(struct gpu *g, gpu_step_fn fn, void *ctx)
{
    g->step_fn = fn;
    g->step_ctx = ctx;
}

void gpu_set_ref_hook(struct gpu *g, gpu_ref_fn fn, void *ctx)
{
    g->ref_fn = fn;
    g->ref_ctx = ctx;
}

void retire_block(struct sm *s, struct block_slot *b, sim_time now)
{
    struct gpu *g = s->gpu;
    uint32_t slot = (uint32_t)(b - s->b);
    for (uint32_t i = 0; i < g->max_warps; i++)
        if (s->w[i].st == W_DONE && s->w[i].block == slot) warp_set(s, &s->w[i], W_FREE);
    s->res_blocks--;
    if (b->active) s->active_blocks--;
    s->res_warps -= b->nwarps;
    s->res_threads -= b->threads;
    s->res_regs -= b->regs;
    s->res_smem -= b->smem;
    b->used = false;
    /* A ready inactive block takes the free active slot before a new
     * block is placed (oversub.c). */
    if (g->to) oversub_retired(s, b, now);
    if (++g->blocks_done == g->nblocks) kernel_end(g, now);
    else launch_dispatch(g, now);
    if (g->throttling && !s->throttled && !s->res_blocks && g->kernel_active)
        throttle_handoff(g, s, now);
}

/* Vector add: C[i] = A[i] + B[i].  Source: CUDA samples vectorAdd.cu,
 * vectorAdd kernel (i = blockIdx.x*blockDim.x + threadIdx.x; if i < n);
 * the thrashing paper (Park et al., WIP) runs it as AddVector, the workload
 * that touches every page once.  Defaults: n = 2^26 floats (768 MiB in
 * all), 256-thread blocks. */
#include "gen.h"

struct vecadd {
    struct wl_simple g;
    uint64_t n, a, b, c;
};

const struct cfg_key vecadd_config_keys[] = {
    {"workload.vecadd.n", CFG_INT, "67108864", 1, 1e12, NULL, "elements per vector (float)"},
    {"workload.vecadd.block", CFG_INT, "256", 32, 1024, NULL, "threads per block"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t vecadd_npos(const void *impl, const struct warp_ctx *w)
{ (void)impl; (void)w; return 3; }

static bool vecadd_lane(const void *impl, const struct warp_ctx *w,
                        const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct vecadd *m = impl;
    uint64_t i = (uint64_t)t->bx * w->k->block.x + t->tx;
    if (i >= m->n) return false;
    static const enum inst_op ops[3] = { INST_LOAD, INST_LOAD, INST_STORE };
    op->op = ops[pos];
    op->size = 4;
    op->compute = pos == 2 ? 1 : 0;
    op->addr = (pos == 0 ? m->a : pos == 1 ? m->b : m->c) + i * 4;
    return true;
}

static void *vecadd_create(struct workload *wl, const struct config *cfg)
{
    struct vecadd *m = xcalloc(1, sizeof *m);
    m->n = cfg_u64(cfg, "workload.vecadd.n");
    uint32_t blk = (uint32_t)cfg_u64(cfg, "workload.vecadd.block");
    m->a = wl_add_alloc(wl, "A", m->n * 4);
    m->b = wl_add_alloc(wl, "B", m->n * 4);
    m->c = wl_add_alloc(wl, "C", m->n * 4);
    m->g.npos = vecadd_npos;
    m->g.lane = vecadd_lane;
    wl_prog_kernel(&m->g.prog, "vectorAdd", 0, (struct dim3){ wl_div_up(m->n, blk), 1, 1 },
                   (struct dim3){ blk, 1, 1 }, 8, 0);
    return m;
}

static const struct workload_ops vecadd_ops = {
    "vecadd", vecadd_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info vecadd_info = {
    &vecadd_ops, vecadd_config_keys,
    "CUDA samples vectorAdd.cu, vectorAdd (one launch); thrashing paper (Park et al.) AddVector.",
    "3 x 4*n bytes (A, B, C), all touched once",
};

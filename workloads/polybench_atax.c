/* Polybench ATAX: y = A^T (A x).  Source: PolyBench/GPU 1.0 atax.cu,
 * atax_kernel1 and atax_kernel2; HPE (Yu et al. 2020) Sec. III (same
 * pattern as MVT).  Defaults: NX = NY = 4096 (suite standard), float,
 * 256-thread blocks.
 *
 * kernel1, thread i < NX: for j < NY: tmp[i] += A[i*NY+j] * x[j];
 * kernel2, thread j < NY: for i < NX: y[j] += A[i*NY+j] * tmp[i];
 * Accumulator loaded once, then per iteration load, load, store. */
#include "gen.h"

struct atax {
    struct wl_simple g;
    uint64_t nx, ny, a, x, y, tmp;
};

const struct cfg_key atax_config_keys[] = {
    {"workload.atax.nx", CFG_INT, "4096", 1, 1e6, NULL, "rows of A"},
    {"workload.atax.ny", CFG_INT, "4096", 1, 1e6, NULL, "columns of A"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t atax_npos(const void *impl, const struct warp_ctx *w)
{
    const struct atax *m = impl;
    return 1 + 3 * (w->k->id == 0 ? m->ny : m->nx);
}

static bool atax_lane(const void *impl, const struct warp_ctx *w,
                      const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct atax *m = impl;
    bool first = w->k->id == 0;
    uint64_t me = (uint64_t)t->bx * 256 + t->tx;
    if (me >= (first ? m->nx : m->ny)) return false;
    uint64_t acc = first ? m->tmp : m->y, vec = first ? m->x : m->tmp;
    op->size = 4;
    op->compute = 0;
    if (pos == 0) { op->op = INST_LOAD; op->addr = acc + me * 4; return true; }
    uint64_t it = (pos - 1) / 3, r = (pos - 1) % 3;
    if (r == 0) { op->op = INST_LOAD;
                  op->addr = m->a + (first ? me * m->ny + it : it * m->ny + me) * 4; }
    else if (r == 1) { op->op = INST_LOAD; op->addr = vec + it * 4; }
    else { op->op = INST_STORE; op->addr = acc + me * 4; op->compute = 2; }
    return true;
}

static void *atax_create(struct workload *wl, const struct config *cfg)
{
    struct atax *m = xcalloc(1, sizeof *m);
    m->nx = cfg_u64(cfg, "workload.atax.nx");
    m->ny = cfg_u64(cfg, "workload.atax.ny");
    m->a = wl_add_alloc(wl, "A", m->nx * m->ny * 4);
    m->x = wl_add_alloc(wl, "x", m->ny * 4);
    m->y = wl_add_alloc(wl, "y", m->ny * 4);
    m->tmp = wl_add_alloc(wl, "tmp", m->nx * 4);
    m->g.npos = atax_npos;
    m->g.lane = atax_lane;
    struct dim3 blk = { 256, 1, 1 };
    wl_prog_kernel(&m->g.prog, "atax_kernel1", 0, (struct dim3){ wl_div_up(m->nx, 256), 1, 1 },
                   blk, 12, 0);
    wl_prog_kernel(&m->g.prog, "atax_kernel2", 1, (struct dim3){ wl_div_up(m->ny, 256), 1, 1 },
                   blk, 12, 0);
    return m;
}

static const struct workload_ops atax_ops = {
    "atax", atax_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info atax_info = {
    &atax_ops, atax_config_keys,
    "PolyBench/GPU 1.0 atax.cu, atax_kernel1 then atax_kernel2; HPE Sec. III (as MVT).",
    "4 x (nx*ny + 2*ny + nx) bytes (A, x, y, tmp), all touched",
};

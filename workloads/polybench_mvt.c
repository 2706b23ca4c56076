/* Polybench MVT: x1 += A*y1, x2 += A^T*y2.  Source: PolyBench/GPU 1.0
 * mvt.cu, mvt_kernel1 and mvt_kernel2; HPE (Yu et al. 2020) Table II type IV
 * (MVT; Sec. V: "touches pages with an address stride of 4" -- kernel2
 * walks a column).  Defaults: N = 4096 (suite standard), float, 256-thread
 * blocks.
 *
 * kernel1, thread i < N: for j < N: x1[i] += a[i*N+j] * y1[j];
 * kernel2, thread i < N: for j < N: x2[i] += a[j*N+i] * y2[j];
 * The accumulator is loaded once, then per j: load a, load y, store x (the
 * store each iteration because a and y may alias x; the value forwarded). */
#include "gen.h"

struct mvt {
    struct wl_simple g;
    uint64_t n, a, x1, x2, y1, y2;
};

const struct cfg_key mvt_config_keys[] = {
    {"workload.mvt.n", CFG_INT, "4096", 1, 1e6, NULL, "matrix order"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t mvt_npos(const void *impl, const struct warp_ctx *w)
{ (void)w; return 1 + 3 * ((const struct mvt *)impl)->n; }

static bool mvt_lane(const void *impl, const struct warp_ctx *w,
                     const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct mvt *m = impl;
    bool first = w->k->id == 0;
    uint64_t i = (uint64_t)t->bx * 256 + t->tx;
    if (i >= m->n) return false;
    uint64_t x = first ? m->x1 : m->x2, y = first ? m->y1 : m->y2;
    op->size = 4;
    op->compute = 0;
    if (pos == 0) { op->op = INST_LOAD; op->addr = x + i * 4; return true; }
    uint64_t j = (pos - 1) / 3, r = (pos - 1) % 3;
    if (r == 0) { op->op = INST_LOAD;
                  op->addr = m->a + (first ? i * m->n + j : j * m->n + i) * 4; }
    else if (r == 1) { op->op = INST_LOAD; op->addr = y + j * 4; }
    else { op->op = INST_STORE; op->addr = x + i * 4; op->compute = 2; }
    return true;
}

static void *mvt_create(struct workload *wl, const struct config *cfg)
{
    struct mvt *m = xcalloc(1, sizeof *m);
    m->n = cfg_u64(cfg, "workload.mvt.n");
    m->a = wl_add_alloc(wl, "a", m->n * m->n * 4);
    m->x1 = wl_add_alloc(wl, "x1", m->n * 4);
    m->x2 = wl_add_alloc(wl, "x2", m->n * 4);
    m->y1 = wl_add_alloc(wl, "y_1", m->n * 4);
    m->y2 = wl_add_alloc(wl, "y_2", m->n * 4);
    m->g.npos = mvt_npos;
    m->g.lane = mvt_lane;
    struct dim3 grid = { wl_div_up(m->n, 256), 1, 1 }, blk = { 256, 1, 1 };
    wl_prog_kernel(&m->g.prog, "mvt_kernel1", 0, grid, blk, 12, 0);
    wl_prog_kernel(&m->g.prog, "mvt_kernel2", 1, grid, blk, 12, 0);
    return m;
}

static const struct workload_ops mvt_ops = {
    "mvt", mvt_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info mvt_info = {
    &mvt_ops, mvt_config_keys,
    "PolyBench/GPU 1.0 mvt.cu, mvt_kernel1 then mvt_kernel2; HPE Table II type IV (MVT).",
    "4 x (n*n + 4*n) bytes (a, x1, x2, y_1, y_2), all touched",
};

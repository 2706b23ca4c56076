/* Polybench GESUMMV: y = alpha*A*x + beta*B*x.  Source: PolyBench/GPU 1.0
 * gesummv.cu, gesummv_kernel; HPE (Yu et al. 2020) Sec. III (same pattern
 * as MVT).  Defaults: N = 4096 (suite standard), float, 256-thread blocks.
 *
 * Thread i < N:
 *   for j < N: { tmp[i] += a[i*N+j] * x[j]; y[i] += b[i*N+j] * x[j]; }
 *   y[i] = ALPHA * tmp[i] + BETA * y[i];
 * Each statement stores its accumulator, and the store of one may alias the
 * other accumulator and x, so every load is redone: per j load tmp, a, x,
 * store tmp, load y, b, x, store y; then load tmp, store y (y forwarded). */
#include "gen.h"

struct gesummv {
    struct wl_simple g;
    uint64_t n, a, b, x, y, tmp;
};

const struct cfg_key gesummv_config_keys[] = {
    {"workload.gesummv.n", CFG_INT, "4096", 1, 1e6, NULL, "matrix order"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t gesummv_npos(const void *impl, const struct warp_ctx *w)
{ (void)w; return 8 * ((const struct gesummv *)impl)->n + 2; }

static bool gesummv_lane(const void *impl, const struct warp_ctx *w,
                         const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct gesummv *m = impl;
    (void)w;
    uint64_t i = (uint64_t)t->bx * 256 + t->tx;
    if (i >= m->n) return false;
    op->size = 4;
    op->compute = 0;
    if (pos >= 8 * m->n) {
        op->op = pos == 8 * m->n ? INST_LOAD : INST_STORE;
        op->addr = pos == 8 * m->n ? m->tmp + i * 4 : m->y + i * 4;
        op->compute = pos == 8 * m->n ? 0 : 3;
        return true;
    }
    uint64_t j = pos / 8;
    switch (pos % 8) {
    case 0: op->op = INST_LOAD; op->addr = m->tmp + i * 4; break;
    case 1: op->op = INST_LOAD; op->addr = m->a + (i * m->n + j) * 4; break;
    case 2: op->op = INST_LOAD; op->addr = m->x + j * 4; break;
    case 3: op->op = INST_STORE; op->addr = m->tmp + i * 4; op->compute = 2; break;
    case 4: op->op = INST_LOAD; op->addr = m->y + i * 4; break;
    case 5: op->op = INST_LOAD; op->addr = m->b + (i * m->n + j) * 4; break;
    case 6: op->op = INST_LOAD; op->addr = m->x + j * 4; break;
    default: op->op = INST_STORE; op->addr = m->y + i * 4; op->compute = 2; break;
    }
    return true;
}

static void *gesummv_create(struct workload *wl, const struct config *cfg)
{
    struct gesummv *m = xcalloc(1, sizeof *m);
    m->n = cfg_u64(cfg, "workload.gesummv.n");
    m->a = wl_add_alloc(wl, "a", m->n * m->n * 4);
    m->b = wl_add_alloc(wl, "b", m->n * m->n * 4);
    m->x = wl_add_alloc(wl, "x", m->n * 4);
    m->y = wl_add_alloc(wl, "y", m->n * 4);
    m->tmp = wl_add_alloc(wl, "tmp", m->n * 4);
    m->g.npos = gesummv_npos;
    m->g.lane = gesummv_lane;
    wl_prog_kernel(&m->g.prog, "gesummv_kernel", 0,
                   (struct dim3){ wl_div_up(m->n, 256), 1, 1 }, (struct dim3){ 256, 1, 1 },
                   14, 0);
    return m;
}

static const struct workload_ops gesummv_ops = {
    "gesummv", gesummv_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info gesummv_info = {
    &gesummv_ops, gesummv_config_keys,
    "PolyBench/GPU 1.0 gesummv.cu, gesummv_kernel (one launch); HPE Sec. III (as MVT).",
    "4 x (2*n*n + 3*n) bytes (a, b, x, y, tmp), all touched",
};

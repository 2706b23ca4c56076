/* Polybench 2MM: C = A*B, then E = C*D (PolyBench/GPU 2mm.cu, mm2_kernel1
 * and mm2_kernel2, one launch each); HPE (Yu et al. 2020) Sec. III lists it
 * (elided there for simulation time).  Defaults: NI = NJ = NK = NL = 2048
 * (suite standard), float, 32x8 blocks.
 *
 * kernel1, thread (i, j) with i < NI, j < NJ:
 *   C[i*NJ+j] = 0; for k < NK: C[i*NJ+j] += A[i*NK+k] * B[k*NJ+j];
 * kernel2, thread (i, j) with i < NI, j < NL:
 *   E[i*NL+j] = 0; for k < NJ: E[i*NL+j] += C[i*NJ+k] * D[k*NL+j];
 * As in GEMM, the accumulator is stored every iteration (no restrict) and
 * forwarded, not reloaded: store, then per k: load, load, store. */
#include "gen.h"

struct mm2 {
    struct wl_simple g;
    uint64_t ni, nj, nk, nl, a, b, c, d, e;
};

const struct cfg_key mm2_config_keys[] = {
    {"workload.2mm.ni", CFG_INT, "2048", 1, 1e6, NULL, "rows of A, C, E"},
    {"workload.2mm.nj", CFG_INT, "2048", 1, 1e6, NULL, "columns of B and C, rows of D"},
    {"workload.2mm.nk", CFG_INT, "2048", 1, 1e6, NULL, "columns of A, rows of B"},
    {"workload.2mm.nl", CFG_INT, "2048", 1, 1e6, NULL, "columns of D and E"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t mm2_npos(const void *impl, const struct warp_ctx *w)
{
    const struct mm2 *m = impl;
    return 1 + 3 * (w->k->id == 0 ? m->nk : m->nj);
}

static bool mm2_lane(const void *impl, const struct warp_ctx *w,
                     const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct mm2 *m = impl;
    bool first = w->k->id == 0;
    uint64_t j = (uint64_t)t->bx * 32 + t->tx, i = (uint64_t)t->by * 8 + t->ty;
    uint64_t cols = first ? m->nj : m->nl, inner = first ? m->nk : m->nj;
    uint64_t x = first ? m->a : m->c, y = first ? m->b : m->d, acc = first ? m->c : m->e;
    if (i >= m->ni || j >= cols) return false;
    op->size = 4;
    op->compute = 0;
    if (pos == 0) { op->op = INST_STORE; op->addr = acc + (i * cols + j) * 4; return true; }
    uint64_t k = (pos - 1) / 3, r = (pos - 1) % 3;
    if (r == 0) { op->op = INST_LOAD; op->addr = x + (i * inner + k) * 4; }
    else if (r == 1) { op->op = INST_LOAD; op->addr = y + (k * cols + j) * 4; }
    else { op->op = INST_STORE; op->addr = acc + (i * cols + j) * 4; op->compute = 2; }
    return true;
}

static void *mm2_create(struct workload *wl, const struct config *cfg)
{
    struct mm2 *m = xcalloc(1, sizeof *m);
    m->ni = cfg_u64(cfg, "workload.2mm.ni");
    m->nj = cfg_u64(cfg, "workload.2mm.nj");
    m->nk = cfg_u64(cfg, "workload.2mm.nk");
    m->nl = cfg_u64(cfg, "workload.2mm.nl");
    m->a = wl_add_alloc(wl, "A", m->ni * m->nk * 4);
    m->b = wl_add_alloc(wl, "B", m->nk * m->nj * 4);
    m->c = wl_add_alloc(wl, "C", m->ni * m->nj * 4);
    m->d = wl_add_alloc(wl, "D", m->nj * m->nl * 4);
    m->e = wl_add_alloc(wl, "E", m->ni * m->nl * 4);
    m->g.npos = mm2_npos;
    m->g.lane = mm2_lane;
    struct dim3 blk = { 32, 8, 1 };
    wl_prog_kernel(&m->g.prog, "mm2_kernel1", 0,
                   (struct dim3){ wl_div_up(m->nj, 32), wl_div_up(m->ni, 8), 1 }, blk, 16, 0);
    wl_prog_kernel(&m->g.prog, "mm2_kernel2", 1,
                   (struct dim3){ wl_div_up(m->nl, 32), wl_div_up(m->ni, 8), 1 }, blk, 16, 0);
    return m;
}

static const struct workload_ops mm2_ops = {
    "2mm", mm2_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info mm2_info = {
    &mm2_ops, mm2_config_keys,
    "PolyBench/GPU 1.0 2mm.cu, mm2_kernel1 then mm2_kernel2; HPE Sec. III (elided there).",
    "4 x (ni*nk + nk*nj + ni*nj + nj*nl + ni*nl) bytes (A, B, C, D, E), all touched",
};

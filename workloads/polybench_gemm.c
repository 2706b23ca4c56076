/* Polybench GEMM: C = alpha*A*B + beta*C.  Source: PolyBench/GPU 1.0
 * (Grauer-Gray et al., InPar 2012), gemm.cu, gemm_kernel; HPE (Yu et al.
 * 2020) Table II, type I (GEM).  Defaults: NI = NJ = NK = 512 (the suite's
 * standard size), float, 32x8 blocks.
 *
 * Thread (i = blockIdx.y*8+threadIdx.y, j = blockIdx.x*32+threadIdx.x), if
 * i < NI and j < NJ:
 *   c[i*NJ+j] *= BETA;
 *   for k < NK: c[i*NJ+j] += ALPHA * a[i*NK+k] * b[k*NJ+j];
 * a, b, c are not restrict, so nvcc stores c each iteration (a later load of
 * a or b might alias it) but forwards the stored value instead of reloading:
 * positions load c, store c, then per k: load a, load b, store c. */
#include "gen.h"

struct gemm {
    struct wl_simple g;
    uint64_t ni, nj, nk, a, b, c;
};

const struct cfg_key gemm_config_keys[] = {
    {"workload.gemm.ni", CFG_INT, "512", 1, 1e6, NULL, "rows of A and C"},
    {"workload.gemm.nj", CFG_INT, "512", 1, 1e6, NULL, "columns of B and C"},
    {"workload.gemm.nk", CFG_INT, "512", 1, 1e6, NULL, "columns of A, rows of B"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t gemm_npos(const void *impl, const struct warp_ctx *w)
{
    (void)w;
    return 2 + 3 * ((const struct gemm *)impl)->nk;
}

static bool gemm_lane(const void *impl, const struct warp_ctx *w,
                      const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct gemm *m = impl;
    (void)w;
    uint64_t j = (uint64_t)t->bx * 32 + t->tx, i = (uint64_t)t->by * 8 + t->ty;
    if (i >= m->ni || j >= m->nj) return false;
    op->size = 4;
    op->compute = 0;
    if (pos < 2) {
        op->op = pos ? INST_STORE : INST_LOAD;
        op->compute = pos ? 1 : 0;          /* the multiply by BETA */
        op->addr = m->c + (i * m->nj + j) * 4;
        return true;
    }
    uint64_t k = (pos - 2) / 3, r = (pos - 2) % 3;
    if (r == 0) { op->op = INST_LOAD; op->addr = m->a + (i * m->nk + k) * 4; }
    else if (r == 1) { op->op = INST_LOAD; op->addr = m->b + (k * m->nj + j) * 4; }
    else { op->op = INST_STORE; op->addr = m->c + (i * m->nj + j) * 4;
           op->compute = 3; }            /* 2 multiplies, 1 add, index math */
    return true;
}

static void *gemm_create(struct workload *wl, const struct config *cfg)
{
    struct gemm *m = xcalloc(1, sizeof *m);
    m->ni = cfg_u64(cfg, "workload.gemm.ni");
    m->nj = cfg_u64(cfg, "workload.gemm.nj");
    m->nk = cfg_u64(cfg, "workload.gemm.nk");
    m->a = wl_add_alloc(wl, "A", m->ni * m->nk * 4);
    m->b = wl_add_alloc(wl, "B", m->nk * m->nj * 4);
    m->c = wl_add_alloc(wl, "C", m->ni * m->nj * 4);
    m->g.npos = gemm_npos;
    m->g.lane = gemm_lane;
    wl_prog_kernel(&m->g.prog, "gemm_kernel", 0,
                   (struct dim3){ wl_div_up(m->nj, 32), wl_div_up(m->ni, 8), 1 },
                   (struct dim3){ 32, 8, 1 }, 16, 0);
    return m;
}

static const struct workload_ops gemm_ops = {
    "gemm", gemm_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info gemm_info = {
    &gemm_ops, gemm_config_keys,
    "PolyBench/GPU 1.0 gemm.cu, gemm_kernel (one launch); HPE Table II type I (GEM).",
    "4 x (ni*nk + nk*nj + ni*nj) bytes (float A, B, C)",
};

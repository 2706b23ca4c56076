/* Parboil sgemm: C = alpha*A*B^T + beta*C, register-tiled.  Source:
 * Parboil 2.5 sgemm/src/cuda/sgemm_kernel.cu, mysgemmNT (TILE_N 16,
 * TILE_TB_HEIGHT 8, TILE_M 128), one launch; HPE (Yu et al. 2020) Table II
 * type V (SGM).  Defaults: m = n = k = 1024 (Parboil's medium input is of
 * this order; the exact matrices are not modelled).  A is m x k (lda = m),
 * B is n x k (ldb = n), C is m x n (ldc = m), column-major.
 *
 * Thread (tx, ty) of block (bx, by): mid = ty*16 + tx, m = bx*128 + mid,
 * n = by*16 + tx:
 *   for i = 0; i < k; i += 8:
 *     load B[n + (i+ty)*ldb] (into shared memory); sync;
 *     for j < 8: load A[m + (i+j)*lda] (then 16 FMAs from shared memory)
 *     sync;
 *   t = ldc*by*16 + m; for i < 16: load C[t + i*ldc], store C[t + i*ldc]. */
#include "gen.h"

struct sgemm {
    struct wl_simple g;
    uint64_t m, n, k, a, b, c;
};

const struct cfg_key sgemm_config_keys[] = {
    {"workload.sgemm.m", CFG_INT, "1024", 128, 1e6, NULL, "rows of A and C (a multiple of 128)"},
    {"workload.sgemm.n", CFG_INT, "1024", 16, 1e6, NULL, "rows of B, columns of C (a multiple of 16)"},
    {"workload.sgemm.k", CFG_INT, "1024", 8, 1e6, NULL, "inner dimension (a multiple of 8)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t sg_npos(const void *impl, const struct warp_ctx *w)
{ (void)w; return 11 * (((const struct sgemm *)impl)->k / 8) + 32; }

static bool sg_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct sgemm *s = impl;
    (void)w;
    uint64_t mid = (uint64_t)t->ty * 16 + t->tx, m = (uint64_t)t->bx * 128 + mid;
    uint64_t n = (uint64_t)t->by * 16 + t->tx, tiles = s->k / 8;
    op->size = 4;
    op->compute = 0;
    if (pos < 11 * tiles) {
        uint64_t i = pos / 11 * 8, r = pos % 11;
        if (r == 0) { op->op = INST_LOAD; op->addr = s->b + (n + (i + t->ty) * s->n) * 4; }
        else if (r == 1 || r == 10) { op->op = INST_BARRIER; op->compute = r == 10 ? 16 : 0; }
        else { op->op = INST_LOAD; op->addr = s->a + (m + (i + r - 2) * s->m) * 4;
               op->compute = r > 2 ? 16 : 0; }
        return true;
    }
    uint64_t q = pos - 11 * tiles, i = q / 2;
    uint64_t tt = s->m * t->by * 16 + m;
    op->op = q % 2 ? INST_STORE : INST_LOAD;
    op->compute = q % 2 ? 2 : 0;
    op->addr = s->c + (tt + i * s->m) * 4;
    return true;
}

static void *sg_create(struct workload *wl, const struct config *cfg)
{
    struct sgemm *s = xcalloc(1, sizeof *s);
    s->m = cfg_u64(cfg, "workload.sgemm.m");
    s->n = cfg_u64(cfg, "workload.sgemm.n");
    s->k = cfg_u64(cfg, "workload.sgemm.k");
    if (s->m % 128 || s->n % 16 || s->k % 8)
        user_error("workload.sgemm.m, .n, .k must be multiples of 128, 16 and 8 "
                   "(mysgemmNT has no bounds checks)");
    s->a = wl_add_alloc(wl, "A", s->m * s->k * 4);
    s->b = wl_add_alloc(wl, "B", s->n * s->k * 4);
    s->c = wl_add_alloc(wl, "C", s->m * s->n * 4);
    s->g.npos = sg_npos;
    s->g.lane = sg_lane;
    wl_prog_kernel(&s->g.prog, "mysgemmNT", 0,
                   (struct dim3){ (uint32_t)(s->m / 128), (uint32_t)(s->n / 16), 1 },
                   (struct dim3){ 16, 8, 1 }, 40, 8 * 16 * 4);
    return s;
}

static const struct workload_ops sg_ops = {
    "sgemm", sg_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info sgemm_info = {
    &sg_ops, sgemm_config_keys,
    "Parboil 2.5 sgemm_kernel.cu, mysgemmNT (one launch); HPE Table II type V (SGM).",
    "4 x (m*k + n*k + m*n) bytes (A, B, C), all touched",
};

/* Polybench 2DCONV: 3x3 convolution B = conv(A).  Source: PolyBench/GPU 1.0
 * 2DConvolution.cu, Convolution2D_kernel; HPE (Yu et al. 2020) Table II,
 * type I (2DC).  Defaults: NI = NJ = 4096 (suite standard), float, 32x8.
 *
 * Thread (i = blockIdx.y*8+threadIdx.y, j = blockIdx.x*32+threadIdx.x), if
 * 0 < i < NI-1 and 0 < j < NJ-1: nine loads of A in the source's order
 * (row i-1, i, i+1; column j-1, j, j+1), then the store of B[i][j]. */
#include "gen.h"

struct conv2d {
    struct wl_simple g;
    uint64_t ni, nj, a, b;
};

const struct cfg_key conv2d_config_keys[] = {
    {"workload.2dconv.ni", CFG_INT, "4096", 3, 1e6, NULL, "rows"},
    {"workload.2dconv.nj", CFG_INT, "4096", 3, 1e6, NULL, "columns"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t conv2d_npos(const void *impl, const struct warp_ctx *w)
{ (void)impl; (void)w; return 10; }

static bool conv2d_lane(const void *impl, const struct warp_ctx *w,
                        const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct conv2d *m = impl;
    (void)w;
    uint64_t j = (uint64_t)t->bx * 32 + t->tx, i = (uint64_t)t->by * 8 + t->ty;
    if (!(i < m->ni - 1 && j < m->nj - 1 && i > 0 && j > 0)) return false;
    op->size = 4;
    if (pos < 9) {
        op->op = INST_LOAD;
        op->compute = pos ? 2 : 0;      /* multiply-add of the previous tap */
        op->addr = m->a + ((i + pos / 3 - 1) * m->nj + j + pos % 3 - 1) * 4;
    } else {
        op->op = INST_STORE;
        op->compute = 2;
        op->addr = m->b + (i * m->nj + j) * 4;
    }
    return true;
}

static void *conv2d_create(struct workload *wl, const struct config *cfg)
{
    struct conv2d *m = xcalloc(1, sizeof *m);
    m->ni = cfg_u64(cfg, "workload.2dconv.ni");
    m->nj = cfg_u64(cfg, "workload.2dconv.nj");
    m->a = wl_add_alloc(wl, "A", m->ni * m->nj * 4);
    m->b = wl_add_alloc(wl, "B", m->ni * m->nj * 4);
    m->g.npos = conv2d_npos;
    m->g.lane = conv2d_lane;
    wl_prog_kernel(&m->g.prog, "Convolution2D_kernel", 0,
                   (struct dim3){ wl_div_up(m->nj, 32), wl_div_up(m->ni, 8), 1 },
                   (struct dim3){ 32, 8, 1 }, 20, 0);
    return m;
}

static const struct workload_ops conv2d_ops = {
    "2dconv", conv2d_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info conv2d_info = {
    &conv2d_ops, conv2d_config_keys,
    "PolyBench/GPU 1.0 2DConvolution.cu, Convolution2D_kernel (one launch); "
    "HPE Table II type I (2DC).",
    "A: 4*ni*nj bytes, all read; B: 4*ni*nj allocated, written from element "
    "(1,1) to (ni-2,nj-2): pages of the byte span [4*(nj+1), 4*((ni-2)*nj+nj-1))",
};

/* Polybench 3DCONV.  Source: PolyBench/GPU 1.0 3DConvolution.cu,
 * convolution3D_kernel, launched once per plane i = 1 .. NI-2 by the host
 * loop; HPE (Yu et al. 2020) Sec. III lists it with 2DCONV's pattern.
 * Defaults: NI = NJ = NK = 256 (suite standard), float, 32x8 blocks over
 * (k, j).
 *
 * Thread (k = blockIdx.x*32+threadIdx.x, j = blockIdx.y*8+threadIdx.y), if
 * 0 < j < NJ-1 and 0 < k < NK-1: the source sums 15 taps of A, of which 11
 * are distinct (three taps repeat (i-1,j-1,k-1) and (i+1,j-1,k-1)); with no
 * store between them nvcc loads each distinct tap once, in order of first
 * appearance, then stores B[i][j][k]. */
#include "gen.h"

struct conv3d {
    struct wl_simple g;
    uint64_t ni, nj, nk, a, b;
};

/* (di, dj, dk) of the distinct taps, in source order of first appearance. */
static const int8_t taps[11][3] = {
    {-1, -1, -1}, {1, -1, -1}, {0, -1, 0}, {0, 0, 0}, {0, 1, 0},
    {-1, -1, 1}, {1, -1, 1}, {-1, 0, 1}, {1, 0, 1}, {-1, 1, 1}, {1, 1, 1},
};

const struct cfg_key conv3d_config_keys[] = {
    {"workload.3dconv.ni", CFG_INT, "256", 3, 1e5, NULL, "planes (host loop, one launch each)"},
    {"workload.3dconv.nj", CFG_INT, "256", 3, 1e5, NULL, "rows"},
    {"workload.3dconv.nk", CFG_INT, "256", 3, 1e5, NULL, "columns"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t conv3d_npos(const void *impl, const struct warp_ctx *w)
{ (void)impl; (void)w; return 12; }

static bool conv3d_lane(const void *impl, const struct warp_ctx *w,
                        const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct conv3d *m = impl;
    uint64_t i = 1 + w->k->arg;
    uint64_t k = (uint64_t)t->bx * 32 + t->tx, j = (uint64_t)t->by * 8 + t->ty;
    if (!(j < m->nj - 1 && k < m->nk - 1 && j > 0 && k > 0)) return false;
    op->size = 4;
    if (pos < 11) {
        op->op = INST_LOAD;
        op->compute = pos ? 2 : 0;
        op->addr = m->a + (((i + taps[pos][0]) * m->nj + j + taps[pos][1]) * m->nk +
                           k + taps[pos][2]) * 4;
    } else {
        op->op = INST_STORE;
        op->compute = 10;                /* the 15 multiply-adds, 11 done */
        op->addr = m->b + ((i * m->nj + j) * m->nk + k) * 4;
    }
    return true;
}

static void *conv3d_create(struct workload *wl, const struct config *cfg)
{
    struct conv3d *m = xcalloc(1, sizeof *m);
    m->ni = cfg_u64(cfg, "workload.3dconv.ni");
    m->nj = cfg_u64(cfg, "workload.3dconv.nj");
    m->nk = cfg_u64(cfg, "workload.3dconv.nk");
    uint64_t n = m->ni * m->nj * m->nk * 4;
    m->a = wl_add_alloc(wl, "A", n);
    m->b = wl_add_alloc(wl, "B", n);
    m->g.npos = conv3d_npos;
    m->g.lane = conv3d_lane;
    wl_prog_kernel(&m->g.prog, "convolution3D_kernel", 0,
                   (struct dim3){ wl_div_up(m->nk, 32), wl_div_up(m->nj, 8), 1 },
                   (struct dim3){ 32, 8, 1 }, 24, 0);
    wl_prog_loop(&m->g.prog, 0, m->ni - 2);
    return m;
}

static const struct workload_ops conv3d_ops = {
    "3dconv", conv3d_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info conv3d_info = {
    &conv3d_ops, conv3d_config_keys,
    "PolyBench/GPU 1.0 3DConvolution.cu, convolution3D_kernel, ni-2 launches "
    "(one per plane); HPE Sec. III (same pattern as 2DCONV).",
    "A: 4*ni*nj*nk bytes, all read; B: 4*ni*nj*nk allocated, written from "
    "element (1,1,1) to (ni-2,nj-2,nk-2): pages of the byte span "
    "[4*(nj*nk+nk+1), 4*(((ni-2)*nj+nj-2)*nk+nk-1))",
};

/* Parboil stencil: 7-point 3-D Jacobi stencil, x-coarsened by 2, the
 * current plane in shared memory.  Source: Parboil 2.5 stencil/src/cuda
 * kernels.cu, block2D_hybrid_coarsen_x, launched `iterations` times with
 * A0 and Anext swapped in between (main.cu; blocks 32 x 4, grid
 * (ceil(nx/64), ceil(ny/4))); HPE (Yu et al. 2020) Table II type II (STN).
 * Defaults: the small dataset the paper could simulate, 128 x 128 x 32,
 * 100 iterations.  Index3D(i, j, k) = (k*ny + j)*nx + i.
 *
 * Thread (tx, ty) of block (bx, by): i = bx*64 + tx, i2 = i + 32,
 * j = by*4 + ty; w_region = 0 < i < nx-1 and 0 < j < ny-1, w_region2 =
 * j > 0, i2 < nx-1, j < ny-1:
 *   sync; if (i, j) inside: load A0(i,j,0), A0(i,j,1); same for i2; sync;
 *   for k = 1 .. nz-2:
 *     if (i, j) inside: load A0(i,j,k+1);
 *     if w_region: tx == 0: load A0(i-1,j,k); ty == 0: load A0(i,j-1,k);
 *       ty == 3: load A0(i,j+1,k); store Anext(i,j,k)   (else shared memory)
 *     the same for i2 (tx == 31: load A0(i2+1,j,k));
 *     sync; (rotate planes in shared memory) sync. */
#include "gen.h"

struct stencil {
    struct wl_simple g;
    uint64_t nx, ny, nz, iters, a[2];
};

const struct cfg_key stencil_config_keys[] = {
    {"workload.stencil.nx", CFG_INT, "128", 3, 1e6, NULL, "x size (small dataset: 128)"},
    {"workload.stencil.ny", CFG_INT, "128", 3, 1e6, NULL, "y size (small dataset: 128)"},
    {"workload.stencil.nz", CFG_INT, "32", 3, 1e6, NULL, "z size (small dataset: 32)"},
    {"workload.stencil.iterations", CFG_INT, "100", 1, 1e7, NULL, "launches (Parboil: 100)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t st_npos(const void *impl, const struct warp_ctx *w)
{ (void)w; return 6 + 12 * (((const struct stencil *)impl)->nz - 2); }

static bool st_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct stencil *m = impl;
    int64_t nx = (int64_t)m->nx, ny = (int64_t)m->ny;
    int64_t i = (int64_t)t->bx * 64 + t->tx, i2 = i + 32, j = (int64_t)t->by * 4 + t->ty;
    uint64_t a0 = m->a[w->k->arg % 2], an = m->a[(w->k->arg + 1) % 2];
    bool in1 = i < nx && j < ny, in2 = i2 < nx && j < ny;
    bool wr = i > 0 && j > 0 && i < nx - 1 && j < ny - 1;
    bool wr2 = j > 0 && i2 < nx - 1 && j < ny - 1;
#define IDX(x, y, z) ((((uint64_t)(z) * m->ny + (uint64_t)(y)) * m->nx + (uint64_t)(x)) * 4)
    op->size = 4;
    op->compute = 0;
    op->op = INST_LOAD;
    if (pos == 0 || pos == 5) { op->op = INST_BARRIER; return true; }
    if (pos < 5) {
        bool second = pos >= 3;
        if (!(second ? in2 : in1)) return false;
        op->addr = a0 + IDX(second ? i2 : i, j, (pos - 1) % 2);
        return true;
    }
    uint64_t k = 1 + (pos - 6) / 12, r = (pos - 6) % 12;
    if (r >= 10) { op->op = INST_BARRIER; return true; }
    bool second = r >= 5;
    int64_t x = second ? i2 : i;
    switch (r % 5) {
    case 0: if (!(second ? in2 : in1)) return false;
            op->addr = a0 + IDX(x, j, k + 1); return true;
    case 1: if (!(second ? wr2 && t->tx == 31 : wr && t->tx == 0)) return false;
            op->addr = a0 + IDX(second ? x + 1 : x - 1, j, k); return true;
    case 2: if (!((second ? wr2 : wr) && t->ty == 0)) return false;
            op->addr = a0 + IDX(x, j - 1, k); return true;
    case 3: if (!((second ? wr2 : wr) && t->ty == 3)) return false;
            op->addr = a0 + IDX(x, j + 1, k); return true;
    default: if (!(second ? wr2 : wr)) return false;
             op->op = INST_STORE; op->compute = 8; op->addr = an + IDX(x, j, k); return true;
    }
#undef IDX
}

static void *st_create(struct workload *wl, const struct config *cfg)
{
    struct stencil *m = xcalloc(1, sizeof *m);
    m->nx = cfg_u64(cfg, "workload.stencil.nx");
    m->ny = cfg_u64(cfg, "workload.stencil.ny");
    m->nz = cfg_u64(cfg, "workload.stencil.nz");
    m->iters = cfg_u64(cfg, "workload.stencil.iterations");
    uint64_t n = m->nx * m->ny * m->nz * 4;
    m->a[0] = wl_add_alloc(wl, "d_A0", n);
    m->a[1] = wl_add_alloc(wl, "d_Anext", n);
    m->g.npos = st_npos;
    m->g.lane = st_lane;
    wl_prog_kernel(&m->g.prog, "block2D_hybrid_coarsen_x", 0,
                   (struct dim3){ wl_div_up(m->nx, 64), wl_div_up(m->ny, 4), 1 },
                   (struct dim3){ 32, 4, 1 }, 24, 64 * 4 * 4);
    wl_prog_loop(&m->g.prog, 0, m->iters);
    return m;
}

static const struct workload_ops st_ops = {
    "stencil", st_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info stencil_info = {
    &st_ops, stencil_config_keys,
    "Parboil 2.5 stencil kernels.cu, block2D_hybrid_coarsen_x, one launch per iteration; "
    "HPE Table II type II (STN).",
    "2 x 4*nx*ny*nz bytes (d_A0, d_Anext), all touched when iterations >= 2 (one "
    "iteration writes only Anext's interior)",
};

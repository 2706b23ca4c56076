/* Polybench FDTD-2D: 2-D finite-difference time domain.  Source:
 * PolyBench/GPU 1.0 fdtd2d.cu, fdtd_step1_kernel, fdtd_step2_kernel,
 * fdtd_step3_kernel launched in that order for t < tmax; HPE (Yu et al.
 * 2020) Sec. III (runtime error there); the thrashing paper (Park et al.)
 * names FDTD among its cyclic-thrashing workloads.  Defaults: NX = NY =
 * 2048, tmax = 500 (suite standard), float, 32x8 blocks.
 *
 * Thread (i = blockIdx.y*8+threadIdx.y, j = blockIdx.x*32+threadIdx.x),
 * i < NX, j < NY:
 *   step1: if (i == 0) ey[i*NY+j] = fict[t];
 *          else ey[i*NY+j] -= 0.5*(hz[i*NY+j] - hz[(i-1)*NY+j]);
 *   step2: if (j > 0) ex[i*(NY+1)+j] -= 0.5*(hz[i*NY+j] - hz[i*NY+j-1]);
 *   step3: hz[i*NY+j] -= 0.7*(ex[i*(NY+1)+j+1] - ex[i*(NY+1)+j]
 *                            + ey[(i+1)*NY+j] - ey[i*NY+j]);
 * The i == 0 branch of step1 comes first (two positions), then the else
 * branch's four. */
#include "gen.h"

struct fdtd {
    struct wl_simple g;
    uint64_t nx, ny, tmax, fict, ex, ey, hz;
};

const struct cfg_key fdtd_config_keys[] = {
    {"workload.fdtd2d.nx", CFG_INT, "2048", 1, 1e6, NULL, "rows"},
    {"workload.fdtd2d.ny", CFG_INT, "2048", 1, 1e6, NULL, "columns"},
    {"workload.fdtd2d.tmax", CFG_INT, "500", 1, 1e7, NULL, "time steps (three launches each)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static const uint8_t npos_of[3] = { 6, 4, 6 };

static uint64_t fdtd_npos(const void *impl, const struct warp_ctx *w)
{ (void)impl; return npos_of[w->k->id]; }

static bool fdtd_lane(const void *impl, const struct warp_ctx *w,
                      const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct fdtd *m = impl;
    uint64_t j = (uint64_t)t->bx * 32 + t->tx, i = (uint64_t)t->by * 8 + t->ty;
    uint64_t ny = m->ny, tt = w->k->arg;
    if (i >= m->nx || j >= ny) return false;
    op->size = 4;
    op->compute = 0;
    op->op = INST_LOAD;
    switch (w->k->id) {
    case 0:
        if ((i == 0) != (pos < 2)) return false;
        switch (pos) {
        case 0: op->addr = m->fict + tt * 4; break;
        case 1: op->op = INST_STORE; op->addr = m->ey + j * 4; break;
        case 2: op->addr = m->ey + (i * ny + j) * 4; break;
        case 3: op->addr = m->hz + (i * ny + j) * 4; break;
        case 4: op->addr = m->hz + ((i - 1) * ny + j) * 4; break;
        default: op->op = INST_STORE; op->addr = m->ey + (i * ny + j) * 4;
                 op->compute = 3; break;
        }
        return true;
    case 1:
        if (j == 0) return false;
        switch (pos) {
        case 0: op->addr = m->ex + (i * (ny + 1) + j) * 4; break;
        case 1: op->addr = m->hz + (i * ny + j) * 4; break;
        case 2: op->addr = m->hz + (i * ny + j - 1) * 4; break;
        default: op->op = INST_STORE; op->addr = m->ex + (i * (ny + 1) + j) * 4;
                 op->compute = 3; break;
        }
        return true;
    default:
        switch (pos) {
        case 0: op->addr = m->hz + (i * ny + j) * 4; break;
        case 1: op->addr = m->ex + (i * (ny + 1) + j + 1) * 4; break;
        case 2: op->addr = m->ex + (i * (ny + 1) + j) * 4; break;
        case 3: op->addr = m->ey + ((i + 1) * ny + j) * 4; break;
        case 4: op->addr = m->ey + (i * ny + j) * 4; break;
        default: op->op = INST_STORE; op->addr = m->hz + (i * ny + j) * 4;
                 op->compute = 5; break;
        }
        return true;
    }
}

static void *fdtd_create(struct workload *wl, const struct config *cfg)
{
    struct fdtd *m = xcalloc(1, sizeof *m);
    m->nx = cfg_u64(cfg, "workload.fdtd2d.nx");
    m->ny = cfg_u64(cfg, "workload.fdtd2d.ny");
    m->tmax = cfg_u64(cfg, "workload.fdtd2d.tmax");
    m->fict = wl_add_alloc(wl, "_fict_", m->tmax * 4);
    m->ex = wl_add_alloc(wl, "ex", m->nx * (m->ny + 1) * 4);
    m->ey = wl_add_alloc(wl, "ey", (m->nx + 1) * m->ny * 4);
    m->hz = wl_add_alloc(wl, "hz", m->nx * m->ny * 4);
    m->g.npos = fdtd_npos;
    m->g.lane = fdtd_lane;
    struct dim3 grid = { wl_div_up(m->ny, 32), wl_div_up(m->nx, 8), 1 }, blk = { 32, 8, 1 };
    wl_prog_kernel(&m->g.prog, "fdtd_step1_kernel", 0, grid, blk, 12, 0);
    wl_prog_kernel(&m->g.prog, "fdtd_step2_kernel", 1, grid, blk, 12, 0);
    wl_prog_kernel(&m->g.prog, "fdtd_step3_kernel", 2, grid, blk, 14, 0);
    wl_prog_loop(&m->g.prog, 0, m->tmax);
    return m;
}

static const struct workload_ops fdtd_ops = {
    "fdtd2d", fdtd_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info fdtd_info = {
    &fdtd_ops, fdtd_config_keys,
    "PolyBench/GPU 1.0 fdtd2d.cu, fdtd_step1/2/3_kernel, 3*tmax launches; HPE Sec. III; "
    "thrashing paper (Park et al.) FDTD.",
    "4 x (tmax + nx*(ny+1) + (nx+1)*ny + nx*ny) bytes (_fict_, ex, ey, hz); ey's last row "
    "is read only by step3 of row nx-1",
};

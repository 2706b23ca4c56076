/* Rodinia hotspot3D: 3-D thermal simulation, one launch per time step.
 * Source: Rodinia 3.1 hotspot3D/opt1.cu, hotspotOpt1; HPE (Yu et al. 2020)
 * Table II type II (HSD).  Defaults: the Rodinia run script, 512 x 512 x 8,
 * 100 iterations; 64 x 4 blocks, grid (nx/64, ny/4).
 *
 * Thread (i = bx*64+tx, j = by*4+ty), c = i + j*nx, xy = nx*ny, W/E/N/S the
 * neighbours clamped at the borders:
 *   load tIn[c], tIn[c+xy], tIn[W], tIn[E], tIn[S], tIn[N], p[c]; store tOut[c]
 *   for k = 1 .. nz-2 (c and the neighbours advanced by xy):
 *     load tIn[c+xy], tIn[W], tIn[E], tIn[S], tIn[N], p[c]; store tOut[c]
 *   last plane: load tIn[W], tIn[E], tIn[S], tIn[N], p[c]; store tOut[c]
 * (temp1..3 stay in registers; the rest is reloaded after each store since
 * tIn and tOut are not restrict).  tIn and tOut swap between launches. */
#include "gen.h"

struct hotspot3d {
    struct wl_simple g;
    uint64_t nx, ny, nz, iters, p, t[2];
};

const struct cfg_key hotspot3d_config_keys[] = {
    {"workload.hotspot3d.nx", CFG_INT, "512", 64, 1e6, NULL, "columns (a multiple of 64)"},
    {"workload.hotspot3d.ny", CFG_INT, "512", 4, 1e6, NULL, "rows (a multiple of 4)"},
    {"workload.hotspot3d.nz", CFG_INT, "8", 2, 1e5, NULL, "layers"},
    {"workload.hotspot3d.iterations", CFG_INT, "100", 1, 1e7, NULL, "time steps (launches)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* Positions: 8 for the first plane, 7 per middle plane, 6 for the last. */
static uint64_t h3_npos(const void *impl, const struct warp_ctx *w)
{
    (void)w;
    return 8 + 7 * (((const struct hotspot3d *)impl)->nz - 2) + 6;
}

static bool h3_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct hotspot3d *m = impl;
    uint64_t nx = m->nx, ny = m->ny, xy = nx * ny;
    uint64_t i = (uint64_t)t->bx * 64 + t->tx, j = (uint64_t)t->by * 4 + t->ty;
    uint64_t c = i + j * nx;
    uint64_t W = i == 0 ? c : c - 1, E = i == nx - 1 ? c : c + 1;
    uint64_t N = j == 0 ? c : c - nx, S = j == ny - 1 ? c : c + nx;
    uint64_t tin = m->t[w->k->arg % 2], tout = m->t[(w->k->arg + 1) % 2];
    uint64_t k, r;
    if (pos < 8) { k = 0; r = pos; }
    else if (pos < 8 + 7 * (m->nz - 2)) { k = 1 + (pos - 8) / 7; r = 1 + (pos - 8) % 7; }
    else { k = m->nz - 1; r = 2 + (pos - 8 - 7 * (m->nz - 2)); }
    uint64_t off = k * xy;
    op->op = INST_LOAD;
    op->size = 4;
    op->compute = 0;
    switch (r) {
    case 0: op->addr = tin + c * 4; break;
    case 1: op->addr = tin + (c + off + xy) * 4; break;
    case 2: op->addr = tin + (W + off) * 4; break;
    case 3: op->addr = tin + (E + off) * 4; break;
    case 4: op->addr = tin + (S + off) * 4; break;
    case 5: op->addr = tin + (N + off) * 4; break;
    case 6: op->addr = m->p + (c + off) * 4; break;
    default: op->op = INST_STORE; op->addr = tout + (c + off) * 4; op->compute = 18; break;
    }
    return true;
}

static void *h3_create(struct workload *wl, const struct config *cfg)
{
    struct hotspot3d *m = xcalloc(1, sizeof *m);
    m->nx = cfg_u64(cfg, "workload.hotspot3d.nx");
    m->ny = cfg_u64(cfg, "workload.hotspot3d.ny");
    m->nz = cfg_u64(cfg, "workload.hotspot3d.nz");
    m->iters = cfg_u64(cfg, "workload.hotspot3d.iterations");
    if (m->nx % 64 || m->ny % 4)
        user_error("workload.hotspot3d.nx must be a multiple of 64 and "
                   "workload.hotspot3d.ny of 4 (the kernel has no bounds check)");
    uint64_t n = m->nx * m->ny * m->nz * 4;
    m->p = wl_add_alloc(wl, "p_d", n);
    m->t[0] = wl_add_alloc(wl, "tIn_d", n);
    m->t[1] = wl_add_alloc(wl, "tOut_d", n);
    m->g.npos = h3_npos;
    m->g.lane = h3_lane;
    wl_prog_kernel(&m->g.prog, "hotspotOpt1", 0,
                   (struct dim3){ (uint32_t)(m->nx / 64), (uint32_t)(m->ny / 4), 1 },
                   (struct dim3){ 64, 4, 1 }, 32, 0);
    wl_prog_loop(&m->g.prog, 0, m->iters);
    return m;
}

static const struct workload_ops h3_ops = {
    "hotspot3d", h3_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info hotspot3d_info = {
    &h3_ops, hotspot3d_config_keys,
    "Rodinia 3.1 hotspot3D opt1.cu, hotspotOpt1, one launch per iteration; "
    "HPE Table II type II (HSD).",
    "3 x 4*nx*ny*nz bytes (p_d, tIn_d, tOut_d), all touched",
};

/* Parboil mri-q: Q matrix of MRI reconstruction.  Source: Parboil 2.5
 * mri-q/src/cuda, ComputePhiMag_GPU (one launch) then ComputeQ_GPU once per
 * chunk of 1024 k-space samples (the samples of a chunk sit in __constant__
 * memory, copied by the host, so the kernel's global accesses are the
 * per-voxel x, y, z, Qr, Qi); HPE (Yu et al. 2020) Table II type II (MRQ).
 * Defaults: the "large" dataset, numX = 262144 voxels, numK = 2048.
 *
 * ComputePhiMag_GPU, indexK = bx*512 + tx < numK: load phiR, phiI; store phiMag.
 * ComputeQ_GPU, xIndex = bx*256 + tx: load x, y, z, Qr, Qi; (loop over the
 * chunk's samples in registers); store Qr, Qi. */
#include "gen.h"

struct mriq {
    struct wl_simple g;
    uint64_t nx, nk, x, y, z, qr, qi, phir, phii, phimag;
};

const struct cfg_key mriq_config_keys[] = {
    {"workload.mriq.numx", CFG_INT, "262144", 256, 1e10, NULL, "voxels (a multiple of 256)"},
    {"workload.mriq.numk", CFG_INT, "2048", 1, 1e9, NULL, "k-space samples"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t mriq_npos(const void *impl, const struct warp_ctx *w)
{ (void)impl; return w->k->id == 0 ? 3 : 7; }

static bool mriq_lane(const void *impl, const struct warp_ctx *w,
                      const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct mriq *m = impl;
    op->size = 4;
    op->compute = 0;
    if (w->k->id == 0) {
        uint64_t k = (uint64_t)t->bx * 512 + t->tx;
        if (k >= m->nk) return false;
        op->op = pos < 2 ? INST_LOAD : INST_STORE;
        op->compute = pos == 2 ? 3 : 0;
        op->addr = (pos == 0 ? m->phir : pos == 1 ? m->phii : m->phimag) + k * 4;
        return true;
    }
    uint64_t x = (uint64_t)t->bx * 256 + t->tx, chunk = w->k->arg;
    uint64_t left = m->nk - chunk * 1024, nk = left < 1024 ? left : 1024;
    static const uint8_t which[7] = { 0, 1, 2, 3, 4, 3, 4 };
    const uint64_t base[5] = { m->x, m->y, m->z, m->qr, m->qi };
    op->op = pos < 5 ? INST_LOAD : INST_STORE;
    /* Per sample: the phase (2 FMAs, 3 multiplies), sin and cos, 4 FMAs. */
    op->compute = pos == 5 ? (uint32_t)(nk * 12) : 0;
    op->addr = base[which[pos]] + x * 4;
    return true;
}

static void *mriq_create(struct workload *wl, const struct config *cfg)
{
    struct mriq *m = xcalloc(1, sizeof *m);
    m->nx = cfg_u64(cfg, "workload.mriq.numx");
    m->nk = cfg_u64(cfg, "workload.mriq.numk");
    if (m->nx % 256)
        user_error("workload.mriq.numx must be a multiple of 256 (ComputeQ_GPU has no bounds check)");
    m->x = wl_add_alloc(wl, "x", m->nx * 4);
    m->y = wl_add_alloc(wl, "y", m->nx * 4);
    m->z = wl_add_alloc(wl, "z", m->nx * 4);
    m->qr = wl_add_alloc(wl, "Qr", m->nx * 4);
    m->qi = wl_add_alloc(wl, "Qi", m->nx * 4);
    m->phir = wl_add_alloc(wl, "phiR", m->nk * 4);
    m->phii = wl_add_alloc(wl, "phiI", m->nk * 4);
    m->phimag = wl_add_alloc(wl, "phiMag", m->nk * 4);
    m->g.npos = mriq_npos;
    m->g.lane = mriq_lane;
    wl_prog_kernel(&m->g.prog, "ComputePhiMag_GPU", 0,
                   (struct dim3){ wl_div_up(m->nk, 512), 1, 1 }, (struct dim3){ 512, 1, 1 }, 8, 0);
    wl_prog_kernel(&m->g.prog, "ComputeQ_GPU", 1,
                   (struct dim3){ (uint32_t)(m->nx / 256), 1, 1 }, (struct dim3){ 256, 1, 1 }, 24, 0);
    wl_prog_loop(&m->g.prog, 1, (m->nk + 1023) / 1024);
    return m;
}

static const struct workload_ops mriq_ops = {
    "mriq", mriq_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info mriq_info = {
    &mriq_ops, mriq_config_keys,
    "Parboil 2.5 mri-q, ComputePhiMag_GPU then ComputeQ_GPU per 1024-sample chunk; "
    "HPE Table II type II (MRQ).",
    "4 x (5*numx + 3*numk) bytes (x, y, z, Qr, Qi, phiR, phiI, phiMag), all touched",
};

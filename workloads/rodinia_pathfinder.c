/* Rodinia pathfinder: dynamic programming over a rows x cols wall, a
 * pyramid of `pyramid_height` rows per launch.  Source: Rodinia 3.1
 * pathfinder/pathfinder.cu, dynproc_kernel; HPE (Yu et al. 2020) Table II,
 * type III (PAT).  Defaults: the Rodinia run script, cols = 100000,
 * rows = 100, pyramid_height = 20; BLOCK_SIZE 256, HALO 1.
 *
 * Launch t (startStep = t*ph, iteration = min(ph, rows-1-startStep)), block
 * bx, thread tx: small = 256 - 2*iteration, blkX = small*bx - border
 * (border = ph), xidx = blkX + tx; isValid = tx in [validXmin, validXmax]
 * (the block's part inside [0, cols)).
 *   if xidx in [0, cols): load src[xidx];  __syncthreads();
 *   for i < iteration:
 *     if tx in [i+1, 254-i] and isValid: load wall[cols*(startStep+i)+xidx]
 *     __syncthreads(); if last: break; __syncthreads();
 *   if computed: store dst[xidx]
 * src and dst swap between launches (gpuResult[0] / [1]). */
#include "gen.h"

#define PF_BLOCK 256

struct pathfinder {
    struct wl_simple g;
    uint64_t rows, cols, ph, wall, res[2];
};

const struct cfg_key pathfinder_config_keys[] = {
    {"workload.pathfinder.cols", CFG_INT, "100000", 1, 1e10, NULL, "columns"},
    {"workload.pathfinder.rows", CFG_INT, "100", 2, 1e7, NULL, "rows (rows-1 of wall are read)"},
    {"workload.pathfinder.pyramid_height", CFG_INT, "20", 1, 126, NULL,
     "rows per launch"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t iters_of(const struct pathfinder *m, const struct wl_kernel *k)
{
    uint64_t t = k->arg * m->ph, left = m->rows - 1 - t;
    return left < m->ph ? left : m->ph;
}

static uint64_t pf_npos(const void *impl, const struct warp_ctx *w)
{ return 2 + 3 * iters_of(impl, w->k); }

static bool pf_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct pathfinder *m = impl;
    int64_t it = (int64_t)iters_of(m, w->k), cols = (int64_t)m->cols, tx = t->tx;
    int64_t small = PF_BLOCK - it * 2, border = (int64_t)m->ph;
    int64_t blkX = small * t->bx - border, blkXmax = blkX + PF_BLOCK - 1;
    int64_t xidx = blkX + tx;
    int64_t vmin = blkX < 0 ? -blkX : 0;
    int64_t vmax = blkXmax > cols - 1 ? PF_BLOCK - 1 - (blkXmax - cols + 1) : PF_BLOCK - 1;
    bool valid = tx >= vmin && tx <= vmax;
    uint64_t src = m->res[w->k->arg % 2], dst = m->res[(w->k->arg + 1) % 2];
    op->size = 4;
    op->compute = 0;
    if (pos == 0) {
        if (xidx < 0 || xidx >= cols) return false;
        op->op = INST_LOAD;
        op->addr = src + (uint64_t)xidx * 4;
        return true;
    }
    if (pos == 1) { op->op = INST_BARRIER; return true; }
    int64_t i = (int64_t)(pos - 2) / 3, r = (int64_t)(pos - 2) % 3;
    bool computed = tx >= i + 1 && tx <= PF_BLOCK - i - 2 && valid;
    if (r == 0) {
        if (!computed) return false;
        op->op = INST_LOAD;
        op->compute = 6;                /* min of three neighbours */
        op->addr = m->wall + ((uint64_t)cols * (w->k->arg * m->ph + (uint64_t)i) +
                              (uint64_t)xidx) * 4;
        return true;
    }
    if (r == 1 || i < it - 1) { op->op = INST_BARRIER; return true; }
    if (!computed) return false;        /* after the last iteration */
    op->op = INST_STORE;
    op->addr = dst + (uint64_t)xidx * 4;
    return true;
}

static void *pf_create(struct workload *wl, const struct config *cfg)
{
    struct pathfinder *m = xcalloc(1, sizeof *m);
    m->cols = cfg_u64(cfg, "workload.pathfinder.cols");
    m->rows = cfg_u64(cfg, "workload.pathfinder.rows");
    m->ph = cfg_u64(cfg, "workload.pathfinder.pyramid_height");
    m->wall = wl_add_alloc(wl, "gpuWall", (m->rows - 1) * m->cols * 4);
    m->res[0] = wl_add_alloc(wl, "gpuResult0", m->cols * 4);
    m->res[1] = wl_add_alloc(wl, "gpuResult1", m->cols * 4);
    m->g.npos = pf_npos;
    m->g.lane = pf_lane;
    uint64_t small = PF_BLOCK - m->ph * 2;
    wl_prog_kernel(&m->g.prog, "dynproc_kernel", 0,
                   (struct dim3){ wl_div_up(m->cols, small), 1, 1 },
                   (struct dim3){ PF_BLOCK, 1, 1 }, 16, 2 * PF_BLOCK * 4);
    wl_prog_loop(&m->g.prog, 0, (m->rows - 1 + m->ph - 1) / m->ph);
    return m;
}

static const struct workload_ops pf_ops = {
    "pathfinder", pf_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info pathfinder_info = {
    &pf_ops, pathfinder_config_keys,
    "Rodinia 3.1 pathfinder.cu, dynproc_kernel, ceil((rows-1)/pyramid_height) launches; "
    "HPE Table II type III (PAT).",
    "4 x ((rows-1)*cols + 2*cols) bytes (gpuWall, gpuResult[0], gpuResult[1]), all touched",
};

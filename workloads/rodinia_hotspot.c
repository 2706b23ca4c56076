/* Rodinia hotspot: thermal simulation on a rows x cols grid, `pyramid
 * height` time steps per launch in shared memory.  Source: Rodinia 3.1
 * hotspot/hotspot.cu, calculate_temp; HPE (Yu et al. 2020) Table II type I
 * (HOT).  Defaults: the Rodinia run script, 512 x 512, pyramid_height 2,
 * 2 iterations; BLOCK_SIZE 16 x 16.
 *
 * Launch t (iteration = min(ph, total - t*ph)), block (bx, by), thread
 * (tx, ty): small = 16 - 2*iteration, blkX = small*bx - ph, blkY = small*by
 * - ph, (xidx, yidx) = (blkX+tx, blkY+ty), index = cols*yidx + xidx:
 *   if (yidx, xidx) inside the grid: load temp_src[index], load power[index]
 *   __syncthreads();
 *   for i < iteration: (compute in shared memory) __syncthreads();
 *                      if last: break; __syncthreads();
 *   if computed (tx, ty in [i+1, 14-i] and inside the valid window for the
 *   last i): store temp_dst[index]
 * temp_src and temp_dst swap between launches. */
#include "gen.h"

#define HS_BLOCK 16

struct hotspot {
    struct wl_simple g;
    uint64_t rows, cols, ph, total, power, temp[2];
};

const struct cfg_key hotspot_config_keys[] = {
    {"workload.hotspot.rows", CFG_INT, "512", 1, 1e6, NULL, "grid rows"},
    {"workload.hotspot.cols", CFG_INT, "512", 1, 1e6, NULL, "grid columns"},
    {"workload.hotspot.pyramid_height", CFG_INT, "2", 1, 7, NULL, "time steps per launch"},
    {"workload.hotspot.iterations", CFG_INT, "2", 1, 1e7, NULL, "time steps in all"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static int64_t hs_iters(const struct hotspot *m, const struct wl_kernel *k)
{
    uint64_t left = m->total - k->arg * m->ph;
    return (int64_t)(left < m->ph ? left : m->ph);
}

static uint64_t hs_npos(const void *impl, const struct warp_ctx *w)
{ return 3 + 2 * (uint64_t)hs_iters(impl, w->k); }

static bool in_range(int64_t x, int64_t lo, int64_t hi) { return x >= lo && x <= hi; }

static bool hs_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct hotspot *m = impl;
    int64_t it = hs_iters(m, w->k), rows = (int64_t)m->rows, cols = (int64_t)m->cols;
    int64_t small = HS_BLOCK - 2 * it, border = (int64_t)m->ph;
    int64_t blkY = small * t->by - border, blkX = small * t->bx - border;
    int64_t tx = t->tx, ty = t->ty, yidx = blkY + ty, xidx = blkX + tx;
    uint64_t index = (uint64_t)(cols * yidx + xidx);
    uint64_t src = m->temp[w->k->arg % 2], dst = m->temp[(w->k->arg + 1) % 2];
    op->size = 4;
    op->compute = 0;
    if (pos < 2) {
        if (!in_range(yidx, 0, rows - 1) || !in_range(xidx, 0, cols - 1)) return false;
        op->op = INST_LOAD;
        op->addr = (pos ? m->power : src) + index * 4;
        return true;
    }
    if (pos == 2) { op->op = INST_BARRIER; return true; }
    int64_t i = (int64_t)(pos - 3) / 2;
    if ((pos - 3) % 2 == 0) { op->op = INST_BARRIER; op->compute = 12; return true; }
    if (i < it - 1) { op->op = INST_BARRIER; return true; }
    int64_t blkYmax = blkY + HS_BLOCK - 1, blkXmax = blkX + HS_BLOCK - 1;
    int64_t vymin = blkY < 0 ? -blkY : 0, vxmin = blkX < 0 ? -blkX : 0;
    int64_t vymax = blkYmax > rows - 1 ? HS_BLOCK - 1 - (blkYmax - rows + 1) : HS_BLOCK - 1;
    int64_t vxmax = blkXmax > cols - 1 ? HS_BLOCK - 1 - (blkXmax - cols + 1) : HS_BLOCK - 1;
    bool computed = in_range(tx, i + 1, HS_BLOCK - i - 2) && in_range(ty, i + 1, HS_BLOCK - i - 2) &&
                    in_range(tx, vxmin, vxmax) && in_range(ty, vymin, vymax);
    if (!computed) return false;
    op->op = INST_STORE;
    op->addr = dst + index * 4;
    return true;
}

/* SC19 Sec. 4.1-4.2 as spec B.3.4 item 1 applies them (straight line 1,
 * unknown guard x 0.5), per thread, S = 4 B.  Both loads sit under the
 * load window's IN_RANGE test (one if: 0.5), the store under `if
 * (computed)` (0.5); the loop over `iteration` touches shared memory
 * only.  Which MatrixTemp is temp_src follows the launch's argument
 * (compute_tran_temp swaps the pointers; launch t reads MatrixTemp[t % 2])
 * as the generator's lane does.
 *   MatrixPower R 0.5, 2 B; temp_src R 0.5, 2 B; temp_dst W 0.5, 2 B */
static size_t hs_uses(const void *impl, const struct wl_kernel *k,
                      struct wl_use *out, size_t max)
{
    (void)impl;
    const struct wl_use u[] = {
        { 0, WL_USE_R, 0.5, 2 },
        { 1 + (uint32_t)(k->arg % 2), WL_USE_R, 0.5, 2 },
        { 1 + (uint32_t)((k->arg + 1) % 2), WL_USE_W, 0.5, 2 },
    };
    size_t n = sizeof u / sizeof u[0];
    for (size_t i = 0; i < n && i < max; i++) out[i] = u[i];
    return n;
}

/* LC (SC19 Sec. 4.2) for runtime.density_lc iterations: the rows x cols
 * cells a launch updates; the grid's blocks overlap by the pyramid's
 * halo, so it has more threads than cells. */
static uint64_t hs_loop_iters(const void *impl, const struct wl_kernel *k)
{ (void)k; const struct hotspot *m = impl; return m->rows * m->cols; }

static void *hs_create(struct workload *wl, const struct config *cfg)
{
    struct hotspot *m = xcalloc(1, sizeof *m);
    m->rows = cfg_u64(cfg, "workload.hotspot.rows");
    m->cols = cfg_u64(cfg, "workload.hotspot.cols");
    m->ph = cfg_u64(cfg, "workload.hotspot.pyramid_height");
    m->total = cfg_u64(cfg, "workload.hotspot.iterations");
    uint64_t n = m->rows * m->cols * 4;
    m->power = wl_add_alloc(wl, "MatrixPower", n);
    m->temp[0] = wl_add_alloc(wl, "MatrixTemp0", n);
    m->temp[1] = wl_add_alloc(wl, "MatrixTemp1", n);
    m->g.npos = hs_npos;
    m->g.lane = hs_lane;
    uint64_t small = HS_BLOCK - 2 * m->ph;
    wl_prog_kernel(&m->g.prog, "calculate_temp", 0,
                   (struct dim3){ wl_div_up(m->cols, small), wl_div_up(m->rows, small), 1 },
                   (struct dim3){ HS_BLOCK, HS_BLOCK, 1 }, 32, 3 * HS_BLOCK * HS_BLOCK * 4);
    wl_prog_loop(&m->g.prog, 0, (m->total + m->ph - 1) / m->ph);
    wl->kernel_uses = hs_uses;
    wl->kernel_iters = hs_loop_iters;
    return m;
}

static const struct workload_ops hs_ops = {
    "hotspot", hs_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info hotspot_info = {
    &hs_ops, hotspot_config_keys,
    "Rodinia 3.1 hotspot.cu, calculate_temp, ceil(iterations/pyramid_height) launches; "
    "HPE Table II type I (HOT).",
    "3 x 4*rows*cols bytes (MatrixPower, MatrixTemp[0], MatrixTemp[1]), all touched",
};

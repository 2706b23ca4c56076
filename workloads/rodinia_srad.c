/* Rodinia srad_v2: speckle-reducing anisotropic diffusion.  Source:
 * Rodinia 3.1 srad/srad_v2/srad_kernel.cu, srad_cuda_1 then srad_cuda_2,
 * per iteration between the host's copy of J in and out (srad.cu); HPE (Yu
 * et al. 2020) Table II type II (SRD).  Defaults: the run script, 2048 x
 * 2048, 2 iterations; BLOCK_SIZE 16, grid (cols/16, rows/16).
 *
 * Block (bx, by), thread (tx, ty), index = cols*16*by + 16*bx + cols*ty +
 * tx; index_n = ... + tx - cols, index_s = ... + cols*16 + tx, index_w =
 * ... + cols*ty - 1, index_e = ... + cols*ty + 16 (the kernel's).
 * srad_cuda_1: load J[index_n], J[index_s]; if by == 0 load J[16*bx+tx]
 *   else if by is the last row of blocks load the last row's J; sync; load
 *   J[index_w], J[index_e]; if bx == 0 load the first column's J else if bx
 *   is last the last column's; sync; load J[index]; sync; (compute) sync;
 *   store C, E, W, S, N [index].
 * srad_cuda_2: load J[index]; sync; load C[index_s]; last block row: load
 *   the last row's C; sync; load C[index_e]; last block column: the last
 *   column's C; sync; load C[index]; sync; load N, S, W, E [index]; sync;
 *   store J[index].
 * The kernel's neighbour loads at the image border fall outside J_cuda /
 * C_cuda (before the first or past the last element) and are overwritten
 * by the fixes that follow; those out-of-allocation loads are dropped. */
#include "gen.h"

#define SR_B 16

struct srad {
    struct wl_simple g;
    uint64_t rows, cols, iters, j, c, e, w, n, s;
};

const struct cfg_key srad_config_keys[] = {
    {"workload.srad.rows", CFG_INT, "2048", 16, 1e6, NULL, "image rows (a multiple of 16)"},
    {"workload.srad.cols", CFG_INT, "2048", 16, 1e6, NULL, "image columns (a multiple of 16)"},
    {"workload.srad.iterations", CFG_INT, "2", 1, 1e6, NULL, "iterations (two launches each)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t sr_npos(const void *impl, const struct warp_ctx *w)
{ (void)impl; return w->k->id == 0 ? 18 : 16; }

static bool sr_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct srad *m = impl;
    int64_t cols = (int64_t)m->cols, bx = t->bx, by = t->by, tx = t->tx, ty = t->ty;
    int64_t gx = w->k->grid.x, gy = w->k->grid.y, size = (int64_t)(m->rows * m->cols);
    int64_t base = cols * SR_B * by + SR_B * bx;
    int64_t index = base + cols * ty + tx, index_n = base + tx - cols;
    int64_t index_s = base + cols * SR_B + tx, index_w = base + cols * ty - 1;
    int64_t index_e = base + cols * ty + SR_B;
    int64_t last_row = cols * SR_B * (gy - 1) + SR_B * bx + cols * (SR_B - 1) + tx;
    int64_t last_col = cols * SR_B * by + SR_B * (gx - 1) + cols * ty + SR_B - 1;
    int64_t idx = -1;
    uint64_t arr = m->j;
    op->size = 4;
    op->compute = 0;
    op->op = INST_LOAD;
    if (w->k->id == 0) {
        switch (pos) {
        case 0: idx = index_n; break;
        case 1: idx = index_s; break;
        case 2: if (by != 0) return false; idx = SR_B * bx + tx; break;
        case 3: if (by == 0 || by != gy - 1) return false; idx = last_row; break;
        case 5: idx = index_w; break;
        case 6: idx = index_e; break;
        case 7: if (bx != 0) return false; idx = cols * SR_B * by + cols * ty; break;
        case 8: if (bx == 0 || bx != gx - 1) return false; idx = last_col; break;
        case 10: idx = index; break;
        case 4: case 9: case 11: case 12:
            op->op = INST_BARRIER; op->compute = pos == 12 ? 30 : 0; return true;
        default:
            op->op = INST_STORE;
            idx = index;
            arr = pos == 13 ? m->c : pos == 14 ? m->e : pos == 15 ? m->w
                : pos == 16 ? m->s : m->n;
            break;
        }
    } else {
        arr = m->c;
        switch (pos) {
        case 0: arr = m->j; idx = index; break;
        case 2: idx = index_s; break;
        case 3: if (by != gy - 1) return false; idx = last_row; break;
        case 5: idx = index_e; break;
        case 6: if (bx != gx - 1) return false; idx = last_col; break;
        case 8: idx = index; break;
        case 10: arr = m->n; idx = index; break;
        case 11: arr = m->s; idx = index; break;
        case 12: arr = m->w; idx = index; break;
        case 13: arr = m->e; idx = index; break;
        case 15: op->op = INST_STORE; arr = m->j; idx = index; break;
        default: op->op = INST_BARRIER; op->compute = pos == 14 ? 10 : 0; return true;
        }
    }
    if (idx < 0 || idx >= size) return false;  /* outside the array: dropped */
    op->addr = arr + (uint64_t)idx * 4;
    return true;
}

/* Allocation indices, in sr_create's order. */
enum { SR_J, SR_C, SR_E, SR_W, SR_N, SR_S };

/* SC19 Sec. 4.1-4.2 as spec B.3.4 item 1 applies them (straight line 1,
 * unknown guard x 0.5), per thread, S = 4 B.  The grid is the parallel
 * loop (no bounds check).  The border fixes are `if (by == 0) ... else if
 * (by == gridDim.y - 1)`: the first arm under one unknown branch (0.5),
 * the second under the else and its own test (0.5 x 0.5 = 0.25); the
 * if/else chain that picks n, s, w, e and the clamp of c read shared
 * memory and registers only.
 *   srad_cuda_1: J_cuda R: index_n, index_s 1 + 1, the north fix 0.5, the
 *     south fix 0.25, index_w, index_e 1 + 1, the west fix 0.5, the east
 *     fix 0.25, index 1 = 6.5, 26 B; C_cuda, E_C, W_C, S_C, N_C W 1 each,
 *     4 B
 *   srad_cuda_2: J_cuda R 1 (index) + W 1 (the update) = 2, 8 B; C_cuda R:
 *     index_s 1, its fix (if by is the last row: 0.5), index_e 1, its fix
 *     0.5, index 1 = 4, 16 B; N_C, S_C, W_C, E_C R 1 each, 4 B */
static size_t sr_uses(const void *impl, const struct wl_kernel *k,
                      struct wl_use *out, size_t max)
{
    (void)impl;
    struct wl_use u[6];
    size_t n = 0;
    const unsigned R = WL_USE_R, W = WL_USE_W, RW = WL_USE_R | WL_USE_W;
#define USE(al, md, f) (u[n++] = (struct wl_use){ (al), (md), (f), (f) * 4 })
    if (k->id == 0) {
        USE(SR_J, R, 2 + 0.5 + 0.5 * 0.5 + 2 + 0.5 + 0.5 * 0.5 + 1);
        USE(SR_C, W, 1); USE(SR_E, W, 1); USE(SR_W, W, 1); USE(SR_S, W, 1); USE(SR_N, W, 1);
    } else {
        USE(SR_J, RW, 1 + 1); USE(SR_C, R, 1 + 0.5 + 1 + 0.5 + 1);
        USE(SR_N, R, 1); USE(SR_S, R, 1); USE(SR_W, R, 1); USE(SR_E, R, 1);
    }
#undef USE
    for (size_t i = 0; i < n && i < max; i++) out[i] = u[i];
    return n;
}

static void *sr_create(struct workload *wl, const struct config *cfg)
{
    struct srad *m = xcalloc(1, sizeof *m);
    m->rows = cfg_u64(cfg, "workload.srad.rows");
    m->cols = cfg_u64(cfg, "workload.srad.cols");
    m->iters = cfg_u64(cfg, "workload.srad.iterations");
    if (m->rows % SR_B || m->cols % SR_B)
        user_error("workload.srad.rows and workload.srad.cols must be multiples of 16 "
                   "(srad_v2's own restriction)");
    uint64_t n = m->rows * m->cols * 4;
    m->j = wl_add_alloc(wl, "J_cuda", n);
    m->c = wl_add_alloc(wl, "C_cuda", n);
    m->e = wl_add_alloc(wl, "E_C", n);
    m->w = wl_add_alloc(wl, "W_C", n);
    m->n = wl_add_alloc(wl, "N_C", n);
    m->s = wl_add_alloc(wl, "S_C", n);
    m->g.npos = sr_npos;
    m->g.lane = sr_lane;
    struct wl_prog *p = &m->g.prog;
    struct dim3 grid = { (uint32_t)(m->cols / SR_B), (uint32_t)(m->rows / SR_B), 1 };
    struct dim3 blk = { SR_B, SR_B, 1 };
    wl_prog_host(p, WL_STEP_MEMCPY, 0, 0, n, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_kernel(p, "srad_cuda_1", 0, grid, blk, 32, 6 * SR_B * SR_B * 4);
    wl_prog_kernel(p, "srad_cuda_2", 1, grid, blk, 28, 5 * SR_B * SR_B * 4);
    wl_prog_host(p, WL_STEP_MEMCPY, 0, 0, n, WL_TO_HOST, WL_ADV_NONE);
    wl_prog_loop(p, 0, m->iters);
    wl->kernel_uses = sr_uses;
    return m;
}

static const struct workload_ops sr_ops = {
    "srad", sr_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info srad_info = {
    &sr_ops, srad_config_keys,
    "Rodinia 3.1 srad_v2 srad_kernel.cu, srad_cuda_1 + srad_cuda_2 per iteration with the "
    "host's copies of J; HPE Table II type II (SRD).",
    "6 x 4*rows*cols bytes (J_cuda, C_cuda, E_C, W_C, N_C, S_C), all touched",
};

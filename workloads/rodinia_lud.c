/* Rodinia lud: blocked LU decomposition in place.  Source: Rodinia 3.1
 * lud/cuda/lud_kernel.cu, lud_cuda: for offset i = 0, 16, .. < dim-16:
 * lud_diagonal (1 block of 16), lud_perimeter ((dim-i)/16-1 blocks of 32),
 * lud_internal (((dim-i)/16-1)^2 blocks of 16x16); then lud_diagonal at
 * the last offset; the matrix copied in before and out after (lud.cu).
 * HPE (Yu et al. 2020) Sec. III lists it (footprint too small there).
 * Defaults: dim = 2048 (the largest input Rodinia ships).
 *
 * lud_diagonal, thread tx: load m[(i+r)*dim + i + tx] for r < 16; sync;
 *   15 x (sync, sync) of shared-memory elimination; store
 *   m[(i+r)*dim + i + tx] for r = 1..15.
 * lud_perimeter, block bx: threads tx < 16 (then, as SIMT serialises the
 *   branches, tx >= 16 with idx = tx-16) load the diagonal tile's rows 0..7
 *   (8..15) and the row (column) tile's 16 rows; sync; (solve) sync; store
 *   the row tile's rows 1..15 (the column tile's 16 rows).
 * lud_internal, block (bx, by), thread (tx, ty): load m[(i+ty)*dim + c +
 *   tx], m[(r+ty)*dim + i + tx]; sync; load and store m[(r+ty)*dim + c+tx]
 *   with r = i + (by+1)*16, c = i + (bx+1)*16. */
#include <stdio.h>
#include "gen.h"

#define LB 16

struct lud {
    struct wl_simple g;
    uint64_t dim, m, step;
};

const struct cfg_key lud_config_keys[] = {
    {"workload.lud.dim", CFG_INT, "2048", 32, 1e6, NULL, "matrix order (a multiple of 16)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static const uint8_t lud_positions[3] = { 62, 81, 5 };

static uint64_t lud_npos(const void *impl, const struct warp_ctx *w)
{ (void)impl; return lud_positions[w->k->id]; }

static bool lud_lane(const void *impl, const struct warp_ctx *w,
                     const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct lud *m = impl;
    uint64_t dim = m->dim, off = w->k->arg, tx = t->tx;
    op->size = 4;
    op->compute = 0;
    op->op = INST_LOAD;
    if (w->k->id == 0) {
        if (pos < 16) { op->addr = m->m + ((off + pos) * dim + off + tx) * 4; return true; }
        if (pos < 47) { op->op = INST_BARRIER; op->compute = pos > 16 ? 8 : 0; return true; }
        op->op = INST_STORE;
        op->addr = m->m + ((off + pos - 46) * dim + off + tx) * 4;
        return true;
    }
    if (w->k->id == 1) {
        uint64_t tile = off + ((uint64_t)t->bx + 1) * LB;
        bool row = tx < LB;
        uint64_t idx = row ? tx : tx - LB;
        if (pos == 48 || pos == 49) { op->op = INST_BARRIER; op->compute = pos == 49 ? 40 : 0; return true; }
        if (pos < 48) {
            if (row != (pos < 24)) return false;
            uint64_t r = pos % 24;
            if (r < 8)
                op->addr = m->m + ((off + (row ? r : r + 8)) * dim + off + idx) * 4;
            else if (row)
                op->addr = m->m + ((off + r - 8) * dim + tile + idx) * 4;
            else
                op->addr = m->m + ((tile + r - 8) * dim + off + idx) * 4;
            return true;
        }
        op->op = INST_STORE;
        if (pos < 65) {
            if (!row) return false;
            op->addr = m->m + ((off + pos - 49) * dim + tile + idx) * 4;
        } else {
            if (row) return false;
            op->addr = m->m + ((tile + pos - 65) * dim + off + idx) * 4;
        }
        return true;
    }
    uint64_t r = off + ((uint64_t)t->by + 1) * LB, c = off + ((uint64_t)t->bx + 1) * LB;
    uint64_t ty = t->ty;
    switch (pos) {
    case 0: op->addr = m->m + ((off + ty) * dim + c + tx) * 4; return true;
    case 1: op->addr = m->m + ((r + ty) * dim + off + tx) * 4; return true;
    case 2: op->op = INST_BARRIER; return true;
    case 3: op->addr = m->m + ((r + ty) * dim + c + tx) * 4; op->compute = 16; return true;
    default: op->op = INST_STORE; op->addr = m->m + ((r + ty) * dim + c + tx) * 4; return true;
    }
}

/* Copy in; 3 launches per offset; the last diagonal; copy out. */
static bool lud_next_step(void *impl, struct wl_step *out)
{
    struct lud *m = impl;
    uint64_t s = m->step++, bytes = m->dim * m->dim * 4, iters = m->dim / LB - 1;
    if (s == 0 || s == 3 * iters + 2) {
        out->kind = WL_STEP_MEMCPY;
        out->host = (struct wl_host_step){ 0, 0, bytes, s ? WL_TO_HOST : WL_TO_GPU,
                                           WL_ADV_NONE, false, false };
        return true;
    }
    if (s > 3 * iters + 2) return false;
    s -= 1;
    uint64_t it = s / 3, which = s % 3, off = it * LB;
    if (it == iters) which = 0;
    uint32_t n = (uint32_t)((m->dim - off) / LB - 1);
    static const char *const names[3] = { "lud_diagonal", "lud_perimeter", "lud_internal" };
    struct wl_kernel *k = &out->kernel;
    out->kind = WL_STEP_KERNEL;
    snprintf(k->name, sizeof k->name, "%s", names[which]);
    k->id = (uint32_t)which;
    k->arg = off;
    k->grid = which == 0 ? (struct dim3){ 1, 1, 1 } : which == 1 ? (struct dim3){ n, 1, 1 }
                                                                 : (struct dim3){ n, n, 1 };
    k->block = which == 0 ? (struct dim3){ LB, 1, 1 } : which == 1 ? (struct dim3){ 2 * LB, 1, 1 }
                                                                   : (struct dim3){ LB, LB, 1 };
    k->regs_per_thread = 24;
    k->smem_per_block = (which == 1 ? 3 : which == 2 ? 2 : 1) * LB * LB * 4;
    return true;
}

static void *lud_create(struct workload *wl, const struct config *cfg)
{
    struct lud *m = xcalloc(1, sizeof *m);
    m->dim = cfg_u64(cfg, "workload.lud.dim");
    if (m->dim % LB) user_error("workload.lud.dim must be a multiple of 16");
    m->m = wl_add_alloc(wl, "m", m->dim * m->dim * 4);
    m->g.npos = lud_npos;
    m->g.lane = lud_lane;
    return m;
}

static const struct workload_ops lud_ops = {
    "lud", lud_create, lud_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info lud_info = {
    &lud_ops, lud_config_keys,
    "Rodinia 3.1 lud_kernel.cu, lud_diagonal + lud_perimeter + lud_internal per 16-row "
    "offset, then lud_diagonal; HPE Sec. III (elided there as too small).",
    "4*dim^2 bytes (m), all touched",
};

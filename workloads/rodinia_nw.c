/* Rodinia nw: Needleman-Wunsch alignment, anti-diagonal waves of 16 x 16
 * tiles.  Source: Rodinia 3.1 nw/needle_kernel.cu, needle_cuda_shared_1
 * (launches i = 1 .. bw with i blocks) then needle_cuda_shared_2 (i = bw-1
 * .. 1), bw = dim/16, after copying both matrices in and before copying
 * the score matrix out (needle.cu); HPE (Yu et al. 2020) Table II type IV
 * (NW; Sec. IV: even and odd pages touched on different occasions); the
 * thrashing paper (Park et al.) NW.  Defaults: the run script, dim = 2048
 * (max_cols = 2049), one 16-thread block per tile.
 *
 * Tile (b_index_x, b_index_y) = (bx, i-1-bx) in shared_1, (bx+bw-i,
 * bw-bx-1) in shared_2; base = cols*16*b_index_y + 16*b_index_x, index =
 * base + tx + cols + 1, index_n = base + tx + 1, index_w = base + cols,
 * index_nw = base.  Thread tx:
 *   shared_1: if tx == 0 load matrix[index_nw]; for ty < 16 load
 *     ref[index + cols*ty]; sync; load matrix[index_w + cols*tx]; sync;
 *     load matrix[index_n]; sync
 *   shared_2: the 16 ref loads; sync; if tx == 0 load matrix[index_nw];
 *     load matrix[index_w + cols*tx]; sync; load matrix[index_n]; sync
 *   both: 16 + 15 wavefront steps in shared memory, each ending in sync;
 *     for ty < 16 store matrix[index + ty*cols]. */
#include "gen.h"

#define NW_B 16

struct nw {
    struct wl_simple g;
    uint64_t dim, cols, bw, ref, mat;
    uint64_t step;        /* program counter over the custom program */
};

const struct cfg_key nw_config_keys[] = {
    {"workload.nw.dim", CFG_INT, "2048", 16, 1e6, NULL,
     "sequence length (a multiple of 16; matrices are (dim+1)^2)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t nw_npos(const void *impl, const struct warp_ctx *w)
{ (void)impl; (void)w; return 69; }

static bool nw_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct nw *m = impl;
    uint64_t i = w->k->arg, bx = t->bx, tx = t->tx, cols = m->cols;
    bool first = w->k->id == 0;
    uint64_t bix = first ? bx : bx + m->bw - i, biy = first ? i - 1 - bx : m->bw - bx - 1;
    uint64_t base = cols * NW_B * biy + NW_B * bix;
    uint64_t index = base + tx + cols + 1;
    op->size = 4;
    op->compute = 0;
    op->op = INST_LOAD;
    if (pos >= 53) {
        op->op = INST_STORE;
        op->addr = m->mat + (index + (pos - 53) * cols) * 4;
        return true;
    }
    if (pos >= 21) { op->op = INST_BARRIER; op->compute = pos > 21 ? 4 : 0; return true; }
    if (pos == 20) { op->addr = m->mat + (base + tx + 1) * 4; return true; }
    if (pos == 19) { op->op = INST_BARRIER; return true; }
    if (first) {
        if (pos == 0) { if (tx) return false; op->addr = m->mat + base * 4; return true; }
        if (pos <= 16) { op->addr = m->ref + (index + cols * (pos - 1)) * 4; return true; }
        if (pos == 17) { op->op = INST_BARRIER; return true; }
        op->addr = m->mat + (base + cols + cols * tx) * 4;   /* pos 18 */
        return true;
    }
    if (pos < 16) { op->addr = m->ref + (index + cols * pos) * 4; return true; }
    if (pos == 16) { op->op = INST_BARRIER; return true; }
    if (pos == 17) { if (tx) return false; op->addr = m->mat + base * 4; return true; }
    op->addr = m->mat + (base + cols + cols * tx) * 4;       /* pos 18 */
    return true;
}

/* Copies in (2), shared_1 x bw, shared_2 x (bw-1), copy out (1). */
static bool nw_next_step(void *impl, struct wl_step *out)
{
    struct nw *m = impl;
    uint64_t s = m->step++, bw = m->bw, bytes = m->cols * m->cols * 4;
    if (s < 2) {
        out->kind = WL_STEP_MEMCPY;
        out->host = (struct wl_host_step){ (uint32_t)s, 0, bytes, WL_TO_GPU, WL_ADV_NONE, false, false };
        return true;
    }
    s -= 2;
    if (s < 2 * bw - 1) {
        bool first = s < bw;
        uint64_t i = first ? s + 1 : bw - 1 - (s - bw);
        out->kind = WL_STEP_KERNEL;
        struct wl_kernel *k = &out->kernel;
        snprintf(k->name, sizeof k->name, "%s", first ? "needle_cuda_shared_1"
                                                      : "needle_cuda_shared_2");
        k->id = first ? 0 : 1;
        k->arg = i;
        k->grid = (struct dim3){ (uint32_t)i, 1, 1 };
        k->block = (struct dim3){ NW_B, 1, 1 };
        k->regs_per_thread = 24;
        k->smem_per_block = ((NW_B + 1) * (NW_B + 1) + NW_B * NW_B) * 4;
        return true;
    }
    if (s == 2 * bw - 1) {
        out->kind = WL_STEP_MEMCPY;
        out->host = (struct wl_host_step){ 1, 0, bytes, WL_TO_HOST, WL_ADV_NONE, false, false };
        return true;
    }
    return false;
}

static void *nw_create(struct workload *wl, const struct config *cfg)
{
    struct nw *m = xcalloc(1, sizeof *m);
    m->dim = cfg_u64(cfg, "workload.nw.dim");
    if (m->dim % NW_B) user_error("workload.nw.dim must be a multiple of 16");
    m->cols = m->dim + 1;
    m->bw = m->dim / NW_B;
    m->ref = wl_add_alloc(wl, "referrence_cuda", m->cols * m->cols * 4);
    m->mat = wl_add_alloc(wl, "matrix_cuda", m->cols * m->cols * 4);
    m->g.npos = nw_npos;
    m->g.lane = nw_lane;
    return m;
}

static const struct workload_ops nw_ops = {
    "nw", nw_create, nw_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info nw_info = {
    &nw_ops, nw_config_keys,
    "Rodinia 3.1 needle_kernel.cu, needle_cuda_shared_1 x dim/16 then "
    "needle_cuda_shared_2 x (dim/16 - 1); HPE Table II type IV (NW); thrashing paper NW.",
    "2 x 4*(dim+1)^2 bytes; matrix_cuda all touched, referrence_cuda from element "
    "(1,1) to (dim,dim): pages of the byte span [4*(dim+2), 4*(dim+1)^2)",
};

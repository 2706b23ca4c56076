/* Rodinia backprop: one training step of a 2-layer perceptron, the GPU
 * part.  Source: Rodinia 3.1 backprop/backprop_cuda_kernel.cu,
 * bpnn_layerforward_CUDA then bpnn_adjust_weights_cuda, with the host's
 * copies around them (backprop_cuda.cu, bpnn_train_cuda); HPE (Yu et al.
 * 2020) Table II type III (BKP).  Defaults: the run script's 65536 input
 * units; 16 hidden units (hard-coded there); 16 x 16 blocks, grid
 * (1, in/16).
 *
 * Thread (tx, ty) of block by: index = 17*16*by + 17*ty + tx + 1 + 17,
 * index_in = 16*by + ty + 1, index_x = tx + 1, index_y = 16*by + ty + 1.
 * layerforward: if tx == 0 load input[index_in]; sync; load w[index]; sync;
 *   sync; 4 reduction steps each ending in sync; store w[index]; sync;
 *   if tx == 0 store partial_sum[by*16 + ty].
 * adjust_weights: load delta[index_x], ly[index_y], oldw[index], w[index];
 *   store w[index]; load delta[index_x], ly[index_y], oldw[index] again (the
 *   store may alias them); store oldw[index]; sync; if ty == 0 and by == 0:
 *   the same for w[index_x], oldw[index_x] without ly. */
#include "gen.h"

#define BP_H 16

struct backprop {
    struct wl_simple g;
    uint64_t in, input, out_hidden, w, psum, delta, oldw;
};

const struct cfg_key backprop_config_keys[] = {
    {"workload.backprop.in", CFG_INT, "65536", 16, 1e9, NULL,
     "input units (a multiple of 16; Rodinia run script: 65536)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t bp_npos(const void *impl, const struct warp_ctx *w)
{ (void)impl; return w->k->id == 0 ? 12 : 17; }

static bool bp_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct backprop *m = impl;
    uint64_t tx = t->tx, ty = t->ty, by = t->by, hp = BP_H + 1;
    uint64_t index = hp * BP_H * by + hp * ty + tx + 1 + hp;
    uint64_t index_in = BP_H * by + ty + 1, index_x = tx + 1;
    op->size = 4;
    op->compute = 0;
    op->op = INST_LOAD;
    if (w->k->id == 0) {
        switch (pos) {
        case 0: if (tx) return false; op->addr = m->input + index_in * 4; return true;
        case 2: op->addr = m->w + index * 4; return true;
        case 9: op->op = INST_STORE; op->addr = m->w + index * 4; return true;
        case 11: if (tx) return false;
                 op->op = INST_STORE; op->addr = m->psum + (by * BP_H + ty) * 4; return true;
        default: op->op = INST_BARRIER; op->compute = pos >= 4 && pos <= 8 ? 2 : 0; return true;
        }
    }
    if (pos == 9) { op->op = INST_BARRIER; return true; }
    if (pos > 9 && (ty || by)) return false;
    switch (pos) {
    case 0: case 5: case 10: case 14: op->addr = m->delta + index_x * 4; return true;
    case 1: case 6: op->addr = m->input + index_in * 4; return true;
    case 2: case 7: op->addr = m->oldw + index * 4; return true;
    case 3: op->addr = m->w + index * 4; return true;
    case 4: op->op = INST_STORE; op->compute = 4; op->addr = m->w + index * 4; return true;
    case 8: op->op = INST_STORE; op->compute = 4; op->addr = m->oldw + index * 4; return true;
    case 11: case 15: op->addr = m->oldw + index_x * 4; return true;
    case 12: op->addr = m->w + index_x * 4; return true;
    case 13: op->op = INST_STORE; op->compute = 3; op->addr = m->w + index_x * 4; return true;
    default: op->op = INST_STORE; op->compute = 3; op->addr = m->oldw + index_x * 4; return true;
    }
}

/* Allocation indices, in bp_create's order. */
enum { BP_INPUT, BP_OUT_HIDDEN, BP_W, BP_PSUM, BP_DELTA, BP_OLDW };

/* SC19 Sec. 4.1-4.2 as spec B.3.4 item 1 applies them (straight line 1,
 * unknown guard x 0.5, data-dependent loop x 32), per thread, S = 4 B
 * (every array is float).  The grid is the OpenMP port's parallel loop
 * and has no bounds check.  tx == 0 and ty == 0 && by == 0 are unknown
 * guards to the compiler (one if each: the && of two cheap compares is
 * one branch, docs/decisions.md).
 *   layerforward: input_cuda R under tx == 0: 0.5, 2 B; input_hidden_cuda
 *     R 1 (load) + W 1 (store after the reduction) = 2, 8 B; the
 *     reduction loop (i <= log2f(HEIGHT)) touches shared memory only;
 *     hidden_partial_sum W under tx == 0: 0.5, 2 B.  output_hidden_cuda
 *     is an argument the kernel never touches.
 *   adjust_weights (ly = input_cuda, the generator's and bpnn_train_cuda's
 *     argument): the two straight statements load delta, ly, oldw (twice:
 *     the store to w may alias them) and w, store w and oldw; the guarded
 *     pair (x 0.5) loads delta twice, oldw twice and w once, stores w and
 *     oldw.
 *     hidden_delta_cuda R 2 + 0.5 x 2 = 3, 12 B; input_cuda R 2, 8 B;
 *     input_prev_weights_cuda RW (2 + 1) + 0.5 x (2 + 1) = 4.5, 18 B;
 *     input_hidden_cuda RW (1 + 1) + 0.5 x (1 + 1) = 3, 12 B */
static size_t bp_uses(const void *impl, const struct wl_kernel *k,
                      struct wl_use *out, size_t max)
{
    (void)impl;
    struct wl_use u[4];
    size_t n = 0;
    const unsigned R = WL_USE_R, W = WL_USE_W, RW = WL_USE_R | WL_USE_W;
#define USE(al, md, f) (u[n++] = (struct wl_use){ (al), (md), (f), (f) * 4 })
    if (k->id == 0) {
        USE(BP_INPUT, R, 0.5); USE(BP_W, RW, 1 + 1); USE(BP_PSUM, W, 0.5);
    } else {
        USE(BP_DELTA, R, 2 + 0.5 * 2); USE(BP_INPUT, R, 2);
        USE(BP_OLDW, RW, 3 + 0.5 * 3); USE(BP_W, RW, 2 + 0.5 * 2);
    }
#undef USE
    for (size_t i = 0; i < n && i < max; i++) out[i] = u[i];
    return n;
}

static void *bp_create(struct workload *wl, const struct config *cfg)
{
    struct backprop *m = xcalloc(1, sizeof *m);
    m->in = cfg_u64(cfg, "workload.backprop.in");
    if (m->in % BP_H) user_error("workload.backprop.in must be a multiple of 16");
    uint64_t blocks = m->in / BP_H, wbytes = (m->in + 1) * (BP_H + 1) * 4;
    m->input = wl_add_alloc(wl, "input_cuda", (m->in + 1) * 4);
    m->out_hidden = wl_add_alloc(wl, "output_hidden_cuda", (BP_H + 1) * 4);
    m->w = wl_add_alloc(wl, "input_hidden_cuda", wbytes);
    m->psum = wl_add_alloc(wl, "hidden_partial_sum", blocks * BP_H * 4);
    m->delta = wl_add_alloc(wl, "hidden_delta_cuda", (BP_H + 1) * 4);
    m->oldw = wl_add_alloc(wl, "input_prev_weights_cuda", wbytes);
    m->g.npos = bp_npos;
    m->g.lane = bp_lane;
    struct wl_prog *p = &m->g.prog;
    struct dim3 grid = { 1, (uint32_t)blocks, 1 }, blk = { BP_H, BP_H, 1 };
    wl_prog_host(p, WL_STEP_MEMCPY, 0, 0, (m->in + 1) * 4, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_host(p, WL_STEP_MEMCPY, 2, 0, wbytes, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_kernel(p, "bpnn_layerforward_CUDA", 0, grid, blk, 16, (BP_H + BP_H * BP_H) * 4);
    wl_prog_host(p, WL_STEP_MEMCPY, 3, 0, blocks * BP_H * 4, WL_TO_HOST, WL_ADV_NONE);
    wl_prog_host(p, WL_STEP_MEMCPY, 4, 0, (BP_H + 1) * 4, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_host(p, WL_STEP_MEMCPY, 5, 0, wbytes, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_host(p, WL_STEP_MEMCPY, 2, 0, wbytes, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_kernel(p, "bpnn_adjust_weights_cuda", 1, grid, blk, 16, 0);
    wl_prog_host(p, WL_STEP_MEMCPY, 0, 0, (m->in + 1) * 4, WL_TO_HOST, WL_ADV_NONE);
    wl_prog_host(p, WL_STEP_MEMCPY, 2, 0, wbytes, WL_TO_HOST, WL_ADV_NONE);
    wl->kernel_uses = bp_uses;
    return m;
}

static const struct workload_ops bp_ops = {
    "backprop", bp_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info backprop_info = {
    &bp_ops, backprop_config_keys,
    "Rodinia 3.1 backprop_cuda_kernel.cu, bpnn_layerforward_CUDA then "
    "bpnn_adjust_weights_cuda with bpnn_train_cuda's copies; HPE Table II type III (BKP).",
    "4 x ((in+1) + 17 + 2*17*(in+1) + 16*(in/16) + 17) bytes; all touched but "
    "output_hidden_cuda (allocated, never used by the kernels)",
};

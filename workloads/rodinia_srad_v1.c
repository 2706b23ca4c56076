/* Rodinia srad_v1: speckle-reducing anisotropic diffusion over a
 * column-major image (the existing `srad` is srad_v2).  Source: Rodinia 3.1
 * srad/srad_v1/main.cu with extract_kernel.cu, prepare_kernel.cu,
 * reduce_kernel.cu, srad_kernel.cu, srad2_kernel.cu, compress_kernel.cu;
 * the thesis (Agarwal, Ch. V-VI, Table 2.1) runs it as srad_v1.
 * Defaults: the run script `./srad 100 0.5 502 458` (100 iterations, a
 * 502 x 458 image); NUMBER_THREADS 512.
 *
 * Program (main.cu): copies of iN, iS, jE, jW and of the image in; extract;
 * per iteration { prepare; reduce launched per level (blocks = ceil(Ne/512),
 * then ceil(blocks/512) ... down to one block; no = elements left, mul =
 * 512^level); copy of sums[0] and sums2[0] out (4 bytes each); srad; srad2 };
 * compress; copy of the image out.
 *
 * Thread ei = bx*512 + tx < Ne; row = (ei+1) % Nr - 1, col = (ei+1)/Nr
 * (row = Nr-1, col - 1 when (ei+1) % Nr == 0): element ei = row + Nr*col.
 * extract / compress: load I[ei], store I[ei].
 * prepare: load I[ei], store sums[ei], load I[ei], store sums2[ei] (the
 *   pointers are not __restrict__: the store to sums may alias I, so the
 *   second statement reads I again).
 * reduce: if ei < no: load sums[ei*mul], sums2[ei*mul]; barrier; full block
 *   (or any block but the last): 9 barriers (i = 2..512), thread 511 stores
 *   sums[bx*mul*512], sums2[...]; last partial block (nf = 512 -
 *   (gridDim*512 - no) elements): df = largest power of two <= nf, log2(df)
 *   barriers, thread df-1 loads sums[i], sums2[i] for i in [bx*512+df,
 *   bx*512+nf) (without mul, as the source) and stores the block's sums.
 * srad: load I[ei]; iN[row], I[iN[row] + Nr*col]; iS[row], I[...]; jW[col],
 *   I[row + Nr*jW[col]]; jE[col], I[...]; store dN, dS, then the parameter
 *   named dW (bound to the buffer d_dE by the call) and dE (d_dW), then c.
 * srad2: load c[ei]; iS[row], c[iS[row] + Nr*col]; (cW = c[ei] again, no
 *   store between: one load) jE[col], c[row + Nr*jE[col]]; dN, dS, then the
 *   parameters d_dW and d_dE, bound (as in srad) to the buffers d_dE and
 *   d_dW; I[ei]; store I[ei].
 * prepare, srad and srad2 write whole 128-byte lines of arrays they do not
 * read first (sums, sums2, dN, dS, dW, dE, c): the write-allocate fills the
 * thesis discusses for srad_v1 (Sec. 6.4.1.1). */
#include "gen.h"

#define SV_T 512

enum { SV_EXTRACT, SV_PREPARE, SV_SRAD, SV_SRAD2, SV_COMPRESS, SV_REDUCE };
enum { A_I, A_IN, A_IS, A_JE, A_JW, A_SUMS, A_SUMS2, A_DN, A_DS, A_DW, A_DE, A_C };

struct srad1 {
    struct wl_simple g;
    uint64_t nr, nc, ne, iters;
    uint64_t a[12];
    uint32_t levels;
    uint64_t blocks[8], no[8], mul[8];
};

const struct cfg_key srad_v1_config_keys[] = {
    {"workload.srad_v1.rows", CFG_INT, "502", 1, 1e6, NULL, "image rows Nr (run script: 502)"},
    {"workload.srad_v1.cols", CFG_INT, "458", 1, 1e6, NULL, "image columns Nc (run script: 458)"},
    {"workload.srad_v1.iterations", CFG_INT, "100", 1, 1e6, NULL,
     "iterations niter (run script: 100)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void sv_rowcol(const struct srad1 *m, uint64_t ei, uint64_t *row, uint64_t *col)
{
    uint64_t r = (ei + 1) % m->nr, c = (ei + 1) / m->nr;
    if (r == 0) { *row = m->nr - 1; *col = c - 1; }
    else { *row = r - 1; *col = c; }
}

static uint64_t sv_in(uint64_t r) { return r == 0 ? 0 : r - 1; }
static uint64_t sv_is(const struct srad1 *m, uint64_t r) { return r == m->nr - 1 ? r : r + 1; }
static uint64_t sv_jw(uint64_t c) { return c == 0 ? 0 : c - 1; }
static uint64_t sv_je(const struct srad1 *m, uint64_t c) { return c == m->nc - 1 ? c : c + 1; }

/* Last block of a reduce level: elements it holds and the power of two
 * its tree covers (0 when nf == 1, as the source's loop leaves it). */
static void sv_last(const struct srad1 *m, uint32_t lv, uint64_t *nf, uint64_t *df)
{
    *nf = SV_T - (m->blocks[lv] * SV_T - m->no[lv]);
    *df = 0;
    for (uint64_t i = 2; i <= SV_T; i *= 2)
        if (*nf >= i) *df = i;
}

static uint32_t sv_log2(uint64_t x) { uint32_t l = 0; while (x > 1) { x /= 2; l++; } return l; }

static uint64_t sv_npos(const void *impl, const struct warp_ctx *w)
{
    const struct srad1 *m = impl;
    switch (w->k->id) {
    case SV_EXTRACT: case SV_COMPRESS: return 2;
    case SV_PREPARE: return 4;
    case SV_SRAD: return 14;
    case SV_SRAD2: return 11;
    default: break;
    }
    /* reduce: 2 loads, barrier, 9 tree barriers, remainder loads, 2 stores */
    uint32_t lv = w->k->id - SV_REDUCE;
    uint64_t nf, df;
    sv_last(m, lv, &nf, &df);
    bool last_partial = nf != SV_T && w->block == m->blocks[lv] - 1;
    uint64_t rem = last_partial && df > 0 && (df - 1) / WARP_SIZE == w->warp ? nf - df : 0;
    return 12 + 2 * rem + 2;
}

static bool sv_reduce(const struct srad1 *m, const struct warp_ctx *w,
                      const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    uint32_t lv = w->k->id - SV_REDUCE;
    uint64_t bx = t->bx, tx = t->tx, ei = bx * SV_T + tx, mul = m->mul[lv], nf, df;
    sv_last(m, lv, &nf, &df);
    bool partial = nf != SV_T && bx == m->blocks[lv] - 1;
    uint64_t nbar = partial ? sv_log2(df) : 9, leader = partial ? df - 1 : SV_T - 1;
    uint64_t rem = partial ? nf - df : 0;
    op->size = 4;
    op->compute = 0;
    if (pos < 2) {
        if (ei >= m->no[lv]) return false;
        op->op = INST_LOAD;
        op->addr = m->a[pos ? A_SUMS2 : A_SUMS] + ei * mul * 4;
        return true;
    }
    if (pos < 12) {
        if (pos - 2 > nbar) return false;
        op->op = INST_BARRIER;
        op->compute = pos > 2 ? 2 : 0;      /* the shared-memory add */
        return true;
    }
    if (tx != leader || (partial && df == 0)) return false;
    uint64_t k = pos - 12;
    op->op = INST_LOAD;
    if (k < 2 * rem) {
        op->addr = m->a[k % 2 ? A_SUMS2 : A_SUMS] + (bx * SV_T + df + k / 2) * 4;
        return true;
    }
    op->op = INST_STORE;
    op->addr = m->a[(k - 2 * rem) ? A_SUMS2 : A_SUMS] + bx * mul * SV_T * 4;
    return true;
}

static bool sv_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct srad1 *m = impl;
    if (w->k->id >= SV_REDUCE) return sv_reduce(m, w, t, pos, op);
    uint64_t ei = (uint64_t)t->bx * SV_T + t->tx, row, col;
    if (ei >= m->ne) return false;
    sv_rowcol(m, ei, &row, &col);
    uint64_t nr = m->nr, arr = m->a[A_I], idx = ei;
    op->op = INST_LOAD;
    op->size = 4;
    op->compute = 0;
    switch (w->k->id) {
    case SV_EXTRACT: case SV_COMPRESS:
        if (pos == 1) { op->op = INST_STORE; op->compute = 8; }   /* exp / log */
        break;
    case SV_PREPARE:
        if (pos % 2) { op->op = INST_STORE; arr = m->a[pos == 1 ? A_SUMS : A_SUMS2]; }
        break;
    case SV_SRAD:
        switch (pos) {
        case 0: break;
        case 1: arr = m->a[A_IN]; idx = row; break;
        case 2: idx = sv_in(row) + nr * col; break;
        case 3: arr = m->a[A_IS]; idx = row; break;
        case 4: idx = sv_is(m, row) + nr * col; break;
        case 5: arr = m->a[A_JW]; idx = col; break;
        case 6: idx = row + nr * sv_jw(col); break;
        case 7: arr = m->a[A_JE]; idx = col; break;
        case 8: idx = row + nr * sv_je(m, col); break;
        default: {
            static const int st[5] = { A_DN, A_DS, A_DE, A_DW, A_C };
            op->op = INST_STORE;
            op->compute = pos == 9 ? 24 : 0;    /* G2, L, qsqr, c: ~24 FP ops */
            arr = m->a[st[pos - 9]];
            break;
        }
        }
        break;
    default:    /* SV_SRAD2 */
        switch (pos) {
        case 0: arr = m->a[A_C]; break;
        case 1: arr = m->a[A_IS]; idx = row; break;
        case 2: arr = m->a[A_C]; idx = sv_is(m, row) + nr * col; break;
        case 3: arr = m->a[A_JE]; idx = col; break;
        case 4: arr = m->a[A_C]; idx = row + nr * sv_je(m, col); break;
        case 5: arr = m->a[A_DN]; break;
        case 6: arr = m->a[A_DS]; break;
        case 7: arr = m->a[A_DE]; break;     /* parameter d_dW */
        case 8: arr = m->a[A_DW]; break;     /* parameter d_dE */
        case 9: break;
        default: op->op = INST_STORE; op->compute = 8; break;
        }
        break;
    }
    op->addr = arr + idx * 4;
    return true;
}

static void *sv_create(struct workload *wl, const struct config *cfg)
{
    struct srad1 *m = xcalloc(1, sizeof *m);
    m->nr = cfg_u64(cfg, "workload.srad_v1.rows");
    m->nc = cfg_u64(cfg, "workload.srad_v1.cols");
    m->iters = cfg_u64(cfg, "workload.srad_v1.iterations");
    m->ne = m->nr * m->nc;
    /* Reduce levels as main.cu's while loop launches them. */
    uint64_t b = (m->ne + SV_T - 1) / SV_T, no = m->ne, mul = 1;
    for (;;) {
        if (m->levels == 3)
            user_error("workload.srad_v1: %llu elements need more than 3 reduce levels "
                       "(rows * cols must not exceed 512^3)", (unsigned long long)m->ne);
        m->blocks[m->levels] = b;
        m->no[m->levels] = no;
        m->mul[m->levels++] = mul;
        if (b == 1) break;
        no = b;
        mul *= SV_T;
        b = (b + SV_T - 1) / SV_T;
    }
    static const char *const names[12] = { "d_I", "d_iN", "d_iS", "d_jE", "d_jW", "d_sums",
        "d_sums2", "d_dN", "d_dS", "d_dW", "d_dE", "d_c" };
    for (int i = 0; i < 12; i++) {
        uint64_t n = i == A_IN || i == A_IS ? m->nr : i == A_JE || i == A_JW ? m->nc : m->ne;
        m->a[i] = wl_add_alloc(wl, names[i], n * 4);
    }
    m->g.npos = sv_npos;
    m->g.lane = sv_lane;
    struct wl_prog *p = &m->g.prog;
    struct dim3 grid = { (uint32_t)m->blocks[0], 1, 1 }, blk = { SV_T, 1, 1 };
    for (int i = A_IN; i <= A_JW; i++)
        wl_prog_host(p, WL_STEP_MEMCPY, (uint32_t)i, 0, wl->allocs[i].size, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_host(p, WL_STEP_MEMCPY, A_I, 0, m->ne * 4, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_kernel(p, "extract", SV_EXTRACT, grid, blk, 8, 0);
    uint32_t body = p->n;
    wl_prog_kernel(p, "prepare", SV_PREPARE, grid, blk, 8, 0);
    for (uint32_t l = 0; l < m->levels; l++)
        wl_prog_kernel(p, "reduce", SV_REDUCE + l, (struct dim3){ (uint32_t)m->blocks[l], 1, 1 },
                       blk, 12, 2 * SV_T * 4);
    wl_prog_host(p, WL_STEP_MEMCPY, A_SUMS, 0, 4, WL_TO_HOST, WL_ADV_NONE);
    wl_prog_host(p, WL_STEP_MEMCPY, A_SUMS2, 0, 4, WL_TO_HOST, WL_ADV_NONE);
    wl_prog_kernel(p, "srad", SV_SRAD, grid, blk, 24, 0);
    wl_prog_kernel(p, "srad2", SV_SRAD2, grid, blk, 20, 0);
    wl_prog_loop(p, body, m->iters);
    wl_prog_kernel(p, "compress", SV_COMPRESS, grid, blk, 8, 0);
    wl_prog_host(p, WL_STEP_MEMCPY, A_I, 0, m->ne * 4, WL_TO_HOST, WL_ADV_NONE);
    return m;
}

static const struct workload_ops sv_ops = {
    "srad_v1", sv_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info srad_v1_info = {
    &sv_ops, srad_v1_config_keys,
    "Rodinia 3.1 srad_v1 main.cu: extract, then per iteration prepare, reduce (one launch "
    "per level), the copies of the two sums out, srad, srad2; compress; thesis (Agarwal) "
    "srad_v1.",
    "8 x 4*Ne + 8*rows + 8*cols bytes, Ne = rows*cols (d_I, d_sums, d_sums2, d_dN, d_dS, "
    "d_dW, d_dE, d_c and the four index arrays), all touched",
};

/* Parboil spmv: sparse matrix-vector product in JDS format.  Source:
 * Parboil 2.5 spmv/src/cuda, spmv_jds (jds_kernels.cu; the jagged-column
 * starts jds_ptr_int and the per-warp row lengths sh_zcnt_int sit in
 * __constant__ memory), launched `iterations` times; block and grid from
 * compute_active_thread for a Fermi GPU with gpu.sms SMs (192 threads and
 * ceil(32*warps/192) blocks when 32*warps > sms*1536, else 32 threads and
 * one block per warp), so each thread handles one JDS row; HPE (Yu et al.
 * 2020) Table II type V (SPV).
 *
 * Matrix (generated, not stored): dim rows; row r has nnz(r) = 1 +
 * mix(seed + r) mod (2*avg_nnz - 1) entries in columns mix(seed ^ C +
 * r*2*avg_nnz + k) mod dim (C = 0x5bd1e995, mix = splitmix64's finaliser,
 * seed = mix(sim.seed)).  JDS as coo_to_jds builds it with pad 32: rows
 * sorted by nnz, longest first (ties by row), perm[ix] the original row;
 * warp w's bound = nnz(perm[32w]); jagged column k holds 32 entries per warp
 * whose bound exceeds k, so j = jds_ptr[k] + ix; padding entries have
 * column 0.  The sort is the one per-row host array (4 bytes a row).
 *
 * Thread ix < dim, bound = sh_zcnt[ix/32]: load data[j0], index[j0],
 * x[i0]; if bound > 1: load index[j1]; for k = 2 .. bound-1: load
 * data[j(k-1)], index[j(k)], x[i(k-1)]; load data[j(last)], x[i(last)];
 * then load perm[ix] and store dst[perm[ix]]. */
#include <stdlib.h>
#include "gen.h"

struct spmv {
    struct wl_simple g;
    uint64_t dim, avg, seed, depth, len, iters;
    uint32_t *perm;       /* JDS row -> original row */
    uint64_t *ptr;        /* jds_ptr: start of jagged column k */
    uint64_t data, index, dptr, dperm, nzcnt, x, ax;
};

const struct cfg_key spmv_config_keys[] = {
    {"workload.spmv.dim", CFG_INT, "146689", 32, 1e9, NULL,
     "matrix rows and columns (Parboil large input Dubcova3: 146689)"},
    {"workload.spmv.avg_nnz", CFG_INT, "25", 1, 1e4, NULL,
     "mean nonzeros per row (Dubcova3: about 25)"},
    {"workload.spmv.iterations", CFG_INT, "50", 1, 1e6, NULL, "launches of spmv_jds"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t nnz_of(const struct spmv *m, uint64_t r)
{ return 1 + wl_mix(m->seed + r) % (2 * m->avg - 1); }

static uint64_t col_of(const struct spmv *m, uint64_t r, uint64_t k)
{
    if (k >= nnz_of(m, r)) return 0;                /* padding */
    return wl_mix((m->seed ^ 0x5bd1e995ULL) + r * 2 * m->avg + k) % m->dim;
}

static uint64_t bound_of(const struct spmv *m, uint64_t warp)
{ return nnz_of(m, m->perm[warp * 32]); }

static uint64_t spmv_npos(const void *impl, const struct warp_ctx *w)
{
    const struct spmv *m = impl;
    uint64_t ix0 = ((uint64_t)w->block * w->k->block.x) + (uint64_t)w->warp * WARP_SIZE;
    if (ix0 >= m->dim) return 0;
    uint64_t b = bound_of(m, ix0 / 32);
    return 3 + (b > 1 ? 3 + 3 * (b - 2) : 0) + 2;
}

static bool spmv_lane(const void *impl, const struct warp_ctx *w,
                      const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct spmv *m = impl;
    uint64_t ix = (uint64_t)t->bx * w->k->block.x + t->tx;
    if (ix >= m->dim) return false;
    uint64_t b = bound_of(m, ix / 32), row = m->perm[ix];
    uint64_t body = b > 1 ? 3 + 3 * (b - 2) : 0;
    op->size = 4;
    op->compute = 0;
    op->op = INST_LOAD;
    if (pos >= 3 + body) {
        if (pos == 3 + body) { op->addr = m->dperm + ix * 4; return true; }
        op->op = INST_STORE;
        op->compute = 2;
        op->addr = m->ax + row * 4;
        return true;
    }
    uint64_t k, what;       /* what: 0 data[j(k)], 1 index[j(k)], 2 x[i(k)] */
    if (pos < 3) { k = 0; what = pos; }
    else if (pos == 3) { k = 1; what = 1; }
    else if (pos < 4 + 3 * (b - 2)) {
        uint64_t q = (pos - 4) / 3, r = (pos - 4) % 3;
        k = r == 1 ? q + 2 : q + 1;
        what = r;
    } else { k = b - 1; what = pos == 4 + 3 * (b - 2) ? 0 : 2; }
    uint64_t j = m->ptr[k] + ix;
    if (what == 0) op->addr = m->data + j * 4;
    else if (what == 1) op->addr = m->index + j * 4;
    else { op->addr = m->x + col_of(m, row, k) * 4; op->compute = 2; }
    return true;
}

/* Rows by nnz, longest first, ties by row number (a counting sort). */
static void build_jds(struct spmv *m)
{
    uint64_t maxn = 2 * m->avg - 1;
    uint64_t *count = xcalloc(maxn + 2, sizeof *count);
    for (uint64_t r = 0; r < m->dim; r++) count[nnz_of(m, r)]++;
    uint64_t *start = xcalloc(maxn + 2, sizeof *start);
    for (uint64_t n = maxn, at = 0; n >= 1; n--) { start[n] = at; at += count[n]; }
    m->perm = xmalloc(m->dim * sizeof *m->perm);
    for (uint64_t r = 0; r < m->dim; r++) m->perm[start[nnz_of(m, r)]++] = (uint32_t)r;
    m->depth = nnz_of(m, m->perm[0]);
    m->ptr = xcalloc(m->depth + 1, sizeof *m->ptr);
    uint64_t warps = (m->dim + 31) / 32;
    /* Bounds fall with the warp index, so the warps whose bound exceeds k
     * are a prefix that shrinks as k grows. */
    uint64_t w = warps;
    for (uint64_t k = 0; k < m->depth; k++) {
        while (w > 0 && bound_of(m, w - 1) <= k) w--;
        m->ptr[k + 1] = m->ptr[k] + 32 * w;
    }
    m->len = m->ptr[m->depth];
    free(count);
    free(start);
}

static void *spmv_create(struct workload *wl, const struct config *cfg)
{
    struct spmv *m = xcalloc(1, sizeof *m);
    m->dim = cfg_u64(cfg, "workload.spmv.dim");
    m->avg = cfg_u64(cfg, "workload.spmv.avg_nnz");
    m->iters = cfg_u64(cfg, "workload.spmv.iterations");
    m->seed = wl_mix(cfg_u64(cfg, "sim.seed"));
    build_jds(m);
    uint64_t warps = (m->dim + 31) / 32;
    m->data = wl_add_alloc(wl, "d_data", m->len * 4);
    m->index = wl_add_alloc(wl, "d_indices", m->len * 4);
    m->dptr = wl_add_alloc(wl, "d_ptr", m->depth * 4);
    m->dperm = wl_add_alloc(wl, "d_perm", m->dim * 4);
    m->nzcnt = wl_add_alloc(wl, "d_nzcnt", warps * 4);
    m->x = wl_add_alloc(wl, "d_x_vector", m->dim * 4);
    m->ax = wl_add_alloc(wl, "d_Ax_vector", m->dim * 4);
    m->g.npos = spmv_npos;
    m->g.lane = spmv_lane;
    /* compute_active_thread, Fermi (1536 threads, 8 blocks per SM). */
    uint64_t sms = cfg_u64(cfg, "gpu.sms"), block = 32, grid = warps;
    if (warps * 32 > sms * 1536) { block = 1536 / 8; grid = (warps * 32 + block - 1) / block; }
    wl_prog_kernel(&m->g.prog, "spmv_jds", 0, (struct dim3){ (uint32_t)grid, 1, 1 },
                   (struct dim3){ (uint32_t)block, 1, 1 }, 20, 0);
    wl_prog_loop(&m->g.prog, 0, m->iters);
    return m;
}

static void spmv_destroy(void *impl)
{
    struct spmv *m = impl;
    free(m->perm);
    free(m->ptr);
    free(m);
}

static const struct workload_ops spmv_ops = {
    "spmv", spmv_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, spmv_destroy,
};

const struct wl_info spmv_info = {
    &spmv_ops, spmv_config_keys,
    "Parboil 2.5 spmv jds_kernels.cu, spmv_jds x iterations over a seeded random matrix "
    "in JDS form; HPE Table II type V (SPV).",
    "4 x (2*len + depth + 3*dim + ceil(dim/32)) bytes, len = 32 x the sum of the warps' "
    "longest rows, depth = the longest row; d_ptr and d_nzcnt untouched (the kernel reads "
    "__constant__ copies), d_x_vector touched at the matrix's columns (and 0 for padding), "
    "the rest all touched when dim is a multiple of 32",
};

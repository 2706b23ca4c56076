/* minife: Mantevo miniFE's sparse matrix-vector product over its 27-point
 * finite-element matrix, as the thesis's simulator ran it: NVIDIA's
 * proxy-apps-doe/minife_matvec_ell (gpgpu-sim_simulations; main.cu,
 * matrix.h, kernels.h: `matvec <nx>x<ny>x<nz>.mtx 0`, alg 0 =
 * matvec_ell_kernel).  Thesis (Agarwal) minife; ref. [21] Heroux et al.
 * With workload.minife.solver=cg the same ELL product runs inside miniFE's
 * conjugate-gradient loop (miniFE cg_solve.hpp) with the CUDA port's vector
 * kernels (miniFE cuda Vector_functions: waxpby_kernel, dot_kernel +
 * dot_final_reduce_kernel).
 *
 * Matrix (generated, never stored): an nx x ny x nz brick of elements has
 * N = (nx+1)(ny+1)(nz+1) nodes, node id x + (nx+1)*(y + (ny+1)*z); row r
 * holds the nodes at offsets -1..1 in each dimension inside the brick,
 * columns ascending (8 to 27 per row).  ELL (matrix.h ELLMatrix::allocate
 * with 27 entries per row): pitch = N rounded up to 16 (128 bytes / 8),
 * entry j of row r at [j*pitch + r], column -1 past the row's end.
 *
 * matvec_ell_kernel<<<min(ceil(N/256), 4096), 256>>>, rows grid-strided:
 *   for j < 27: load cols[off]; if c != -1: load coefs[off], load x[c];
 *   off += pitch; then store y[row].
 * waxpby_kernel<<<min(ceil(N/256), 32768), 256>>>, grid-strided:
 *   load x[i], load y[i], store w[i] (two loads even when x and y are the
 *   same vector: the compiler cannot know).
 * dot_kernel<<<min(1024, ceil(N/512)), 512>>>: grid-strided loads x[i],
 *   y[i]; 4 barriers of the shared-memory tree; thread 0 stores d[bx].
 * dot_final_reduce_kernel<<<1, 1024>>>: load d[tid]; 5 barriers; thread 0
 *   stores d[0]; the host copies d[0] out (8 bytes).
 * The cudaMemset of d before each dot is not modelled (no memset step).
 *
 * solver=matvec (default; main.cu): allocations x, y, the ELL cols and
 * coefs, the CSR row_offsets, cols and coefs (copied in, never read by the
 * ELL kernel; y_gold is never touched and is left out); copies of the CSR
 * and ELL matrices and of x in; one matvec.
 * solver=cg (cg_solve.hpp): copies of the ELL matrix, b and x in;
 * waxpby(x,0,x -> p); matvec(p -> Ap); waxpby(b,-1,Ap -> r); dot(r,r);
 * for k = 1..cg_iterations { k == 1: waxpby(r,0,r -> p); else dot(r,r),
 * waxpby(r,beta,p -> p); matvec(p -> Ap); dot(Ap,p); waxpby(x,alpha,p ->
 * x); waxpby(r,-alpha,Ap -> r) }; x copied out. */
#include <string.h>
#include "gen.h"

#define MF_NNZ 27

enum { K_MATVEC, K_WAXPBY, K_DOT, K_DOTF };
/* vectors of the cg solver */
enum { V_X, V_B, V_R, V_P, V_AP, V_N };

struct minife {
    struct wl_simple g;
    uint64_t ex, ey, ez, nx, ny, nz, n, pitch, nnz, iters;
    bool cg;
    uint64_t cols, coefs, vec[V_N], y, d;
    uint32_t acols, acoefs, avec[V_N], ad;
    int pc;
    uint64_t k;
};

const struct cfg_key minife_config_keys[] = {
    {"workload.minife.nx", CFG_INT, "64", 1, 2000, NULL,
     "elements in x (NVIDIA matvec driver input 64x64x64.mtx)"},
    {"workload.minife.ny", CFG_INT, "64", 1, 2000, NULL, "elements in y (64x64x64.mtx)"},
    {"workload.minife.nz", CFG_INT, "64", 1, 2000, NULL, "elements in z (64x64x64.mtx)"},
    {"workload.minife.solver", CFG_ENUM, "matvec", 0, -1, "matvec|cg",
     "matvec: the thesis's one ELL product (minife_matvec_ell main.cu); cg: miniFE's CG loop"},
    {"workload.minife.cg_iterations", CFG_INT, "200", 1, 1e6, NULL,
     "solver=cg: CG iterations (miniFE default max_iter 200; no convergence test)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* Column of entry j of row r, or -1 past the row's end. */
static int64_t mf_col(const struct minife *m, uint64_t r, uint64_t j)
{
    int64_t x = (int64_t)(r % m->nx), y = (int64_t)((r / m->nx) % m->ny),
            z = (int64_t)(r / (m->nx * m->ny));
    uint64_t c = 0;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int64_t a = x + dx, b = y + dy, e = z + dz;
                if (a < 0 || b < 0 || e < 0 || a >= (int64_t)m->nx || b >= (int64_t)m->ny ||
                    e >= (int64_t)m->nz)
                    continue;
                if (c++ == j) return a + (int64_t)m->nx * (b + (int64_t)m->ny * e);
            }
    return -1;
}

/* Launch shapes (the drivers' formulas). */
static uint32_t mf_blocks(const struct minife *m, uint32_t id)
{
    uint64_t b;
    switch (id) {
    case K_MATVEC: b = (m->n + 255) / 256; return (uint32_t)(b < 4096 ? b : 4096);
    case K_WAXPBY: b = (m->n + 255) / 256; return (uint32_t)(b < 32768 ? b : 32768);
    case K_DOT: b = (m->n + 511) / 512; return (uint32_t)(b < 1024 ? b : 1024);
    default: return 1;
    }
}

static const uint32_t mf_tpb[4] = { 256, 256, 512, 1024 };

/* Grid-stride trip count of thread tid. */
static uint64_t mf_trips(const struct minife *m, uint32_t id, uint64_t tid)
{
    uint64_t stride = (uint64_t)mf_blocks(m, id) * mf_tpb[id];
    return tid < m->n ? (m->n - 1 - tid) / stride + 1 : 0;
}

/* kernel.arg of waxpby / dot / matvec: operands (x, y, w) as V_* indices. */
#define MF_OPS(x, y, w) ((uint64_t)(x) | (uint64_t)(y) << 8 | (uint64_t)(w) << 16)

static uint64_t mf_npos(const void *impl, const struct warp_ctx *w)
{
    const struct minife *m = impl;
    uint32_t id = w->k->id;
    uint64_t tid0 = w->block * mf_tpb[id] + (uint64_t)w->warp * WARP_SIZE;
    switch (id) {
    case K_MATVEC: return mf_trips(m, id, tid0) * (3 * MF_NNZ + 1);
    case K_WAXPBY: return mf_trips(m, id, tid0) * 3;
    case K_DOT: return mf_trips(m, id, tid0) * 2 + 4 + 1;
    default: return 1 + 5 + 1;
    }
}

static bool mf_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct minife *m = impl;
    uint32_t id = w->k->id;
    uint64_t tid = (uint64_t)t->bx * mf_tpb[id] + t->tx, trips = mf_trips(m, id, tid);
    uint64_t stride = (uint64_t)mf_blocks(m, id) * mf_tpb[id], arg = w->k->arg;
    uint64_t vx = m->vec[arg & 0xff], vy = m->vec[(arg >> 8) & 0xff], vw = m->vec[(arg >> 16) & 0xff];
    op->size = 8;
    op->compute = 0;
    op->op = INST_LOAD;
    switch (id) {
    case K_MATVEC: {
        uint64_t q = pos / (3 * MF_NNZ + 1), r = pos % (3 * MF_NNZ + 1), row = tid + q * stride;
        if (q >= trips) return false;
        if (!m->cg) { vx = m->vec[V_X]; vw = m->y; }
        if (r == 3 * MF_NNZ) { op->op = INST_STORE; op->addr = vw + row * 8; return true; }
        uint64_t j = r / 3, off = j * m->pitch + row;
        if (r % 3 == 0) { op->size = 4; op->addr = m->cols + off * 4; return true; }
        int64_t c = mf_col(m, row, j);
        if (c < 0) return false;
        op->compute = r % 3 == 2 ? 1 : 0;
        op->addr = r % 3 == 1 ? m->coefs + off * 8 : vx + (uint64_t)c * 8;
        return true;
    }
    case K_WAXPBY: {
        uint64_t q = pos / 3, i = tid + q * stride;
        if (q >= trips) return false;
        op->addr = (pos % 3 == 0 ? vx : pos % 3 == 1 ? vy : vw) + i * 8;
        if (pos % 3 == 2) { op->op = INST_STORE; op->compute = 2; }
        return true;
    }
    case K_DOT: {
        /* the warp's first thread has the most trips */
        uint64_t t0 = mf_trips(m, id, w->block * mf_tpb[id] + (uint64_t)w->warp * WARP_SIZE);
        if (pos < 2 * t0) {
            if (pos / 2 >= trips) return false;
            op->addr = (pos % 2 ? vy : vx) + (tid + pos / 2 * stride) * 8;
            return true;
        }
        if (pos < 2 * t0 + 4) { op->op = INST_BARRIER; op->compute = 2; return true; }
        if (t->tx != 0) return false;
        op->op = INST_STORE;
        op->addr = m->d + (uint64_t)t->bx * 8;
        return true;
    }
    default:    /* K_DOTF */
        if (pos == 0) { op->addr = m->d + t->tx * 8; return true; }
        if (pos < 6) { op->op = INST_BARRIER; op->compute = 2; return true; }
        if (t->tx != 0) return false;
        op->op = INST_STORE;
        op->addr = m->d;
        return true;
    }
}

static void mf_kernel(struct minife *m, struct wl_step *out, uint32_t id, uint64_t arg)
{
    static const char *const names[4] = { "matvec_ell_kernel", "waxpby_kernel", "dot_kernel",
                                          "dot_final_reduce_kernel" };
    static const uint32_t regs[4] = { 24, 16, 16, 12 };
    memset(out, 0, sizeof *out);
    out->kind = WL_STEP_KERNEL;
    snprintf(out->kernel.name, sizeof out->kernel.name, "%s", names[id]);
    out->kernel.id = id;
    out->kernel.arg = arg;
    out->kernel.grid = (struct dim3){ mf_blocks(m, id), 1, 1 };
    out->kernel.block = (struct dim3){ mf_tpb[id], 1, 1 };
    out->kernel.regs_per_thread = regs[id];
    out->kernel.smem_per_block = id == K_DOT ? 512 * 8 : id == K_DOTF ? 1024 * 8 : 0;
}

static void mf_copy(struct wl_step *out, uint32_t alloc, uint64_t bytes, enum wl_dir dir)
{
    memset(out, 0, sizeof *out);
    out->kind = WL_STEP_MEMCPY;
    out->host = (struct wl_host_step){ .alloc = alloc, .bytes = bytes, .dir = dir };
}

/* The host program as a coroutine: MF_YIELD hands out the step in *out
 * (one per line: the line number is the resume point); a dot is the two
 * kernels and the copy of d[0] out. */
#define MF_YIELD(m) do { (m)->pc = __LINE__; return true; case __LINE__:; } while (0)

static bool mf_next_step(void *impl, struct wl_step *out)
{
    struct minife *m = impl;
    if (!m->cg) return wl_prog_next(&m->g.prog, out);
    switch (m->pc) {
    case 0:
        mf_copy(out, m->acols, MF_NNZ * m->pitch * 4, WL_TO_GPU); MF_YIELD(m);
        mf_copy(out, m->acoefs, MF_NNZ * m->pitch * 8, WL_TO_GPU); MF_YIELD(m);
        mf_copy(out, m->avec[V_B], m->n * 8, WL_TO_GPU); MF_YIELD(m);
        mf_copy(out, m->avec[V_X], m->n * 8, WL_TO_GPU); MF_YIELD(m);
        mf_kernel(m, out, K_WAXPBY, MF_OPS(V_X, V_X, V_P)); MF_YIELD(m);
        mf_kernel(m, out, K_MATVEC, MF_OPS(V_P, 0, V_AP)); MF_YIELD(m);
        mf_kernel(m, out, K_WAXPBY, MF_OPS(V_B, V_AP, V_R)); MF_YIELD(m);
        mf_kernel(m, out, K_DOT, MF_OPS(V_R, V_R, 0)); MF_YIELD(m);
        mf_kernel(m, out, K_DOTF, 0); MF_YIELD(m);
        mf_copy(out, m->ad, 8, WL_TO_HOST); MF_YIELD(m);
        for (m->k = 1; m->k <= m->iters; m->k++) {
            if (m->k == 1) {
                mf_kernel(m, out, K_WAXPBY, MF_OPS(V_R, V_R, V_P)); MF_YIELD(m);
            } else {
                mf_kernel(m, out, K_DOT, MF_OPS(V_R, V_R, 0)); MF_YIELD(m);
                mf_kernel(m, out, K_DOTF, 0); MF_YIELD(m);
                mf_copy(out, m->ad, 8, WL_TO_HOST); MF_YIELD(m);
                mf_kernel(m, out, K_WAXPBY, MF_OPS(V_R, V_P, V_P)); MF_YIELD(m);
            }
            mf_kernel(m, out, K_MATVEC, MF_OPS(V_P, 0, V_AP)); MF_YIELD(m);
            mf_kernel(m, out, K_DOT, MF_OPS(V_AP, V_P, 0)); MF_YIELD(m);
            mf_kernel(m, out, K_DOTF, 0); MF_YIELD(m);
            mf_copy(out, m->ad, 8, WL_TO_HOST); MF_YIELD(m);
            mf_kernel(m, out, K_WAXPBY, MF_OPS(V_X, V_P, V_X)); MF_YIELD(m);
            mf_kernel(m, out, K_WAXPBY, MF_OPS(V_R, V_AP, V_R)); MF_YIELD(m);
        }
        mf_copy(out, m->avec[V_X], m->n * 8, WL_TO_HOST); MF_YIELD(m);
        m->pc = -1;
        /* fall through */
    default:
        return false;
    }
}

static void *mf_create(struct workload *wl, const struct config *cfg)
{
    struct minife *m = xcalloc(1, sizeof *m);
    m->ex = cfg_u64(cfg, "workload.minife.nx");
    m->ey = cfg_u64(cfg, "workload.minife.ny");
    m->ez = cfg_u64(cfg, "workload.minife.nz");
    m->cg = cfg_is(cfg, "workload.minife.solver", "cg");
    m->iters = cfg_u64(cfg, "workload.minife.cg_iterations");
    m->nx = m->ex + 1;
    m->ny = m->ey + 1;
    m->nz = m->ez + 1;
    m->n = m->nx * m->ny * m->nz;
    m->pitch = (m->n + 15) / 16 * 16;
    m->nnz = (3 * m->nx - 2) * (3 * m->ny - 2) * (3 * m->nz - 2);
    uint64_t n = m->n;
    if (!m->cg) {
        m->vec[V_X] = wl_add_alloc(wl, "x", n * 8);
        m->y = wl_add_alloc(wl, "y", n * 8);
        m->acols = (uint32_t)wl->nallocs;
        m->cols = wl_add_alloc(wl, "ell_cols", MF_NNZ * m->pitch * 4);
        m->acoefs = (uint32_t)wl->nallocs;
        m->coefs = wl_add_alloc(wl, "ell_coefs", MF_NNZ * m->pitch * 8);
        wl_add_alloc(wl, "csr_row_offsets", (n + 1) * 4);
        wl_add_alloc(wl, "csr_cols", m->nnz * 4);
        wl_add_alloc(wl, "csr_coefs", m->nnz * 8);
        struct wl_prog *p = &m->g.prog;
        for (uint32_t a = 4; a < 7; a++)
            wl_prog_host(p, WL_STEP_MEMCPY, a, 0, wl->allocs[a].size, WL_TO_GPU, WL_ADV_NONE);
        wl_prog_host(p, WL_STEP_MEMCPY, 2, 0, wl->allocs[2].size, WL_TO_GPU, WL_ADV_NONE);
        wl_prog_host(p, WL_STEP_MEMCPY, 3, 0, wl->allocs[3].size, WL_TO_GPU, WL_ADV_NONE);
        wl_prog_host(p, WL_STEP_MEMCPY, 0, 0, n * 8, WL_TO_GPU, WL_ADV_NONE);
        struct wl_step st;
        mf_kernel(m, &st, K_MATVEC, 0);
        wl_prog_kernel(p, st.kernel.name, K_MATVEC, st.kernel.grid, st.kernel.block,
                       st.kernel.regs_per_thread, 0);
    } else {
        m->acols = (uint32_t)wl->nallocs;
        m->cols = wl_add_alloc(wl, "ell_cols", MF_NNZ * m->pitch * 4);
        m->acoefs = (uint32_t)wl->nallocs;
        m->coefs = wl_add_alloc(wl, "ell_coefs", MF_NNZ * m->pitch * 8);
        static const char *const names[V_N] = { "x", "b", "r", "p", "Ap" };
        for (int v = 0; v < V_N; v++) {
            m->avec[v] = (uint32_t)wl->nallocs;
            m->vec[v] = wl_add_alloc(wl, names[v], n * 8);
        }
        m->ad = (uint32_t)wl->nallocs;
        m->d = wl_add_alloc(wl, "d", 1024 * 8);
    }
    m->g.npos = mf_npos;
    m->g.lane = mf_lane;
    return m;
}

static const struct workload_ops mf_ops = {
    "minife", mf_create, mf_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info minife_info = {
    &mf_ops, minife_config_keys,
    "miniFE 27-point FE matrix, ELL matvec as NVIDIA's proxy-apps-doe/minife_matvec_ell "
    "(thesis minife); solver=cg wraps it in miniFE's CG (cg_solve.hpp) with the CUDA "
    "port's waxpby and dot kernels.",
    "matvec: 16*N (x, y) + 12*27*pitch (ELL) + 4*(N+1) + 12*nnz (CSR) bytes, N = "
    "(nx+1)(ny+1)(nz+1), pitch = N rounded up to 16, nnz = (3(nx+1)-2)(3(ny+1)-2)(3(nz+1)-2); "
    "the CSR arrays are only copied in. cg: 12*27*pitch + 5 x 8*N + 8192 bytes, all touched",
};

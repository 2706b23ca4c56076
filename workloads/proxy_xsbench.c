/* xsbench: XSBench's macroscopic cross-section lookup (Tramm et al.,
 * PHYSOR 2014; thesis ref. [22]), as the CUDA port the thesis ran:
 * gpgpu-sim_simulations benchmarks/src/cuda/proxy-apps-doe/xsbench
 * (Main.c, GridInit.c, Materials.c, cudaHeader.h,
 * cudaCalcXs-app-ann-correct.cu -- "app-ann": the copy with its
 * allocations hoisted for the thesis's annotation study, Sec. 4.4), kernel 0
 * devCalculateXS_d4, run as `./XSBench 12 small 0` (run.bash defaults).
 *
 * Defaults: H-M small (68 isotopes, 34 fuel nuclides; large: 355 and 321),
 * n_gridpoints 11303 and lookups 50000 (Main.c), THREADS_PER_BLOCK 64 and
 * PROFILE_MODE 1: one launch of <<<1 + lookups/64, 64>>>.  N = isotopes *
 * gridpoints unionized grid points.
 *
 * Inputs (GridInit.c draws them with rand() after srand(INT_MAX); here
 * seeded, seed = mix(sim.seed ^ 0x585342)): energy j of nuclide n before
 * sorting is u(seed + n*gridpoints + j), u(x) = (mix(x) >> 11) * 2^-53; each
 * nuclide grid sorted; the unionized grid is all N energies sorted;
 * xs_idx[n] of unionized point i = binary_search(nuclide n's grid, E_i)
 * (XSutils.c).  Materials.c's tables (number and ids of nuclides per
 * material) are transcribed; concentrations do not move addresses.
 * Lookup k: with STRIP_RANDOM 1 (XSbench_header.h, the default lookup =
 * strip) energy frac(0.01 + (k%10)/10 + (k%1000)/1000) and material k%12 --
 * 1000 distinct energies, the skew behind the thesis's Fig. 4.5; lookup =
 * random draws energy u(seed + N + 2k) and material by devPickMat's
 * cumulative distribution of roll u(seed + N + 2k + 1) (upstream XSBench's
 * per-lookup random particle).
 *
 * devCalculateXS_d4, k = tx + 64*bx, threads k <= lookups (the source tests
 * k > numLookups: one extra lookup): devBasicBinarySearch_index over the
 * unionized grid (load energyGrid[e].energy, GridPoint_Index is 16 bytes:
 * energy, xs_idx pointer) -- at most ceil(log2(N-1)) probes; then the loop
 * bound numNucs[mat] and energyGrid[idx].xs_idx (loop invariants of a loop
 * without stores: loaded once); per pair i = 0, 2, ...: mats[mat*maxNucs +
 * i], concs[same], xs_idx[nuc] (short); the same for i+1 when i <
 * numNucs-1; six double2 loads of NuclideGridPoint (48 bytes) nuc*G + ptr,
 * then six of the second nuclide's; after the loop store
 * macro_xs_vector[j*64 + tx], j < 5; k < 10000 (NUM_RESULTS): store
 * results[5k + j] (the memcpy that follows rewrites the same five
 * doubles: one set of stores). */
#include <stdlib.h>
#include <string.h>
#include "gen.h"

#define XS_TPB 64           /* THREADS_PER_BLOCK */
#define XS_NMAT 12
#define XS_NRES 10000       /* NUM_RESULTS */
#define XS_GP 48            /* sizeof(NuclideGridPoint) */
#define XS_UG 16            /* sizeof(GridPoint_Index) */
#define XS_PAIR 18          /* positions per nuclide pair */

enum { A_EGRID, A_INDEX, A_MACRO, A_MATS, A_CONCS, A_NNUCS, A_NGRID, A_RES };

struct xsbench {
    struct wl_simple g;
    uint64_t iso, gp, n, lookups, seed, maxn, steps;
    bool random;
    int nnucs[XS_NMAT];
    int *mats;              /* XS_NMAT x maxn */
    double *ugrid;          /* N unionized energies */
    double *ngrid;          /* iso x gp sorted nuclide energies */
    int32_t *strip_idx;     /* strip: unionized index of energy k % 1000 */
    int16_t *strip_ptr;     /* strip: xs_idx row of those 1000 points */
    uint64_t a[8];
};

const struct cfg_key xsbench_config_keys[] = {
    {"workload.xsbench.size", CFG_ENUM, "small", 0, -1, "small|large",
     "Hoogenboom-Martin size: small 68 isotopes (34 fuel), large 355 (321) (run.bash SIZE=small)"},
    {"workload.xsbench.gridpoints", CFG_INT, "11303", 2, 32767, NULL,
     "energy grid points per nuclide (Main.c n_gridpoints 11303; xs_idx is a short)"},
    {"workload.xsbench.lookups", CFG_INT, "50000", 1, 2e9, NULL,
     "cross-section lookups (Main.c lookups 50000)"},
    {"workload.xsbench.lookup", CFG_ENUM, "strip", 0, -1, "strip|random",
     "strip: energy and material from the lookup number (XSbench_header.h STRIP_RANDOM 1); "
     "random: seeded per-lookup draws"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* Materials.c: nuclides of the 12 materials (fuel's first 34 for H-M small;
 * H-M large appends 68..354). */
static const int xs_fuel[34] = { 58, 59, 60, 61, 40, 42, 43, 44, 45, 46, 1, 2, 3, 7, 8, 9, 10,
    29, 57, 47, 48, 0, 62, 15, 33, 34, 52, 53, 54, 55, 56, 18, 23, 41 };
static const int xs_m1[] = { 63, 64, 65, 66, 67 };
static const int xs_m2[] = { 24, 41, 4, 5 };
static const int xs_m4[] = { 19, 20, 21, 22, 35, 36, 37, 38, 39, 25, 27, 28, 29, 30, 31, 32,
    26, 49, 50, 51, 11, 12, 13, 14, 6, 16, 17 };
static const int xs_m5[] = { 24, 41, 4, 5, 19, 20, 21, 22, 35, 36, 37, 38, 39, 25, 49, 50, 51,
    11, 12, 13, 14 };
static const int xs_m10[] = { 24, 41, 4, 5, 63, 64, 65, 66, 67 };

/* devPickMat's __constant__ table (cudaCalcXs-app-ann-correct.cu). */
static const double xs_dist[XS_NMAT] = { 0.140, 0.052, 0.275, 0.134, 0.154, 0.064, 0.066,
    0.055, 0.008, 0.015, 0.025, 0.153 };

static double xs_u(uint64_t x) { return (double)(wl_mix(x) >> 11) * 0x1p-53; }

/* devBasicBinarySearch_index / XSutils.c binary_search over N energies E
 * (stride 1); the probes go to PROBE when non-NULL.  Returns lowerLimit. */
static int64_t xs_search(const double *e, int64_t n, double q, int64_t *probe, uint64_t *np)
{
    int64_t lo = 0, hi = n - 1, len = hi - lo;
    uint64_t k = 0;
    while (len > 1) {
        int64_t x = lo + len / 2;
        if (probe) probe[k] = x;
        k++;
        if (e[x] > q) hi = x;
        else lo = x;
        len = hi - lo;
    }
    if (np) *np = k;
    return lo;
}

static void xs_particle(const struct xsbench *m, uint64_t k, double *energy, int *mat)
{
    if (!m->random) {
        double p = 0.01 + ((double)(k % 10)) / 10.0 + ((double)(k % 1000)) / 1000.0;
        p -= (int)p;
        *energy = p;
        *mat = (int)(k % XS_NMAT);
        return;
    }
    *energy = xs_u(m->seed + m->n + 2 * k);
    double roll = xs_u(m->seed + m->n + 2 * k + 1), run = 0;
    *mat = XS_NMAT - 1;
    for (int i = 0; i < XS_NMAT; i++) {
        run += xs_dist[i];
        if (roll < run) { *mat = i; break; }
    }
}

/* Unionized index of lookup k. */
static int64_t xs_idx(const struct xsbench *m, uint64_t k, double e)
{
    if (!m->random) return m->strip_idx[k % 1000];
    return xs_search(m->ugrid, (int64_t)m->n, e, NULL, NULL);
}

/* xs_idx[nuc] of unionized point idx (lookup k). */
static uint64_t xs_ptr(const struct xsbench *m, uint64_t k, int64_t idx, int nuc)
{
    if (!m->random) return (uint64_t)m->strip_ptr[(k % 1000) * m->iso + (uint64_t)nuc];
    return (uint64_t)xs_search(m->ngrid + (uint64_t)nuc * m->gp, (int64_t)m->gp,
                               m->ugrid[idx], NULL, NULL);
}

static uint64_t xs_npos(const void *impl, const struct warp_ctx *w)
{
    const struct xsbench *m = impl;
    (void)w;
    return m->steps + 2 + XS_PAIR * ((m->maxn + 1) / 2) + 10;
}

static bool xs_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct xsbench *m = impl;
    (void)w;
    uint64_t k = (uint64_t)t->tx + (uint64_t)XS_TPB * t->bx;
    if (k > m->lookups) { op->done = true; return false; }
    double e;
    int mat;
    xs_particle(m, k, &e, &mat);
    op->op = INST_LOAD;
    op->compute = 0;
    op->size = 8;
    if (pos < m->steps) {           /* the unionized-grid search */
        int64_t probe[64];
        uint64_t np;
        xs_search(m->ugrid, (int64_t)m->n, e, probe, &np);
        if (pos >= np) return false;
        op->compute = 2;
        op->addr = m->a[A_EGRID] + (uint64_t)probe[pos] * XS_UG;
        return true;
    }
    int64_t idx = xs_idx(m, k, e);
    uint64_t q = pos - m->steps, nn = (uint64_t)m->nnucs[mat];
    if (q == 0) { op->size = 4; op->addr = m->a[A_NNUCS] + (uint64_t)mat * 4; return true; }
    if (q == 1) { op->addr = m->a[A_EGRID] + (uint64_t)idx * XS_UG + 8; return true; }
    q -= 2;
    uint64_t pairs = (m->maxn + 1) / 2;
    if (q < XS_PAIR * pairs) {
        uint64_t i = 2 * (q / XS_PAIR), r = q % XS_PAIR;
        if (i >= nn) return false;
        bool second = (r >= 3 && r < 6) || r >= 12;
        if (second && !(i < nn - 1)) return false;
        uint64_t lin = (uint64_t)mat * m->maxn + i + (second ? 1 : 0);
        int nuc = m->mats[lin];
        switch (r) {
        case 0: case 3: op->size = 4; op->addr = m->a[A_MATS] + lin * 4; break;
        case 1: case 4: op->addr = m->a[A_CONCS] + lin * 8; break;
        case 2: case 5:
            op->size = 2;
            op->addr = m->a[A_INDEX] + ((uint64_t)idx * m->iso + (uint64_t)nuc) * 2;
            break;
        default: {
            uint64_t s = (r - 6) % 6;
            op->size = 16;
            op->compute = r == 6 && i ? 40 : 0;  /* the previous pair's interpolation */
            op->addr = m->a[A_NGRID] + ((uint64_t)nuc * m->gp + xs_ptr(m, k, idx, nuc)) * XS_GP
                     + 16 * s;
            break;
        }
        }
        return true;
    }
    q -= XS_PAIR * pairs;
    op->op = INST_STORE;
    if (q < 5) {
        op->compute = q == 0 ? 40 : 0;
        op->addr = m->a[A_MACRO] + (q * XS_TPB + t->tx) * 8;
        return true;
    }
    if (k >= XS_NRES) return false;
    op->addr = m->a[A_RES] + (5 * k + q - 5) * 8;
    return true;
}

static int xs_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x > y ? 1 : x < y ? -1 : 0;
}

static void *xs_create(struct workload *wl, const struct config *cfg)
{
    struct xsbench *m = xcalloc(1, sizeof *m);
    bool large = cfg_is(cfg, "workload.xsbench.size", "large");
    m->random = cfg_is(cfg, "workload.xsbench.lookup", "random");
    m->iso = large ? 355 : 68;
    m->gp = cfg_u64(cfg, "workload.xsbench.gridpoints");
    m->lookups = cfg_u64(cfg, "workload.xsbench.lookups");
    m->n = m->iso * m->gp;
    if (m->gp > INT16_MAX)
        user_error("workload.xsbench.gridpoints: %llu points do not fit the source's short "
                   "xs_idx (IDX_TYPE short, at most 32767)", (unsigned long long)m->gp);
    m->seed = wl_mix(cfg_u64(cfg, "sim.seed") ^ 0x585342);
    /* Materials.c load_num_nucs / load_mats, flattened as cudaDriver does */
    static const int nn[XS_NMAT] = { 0, 5, 4, 4, 27, 21, 21, 21, 21, 21, 9, 9 };
    memcpy(m->nnucs, nn, sizeof nn);
    m->nnucs[0] = large ? 321 : 34;
    m->maxn = (uint64_t)m->nnucs[0];
    m->mats = xcalloc(XS_NMAT * m->maxn, sizeof *m->mats);
    for (int i = 0; i < XS_NMAT; i++) {
        int *row = m->mats + (uint64_t)i * m->maxn;
        const int *src = i == 1 ? xs_m1 : i == 2 || i == 3 ? xs_m2 : i == 4 ? xs_m4
                       : i >= 5 && i <= 9 ? xs_m5 : xs_m10;
        if (i == 0) {
            memcpy(row, xs_fuel, sizeof xs_fuel);
            for (int j = 34; j < m->nnucs[0]; j++) row[j] = 68 + (j - 34);
        } else {
            memcpy(row, src, (size_t)m->nnucs[i] * sizeof *row);
        }
    }
    /* GridInit.c: nuclide grids (sorted) and the unionized grid */
    m->ngrid = xmalloc(m->n * sizeof *m->ngrid);
    m->ugrid = xmalloc(m->n * sizeof *m->ugrid);
    for (uint64_t i = 0; i < m->n; i++) m->ngrid[i] = xs_u(m->seed + i);
    for (uint64_t nuc = 0; nuc < m->iso; nuc++)
        qsort(m->ngrid + nuc * m->gp, m->gp, sizeof *m->ngrid, xs_cmp);
    memcpy(m->ugrid, m->ngrid, m->n * sizeof *m->ugrid);
    qsort(m->ugrid, m->n, sizeof *m->ugrid, xs_cmp);
    uint64_t len = m->n - 1;
    while (len > 1) { m->steps++; len -= len / 2; }     /* the longest search */
    if (!m->random) {
        m->strip_idx = xmalloc(1000 * sizeof *m->strip_idx);
        m->strip_ptr = xmalloc(1000 * m->iso * sizeof *m->strip_ptr);
        for (uint64_t k = 0; k < 1000; k++) {
            double e;
            int mat;
            xs_particle(m, k, &e, &mat);
            int64_t idx = xs_search(m->ugrid, (int64_t)m->n, e, NULL, NULL);
            m->strip_idx[k] = (int32_t)idx;
            for (uint64_t nuc = 0; nuc < m->iso; nuc++)
                m->strip_ptr[k * m->iso + nuc] = (int16_t)xs_search(
                    m->ngrid + nuc * m->gp, (int64_t)m->gp, m->ugrid[idx], NULL, NULL);
        }
    }
    /* cudaDriver's allocations, in its order */
    m->a[A_EGRID] = wl_add_alloc(wl, "devEnergyGrid", m->n * XS_UG);
    m->a[A_INDEX] = wl_add_alloc(wl, "devIndexArray", m->iso * m->n * 2);
    m->a[A_MACRO] = wl_add_alloc(wl, "devMacroXSVector", 5 * 1024 * XS_TPB * 8);
    m->a[A_MATS] = wl_add_alloc(wl, "devMats", XS_NMAT * m->maxn * 4);
    m->a[A_CONCS] = wl_add_alloc(wl, "devConcs", XS_NMAT * m->maxn * 8);
    m->a[A_NNUCS] = wl_add_alloc(wl, "devNumNucs", XS_NMAT * 4);
    m->a[A_NGRID] = wl_add_alloc(wl, "devNuclideGrid", m->n * XS_GP);
    m->a[A_RES] = wl_add_alloc(wl, "devResults", 5 * XS_NRES * 8);
    m->g.npos = xs_npos;
    m->g.lane = xs_lane;
    struct wl_prog *p = &m->g.prog;
    /* cudaMemset + per-material row copies of mats and concs: whole allocations */
    static const uint32_t in[] = { A_MATS, A_CONCS, A_INDEX, A_EGRID, A_NNUCS, A_NGRID };
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        wl_prog_host(p, WL_STEP_MEMCPY, in[i], 0, wl->allocs[in[i]].size, WL_TO_GPU,
                     WL_ADV_NONE);
    wl_prog_kernel(p, "devCalculateXS_d4", 0,
                   (struct dim3){ (uint32_t)(1 + m->lookups / XS_TPB), 1, 1 },
                   (struct dim3){ XS_TPB, 1, 1 }, 40, 0);
    return m;
}

static void xs_destroy(void *impl)
{
    struct xsbench *m = impl;
    free(m->mats);
    free(m->ugrid);
    free(m->ngrid);
    free(m->strip_idx);
    free(m->strip_ptr);
    free(m);
}

static const struct workload_ops xs_ops = {
    "xsbench", xs_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, xs_destroy,
};

const struct wl_info xsbench_info = {
    &xs_ops, xsbench_config_keys,
    "XSBench CUDA port (gpgpu-sim_simulations proxy-apps-doe/xsbench, "
    "cudaCalcXs-app-ann-correct.cu devCalculateXS_d4): unionized-grid binary search, then "
    "the material's nuclide grid points; thesis (Agarwal) xsbench.",
    "N = isotopes*gridpoints: 16*N (energy grid) + 2*isotopes*N (index array) + 2621440 "
    "(macro_xs_vector, 2560 bytes touched) + 12*maxNucs*12 (mats, concs) + 48 + 48*N "
    "(nuclide grids) + 400000 (results) bytes; grid points touched as the lookups hit them",
};

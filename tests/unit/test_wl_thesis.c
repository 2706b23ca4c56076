/* The thesis's (Agarwal) workloads that uvmsim lacked: srad_v1, xsbench,
 * minife, comd, cns (mummergpu: test_wl_mummer.c).  Each kernel's
 * per-thread memory ops equal the CUDA source's loop nest transcribed here
 * (every thread of a tiny input), chosen threads' ops are also listed by
 * hand, the pages touched equal the documented footprint, and streams are
 * deterministic per seed. */
#include <check.h>
#include "suite_main.h"
#include "wl_threads.h"

static uint64_t stream_hash(const char *const *sets, size_t n)
{
    struct wlh h = wlh_open(sets, n);
    uint64_t x = wlh_run_all(h.wl).hash;
    wlh_close(&h);
    return x;
}

/* ---- srad_v1 (Rodinia 3.1 srad/srad_v1): allocations in main.cu's order. */
enum { SV_I, SV_IN, SV_IS, SV_JE, SV_JW, SV_SUMS, SV_SUMS2, SV_DN, SV_DS, SV_DW, SV_DE, SV_C };
static long sv_nr, sv_nc;

/* extract, prepare, srad, srad2, compress for thread ei, as the .cu files
 * read; iN/iS/jW/jE hold main.cu's clamped neighbour indices. */
static void sv_elem(struct wlh_seq *s, int kernel, long ei)
{
    long nr = sv_nr, ne = sv_nr * sv_nc;
    if (ei >= ne) return;
    long row = (ei + 1) % nr - 1, col = (ei + 1) / nr + 1 - 1;
    if ((ei + 1) % nr == 0) { row = nr - 1; col = col - 1; }
    long in = row == 0 ? 0 : row - 1, is = row == nr - 1 ? row : row + 1;
    long jw = col == 0 ? 0 : col - 1, je = col == sv_nc - 1 ? col : col + 1;
    switch (kernel) {
    case 0:     /* extract, compress: d_I[ei] = exp/log(d_I[ei]) */
        wlh_push(s, L(SV_I, ei * 4)); wlh_push(s, S(SV_I, ei * 4));
        break;
    case 1:     /* prepare */
        wlh_push(s, L(SV_I, ei * 4)); wlh_push(s, S(SV_SUMS, ei * 4));
        wlh_push(s, L(SV_I, ei * 4)); wlh_push(s, S(SV_SUMS2, ei * 4));
        break;
    case 2:     /* srad: the call binds parameter d_dE to d_dW and d_dW to d_dE */
        wlh_push(s, L(SV_I, ei * 4));
        wlh_push(s, L(SV_IN, row * 4)); wlh_push(s, L(SV_I, (in + nr * col) * 4));
        wlh_push(s, L(SV_IS, row * 4)); wlh_push(s, L(SV_I, (is + nr * col) * 4));
        wlh_push(s, L(SV_JW, col * 4)); wlh_push(s, L(SV_I, (row + nr * jw) * 4));
        wlh_push(s, L(SV_JE, col * 4)); wlh_push(s, L(SV_I, (row + nr * je) * 4));
        wlh_push(s, S(SV_DN, ei * 4)); wlh_push(s, S(SV_DS, ei * 4));
        wlh_push(s, S(SV_DE, ei * 4)); wlh_push(s, S(SV_DW, ei * 4));
        wlh_push(s, S(SV_C, ei * 4));
        break;
    default:    /* srad2 */
        wlh_push(s, L(SV_C, ei * 4));
        wlh_push(s, L(SV_IS, row * 4)); wlh_push(s, L(SV_C, (is + nr * col) * 4));
        wlh_push(s, L(SV_JE, col * 4)); wlh_push(s, L(SV_C, (row + nr * je) * 4));
        wlh_push(s, L(SV_DN, ei * 4)); wlh_push(s, L(SV_DS, ei * 4));
        wlh_push(s, L(SV_DE, ei * 4)); wlh_push(s, L(SV_DW, ei * 4));
        wlh_push(s, L(SV_I, ei * 4)); wlh_push(s, S(SV_I, ei * 4));
        break;
    }
}
static void sv_extract(struct wlh_seq *s, uint64_t b, uint32_t t) { sv_elem(s, 0, (long)(b * 512 + t)); }
static void sv_prepare(struct wlh_seq *s, uint64_t b, uint32_t t) { sv_elem(s, 1, (long)(b * 512 + t)); }
static void sv_srad(struct wlh_seq *s, uint64_t b, uint32_t t) { sv_elem(s, 2, (long)(b * 512 + t)); }
static void sv_srad2(struct wlh_seq *s, uint64_t b, uint32_t t) { sv_elem(s, 3, (long)(b * 512 + t)); }

START_TEST(srad_v1_threads_by_hand)
{
    /* 30 x 20 image: Ne = 600, 2 blocks of 512.  Reduce level 0: no = 600,
     * mul = 1, nf = 512 - (1024 - 600) = 88, df = 64 (6 tree barriers),
     * leader thread 63 of block 1 adds sums[576..599]; level 1: one block,
     * no = 2, mul = 512, nf = 2, df = 2 (1 tree barrier), leader thread 1. */
    static const char *const sets[] = { "workload.kind=srad_v1", "workload.srad_v1.rows=30",
        "workload.srad_v1.cols=20", "workload.srad_v1.iterations=1" };
    sv_nr = 30; sv_nc = 20;
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wlh_run r = wlh_run_all(h.wl);
    /* extract, prepare, reduce x 2, srad, srad2, compress */
    ck_assert_uint_eq(r.kernels, 7);
    /* 2400-byte image arrays (1 page each) x 8 + the four index arrays */
    ck_assert_uint_eq(r.pages, 12);
    wlh_close(&h);
    /* srad, thread 0 (row 0, col 0: iN = iS-1 = jW = 0, jE = 1) */
    {
        uint64_t v[] = { L(SV_I, 0), L(SV_IN, 0), L(SV_I, 0), L(SV_IS, 0), L(SV_I, 4),
                         L(SV_JW, 0), L(SV_I, 0), L(SV_JE, 0), L(SV_I, 120),
                         S(SV_DN, 0), S(SV_DS, 0), S(SV_DE, 0), S(SV_DW, 0), S(SV_C, 0) };
        struct wlh_seq w = wlt_list(v, NSETS(v));
        check_thread(sets, NSETS(sets), 4, 0, 0, &w, "srad thread 0");
    }
    /* srad, ei = 599 (block 1, thread 87): row 29, col 19; north 598,
     * south clamped 599, west 29 + 30*18 = 569, east clamped 599 */
    {
        uint64_t v[] = { L(SV_I, 599 * 4), L(SV_IN, 29 * 4), L(SV_I, 598 * 4),
                         L(SV_IS, 29 * 4), L(SV_I, 599 * 4), L(SV_JW, 19 * 4),
                         L(SV_I, 569 * 4), L(SV_JE, 19 * 4), L(SV_I, 599 * 4),
                         S(SV_DN, 599 * 4), S(SV_DS, 599 * 4), S(SV_DE, 599 * 4),
                         S(SV_DW, 599 * 4), S(SV_C, 599 * 4) };
        struct wlh_seq w = wlt_list(v, NSETS(v));
        check_thread(sets, NSETS(sets), 4, 1, 87, &w, "srad ei 599");
    }
    /* thread 88 of block 1 has no element */
    {
        struct wlh_seq w = {0};
        check_thread(sets, NSETS(sets), 4, 1, 88, &w, "srad ei 600");
    }
    /* reduce level 0: block 0 thread 511 (full block: 1 + 9 barriers) */
    {
        uint64_t v[] = { L(SV_SUMS, 511 * 4), L(SV_SUMS2, 511 * 4), BAR, BAR, BAR, BAR, BAR,
                         BAR, BAR, BAR, BAR, BAR, S(SV_SUMS, 0), S(SV_SUMS2, 0) };
        struct wlh_seq w = wlt_list(v, NSETS(v));
        check_thread(sets, NSETS(sets), 2, 0, 511, &w, "reduce 0 block 0 thread 511");
    }
    /* level 0, block 1 thread 63: ei 575; 1 + 6 barriers; sums[576..599] */
    {
        struct wlh_seq w = {0};
        wlh_push(&w, L(SV_SUMS, 575 * 4)); wlh_push(&w, L(SV_SUMS2, 575 * 4));
        for (int i = 0; i < 7; i++) wlh_push(&w, BAR);
        for (int i = 576; i < 600; i++) { wlh_push(&w, L(SV_SUMS, i * 4)); wlh_push(&w, L(SV_SUMS2, i * 4)); }
        wlh_push(&w, S(SV_SUMS, 512 * 4)); wlh_push(&w, S(SV_SUMS2, 512 * 4));
        check_thread(sets, NSETS(sets), 2, 1, 63, &w, "reduce 0 block 1 thread 63");
    }
    /* level 0, block 1 thread 100: ei 612, no element, barriers only */
    {
        uint64_t v[] = { BAR, BAR, BAR, BAR, BAR, BAR, BAR };
        struct wlh_seq w = wlt_list(v, NSETS(v));
        check_thread(sets, NSETS(sets), 2, 1, 100, &w, "reduce 0 block 1 thread 100");
    }
    /* level 1 thread 1: sums[1 * 512]; 1 + 1 barriers; stores sums[0] */
    {
        uint64_t v[] = { L(SV_SUMS, 512 * 4), L(SV_SUMS2, 512 * 4), BAR, BAR,
                         S(SV_SUMS, 0), S(SV_SUMS2, 0) };
        struct wlh_seq w = wlt_list(v, NSETS(v));
        check_thread(sets, NSETS(sets), 3, 0, 1, &w, "reduce 1 thread 1");
    }
    wlt_all_threads_eq(sets, NSETS(sets), 0, sv_extract, "extract");
    wlt_all_threads_eq(sets, NSETS(sets), 1, sv_prepare, "prepare");
    wlt_all_threads_eq(sets, NSETS(sets), 4, sv_srad, "srad");
    wlt_all_threads_eq(sets, NSETS(sets), 5, sv_srad2, "srad2");
    wlt_all_threads_eq(sets, NSETS(sets), 6, sv_extract, "compress");
}
END_TEST

START_TEST(srad_v1_full_blocks_and_loop)
{
    /* 64 x 40: Ne = 2560 = 5 x 512, every level-0 block full (nf = 512);
     * level 1: no = 5, nf = 5, df = 4 (2 tree barriers), leader thread 3
     * adds sums[4] -- the source's remainder loop omits the multiplier. */
    static const char *const sets[] = { "workload.kind=srad_v1", "workload.srad_v1.rows=64",
        "workload.srad_v1.cols=40", "workload.srad_v1.iterations=3" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wlh_run r = wlh_run_all(h.wl);
    /* extract + 3 x (prepare, reduce x 2, srad, srad2) + compress */
    ck_assert_uint_eq(r.kernels, 2 + 3 * 5);
    /* 10240-byte arrays: 3 pages x 8, and the index arrays 1 page each */
    ck_assert_uint_eq(r.pages, 8 * 3 + 4);
    ck_assert_uint_eq(h.wl->footprint, 8 * 10240 + 2 * 64 * 4 + 2 * 40 * 4);
    wlh_close(&h);
    uint64_t v[] = { L(SV_SUMS, 3 * 512 * 4), L(SV_SUMS2, 3 * 512 * 4), BAR, BAR, BAR,
                     L(SV_SUMS, 4 * 4), L(SV_SUMS2, 4 * 4), S(SV_SUMS, 0), S(SV_SUMS2, 0) };
    struct wlh_seq w = wlt_list(v, NSETS(v));
    /* kernels: 0 extract, 1 prepare, 2 reduce 0, 3 reduce 1 */
    check_thread(sets, NSETS(sets), 3, 0, 3, &w, "reduce 1 thread 3");
    /* level 0, block 4 (full): thread 511 stores sums[4 * 512] */
    uint64_t v2[] = { L(SV_SUMS, 2559 * 4), L(SV_SUMS2, 2559 * 4), BAR, BAR, BAR, BAR, BAR,
                      BAR, BAR, BAR, BAR, BAR, S(SV_SUMS, 2048 * 4), S(SV_SUMS2, 2048 * 4) };
    w = wlt_list(v2, NSETS(v2));
    check_thread(sets, NSETS(sets), 2, 4, 511, &w, "reduce 0 block 4 thread 511");
    /* no input data: the same stream for any seed */
    static const char *const other[] = { "workload.kind=srad_v1", "workload.srad_v1.rows=64",
        "workload.srad_v1.cols=40", "workload.srad_v1.iterations=3", "sim.seed=7" };
    ck_assert_uint_eq(stream_hash(other, NSETS(other)), stream_hash(sets, NSETS(sets)));
}
END_TEST

/* ---- xsbench (gpgpu-sim_simulations proxy-apps-doe/xsbench): allocations
 * in cudaDriver's order; grids rebuilt here from the documented recipe. */
enum { XS_EG, XS_IX, XS_MAC, XS_MATS, XS_CONCS, XS_NN, XS_NG, XS_RES };
#define XS_ISO 68
static uint64_t xs_gp, xs_n, xs_lookups, xs_seed;
static bool xs_random;
static double *xs_ng, *xs_ug;
static const int xs_nn[12] = { 34, 5, 4, 4, 27, 21, 21, 21, 21, 21, 9, 9 };
/* Materials.c's mats rows, flattened to 12 x 34 (H-M small) */
static int xs_mats[12][34];

static uint64_t sm64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}
static double xs_u(uint64_t x) { return (double)(sm64(x) >> 11) * 0x1p-53; }
static int dcmp(const void *a, const void *b)
{ double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

static void xs_build(uint64_t gp, uint64_t lookups, uint64_t simseed, bool random)
{
    static const int fuel[34] = { 58, 59, 60, 61, 40, 42, 43, 44, 45, 46, 1, 2, 3, 7, 8, 9, 10,
        29, 57, 47, 48, 0, 62, 15, 33, 34, 52, 53, 54, 55, 56, 18, 23, 41 };
    static const int clad[5] = { 63, 64, 65, 66, 67 }, water[4] = { 24, 41, 4, 5 };
    static const int rpv[27] = { 19, 20, 21, 22, 35, 36, 37, 38, 39, 25, 27, 28, 29, 30, 31, 32,
        26, 49, 50, 51, 11, 12, 13, 14, 6, 16, 17 };
    static const int refl[21] = { 24, 41, 4, 5, 19, 20, 21, 22, 35, 36, 37, 38, 39, 25, 49, 50,
        51, 11, 12, 13, 14 };
    static const int fa[9] = { 24, 41, 4, 5, 63, 64, 65, 66, 67 };
    memset(xs_mats, 0, sizeof xs_mats);
    memcpy(xs_mats[0], fuel, sizeof fuel);
    memcpy(xs_mats[1], clad, sizeof clad);
    memcpy(xs_mats[2], water, sizeof water);
    memcpy(xs_mats[3], water, sizeof water);
    memcpy(xs_mats[4], rpv, sizeof rpv);
    for (int i = 5; i <= 9; i++) memcpy(xs_mats[i], refl, sizeof refl);
    memcpy(xs_mats[10], fa, sizeof fa);
    memcpy(xs_mats[11], fa, sizeof fa);
    xs_gp = gp; xs_n = XS_ISO * gp; xs_lookups = lookups; xs_random = random;
    xs_seed = sm64(simseed ^ 0x585342);
    free(xs_ng); free(xs_ug);
    xs_ng = malloc(xs_n * sizeof *xs_ng);
    xs_ug = malloc(xs_n * sizeof *xs_ug);
    for (uint64_t i = 0; i < xs_n; i++) xs_ng[i] = xs_u(xs_seed + i);
    for (int n = 0; n < XS_ISO; n++) qsort(xs_ng + n * gp, gp, sizeof(double), dcmp);
    memcpy(xs_ug, xs_ng, xs_n * sizeof *xs_ug);
    qsort(xs_ug, xs_n, sizeof(double), dcmp);
}

/* devBasicBinarySearch_index; with S, pushes the probes' energy loads */
static long xs_bsearch(const double *a, long n, double q, struct wlh_seq *s)
{
    long lo = 0, hi = n - 1, len = hi - lo;
    while (len > 1) {
        long x = lo + len / 2;
        if (s) wlh_push(s, L(XS_EG, x * 16));
        if (a[x] > q) hi = x; else lo = x;
        len = hi - lo;
    }
    return lo;
}

static void xs_ref(struct wlh_seq *s, uint64_t b, uint32_t tx)
{
    long k = (long)(tx + 64 * b);
    if (k > (long)xs_lookups) return;
    double p;
    int mat;
    if (!xs_random) {
        p = 0.01 + (((double)(k % 10)) / 10.0) + (((double)(k % 1000)) / 1000.0);
        p -= ((int)(p));
        mat = (int)(k % 12);
    } else {
        static const double dist[12] = { 0.140, 0.052, 0.275, 0.134, 0.154, 0.064, 0.066,
            0.055, 0.008, 0.015, 0.025, 0.153 };
        p = xs_u(xs_seed + xs_n + 2 * (uint64_t)k);
        double roll = xs_u(xs_seed + xs_n + 2 * (uint64_t)k + 1), run = 0;
        mat = 11;
        for (int i = 0; i < 12; i++) { run += dist[i]; if (roll < run) { mat = i; break; } }
    }
    long idx = xs_bsearch(xs_ug, (long)xs_n, p, s);
    wlh_push(s, L(XS_NN, mat * 4));
    wlh_push(s, L(XS_EG, idx * 16 + 8));
    for (int i = 0; i < xs_nn[mat]; i += 2) {
        int nuc = xs_mats[mat][i], nucB = 0;
        wlh_push(s, L(XS_MATS, (mat * 34 + i) * 4));
        wlh_push(s, L(XS_CONCS, (mat * 34 + i) * 8));
        wlh_push(s, L(XS_IX, (idx * XS_ISO + nuc) * 2));
        if (i < xs_nn[mat] - 1) {
            nucB = xs_mats[mat][i + 1];
            wlh_push(s, L(XS_MATS, (mat * 34 + i + 1) * 4));
            wlh_push(s, L(XS_CONCS, (mat * 34 + i + 1) * 8));
            wlh_push(s, L(XS_IX, (idx * XS_ISO + nucB) * 2));
        }
        long ptr = xs_bsearch(xs_ng + nuc * xs_gp, (long)xs_gp, xs_ug[idx], NULL);
        for (int t = 0; t < 6; t++) wlh_push(s, L(XS_NG, (nuc * (long)xs_gp + ptr) * 48 + 16 * t));
        if (i < xs_nn[mat] - 1) {
            long ptrB = xs_bsearch(xs_ng + nucB * xs_gp, (long)xs_gp, xs_ug[idx], NULL);
            for (int t = 0; t < 6; t++)
                wlh_push(s, L(XS_NG, (nucB * (long)xs_gp + ptrB) * 48 + 16 * t));
        }
    }
    for (int j = 0; j < 5; j++) wlh_push(s, S(XS_MAC, (j * 64 + tx) * 8));
    if (k < 10000) for (int j = 0; j < 5; j++) wlh_push(s, S(XS_RES, (5 * k + j) * 8));
}

START_TEST(xsbench_threads_by_hand)
{
    /* 2 grid points a nuclide: every nuclide search ends at once (length 1),
     * so xs_idx = 0 and nuclide n's point is at 96n whatever the energies. */
    static const char *const sets[] = { "workload.kind=xsbench", "workload.xsbench.gridpoints=2",
        "workload.xsbench.lookups=100" };
    xs_build(2, 100, 1, false);
    struct wlh h = wlh_open(sets, NSETS(sets));
    /* N = 136: 16N + 2*68*N + 5*1024*64*8 + 12*34*(4+8) + 48 + 48N + 5*10000*8 */
    ck_assert_uint_eq(h.wl->footprint, 16 * 136 + 2 * 68 * 136 + 2621440 + 12 * 34 * 12 + 48
                      + 48 * 136 + 400000);
    struct wlh_run r = wlh_run_all(h.wl);
    ck_assert_uint_eq(r.kernels, 1);
    wlh_close(&h);
    /* lookup 1: cladding (material 1: nuclides 63..67); its first probe is
     * the middle of [0, 135]: point 67 */
    struct wlh_seq got;
    {
        struct wlh h2 = wlh_open(sets, NSETS(sets));
        got = wlh_thread(h2.wl, 0, 0, 1);
        wlh_close(&h2);
    }
    ck_assert_uint_eq(got.v[0], L(XS_EG, 67 * 16));
    size_t at = 0;
    while (got.v[at] >> 48 == ((uint64_t)INST_LOAD << 12 | XS_EG) && got.v[at] % 16 == 0) at++;
    /* at most ceil(log2(135)) = 8 probes */
    ck_assert_uint_ge(at, 7);
    ck_assert_uint_le(at, 8);
    uint64_t idx = ((got.v[at + 1] & ((1ULL << 48) - 1)) - 8) / 16;
    /* after the probes: numNucs[1], the xs_idx pointer of point idx */
    ck_assert_uint_eq(got.v[at], L(XS_NN, 4));
    uint64_t want[] = {
        L(XS_MATS, 34 * 4), L(XS_CONCS, 34 * 8), L(XS_IX, (idx * 68 + 63) * 2),
        L(XS_MATS, 35 * 4), L(XS_CONCS, 35 * 8), L(XS_IX, (idx * 68 + 64) * 2),
        L(XS_NG, 63 * 96), L(XS_NG, 63 * 96 + 16), L(XS_NG, 63 * 96 + 32),
        L(XS_NG, 63 * 96 + 48), L(XS_NG, 63 * 96 + 64), L(XS_NG, 63 * 96 + 80),
        L(XS_NG, 64 * 96), L(XS_NG, 64 * 96 + 16), L(XS_NG, 64 * 96 + 32),
        L(XS_NG, 64 * 96 + 48), L(XS_NG, 64 * 96 + 64), L(XS_NG, 64 * 96 + 80) };
    for (size_t i = 0; i < NSETS(want); i++) ck_assert_uint_eq(got.v[at + 2 + i], want[i]);
    /* pair 2 = (65, 66), then 67 alone (i = 4 is not < 5 - 1): 18 + 18 + 9
     * loads, then macro_xs_vector[j*64 + 1] and results[5 + j] */
    size_t tail = at + 2 + 18 + 18 + 9;
    ck_assert_uint_eq(got.v[tail - 9], L(XS_MATS, 38 * 4));
    ck_assert_uint_eq(got.v[tail - 6], L(XS_NG, 67 * 96));
    for (int j = 0; j < 5; j++) {
        ck_assert_uint_eq(got.v[tail + j], S(XS_MAC, (j * 64 + 1) * 8));
        ck_assert_uint_eq(got.v[tail + 5 + j], S(XS_RES, (5 + j) * 8));
    }
    ck_assert_uint_eq(got.n, tail + 10);
    free(got.v);
    /* every thread, including lookup 100 (the source's k > numLookups) */
    wlt_all_threads_eq(sets, NSETS(sets), 0, xs_ref, "devCalculateXS_d4");
}
END_TEST

START_TEST(xsbench_grids_and_seeds)
{
    static const char *const sets[] = { "workload.kind=xsbench", "workload.xsbench.gridpoints=50",
        "workload.xsbench.lookups=1500", "sim.seed=3" };
    xs_build(50, 1500, 3, false);
    wlt_all_threads_eq(sets, NSETS(sets), 0, xs_ref, "devCalculateXS_d4 strip");
    static const char *const rnd[] = { "workload.kind=xsbench", "workload.xsbench.gridpoints=50",
        "workload.xsbench.lookups=1500", "workload.xsbench.lookup=random", "sim.seed=3" };
    xs_build(50, 1500, 3, true);
    wlt_all_threads_eq(rnd, NSETS(rnd), 0, xs_ref, "devCalculateXS_d4 random");
    /* the seed moves the grids: another stream; the same seed: the same */
    static const char *const other[] = { "workload.kind=xsbench", "workload.xsbench.gridpoints=50",
        "workload.xsbench.lookups=1500", "sim.seed=4" };
    uint64_t a = stream_hash(sets, NSETS(sets));
    ck_assert_uint_eq(stream_hash(sets, NSETS(sets)), a);
    ck_assert_uint_ne(stream_hash(other, NSETS(other)), a);
    free(xs_ng); free(xs_ug); xs_ng = xs_ug = NULL;
}
END_TEST

/* ---- minife (proxy-apps-doe/minife_matvec_ell; miniFE cg_solve.hpp and
 * cuda/src/Vector_functions.hpp): a brick of E^3 elements, (E+1)^3 nodes. */
static long mf_nodes, mf_side, mf_pitch, mf_blocks;
static int mf_vx, mf_vw, mf_cols, mf_coefs;

/* Columns of row r: the brick's nodes at -1..1 in z, y, x, ascending. */
static int mf_row(long r, long *c)
{
    long x = r % mf_side, y = r / mf_side % mf_side, z = r / (mf_side * mf_side);
    int n = 0;
    for (long dz = -1; dz <= 1; dz++)
        for (long dy = -1; dy <= 1; dy++)
            for (long dx = -1; dx <= 1; dx++) {
                long a = x + dx, b = y + dy, e = z + dz;
                if (a >= 0 && b >= 0 && e >= 0 && a < mf_side && b < mf_side && e < mf_side)
                    c[n++] = a + mf_side * (b + mf_side * e);
            }
    return n;
}

/* matvec_ell_kernel, rows grid-strided */
static void mf_matvec_ref(struct wlh_seq *s, uint64_t b, uint32_t tx)
{
    for (long row = (long)(b * 256 + tx); row < mf_nodes; row += 256 * mf_blocks) {
        long c[27];
        int n = mf_row(row, c);
        long off = row;
        for (int j = 0; j < 27; j++) {
            wlh_push(s, L(mf_cols, off * 4));
            if (j < n) { wlh_push(s, L(mf_coefs, off * 8)); wlh_push(s, L(mf_vx, c[j] * 8)); }
            off += mf_pitch;
        }
        wlh_push(s, S(mf_vw, row * 8));
    }
}

START_TEST(minife_matvec_threads_by_hand)
{
    /* 2^3 elements: 27 nodes, pitch 32 (27 rounded up to 128 B / 8);
     * row 0 is a corner with 8 columns: nodes 0, 1, 3, 4, 9, 10, 12, 13 */
    static const char *const sets[] = { "workload.kind=minife", "workload.minife.nx=2",
        "workload.minife.ny=2", "workload.minife.nz=2" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    /* x, y: 216 B; ELL 27*32*(4 + 8) B; CSR: 28 offsets, nnz = 7^3 = 343 */
    ck_assert_uint_eq(h.wl->footprint, 2 * 216 + 27 * 32 * 12 + 28 * 4 + 343 * 12);
    struct wlh_run r = wlh_run_all(h.wl);
    ck_assert_uint_eq(r.kernels, 1);
    /* x, y, ELL cols 1 page, ELL coefs 2 pages (entries j >= 16 of the
     * 27-column centre row lie past 4096 bytes); the CSR copy is never read */
    ck_assert_uint_eq(r.pages, 5);
    wlh_close(&h);
    static const long c0[8] = { 0, 1, 3, 4, 9, 10, 12, 13 };
    struct wlh_seq w = {0};
    for (int j = 0; j < 27; j++) {
        wlh_push(&w, L(2, j * 32 * 4));
        if (j < 8) { wlh_push(&w, L(3, j * 32 * 8)); wlh_push(&w, L(0, c0[j] * 8)); }
    }
    wlh_push(&w, S(1, 0));
    check_thread(sets, NSETS(sets), 0, 0, 0, &w, "matvec row 0");
    mf_nodes = 27; mf_side = 3; mf_pitch = 32; mf_blocks = 1;
    mf_vx = 0; mf_vw = 1; mf_cols = 2; mf_coefs = 3;
    wlt_all_threads_eq(sets, NSETS(sets), 0, mf_matvec_ref, "matvec_ell_kernel");
    /* 16^3 elements: 4913 rows, 20 blocks of 256, pitch 4928 */
    static const char *const big[] = { "workload.kind=minife", "workload.minife.nx=16",
        "workload.minife.ny=16", "workload.minife.nz=16" };
    mf_nodes = 4913; mf_side = 17; mf_pitch = 4928; mf_blocks = 20;
    wlt_all_threads_eq(big, NSETS(big), 0, mf_matvec_ref, "matvec_ell_kernel 16^3");
}
END_TEST

START_TEST(minife_cg_program)
{
    /* allocations: ELL cols, coefs, x, b, r, p, Ap, d */
    static const char *const sets[] = { "workload.kind=minife", "workload.minife.nx=2",
        "workload.minife.ny=2", "workload.minife.nz=2", "workload.minife.solver=cg",
        "workload.minife.cg_iterations=2" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    /* cg_solve: waxpby, matvec, waxpby, dot (2 kernels); k = 1: waxpby,
     * matvec, dot, waxpby x 2; k = 2: dot, waxpby, matvec, dot, waxpby x 2 */
    static const char *const names[] = { "waxpby_kernel", "matvec_ell_kernel", "waxpby_kernel",
        "dot_kernel", "dot_final_reduce_kernel",
        "waxpby_kernel", "matvec_ell_kernel", "dot_kernel", "dot_final_reduce_kernel",
        "waxpby_kernel", "waxpby_kernel",
        "dot_kernel", "dot_final_reduce_kernel", "waxpby_kernel", "matvec_ell_kernel",
        "dot_kernel", "dot_final_reduce_kernel", "waxpby_kernel", "waxpby_kernel" };
    struct wl_step st;
    size_t nk = 0, nh = 0;
    while (wl_next_step(h.wl, &st)) {
        if (st.kind != WL_STEP_KERNEL) { nh++; continue; }
        ck_assert_uint_lt(nk, NSETS(names));
        ck_assert_str_eq(st.kernel.name, names[nk]);
        nk++;
    }
    ck_assert_uint_eq(nk, NSETS(names));
    /* ELL, b, x in; d[0] out after each of the 4 dots; x out */
    ck_assert_uint_eq(nh, 4 + 4 + 1);
    wlh_close(&h);
    /* launch 0, waxpby(1, x, 0, x -> p): thread 5 loads x[5] twice, stores p[5] */
    uint64_t v0[] = { L(2, 40), L(2, 40), S(5, 40) };
    struct wlh_seq w = wlt_list(v0, NSETS(v0));
    check_thread(sets, NSETS(sets), 0, 0, 5, &w, "waxpby x -> p");
    /* launch 1: matvec(p -> Ap), row 0 */
    static const long c0[8] = { 0, 1, 3, 4, 9, 10, 12, 13 };
    for (int j = 0; j < 27; j++) {
        wlh_push(&w, L(0, j * 32 * 4));
        if (j < 8) { wlh_push(&w, L(1, j * 32 * 8)); wlh_push(&w, L(5, c0[j] * 8)); }
    }
    wlh_push(&w, S(6, 0));
    check_thread(sets, NSETS(sets), 1, 0, 0, &w, "matvec p -> Ap");
    /* launch 3: dot(r, r), one block of 512: thread 0 loads r[0] twice, 4
     * barriers, stores d[0]; thread 26 the same without the store; thread
     * 27 only the barriers */
    uint64_t v3[] = { L(4, 0), L(4, 0), BAR, BAR, BAR, BAR, S(7, 0) };
    w = wlt_list(v3, NSETS(v3));
    check_thread(sets, NSETS(sets), 3, 0, 0, &w, "dot thread 0");
    uint64_t v3b[] = { BAR, BAR, BAR, BAR };
    w = wlt_list(v3b, NSETS(v3b));
    check_thread(sets, NSETS(sets), 3, 0, 27, &w, "dot thread 27");
    /* launch 4: dot_final_reduce <<<1, 1024>>>: thread 1000 loads d[1000], 5 barriers */
    uint64_t v4[] = { L(7, 8000), BAR, BAR, BAR, BAR, BAR };
    w = wlt_list(v4, NSETS(v4));
    check_thread(sets, NSETS(sets), 4, 0, 1000, &w, "dot_final_reduce thread 1000");
    /* launch 10 (k = 1's last): waxpby(1, r, -alpha, Ap -> r) */
    uint64_t v10[] = { L(4, 8), L(6, 8), S(4, 8) };
    w = wlt_list(v10, NSETS(v10));
    check_thread(sets, NSETS(sets), 10, 0, 1, &w, "waxpby r, Ap -> r");
}
END_TEST

/* ---- comd (proxy-apps-doe/comd, -p ag -e): allocation indices */
enum { CM_RX, CM_RY, CM_RZ, CM_PX, CM_PY, CM_PZ, CM_FX, CM_FY, CM_FZ, CM_E, CM_FI, CM_RHO,
       CM_BX, CM_BY, CM_BZ, CM_NL, CM_NN, CM_NA, CM_LA, CM_LB, CM_TRHO, CM_TPHI, CM_TF, CM_NV };

static uint64_t rec_alloc(uint64_t v) { return (v >> 48) & 0xfff; }
static uint64_t rec_off(uint64_t v) { return v & ((1ULL << 48) - 1); }

START_TEST(comd_force_by_hand)
{
    /* 3^3 FCC cells of Ag (a = 4.09): bounds 12.27, nbx = 2 + floor(12.27 /
     * 5.542) = 4 boxes a dimension (2 real + 2 halo), 64 boxes, 108 atoms. */
    static const char *const sets[] = { "workload.kind=comd", "workload.comd.x=3",
        "workload.comd.y=3", "workload.comd.z=3" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    uint64_t B = 64;
    ck_assert_uint_eq(h.wl->footprint, 12 * 128 * B + 3 * 8 * B + 108 * B + 2 * 4 * B
                      + 2 * 64 * B + 2 * (3000 + 6) * 8 + (2251 + 6) * 8 + 12);
    struct wlh_run r = wlh_run_all(h.wl);
    /* -n 0: EAM_Force_thread_atom<1>, EAM_Force_2, copy_halos, <3> */
    ck_assert_uint_eq(r.kernels, 4);
    wlh_close(&h);
    /* Thread 0 of <1>: atom 0 of box 0 (the first site with i+j+k odd, at
     * (3a/4, a/4, a/4)); its first neighbour box is (-1,-1,-1) -> halo box
     * (2,2,2) = 42.  The period 12.27 exceeds twice the cutoff, so every
     * atom has exactly the 42 FCC neighbours within 5.542: 12 at a/sqrt2,
     * 6 at a, 24 at a*sqrt(3/2); eamInterpolateDeriv_opt's index there,
     * floor((r - x0) * invDx) with ag.phi's x0 = 1 + 4.542/3000 and invDx
     * 660.50198, is 1248, 2039 and 2647. */
    struct wlh h1 = wlh_open(sets, NSETS(sets));
    struct wlh_seq got = wlh_thread(h1.wl, 0, 0, 0);
    wlh_close(&h1);
    uint64_t pro[] = { L(CM_LA, 0), L(CM_LB, 0), L(CM_RX, 0), L(CM_RY, 0), L(CM_RZ, 0),
                       L(CM_NA, 0), L(CM_NN, 0), L(CM_BX, 0), L(CM_BY, 0), L(CM_BZ, 0),
                       L(CM_NL, 0), L(CM_BX, 42 * 8), L(CM_BY, 42 * 8), L(CM_BZ, 42 * 8),
                       L(CM_NA, 42 * 4) };
    for (size_t i = 0; i < NSETS(pro); i++) ck_assert_uint_eq(got.v[i], pro[i]);
    uint64_t nphi[3] = {0}, nrho = 0, nstore = 0;
    for (size_t i = 0; i < got.n; i++) {
        uint64_t a = rec_alloc(got.v[i]), o = rec_off(got.v[i]) / 8;
        if (a == CM_TPHI) {
            if (o >= 1248 && o <= 1251) nphi[0]++;
            else if (o >= 2039 && o <= 2042) nphi[1]++;
            else if (o >= 2647 && o <= 2650) nphi[2]++;
            else ck_abort_msg("phi table entry %llu", (unsigned long long)o);
        }
        if (a == CM_TRHO) nrho++;
        if (got.v[i] >> 60 == INST_STORE) nstore++;
    }
    ck_assert_uint_eq(nphi[0], 12 * 4);
    ck_assert_uint_eq(nphi[1], 6 * 4);
    ck_assert_uint_eq(nphi[2], 24 * 4);
    ck_assert_uint_eq(nrho, 42 * 4);
    /* f.x, f.y, f.z, e, rho */
    ck_assert_uint_eq(nstore, 5);
    ck_assert_uint_eq(got.v[got.n - 1], S(CM_RHO, 0));
    free(got.v);
    /* <3> (launch 3): rho entries and fi of both atoms per pair */
    struct wlh h3 = wlh_open(sets, NSETS(sets));
    got = wlh_thread(h3.wl, 3, 0, 5);
    wlh_close(&h3);
    uint64_t nfi = 0;
    nrho = 0;
    for (size_t i = 0; i < got.n; i++) {
        nrho += rec_alloc(got.v[i]) == CM_TRHO;
        nfi += rec_alloc(got.v[i]) == CM_FI;
        ck_assert_uint_ne(rec_alloc(got.v[i]), CM_TPHI);
    }
    ck_assert_uint_eq(nrho, 42 * 4);
    ck_assert_uint_eq(nfi, 42 * 2);
    free(got.v);
    /* EAM_Force_2, box 0 atom 0: F's x0, xn, invDx at n+3..n+5 (n = 2251),
     * then values i1+2, i1, i1+3, i1+1 with i1 = 323 (the 0 K density
     * 0.0913556 of the 42 neighbours through ag.f's x0 0.633664/2251 and
     * invDx 3552.3578) */
    uint64_t f2[] = { L(CM_NA, 0), L(CM_RHO, 0), L(CM_NV, 8), L(CM_TF, 2254 * 8),
                      L(CM_TF, 2255 * 8), L(CM_TF, 2256 * 8), L(CM_TF, 325 * 8), L(CM_TF, 323 * 8),
                      L(CM_TF, 326 * 8), L(CM_TF, 324 * 8), S(CM_FI, 0), L(CM_E, 0), S(CM_E, 0) };
    struct wlh_seq w = wlt_list(f2, NSETS(f2));
    check_thread(sets, NSETS(sets), 1, 0, 0, &w, "EAM_Force_2 box 0 atom 0");
    /* copy_halos: halo box 3 = (3,0,0) mirrors box 0 */
    uint64_t hl[] = { L(CM_NA, 3 * 4), L(CM_FI, 0), S(CM_FI, 3 * 16 * 8), L(CM_RX, 0),
                      S(CM_RX, 3 * 16 * 8), L(CM_RY, 0), S(CM_RY, 3 * 16 * 8), L(CM_RZ, 0),
                      S(CM_RZ, 3 * 16 * 8) };
    w = wlt_list(hl, NSETS(hl));
    check_thread(sets, NSETS(sets), 2, 3, 0, &w, "copy_halos box 3 atom 0");
    /* a real box copies nothing */
    uint64_t rb[] = { L(CM_NA, 0) };
    w = wlt_list(rb, NSETS(rb));
    check_thread(sets, NSETS(sets), 2, 0, 0, &w, "copy_halos box 0");
}
END_TEST

START_TEST(comd_steps)
{
    /* -n 2: the first force, then per step AdvancePositions, copy_halos,
     * <1>, EAM_Force_2, copy_halos, <3>, AdvanceVelocity, AdvancePositions */
    static const char *const sets[] = { "workload.kind=comd", "workload.comd.x=3",
        "workload.comd.y=3", "workload.comd.z=3", "workload.comd.steps=2" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wlh_run r = wlh_run_all(h.wl);
    ck_assert_uint_eq(r.kernels, 4 + 2 * 8);
    wlh_close(&h);
    /* AdvanceVelocity (launch 10), box 0 atom 2: p -= dt f per component */
    uint64_t av[] = { L(CM_NA, 0), L(CM_PX, 16), L(CM_FX, 16), S(CM_PX, 16), L(CM_PY, 16),
                      L(CM_FY, 16), S(CM_PY, 16), L(CM_PZ, 16), L(CM_FZ, 16), S(CM_PZ, 16) };
    struct wlh_seq w = wlt_list(av, NSETS(av));
    check_thread(sets, NSETS(sets), 10, 0, 2, &w, "AdvanceVelocity box 0 atom 2");
    /* halo boxes do not advance */
    w = (struct wlh_seq){0};
    check_thread(sets, NSETS(sets), 4, 3, 0, &w, "AdvancePositions halo box");
}
END_TEST

/* ---- cns (proxy-apps-doe/cns/prototype_simple.cu, run.bash's cns_all).
 * Grid 32 x 8 x 16: nx_pad = 32 + 8 = 40, not a multiple of 16, so + (16 -
 * 8) = 48 = P; ny_pad = 16, S = 48 * 16 = 768; nz_pad = 24; lead_pad = 16 -
 * 4 = 12; padding_to_first_output_cell = 12 + 4*768 + 4*48 + 4 = 3280.  A
 * volume is (12 + 48*16*24) * 8 = 147552 bytes; element idx (relative to
 * the shifted pointer) sits at byte (3280 + idx) * 8 of its volume. */
#define CN_P 48
#define CN_S 768
#define CN_O(i) (((int64_t)3280 + (i)) * 8)
static const int64_t cn_ny = 8, cn_nz = 16;
static struct { int v; int64_t i; } cn_seen[160];
static int cn_nseen;

/* One __ldg of the source: a load of an address already loaded in this
 * step with no store since is the same register (C semantics, see
 * docs/decisions.md); a store forgets everything (the pointers may alias). */
static void cn_ld(struct wlh_seq *s, int v, int64_t i)
{
    for (int k = 0; k < cn_nseen; k++)
        if (cn_seen[k].v == v && cn_seen[k].i == i) return;
    cn_seen[cn_nseen].v = v; cn_seen[cn_nseen++].i = i;
    wlh_push(s, L(v, CN_O(i)));
}
static void cn_st(struct wlh_seq *s, int v, int64_t i)
{ wlh_push(s, S(v, CN_O(i))); cn_nseen = 0; }

/* The nine kernels transcribed from prototype_simple.cu, each thread's
 * loop nest as written; d_volumes[] bound as main() binds them. */
static void cn_kernel(struct wlh_seq *s, int k, uint64_t b, uint32_t tid)
{
    int64_t ix = tid % 32, i2 = (int64_t)b * 8 + tid / 32;
    bool ymarch = k == 4;
    int64_t stride = ymarch ? CN_P : CN_S;
    int64_t out = ymarch ? i2 * CN_S + ix : i2 * CN_P + ix, in = out - 4 * stride;
    int64_t n = ymarch ? cn_ny : cn_nz;
    /* the register queues: elements 1..8 before the loop, one per step */
    static const int q[9][6] = { { 3 }, { 0 }, { 1 }, { 1 }, { 1, 2, 3 }, { 1, 2, 3 },
                                 { 7, 1, 2, 3 }, { 0, 1, 4 }, { 0, 1, 2, 3, 7 } };
    static const int nq[9] = { 1, 0, 1, 1, 3, 3, 4, 3, 5 };
    cn_nseen = 0;
    for (int i = 1; i < 9; i++, in += stride)
        for (int j = 0; j < nq[k]; j++) wlh_push(s, L(q[k][j], CN_O(in)));
    for (int64_t it = 0; it < n; it++, in += stride, out += stride) {
        cn_nseen = 0;
        for (int j = 0; j < nq[k]; j++) cn_ld(s, q[k][j], in);
        switch (k) {
        case 0:     /* update_rho_single_pass(rho 0, ux 1, uy 2, uz 3) */
            for (int i = 1; i <= 4; i++) {
                cn_ld(s, 1, out + i); cn_ld(s, 1, out - i);
                cn_ld(s, 2, out + i * CN_P); cn_ld(s, 2, out - i * CN_P);
            }
            cn_ld(s, 0, out); cn_st(s, 0, out);
            break;
        case 1:     /* first_derivative_x(vx_x 0, vx 1) */
            cn_ld(s, 1, out);
            for (int i = 1; i <= 4; i++) { cn_ld(s, 1, out + i); cn_ld(s, 1, out - i); }
            cn_st(s, 0, out);
            break;
        case 2:     /* first_derivative_z(vz_z 0, vz 1) */
            cn_st(s, 0, out);
            break;
        case 3:     /* D_momentum_x(difflux 0, vx 1, vy_y 2, vz_z 3) */
            cn_ld(s, 2, out); cn_ld(s, 3, out);
            for (int i = 1; i <= 4; i++) {
                cn_ld(s, 1, out + i); cn_ld(s, 1, out - i);
                cn_ld(s, 1, out + i * CN_P); cn_ld(s, 1, out - i * CN_P);
                cn_ld(s, 2, out + i); cn_ld(s, 2, out - i);
                cn_ld(s, 3, out + i); cn_ld(s, 3, out - i);
            }
            cn_st(s, 0, out);
            break;
        case 4:     /* D_momentum_y_Q(difflux 0, vy 1, vx_x 2, vz_z 3), marching y */
            for (int i = 1; i <= 4; i++) {
                cn_ld(s, 1, out + i); cn_ld(s, 1, out - i);
                cn_ld(s, 1, out + i * CN_S); cn_ld(s, 1, out - i * CN_S);
            }
            cn_st(s, 0, out);
            break;
        case 5:     /* D_momentum_z_Q(difflux 0, vz 1, vx_x 2, vy_y 3) */
            for (int i = 1; i <= 4; i++) {
                cn_ld(s, 1, out + i); cn_ld(s, 1, out - i);
                cn_ld(s, 1, out + i * CN_P); cn_ld(s, 1, out - i * CN_P);
            }
            cn_st(s, 0, out);
            break;
        case 6:     /* D_energy_4q(difflux_E 0, T 7, vx 1, vy 2, vz 3, dfx 4, dfy 5, dfz 6) */
            for (int i = 1; i <= 4; i++) {
                static const int f[4] = { 7, 1, 2, 3 };
                for (int j = 0; j < 4; j++) {
                    cn_ld(s, f[j], out + i); cn_ld(s, f[j], out - i);
                    cn_ld(s, f[j], out + i * CN_P); cn_ld(s, f[j], out - i * CN_P);
                }
            }
            cn_ld(s, 4, out); cn_ld(s, 1, out); cn_ld(s, 5, out); cn_ld(s, 2, out);
            cn_ld(s, 6, out); cn_ld(s, 3, out);
            cn_st(s, 0, out);
            break;
        case 7:     /* update_rE(rE 0, p 1, vx 2, vy 3, vz 4, difflux_E 5);
                     * rEp_vy_y reads g_vx, as the source does */
            for (int i = 1; i <= 4; i++) {
                const int64_t d[4] = { i, -i, i * CN_P, -i * CN_P };
                for (int j = 0; j < 4; j++) {
                    cn_ld(s, 2, out + d[j]); cn_ld(s, 0, out + d[j]); cn_ld(s, 1, out + d[j]);
                }
            }
            cn_ld(s, 0, out); cn_ld(s, 5, out); cn_st(s, 0, out);
            break;
        default:    /* update_xyz_m4s(ux 0, uy 1, uz 2, rho 3, dfx 4, dfy 5, dfz 6, p 7) */
            for (int i = 1; i <= 4; i++) {
                int64_t x = i, y = i * CN_P;
                /* hypterm_x: rho ux ux (x), rho ux uy (y), p (x) */
                cn_ld(s, 3, out + x); cn_ld(s, 0, out + x); cn_ld(s, 0, out + x);
                cn_ld(s, 3, out - x); cn_ld(s, 0, out - x); cn_ld(s, 0, out - x);
                cn_ld(s, 3, out + y); cn_ld(s, 0, out + y); cn_ld(s, 1, out + y);
                cn_ld(s, 3, out - y); cn_ld(s, 0, out - y); cn_ld(s, 1, out - y);
                cn_ld(s, 7, out + x); cn_ld(s, 7, out - x);
                /* hypterm_y: rho ux uy (x), rho uy uy (y), p (y) */
                cn_ld(s, 3, out + x); cn_ld(s, 0, out + x); cn_ld(s, 1, out + x);
                cn_ld(s, 3, out - x); cn_ld(s, 0, out - x); cn_ld(s, 1, out - x);
                cn_ld(s, 3, out + y); cn_ld(s, 1, out + y); cn_ld(s, 1, out + y);
                cn_ld(s, 3, out - y); cn_ld(s, 1, out - y); cn_ld(s, 1, out - y);
                cn_ld(s, 7, out + y); cn_ld(s, 7, out - y);
                /* hypterm_z: rho ux uz (x), rho uy uz (y); z terms from queues */
                cn_ld(s, 3, out + x); cn_ld(s, 0, out + x); cn_ld(s, 2, out + x);
                cn_ld(s, 3, out - x); cn_ld(s, 0, out - x); cn_ld(s, 2, out - x);
                cn_ld(s, 3, out + y); cn_ld(s, 1, out + y); cn_ld(s, 2, out + y);
                cn_ld(s, 3, out - y); cn_ld(s, 1, out - y); cn_ld(s, 2, out - y);
            }
            cn_ld(s, 4, out); cn_st(s, 0, out);
            cn_ld(s, 5, out); cn_st(s, 1, out);
            cn_ld(s, 6, out); cn_st(s, 2, out);
            break;
        }
    }
}
#define CN_REF(k) static void cn_k##k(struct wlh_seq *s, uint64_t b, uint32_t t) { cn_kernel(s, k, b, t); }
CN_REF(0) CN_REF(1) CN_REF(2) CN_REF(3) CN_REF(4) CN_REF(5) CN_REF(6) CN_REF(7) CN_REF(8)

static const char *const cn_sets[] = { "workload.kind=cns", "workload.cns.nx=32",
    "workload.cns.ny=8", "workload.cns.nz=16" };

START_TEST(cns_threads_by_hand)
{
    /* nine launches; pages: a volume read through a register queue is
     * touched from byte CN_O(-4*768) = 1664 (page 0) of thread (0,0) to the
     * last queue point CN_O(367 + 19*768) + 7 = 145919 (page 35) of thread
     * (31,7) in its last step: 36 pages.  d_volumes[5] and [6] are only
     * read or written at idx_out (difflux_y/z, difflux_E): CN_O(0) = 26240
     * (page 6) to CN_O(367 + 15*768) + 7 = 121343 (page 29): 24 pages. */
    struct wlh h = open_check(cn_sets, NSETS(cn_sets), 6 * 36 + 2 * 24, 9);
    ck_assert_uint_eq(h.wl->nallocs, 8);
    ck_assert_uint_eq(h.wl->footprint, 8 * 147552);
    wlh_close(&h);
    /* first_derivative_x (launch 1), thread (0, 0): idx = iz*768, field at
     * idx, idx+1, idx-1, ..., idx+4, idx-4, then deriv[idx]: byte 26240 +
     * 6144*iz + 8*d */
    struct wlh_seq w = {0};
    for (int iz = 0; iz < 16; iz++) {
        uint64_t o = 26240 + 6144 * (uint64_t)iz;
        uint64_t v[] = { L(1, o), L(1, o + 8), L(1, o - 8), L(1, o + 16), L(1, o - 16),
                         L(1, o + 24), L(1, o - 24), L(1, o + 32), L(1, o - 32), S(0, o) };
        for (size_t i = 0; i < NSETS(v); i++) wlh_push(&w, v[i]);
    }
    check_thread(cn_sets, NSETS(cn_sets), 1, 0, 0, &w, "first_derivative_x thread 0");
    /* update_rho_single_pass (launch 0), thread 33 = (tx 1, ty 1): idx_out
     * = 48 + 1 = 49.  Queue g_uz (volume 3) at 49 - 4*768 ... 49 + 3*768 =
     * -3023, -2255, -1487, -719, 49, 817, 1585, 2353: bytes 2056, 8200,
     * 14344, 20488, 26632, 32776, 38920, 45064.  Step 0: g_uz[49 + 4*768 =
     * 3121] (51208); g_ux[50], g_ux[48], g_uy[97], g_uy[1] (i = 1) ...
     * g_ux[49 +- i], g_uy[49 +- 48i]; g_rho[49] loaded and stored (26632).
     * Each later step adds 768 elements = 6144 bytes. */
    w = (struct wlh_seq){0};
    uint64_t pro[] = { 2056, 8200, 14344, 20488, 26632, 32776, 38920, 45064 };
    for (int i = 0; i < 8; i++) wlh_push(&w, L(3, pro[i]));
    for (int iz = 0; iz < 16; iz++) {
        uint64_t d = 6144 * (uint64_t)iz;
        uint64_t v[] = { L(3, 51208 + d),
            L(1, 26640 + d), L(1, 26624 + d), L(2, 27016 + d), L(2, 26248 + d),
            L(1, 26648 + d), L(1, 26616 + d), L(2, 27400 + d), L(2, 25864 + d),
            L(1, 26656 + d), L(1, 26608 + d), L(2, 27784 + d), L(2, 25480 + d),
            L(1, 26664 + d), L(1, 26600 + d), L(2, 28168 + d), L(2, 25096 + d),
            L(0, 26632 + d), S(0, 26632 + d) };
        for (size_t i = 0; i < NSETS(v); i++) wlh_push(&w, v[i]);
    }
    check_thread(cn_sets, NSETS(cn_sets), 0, 0, 33, &w, "update_rho thread 33");
    /* D_momentum_y_Q (launch 4): grid (1, nz/8 = 2); block 1 thread 0 is
     * ix 0, iz 8: idx_out = 8*768 = 6144 (byte 75392), marching in y (48
     * elements = 384 bytes a step).  Prologue: vy, vx_x, vz_z at idx_out +
     * 48*(i-4), i = 0..7: bytes 75392 + 384*(i-4).  Step iy: the three
     * queues at 75392 + 384*(iy+4); g_vy at +-8i bytes and +-6144i bytes
     * (one slice); store difflux at 75392 + 384*iy. */
    w = (struct wlh_seq){0};
    for (int i = 0; i < 8; i++)
        for (int v = 1; v <= 3; v++) wlh_push(&w, L(v, 75392 + 384 * (i - 4)));
    for (int iy = 0; iy < 8; iy++) {
        uint64_t o = 75392 + 384 * (uint64_t)iy;
        for (int v = 1; v <= 3; v++) wlh_push(&w, L(v, o + 4 * 384));
        for (uint64_t i = 1; i <= 4; i++) {
            wlh_push(&w, L(1, o + 8 * i)); wlh_push(&w, L(1, o - 8 * i));
            wlh_push(&w, L(1, o + 6144 * i)); wlh_push(&w, L(1, o - 6144 * i));
        }
        wlh_push(&w, S(0, o));
    }
    check_thread(cn_sets, NSETS(cn_sets), 4, 1, 0, &w, "D_momentum_y_Q block 1 thread 0");
    /* update_xyz_m4s (launch 8), thread 0, step 0: 5 x 8 queue loads, 5
     * new queue points, per i 12 + 4 + 4 distinct (the repeats of rho and
     * ux at +-i, +-i*nx_pad are one load each), then 3 x (load, store) */
    {
        struct wlh hh = wlh_open(cn_sets, NSETS(cn_sets));
        struct wlh_seq got = wlh_thread(hh.wl, 8, 0, 0);
        ck_assert_uint_eq(got.n, 40 + 16 * (5 + 4 * 20 + 6));
        free(got.v);
        wlh_close(&hh);
    }
    wlt_all_threads_eq(cn_sets, NSETS(cn_sets), 0, cn_k0, "update_rho_single_pass");
    wlt_all_threads_eq(cn_sets, NSETS(cn_sets), 1, cn_k1, "first_derivative_x");
    wlt_all_threads_eq(cn_sets, NSETS(cn_sets), 2, cn_k2, "first_derivative_z");
    wlt_all_threads_eq(cn_sets, NSETS(cn_sets), 3, cn_k3, "D_momentum_x");
    wlt_all_threads_eq(cn_sets, NSETS(cn_sets), 4, cn_k4, "D_momentum_y_Q");
    wlt_all_threads_eq(cn_sets, NSETS(cn_sets), 5, cn_k5, "D_momentum_z_Q");
    wlt_all_threads_eq(cn_sets, NSETS(cn_sets), 6, cn_k6, "D_energy_4q");
    wlt_all_threads_eq(cn_sets, NSETS(cn_sets), 7, cn_k7, "update_rE");
    wlt_all_threads_eq(cn_sets, NSETS(cn_sets), 8, cn_k8, "update_xyz_m4s");
}
END_TEST

START_TEST(cns_iterations_and_errors)
{
    /* iterations = 2: each kernel launched twice in a row (main()'s loops) */
    static const char *const sets[] = { "workload.kind=cns", "workload.cns.nx=32",
        "workload.cns.ny=8", "workload.cns.nz=16", "workload.cns.iterations=2" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wl_kernel k;
    const char *names[] = { "update_rho_single_pass", "first_derivative_x",
        "first_derivative_z", "D_momentum_x", "D_momentum_y_Q", "D_momentum_z_Q",
        "D_energy_4q", "update_rE", "update_xyz_m4s" };
    for (int i = 0; i < 18; i++) {
        ck_assert(wl_next_kernel(h.wl, &k));
        ck_assert_str_eq(k.name, names[i / 2]);
        ck_assert_uint_eq(k.grid.y, i / 2 == 4 ? 2 : 1);
        /* 18 registers per 9-double queue + 32 (the file's estimate) */
        static const uint32_t nq[9] = { 1, 0, 1, 1, 3, 3, 4, 3, 5 };
        ck_assert_uint_eq(k.regs_per_thread, 32 + 18 * nq[i / 2]);
    }
    ck_assert(!wl_next_kernel(h.wl, &k));
    wlh_close(&h);
    /* nx_pad = 64 + 8 = 72 -> 80 (run.bash small): volume (12 + 80*40*40)*8 */
    static const char *const small[] = { "workload.kind=cns" };
    h = wlh_open(small, NSETS(small));
    ck_assert_uint_eq(h.wl->footprint, 8ull * (12 + 80 * 40 * 40) * 8);
    wlh_close(&h);
}
END_TEST

static Suite *thesis_suite(void)
{
    Suite *s = suite_create("wl_thesis");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, srad_v1_threads_by_hand);
    tcase_add_test(tc, srad_v1_full_blocks_and_loop);
    tcase_add_test(tc, xsbench_threads_by_hand);
    tcase_add_test(tc, xsbench_grids_and_seeds);
    tcase_add_test(tc, minife_matvec_threads_by_hand);
    tcase_add_test(tc, minife_cg_program);
    tcase_add_test(tc, comd_force_by_hand);
    tcase_add_test(tc, comd_steps);
    tcase_add_test(tc, cns_threads_by_hand);
    tcase_add_test(tc, cns_iterations_and_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(thesis_suite()); }

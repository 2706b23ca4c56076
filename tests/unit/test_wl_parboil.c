/* Parboil kernels: pages touched equal the footprint formula; chosen
 * threads' memory ops and barriers equal the kernel, transcribed here. */
#include <check.h>
#include "suite_main.h"
#include "wl_harness.h"
#include <math.h>

/* mysgemmNT, m = 256, n = 32, k = 24; allocs 0 A, 1 B, 2 C. */
static void sgemm_ref(struct wlh_seq *s, int M, int N, int K, int bx, int by, int tx, int ty)
{
    int lda = M, ldb = N, ldc = M;
    int mid = ty * 16 + tx, m = bx * 128 + mid, n = by * 16 + tx;
    for (int i = 0; i < K; i += 8) {
        wlh_push(s, L(1, (n + (i + ty) * ldb) * 4));
        wlh_push(s, BAR);
        for (int j = 0; j < 8; j++) wlh_push(s, L(0, (m + (i + j) * lda) * 4));
        wlh_push(s, BAR);
    }
    int t = ldc * by * 16 + m;
    for (int i = 0; i < 16; i++) {
        wlh_push(s, L(2, (t + i * ldc) * 4));
        wlh_push(s, S(2, (t + i * ldc) * 4));
    }
}

START_TEST(sgemm_pages_and_thread_sequence)
{
    static const char *const sets[] = { "workload.kind=sgemm", "workload.sgemm.m=256",
        "workload.sgemm.n=32", "workload.sgemm.k=24" };
    struct wlh h = open_check(sets, NSETS(sets),
        wlh_pages(256 * 24 * 4) + wlh_pages(32 * 24 * 4) + wlh_pages(256 * 32 * 4), 1);
    wlh_close(&h);
    struct wlh_seq want = {0};
    sgemm_ref(&want, 256, 32, 24, 1, 1, 5, 3);
    check_thread(sets, NSETS(sets), 0, 1 * 2 + 1, 3 * 16 + 5, &want, "sgemm (1,1) (5,3)");
    sgemm_ref(&want, 256, 32, 24, 0, 0, 15, 7);
    check_thread(sets, NSETS(sets), 0, 0, 7 * 16 + 15, &want, "sgemm (0,0) (15,7)");
}
END_TEST

/* block2D_hybrid_coarsen_x for one thread, transcribed from the kernel;
 * blocks 32 x 4; A0 and Anext are allocation indices. */
#define Index3D(nx, ny, i, j, k) (((k) * (ny) + (j)) * (nx) + (i))
static void stencil_ref(struct wlh_seq *s, int nx, int ny, int nz, int bx, int by,
                        int tx, int ty, int A0, int Anext)
{
    const int bdx = 32, bdy = 4;
    const int i = bx * bdx * 2 + tx, i2 = bx * bdx * 2 + tx + bdx, j = by * bdy + ty;
    wlh_push(s, BAR);
    const bool w_region = i > 0 && j > 0 && (i < nx - 1) && (j < ny - 1);
    const bool w_region2 = j > 0 && (i2 < nx - 1) && (j < ny - 1);
    const bool x_l_bound = (tx == 0), x_h_bound = ((tx + bdx) == (bdx * 2 - 1));
    const bool y_l_bound = (ty == 0), y_h_bound = (ty == (bdy - 1));
    if ((i < nx) && (j < ny)) {
        wlh_push(s, L(A0, Index3D(nx, ny, i, j, 0) * 4));
        wlh_push(s, L(A0, Index3D(nx, ny, i, j, 1) * 4));
    }
    if ((i2 < nx) && (j < ny)) {
        wlh_push(s, L(A0, Index3D(nx, ny, i2, j, 0) * 4));
        wlh_push(s, L(A0, Index3D(nx, ny, i2, j, 1) * 4));
    }
    wlh_push(s, BAR);
    for (int k = 1; k < nz - 1; k++) {
        if ((i < nx) && (j < ny)) wlh_push(s, L(A0, Index3D(nx, ny, i, j, k + 1) * 4));
        if (w_region) {
            if (x_l_bound) wlh_push(s, L(A0, Index3D(nx, ny, i - 1, j, k) * 4));
            if (y_l_bound) wlh_push(s, L(A0, Index3D(nx, ny, i, j - 1, k) * 4));
            if (y_h_bound) wlh_push(s, L(A0, Index3D(nx, ny, i, j + 1, k) * 4));
            wlh_push(s, S(Anext, Index3D(nx, ny, i, j, k) * 4));
        }
        if ((i2 < nx) && (j < ny)) wlh_push(s, L(A0, Index3D(nx, ny, i2, j, k + 1) * 4));
        if (w_region2) {
            if (x_h_bound) wlh_push(s, L(A0, Index3D(nx, ny, i2 + 1, j, k) * 4));
            if (y_l_bound) wlh_push(s, L(A0, Index3D(nx, ny, i2, j - 1, k) * 4));
            if (y_h_bound) wlh_push(s, L(A0, Index3D(nx, ny, i2, j + 1, k) * 4));
            wlh_push(s, S(Anext, Index3D(nx, ny, i2, j, k) * 4));
        }
        wlh_push(s, BAR);
        wlh_push(s, BAR);
    }
}

START_TEST(stencil_pages_and_thread_sequence)
{
    static const char *const sets[] = { "workload.kind=stencil", "workload.stencil.nx=70",
        "workload.stencil.ny=9", "workload.stencil.nz=5", "workload.stencil.iterations=2" };
    struct wlh h = open_check(sets, NSETS(sets), 2 * wlh_pages(70 * 9 * 5 * 4), 2);
    wlh_close(&h);
    static const char *const one[] = { "workload.kind=stencil", "workload.stencil.nx=70",
        "workload.stencil.ny=9", "workload.stencil.nz=5", "workload.stencil.iterations=1" };
    /* One launch writes Anext only from (1,1,1) to (68,7,3). */
    uint64_t lo = (uint64_t)Index3D(70, 9, 1, 1, 1) * 4, hi = (uint64_t)Index3D(70, 9, 68, 7, 3) * 4 + 4;
    h = open_check(one, NSETS(one), wlh_pages(70 * 9 * 5 * 4) + (hi - 1) / 4096 - lo / 4096 + 1, 1);
    wlh_close(&h);
    /* Grid (2, 3).  Threads on each bound, in launches 0 and 1. */
    static const int th[][4] = { {0, 0, 0, 0}, {0, 1, 0, 3}, {1, 1, 31, 0}, {1, 2, 5, 0},
                                 {0, 1, 31, 2}, {1, 0, 3, 1} };
    struct wlh_seq want = {0};
    for (size_t q = 0; q < sizeof th / sizeof th[0]; q++)
        for (int launch = 0; launch < 2; launch++) {
            stencil_ref(&want, 70, 9, 5, th[q][0], th[q][1], th[q][2], th[q][3],
                        launch, 1 - launch);
            check_thread(sets, NSETS(sets), launch, th[q][1] * 2 + th[q][0],
                         th[q][3] * 32 + th[q][2], &want, "stencil thread");
        }
}
END_TEST

/* spmv over the documented generated matrix, rebuilt here: dim 3200 rows
 * (100 warps; 3200*32 <= 15*1536, so 32-thread blocks, one per warp).
 * Allocs: 0 data, 1 indices, 2 ptr, 3 perm, 4 nzcnt, 5 x, 6 Ax. */
static uint64_t sm64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

#define SD 3200
#define SAVG 6
static uint64_t sp_seed;
static uint64_t sp_nnz(uint64_t r) { return 1 + sm64(sp_seed + r) % (2 * SAVG - 1); }
static uint64_t sp_col(uint64_t r, uint64_t k)
{ return k < sp_nnz(r) ? sm64((sp_seed ^ 0x5bd1e995ULL) + r * 2 * SAVG + k) % SD : 0; }

START_TEST(spmv_pages_and_thread_sequence)
{
    static const char *const sets[] = { "workload.kind=spmv", "workload.spmv.dim=3200",
        "workload.spmv.avg_nnz=6", "workload.spmv.iterations=2", "sim.seed=11" };
    sp_seed = sm64(11);
    /* JDS: a stable sort by nnz, longest first. */
    static uint32_t perm[SD];
    size_t n = 0;
    for (int len = 2 * SAVG - 1; len >= 1; len--)
        for (uint32_t r = 0; r < SD; r++) if (sp_nnz(r) == (uint64_t)len) perm[n++] = r;
    ck_assert_uint_eq(n, SD);
    uint64_t depth = sp_nnz(perm[0]), ptr[2 * SAVG + 1] = {0};
    for (uint64_t k = 0; k < depth; k++) {
        uint64_t w = 0;
        for (uint64_t q = 0; q < SD / 32; q++) if (sp_nnz(perm[q * 32]) > k) w++;
        ptr[k + 1] = ptr[k] + 32 * w;
    }
    uint64_t len = ptr[depth];
    static uint8_t xpage[SD * 4 / 4096 + 1];
    memset(xpage, 0, sizeof xpage);
    uint64_t xp = 0;
    for (uint32_t ix = 0; ix < SD; ix++)
        for (uint64_t k = 0; k < sp_nnz(perm[ix / 32 * 32]); k++) {
            uint64_t c = sp_col(perm[ix], k) * 4 / 4096;
            if (!xpage[c]) { xpage[c] = 1; xp++; }
        }
    struct wlh h = open_check(sets, NSETS(sets),
        2 * wlh_pages(4 * len) + 2 * wlh_pages(4 * SD) + xp, 2);
    wlh_close(&h);
    /* Threads in a long, a middle and the last warp. */
    static const uint32_t ixs[] = { 5, 1601, 3199 };
    struct wlh_seq want = {0};
    for (size_t q = 0; q < 3; q++) {
        uint32_t ix = ixs[q];
        uint64_t bound = sp_nnz(perm[ix / 32 * 32]), row = perm[ix];
#define J(k) (ptr[k] + ix)
        wlh_push(&want, L(0, J(0) * 4)); wlh_push(&want, L(1, J(0) * 4));
        wlh_push(&want, L(5, sp_col(row, 0) * 4));
        if (bound > 1) {
            wlh_push(&want, L(1, J(1) * 4));
            for (uint64_t k = 2; k < bound; k++) {
                wlh_push(&want, L(0, J(k - 1) * 4));
                wlh_push(&want, L(1, J(k) * 4));
                wlh_push(&want, L(5, sp_col(row, k - 1) * 4));
            }
            wlh_push(&want, L(0, J(bound - 1) * 4));
            wlh_push(&want, L(5, sp_col(row, bound - 1) * 4));
        }
#undef J
        wlh_push(&want, L(3, ix * 4));
        wlh_push(&want, S(6, row * 4));
        check_thread(sets, NSETS(sets), 1, ix / 32, ix % 32, &want, "spmv_jds thread");
    }
}
END_TEST

/* cutcp, 20^3 lattice (3^3 regions), h 0.5, cutoff 12: the host's neighbour
 * list and the kernel's loads transcribed.  Allocs: 0 regions, 1 bins. */
static int cc_nbr[1331][3], cc_len;
static int cc_bdx, cc_bdy, cc_c;

static void cc_setup(void)
{
    float h = 0.5f, cutoff = 12.f, BIN_LENGTH = 4.f;
    int lnx = 24;
    cc_c = (int)ceil(cutoff / BIN_LENGTH);
    cc_bdx = cc_bdy = (int)ceil(lnx * h / BIN_LENGTH) + 2 * cc_c;
    float s = sqrtf(3);     /* 8h = 4: a multiple of the bin length */
    float r2 = (cutoff + s * BIN_LENGTH) * (cutoff + s * BIN_LENGTH);
    cc_len = 0;
    for (int k = -cc_c; k <= cc_c; k++)
        for (int j = -cc_c; j <= cc_c; j++)
            for (int i = -cc_c; i <= cc_c; i++) {
                if ((i * i + j * j + k * k) * BIN_LENGTH * BIN_LENGTH >= r2) continue;
                cc_nbr[cc_len][0] = i; cc_nbr[cc_len][1] = j; cc_nbr[cc_len][2] = k;
                cc_len++;
            }
}

static uint64_t cc_bin(int X, int Y, int Z, int n)
{
    int bx = (int)floorf((8 * X + 4) * 0.5f / 4.f), by = (int)floorf((8 * Y + 4) * 0.5f / 4.f);
    int bz = (int)floorf((8 * Z + 4) * 0.5f / 4.f);
    int i = bx + cc_nbr[n][0], j = by + cc_nbr[n][1], k = bz + cc_nbr[n][2];
    /* binZeroAddr is c bins in along every axis from the base. */
    return (uint64_t)(((k + cc_c) * cc_bdy + (j + cc_c)) * cc_bdx + (i + cc_c));
}

static void cutcp_ref(struct wlh_seq *s, int X, int Y, int Z, int tid)
{
    int nbrid = tid >> 4;
    for (int totalbins = 0; totalbins < cc_len; totalbins += 32) {
        for (int bincnt = 0; bincnt < 4 && nbrid < cc_len; bincnt++, nbrid += 8) {
            uint64_t b = cc_bin(X, Y, Z, nbrid) * 128;
            int tidmask = tid & 15;
            wlh_push(s, L(1, b + tidmask * 4));
            wlh_push(s, L(1, b + (tidmask + 16) * 4));
        }
        wlh_push(s, BAR);
        wlh_push(s, BAR);
    }
    uint64_t region = (uint64_t)((Z * 3 + Y) * 3 + X) * 512;
    for (int e = 0; e < 4; e++)
        wlh_push(s, S(0, (region + (tid >> 4) * 64 + (tid & 15) + 16 * e) * 4));
}

START_TEST(cutcp_pages_and_thread_sequence)
{
    static const char *const sets[] = { "workload.kind=cutcp", "workload.cutcp.nx=20",
        "workload.cutcp.ny=20", "workload.cutcp.nz=20" };
    cc_setup();
    ck_assert_int_gt(cc_len, 100);
    static uint8_t seen[9 * 9 * 9 * 128 / 4096 + 1];
    memset(seen, 0, sizeof seen);
    uint64_t bin_pages = 0;
    for (int Z = 0; Z < 3; Z++) for (int Y = 0; Y < 3; Y++) for (int X = 0; X < 3; X++)
        for (int n = 0; n < cc_len; n++) {
            uint64_t pg = cc_bin(X, Y, Z, n) * 128 / 4096;
            if (!seen[pg]) { seen[pg] = 1; bin_pages++; }
        }
    struct wlh h = open_check(sets, NSETS(sets), wlh_pages(27 * 512 * 4) + bin_pages, 3);
    wlh_close(&h);
    struct wlh_seq want = {0};
    static const int th[][4] = { {0, 0, 0, 0}, {2, 1, 2, 127}, {1, 2, 1, 77}, {0, 2, 2, 18} };
    for (size_t q = 0; q < 4; q++) {
        cutcp_ref(&want, th[q][0], th[q][1], th[q][2], th[q][3]);
        check_thread(sets, NSETS(sets), (uint64_t)th[q][2], (uint64_t)(th[q][1] * 3 + th[q][0]),
                     (uint32_t)th[q][3], &want, "cutcp thread");
    }
}
END_TEST

static Suite *parboil_suite(void)
{
    Suite *s = suite_create("wl_parboil");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, sgemm_pages_and_thread_sequence);
    tcase_add_test(tc, stencil_pages_and_thread_sequence);
    tcase_add_test(tc, spmv_pages_and_thread_sequence);
    tcase_add_test(tc, cutcp_pages_and_thread_sequence);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(parboil_suite()); }

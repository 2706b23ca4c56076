/* Polybench kernels: distinct pages touched equal the footprint formula, and
 * chosen threads' memory ops equal the original loop nest, written here in
 * plain C from the PolyBench/GPU source. */
#include <check.h>
#include "suite_main.h"
#include "wl_harness.h"

/* GEMM 40x24x16: grid (1, 5) of 32x8; threads with j >= 24 idle. */
START_TEST(gemm_pages_and_thread_sequence)
{
    const uint64_t NI = 40, NJ = 24, NK = 1100;
    static const char *const sets[] = { "workload.kind=gemm", "workload.gemm.ni=40",
                                        "workload.gemm.nj=24", "workload.gemm.nk=1100" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wlh_run r = wlh_run_all(h.wl);
    ck_assert_uint_eq(r.kernels, 1);
    ck_assert_uint_eq(r.pages, wlh_pages(NI * NK * 4) + wlh_pages(NK * NJ * 4) +
                               wlh_pages(NI * NJ * 4));
    wlh_close(&h);
    /* Thread (tx=5, ty=3) of block (0, 2): i = 2*8+3 = 19, j = 5. */
    h = wlh_open(sets, NSETS(sets));
    struct wlh_seq got = wlh_thread(h.wl, 0, 2, 3 * 32 + 5), want = {0};
    uint64_t i = 19, j = 5;
    wlh_push(&want, L(2, (i * NJ + j) * 4));
    wlh_push(&want, S(2, (i * NJ + j) * 4));
    for (uint64_t k = 0; k < NK; k++) {
        wlh_push(&want, L(0, (i * NK + k) * 4));
        wlh_push(&want, L(1, (k * NJ + j) * 4));
        wlh_push(&want, S(2, (i * NJ + j) * 4));
    }
    wlh_seq_eq(&got, &want, "gemm thread (19,5)");
    free(got.v); free(want.v);
    wlh_close(&h);
    /* j = 24 is past NJ: that thread does nothing. */
    h = wlh_open(sets, NSETS(sets));
    got = wlh_thread(h.wl, 0, 0, 24);
    ck_assert_uint_eq(got.n, 0);
    free(got.v);
    wlh_close(&h);
}
END_TEST


static uint64_t span_pages(uint64_t start, uint64_t end)
{ return (end - 1) / 4096 - start / 4096 + 1; }

/* 2DCONV 20x1500: a row is 6000 B, so B's untouched first and last rows
 * leave whole pages untouched. */
START_TEST(conv2d_pages_and_thread_sequence)
{
    const uint64_t NI = 20, NJ = 1500;
    static const char *const sets[] = { "workload.kind=2dconv", "workload.2dconv.ni=20",
                                        "workload.2dconv.nj=1500" };
    struct wlh h = open_check(sets, NSETS(sets),
        wlh_pages(NI * NJ * 4) + span_pages(4 * (NJ + 1), 4 * ((NI - 2) * NJ + NJ - 1)), 1);
    wlh_close(&h);
    /* i = 9 (by 1, ty 1), j = 37 (bx 1, tx 5): block 1*47+1, tid 37. */
    struct wlh_seq want = {0};
    uint64_t i = 9, j = 37;
    for (int di = -1; di <= 1; di++)
        for (int dj = -1; dj <= 1; dj++)
            wlh_push(&want, L(0, ((i + di) * NJ + j + dj) * 4));
    wlh_push(&want, S(1, (i * NJ + j) * 4));
    check_thread(sets, NSETS(sets), 0, 48, 37, &want, "2dconv (9,37)");
    check_thread(sets, NSETS(sets), 0, 0, 5, &want, "2dconv (0,5) idle");
}
END_TEST

/* 3DCONV 5x10x300: launch 1 is plane i = 2. */
START_TEST(conv3d_pages_and_thread_sequence)
{
    const uint64_t NI = 5, NJ = 10, NK = 300;
    static const char *const sets[] = { "workload.kind=3dconv", "workload.3dconv.ni=5",
                                        "workload.3dconv.nj=10", "workload.3dconv.nk=300" };
    struct wlh h = open_check(sets, NSETS(sets),
        wlh_pages(NI * NJ * NK * 4) +
        span_pages(4 * (NJ * NK + NK + 1), 4 * (((NI - 2) * NJ + NJ - 2) * NK + NK - 1)), NI - 2);
    wlh_close(&h);
    /* The source's 15 taps (di, dj, dk) in order; repeats load once. */
    static const int src[15][3] = {
        {-1,-1,-1},{1,-1,-1},{-1,-1,-1},{1,-1,-1},{-1,-1,-1},{1,-1,-1},{0,-1,0},{0,0,0},
        {0,1,0},{-1,-1,1},{1,-1,1},{-1,0,1},{1,0,1},{-1,1,1},{1,1,1} };
    uint64_t i = 2, j = 3, k = 40, seen[15];
    size_t ns = 0;
    struct wlh_seq want = {0};
    for (int t = 0; t < 15; t++) {
        uint64_t off = (((i + src[t][0]) * NJ + j + src[t][1]) * NK + k + src[t][2]) * 4;
        bool dup = false;
        for (size_t q = 0; q < ns; q++) dup |= seen[q] == off;
        if (dup) continue;
        seen[ns++] = off;
        wlh_push(&want, L(0, off));
    }
    ck_assert_uint_eq(ns, 11);
    wlh_push(&want, S(1, ((i * NJ + j) * NK + k) * 4));
    /* k = 40: bx 1, tx 8; j = 3: by 0, ty 3. */
    check_thread(sets, NSETS(sets), 1, 1, 3 * 32 + 8, &want, "3dconv (2,3,40)");
}
END_TEST

START_TEST(mm2_pages_and_thread_sequence)
{
    const uint64_t NI = 9, NJ = 40, NK = 1030, NL = 33;
    static const char *const sets[] = { "workload.kind=2mm", "workload.2mm.ni=9",
        "workload.2mm.nj=40", "workload.2mm.nk=1030", "workload.2mm.nl=33" };
    struct wlh h = open_check(sets, NSETS(sets),
        wlh_pages(NI * NK * 4) + wlh_pages(NK * NJ * 4) + wlh_pages(NI * NJ * 4) +
        wlh_pages(NJ * NL * 4) + wlh_pages(NI * NL * 4), 2);
    wlh_close(&h);
    struct wlh_seq want = {0};
    uint64_t i = 8, j = 32;     /* by 1, ty 0; bx 1, tx 0 */
    wlh_push(&want, S(2, (i * NJ + j) * 4));
    for (uint64_t k = 0; k < NK; k++) {
        wlh_push(&want, L(0, (i * NK + k) * 4));
        wlh_push(&want, L(1, (k * NJ + j) * 4));
        wlh_push(&want, S(2, (i * NJ + j) * 4));
    }
    check_thread(sets, NSETS(sets), 0, 1 * 2 + 1, 0, &want, "2mm kernel1 (8,32)");
    wlh_push(&want, S(4, (i * NL + j) * 4));
    for (uint64_t k = 0; k < NJ; k++) {
        wlh_push(&want, L(2, (i * NJ + k) * 4));
        wlh_push(&want, L(3, (k * NL + j) * 4));
        wlh_push(&want, S(4, (i * NL + j) * 4));
    }
    check_thread(sets, NSETS(sets), 1, 1 * 2 + 1, 0, &want, "2mm kernel2 (8,32)");
}
END_TEST

START_TEST(mvt_pages_and_thread_sequence)
{
    const uint64_t N = 1100;
    static const char *const sets[] = { "workload.kind=mvt", "workload.mvt.n=1100" };
    struct wlh h = open_check(sets, NSETS(sets), wlh_pages(N * N * 4) + 4 * wlh_pages(N * 4), 2);
    wlh_close(&h);
    struct wlh_seq want = {0};
    uint64_t i = 300;           /* block 1, tid 44 */
    wlh_push(&want, L(1, i * 4));
    for (uint64_t j = 0; j < N; j++) {
        wlh_push(&want, L(0, (i * N + j) * 4));
        wlh_push(&want, L(3, j * 4));
        wlh_push(&want, S(1, i * 4));
    }
    check_thread(sets, NSETS(sets), 0, 1, 44, &want, "mvt kernel1 i=300");
    wlh_push(&want, L(2, i * 4));
    for (uint64_t j = 0; j < N; j++) {
        wlh_push(&want, L(0, (j * N + i) * 4));
        wlh_push(&want, L(4, j * 4));
        wlh_push(&want, S(2, i * 4));
    }
    check_thread(sets, NSETS(sets), 1, 1, 44, &want, "mvt kernel2 i=300");
}
END_TEST

START_TEST(atax_pages_and_thread_sequence)
{
    const uint64_t NX = 700, NY = 1030;
    static const char *const sets[] = { "workload.kind=atax", "workload.atax.nx=700",
                                        "workload.atax.ny=1030" };
    struct wlh h = open_check(sets, NSETS(sets),
        wlh_pages(NX * NY * 4) + 2 * wlh_pages(NY * 4) + wlh_pages(NX * 4), 2);
    wlh_close(&h);
    struct wlh_seq want = {0};
    uint64_t i = 513;           /* block 2, tid 1 */
    wlh_push(&want, L(3, i * 4));
    for (uint64_t j = 0; j < NY; j++) {
        wlh_push(&want, L(0, (i * NY + j) * 4));
        wlh_push(&want, L(1, j * 4));
        wlh_push(&want, S(3, i * 4));
    }
    check_thread(sets, NSETS(sets), 0, 2, 1, &want, "atax kernel1 i=513");
    uint64_t j = 1029;          /* block 4, tid 5 */
    wlh_push(&want, L(2, j * 4));
    for (uint64_t ii = 0; ii < NX; ii++) {
        wlh_push(&want, L(0, (ii * NY + j) * 4));
        wlh_push(&want, L(3, ii * 4));
        wlh_push(&want, S(2, j * 4));
    }
    check_thread(sets, NSETS(sets), 1, 4, 5, &want, "atax kernel2 j=1029");
}
END_TEST

START_TEST(bicg_pages_and_thread_sequence)
{
    const uint64_t NX = 1030, NY = 700;
    static const char *const sets[] = { "workload.kind=bicg", "workload.bicg.nx=1030",
                                        "workload.bicg.ny=700" };
    struct wlh h = open_check(sets, NSETS(sets),
        wlh_pages(NX * NY * 4) + 2 * wlh_pages(NX * 4) + 2 * wlh_pages(NY * 4), 2);
    wlh_close(&h);
    struct wlh_seq want = {0};
    uint64_t j = 699;           /* block 2, tid 187 */
    wlh_push(&want, S(2, j * 4));
    for (uint64_t i = 0; i < NX; i++) {
        wlh_push(&want, L(0, (i * NY + j) * 4));
        wlh_push(&want, L(1, i * 4));
        wlh_push(&want, S(2, j * 4));
    }
    check_thread(sets, NSETS(sets), 0, 2, 187, &want, "bicg kernel1 j=699");
    uint64_t i = 1029;          /* block 4, tid 5 */
    wlh_push(&want, S(4, i * 4));
    for (uint64_t jj = 0; jj < NY; jj++) {
        wlh_push(&want, L(0, (i * NY + jj) * 4));
        wlh_push(&want, L(3, jj * 4));
        wlh_push(&want, S(4, i * 4));
    }
    check_thread(sets, NSETS(sets), 1, 4, 5, &want, "bicg kernel2 i=1029");
    check_thread(sets, NSETS(sets), 1, 4, 6, &want, "bicg kernel2 i=1030 idle");
}
END_TEST

START_TEST(gesummv_pages_and_thread_sequence)
{
    const uint64_t N = 600;
    static const char *const sets[] = { "workload.kind=gesummv", "workload.gesummv.n=600" };
    struct wlh h = open_check(sets, NSETS(sets),
        2 * wlh_pages(N * N * 4) + 3 * wlh_pages(N * 4), 1);
    wlh_close(&h);
    struct wlh_seq want = {0};
    uint64_t i = 257;           /* block 1, tid 1; allocs a b x y tmp */
    for (uint64_t j = 0; j < N; j++) {
        wlh_push(&want, L(4, i * 4)); wlh_push(&want, L(0, (i * N + j) * 4));
        wlh_push(&want, L(2, j * 4)); wlh_push(&want, S(4, i * 4));
        wlh_push(&want, L(3, i * 4)); wlh_push(&want, L(1, (i * N + j) * 4));
        wlh_push(&want, L(2, j * 4)); wlh_push(&want, S(3, i * 4));
    }
    wlh_push(&want, L(4, i * 4));
    wlh_push(&want, S(3, i * 4));
    check_thread(sets, NSETS(sets), 0, 1, 1, &want, "gesummv i=257");
}
END_TEST

START_TEST(fdtd2d_pages_and_thread_sequence)
{
    const uint64_t NX = 20, NY = 1100, TMAX = 3;
    static const char *const sets[] = { "workload.kind=fdtd2d", "workload.fdtd2d.nx=20",
                                        "workload.fdtd2d.ny=1100", "workload.fdtd2d.tmax=3" };
    struct wlh h = open_check(sets, NSETS(sets),
        wlh_pages(TMAX * 4) + wlh_pages(NX * (NY + 1) * 4) + wlh_pages((NX + 1) * NY * 4) +
        wlh_pages(NX * NY * 4), 3 * TMAX);
    wlh_close(&h);
    /* allocs: 0 _fict_, 1 ex, 2 ey, 3 hz.  Launch 3 is step1 at t = 1. */
    struct wlh_seq want = {0};
    wlh_push(&want, L(0, 1 * 4));
    wlh_push(&want, S(2, 5 * 4));
    check_thread(sets, NSETS(sets), 3, 0, 5, &want, "fdtd step1 t=1 (0,5)");
    uint64_t i = 9, j = 40;     /* by 1, ty 1; bx 1, tx 8: block 1*35+1, tid 40 */
    wlh_push(&want, L(2, (i * NY + j) * 4));
    wlh_push(&want, L(3, (i * NY + j) * 4));
    wlh_push(&want, L(3, ((i - 1) * NY + j) * 4));
    wlh_push(&want, S(2, (i * NY + j) * 4));
    check_thread(sets, NSETS(sets), 0, 36, 40, &want, "fdtd step1 (9,40)");
    wlh_push(&want, L(1, (i * (NY + 1) + j) * 4));
    wlh_push(&want, L(3, (i * NY + j) * 4));
    wlh_push(&want, L(3, (i * NY + j - 1) * 4));
    wlh_push(&want, S(1, (i * (NY + 1) + j) * 4));
    check_thread(sets, NSETS(sets), 4, 36, 40, &want, "fdtd step2 (9,40)");
    check_thread(sets, NSETS(sets), 4, 0, 0, &want, "fdtd step2 (0,0) idle");
    wlh_push(&want, L(3, (i * NY + j) * 4));
    wlh_push(&want, L(1, (i * (NY + 1) + j + 1) * 4));
    wlh_push(&want, L(1, (i * (NY + 1) + j) * 4));
    wlh_push(&want, L(2, ((i + 1) * NY + j) * 4));
    wlh_push(&want, L(2, (i * NY + j) * 4));
    wlh_push(&want, S(3, (i * NY + j) * 4));
    check_thread(sets, NSETS(sets), 8, 36, 40, &want, "fdtd step3 t=2 (9,40)");
}
END_TEST

static Suite *polybench_suite(void)
{
    Suite *s = suite_create("wl_polybench");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, gemm_pages_and_thread_sequence);
    tcase_add_test(tc, conv2d_pages_and_thread_sequence);
    tcase_add_test(tc, conv3d_pages_and_thread_sequence);
    tcase_add_test(tc, mm2_pages_and_thread_sequence);
    tcase_add_test(tc, mvt_pages_and_thread_sequence);
    tcase_add_test(tc, atax_pages_and_thread_sequence);
    tcase_add_test(tc, bicg_pages_and_thread_sequence);
    tcase_add_test(tc, gesummv_pages_and_thread_sequence);
    tcase_add_test(tc, fdtd2d_pages_and_thread_sequence);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(polybench_suite()); }

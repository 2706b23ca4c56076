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

static Suite *polybench_suite(void)
{
    Suite *s = suite_create("wl_polybench");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, gemm_pages_and_thread_sequence);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(polybench_suite()); }

/* Parboil kernels: pages touched equal the footprint formula; chosen
 * threads' memory ops and barriers equal the kernel, transcribed here. */
#include <check.h>
#include "suite_main.h"
#include "wl_harness.h"

static struct wlh open_check(const char *const *sets, size_t n, uint64_t pages,
                             uint64_t kernels)
{
    struct wlh h = wlh_open(sets, n);
    struct wlh_run r = wlh_run_all(h.wl);
    ck_assert_uint_eq(r.kernels, kernels);
    ck_assert_uint_eq(r.pages, pages);
    wlh_close(&h);
    return wlh_open(sets, n);
}

static void check_thread(const char *const *sets, size_t n, uint64_t kseq, uint64_t block,
                         uint32_t tid, struct wlh_seq *want, const char *what)
{
    struct wlh h = wlh_open(sets, n);
    struct wlh_seq got = wlh_thread(h.wl, kseq, block, tid);
    wlh_seq_eq(&got, want, what);
    free(got.v);
    free(want->v);
    memset(want, 0, sizeof *want);
    wlh_close(&h);
}

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

static Suite *parboil_suite(void)
{
    Suite *s = suite_create("wl_parboil");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, sgemm_pages_and_thread_sequence);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(parboil_suite()); }

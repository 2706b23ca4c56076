/* Rodinia kernels: pages touched equal the footprint formula; chosen
 * threads' memory ops and barriers equal the CUDA kernel's control flow,
 * transcribed here per thread from the Rodinia 3.1 source. */
#include <check.h>
#include "suite_main.h"
#include "wl_harness.h"

#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

/* dynproc_kernel for one thread; allocs 0 wall, 1 result0, 2 result1. */
static void pathfinder_ref(struct wlh_seq *s, int iteration, int cols, int startStep,
                           int border, int bx, int tx, int src, int dst)
{
    int small_block_cols = 256 - iteration * 2;
    int blkX = small_block_cols * bx - border, blkXmax = blkX + 256 - 1;
    int xidx = blkX + tx;
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkXmax > cols - 1) ? 256 - 1 - (blkXmax - cols + 1) : 256 - 1;
    bool isValid = IN_RANGE(tx, validXmin, validXmax);
    if (IN_RANGE(xidx, 0, cols - 1)) wlh_push(s, L(src, xidx * 4));
    wlh_push(s, BAR);
    bool computed = false;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, 256 - i - 2) && isValid) {
            computed = true;
            wlh_push(s, L(0, (cols * (startStep + i) + xidx) * 4));
        }
        wlh_push(s, BAR);
        if (i == iteration - 1) break;
        wlh_push(s, BAR);
    }
    if (computed) wlh_push(s, S(dst, xidx * 4));
}

START_TEST(pathfinder_pages_and_thread_sequence)
{
    const uint64_t ROWS = 12, COLS = 3000;
    static const char *const sets[] = { "workload.kind=pathfinder",
        "workload.pathfinder.rows=12", "workload.pathfinder.cols=3000",
        "workload.pathfinder.pyramid_height=4" };
    /* rows-1 = 11 rows in pyramids of 4: launches of 4, 4, 3 rows. */
    struct wlh h = open_check(sets, NSETS(sets),
        wlh_pages((ROWS - 1) * COLS * 4) + 2 * wlh_pages(COLS * 4), 3);
    wlh_close(&h);
    struct wlh_seq want = {0};
    pathfinder_ref(&want, 3, 3000, 8, 4, 1, 10, 1, 2);
    check_thread(sets, NSETS(sets), 2, 1, 10, &want, "pathfinder launch 2 bx 1 tx 10");
    /* tx = 2 leaves the pyramid at i = 2: two wall loads, no store. */
    pathfinder_ref(&want, 3, 3000, 8, 4, 1, 2, 1, 2);
    ck_assert_uint_eq(want.n, 1 + 1 + 2 + 5);
    check_thread(sets, NSETS(sets), 2, 1, 2, &want, "pathfinder launch 2 bx 1 tx 2");
    pathfinder_ref(&want, 4, 3000, 4, 4, 0, 0, 2, 1);
    check_thread(sets, NSETS(sets), 1, 0, 0, &want, "pathfinder launch 1 bx 0 tx 0");
    pathfinder_ref(&want, 4, 3000, 0, 4, 12, 200, 1, 2);
    check_thread(sets, NSETS(sets), 0, 12, 200, &want, "pathfinder launch 0 bx 12 tx 200");
}
END_TEST

/* calculate_temp for one thread; allocs 0 power, 1 temp0, 2 temp1. */
static void hotspot_ref(struct wlh_seq *s, int iteration, int grid_cols, int grid_rows,
                        int border, int bx, int by, int tx, int ty, int src, int dst)
{
    int small_block_rows = 16 - iteration * 2, small_block_cols = 16 - iteration * 2;
    int blkY = small_block_rows * by - border, blkX = small_block_cols * bx - border;
    int blkYmax = blkY + 16 - 1, blkXmax = blkX + 16 - 1;
    int yidx = blkY + ty, xidx = blkX + tx;
    int index = grid_cols * yidx + xidx;
    if (IN_RANGE(yidx, 0, grid_rows - 1) && IN_RANGE(xidx, 0, grid_cols - 1)) {
        wlh_push(s, L(src, index * 4));
        wlh_push(s, L(0, index * 4));
    }
    wlh_push(s, BAR);
    int validYmin = (blkY < 0) ? -blkY : 0;
    int validYmax = (blkYmax > grid_rows - 1) ? 16 - 1 - (blkYmax - grid_rows + 1) : 16 - 1;
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkXmax > grid_cols - 1) ? 16 - 1 - (blkXmax - grid_cols + 1) : 16 - 1;
    bool computed = false;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, 16 - i - 2) && IN_RANGE(ty, i + 1, 16 - i - 2) &&
            IN_RANGE(tx, validXmin, validXmax) && IN_RANGE(ty, validYmin, validYmax))
            computed = true;
        wlh_push(s, BAR);
        if (i == iteration - 1) break;
        wlh_push(s, BAR);
    }
    if (computed) wlh_push(s, S(dst, index * 4));
}

START_TEST(hotspot_pages_and_thread_sequence)
{
    const uint64_t R = 40, C = 1100;
    static const char *const sets[] = { "workload.kind=hotspot", "workload.hotspot.rows=40",
        "workload.hotspot.cols=1100", "workload.hotspot.pyramid_height=3",
        "workload.hotspot.iterations=5" };
    /* 5 steps in pyramids of 3: launches of 3 and 2 steps; grid uses 16-6 = 10. */
    struct wlh h = open_check(sets, NSETS(sets), 3 * wlh_pages(R * C * 4), 2);
    wlh_close(&h);
    const int gx = 110;
    struct wlh_seq want = {0};
    hotspot_ref(&want, 3, 1100, 40, 3, 5, 2, 7, 9, 1, 2);
    check_thread(sets, NSETS(sets), 0, 2 * gx + 5, 9 * 16 + 7, &want, "hotspot launch 0");
    /* tx = 2 is outside the last step's [3, 12]: loads, barriers, no store. */
    hotspot_ref(&want, 3, 1100, 40, 3, 5, 2, 2, 5, 1, 2);
    ck_assert_uint_eq(want.n, 2 + 1 + 5);
    check_thread(sets, NSETS(sets), 0, 2 * gx + 5, 5 * 16 + 2, &want, "hotspot launch 0 tx 2");
    hotspot_ref(&want, 2, 1100, 40, 3, 0, 0, 1, 4, 2, 1);
    check_thread(sets, NSETS(sets), 1, 0, 4 * 16 + 1, &want, "hotspot launch 1 corner");
    hotspot_ref(&want, 2, 1100, 40, 3, 109, 3, 15, 15, 2, 1);
    check_thread(sets, NSETS(sets), 1, 3 * gx + 109, 255, &want, "hotspot launch 1 far edge");
}
END_TEST

/* hotspotOpt1 for one thread; allocs 0 p, 1 tIn_d, 2 tOut_d. */
static void hotspot3d_ref(struct wlh_seq *s, int nx, int ny, int nz, int i, int j,
                          int tin, int tout)
{
    int c = i + j * nx, xy = nx * ny;
    int W = (i == 0) ? c : c - 1, E = (i == nx - 1) ? c : c + 1;
    int N = (j == 0) ? c : c - nx, S = (j == ny - 1) ? c : c + nx;
    wlh_push(s, L(tin, c * 4));                 /* temp1 = temp2 = tIn[c] */
    wlh_push(s, L(tin, (c + xy) * 4));          /* temp3 */
    for (int k = 0; k < nz; k++) {
        if (k > 0 && k < nz - 1) wlh_push(s, L(tin, (c + xy) * 4));
        wlh_push(s, L(tin, W * 4)); wlh_push(s, L(tin, E * 4));
        wlh_push(s, L(tin, S * 4)); wlh_push(s, L(tin, N * 4));
        wlh_push(s, L(0, c * 4));
        wlh_push(s, S(tout, c * 4));
        c += xy; W += xy; E += xy; N += xy; S += xy;
    }
}

START_TEST(hotspot3d_pages_and_thread_sequence)
{
    static const char *const sets[] = { "workload.kind=hotspot3d", "workload.hotspot3d.nx=128",
        "workload.hotspot3d.ny=12", "workload.hotspot3d.nz=5",
        "workload.hotspot3d.iterations=3" };
    struct wlh h = open_check(sets, NSETS(sets), 3 * wlh_pages(128 * 12 * 5 * 4), 3);
    wlh_close(&h);
    struct wlh_seq want = {0};
    /* i = 127 (bx 1, tx 63), j = 11 (by 2, ty 3): the far corner, launch 1. */
    hotspot3d_ref(&want, 128, 12, 5, 127, 11, 2, 1);
    check_thread(sets, NSETS(sets), 1, 2 * 2 + 1, 3 * 64 + 63, &want, "hotspot3d corner");
    hotspot3d_ref(&want, 128, 12, 5, 70, 5, 1, 2);
    check_thread(sets, NSETS(sets), 2, 1 * 2 + 1, 1 * 64 + 6, &want, "hotspot3d inner");
}
END_TEST

/* Rodinia bfs over the documented graph (ring edge + seeded uniform
 * edges), searched again here.  Allocs: 0 nodes, 1 edges, 2 mask,
 * 3 updating, 4 visited, 5 cost, 6 over. */
static uint64_t sm64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

#define BN 3000
#define BD 4
static uint64_t bfs_nb(uint64_t seed, uint64_t v, uint64_t j)
{ return j == 0 ? (v + 1) % BN : sm64(seed + v * BD + j) % BN; }

START_TEST(bfs_levels_pages_and_thread_sequence)
{
    static const char *const sets[] = { "workload.kind=bfs", "workload.bfs.nodes=3000",
        "workload.bfs.degree=4", "workload.bfs.source=7", "sim.seed=5" };
    uint64_t seed = sm64(5);
    static int level[BN];
    for (int v = 0; v < BN; v++) level[v] = -1;
    level[7] = 0;
    int maxl = 0;
    for (int L = 0; ; L++) {            /* level-synchronous, as the GPU does */
        bool more = false;
        for (int v = 0; v < BN; v++) {
            if (level[v] != L) continue;
            for (int j = 0; j < BD; j++) {
                uint64_t u = bfs_nb(seed, v, j);
                if (level[u] < 0) { level[u] = L + 1; more = true; maxl = L + 1; }
            }
        }
        if (!more) break;
    }
    uint64_t launches = 2 * (uint64_t)(maxl + 1);
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wlh_run r = wlh_run_all(h.wl);
    ck_assert_uint_eq(r.kernels, launches);
    ck_assert_uint_eq(r.pages, wlh_pages(8 * BN) + wlh_pages(4 * BN * BD) + 3 * wlh_pages(BN) +
                               wlh_pages(4 * BN) + 1);
    /* 6 copies in, over in and out per iteration, costs out. */
    ck_assert_uint_eq(h.wl->host_steps, 6 + (launches / 2) * 2 + 1);
    wlh_close(&h);
    /* A node of level 2 in Kernel of launch pair 2, and one not in it. */
    int f = -1, other = -1;
    for (int v = 0; v < BN && (f < 0 || other < 0); v++) {
        if (level[v] == 2 && f < 0) f = v;
        if (level[v] == 5 && other < 0) other = v;
    }
    ck_assert_int_ge(f, 0);
    ck_assert_int_ge(other, 0);
    struct wlh_seq want = {0};
    wlh_push(&want, L(2, f));
    wlh_push(&want, S(2, f));
    wlh_push(&want, L(0, f * 8)); wlh_push(&want, L(0, f * 8 + 4));
    for (int j = 0; j < BD; j++) {
        uint64_t id = bfs_nb(seed, f, j);
        wlh_push(&want, L(1, (f * BD + j) * 4));
        wlh_push(&want, L(4, id));
        if (level[id] > 2) {
            wlh_push(&want, L(5, f * 4)); wlh_push(&want, S(5, id * 4)); wlh_push(&want, S(3, id));
        }
    }
    check_thread(sets, NSETS(sets), 4, f / 512, f % 512, &want, "bfs Kernel level 2");
    wlh_push(&want, L(2, other));
    check_thread(sets, NSETS(sets), 4, other / 512, other % 512, &want, "bfs Kernel idle node");
    /* Kernel2 of level 4 sets up the nodes of level 5. */
    wlh_push(&want, L(3, other)); wlh_push(&want, S(2, other)); wlh_push(&want, S(4, other));
    wlh_push(&want, S(6, 0)); wlh_push(&want, S(3, other));
    check_thread(sets, NSETS(sets), 9, other / 512, other % 512, &want, "bfs Kernel2 level 5");
}
END_TEST

/* kmeans, 1000 points x 3 features, 2 clusters: 4 blocks on a 2x2 grid.
 * Allocs: 0 feature_d, 1 feature_flipped_d, 2 membership_d. */
START_TEST(kmeans_pages_and_thread_sequence)
{
    const uint64_t NP = 1000, NF = 3, NC = 2;
    static const char *const sets[] = { "workload.kind=kmeans", "workload.kmeans.points=1000",
        "workload.kmeans.features=3", "workload.kmeans.clusters=2",
        "workload.kmeans.iterations=4" };
    struct wlh h = open_check(sets, NSETS(sets), 2 * wlh_pages(NP * NF * 4) + wlh_pages(NP * 4), 5);
    ck_assert_uint_eq(h.wl->footprint, 2 * NP * NF * 4 + NP * 4);
    wlh_close(&h);
    struct wlh_seq want = {0};
    uint64_t p = 999;           /* invert_mapping: block 3, tid 231 */
    for (uint64_t i = 0; i < NF; i++) {
        wlh_push(&want, L(0, (p * NF + i) * 4));
        wlh_push(&want, S(1, (p + NP * i) * 4));
    }
    check_thread(sets, NSETS(sets), 0, 3, 231, &want, "invert_mapping p=999");
    /* kmeansPoint block (bx 1, by 1) is block_id 2*1+1 = 3: linear block 3. */
    for (uint64_t i = 0; i < NC; i++)
        for (uint64_t j = 0; j < NF; j++) wlh_push(&want, L(1, (p + j * NP) * 4));
    wlh_push(&want, S(2, p * 4));
    check_thread(sets, NSETS(sets), 3, 3, 231, &want, "kmeansPoint p=999");
    check_thread(sets, NSETS(sets), 3, 3, 232, &want, "kmeansPoint p=1000 idle");
}
END_TEST

/* backprop, in = 64: 4 blocks of 16x16.  Allocs: 0 input, 1 output_hidden,
 * 2 w (input_hidden), 3 partial_sum, 4 delta, 5 oldw (prev weights). */
static void bp_ref(struct wlh_seq *s, int k, int by, int tx, int ty)
{
    int hid = 16, HEIGHT = 16;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_in = HEIGHT * by + ty + 1, index_x = tx + 1, index_y = index_in;
    if (k == 0) {
        if (tx == 0) wlh_push(s, L(0, index_in * 4));
        wlh_push(s, BAR);
        wlh_push(s, L(2, index * 4));
        wlh_push(s, BAR);
        wlh_push(s, BAR);
        for (int i = 1; i <= 4; i++) wlh_push(s, BAR);
        wlh_push(s, S(2, index * 4));
        wlh_push(s, BAR);
        if (tx == 0) wlh_push(s, S(3, (by * hid + ty) * 4));
        return;
    }
    wlh_push(s, L(4, index_x * 4)); wlh_push(s, L(0, index_y * 4));
    wlh_push(s, L(5, index * 4)); wlh_push(s, L(2, index * 4)); wlh_push(s, S(2, index * 4));
    wlh_push(s, L(4, index_x * 4)); wlh_push(s, L(0, index_y * 4));
    wlh_push(s, L(5, index * 4)); wlh_push(s, S(5, index * 4));
    wlh_push(s, BAR);
    if (ty == 0 && by == 0) {
        wlh_push(s, L(4, index_x * 4)); wlh_push(s, L(5, index_x * 4));
        wlh_push(s, L(2, index_x * 4)); wlh_push(s, S(2, index_x * 4));
        wlh_push(s, L(4, index_x * 4)); wlh_push(s, L(5, index_x * 4));
        wlh_push(s, S(5, index_x * 4));
    }
}

START_TEST(backprop_pages_and_thread_sequence)
{
    const uint64_t IN = 64;
    static const char *const sets[] = { "workload.kind=backprop", "workload.backprop.in=64" };
    struct wlh h = open_check(sets, NSETS(sets),
        wlh_pages((IN + 1) * 4) + 2 * wlh_pages((IN + 1) * 17 * 4) + wlh_pages(IN * 4) +
        wlh_pages(17 * 4), 2);
    ck_assert_uint_eq(h.wl->nallocs, 6);
    wlh_close(&h);
    struct wlh_seq want = {0};
    bp_ref(&want, 0, 2, 0, 5);
    check_thread(sets, NSETS(sets), 0, 2, 5 * 16, &want, "layerforward by 2 (0,5)");
    bp_ref(&want, 0, 3, 7, 15);
    check_thread(sets, NSETS(sets), 0, 3, 15 * 16 + 7, &want, "layerforward by 3 (7,15)");
    bp_ref(&want, 1, 0, 9, 0);
    check_thread(sets, NSETS(sets), 1, 0, 9, &want, "adjust by 0 (9,0)");
    bp_ref(&want, 1, 1, 9, 0);
    check_thread(sets, NSETS(sets), 1, 1, 9, &want, "adjust by 1 (9,0)");
}
END_TEST

/* srad_v2 for one thread, transcribed from srad_kernel.cu; loads outside
 * the array are dropped.  Allocs: 0 J, 1 C, 2 E, 3 W, 4 N, 5 S. */
static void srad_push(struct wlh_seq *s, int op, int a, long idx, long size)
{
    if (idx < 0 || idx >= size) return;
    wlh_push(s, WLH_REC(op, a, (uint64_t)idx * 4));
}

static void srad_ref(struct wlh_seq *q, int k, int cols, int rows, int gx, int gy,
                     int bx, int by, int tx, int ty)
{
    const int B = 16;
    long size = (long)rows * cols;
    long index = cols * B * by + B * bx + cols * ty + tx;
    long index_n = cols * B * by + B * bx + tx - cols;
    long index_s = cols * B * by + B * bx + cols * B + tx;
    long index_w = cols * B * by + B * bx + cols * ty - 1;
    long index_e = cols * B * by + B * bx + cols * ty + B;
    if (k == 0) {
        srad_push(q, INST_LOAD, 0, index_n, size);
        srad_push(q, INST_LOAD, 0, index_s, size);
        if (by == 0) srad_push(q, INST_LOAD, 0, B * bx + tx, size);
        else if (by == gy - 1)
            srad_push(q, INST_LOAD, 0, cols * B * (gy - 1) + B * bx + cols * (B - 1) + tx, size);
        wlh_push(q, BAR);
        srad_push(q, INST_LOAD, 0, index_w, size);
        srad_push(q, INST_LOAD, 0, index_e, size);
        if (bx == 0) srad_push(q, INST_LOAD, 0, cols * B * by + cols * ty, size);
        else if (bx == gx - 1)
            srad_push(q, INST_LOAD, 0, cols * B * by + B * (gx - 1) + cols * ty + B - 1, size);
        wlh_push(q, BAR);
        srad_push(q, INST_LOAD, 0, index, size);
        wlh_push(q, BAR);
        wlh_push(q, BAR);
        srad_push(q, INST_STORE, 1, index, size); srad_push(q, INST_STORE, 2, index, size);
        srad_push(q, INST_STORE, 3, index, size); srad_push(q, INST_STORE, 5, index, size);
        srad_push(q, INST_STORE, 4, index, size);
        return;
    }
    srad_push(q, INST_LOAD, 0, index, size);
    wlh_push(q, BAR);
    srad_push(q, INST_LOAD, 1, index_s, size);
    if (by == gy - 1)
        srad_push(q, INST_LOAD, 1, cols * B * (gy - 1) + B * bx + cols * (B - 1) + tx, size);
    wlh_push(q, BAR);
    srad_push(q, INST_LOAD, 1, index_e, size);
    if (bx == gx - 1)
        srad_push(q, INST_LOAD, 1, cols * B * by + B * (gx - 1) + cols * ty + B - 1, size);
    wlh_push(q, BAR);
    srad_push(q, INST_LOAD, 1, index, size);
    wlh_push(q, BAR);
    srad_push(q, INST_LOAD, 4, index, size); srad_push(q, INST_LOAD, 5, index, size);
    srad_push(q, INST_LOAD, 3, index, size); srad_push(q, INST_LOAD, 2, index, size);
    wlh_push(q, BAR);
    srad_push(q, INST_STORE, 0, index, size);
}

START_TEST(srad_pages_and_thread_sequence)
{
    static const char *const sets[] = { "workload.kind=srad", "workload.srad.rows=48",
        "workload.srad.cols=64", "workload.srad.iterations=2" };
    struct wlh h = open_check(sets, NSETS(sets), 6 * wlh_pages(48 * 64 * 4), 4);
    ck_assert_uint_eq(h.wl->nallocs, 6);
    wlh_close(&h);
    /* Grid 4 x 3: corners, edges and the middle, both kernels. */
    static const int th[][4] = { {0, 0, 0, 0}, {3, 2, 15, 15}, {0, 2, 0, 15}, {3, 0, 15, 0},
                                 {1, 1, 7, 9}, {2, 0, 3, 0}, {0, 1, 0, 4} };
    struct wlh_seq want = {0};
    for (size_t q = 0; q < sizeof th / sizeof th[0]; q++)
        for (int k = 0; k < 2; k++) {
            srad_ref(&want, k, 64, 48, 4, 3, th[q][0], th[q][1], th[q][2], th[q][3]);
            check_thread(sets, NSETS(sets), 2 + k, th[q][1] * 4 + th[q][0],
                         th[q][3] * 16 + th[q][2], &want, k ? "srad_cuda_2" : "srad_cuda_1");
        }
}
END_TEST

/* needle_cuda_shared_1/2 for one thread, transcribed; allocs 0 ref, 1 matrix. */
static void nw_ref(struct wlh_seq *s, int kernel, int cols, int i, int bw, int bx, int tx)
{
    const int B = 16;
    int b_index_x = kernel == 1 ? bx : bx + bw - i;
    int b_index_y = kernel == 1 ? i - 1 - bx : bw - bx - 1;
    int index = cols * B * b_index_y + B * b_index_x + tx + (cols + 1);
    int index_n = cols * B * b_index_y + B * b_index_x + tx + 1;
    int index_w = cols * B * b_index_y + B * b_index_x + cols;
    int index_nw = cols * B * b_index_y + B * b_index_x;
    if (kernel == 1) {
        if (tx == 0) wlh_push(s, L(1, index_nw * 4));
        for (int ty = 0; ty < B; ty++) wlh_push(s, L(0, (index + cols * ty) * 4));
        wlh_push(s, BAR);
    } else {
        for (int ty = 0; ty < B; ty++) wlh_push(s, L(0, (index + cols * ty) * 4));
        wlh_push(s, BAR);
        if (tx == 0) wlh_push(s, L(1, index_nw * 4));
    }
    wlh_push(s, L(1, (index_w + cols * tx) * 4));
    wlh_push(s, BAR);
    wlh_push(s, L(1, index_n * 4));
    wlh_push(s, BAR);
    for (int m = 0; m < B; m++) wlh_push(s, BAR);
    for (int m = B - 2; m >= 0; m--) wlh_push(s, BAR);
    for (int ty = 0; ty < B; ty++) wlh_push(s, S(1, (index + ty * cols) * 4));
}

START_TEST(nw_pages_and_thread_sequence)
{
    const uint64_t DIM = 1040, COLS = DIM + 1, BW = DIM / 16;
    static const char *const sets[] = { "workload.kind=nw", "workload.nw.dim=1040" };
    /* ref row 0 (4164 B) is never read: its first page stays untouched. */
    uint64_t lo = 4 * (DIM + 2), hi = 4 * COLS * COLS;
    struct wlh h = open_check(sets, NSETS(sets),
        wlh_pages(COLS * COLS * 4) + (hi - 1) / 4096 - lo / 4096 + 1, 2 * BW - 1);
    wlh_run_all(h.wl);
    ck_assert_uint_eq(h.wl->host_steps, 3);     /* two copies in, one out */
    wlh_close(&h);
    struct wlh_seq want = {0};
    nw_ref(&want, 1, (int)COLS, 5, (int)BW, 2, 0);
    check_thread(sets, NSETS(sets), 4, 2, 0, &want, "shared_1 i=5 bx=2 tx=0");
    nw_ref(&want, 1, (int)COLS, 65, (int)BW, 64, 15);
    check_thread(sets, NSETS(sets), 64, 64, 15, &want, "shared_1 i=65 bx=64 tx=15");
    /* shared_2 with i = 60 is launch BW + (BW-1-60). */
    nw_ref(&want, 2, (int)COLS, 60, (int)BW, 3, 0);
    check_thread(sets, NSETS(sets), BW + (BW - 1 - 60), 3, 0, &want, "shared_2 i=60 bx=3 tx=0");
    nw_ref(&want, 2, (int)COLS, 1, (int)BW, 0, 9);
    check_thread(sets, NSETS(sets), 2 * BW - 2, 0, 9, &want, "shared_2 i=1 tx=9");
}
END_TEST

/* lud kernels for one thread, transcribed from lud_kernel.cu (alloc 0 m). */
static void lud_ref(struct wlh_seq *s, int kernel, int dim, int offset, int bx, int by,
                    int tx, int ty)
{
    const int B = 16;
    if (kernel == 0) {
        int array_offset = offset * dim + offset;
        for (int i = 0; i < B; i++) { wlh_push(s, L(0, (array_offset + tx) * 4)); array_offset += dim; }
        wlh_push(s, BAR);
        for (int i = 0; i < B - 1; i++) { wlh_push(s, BAR); wlh_push(s, BAR); }
        array_offset = (offset + 1) * dim + offset;
        for (int i = 1; i < B; i++) { wlh_push(s, S(0, (array_offset + tx) * 4)); array_offset += dim; }
        return;
    }
    if (kernel == 1) {
        int idx, array_offset;
        if (tx < B) {
            idx = tx;
            array_offset = offset * dim + offset;
            for (int i = 0; i < B / 2; i++) { wlh_push(s, L(0, (array_offset + idx) * 4)); array_offset += dim; }
            array_offset = offset * dim + offset;
            for (int i = 0; i < B; i++) {
                wlh_push(s, L(0, (array_offset + (bx + 1) * B + idx) * 4)); array_offset += dim;
            }
        } else {
            idx = tx - B;
            array_offset = (offset + B / 2) * dim + offset;
            for (int i = B / 2; i < B; i++) { wlh_push(s, L(0, (array_offset + idx) * 4)); array_offset += dim; }
            array_offset = (offset + (bx + 1) * B) * dim + offset;
            for (int i = 0; i < B; i++) { wlh_push(s, L(0, (array_offset + idx) * 4)); array_offset += dim; }
        }
        wlh_push(s, BAR);
        wlh_push(s, BAR);
        if (tx < B) {
            idx = tx;
            array_offset = (offset + 1) * dim + offset;
            for (int i = 1; i < B; i++) {
                wlh_push(s, S(0, (array_offset + (bx + 1) * B + idx) * 4)); array_offset += dim;
            }
        } else {
            idx = tx - B;
            array_offset = (offset + (bx + 1) * B) * dim + offset;
            for (int i = 0; i < B; i++) { wlh_push(s, S(0, (array_offset + idx) * 4)); array_offset += dim; }
        }
        return;
    }
    int grow = offset + (by + 1) * B, gcol = offset + (bx + 1) * B;
    wlh_push(s, L(0, ((offset + ty) * dim + gcol + tx) * 4));
    wlh_push(s, L(0, ((grow + ty) * dim + offset + tx) * 4));
    wlh_push(s, BAR);
    wlh_push(s, L(0, ((grow + ty) * dim + gcol + tx) * 4));
    wlh_push(s, S(0, ((grow + ty) * dim + gcol + tx) * 4));
}

START_TEST(lud_pages_and_thread_sequence)
{
    static const char *const sets[] = { "workload.kind=lud", "workload.lud.dim=80" };
    /* Offsets 0, 16, 32, 48 (3 launches each), then the diagonal at 64. */
    struct wlh h = open_check(sets, NSETS(sets), wlh_pages(80 * 80 * 4), 13);
    wlh_close(&h);
    struct wlh_seq want = {0};
    lud_ref(&want, 0, 80, 32, 0, 0, 5, 0);
    check_thread(sets, NSETS(sets), 6, 0, 5, &want, "lud_diagonal offset 32");
    lud_ref(&want, 0, 80, 64, 0, 0, 15, 0);
    check_thread(sets, NSETS(sets), 12, 0, 15, &want, "lud_diagonal last");
    lud_ref(&want, 1, 80, 16, 2, 0, 3, 0);
    check_thread(sets, NSETS(sets), 4, 2, 3, &want, "lud_perimeter row thread");
    lud_ref(&want, 1, 80, 16, 1, 0, 20, 0);
    check_thread(sets, NSETS(sets), 4, 1, 20, &want, "lud_perimeter column thread");
    lud_ref(&want, 2, 80, 0, 3, 1, 7, 11);
    check_thread(sets, NSETS(sets), 2, 1 * 4 + 3, 11 * 16 + 7, &want, "lud_internal");
}
END_TEST

static Suite *rodinia_suite(void)
{
    Suite *s = suite_create("wl_rodinia");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, pathfinder_pages_and_thread_sequence);
    tcase_add_test(tc, hotspot_pages_and_thread_sequence);
    tcase_add_test(tc, hotspot3d_pages_and_thread_sequence);
    tcase_add_test(tc, bfs_levels_pages_and_thread_sequence);
    tcase_add_test(tc, kmeans_pages_and_thread_sequence);
    tcase_add_test(tc, backprop_pages_and_thread_sequence);
    tcase_add_test(tc, srad_pages_and_thread_sequence);
    tcase_add_test(tc, nw_pages_and_thread_sequence);
    tcase_add_test(tc, lud_pages_and_thread_sequence);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(rodinia_suite()); }

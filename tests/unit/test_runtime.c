/* The SC19 runtime's decisions (sim/runtime) on analyses filled by hand:
 * every expected placement and step below is derived from the paper's
 * algorithms (Li & Chapman SC19 Sec. 3.1-3.4, spec B.2) by hand, in the
 * comments next to it. */
#include <check.h>
#include "suite_main.h"
#include <string.h>
#include "runtime/rt_internal.h"
#include "core/stats.h"

#define MiB (1ULL << 20)

/* ---- a workload of named allocations, and a scripted program ---- */

static struct wl_step script[16];
static unsigned nscript, pos;
static bool fake_next(void *impl, struct wl_step *out)
{
    (void)impl;
    if (pos >= nscript) return false;
    *out = script[pos++];
    return true;
}
static void fake_destroy(void *impl) { (void)impl; }
static const struct workload_ops fake_ops = { "fake", NULL, fake_next, NULL, NULL, fake_destroy };
static const struct wl_program fake_prog = { NULL, 0, NULL, 0 };

static struct workload wl;

static void mk_wl(unsigned n, const char *const *names, const uint64_t *sizes)
{
    memset(&wl, 0, sizeof wl);
    wl.ops = &fake_ops;
    wl.program = &fake_prog;
    wl.nallocs = n;
    for (unsigned i = 0; i < n; i++) {
        snprintf(wl.allocs[i].name, sizeof wl.allocs[i].name, "%s", names[i]);
        wl.allocs[i].size = sizes[i];
        wl.allocs[i].base = WL_VA_BASE + i * 64 * MiB;
    }
    nscript = pos = 0;
}

/* Region r is program node 10 + r (rt_region_of_site maps it back). */
static struct wl_kernel kern(uint32_t r, uint32_t threads)
{
    struct wl_kernel k = { .grid = {threads / 256, 1, 1}, .block = {256, 1, 1}, .site = 10 + r };
    snprintf(k.name, sizeof k.name, "TR_%u", r);
    return k;
}

static struct rt_params params(const struct rt_ops *p)
{
    return (struct rt_params){ p, 0.5, RT_HYBRID, true, 0, false, false, false };
}

/* Launch region r; returns the steps queued for it. */
static struct runtime *rt;
static uint32_t launch(uint32_t r, uint32_t threads)
{
    static struct wl_kernel k;
    k = kern(r, threads);
    rt->qn = rt->qhead = 0;
    rt_before_kernel(rt, &k);
    return rt->qn;
}

/* Bit set of the objects wholly on the GPU. */
static unsigned on_gpu(void)
{
    unsigned m = 0;
    for (uint32_t d = 0; d < rt->nobjs; d++)
        if (rt->obj[d].gpu && rt->obj[d].gpu == rt->obj[d].acct) m |= 1u << d;
    return m;
}

static void expect_step(uint32_t i, enum wl_step_kind kind, uint32_t d, uint64_t off,
                        uint64_t bytes, enum wl_dir dir, enum wl_advice adv, bool unset)
{
    ck_assert_uint_lt(i, rt->qn);
    const struct wl_step *s = &rt->q[i];
    ck_assert_int_eq(s->kind, kind);
    ck_assert_uint_eq(s->host.alloc, d);
    ck_assert_uint_eq(s->host.offset, off);
    ck_assert_uint_eq(s->host.bytes, bytes);
    if (kind != WL_STEP_ADVISE) ck_assert_int_eq(s->host.dir, dir);
    if (kind == WL_STEP_ADVISE) {
        ck_assert_int_eq(s->host.advice, adv);
        ck_assert_int_eq(s->host.unset, unset);
    }
}

/* ---- Fig. 3: cfd's target regions ----
 * Objects V, N, F, O of 4 MiB each, GL_V > GL_N > GL_F > GL_O (the
 * figure's order).  Regions (Sec. 3.3-3.4, 5.2): TR_0 (copy) uses V, O;
 * TR_1 (compute_flux) uses V, N, F; TR_2 (time_step) uses V, F, O; the
 * program is outer { TR_0; inner { TR_1; TR_2 } }.  Reuse distances in
 * the paper's convention, which rt_analysis.c follows (regions up to and
 * including the next user: "O in TR_0 has RD 2", "F in TR_2 has RD 1"),
 * on the likely path (the inner loop goes round): TR_0: V 1 (TR_1), O 2
 * (TR_2); TR_1: V 1, F 1 (TR_2), N 2 (the next TR_1); TR_2: V 1, F 1
 * (the next TR_1), O 2 (the next TR_2).  RL per region (RLM): TR_0 V 1,
 * O 1; TR_1 V 3, N 2, F 1; TR_2 V 1, F 1, O 1.  Densities all 2
 * (explicit). */
enum { V, N, F, O };
#define BIT(x) (1u << (x))

static void cfd_setup(const struct rt_ops *p, uint64_t cap_objs)
{
    static const char *const names[] = {"V", "N", "F", "O"};
    static const uint64_t sizes[] = {4 * MiB, 4 * MiB, 4 * MiB, 4 * MiB};
    mk_wl(4, names, sizes);
    static struct rt_info ri;
    memset(&ri, 0, sizeof ri);
    ri.nregions = 3;
    ri.nobjs = 4;
    static const int use[3][4] = { {1, 0, 0, 1}, {1, 1, 1, 0}, {1, 0, 1, 1} };
    static const double rl[3][4] = { {1, 0, 0, 1}, {3, 2, 1, 0}, {1, 0, 1, 1} };
    static const double rd[3][4] = { {1, 0, 0, 2}, {1, 2, 1, 0}, {1, 0, 1, 2} };
    static const uint8_t gl[4] = {200, 150, 100, 50};
    for (int r = 0; r < 3; r++) {
        ri.site[r] = 10 + (uint32_t)r;
        for (int d = 0; d < 4; d++) {
            ri.uses[r][d] = use[r][d];
            ri.mode[r][d] = use[r][d] ? WL_USE_R | WL_USE_W : 0;
            ri.rl[r][d] = rl[r][d];
            ri.rd[r][d] = rd[r][d];
            ri.bytes_iter[r][d] = use[r][d] ? 8192 : 0;   /* x 1024 / 4 MiB = 2 */
        }
    }
    for (int d = 0; d < 4; d++) { ri.gl8[d] = gl[d]; ri.gl[d] = gl[d]; }
    struct rt_params pp = params(p);
    rt = rt_new(&pp, &ri, &wl, cap_objs * 4 * MiB, NULL);
}

/* Two outer iterations of the program: 14 launches. */
static const uint32_t cfd_seq[14] = {0, 1, 2, 1, 2, 1, 2, 0, 1, 2, 1, 2, 1, 2};

static void cfd_run(const unsigned *expect)
{
    for (int i = 0; i < 14; i++) {
        launch(cfd_seq[i], 1024);
        ck_assert_msg(on_gpu() == expect[i], "launch %d (TR_%u): GPU holds %#x, expected %#x",
                      i, cfd_seq[i], on_gpu(), expect[i]);
    }
    runtime_free(rt);
}

/* GLM, room for 2: TR_0 brings V, O.  TR_1 (order V, N, F): N evicts O
 * (GL_O < GL_N); F finds only V and N, both placed -> CPU.  TR_2: F's only
 * candidate N has higher GL -> F stays on CPU, so does O.  From then on
 * nothing changes: "GLM will place V and N into GPU memory throughout". */
START_TEST(fig3_glm_keeps_v_and_n)
{
    cfd_setup(&rt_glm_ops, 2);
    const unsigned vo = BIT(V) | BIT(O), vn = BIT(V) | BIT(N);
    const unsigned e[14] = {vo, vn, vn, vn, vn, vn, vn, vn, vn, vn, vn, vn, vn, vn};
    cfd_run(e);
}
END_TEST

/* RDM, room for 2 (TRC from 1 at the first launch; next_reuse = TRC + RD):
 *  1 TR_0: V=2, O=3; both fit.
 *  2 TR_1: V=3, F=3, N=4; order V, F (RD 1; GL breaks the tie), N.  F: the
 *    candidate O (next 3) ties with F (3) and GL_O < GL_F -> O evicted, F
 *    in.  N: V and F placed, no candidate -> CPU.  GPU {V, F}: "RDM will
 *    keep F instead of N when the control flow reaches the inner loop".
 *  3-7: V and F are reused every launch; N and O stay on the CPU.
 *  8 TR_0 (TRC 8): O=10; F was predicted for TRC 8 (7 + 1) and TR_0 does
 *    not use it -> +inf (B.9.6) -> F evicted, O in: {V, O}.  (Taken as
 *    8 < 8, false, F would stay and O would be kept out.)
 *  9 TR_1: F (10) ties with O (10), GL_O < GL_F -> {V, F} again. */
START_TEST(fig3_rdm_keeps_f_in_the_inner_loop)
{
    cfd_setup(&rt_rdm_ops, 2);
    const unsigned vo = BIT(V) | BIT(O), vf = BIT(V) | BIT(F);
    const unsigned e[14] = {vo, vf, vf, vf, vf, vf, vf, vo, vf, vf, vf, vf, vf, vf};
    cfd_run(e);
}
END_TEST

/* RLM, room for 2: priorities are the current region's RL, 0 for objects
 * it does not use.  TR_1: N (2) evicts O (0 here); F (1) finds V, N placed
 * -> CPU: {V, N}.  TR_2: F (1) evicts N (0 here); O (1): V, F placed ->
 * CPU: {V, F}.  TR_1 again: N (2) evicts F (1, not yet placed): {V, N}.
 * N and F swap at every launch (the inter-kernel thrashing of Sec. 3.3);
 * TR_0: O (1) evicts F (0 there). */
START_TEST(fig3_rlm_thrashes_n_and_f)
{
    cfd_setup(&rt_rlm_ops, 2);
    const unsigned vo = BIT(V) | BIT(O), vn = BIT(V) | BIT(N), vf = BIT(V) | BIT(F);
    const unsigned e[14] = {vo, vn, vf, vn, vf, vn, vf, vo, vn, vf, vn, vf, vn, vf};
    cfd_run(e);
}
END_TEST

/* Sec. 5.2, cfd 19 GB: "RDM keeps O in the GPU memory, while GLM ...
 * retain[s] N and evict[s] O" at TR_1.  Room for 3: after TR_0 {V, O}.
 * RDM at TR_1: F fits; N (next 4) finds O (next 3 < 4) -> stop, N to CPU:
 * {V, O, F}.  GLM at TR_1: N fits; F evicts O (lowest GL): {V, N, F}. */
START_TEST(cfd_19gb_rdm_keeps_o_glm_evicts_it)
{
    cfd_setup(&rt_rdm_ops, 3);
    launch(0, 1024);
    launch(1, 1024);
    ck_assert_uint_eq(on_gpu(), BIT(V) | BIT(O) | BIT(F));
    runtime_free(rt);
    cfd_setup(&rt_glm_ops, 3);
    launch(0, 1024);
    launch(1, 1024);
    ck_assert_uint_eq(on_gpu(), BIT(V) | BIT(N) | BIT(F));
    runtime_free(rt);
}
END_TEST

/* ---- a three-object CFG for RDM ----
 * loop { R0(A, C); R1(B, C); R2(A, B) }, A and B 4 MiB, C 8 MiB, GPU
 * 12 MiB, GL C 30 > A 20 > B 10.  RD (regions up to the next user): R0:
 * C 1 (R1), A 2 (R2); R1: B 1 (R2), C 2 (R0); R2: A 1 (R0), B 2 (R1).
 * No prediction fails here, so no time counts as +inf.
 *  TRC1 R0: C=2, A=3: both fit -> {A, C}.
 *  TRC2 R1: B=3, C=4.  B: candidates by furthest reuse: C (4) > B (3) ->
 *    C evicted, B in.  C: 4 MiB free of 8; A (3) < C (4) -> stop -> C on
 *    the CPU (without partial mapping) -> {A, B}.
 *  TRC3 R2: A=4, B=5: both there -> {A, B}.
 *  TRC4 R0: C=5, A=6.  C needs 8, 4 free: A (6, not yet placed) > 5 ->
 *    A evicted, C in; A: B (5) < A (6) -> stop -> A on the CPU -> {B, C}.
 *  TRC5 R1: B=6, C=7: both there -> {B, C}.
 *  TRC6 R2: A=7, B=8.  A: B (8) > 7 -> B evicted, A in; B: C (7) < 8 ->
 *    B on the CPU -> {A, C}. */
enum { A, B, C };
static void three_setup(bool partial)
{
    static const char *const names[] = {"A", "B", "C"};
    static const uint64_t sizes[] = {4 * MiB, 4 * MiB, 8 * MiB};
    mk_wl(3, names, sizes);
    static struct rt_info ri;
    memset(&ri, 0, sizeof ri);
    ri.nregions = 3;
    ri.nobjs = 3;
    static const int use[3][3] = { {1, 0, 1}, {0, 1, 1}, {1, 1, 0} };
    static const double rd[3][3] = { {2, 0, 1}, {0, 1, 2}, {1, 2, 0} };
    static const uint8_t gl[3] = {20, 10, 30};
    for (int r = 0; r < 3; r++) {
        ri.site[r] = 10 + (uint32_t)r;
        for (int d = 0; d < 3; d++) {
            ri.uses[r][d] = use[r][d];
            ri.rd[r][d] = rd[r][d];
            ri.rl[r][d] = use[r][d];
            ri.bytes_iter[r][d] = use[r][d] ? 1 << 20 : 0;  /* dense */
        }
    }
    for (int d = 0; d < 3; d++) ri.gl8[d] = gl[d];
    struct rt_params pp = params(&rt_rdm_ops);
    pp.partial = partial;
    rt = rt_new(&pp, &ri, &wl, 12 * MiB, NULL);
}

START_TEST(rdm_three_objects)
{
    three_setup(false);
    const unsigned ac = BIT(A) | BIT(C), ab = BIT(A) | BIT(B), bc = BIT(B) | BIT(C);
    const unsigned e[6] = {ac, ab, ab, bc, bc, ac};
    for (int i = 0; i < 6; i++) {
        launch((uint32_t)i % 3, 1024);
        ck_assert_msg(on_gpu() == e[i], "TRC %d: %#x, expected %#x", i + 1, on_gpu(), e[i]);
    }
    /* After TRC 6: the next reuse times RDM predicted. */
    ck_assert_uint_eq(rt->obj[A].next_reuse, 7);
    ck_assert_uint_eq(rt->obj[B].next_reuse, 8);
    ck_assert_uint_eq(rt->obj[C].next_reuse, 7);
    runtime_free(rt);
}
END_TEST

/* The same at TRC 2 with partial mapping: C, the first object that does
 * not fit, gets the 4 MiB left (two 2 MiB blocks, lowest addresses) and
 * the rest pinned; at TRC 4, C needs the other 4 MiB and evicts A. */
START_TEST(rdm_three_objects_partial)
{
    three_setup(true);
    launch(0, 1024);
    launch(1, 1024);
    ck_assert_uint_eq(on_gpu(), BIT(A) | BIT(B));
    ck_assert_uint_eq(rt->obj[C].gpu, 4 * MiB);
    ck_assert_uint_eq(rt->used, 12 * MiB);
    launch(2, 1024);
    launch(0, 1024);
    ck_assert_uint_eq(on_gpu(), BIT(B) | BIT(C));
    runtime_free(rt);
}
END_TEST

/* ---- partial mapping's split ----
 * X (2 MiB, RD 1) and Y (10 MiB, RD 2) on a 9 MiB GPU: X fits (7 MiB
 * left); Y does not and nothing can be evicted (X placed) -> Y's lowest
 * 6 MiB (7 MiB down to whole 2 MiB blocks) on the GPU, prefetched (density
 * 1), the upper 4 MiB mapped remotely by accessed-by on their range. */
START_TEST(partial_split)
{
    static const char *const names[] = {"X", "Y"};
    static const uint64_t sizes[] = {2 * MiB, 10 * MiB};
    mk_wl(2, names, sizes);
    static struct rt_info ri;
    memset(&ri, 0, sizeof ri);
    ri.nregions = 1;
    ri.site[0] = 10;
    ri.uses[0][0] = ri.uses[0][1] = true;
    ri.rd[0][0] = 1;
    ri.rd[0][1] = 2;
    ri.bytes_iter[0][0] = 2048;          /* x 1024 / 2 MiB = 1 */
    ri.bytes_iter[0][1] = 10240;         /* x 1024 / 10 MiB = 1 */
    struct rt_params pp = params(&rt_rdm_ops);
    rt = rt_new(&pp, &ri, &wl, 9 * MiB, NULL);
    ck_assert_uint_eq(launch(0, 1024), 3);
    expect_step(0, WL_STEP_PREFETCH, 0, 0, 2 * MiB, WL_TO_GPU, 0, false);
    expect_step(1, WL_STEP_PREFETCH, 1, 0, 6 * MiB, WL_TO_GPU, 0, false);
    expect_step(2, WL_STEP_ADVISE, 1, 6 * MiB, 4 * MiB, 0, WL_ADV_ACCESSED_BY_GPU, false);
    ck_assert_uint_eq(rt->obj[1].gpu, 6 * MiB);
    ck_assert_uint_eq(rt->used, 8 * MiB);
    /* The next launch changes nothing: no steps. */
    ck_assert_uint_eq(launch(0, 1024), 0);
    /* Without partial mapping Y is pinned whole. */
    runtime_free(rt);
    pp.partial = false;
    rt = rt_new(&pp, &ri, &wl, 9 * MiB, NULL);
    ck_assert_uint_eq(launch(0, 1024), 3);
    expect_step(1, WL_STEP_ADVISE, 1, 0, 10 * MiB, 0, WL_ADV_PREFERRED_HOST, false);
    expect_step(2, WL_STEP_ADVISE, 1, 0, 10 * MiB, 0, WL_ADV_ACCESSED_BY_GPU, false);
    ck_assert_uint_eq(rt->obj[1].gpu, 0);
    runtime_free(rt);
}
END_TEST

/* ---- the density switch (Sec. 3.1: 0.5) ----
 * One 4 MiB object, 1024 threads: B_iter 2048 -> 2048 x 1024 / 4 MiB =
 * 0.5 exactly -> explicit (not below the threshold): one prefetch.
 * B_iter 2047 -> 0.49976 -> implicit: no step at all.  runtime.transfer
 * overrides it both ways. */
static uint32_t density_case(double b_iter, enum rt_transfer t)
{
    static const char *const names[] = {"D"};
    static const uint64_t sizes[] = {4 * MiB};
    mk_wl(1, names, sizes);
    static struct rt_info ri;
    memset(&ri, 0, sizeof ri);
    ri.nregions = 1;
    ri.site[0] = 10;
    ri.uses[0][0] = true;
    ri.bytes_iter[0][0] = b_iter;
    struct rt_params pp = params(&rt_glm_ops);
    pp.transfer = t;
    rt = rt_new(&pp, &ri, &wl, 64 * MiB, NULL);
    uint32_t n = launch(0, 1024);
    ck_assert_uint_eq(rt->obj[0].gpu, 4 * MiB);
    runtime_free(rt);
    return n;
}

START_TEST(density_threshold)
{
    ck_assert_uint_eq(density_case(2048, RT_HYBRID), 1);
    ck_assert_uint_eq(density_case(2047, RT_HYBRID), 0);
    ck_assert_uint_eq(density_case(2048, RT_IMPLICIT), 0);
    ck_assert_uint_eq(density_case(1, RT_EXPLICIT), 1);
}
END_TEST

/* ---- LC and B_iter of the density (Sec. 4.2; runtime.density_lc,
 * runtime.density_b_iter) ----
 * One object of SIZE bytes, B_iter B, a launch of 1024 threads whose
 * parallel loop has ITERS iterations (the generator's kernel_iters; 0: it
 * declares none).  Returns the steps queued (1: prefetched, explicit; 0:
 * implicit) and the density in *DENS. */
static uint64_t loop_iters;
static uint64_t fake_iters(const void *impl, const struct wl_kernel *k)
{ (void)impl; (void)k; return loop_iters; }

static uint32_t density_run(uint64_t size, double b_iter, uint64_t iters, bool has_iters,
                            bool lc_iterations, bool biter_bytes, double *dens)
{
    static const char *const names[] = {"D"};
    uint64_t sizes[] = {size};
    mk_wl(1, names, sizes);
    loop_iters = iters;
    wl.kernel_iters = has_iters ? fake_iters : NULL;
    static struct rt_info ri;
    memset(&ri, 0, sizeof ri);
    ri.nregions = 1;
    ri.site[0] = 10;
    ri.uses[0][0] = true;
    ri.bytes_iter[0][0] = b_iter;
    struct rt_params pp = params(&rt_glm_ops);
    pp.lc_iterations = lc_iterations;
    pp.biter_bytes = biter_bytes;
    rt = rt_new(&pp, &ri, &wl, 64 * MiB, NULL);
    uint32_t n = launch(0, 1024);
    *dens = rt_density(rt, 0);
    runtime_free(rt);
    return n;
}

/* One density_run and what it must give: the steps queued and the density. */
struct density_case {
    uint64_t size; double b_iter; uint64_t iters; bool has_iters, lc_iterations, biter_bytes;
    uint32_t steps; double density;
};

static void check_density(const struct density_case *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double d;
        ck_assert_uint_eq(density_run(c[i].size, c[i].b_iter, c[i].iters, c[i].has_iters,
                                      c[i].lc_iterations, c[i].biter_bytes, &d), c[i].steps);
        ck_assert_double_eq_tol(d, c[i].density, 1e-15);
    }
}

/* 4 MiB, B_iter 2048 B, 1024 threads, a loop of 1000 iterations:
 *   threads (default): 2048 x 1024 / 4194304 = 0.5 exactly -> explicit;
 *   iterations: 2048 x 1000 / 4194304 = 0.48828125 -> implicit (the 24
 *     threads past the bounds check run no iteration);
 *   iterations, the generator declaring 0 or no kernel_iters: the grid's
 *     1024 again -> 0.5, explicit. */
START_TEST(density_lc)
{
    static const struct density_case cases[] = {
        {4 * MiB, 2048, 1000, true, false, false, 1, 0.5},
        {4 * MiB, 2048, 1000, true, true, false, 0, 0.48828125},
        {4 * MiB, 2048, 0, true, true, false, 1, 0.5},
        {4 * MiB, 2048, 1000, false, true, false, 1, 0.5},
    };
    check_density(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

/* B_iter in whole bytes, at most 4095 (runtime.density_b_iter bytes):
 *   1 KiB, B_iter 0.75 B (a guarded 1-byte store, 0.5, plus a quarter):
 *     real 0.75 x 1024 / 1024 = 0.75 -> explicit; bytes: 0 -> 0, implicit;
 *   1 KiB, B_iter 1.75 B: bytes 1 x 1024 / 1024 = 1 -> explicit;
 *   4 MiB, B_iter 8192 B: real 8192 x 1024 / 4194304 = 2; bytes 4095 x
 *     1024 / 4194304 = 0.999755859375, still explicit. */
START_TEST(density_b_iter_bytes)
{
    static const struct density_case cases[] = {
        {1024, 0.75, 0, false, false, false, 1, 0.75},
        {1024, 0.75, 0, false, false, true, 0, 0.0},
        {1024, 1.75, 0, false, false, true, 1, 1.0},
        {4 * MiB, 8192, 0, false, false, false, 1, 2.0},
        {4 * MiB, 8192, 0, false, false, true, 1, 0.999755859375},
    };
    check_density(cases, sizeof cases / sizeof cases[0]);
}
END_TEST

/* ---- the steps of each decision kind (spec B.2.7) ----
 * GLM, P (GL 100) and Q (GL 50), 4 MiB each, GPU 4 MiB, region 0 uses Q,
 * region 1 uses P, region 2 uses Q, all dense.
 *  launch 0: Q fits -> prefetch Q.
 *  launch 1: P evicts Q (50 < 100): prefetch Q to host + preferred host,
 *    then prefetch P.
 *  launch 2: Q finds only P, of higher GL -> Q placed on the CPU: its
 *    preferred location is host already, accessed-by is new.
 *  launch 3 (region 2 again): nothing changes, no steps.
 * Then RLM with Q of lower regional weight moving back: unset preferred
 * host, unset accessed-by, prefetch (its pages are mapped remotely, so it
 * moves explicitly whatever its density). */
START_TEST(steps_per_decision)
{
    static const char *const names[] = {"P", "Q"};
    static const uint64_t sizes[] = {4 * MiB, 4 * MiB};
    mk_wl(2, names, sizes);
    static struct rt_info ri;
    memset(&ri, 0, sizeof ri);
    ri.nregions = 3;
    for (int r = 0; r < 3; r++) ri.site[r] = 10 + (uint32_t)r;
    ri.uses[0][1] = ri.uses[1][0] = ri.uses[2][1] = true;
    ri.rl[0][1] = ri.rl[1][0] = ri.rl[2][1] = 1;
    ri.bytes_iter[0][1] = ri.bytes_iter[1][0] = 8192;
    ri.bytes_iter[2][1] = 1;             /* sparse at region 2 */
    ri.gl8[0] = 100;
    ri.gl8[1] = 50;
    struct rt_params pp = params(&rt_glm_ops);
    rt = rt_new(&pp, &ri, &wl, 4 * MiB, NULL);
    ck_assert_uint_eq(launch(0, 1024), 1);
    expect_step(0, WL_STEP_PREFETCH, 1, 0, 4 * MiB, WL_TO_GPU, 0, false);
    ck_assert_uint_eq(launch(1, 1024), 3);
    expect_step(0, WL_STEP_PREFETCH, 1, 0, 4 * MiB, WL_TO_HOST, 0, false);
    expect_step(1, WL_STEP_ADVISE, 1, 0, 4 * MiB, 0, WL_ADV_PREFERRED_HOST, false);
    expect_step(2, WL_STEP_PREFETCH, 0, 0, 4 * MiB, WL_TO_GPU, 0, false);
    ck_assert_uint_eq(launch(2, 1024), 1);
    expect_step(0, WL_STEP_ADVISE, 1, 0, 4 * MiB, 0, WL_ADV_ACCESSED_BY_GPU, false);
    ck_assert_uint_eq(launch(2, 1024), 0);
    runtime_free(rt);

    /* RLM: at region 2 Q (RL 1) evicts P (RL 0 there) though Q is sparse:
     * Q's pages are remote since launch 2, so the move is a prefetch. */
    pp = params(&rt_rlm_ops);
    rt = rt_new(&pp, &ri, &wl, 4 * MiB, NULL);
    launch(0, 1024);
    launch(1, 1024);                    /* P evicts Q */
    rt->qn = 0;
    /* Pin Q by hand as a CPU placement would have. */
    rt_pin(rt, 1);
    ck_assert_uint_eq(rt->qn, 1);       /* preferred host was set: accessed-by only */
    ck_assert_uint_eq(launch(2, 1024), 5);
    expect_step(0, WL_STEP_PREFETCH, 0, 0, 4 * MiB, WL_TO_HOST, 0, false);
    expect_step(1, WL_STEP_ADVISE, 0, 0, 4 * MiB, 0, WL_ADV_PREFERRED_HOST, false);
    expect_step(2, WL_STEP_ADVISE, 1, 0, 4 * MiB, 0, WL_ADV_PREFERRED_HOST, true);
    expect_step(3, WL_STEP_ADVISE, 1, 0, 4 * MiB, 0, WL_ADV_ACCESSED_BY_GPU, true);
    expect_step(4, WL_STEP_PREFETCH, 1, 0, 4 * MiB, WL_TO_GPU, 0, false);
    ck_assert_uint_eq(rt->obj[1].remote_lo, 4 * MiB);
    runtime_free(rt);
}
END_TEST

/* ---- LRU's object order ----
 * A, B, C of 4 MiB on an 8 MiB GPU; regions 0, 1, 2 use A, B, C alone.
 * Launches A, B, A, C: C evicts B (last used at TRC 2; A at 3).  Then B:
 * evicts A (3) rather than C (4).  Every move is a prefetch (LRU
 * transfers explicitly even when sparse). */
START_TEST(lru_object_order)
{
    static const char *const names[] = {"A", "B", "C"};
    static const uint64_t sizes[] = {4 * MiB, 4 * MiB, 4 * MiB};
    mk_wl(3, names, sizes);
    static struct rt_info ri;
    memset(&ri, 0, sizeof ri);
    ri.nregions = 3;
    for (int r = 0; r < 3; r++) {
        ri.site[r] = 10 + (uint32_t)r;
        ri.uses[r][r] = true;
        ri.bytes_iter[r][r] = 1;         /* sparse: LRU prefetches anyway */
    }
    struct rt_params pp = params(&rt_lru_ops);
    rt = rt_new(&pp, &ri, &wl, 8 * MiB, NULL);
    ck_assert_uint_eq(launch(A, 1024), 1);
    launch(B, 1024);
    ck_assert_uint_eq(launch(A, 1024), 0);
    ck_assert_uint_eq(on_gpu(), BIT(A) | BIT(B));
    ck_assert_uint_eq(launch(C, 1024), 3);
    expect_step(0, WL_STEP_PREFETCH, B, 0, 4 * MiB, WL_TO_HOST, 0, false);
    expect_step(2, WL_STEP_PREFETCH, C, 0, 4 * MiB, WL_TO_GPU, 0, false);
    ck_assert_uint_eq(on_gpu(), BIT(A) | BIT(C));
    launch(B, 1024);
    ck_assert_uint_eq(on_gpu(), BIT(B) | BIT(C));
    runtime_free(rt);
}
END_TEST

/* ---- the step source: the program as the runtime rewrites it ----
 * Program: memcpy H2D of A, kernel (region 0: reads A, writes B), memcpy
 * D2H of B.  baseline drops the generator's two copies and emits its own
 * map clauses: memcpy H2D of A before (read), prefetch of B (written
 * only), the kernel, memcpy D2H of B after.  decision_cost 1 us x 2
 * decisions before the kernel (A's copy, B's allocation; B's copy back is
 * decided after it and delays nothing). */
START_TEST(step_source_baseline)
{
    static const char *const names[] = {"A", "B"};
    static const uint64_t sizes[] = {4 * MiB, 2 * MiB};
    mk_wl(2, names, sizes);
    script[0] = (struct wl_step){ .kind = WL_STEP_MEMCPY, .host = { .alloc = 0, .bytes = 4 * MiB } };
    script[1] = (struct wl_step){ .kind = WL_STEP_KERNEL, .kernel = kern(0, 1024) };
    script[2] = (struct wl_step){ .kind = WL_STEP_MEMCPY,
                                  .host = { .alloc = 1, .bytes = 2 * MiB, .dir = WL_TO_HOST } };
    nscript = 3;
    static struct rt_info ri;
    memset(&ri, 0, sizeof ri);
    ri.nregions = 1;
    ri.site[0] = 10;
    ri.uses[0][0] = ri.uses[0][1] = true;
    ri.mode[0][0] = WL_USE_R;
    ri.mode[0][1] = WL_USE_W;
    struct rt_params pp = params(&rt_baseline_ops);
    pp.decision_cost = 1000000;         /* 1 us */
    rt = rt_new(&pp, &ri, &wl, 64 * MiB, NULL);
    struct wl_step s;
    sim_time delay;
    ck_assert(runtime_next_step(rt, &s, 0, &delay));
    ck_assert_int_eq(s.kind, WL_STEP_MEMCPY);
    ck_assert_uint_eq(s.host.alloc, 0);
    ck_assert_int_eq(s.host.dir, WL_TO_GPU);
    ck_assert_uint_eq(delay, 0);
    ck_assert(runtime_next_step(rt, &s, 0, &delay));
    ck_assert_int_eq(s.kind, WL_STEP_PREFETCH);
    ck_assert_uint_eq(s.host.alloc, 1);
    ck_assert(runtime_next_step(rt, &s, 0, &delay));
    ck_assert_int_eq(s.kind, WL_STEP_KERNEL);
    ck_assert_uint_eq(delay, 2 * 1000000);
    ck_assert(runtime_next_step(rt, &s, 0, &delay));
    ck_assert_int_eq(s.kind, WL_STEP_MEMCPY);
    ck_assert_uint_eq(s.host.alloc, 1);
    ck_assert_int_eq(s.host.dir, WL_TO_HOST);
    ck_assert(!runtime_next_step(rt, &s, 0, &delay));
    /* Handed out: the generator's 2 and the runtime's 3 -- none ran
     * here, so the run's host_steps_skipped would read 5 - executed. */
    ck_assert_uint_eq(wl.host_steps, 5);
    runtime_free(rt);
}
END_TEST

/* baseline_hoisted: one target data region around the program.  A is read
 * by region 0, B written by region 0 and read by region 1, C read by
 * region 1; launches r0, r1, r0.  Copied in once, before the first kernel
 * that uses each (A's and C's H2D copies, B's allocation), nothing before
 * the second r0, and after the last kernel one D2H copy of the only object
 * written (B). */
START_TEST(step_source_baseline_hoisted)
{
    static const char *const names[] = {"A", "B", "C"};
    static const uint64_t sizes[] = {4 * MiB, 2 * MiB, 1 * MiB};
    mk_wl(3, names, sizes);
    script[0] = (struct wl_step){ .kind = WL_STEP_KERNEL, .kernel = kern(0, 1024) };
    script[1] = (struct wl_step){ .kind = WL_STEP_KERNEL, .kernel = kern(1, 1024) };
    script[2] = (struct wl_step){ .kind = WL_STEP_KERNEL, .kernel = kern(0, 1024) };
    nscript = 3;
    static struct rt_info ri;
    memset(&ri, 0, sizeof ri);
    ri.nregions = 2;
    ri.site[0] = 10;
    ri.site[1] = 11;
    ri.uses[0][0] = ri.uses[0][1] = ri.uses[1][1] = ri.uses[1][2] = true;
    ri.mode[0][0] = WL_USE_R;
    ri.mode[0][1] = WL_USE_W;
    ri.mode[1][1] = WL_USE_R;
    ri.mode[1][2] = WL_USE_R;
    struct rt_params pp = params(&rt_baseline_hoisted_ops);
    rt = rt_new(&pp, &ri, &wl, 64 * MiB, NULL);
    static const struct { enum wl_step_kind k; uint32_t alloc; enum wl_dir dir; } want[] = {
        {WL_STEP_MEMCPY, 0, WL_TO_GPU}, {WL_STEP_PREFETCH, 1, WL_TO_GPU}, {WL_STEP_KERNEL, 0, 0},
        {WL_STEP_MEMCPY, 2, WL_TO_GPU}, {WL_STEP_KERNEL, 0, 0}, {WL_STEP_KERNEL, 0, 0},
        {WL_STEP_MEMCPY, 1, WL_TO_HOST},
    };
    struct wl_step s;
    sim_time delay;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ck_assert(runtime_next_step(rt, &s, 0, &delay));
        ck_assert_int_eq(s.kind, want[i].k);
        if (s.kind == WL_STEP_KERNEL) continue;
        ck_assert_uint_eq(s.host.alloc, want[i].alloc);
        ck_assert_int_eq(s.host.dir, want[i].dir);
        ck_assert_uint_eq(s.host.bytes, sizes[want[i].alloc]);
    }
    ck_assert(!runtime_next_step(rt, &s, 0, &delay));
    ck_assert(!runtime_next_step(rt, &s, 0, &delay));     /* the end steps come once */
    runtime_free(rt);
}
END_TEST

/* um_pf: every used object prefetched before each launch, whatever its
 * density; policy none hands the program over untouched. */
START_TEST(step_source_um_pf_and_none)
{
    static const char *const names[] = {"A", "B"};
    static const uint64_t sizes[] = {4 * MiB, 2 * MiB};
    mk_wl(2, names, sizes);
    script[0] = (struct wl_step){ .kind = WL_STEP_MEMCPY, .host = { .alloc = 0, .bytes = 4 * MiB } };
    script[1] = (struct wl_step){ .kind = WL_STEP_KERNEL, .kernel = kern(0, 1024) };
    nscript = 2;
    static struct rt_info ri;
    memset(&ri, 0, sizeof ri);
    ri.nregions = 1;
    ri.site[0] = 10;
    ri.uses[0][0] = ri.uses[0][1] = true;
    struct rt_params pp = params(&rt_um_pf_ops);
    rt = rt_new(&pp, &ri, &wl, 64 * MiB, NULL);
    struct wl_step s;
    sim_time delay;
    for (uint32_t d = 0; d < 2; d++) {
        ck_assert(runtime_next_step(rt, &s, 0, &delay));
        ck_assert_int_eq(s.kind, WL_STEP_PREFETCH);
        ck_assert_uint_eq(s.host.alloc, d);
        ck_assert_uint_eq(s.host.bytes, sizes[d]);
    }
    ck_assert(runtime_next_step(rt, &s, 0, &delay));
    ck_assert_int_eq(s.kind, WL_STEP_KERNEL);
    ck_assert(!runtime_next_step(rt, &s, 0, &delay));
    runtime_free(rt);

    pos = 0;
    pp = params(&rt_none_ops);
    rt = rt_new(&pp, &ri, &wl, 64 * MiB, NULL);
    ck_assert(runtime_next_step(rt, &s, 0, &delay));
    ck_assert_int_eq(s.kind, WL_STEP_MEMCPY);
    ck_assert(runtime_next_step(rt, &s, 0, &delay));
    ck_assert_int_eq(s.kind, WL_STEP_KERNEL);
    ck_assert_uint_eq(rt->qn, 0);
    ck_assert(!runtime_next_step(rt, &s, 0, &delay));
    runtime_free(rt);
}
END_TEST

/* runtime.read_results: after the last kernel the host reads every object
 * some launch wrote -- one prefetch to host of its whole size, in
 * allocation order -- and nothing else; the objects only read (B) or
 * never used (C) stay.  With the key off the program ends at its last
 * kernel.  The same for every unified-memory scheme (here um and rdm). */
START_TEST(step_source_read_results)
{
    static const char *const names[] = {"A", "B", "C", "D"};
    static const uint64_t sizes[] = {4 * MiB, 2 * MiB, 1 * MiB, 3 * MiB};
    static const struct rt_ops *const pol[] = { &rt_um_ops, &rt_rdm_ops };
    for (unsigned i = 0; i < 2; i++)
        for (int on = 0; on < 2; on++) {
            mk_wl(4, names, sizes);
            script[0] = (struct wl_step){ .kind = WL_STEP_KERNEL, .kernel = kern(0, 1024) };
            script[1] = (struct wl_step){ .kind = WL_STEP_KERNEL, .kernel = kern(1, 1024) };
            nscript = 2;
            static struct rt_info ri;
            memset(&ri, 0, sizeof ri);
            ri.nregions = 2;
            ri.site[0] = 10;
            ri.site[1] = 11;
            ri.uses[0][0] = ri.uses[0][1] = ri.uses[1][1] = ri.uses[1][3] = true;
            ri.mode[0][0] = WL_USE_R | WL_USE_W;
            ri.mode[0][1] = WL_USE_R;
            ri.mode[1][1] = WL_USE_R;
            ri.mode[1][3] = WL_USE_W;
            struct rt_params pp = params(pol[i]);
            pp.read_results = on;
            rt = rt_new(&pp, &ri, &wl, 64 * MiB, NULL);
            struct wl_step s;
            sim_time delay;
            unsigned kernels = 0, reads = 0;
            uint32_t read[4];
            while (runtime_next_step(rt, &s, 0, &delay)) {
                if (s.kind == WL_STEP_KERNEL) { ck_assert_uint_eq(reads, 0); kernels++; continue; }
                if (kernels < 2) continue;      /* rdm's placement before a kernel */
                ck_assert_int_eq(s.kind, WL_STEP_PREFETCH);
                ck_assert_int_eq(s.host.dir, WL_TO_HOST);
                ck_assert_uint_eq(s.host.offset, 0);
                ck_assert_uint_eq(s.host.bytes, sizes[s.host.alloc]);
                ck_assert_uint_lt(reads, 4);
                read[reads++] = s.host.alloc;
            }
            ck_assert_uint_eq(kernels, 2);
            ck_assert_uint_eq(reads, on ? 2 : 0);
            if (on) { ck_assert_uint_eq(read[0], 0); ck_assert_uint_eq(read[1], 3); }
            ck_assert(!runtime_next_step(rt, &s, 0, &delay));
            runtime_free(rt);
        }
}
END_TEST

/* host: pinned at the first use (preferred host + accessed-by), nothing
 * at later launches. */
START_TEST(host_pins_once)
{
    cfd_setup(&rt_host_ops, 2);
    ck_assert_uint_eq(launch(0, 1024), 4);      /* V, O: 2 advices each */
    expect_step(0, WL_STEP_ADVISE, V, 0, 4 * MiB, 0, WL_ADV_PREFERRED_HOST, false);
    expect_step(1, WL_STEP_ADVISE, V, 0, 4 * MiB, 0, WL_ADV_ACCESSED_BY_GPU, false);
    ck_assert_uint_eq(launch(1, 1024), 4);      /* N, F new; V pinned */
    ck_assert_uint_eq(launch(0, 1024), 0);
    ck_assert_uint_eq(on_gpu(), 0);
    runtime_free(rt);
}
END_TEST

/* ---- the /runtime rows and runtime.* totals ----
 * partial_split's launch with a registry: rows (seq 7 as the kernel says,
 * object, decision, bytes, trc 1, density): X to_gpu_explicit 2 MiB
 * (density 1), Y partial_gpu_explicit 6 MiB, Y partial_host 4 MiB;
 * totals: 3 decisions, 3 steps, 2 MiB to the GPU, 6 MiB partial. */
static const char *row_str(const struct rec_table *t, size_t i, size_t off)
{ return (const char *)t->rows + i * t->row_bytes + off; }
static uint64_t row_u64(const struct rec_table *t, size_t i, size_t off)
{
    uint64_t v;
    memcpy(&v, t->rows + i * t->row_bytes + off, 8);
    return v;
}

START_TEST(table_rows)
{
    static const char *const names[] = {"X", "Y"};
    static const uint64_t sizes[] = {2 * MiB, 10 * MiB};
    mk_wl(2, names, sizes);
    static struct rt_info ri;
    memset(&ri, 0, sizeof ri);
    ri.nregions = 1;
    ri.site[0] = 10;
    ri.uses[0][0] = ri.uses[0][1] = true;
    ri.rd[0][0] = 1;
    ri.rd[0][1] = 2;
    ri.bytes_iter[0][0] = 2048;
    ri.bytes_iter[0][1] = 10240;
    struct stats *st = stats_new();
    struct rt_params pp = params(&rt_rdm_ops);
    rt = rt_new(&pp, &ri, &wl, 9 * MiB, st);
    struct wl_kernel k = kern(0, 1024);
    k.seq = 7;
    rt_before_kernel(rt, &k);
    const struct rec_table *t = NULL;
    for (size_t i = 0; i < stats_table_count(st); i++)
        if (!strcmp(stats_table_at(st, i)->name, "runtime")) t = stats_table_at(st, i);
    ck_assert_ptr_nonnull(t);
    ck_assert_uint_eq(t->nrows, 3);
    /* seq 0, kernel 8, object 40, decision 72, bytes 104, trc 112, density 120 */
    static const char *const obj[] = {"X", "Y", "Y"};
    static const char *const dec[] = {"to_gpu_explicit", "partial_gpu_explicit", "partial_host"};
    static const uint64_t bytes[] = {2 * MiB, 6 * MiB, 4 * MiB};
    for (size_t i = 0; i < 3; i++) {
        ck_assert_uint_eq(row_u64(t, i, 0), 7);
        ck_assert_str_eq(row_str(t, i, 8), "TR_0");
        ck_assert_str_eq(row_str(t, i, 40), obj[i]);
        ck_assert_str_eq(row_str(t, i, 72), dec[i]);
        ck_assert_uint_eq(row_u64(t, i, 104), bytes[i]);
        ck_assert_uint_eq(row_u64(t, i, 112), 1);
        double dens;
        memcpy(&dens, t->rows + i * t->row_bytes + 120, 8);
        ck_assert(dens == 1.0);
    }
    ck_assert_uint_eq(stats_find(st, "runtime.decisions")->p.u[0], 3);
    ck_assert_uint_eq(stats_find(st, "runtime.steps_emitted")->p.u[0], 3);
    ck_assert_uint_eq(stats_find(st, "runtime.to_gpu_bytes")->p.u[0], 2 * MiB);
    ck_assert_uint_eq(stats_find(st, "runtime.partial_gpu_bytes")->p.u[0], 6 * MiB);
    runtime_free(rt);
    stats_free(st);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("runtime");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, fig3_glm_keeps_v_and_n);
    tcase_add_test(tc, fig3_rdm_keeps_f_in_the_inner_loop);
    tcase_add_test(tc, fig3_rlm_thrashes_n_and_f);
    tcase_add_test(tc, cfd_19gb_rdm_keeps_o_glm_evicts_it);
    tcase_add_test(tc, rdm_three_objects);
    tcase_add_test(tc, rdm_three_objects_partial);
    tcase_add_test(tc, partial_split);
    tcase_add_test(tc, density_threshold);
    tcase_add_test(tc, density_lc);
    tcase_add_test(tc, density_b_iter_bytes);
    tcase_add_test(tc, steps_per_decision);
    tcase_add_test(tc, lru_object_order);
    tcase_add_test(tc, step_source_baseline);
    tcase_add_test(tc, step_source_baseline_hoisted);
    tcase_add_test(tc, step_source_um_pf_and_none);
    tcase_add_test(tc, step_source_read_results);
    tcase_add_test(tc, host_pins_once);
    tcase_add_test(tc, table_rows);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

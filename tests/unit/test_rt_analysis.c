/* The SC19 analyses (sim/runtime/rt_analysis.c) on hand-built launch CFGs:
 * RF, RL, GL (Eq. 1) and its 8-bit form, Listing 2's distances and the
 * target reuse distance, every expected value derived by hand below from
 * the chain's branch and back-edge probabilities. */
#include <check.h>
#include <math.h>
#include <string.h>
#include "runtime/rt_info.h"
#include "suite_main.h"

#define EPS 1e-9

/* A program under construction and the uses of each kernel id. */
struct prog {
    struct wl_pnode node[200];
    struct wl_step step[200];
    struct wl_program p;
    uint32_t stack[32], sp;
    struct wl_use use[80][4];
    size_t nuse[80];
};

static void reset(struct prog *g)
{
    memset(g, 0, sizeof *g);
    g->p.node = g->node;
    g->p.step = g->step;
}

/* Kernel ID using objects A (and B, -1: none) with frequencies FA, FB. */
static void kern(struct prog *g, uint32_t id, int a, double fa, int b, double fb)
{
    struct wl_step *s = &g->step[g->p.nsteps];
    s->kind = WL_STEP_KERNEL;
    snprintf(s->kernel.name, sizeof s->kernel.name, "k%u", id);
    s->kernel.id = id;
    g->node[g->p.n++] = (struct wl_pnode){ .kind = WL_PN_STEP, .step = g->p.nsteps++ };
    if (a >= 0) g->use[id][g->nuse[id]++] = (struct wl_use){ (uint32_t)a, WL_USE_R, fa, 4 * fa };
    if (b >= 0) g->use[id][g->nuse[id]++] = (struct wl_use){ (uint32_t)b, WL_USE_R, fb, 4 * fb };
}

static void host(struct prog *g)
{
    g->step[g->p.nsteps].kind = WL_STEP_PREFETCH;
    g->node[g->p.n++] = (struct wl_pnode){ .kind = WL_PN_STEP, .step = g->p.nsteps++ };
}

static void loop(struct prog *g, enum wl_trip trip, double trips)
{
    g->stack[g->sp++] = g->p.n;
    g->node[g->p.n++] = (struct wl_pnode){ .kind = WL_PN_LOOP, .trip = trip, .trips = trips };
}

static void iff(struct prog *g, double p)
{
    g->stack[g->sp++] = g->p.n;
    g->node[g->p.n++] = (struct wl_pnode){ .kind = WL_PN_IF, .p_then = p };
}

static void els(struct prog *g)
{
    uint32_t op = g->stack[g->sp - 1];
    g->node[op].end = g->p.n;
    g->stack[g->sp - 1] = g->p.n;
    g->node[g->p.n++] = (struct wl_pnode){ .kind = WL_PN_ELSE };
}

static void end(struct prog *g)
{
    uint32_t op = g->stack[--g->sp];
    g->node[op].end = g->p.n;
    g->node[g->p.n++] = (struct wl_pnode){ .kind = WL_PN_END };
}

static size_t uses(void *ctx, const struct wl_kernel *k, struct wl_use *out, size_t max)
{
    struct prog *g = ctx;
    size_t n = g->nuse[k->id] < max ? g->nuse[k->id] : max;
    memcpy(out, g->use[k->id], n * sizeof *out);
    return n;
}

static struct prog G;
static struct rt_info RI;
static char ERR[256];

static bool analyze(uint32_t nobjs, bool exact, bool exit_inf)
{
    struct rt_opts o = { exact, exit_inf };
    return rt_analyze(&RI, &G.p, nobjs, uses, &G, &o, ERR, sizeof ERR);
}

/* K0(A) K1(B) K2(A), straight line: distances are index differences;
 * from K2 the program ends at once, so every distance from it is the 0
 * regions met before the exit (Listing 2's exit quirk) -- or +inf with
 * exit_inf; K0 is never met again from K0: the 2 regions to the exit. */
START_TEST(straight_line)
{
    reset(&G);
    kern(&G, 0, 0, 2, -1, 0);
    kern(&G, 1, 1, 1, -1, 0);
    kern(&G, 2, 0, 3, -1, 0);
    ck_assert(analyze(2, false, false));
    ck_assert_uint_eq(RI.nregions, 3);
    ck_assert_uint_eq(rt_region_of_site(&RI, 2), 2);
    ck_assert_uint_eq(rt_region_of_site(&RI, 7), UINT32_MAX);
    ck_assert_double_eq_tol(RI.dist[0][1], 1, EPS);
    ck_assert_double_eq_tol(RI.dist[0][2], 2, EPS);
    ck_assert_double_eq_tol(RI.dist[1][2], 1, EPS);
    ck_assert_double_eq_tol(RI.dist[0][0], 2, EPS);
    ck_assert_double_eq_tol(RI.dist[2][0], 0, EPS);
    ck_assert_double_eq_tol(RI.rd[0][0], 2, EPS);      /* next use of A: K2 */
    ck_assert_double_eq_tol(RI.rd[0][1], 1, EPS);
    for (int r = 0; r < 3; r++) ck_assert_double_eq_tol(RI.rf[r], 1, EPS);
    ck_assert_double_eq_tol(RI.gl[0], 5, EPS);         /* 1 x 2 + 1 x 3 */
    ck_assert_double_eq_tol(RI.gl[1], 1, EPS);
    ck_assert_uint_eq(RI.gl8[0], 255);
    ck_assert_uint_eq(RI.gl8[1], 51);                  /* 255 / 5 */
    ck_assert(RI.uses[0][0] && !RI.uses[0][1] && RI.uses[1][1]);
    ck_assert_double_eq_tol(RI.bytes_iter[2][0], 12, EPS);
    ck_assert(analyze(2, false, true));
    ck_assert(isinf(RI.dist[2][0]) && isinf(RI.dist[0][0]));
    ck_assert_double_eq_tol(RI.dist[0][2], 2, EPS);
}
END_TEST

/* host step; loop (const 4) { K0(A); K1(B) }: back edge p = 3/4.
 *   K0 -> K1: 1.
 *   K1 -> K0: back (3/4) then K0: 1; exit (1/4): 0      => 3/4
 *   K0 -> K0: K1 (1), then back (3/4) K0 (+1); exit     => 1 + 3/4
 *   K1 -> K1: back (3/4): K0 K1 = 2; exit: 0            => 3/2
 * conditioned on reaching (exit_inf): K1 -> K0 = 1, K0 -> K0 = 2.
 * RF = 4 each; host steps count nothing. */
START_TEST(one_loop)
{
    reset(&G);
    host(&G);
    loop(&G, WL_TRIP_CONST, 4);
    kern(&G, 0, 0, 1, -1, 0);
    kern(&G, 1, 1, 1, -1, 0);
    end(&G);
    ck_assert(analyze(2, false, false));
    ck_assert_uint_eq(RI.nregions, 2);
    ck_assert_uint_eq(RI.site[0], 2);
    ck_assert_double_eq_tol(RI.rf[0], 4, EPS);
    ck_assert_double_eq_tol(RI.dist[0][1], 1, EPS);
    ck_assert_double_eq_tol(RI.dist[1][0], 0.75, EPS);
    ck_assert_double_eq_tol(RI.dist[0][0], 1.75, EPS);
    ck_assert_double_eq_tol(RI.dist[1][1], 1.5, EPS);
    ck_assert_double_eq_tol(RI.rd[1][0], 0.75, EPS);
    ck_assert(analyze(2, false, true));
    ck_assert_double_eq_tol(RI.dist[1][0], 1, EPS);
    ck_assert_double_eq_tol(RI.dist[0][0], 2, EPS);
}
END_TEST

/* The paper's Fig. 3 (cfd): outer loop (data-dependent) { TR_0: copy,
 * O <- V; inner loop, RK = 3 (constant) { TR_1: flux (V, N, F); TR_2:
 * time step (O, V, F) } }, objects V 0, N 1, F 2, O 3.
 *   RD of O at TR_0 = dist(TR_0, TR_2) = 2 (the text's 2: TR_1, TR_2).
 *   RD of F at TR_2 = dist(TR_2, TR_1): back edge 2/3 -> 1; else the
 *   outer back edge 31/32 -> TR_0, TR_1 = 2, or the exit, 0:
 *   2/3 + 1/3 x 31/32 x 2 = 1.3125 (the text's 1 is the in-loop value).
 *   RF: TR_0 32 (LLVM's heuristic), TR_1, TR_2 96.
 *   dist(TR_2, TR_0) = 2/3 x (1 + d) ... : from TR_2's end the inner
 *   loop returns to TR_1 (2/3), TR_1 then TR_2, and so on; with x =
 *   dist(TR_2, TR_0): x = 2/3 (2 + x) + 1/3 (31/32 x 1 + 1/32 x 0)
 *   => x / 3 = 4/3 + 31/96 => x = 4 + 31/32 = 4.96875. */
START_TEST(fig3_cfd)
{
    reset(&G);
    loop(&G, WL_TRIP_DATA, 7);
    kern(&G, 0, 3, 1, 0, 1);
    loop(&G, WL_TRIP_CONST, 3);
    kern(&G, 1, 0, 1, 1, 1);
    G.use[1][G.nuse[1]++] = (struct wl_use){ 2, WL_USE_W, 1, 8 };
    kern(&G, 2, 3, 1, 0, 1);
    G.use[2][G.nuse[2]++] = (struct wl_use){ 2, WL_USE_R, 1, 8 };
    end(&G);
    end(&G);
    ck_assert(analyze(4, false, false));
    ck_assert_double_eq_tol(RI.rd[0][3], 2, EPS);
    ck_assert_double_eq_tol(RI.rd[2][2], 1.3125, EPS);
    ck_assert_double_eq_tol(RI.dist[2][0], 4.96875, 1e-7);
    ck_assert_double_eq_tol(RI.rf[0], 32, EPS);
    ck_assert_double_eq_tol(RI.rf[1], 96, EPS);
    ck_assert_uint_eq(RI.mode[1][2], WL_USE_W);
    /* GL, Eq. 1: V = 32 + 96 + 96, F = 96 + 96, O = 32 + 96, N = 96 */
    ck_assert_double_eq_tol(RI.gl[0], 224, EPS);
    ck_assert_double_eq_tol(RI.gl[2], 192, EPS);
    ck_assert_double_eq_tol(RI.gl[3], 128, EPS);
    ck_assert_double_eq_tol(RI.gl[1], 96, EPS);
    ck_assert(RI.gl8[0] > RI.gl8[2] && RI.gl8[2] > RI.gl8[3] && RI.gl8[3] > RI.gl8[1]);
    /* exact trips: the outer loop's own 7 */
    ck_assert(analyze(4, true, false));
    ck_assert_double_eq_tol(RI.rf[0], 7, EPS);
    ck_assert_double_eq_tol(RI.rf[2], 21, EPS);
    /* x = 2/3 (2 + x) + 1/3 x 6/7 x 1 => x = 4 + 6/7 */
    ck_assert_double_eq_tol(RI.dist[2][0], 4 + 6.0 / 7, 1e-7);
}
END_TEST

/* K0(A); if (1/2) { K1(B) } else { K2(A) }; K3(B)
 *   K0 -> K3: 2 either way.  K0 -> K1: 1/2 x 1 + 1/2 x 2 (K2, K3, exit)
 *   = 3/2; K0 -> K2 likewise 3/2, conditioned on reaching it 1.
 *   RF: 1, 1/2, 1/2, 1.  GL: A = 1 x 2 + 1/2 x 4 = 4, B = 1/2 x 1 + 1 x 3
 *   = 3.5, gl8(B) = ceil(255 x 3.5 / 4) = 224. */
START_TEST(if_else)
{
    reset(&G);
    kern(&G, 0, 0, 2, -1, 0);
    iff(&G, 0.5);
    kern(&G, 1, 1, 1, -1, 0);
    els(&G);
    kern(&G, 2, 0, 4, -1, 0);
    end(&G);
    kern(&G, 3, 1, 3, -1, 0);
    ck_assert(analyze(2, false, false));
    ck_assert_double_eq_tol(RI.dist[0][3], 2, EPS);
    ck_assert_double_eq_tol(RI.dist[0][1], 1.5, EPS);
    ck_assert_double_eq_tol(RI.dist[0][2], 1.5, EPS);
    ck_assert_double_eq_tol(RI.rf[1], 0.5, EPS);
    ck_assert_double_eq_tol(RI.rf[2], 0.5, EPS);
    ck_assert_double_eq_tol(RI.rf[3], 1, EPS);
    ck_assert_double_eq_tol(RI.gl[0], 4, EPS);
    ck_assert_double_eq_tol(RI.gl[1], 3.5, EPS);
    ck_assert_uint_eq(RI.gl8[1], 224);
    ck_assert_double_eq_tol(RI.rd[0][0], 1.5, EPS);
    ck_assert(analyze(2, false, true));
    ck_assert_double_eq_tol(RI.dist[0][2], 1, EPS);
}
END_TEST

/* A loop that runs 0 times is skipped; an object no region uses has RD
 * +inf. */
START_TEST(skipped_loop_and_unused)
{
    reset(&G);
    kern(&G, 0, 0, 1, -1, 0);
    loop(&G, WL_TRIP_CONST, 0);
    kern(&G, 1, 0, 1, -1, 0);
    end(&G);
    kern(&G, 2, 0, 1, -1, 0);
    ck_assert(analyze(3, false, false));
    ck_assert_double_eq_tol(RI.rf[1], 0, EPS);
    ck_assert_double_eq_tol(RI.dist[0][2], 1, EPS);     /* K1 never runs */
    ck_assert(isinf(RI.rd[0][2]));
}
END_TEST

START_TEST(errors)
{
    reset(&G);
    loop(&G, WL_TRIP_CONST, 2);
    kern(&G, 0, 0, 1, -1, 0);
    ck_assert(!analyze(1, false, false));               /* left open */
    ck_assert(strstr(ERR, "open"));
    reset(&G);
    loop(&G, WL_TRIP_CONST, 2);
    kern(&G, 0, 0, 1, -1, 0);
    end(&G);
    G.node[0].end = 1;                                  /* wrong END index */
    ck_assert(!analyze(1, false, false));
    reset(&G);
    G.node[G.p.n++] = (struct wl_pnode){ .kind = WL_PN_END };
    ck_assert(!analyze(1, false, false));
    reset(&G);
    for (uint32_t i = 0; i <= RT_MAX_REGIONS; i++) kern(&G, i % 80, 0, 1, -1, 0);
    ck_assert(!analyze(1, false, false));
    ck_assert(strstr(ERR, "kernel launches"));
    reset(&G);
    kern(&G, 0, 5, 1, -1, 0);                           /* object 5 of 2 */
    ck_assert(!analyze(2, false, false));
}
END_TEST

static Suite *rt_analysis_suite(void)
{
    Suite *s = suite_create("rt_analysis");
    TCase *t = tcase_create("analyses");
    tcase_add_test(t, straight_line);
    tcase_add_test(t, one_loop);
    tcase_add_test(t, fig3_cfd);
    tcase_add_test(t, if_else);
    tcase_add_test(t, skipped_loop_and_unused);
    tcase_add_test(t, errors);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(rt_analysis_suite());
}

/* A generator's host program (workloads/prog.c): nested loops, branches,
 * the kernel's arg and site, and the bracketed wl_program the SC19
 * analyses read.  Each expected sequence is written out by hand from the
 * program's structure. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "workloads/gen.h"
#include "runtime/rt_info.h"
#include "suite_main.h"

static struct wl_prog *P;

static void setup(void) { P = calloc(1, sizeof *P); }
static void teardown(void) { free(P); }

static void k(const char *name, uint32_t id)
{
    wl_prog_kernel(P, name, id, (struct dim3){ 1, 1, 1 }, (struct dim3){ 32, 1, 1 }, 8, 0);
}

/* "name:arg:site" of every step the walk hands out, host steps as "h". */
static void walk(char *buf, size_t len)
{
    struct wl_step st;
    buf[0] = 0;
    while (wl_prog_next(P, &st)) {
        char one[64];
        if (st.kind == WL_STEP_KERNEL)
            snprintf(one, sizeof one, "%s:%llu:%u ", st.kernel.name,
                     (unsigned long long)st.kernel.arg, st.kernel.site);
        else
            snprintf(one, sizeof one, "h ");
        strncat(buf, one, len - strlen(buf) - 1);
    }
}

static size_t no_uses(void *ctx, const struct wl_kernel *kk, struct wl_use *out, size_t max)
{
    (void)ctx; (void)kk; (void)out; (void)max;
    return 0;
}

static bool odd_visits(const void *impl, uint64_t visit) { (void)impl; return visit % 2 == 1; }

/* init; loop 2 { copy; loop 3 { flux; ts } }; fin -- cfd's shape.
 * Nodes: 0 init, 1 LOOP, 2 copy, 3 LOOP, 4 flux, 5 ts, 6 END, 7 END, 8 fin.
 * args: copy the outer iteration, flux/ts the inner one. */
START_TEST(nested_loops)
{
    k("init", 0);
    wl_prog_loop_begin(P, WL_TRIP_DATA, 2);
    k("copy", 1);
    wl_prog_loop_begin(P, WL_TRIP_CONST, 3);
    k("flux", 2);
    k("ts", 3);
    wl_prog_end(P);
    wl_prog_end(P);
    k("fin", 4);
    char got[1024];
    walk(got, sizeof got);
    ck_assert_str_eq(got,
        "init:0:0 "
        "copy:0:2 flux:0:4 ts:0:5 flux:1:4 ts:1:5 flux:2:4 ts:2:5 "
        "copy:1:2 flux:0:4 ts:0:5 flux:1:4 ts:1:5 flux:2:4 ts:2:5 "
        "fin:0:8 ");
    const struct wl_program *g = wl_prog_program(P);
    ck_assert_uint_eq(g->n, 9);
    ck_assert_uint_eq(g->nsteps, 5);
    ck_assert_int_eq(g->node[1].kind, WL_PN_LOOP);
    ck_assert_uint_eq(g->node[1].end, 7);
    ck_assert_uint_eq(g->node[3].end, 6);
    ck_assert_int_eq(g->node[3].trip, WL_TRIP_CONST);
    ck_assert_double_eq(g->node[3].trips, 3);
    ck_assert_int_eq(g->node[6].kind, WL_PN_END);
    ck_assert_uint_eq(g->node[4].step, 2);
    ck_assert_str_eq(g->step[g->node[8].step].kernel.name, "fin");
}
END_TEST

/* loop 4 { if (odd visit) { a } else { b; host } ; c }: visits 0..3 ->
 * b, a, b, a.  Nodes: 0 LOOP, 1 IF, 2 a, 3 ELSE, 4 b, 5 host, 6 END,
 * 7 c, 8 END; the IF points at its ELSE, the ELSE at the END. */
START_TEST(if_else_in_a_loop)
{
    wl_prog_loop_begin(P, WL_TRIP_DATA, 4);
    wl_prog_if(P, 0.5, odd_visits, NULL);
    k("a", 0);
    wl_prog_else(P);
    k("b", 1);
    wl_prog_host(P, WL_STEP_PREFETCH, 0, 0, 4096, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_end(P);
    k("c", 2);
    wl_prog_end(P);
    char got[1024];
    walk(got, sizeof got);
    ck_assert_str_eq(got, "b:0:4 h c:0:7 a:1:2 c:1:7 b:2:4 h c:2:7 a:3:2 c:3:7 ");
    const struct wl_program *g = wl_prog_program(P);
    ck_assert_uint_eq(g->node[1].end, 3);
    ck_assert_uint_eq(g->node[3].end, 6);
    ck_assert_uint_eq(g->node[0].end, 8);
    ck_assert_double_eq(g->node[1].p_then, 0.5);
}
END_TEST

/* A loop of 0 trips is skipped whole; an empty program ends at once. */
START_TEST(zero_trips)
{
    char got[256];
    walk(got, sizeof got);
    ck_assert_str_eq(got, "");
    k("a", 0);
    wl_prog_loop_begin(P, WL_TRIP_CONST, 0);
    k("never", 1);
    wl_prog_end(P);
    k("b", 2);
    walk(got, sizeof got);
    ck_assert_str_eq(got, "a:0:0 b:0:4 ");
}
END_TEST

/* The single-loop API: steps [1, 3) wrapped after the fact, as bfs builds
 * its program (copy in; loop { K1; K2 }; copy out): the LOOP goes in
 * before step 1's node and every site after it moves up by one. */
START_TEST(single_loop_api)
{
    wl_prog_host(P, WL_STEP_MEMCPY, 0, 0, 64, WL_TO_GPU, WL_ADV_NONE);
    uint32_t body = P->n;
    k("K1", 0);
    k("K2", 1);
    wl_prog_loop(P, body, 2);
    wl_prog_host(P, WL_STEP_MEMCPY, 0, 0, 64, WL_TO_HOST, WL_ADV_NONE);
    char got[256];
    walk(got, sizeof got);
    ck_assert_str_eq(got, "h K1:0:2 K2:0:3 K1:1:2 K2:1:3 h ");
    const struct wl_program *g = wl_prog_program(P);
    ck_assert_uint_eq(g->n, 6);
    ck_assert_int_eq(g->node[1].kind, WL_PN_LOOP);
    ck_assert_int_eq(g->node[1].trip, WL_TRIP_DATA);
    ck_assert_uint_eq(g->node[1].end, 4);
    ck_assert_uint_eq(g->step[g->node[2].step].kernel.site, 2);
    /* The analyses accept it: two regions, RF 32 each (LLVM's heuristic
     * for a data-dependent loop), the exact mode's 2. */
    struct rt_info *ri = calloc(1, sizeof *ri);
    struct rt_opts o = { false, false };
    char err[128];
    ck_assert(rt_analyze(ri, g, 1, no_uses, NULL, &o, err, sizeof err));
    ck_assert_uint_eq(ri->nregions, 2);
    ck_assert_uint_eq(ri->site[1], 3);
    ck_assert_double_eq_tol(ri->rf[0], 32, 1e-9);
    o.exact_trips = true;
    ck_assert(rt_analyze(ri, g, 1, no_uses, NULL, &o, err, sizeof err));
    ck_assert_double_eq_tol(ri->rf[1], 2, 1e-9);
    free(ri);
}
END_TEST

static Suite *wl_prog_suite(void)
{
    Suite *s = suite_create("wl_prog");
    TCase *t = tcase_create("prog");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, nested_loops);
    tcase_add_test(t, if_else_in_a_loop);
    tcase_add_test(t, zero_trips);
    tcase_add_test(t, single_loop_api);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(wl_prog_suite());
}

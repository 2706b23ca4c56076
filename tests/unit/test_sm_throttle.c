/* SM throttling's count and hand-off (sim/sm/throttle.c) on a two-SM GPU
 * built without a workload.  The rule: more SMs throttled are taken from
 * the highest-numbered running ones; a running SM with no block hands its
 * turn to a throttled SM that holds blocks, so a kernel never waits on
 * blocks that sit on switched-off SMs. */
#include <check.h>
#include "suite_main.h"
#include "config/config.h"
#include "core/stats.h"
#include "sm/sm_internal.h"

struct rig {
    struct config *c;
    struct engine *e;
    struct stats *st;
    struct req_pool pool;
    struct domain core;
    struct gpu *g;
};

static void rig_init(struct rig *r)
{
    const char *sets[] = { "gpu.sms=2" };
    struct cfg_error err;
    r->c = config_load(NULL, sets, 1, &err);
    ck_assert_msg(r->c != NULL, "%s", err.msg);
    struct engine_limits lim = { 0, 0, 0 };
    r->e = engine_new(&lim);
    r->st = stats_new();
    req_pool_init(&r->pool);
    r->core = (struct domain){ "core", 1000, 0 };
    r->g = gpu_create(r->e, r->c, r->st, &r->pool, &r->core, NULL);
}

static void rig_free(struct rig *r)
{
    gpu_free(r->g);
    req_pool_free(&r->pool);
    stats_free(r->st);
    engine_free(r->e);
    config_free(r->c);
}

/* A kernel's tail: SM 0 is dry, SM 1 holds the last block, nothing left
 * to dispatch.  Throttling to one SM switches off SM 1 (the highest
 * running); SM 0 has nothing to run, so it hands its turn over at once:
 * SM 1 runs, SM 0 is off, one SM running as the count says.  Before the
 * hand-off at the count change this left the block on an off SM with no
 * retirement to trigger the hand-off: a deadlock. */
START_TEST(count_change_at_a_kernels_tail_hands_over)
{
    struct rig r;
    rig_init(&r);
    struct gpu *g = r.g;
    g->kernel_active = true;
    g->next_block = g->nblocks = 1;
    g->sm[1].res_blocks = 1;
    gpu_set_active_sms(g, 1, 0);
    ck_assert(!g->sm[1].throttled);
    ck_assert(g->sm[0].throttled);
    /* Both holding blocks: the plain rule, SM 1 switched off. */
    gpu_set_active_sms(g, 2, 0);
    ck_assert(!g->sm[0].throttled && !g->sm[1].throttled);
    g->sm[0].res_blocks = 1;
    gpu_set_active_sms(g, 1, 0);
    ck_assert(!g->sm[0].throttled);
    ck_assert(g->sm[1].throttled);
    g->sm[0].res_blocks = g->sm[1].res_blocks = 0;
    g->kernel_active = false;
    rig_free(&r);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("sm_throttle");
    TCase *t = tcase_create("throttle");
    tcase_add_test(t, count_change_at_a_kernels_tail_hands_over);
    suite_add_tcase(su, t);
    return run_suite(su);
}

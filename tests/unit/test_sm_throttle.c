/* SM throttling's count and hand-off (sim/sm/throttle.c) on a two-SM GPU
 * built without a workload.  The rule: more SMs throttled are taken from
 * the highest-numbered running ones; a running SM with no block hands its
 * turn to a throttled SM that holds blocks, so a kernel never waits on
 * blocks that sit on switched-off SMs. */
#include <check.h>
#include "suite_main.h"
#include "gpu_rig.h"

/* A kernel's tail: SM 0 is dry, SM 1 holds the last block, nothing left
 * to dispatch.  Throttling to one SM switches off SM 1 (the highest
 * running); SM 0 has nothing to run, so it hands its turn over at once:
 * SM 1 runs, SM 0 is off, one SM running as the count says.  Before the
 * hand-off at the count change this left the block on an off SM with no
 * retirement to trigger the hand-off: a deadlock. */
START_TEST(count_change_at_a_kernels_tail_hands_over)
{
    static const char *const sets[] = { "gpu.sms=2" };
    struct gpu_rig r;
    gpu_rig_init(&r, sets, 1, 1000);
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
    gpu_rig_free(&r);
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

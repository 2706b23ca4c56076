/* The GPU's cores built alone, without the rest of the system (sim/sm
 * internals): L1D maintenance and the shootdown issue block. */
#include <check.h>
#include "suite_main.h"
#include "sm/sm_internal.h"
#include "config/config.h"
#include "core/stats.h"
#include "workloads/workload.h"

/* Two SMs hold lines of frame 0x5000 and of its neighbour 0x6000; evicting
 * the page in frame 0x5000 drops its lines on every SM and nothing else. */
START_TEST(invalidate_frame_drops_the_page_everywhere)
{
    static const char *const sets[] = { "gpu.sms=2" };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, 1, &err);
    ck_assert_ptr_nonnull(c);
    struct engine_limits lim = { 0, 0, 0 };
    struct engine *e = engine_new(&lim);
    struct stats *st = stats_new();
    struct req_pool pool;
    req_pool_init(&pool);
    struct domain core = { "core", 714, 0 };
    struct gpu *g = gpu_create(e, c, st, &pool, &core, NULL);
    struct cache_victim v;
    bool tag;
    for (int s = 0; s < 2; s++) {
        cache_fill(&g->sm[s].l1, 0x5000, 0xf, false, &v);
        cache_fill(&g->sm[s].l1, 0x5f80, 0x1, false, &v);
        cache_fill(&g->sm[s].l1, 0x6000, 0xf, false, &v);
    }
    gpu_invalidate_frame(g, 0x5abc);
    for (int s = 0; s < 2; s++) {
        ck_assert_uint_eq(cache_probe(&g->sm[s].l1, 0x5000, 0xf, &tag), 0xf);
        ck_assert(!tag);
        ck_assert_uint_eq(cache_probe(&g->sm[s].l1, 0x5f80, 0x1, &tag), 0x1);
        ck_assert_uint_eq(cache_probe(&g->sm[s].l1, 0x6000, 0xf, &tag), 0);
    }
    gpu_free(g);
    req_pool_free(&pool);
    stats_free(st);
    engine_free(e);
    config_free(c);
}
END_TEST

/* One warp of 100 one-cycle compute instructions on one SM whose issue is
 * blocked for the first 1 us (a TLB shootdown): the first instruction
 * issues at 1 us, the exit 100 cycles later; the blocked cycles are
 * charged to the shootdown. */
START_TEST(block_issue_delays_the_sm)
{
    static const char *const sets[] = { "gpu.sms=1", "workload.kind=compute",
                                        "workload.compute.grid=1", "workload.compute.block=32",
                                        "workload.compute.insts=100" };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, 5, &err);
    ck_assert_ptr_nonnull(c);
    struct engine_limits lim = { 0, 0, 0 };
    struct engine *e = engine_new(&lim);
    struct stats *st = stats_new();
    struct req_pool pool;
    req_pool_init(&pool);
    struct domain core = { "core", 1000, 0 };       /* 1 GHz: 1 us = 1000 cycles */
    struct workload *wl = workload_create(c);
    struct gpu *g = gpu_create(e, c, st, &pool, &core, wl);
    gpu_block_issue(g, 0, 1000000);
    gpu_start(g, 0);
    engine_run(e);
    ck_assert(!gpu_busy(g));
    ck_assert_uint_eq(engine_end_time(e), 1000000 + 100 * 1000);
    ck_assert_uint_eq(*stats_find(st, "sm.stall.shootdown")->p.u, 1000);
    ck_assert_uint_eq(*stats_find(st, "sm.issue_cycles")->p.u, 101);
    gpu_free(g);
    workload_free(wl);
    req_pool_free(&pool);
    stats_free(st);
    engine_free(e);
    config_free(c);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("sm_direct");
    TCase *t = tcase_create("direct");
    tcase_add_test(t, invalidate_frame_drops_the_page_everywhere);
    tcase_add_test(t, block_issue_delays_the_sm);
    suite_add_tcase(su, t);
    return run_suite(su);
}

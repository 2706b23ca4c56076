/* L1D maintenance on a GPU built without a workload (sim/sm internals). */
#include <check.h>
#include "suite_main.h"
#include "sm/sm_internal.h"
#include "config.h"
#include "stats.h"

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

int main(void)
{
    Suite *su = suite_create("sm_l1d");
    TCase *t = tcase_create("l1d");
    tcase_add_test(t, invalidate_frame_drops_the_page_everywhere);
    suite_add_tcase(su, t);
    return run_suite(su);
}

/* A GPU built alone, without a workload or the rest of the system: the
 * config (from -s style settings), an engine, statistics, the request
 * pool and the core clock, for tests that drive sim/sm internals by
 * hand (test_sm_fast, test_sm_throttle). */
#ifndef TESTS_GPU_RIG_H
#define TESTS_GPU_RIG_H
#include <check.h>
#include "config/config.h"
#include "core/stats.h"
#include "sm/sm_internal.h"

struct gpu_rig {
    struct config *c;
    struct engine *e;
    struct stats *st;
    struct req_pool pool;
    struct domain core;
    struct gpu *g;
};

/* PERIOD: the core clock's period in ps. */
static inline void gpu_rig_init(struct gpu_rig *r, const char *const *sets, size_t n,
                                sim_time period)
{
    struct cfg_error err;
    r->c = config_load(NULL, sets, n, &err);
    ck_assert_msg(r->c != NULL, "%s", err.msg);
    struct engine_limits lim = { 0, 0, 0 };
    r->e = engine_new(&lim);
    r->st = stats_new();
    req_pool_init(&r->pool);
    r->core = (struct domain){ "core", period, 0 };
    r->g = gpu_create(r->e, r->c, r->st, &r->pool, &r->core, NULL);
}

static inline void gpu_rig_free(struct gpu_rig *r)
{
    gpu_free(r->g);
    req_pool_free(&r->pool);
    stats_free(r->st);
    engine_free(r->e);
    config_free(r->c);
}
#endif

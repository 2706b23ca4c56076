/* The dynamic-migration policy table and keys (thesis Ch. V): adding a
 * policy is one file and one line here (driver.migration's choices are
 * "none" and these names). */
#include <string.h>
#include "migrate.h"
#include "config/config.h"

const struct cfg_key migration_config_keys[] = {
    {"driver.migration", CFG_ENUM, "none", 0, -1, NULL /* "none", then policies[] */,
     "dynamic migration of host-homed pages to GPU memory while the kernels run (thesis Ch. V; "
     "needs a static driver.placement, host for the thesis' start): none (CC-only: pages stay "
     "where placed), threshold (a page becomes a candidate at its driver.migrate.threshold-th "
     "touch, Sec. 5.2.2; range expansion and bandwidth balancing are driver.migrate.*), memcpy "
     "(the legacy baseline: every host-homed page copied to GPU memory before the first kernel)"},
    {"driver.migrate.threshold", CFG_INT, "1", 1, 255, NULL,
     "threshold-N: touches that make a page a candidate (thesis Sec. 5.2.2; 1 = first touch, "
     "the thesis' recommendation; Fig. 5.2 sweeps 1-128)"},
    {"driver.migrate.touch", CFG_ENUM, "memory", 0, -1, "memory|walk",
     "what a touch is: memory (a request for the page the L2 sends to host memory: the counters "
     "\"at the L2, memory controller\" of Sec. 5.2.2, spec C.2.6 item 1) or walk (a GPU TLB miss "
     "that walks the page: the ring buffer's hint, Sec. 5.2.1)"},
    {"driver.migrate.concurrency", CFG_INT, "4", 1, 1024, NULL,
     "page migrations in flight at once (thesis Sec. 5.2.1: \"no more than 4 concurrent page "
     "migrations\", Linux move_pages)"},
    {"driver.migrate.ring", CFG_INT, "1024", 1, 1 << 24, NULL,
     "entries of the GPU's ring buffer of candidate pages the runtime polls (thesis Sec. 5.2.1; "
     "size not given); a full ring drops a hint, the page's next touch writes it again"},
    {"driver.migrate.poll", CFG_TIME, "0ns", 0, 1e12, NULL,
     "how long a hint waits for the runtime's poll (0: taken at once; the thesis models no "
     "software latency beyond the traffic and the shootdown, spec C.2.6 item 3)"},
    {"driver.migrate.expand", CFG_INT, "0", 0, 4096, NULL,
     "range expansion: pages of the trigger's allocation around it queued with it, furthest "
     "first, half above and half below (thesis Sec. 5.3: 0, 16, 64, 128)"},
    {"driver.migrate.window", CFG_INT, "10000", 1, 1e12, NULL,
     "GPU core cycles per bandwidth window (thesis Sec. 5.4: 10,000): bandwidth balancing's "
     "sample and a row of the migration_windows table"},
    {"driver.migrate.bwb.enabled", CFG_BOOL, "false", 0, -1, NULL,
     "bandwidth balancing (thesis Sec. 5.4): full rate below target - band, half within the "
     "band, migrations suspended above the target (the queue is kept)"},
    {"driver.migrate.bwb.target", CFG_FLOAT, "-1", -1, 100, NULL,
     "GDDR's target share of the traffic, percent (-1: b_GDDR / (b_GDDR + b_DDR) from the "
     "memories' peak bandwidths, 71.4 for 200 + 80 GB/s)"},
    {"driver.migrate.bwb.band", CFG_FLOAT, "5", 0, 100, NULL,
     "width of the half-rate band below the target, percentage points (thesis: \"within 5%\")"},
    {"driver.migrate.bwb.half", CFG_ENUM, "concurrency", 0, -1, "concurrency|windows",
     "half rate: half the concurrent migrations (at least one), or full rate in every other "
     "window (spec C.2.6 item 8)"},
    {"driver.migrate.bwb.traffic", CFG_ENUM, "demand", 0, -1, "demand|all",
     "what the shares count: demand traffic (each memory's bytes less the migrations') or all "
     "of it (spec C.2.6 item 8)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static const struct migr_ops *const policies[] = {
    &migr_threshold_ops,
    &migr_memcpy_ops,
    NULL,
};

const struct migr_ops *migr_find(const char *name)
{
    for (size_t i = 0; policies[i]; i++)
        if (!strcmp(policies[i]->name, name)) return policies[i];
    return NULL;
}

/* driver.migration's registry (config_registries), after "none". */
const char *migr_policy_name(size_t i)
{
    return policies[i] ? policies[i]->name : NULL;
}

/* Named at `key`, with where `other` came from. */
static bool bad(const struct config *c, struct cfg_error *err, const char *key, const char *other,
                const char *why)
{
    const char *keys[] = { key, other, NULL };
    return cfg_fail_keys(c, err, keys, "%s", why);
}

bool migration_config_check(const struct config *c, struct cfg_error *err)
{
    bool threshold = cfg_is(c, "driver.migration", "threshold");
    if (!threshold && cfg_u64(c, "driver.migrate.expand"))
        return bad(c, err, "driver.migrate.expand", "driver.migration", "range expansion adds pages to threshold's "
                   "triggers: needs driver.migration threshold");
    if (!threshold && cfg_bool(c, "driver.migrate.bwb.enabled"))
        return bad(c, err, "driver.migrate.bwb.enabled", "driver.migration", "bandwidth balancing throttles "
                   "threshold's migrations: needs driver.migration threshold");
    double t = cfg_f64(c, "driver.migrate.bwb.target");
    if (t < 0 && t != -1)
        return bad(c, err, "driver.migrate.bwb.target", NULL, "expected a percentage in [0, 100], or -1 "
                   "for the share of the memories' peak bandwidths");
    if (cfg_is(c, "driver.migration", "none")) return true;
    /* Pages start homed in host memory, reached remotely (Sec. 5.2). */
    if (cfg_is(c, "driver.placement", "fault"))
        return bad(c, err, "driver.migration", "driver.placement", "migration moves host-homed pages reached "
                   "remotely: needs a static driver.placement (host: every page starts in host "
                   "memory, thesis Ch. V), not fault");
    return true;
}

/* The lookup is here, not in the engine, so that the engine never calls up
 * into the table of the policies that call it. */
struct migr *migr_create(const struct migr_host *h, const struct config *cfg, struct stats *st)
{
    const struct migr_ops *ops = migr_find(cfg_str(cfg, "driver.migration"));
    return ops ? migr_engine_create(h, ops, cfg, st) : NULL;
}

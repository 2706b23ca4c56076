/* The placement policy table and keys: adding a policy is one file and
 * one line here (driver.placement's choices are "fault" and these names). */
#include <string.h>
#include "driver/driver.h"
#include "placement.h"
#include "config/config.h"

const struct cfg_key placement_config_keys[] = {
    {"driver.placement", CFG_ENUM, "fault", 0, -1, NULL /* "fault", then policies[] */,
     "where pages live: fault (unified memory: first touch faults and migrates), or placed over "
     "GPU and host memory before the first kernel at no cost, no faults, no copies (thesis Ch. IV): "
     "local (0C-100B, GPU until full), interleave (50C-50B page round robin), bw-aware (xC-yB random "
     "draw, Sec. 4.2.2.2), annotated (per-allocation hints and GetAllocation, Sec. 4.4.2-4.4.3), "
     "oracle (hottest pages of a profile in GPU memory, Sec. 4.3.2), host (every page in host memory: "
     "the CC-only baseline of Ch. V, where driver.migration starts); host-homed pages are reached "
     "over the link"},
    {"driver.place.co_percent", CFG_FLOAT, "-1", -1, 100, NULL,
     "x of xC-yB: percent of pages meant for host memory (bw-aware, annotated's BW hint, the "
     "oracle's target share 100 - x); -1: from the memories' peak bandwidths, 100 b_C / (b_B + b_C) "
     "(thesis Sec. 4.2.1: 28.6 for 200 + 80 GB/s, which it rounds to 30C-70B)"},
    {"driver.place.profile", CFG_STRING, "", 0, -1, NULL,
     "profile from `uvmsim profile` (thesis Sec. 4.3.2/4.4.1): per-page DRAM accesses for "
     "oracle, per-allocation references as annotated's hotness; empty: none"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static const struct place_ops *const policies[] = {
    &place_local_ops,
    &place_interleave_ops,
    &place_bwaware_ops,
    &place_annotated_ops,
    &place_oracle_ops,
    &place_host_ops,
    NULL,
};

const struct place_ops *place_find(const char *name)
{
    for (size_t i = 0; policies[i]; i++)
        if (!strcmp(policies[i]->name, name)) return policies[i];
    return NULL;
}

/* driver.placement's registry (config_registries), after "fault". */
const char *place_policy_name(size_t i)
{
    return policies[i] ? policies[i]->name : NULL;
}

static bool bad(const struct config *c, struct cfg_error *err, const char *key, const char *why)
{
    const char *keys[] = {key, NULL};
    return cfg_fail_keys(c, err, keys, "%s", why);
}

bool placement_config_check(const struct config *c, struct cfg_error *err)
{
    double x = cfg_f64(c, "driver.place.co_percent");
    if (x < 0 && x != -1)
        return bad(c, err, "driver.place.co_percent",
                   "expected a percentage in [0, 100], or -1 for the bandwidth-derived split");
    if (cfg_is(c, "driver.placement", "fault")) return true;
    /* The thesis places 4 KB pages throughout (Table 3.1). */
    if (!cfg_is(c, "driver.page_size", "4KiB"))
        return bad(c, err, "driver.placement", "static placement places 4 KiB pages: needs "
                   "driver.page_size 4KiB");
    if (cfg_is(c, "driver.evict_unit", "chunk"))
        return bad(c, err, "driver.placement", "static placement needs driver.evict_unit page, "
                   "not chunk");
    if (cfg_is(c, "driver.placement", "oracle") && !cfg_str(c, "driver.place.profile")[0])
        return bad(c, err, "driver.placement", "oracle needs a profile of the same workload "
                   "(driver.place.profile, written by `uvmsim profile`)");
    return true;
}

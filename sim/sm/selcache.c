/* Selective caching at the SM (thesis Ch. VI, Sec. 6.2): which line
 * requests a GPU cache may keep.
 *
 * gpu.caching.remote says what becomes of lines of host-homed pages:
 *   all   the HW CC baseline: cached like any, coherent at no cost (the
 *         per-level gpu.l1d.remote_cache and l2.remote_cache still apply);
 *   none  naive selective caching (Sec. 6.2.1, principle 2): the GPU never
 *         caches data homed in CPU memory.
 * The SM decides it once per line request, when the page's translation
 * comes back (the TLB entry says where the page lives), and marks the
 * request LINE_NOCACHE (mem_req.h): the L1D does not allocate it, nor does
 * the L2 slice, and neither keeps the answer.  GPU-homed lines stay
 * cacheable unless the remote directory says the CPU holds them
 * (principle 3; the L2 slice checks, sim/dram/l2_remote.c). */
#include <string.h>
#include "sm_internal.h"
#include "../config.h"
#include "../stats.h"

const struct cfg_key selcache_config_keys[] = {
    {"gpu.caching.remote", CFG_ENUM, "all", 0, -1, "all|none",
     "lines of host-homed pages in the GPU's caches: all (HW CC, thesis Ch. VI's baseline: "
     "cached coherently at no cost) or none (naive selective caching, Sec. 6.2.1: the GPU "
     "never caches data homed in CPU memory)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

void selcache_init(struct gpu *g, const struct config *cfg, struct stats *st)
{
    const char *m = cfg_str(cfg, "gpu.caching.remote");
    g->sc.remote = !strcmp(m, "none") ? SC_NONE : SC_ALL;
    if (g->sc.remote == SC_ALL) return;
    g->sc.uncached = stat_counter(st, "gpu.caching.uncached_lines", "requests",
                                  "line requests the SMs marked uncacheable (host-homed under "
                                  "selective caching)");
}

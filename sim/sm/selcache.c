/* Selective caching at the SM (thesis Ch. VI, Sec. 6.2): which line
 * requests a GPU cache may keep.
 *
 * gpu.caching.remote says what becomes of lines of host-homed pages:
 *   all   the HW CC baseline: cached like any, coherent at no cost (the
 *         per-level gpu.l1d.remote_cache and l2.remote_cache still apply);
 *   none  naive selective caching (Sec. 6.2.1, principle 2): the GPU never
 *         caches data homed in CPU memory;
 *   readonly  promiscuous read-only caching on top (Sec. 6.2.3, rofault.c):
 *         lines of host pages still read-only in the kernel are cached.
 * The SM decides it once per line request, when the page's translation
 * comes back (the TLB entry says where the page lives), and marks the
 * request LINE_NOCACHE (mem_req.h): the L1D does not allocate it, nor does
 * the L2 slice, and neither keeps the answer.  GPU-homed lines stay
 * cacheable unless the remote directory says the CPU holds them
 * (principle 3; the L2 slice checks, sim/l2/l2_remote.c).
 *
 * gpu.caching.coalesce (Sec. 6.2.2.1, cacheless request coalescing): with
 * `l1` or `l1l2` an uncached load takes one of the L1D's MSHRs (the same
 * gpu.l1d.mshrs as the baseline), marked cacheless: it asks for the whole
 * 128 B line, later loads of the line attach to it, and the answer serves
 * them all from the MSHR's own data latch and is then discarded (l1d.c).
 * `l1l2` coalesces across SMs in the L2 slices' MSHRs too.
 *
 * link.variable_transfers (Sec. 6.2.2.3): a cacheless MSHR asks only for
 * the 32 B sectors its first load wants; a later load wanting others sends
 * a request for those while the first is out, and the MSHR is filled by
 * several answers, each with its own sectors (its `outstanding` count). */
#include <string.h>
#include "sm_internal.h"
#include "config/config.h"
#include "core/stats.h"

const struct cfg_key selcache_config_keys[] = {
    {"gpu.caching.remote", CFG_ENUM, "all", 0, -1, "all|none|readonly",
     "lines of host-homed pages in the GPU's caches: all (HW CC, thesis Ch. VI's baseline: "
     "cached coherently at no cost), none (naive selective caching, Sec. 6.2.1: the GPU "
     "never caches data homed in CPU memory) or readonly (promiscuous read-only caching, "
     "Sec. 6.2.3: lines of pages still read-only in the kernel are cached)"},
    {"gpu.caching.ro_fault_latency", CFG_TIME, "20us", 0, 1e12, NULL,
     "a GPU write to a speculatively read-only host page: the protection fault's unloaded "
     "latency (thesis Sec. 6.2.3: 20 us measured on Maxwell; 20-40 us in Fig. 6.7)"},
    {"gpu.caching.ro_remark", CFG_ENUM, "launch", 0, -1, "launch|never",
     "when read-write host pages become read-only again: at every kernel launch (thesis "
     "Sec. 6.3, literal: every DDR page is marked read-only upon launch) or never (a page "
     "written once stays read-write and uncached for the run: one fault per written page, "
     "a bound on what re-marking costs short kernels)"},
    {"gpu.caching.ro_zero_cost", CFG_BOOL, "false", 0, -1, NULL,
     "RO-ZeroCost (thesis Fig. 6.7): the read-only to read-write transition costs nothing"},
    {"gpu.sm.max_prot_faults", CFG_INT, "16", 1, 4096, NULL,
     "pending protection faults per SM; one more blocks the SM (thesis Table 6.3: 16)"},
    {"gpu.caching.coalesce", CFG_ENUM, "none", 0, -1, "none|l1|l1l2",
     "cacheless request coalescing of uncached loads (thesis Sec. 6.2.2.1): none (each goes "
     "to the link as the lane coalescer made it), l1 (in each SM's L1D MSHRs), l1l2 (also "
     "across SMs in the L2 slices' MSHRs); the MSHR counts stay the baseline's"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

void selcache_init(struct gpu *g, const struct config *cfg, struct stats *st)
{
    g->sc.remote = (enum sc_remote)cfg_choice(cfg, "gpu.caching.remote");
    g->sc.coalesce = !cfg_is(cfg, "gpu.caching.coalesce", "none");
    g->sc.whole_lines = g->sc.coalesce && !cfg_bool(cfg, "link.variable_transfers");
    if (g->sc.remote == SC_ALL) return;
    if (g->sc.remote == SC_READONLY) rofault_create(g, cfg, st);
    g->sc.uncached = stat_counter(st, "gpu.caching.uncached_lines", "requests",
                                  "line requests the SMs marked uncacheable (host-homed under "
                                  "selective caching)");
    if (!g->sc.coalesce) return;
    g->sc.remote_loads = stat_counter(st, "gpu.caching.remote_loads", "requests",
                                      "uncached loads into the L1Ds' cacheless MSHRs (thesis "
                                      "Table 6.1's memory accesses)");
    g->sc.l1_coalesced = stat_counter(st, "gpu.caching.l1_coalesced", "requests",
                                      "of those, attached to a line already in flight from the "
                                      "same SM (L1 coalescing)");
    g->sc.l1_line_sectors = stat_counter(st, "gpu.caching.l1_line_sectors", "sectors",
                                         "32 B sectors that came back into the L1Ds' cacheless "
                                         "MSHRs");
    g->sc.l1_used_sectors = stat_counter(st, "gpu.caching.l1_used_sectors", "sectors",
                                         "of those, sectors a waiting load asked for (thesis "
                                         "Table 6.2's line utilisation with L1 coalescing)");
}

/* A load the L1D may not keep, with coalescing: a cacheless MSHR (the
 * thesis' MSHR with its own data latch).  false: no MSHR free, the load
 * waits. */
bool selcache_l1_load(struct sm *s, struct mem_req *r, sim_time now)
{
    struct gpu *g = s->gpu;
    struct cache_mshr *m = cache_mshr_find(&s->l1, r->paddr);
    if (m) {
        *g->sc.l1_coalesced += 1;
    } else {
        if (!(m = cache_mshr_alloc(&s->l1, r->paddr))) {
            g->v.l1_mshr_full[s->id] += 1;
            return false;
        }
    }
    *g->sc.remote_loads += 1;
    m->nocache = true;
    m->want |= r->sector_mask;
    /* Whole lines: one 128 B request, which says which sectors it wants
     * (the L2's utilisation count); the MSHR expects the whole line. */
    uint8_t ask = g->sc.whole_lines ? 0xf : r->sector_mask;
    uint8_t extra = (uint8_t)(ask & ~m->pending);
    if (extra) l1d_fill(s, m, g->sc.whole_lines ? m->want : extra, extra, LINE_NOCACHE, now);
    cache_mshr_wait(m, r);
    return true;
}

void selcache_l1_done(struct sm *s, const struct cache_mshr *m)
{
    struct gpu *g = s->gpu;
    *g->sc.l1_line_sectors += sector_count(m->pending);
    *g->sc.l1_used_sectors += sector_count((uint8_t)(m->want & m->pending));
}

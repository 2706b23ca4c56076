/* The CPU-side GPU client cache (thesis Sec. 6.2.2.2, Table 6.3): a cache
 * at the host memory controller that only GPU requests allocate in, so the
 * GPU's repeated requests for a line that cacheless coalescing missed stop
 * costing DDR4 bandwidth.  8-way, LRU, 128 B lines, write-through and
 * no-write-allocate (a GPU write updates a present line and goes on to
 * DDR4), 512 KB in the thesis' final design (64 KB - 1 MB in Fig. 6.5);
 * 100 GPU cycles of access beyond the 100-cycle hop (Sec. 6.3: "200
 * cycles, comprising 100 cycles of interconnect and 100 cycles of cache
 * access").
 *
 * Timing (link_remote.c): every GPU request that lands at the host is
 * looked up first (`access` after it lands).  A hit is answered `hop`
 * later (host.latency: the extra hop, which a DDR4 access pays in the
 * controller's pipeline): hop + access = 200 cycles.  A miss reads the
 * whole line from DDR4 (paying the hop there) and allocates it; requests
 * for a line already on its way wait in the line's MSHR and are answered
 * with it (each with its own sectors: variable-size transfers keep their
 * masks here too, Sec. 6.2.2.3).  With every MSHR taken a miss goes to
 * DDR4 as it is, without allocating. */
#include <stdlib.h>
#include "link_int.h"
#include "core/cache.h"
#include "config/config.h"
#include "core/stats.h"

const struct cfg_key client_cache_config_keys[] = {
    {"host.client_cache.size", CFG_SIZE, "0B", 0, 1e12, NULL,
     "CPU-side client cache for the GPU's remote requests (thesis Sec. 6.2.2.2: 512 KB "
     "chosen, 64 KB - 1 MB swept in Fig. 6.5; 0: none)"},
    {"host.client_cache.assoc", CFG_INT, "8", 1, 1024, NULL,
     "client cache ways (thesis Sec. 6.3: 8-way)"},
    {"host.client_cache.latency", CFG_INT, "100", 0, 100000, NULL,
     "client cache access in GPU core cycles, beyond the host.latency hop (thesis Sec. 6.3: "
     "100 of its 200)"},
    {"host.client_cache.mshrs", CFG_INT, "1024", 1, 65536, NULL,
     "client cache lines on their way from DDR4 (not in the thesis: as many as the host "
     "side has in flight, so it never limits)"},
    {"link.variable_transfers", CFG_BOOL, "false", 0, -1, NULL,
     "variable-size link transfers (thesis Sec. 6.2.2.3): a cacheless MSHR asks the link for "
     "the 32 B sectors its loads want (later loads send their extra sectors), and only those "
     "cross back; false: it asks for the whole 128 B line"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

struct client_cache {
    struct cache c;
    sim_time access, hop;
    uint64_t *hits, *misses, *merges, *bypassed, *writes;
};

struct client_cache *client_cache_create(const struct config *cfg, struct stats *st,
                                         sim_time core_period)
{
    uint64_t size = cfg_u64(cfg, "host.client_cache.size");
    if (!size) return NULL;
    struct client_cache *cc = xcalloc(1, sizeof *cc);
    uint32_t ways = (uint32_t)cfg_u64(cfg, "host.client_cache.assoc");
    if (!cache_init(&cc->c, size, ways, (uint32_t)cfg_u64(cfg, "host.client_cache.mshrs")))
        user_error("host.client_cache.size: %llu B holds no set of host.client_cache.assoc "
                   "(%u) 128 B lines", (unsigned long long)size, ways);
    cc->access = cfg_u64(cfg, "host.client_cache.latency") * core_period;
    cc->hop = cfg_u64(cfg, "host.latency") * core_period;
    cc->hits = stat_counter(st, "host.client_cache.hits", "requests",
                            "GPU reads the client cache answered");
    cc->misses = stat_counter(st, "host.client_cache.misses", "requests",
                              "GPU reads that read their line from DDR4 and allocated it");
    cc->merges = stat_counter(st, "host.client_cache.merges", "requests",
                              "GPU reads that waited for their line already on its way");
    cc->bypassed = stat_counter(st, "host.client_cache.bypassed", "requests",
                                "GPU reads sent to DDR4 unallocated: every MSHR taken");
    cc->writes = stat_counter(st, "host.client_cache.write_updates", "requests",
                              "GPU writes that updated a present line (write-through)");
    return cc;
}

void client_cache_free(struct client_cache *cc)
{
    if (!cc) return;
    cache_free(&cc->c);
    free(cc);
}

sim_time client_cache_access(const struct client_cache *cc) { return cc->access; }
sim_time client_cache_hop(const struct client_cache *cc) { return cc->hop; }

enum cc_result client_cache_read(struct client_cache *cc, struct mem_req *h, uint32_t *mshr)
{
    bool tag;
    if (!cache_probe(&cc->c, h->paddr, 0xf, &tag)) { *cc->hits += 1; return CC_HIT; }
    struct cache_mshr *m = cache_mshr_find(&cc->c, h->paddr);
    if (m) {
        *cc->merges += 1;
        cache_mshr_wait(m, h);
        return CC_MERGED;
    }
    if (!(m = cache_mshr_alloc(&cc->c, h->paddr))) { *cc->bypassed += 1; return CC_BYPASS; }
    *cc->misses += 1;
    m->pending = 0xf;
    cache_mshr_wait(m, h);
    *mshr = cache_mshr_index(&cc->c, m);
    return CC_MISS;
}

struct mem_req *client_cache_filled(struct client_cache *cc, uint32_t mshr)
{
    struct cache_mshr *m = &cc->c.m[mshr];
    struct cache_victim v;      /* write-through: never dirty */
    cache_fill(&cc->c, m->line << LINE_SHIFT, 0xf, false, &v);
    struct mem_req *w = m->head;
    cache_mshr_release(&cc->c, m);
    return w;
}

void client_cache_write(struct client_cache *cc, const struct mem_req *h)
{
    if (cache_write_present(&cc->c, h->paddr, h->sector_mask, false)) *cc->writes += 1;
}

/* L2 cache slices, one per GDDR channel (HPE Table I: 1.5 MB total,
 * 128 KB per channel, 8-way, LRU; thesis Table 3.1: 120-cycle latency,
 * 128 MSHRs per slice; batch-aware Table 1: 2 MB, 16-way, LRU).
 * 128 B lines of four 32 B sectors, as in Fermi's and Volta's L2.
 *
 * Write-back, write-allocate (Fermi/Volta L2): a store's sectors are
 * written into the line (allocating it) and marked dirty; a dirty victim is
 * written back to its channel.  Whether a store that allocates fetches the
 * rest of its line is l2.write_fill: `none` (coalesced stores write whole
 * sectors, so a sectored L2 needs no fetch), `partial` (the sectors the
 * store left invalid are fetched), `full` (the whole line is read, as
 * GPGPU-Sim 3.x's write-allocate, gpu-cache.cc data_cache::wr_miss_wa,
 * sends a read of the block on every write miss: the thesis' baseline,
 * whose srad_v1 result depends on it, Sec. 6.4.1.1).  The store itself is
 * answered at once; the fetch takes an MSHR with no request waiting.  Loads and atomics fetch their missing sectors through an MSHR
 * per line; later misses on the line merge (asking only for sectors not
 * yet requested).  Atomics are performed here and leave the line dirty.
 *
 * Timing: a request becomes visible gpu.xbar.latency + l2.latency cycles
 * after the SM sent it; a slice looks up l2.ports requests per cycle; its
 * crossbar output port returns gpu.xbar.port_bw bytes per cycle (a load
 * answer carries its sectors, a store answer is one cycle). */
#include <stdlib.h>
#include <string.h>
#include "l2_int.h"
#include "config/config.h"
#include "core/stats.h"

const struct cfg_key l2_config_keys[] = {
    {"l2.size", CFG_SIZE, "1536KiB", 0, 1e12, NULL,
     "L2 capacity, all slices together (HPE Table I: 1.5 MB = 12 x 128 KB)"},
    {"l2.assoc", CFG_INT, "8", 1, 1024, NULL, "L2 ways (HPE Table I: 8)"},
    {"l2.latency", CFG_INT, "120", 0, 100000, NULL, "L2 hit latency in core cycles (thesis Table 3.1: 120)"},
    {"l2.mshrs", CFG_INT, "128", 1, 65536, NULL, "outstanding line misses per slice (thesis Table 3.1: 128)"},
    {"l2.ports", CFG_INT, "1", 1, 64, NULL, "lookups per slice per cycle"},
    {"l2.queue", CFG_INT, "256", 1, 1048576, NULL,
     "requests a slice holds, queued or answered but not yet sent back (full: SMs stall)"},
    {"l2.writeback_buffer", CFG_INT, "32", 1, 65536, NULL,
     "write-backs a slice may have in flight before it stops taking requests"},
    {"l2.remote_cache", CFG_BOOL, "true", 0, -1, NULL,
     "lines of host-homed pages are cached in the L2 (CC-NUMA, hardware-coherent: thesis "
     "Sec. 4.2.2 models the DDR4 as GPU-attached, so its lines are cached like any; false: "
     "each access crosses the link uncached, Ch. VI's baseline before selective caching)"},
    {"l2.write_fill", CFG_ENUM, "none", 0, -1, "none|partial|full",
     "a store that allocates its line fetches: nothing (sectors are written whole), the "
     "sectors it left invalid, or the whole line (GPGPU-Sim 3.x write-allocate, "
     "data_cache::wr_miss_wa: the thesis' HW CC baseline, Sec. 6.4.1.1)"},
    {"l2.hash", CFG_ENUM, "channel", 0, -1, "channel|line|xor",
     "address to slice: the GDDR channel's own interleave, 128 B lines round robin, or an XOR fold of higher bits"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

struct mem_req *l2_own_req(struct slice *s, enum req_kind k, uint64_t addr,
                           uint8_t mask, uint32_t slot, sim_time now)
{
    struct mem_req *r = req_alloc(s->l2->pool);
    r->kind = k;
    r->paddr = r->vaddr = addr;
    r->sector_mask = mask;
    r->size = sector_count(mask) * SECTOR_SIZE;
    r->slot = slot;
    r->t_issue = now;
    r->reply = &s->fill;
    rq_push(s, &s->down, r);
    if (s->l2->mem_hook) s->l2->mem_hook(s->l2->mem_ctx, addr, sector_count(mask));
    return r;
}

void l2_writeback(struct slice *s, const struct cache_victim *v, sim_time now)
{
    if (!v->valid || !v->dirty) return;
    l2_own_req(s, REQ_STORE, v->addr, v->dirty, WB_SLOT, now);
    s->wb_out++;
    *s->l2->writebacks += 1;
}

void l2_fetch(struct slice *s, struct cache_mshr *m, uint8_t mask, sim_time now)
{
    l2_own_req(s, REQ_LOAD, m->line << LINE_SHIFT, mask, cache_mshr_index(&s->c, m), now);
    m->pending |= mask;
    m->outstanding++;
    if (m->line << LINE_SHIFT & PADDR_HOST) {
        SIM_ASSERT(s->l2->remote, s->name, now, "host-homed line %#llx and no remote path "
                   "(l2_set_remote)", (unsigned long long)(m->line << LINE_SHIFT));
        *s->l2->remote_reads += 1;
    } else {
        *s->l2->dram_reads += 1;
    }
}

/* false: no MSHR free, the request stays queued. */
static bool lookup(struct slice *s, struct mem_req *r, sim_time now)
{
    struct l2 *l = s->l2;
    struct cache_victim v;
    bool tag;
    if (l2_keeps_out(l, r)) return l2_uncached(s, r, now);
    if (r->kind == REQ_STORE) {
        /* A hit when the line is present; a miss allocates it, fetching
         * what l2.write_fill says (an MSHR first: without one the store
         * waits, unwritten). */
        cache_probe(&s->c, r->paddr, r->sector_mask, &tag);
        if (!tag && l->write_fill != WF_NONE) {
            uint8_t want = l->write_fill == WF_FULL ? 0xf : (uint8_t)(0xf & ~r->sector_mask);
            if (want) {
                struct cache_mshr *m = cache_mshr_find(&s->c, r->paddr);
                if (!m && !(m = cache_mshr_alloc(&s->c, r->paddr))) {
                    *l->mshr_full += 1;
                    return false;
                }
                *l->write_fills += 1;
                if (want & ~m->pending) l2_fetch(s, m, (uint8_t)(want & ~m->pending), now);
            }
        }
        cache_fill(&s->c, r->paddr, r->sector_mask, true, &v);
        l2_writeback(s, &v, now);
        *(tag ? l->hits : l->misses) += 1;
        (tag ? l->v_hits : l->v_misses)[s->id] += 1;
        rq_push(s, &s->up, r);
        return true;
    }
    uint8_t miss = cache_probe(&s->c, r->paddr, r->sector_mask, &tag);
    if (!miss) {
        if (r->kind == REQ_ATOMIC) cache_write_present(&s->c, r->paddr, r->sector_mask, true);
        *l->hits += 1;
        l->v_hits[s->id] += 1;
        rq_push(s, &s->up, r);
        return true;
    }
    struct cache_mshr *m = cache_mshr_find(&s->c, r->paddr);
    if (m) {
        uint8_t extra = (uint8_t)(miss & ~m->pending);
        *l->merges += 1;
        if (extra) l2_fetch(s, m, extra, now);
    } else {
        m = cache_mshr_alloc(&s->c, r->paddr);
        if (!m) { *l->mshr_full += 1; return false; }
        *l->misses += 1;
        l->v_misses[s->id] += 1;
        if (tag) *l->sector_misses += 1;
        l2_fetch(s, m, miss, now);
    }
    cache_mshr_wait(m, r);
    s->nwait++;
    return true;
}

static void filled(struct slice *s, struct mem_req *f, sim_time now)
{
    if (f->slot == WB_SLOT) {
        s->wb_out--;
        req_release(s->l2->pool, f);
        return;
    }
    if (f->slot & BYPASS) {             /* and CPU_SLOT */
        l2_remote_filled(s, f, now);
        return;
    }
    struct cache_mshr *m = &s->c.m[f->slot];
    struct cache_victim v;
    if (l2_fill_keeps(s, m, f)) {
        cache_fill(&s->c, f->paddr, f->sector_mask, false, &v);
        l2_writeback(s, &v, now);
    }
    req_release(s->l2->pool, f);
    if (--m->outstanding) return;
    struct mem_req *r = m->head;
    /* A cacheless MSHR's data latch (thesis Sec. 6.2.2.1) serves its
     * waiters and is discarded; they are told not to keep it either. */
    bool nocache = m->nocache;
    uint8_t got = m->pending;
    if (nocache) l2_cacheless_done(s, m);
    cache_mshr_release(&s->c, m);
    while (r) {
        struct mem_req *n = r->next;
        r->next = NULL;
        if (nocache) {
            r->xflags |= LINE_NOCACHE;
            if (s->l2->whole_lines && r->kind == REQ_LOAD) {
                r->sector_mask = got;
                r->size = sector_count(got) * SECTOR_SIZE;
            }
        } else if (r->kind == REQ_ATOMIC) {
            cache_write_present(&s->c, r->paddr, r->sector_mask, true);
        }
        s->nwait--;
        rq_push(s, &s->up, r);
        r = n;
    }
}

static sim_time slice_tick(struct component *c, sim_time now)
{
    struct slice *s = (struct slice *)c;
    struct l2 *l = s->l2;
    sim_time p = c->dom->period;
    struct mem_req *r;
    while ((r = mq_pop(&s->fill, now))) filled(s, r, now);
    for (uint32_t i = 0; i < l->ports && (r = mq_peek(&s->in, now)); i++) {
        /* Room for every answer this request can cause, and for its
         * write-back: otherwise it waits in the queue. */
        if (s->up.n + s->nwait + 1 > l->up_cap || s->wb_out >= l->wb_max) break;
        if (!lookup(s, r, now)) break;
        mq_pop(&s->in, now);
    }
    while ((r = rq_head(&s->down))) {
        if (r->xflags & LINE_TOCPU) {
            l->cpu->probe(l->cpu_ctx, r, l2_cpu_holds(l, r->paddr), now);
            rq_drop(&s->down);
            continue;
        }
        if (r->paddr & PADDR_HOST) {
            /* Host memory, over the link: nothing queues at this end. */
            SIM_ASSERT(l->remote, s->name, now, "write-back of host-homed line %#llx and no "
                       "remote path (l2_set_remote)", (unsigned long long)r->paddr);
            l->remote(l->remote_ctx, r, now);
            rq_drop(&s->down);
            continue;
        }
        struct mq *q = dram_channel_in(l->dram, dram_channel_of(l->dram, r->paddr));
        if (!mq_push(q, r, now, NULL)) break;      /* polled: several channels */
        rq_drop(&s->down);
    }
    if ((r = rq_head(&s->up)) && s->port_free <= now) {
        rq_drop(&s->up);
        uint32_t bytes = r->kind == REQ_STORE ? 0 : r->size;
        uint32_t cyc = (bytes + l->bw - 1) / l->bw;
        s->port_free = now + (sim_time)(cyc ? cyc : 1) * p;
        /* Reply queues are sized for all their owner has in flight. */
        if (!mq_push(r->reply, r, now, NULL))
            sim_panic(s->name, now, "reply queue '%s' full", r->reply->name);
    }
    sim_time next = TIME_NEVER;
    if (s->down.n || mq_peek(&s->in, now)) next = now + p;
    if (s->up.n) { sim_time t = s->port_free > now ? s->port_free : now + p; if (t < next) next = t; }
    if (mq_next_ready(&s->in) < next) next = mq_next_ready(&s->in);
    if (mq_next_ready(&s->fill) < next) next = mq_next_ready(&s->fill);
    return next <= now ? now + p : next;
}

static void slice_dump(struct component *c, FILE *out)
{
    struct slice *s = (struct slice *)c;
    fprintf(out, "    %u queued, %u parked on %u MSHRs, %u to DRAM, %u to send back, %u write-backs\n",
            s->in.n, s->nwait, s->c.mshr_used, s->down.n, s->up.n, s->wb_out);
    for (uint32_t i = 0; i < s->in.n && i < 4; i++) req_dump(out, mq_at(&s->in, i));
}

static const struct comp_ops slice_ops = { slice_tick, slice_dump };

struct l2 *l2_create(struct engine *e, const struct config *cfg,
                     struct stats *st, struct req_pool *pool,
                     const struct domain *dom, struct dram *d)
{
    struct l2 *l = xcalloc(1, sizeof *l);
    l->dram = d;
    l->pool = pool;
    l->n = dram_nchannels(d);
    l->hash = (enum l2_hash)cfg_choice(cfg, "l2.hash");
    l->ports = (uint32_t)cfg_u64(cfg, "l2.ports");
    l->bw = (uint32_t)cfg_u64(cfg, "gpu.xbar.port_bw");
    l->wb_max = (uint32_t)cfg_u64(cfg, "l2.writeback_buffer");
    l->up_cap = (uint32_t)cfg_u64(cfg, "l2.queue");
    l->remote_cache = cfg_bool(cfg, "l2.remote_cache");
    l->write_fill = (enum write_fill)cfg_choice(cfg, "l2.write_fill");
    uint64_t size = cfg_u64(cfg, "l2.size") / l->n;
    uint32_t ways = (uint32_t)cfg_u64(cfg, "l2.assoc"), mshrs = (uint32_t)cfg_u64(cfg, "l2.mshrs");
    sim_time lat = (cfg_u64(cfg, "gpu.xbar.latency") + cfg_u64(cfg, "l2.latency")) * dom->period;
    /* DRAM-bound requests: up to 4 sector reads per MSHR, the write-back
     * buffer, and one write-back per fill. */
    uint32_t down = mshrs * 8 + l->wb_max + 2 * L2_CPU_MAX;
    /* Answers come back into `fill`: those, and the uncached remote
     * requests (at most l2.queue: each holds room for its answer). */
    uint32_t fillq = down + l->up_cap;
    l->s = xcalloc(l->n, sizeof *l->s);
    for (unsigned i = 0; i < l->n; i++) {
        struct slice *s = &l->s[i];
        snprintf(s->name, sizeof s->name, "l2.%u", i);
        s->l2 = l;
        s->id = i;
        /* Sets round down when the total does not split evenly. */
        if (!cache_init(&s->c, size, ways, mshrs))
            user_error("l2.size: %llu B per slice (%u slices, one per dram channel) holds "
                       "no set of l2.assoc (%u) 128 B lines",
                       (unsigned long long)size, l->n, ways);
        comp_init(&s->comp, e, &slice_ops, s->name, dom);
        mq_init(&s->in, s->name, l->up_cap, lat, &s->comp);
        mq_init(&s->fill, s->name, fillq, 0, &s->comp);
        s->down = (struct rq){ xcalloc(down, sizeof(struct mem_req *)), down, 0, 0 };
        s->up = (struct rq){ xcalloc(l->up_cap, sizeof(struct mem_req *)), l->up_cap, 0, 0 };
    }
    l->hits = stat_counter(st, "l2.hits", "requests", "L2 lookups that found every sector (stores: found the line)");
    l->misses = stat_counter(st, "l2.misses", "requests", "L2 misses that took an MSHR (stores: allocated the line)");
    l->sector_misses = stat_counter(st, "l2.sector_misses", "requests",
                                    "L2 misses whose line was present without the sectors");
    l->merges = stat_counter(st, "l2.mshr_merges", "requests", "L2 misses merged into an MSHR");
    l->writebacks = stat_counter(st, "l2.writebacks", "requests", "dirty lines written back to GDDR");
    l->mshr_full = stat_counter(st, "l2.mshr_full", "cycles", "lookups refused for want of an MSHR");
    l->dram_reads = stat_counter(st, "l2.dram_reads", "requests", "sector fetches sent to GDDR");
    l->invalidated = stat_counter(st, "l2.invalidated_lines", "lines",
                                  "lines dropped because the driver evicted their page");
    if (l->write_fill != WF_NONE)
        l->write_fills = stat_counter(st, "l2.write_fills", "requests",
                                      "stores that allocated their line and fetched it (l2.write_fill)");
    l2_remote_create(l, cfg, st);
    l->v_hits = stat_vector(st, "l2.slice.hits", l->n, "requests", "L2 hits per slice");
    l->v_misses = stat_vector(st, "l2.slice.misses", l->n, "requests", "L2 misses per slice");
    return l;
}

void l2_free(struct l2 *l)
{
    if (!l) return;
    l2_fast_free(l);
    for (unsigned i = 0; i < l->n; i++) {
        struct slice *s = &l->s[i];
        cache_free(&s->c);
        mq_free(&s->in);
        mq_free(&s->fill);
        free(s->down.q);
        free(s->up.q);
        free(s->byp);
    }
    l2_remote_free(l);
    free(l->s);
    free(l);
}

unsigned l2_nslices(const struct l2 *l) { return l->n; }

/* "channel" keeps each line in the slice beside its GDDR channel (GPGPU-Sim:
 * an L2 bank per memory sub-partition); "line" spreads consecutive 128 B
 * lines; "xor" folds page-number bits into the line index so that strides
 * of a power of two do not all land on one slice. */
unsigned l2_slice_of(const struct l2 *l, uint64_t pa)
{
    switch (l->hash) {
    case H_LINE: return (unsigned)((pa >> LINE_SHIFT) % l->n);
    case H_XOR: return (unsigned)(((pa >> LINE_SHIFT) ^ (pa >> PAGE_SHIFT) ^ (pa >> 20)) % l->n);
    case H_CHANNEL: break;
    }
    return dram_channel_of(l->dram, pa);
}

struct mq *l2_slice_in(struct l2 *l, unsigned slice) { return &l->s[slice].in; }

void l2_invalidate_frame(struct l2 *l, uint64_t pa)
{
    uint64_t base = pa & ~(PAGE_SIZE - 1);
    for (uint64_t a = base; a < base + PAGE_SIZE; a += LINE_SIZE) {
        struct cache_victim v;
        cache_invalidate(&l->s[l2_slice_of(l, a)].c, a, &v);
        if (v.valid) *l->invalidated += 1;
    }
}

static struct mq *route(void *ctx, uint64_t pa)
{
    struct l2 *l = ctx;
    return &l->s[l2_slice_of(l, pa)].in;
}

struct mem_port l2_port(struct l2 *l) { return (struct mem_port){ route, l }; }

void l2_set_mem_hook(struct l2 *l, void (*fn)(void *ctx, uint64_t pa, unsigned sectors),
                     void *ctx)
{
    l->mem_hook = fn;
    l->mem_ctx = ctx;
}

void l2_set_remote(struct l2 *l, struct stats *st,
                   void (*send)(void *ctx, struct mem_req *r, sim_time now), void *ctx)
{
    l->remote = send;
    l->remote_ctx = ctx;
    l->remote_reads = stat_counter(st, "l2.remote_reads", "requests",
                                   "sector fetches of host-homed lines sent over the link");
    l->remote_passed = stat_counter(st, "l2.remote_uncached", "requests",
                                    "requests for host-homed lines passed on uncached "
                                    "(l2.remote_cache false)");
    for (unsigned i = 0; i < l->n; i++) {
        struct slice *s = &l->s[i];
        s->byp = xmalloc(l->up_cap * sizeof *s->byp);
        for (uint32_t k = 0; k < l->up_cap; k++)
            s->byp[k] = (struct mem_req *)(uintptr_t)(k + 1 < l->up_cap ? k + 1 : UINT32_MAX);
        s->byp_free = 0;
    }
}

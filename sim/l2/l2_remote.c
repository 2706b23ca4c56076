/* What selective caching keeps out of an L2 slice (thesis Ch. VI).
 *
 * Uncached lines: a host-homed line the L2 may not keep (l2.remote_cache
 * off, or a request the SM marked LINE_NOCACHE) goes on to the link as a
 * request of the slice's own: a store posted (answered now, as a write
 * into the L2 would be), a load or an atomic answered with its data.  With
 * gpu.caching.coalesce l1l2 the slice coalesces such loads instead
 * (Sec. 6.2.2.1, "L1+L2 coalescing"): a load takes one of the slice's own
 * MSHRs (the same l2.mshrs as the baseline), marked cacheless, which asks
 * the link for the whole 128 B line (or, with link.variable_transfers,
 * only the sectors asked: Sec. 6.2.2.3); later loads of the line attach to
 * it (asking for any sectors not yet requested, with variable transfers);
 * the answer serves them all from the MSHR's own data latch and is then
 * discarded.
 *
 * The remote directory (Sec. 6.2.1) is a cuckoo filter (rdir.c) of the
 * GPU-homed lines the CPU may be caching.  A CPU request for a GPU-homed
 * line (l2_cpu_read) inserts the line and discards it from every GPU
 * cache; a GPU request for a line the filter reports is routed to the CPU
 * (l2_cpu.probe), which answers with the data when it holds the line or
 * with a NACK (a false positive of the filter), after which GPU memory
 * serves it; either way no GPU cache keeps the line.  Entries are never
 * removed: when the filter is full or at its high-water mark the CPU is
 * made to flush every GPU-homed line it caches (the thesis' software
 * daemon calling cacheflush) and the directory starts empty.  There is no
 * CPU core model: the CPU is modelled as caching every line it read until
 * such a flush (`held`), so a NACK is exactly a false positive. */
#include <stdlib.h>
#include <string.h>
#include "l2_int.h"
#include "config/config.h"
#include "core/stats.h"

const struct cfg_key l2_remote_config_keys[] = {
    {"l2.remote_dir.size", CFG_SIZE, "64KiB", 64, 1e9, NULL,
     "remote directory storage (thesis Sec. 6.2.1: 64 KB tracks 8 MB of GPU memory)"},
    {"l2.remote_dir.bucket", CFG_INT, "4", 1, 64, NULL,
     "fingerprints per cuckoo-filter bucket (Fan et al. 2014: 4, for a 95 % load)"},
    {"l2.remote_dir.fingerprint", CFG_INT, "8", 2, 16, NULL,
     "fingerprint bits (64 KB / 8 MB of 128 B lines = 8 bits: at most 2 x 4 / 2^8 = 3.1 % false "
     "positives, the thesis' 3 %)"},
    {"l2.remote_dir.high_water", CFG_FRACTION, "100%", 0.01, 1, NULL,
     "share of the filter's slots in use at which the CPU is made to flush its GPU-homed lines "
     "and the directory is reset (100 %: when an insertion fails)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint32_t bypass_slot(struct slice *s, struct mem_req *r, sim_time now)
{
    uint32_t i = s->byp_free;
    SIM_ASSERT(s->byp, s->name, now, "an uncached request for %#llx and no remote path "
               "(l2_set_remote)", (unsigned long long)r->paddr);
    SIM_ASSERT(i != UINT32_MAX, s->name, now, "more uncached requests than l2.queue");
    s->byp_free = (uint32_t)(uintptr_t)s->byp[i];
    s->byp[i] = r;
    s->nwait++;
    return BYPASS | i;
}

/* A host-homed line the slice does not keep, passed on as it is (naive
 * selective caching; the L1's 128 B request with L1 coalescing). */
static void pass_remote(struct slice *s, struct mem_req *r, sim_time now)
{
    struct l2 *l = s->l2;
    SIM_ASSERT(l->remote, s->name, now, "host-homed line %#llx and no remote path "
               "(l2_set_remote)", (unsigned long long)r->paddr);
    *l->remote_passed += 1;
    if (r->kind == REQ_STORE) {
        l2_own_req(s, REQ_STORE, r->paddr, r->sector_mask, WB_SLOT, now);
        s->wb_out++;
        rq_push(s, &s->up, r);
        return;
    }
    /* With coalescing above (L1 MSHRs) and whole-line transfers, the
     * request stands for its line: 128 B cross (the L1's latch takes them). */
    uint8_t mask = l->whole_lines && r->kind == REQ_LOAD ? 0xf : r->sector_mask;
    l2_own_req(s, r->kind, r->paddr, mask, bypass_slot(s, r, now), now);
}

/* L1+L2 coalescing: a cacheless MSHR of the slice. */
static bool coalesce(struct slice *s, struct mem_req *r, sim_time now)
{
    struct l2 *l = s->l2;
    uint8_t ask = l->whole_lines ? 0xf : r->sector_mask;
    struct cache_mshr *m = cache_mshr_find(&s->c, r->paddr);
    if (m) {
        *l->coalesced += 1;
    } else {
        if (!(m = cache_mshr_alloc(&s->c, r->paddr))) {
            *l->mshr_full += 1;
            return false;
        }
        *l->remote_passed += 1;
    }
    m->nocache = true;
    m->want |= r->sector_mask;
    if (ask & ~m->pending) l2_fetch(s, m, (uint8_t)(ask & ~m->pending), now);
    cache_mshr_wait(m, r);
    s->nwait++;
    return true;
}

/* A GPU-homed line the remote directory reports: to the CPU (a store is
 * written to GPU memory, uncached: the CPU's copy holds no data here). */
static void to_cpu(struct slice *s, struct mem_req *r, sim_time now)
{
    struct l2 *l = s->l2;
    *l->dir->hits += 1;
    if (r->kind == REQ_STORE) {
        l2_own_req(s, REQ_STORE, r->paddr, r->sector_mask, WB_SLOT, now);
        s->wb_out++;
        rq_push(s, &s->up, r);
        return;
    }
    struct mem_req *f = l2_own_req(s, r->kind, r->paddr, r->sector_mask, bypass_slot(s, r, now), now);
    f->xflags = LINE_TOCPU;
}

bool l2_uncached(struct slice *s, struct mem_req *r, sim_time now)
{
    struct l2 *l = s->l2;
    if (!(r->paddr & PADDR_HOST)) { to_cpu(s, r, now); return true; }
    if (l->coalesce && r->kind == REQ_LOAD && (r->xflags & LINE_NOCACHE)) return coalesce(s, r, now);
    pass_remote(s, r, now);
    return true;
}

bool l2_fill_keeps(struct slice *s, struct cache_mshr *m, const struct mem_req *f)
{
    struct l2 *l = s->l2;
    if (m->nocache) return false;
    if (!(f->paddr & PADDR_HOST) && l->dir && rdir_count(l->dir->f) &&
        rdir_contains(l->dir->f, m->line)) {
        m->nocache = true;              /* the CPU read it while the fill was out */
        return false;
    }
    return true;
}

void l2_cacheless_done(struct slice *s, const struct cache_mshr *m)
{
    struct l2 *l = s->l2;
    if (!l->line_sectors || !(m->line << LINE_SHIFT & PADDR_HOST)) return;
    *l->line_sectors += sector_count(m->pending);
    *l->used_sectors += sector_count((uint8_t)(m->want & m->pending));
}

void l2_remote_filled(struct slice *s, struct mem_req *f, sim_time now)
{
    struct l2 *l = s->l2;
    if (f->slot == CPU_SLOT) {
        uint64_t pa = f->paddr;
        req_release(l->pool, f);
        l->cpu->answer(l->cpu_ctx, pa, now);
        return;
    }
    if (f->xflags & LINE_NACK) {
        /* The CPU does not hold it: GPU memory serves it, uncached. */
        *l->dir->nacks += 1;
        f->xflags = 0;
        rq_push(s, &s->down, f);
        return;
    }
    uint32_t i = f->slot & ~BYPASS;
    struct mem_req *r = s->byp[i];
    s->byp[i] = (struct mem_req *)(uintptr_t)s->byp_free;
    s->byp_free = i;
    if (r->kind == REQ_LOAD) {
        r->sector_mask = f->sector_mask;
        r->size = f->size;
    }
    if (!(f->paddr & PADDR_HOST)) r->xflags |= LINE_NOCACHE;   /* a directory line */
    req_release(l->pool, f);
    s->nwait--;
    rq_push(s, &s->up, r);
}

/* ---- the remote directory and the CPU's requests ---- */

static void dir_flush(struct l2_dir *d)
{
    rdir_reset(d->f);
    memset(d->held, 0, (d->held_lines + 63) / 64 * sizeof *d->held);
    *d->flushes += 1;
}

void l2_cpu_read(struct l2 *l, uint64_t pa, sim_time now)
{
    struct slice *s = &l->s[l2_slice_of(l, pa)];
    uint64_t line = pa >> LINE_SHIFT;
    if (l->cpu_reads) *l->cpu_reads += 1;
    if (l->dir) {
        struct l2_dir *d = l->dir;
        if (!rdir_contains(d->f, line)) {
            if (rdir_count(d->f) >= d->limit || !rdir_insert(d->f, line)) {
                dir_flush(d);
                bool ok = rdir_insert(d->f, line);
                SIM_ASSERT(ok, s->name, now, "an empty remote directory refused a line");
            }
            *d->inserts += 1;
        }
        if (line < d->held_lines) d->held[line / 64] |= 1ULL << (line % 64);
        /* Probe and discard the line from every GPU cache, as an
         * invalidation protocol does; always, not only on a new insert: a
         * fingerprint another line put there says nothing of this one. */
        struct cache_victim v;
        cache_invalidate(&s->c, pa, &v);
        if (v.valid) {
            *d->discarded += 1;
            l2_writeback(s, &v, now);
        }
        if (l->flush_line) l->flush_line(l->flush_ctx, pa);
    }
    l2_own_req(s, REQ_LOAD, pa & ~(uint64_t)(LINE_SIZE - 1), 0xf, CPU_SLOT, now);
    comp_wake(&s->comp, now);
}

bool l2_cpu_holds(const struct l2 *l, uint64_t pa)
{
    uint64_t line = pa >> LINE_SHIFT;
    return l->dir && line < l->dir->held_lines && (l->dir->held[line / 64] >> (line % 64) & 1);
}

void l2_set_cpu(struct l2 *l, const struct l2_cpu *cpu, void *ctx,
                void (*flush_line)(void *ctx, uint64_t pa), void *flush_ctx)
{
    l->cpu = cpu;
    l->cpu_ctx = ctx;
    l->flush_line = flush_line;
    l->flush_ctx = flush_ctx;
}

void l2_remote_create(struct l2 *l, const struct config *cfg, struct stats *st)
{
    l->selective = !cfg_is(cfg, "gpu.caching.remote", "all");
    const char *co = "gpu.caching.coalesce";
    l->coalesce = cfg_is(cfg, co, "l1l2");
    l->whole_lines = !cfg_is(cfg, co, "none") && !cfg_bool(cfg, "link.variable_transfers");
    if (cfg_u64(cfg, "cpu.stream.interval") > 0)
        l->cpu_reads = stat_counter(st, "cpu.reads", "requests",
                                    "CPU reads of GPU-homed lines served by the L2 slices (cpu.stream)");
    if (l->coalesce) {
        l->coalesced = stat_counter(st, "l2.coalesced", "requests",
                                    "uncached host-homed loads attached to an in-flight cacheless "
                                    "MSHR of a slice (L1+L2 coalescing, thesis Table 6.1)");
        l->line_sectors = stat_counter(st, "l2.cacheless_sectors", "sectors",
                                       "32 B sectors the link brought into the slices' cacheless "
                                       "MSHRs");
        l->used_sectors = stat_counter(st, "l2.cacheless_used_sectors", "sectors",
                                       "of those, sectors a waiting request asked for (thesis "
                                       "Table 6.2's line utilisation: used / brought)");
    }
    if (!l->selective) return;
    struct l2_dir *d = xcalloc(1, sizeof *d);
    d->f = rdir_create(cfg_u64(cfg, "l2.remote_dir.size"),
                       (unsigned)cfg_u64(cfg, "l2.remote_dir.bucket"),
                       (unsigned)cfg_u64(cfg, "l2.remote_dir.fingerprint"),
                       cfg_u64(cfg, "sim.seed"));
    if (!d->f)
        user_error("l2.remote_dir.size: %llu B holds no bucket of l2.remote_dir.bucket "
                   "fingerprints of l2.remote_dir.fingerprint bits",
                   (unsigned long long)cfg_u64(cfg, "l2.remote_dir.size"));
    d->limit = (uint64_t)(cfg_f64(cfg, "l2.remote_dir.high_water") * (double)rdir_capacity(d->f));
    if (d->limit < 1) d->limit = 1;
    d->held_lines = cfg_u64(cfg, "cpu.stream.footprint") / LINE_SIZE;
    d->held = xcalloc((d->held_lines + 63) / 64 + 1, sizeof *d->held);
    d->lookups = stat_counter(st, "remote_dir.lookups", "requests",
                              "GPU requests for GPU-homed lines looked up in a non-empty remote "
                              "directory");
    d->hits = stat_counter(st, "remote_dir.hits", "requests",
                           "of those, lines it reported: routed to the CPU, uncached");
    d->nacks = stat_counter(st, "remote_dir.false_positives", "requests",
                            "routed requests the CPU NACKed (it did not hold the line): "
                            "served from GPU memory");
    d->inserts = stat_counter(st, "remote_dir.inserts", "lines",
                              "CPU requests that put a line into the directory");
    d->flushes = stat_counter(st, "remote_dir.flushes", "flushes",
                              "directory full or at its high-water mark: the CPU flushed its "
                              "GPU-homed lines, the directory was reset");
    d->discarded = stat_counter(st, "remote_dir.discarded_lines", "lines",
                                "L2 lines discarded because the CPU requested them");
    l->dir = d;
}

void l2_remote_free(struct l2 *l)
{
    if (!l->dir) return;
    rdir_free(l->dir->f);
    free(l->dir->held);
    free(l->dir);
}

/* Two-level TLB.  Defaults follow HPE Table I: L1 128 entries per SM, fully
 * associative here (the table gives no associativity), 1 cycle, 1 port, hit
 * under miss; L2 512 entries, 16-way, 10 cycles, 2 ports; LRU in both.
 *
 * Dirty tracking: a store needs a translation whose entry is marked dirty;
 * a store that finds a clean entry goes to the walker, which sets the PTE's
 * dirty bit (the x86 A/D-bit assist; the driver needs it to know which
 * evicted pages to write back).  Misses for the same page and the same
 * dirty need merge in one MSHR. */
#include <stdlib.h>
#include <stdio.h>
#include "tlb.h"
#include "../config.h"
#include "../stats.h"
#include "../mem_req.h"

struct tlb_entry { uint64_t vpn, pfn, stamp; bool valid, dirty; };

struct mshr {
    bool valid, want_dirty;
    uint64_t vpn;
    struct mem_req *waiters;   /* linked through ->next */
};

struct tlb_level {
    struct component comp;
    char name[24];
    struct tlb *sys;
    struct mq in;              /* lookups; queue latency = lookup latency */
    struct mq fill;            /* answers from the level below */
    struct mq *down;           /* the level below's request queue */
    uint32_t sets, ways, ports, nmshr;
    struct tlb_entry *e;
    uint64_t stamp;
    struct mshr *mshr;
    uint64_t *hits, *misses, *merges, *mshr_full;
};

struct tlb {
    struct req_pool *pool;
    unsigned nsms;
    struct tlb_level *l1;      /* nsms of them */
    struct tlb_level l2;
    uint64_t *shootdowns;
};

const struct cfg_key tlb_config_keys[] = {
    {"tlb.l1.entries", CFG_INT, "128", 1, 65536, NULL, "L1 TLB entries per SM (HPE Table I)"},
    {"tlb.l1.assoc", CFG_INT, "0", 0, 65536, NULL, "L1 TLB ways (0: fully associative)"},
    {"tlb.l1.latency", CFG_INT, "1", 0, 1000, NULL, "L1 TLB lookup latency in core cycles"},
    {"tlb.l1.ports", CFG_INT, "1", 1, 64, NULL, "L1 TLB lookups per cycle"},
    {"tlb.l1.mshrs", CFG_INT, "32", 1, 4096, NULL, "L1 TLB outstanding misses (distinct pages)"},
    {"tlb.l2.entries", CFG_INT, "512", 1, 1048576, NULL, "shared L2 TLB entries (HPE Table I)"},
    {"tlb.l2.assoc", CFG_INT, "16", 0, 1048576, NULL, "L2 TLB ways (0: fully associative)"},
    {"tlb.l2.latency", CFG_INT, "10", 0, 10000, NULL, "L2 TLB lookup latency in core cycles"},
    {"tlb.l2.ports", CFG_INT, "2", 1, 64, NULL, "L2 TLB lookups per cycle"},
    {"tlb.l2.mshrs", CFG_INT, "128", 1, 65536, NULL, "L2 TLB outstanding misses (distinct pages)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static struct tlb_entry *lookup(struct tlb_level *t, uint64_t vpn)
{
    struct tlb_entry *set = &t->e[(vpn % t->sets) * t->ways];
    for (uint32_t w = 0; w < t->ways; w++)
        if (set[w].valid && set[w].vpn == vpn) return &set[w];
    return NULL;
}

static void insert(struct tlb_level *t, uint64_t vpn, uint64_t pfn, bool dirty)
{
    struct tlb_entry *set = &t->e[(vpn % t->sets) * t->ways];
    struct tlb_entry *victim = lookup(t, vpn);
    if (victim) dirty = dirty || victim->dirty;
    for (uint32_t w = 0; !victim && w < t->ways; w++)
        if (!set[w].valid) victim = &set[w];
    if (!victim) {
        victim = &set[0];
        for (uint32_t w = 1; w < t->ways; w++)
            if (set[w].stamp < victim->stamp) victim = &set[w];
    }
    *victim = (struct tlb_entry){ vpn, pfn, ++t->stamp, true, dirty };
}

static struct mshr *mshr_find(struct tlb_level *t, uint64_t vpn, bool dirty)
{
    for (uint32_t i = 0; i < t->nmshr; i++)
        if (t->mshr[i].valid && t->mshr[i].vpn == vpn && t->mshr[i].want_dirty == dirty)
            return &t->mshr[i];
    return NULL;
}

static struct mshr *mshr_free_slot(struct tlb_level *t)
{
    for (uint32_t i = 0; i < t->nmshr; i++)
        if (!t->mshr[i].valid) return &t->mshr[i];
    return NULL;
}

static void reply(struct tlb_level *t, struct mem_req *r, uint64_t pfn, sim_time now)
{
    r->paddr = (pfn << PAGE_SHIFT) | (r->vaddr & (PAGE_SIZE - 1));
    if (!mq_push(r->reply, r, now, NULL))
        sim_panic(t->name, now, "reply queue '%s' full", r->reply->name);
}

static bool needs_dirty(const struct mem_req *r) { return r->access != REQ_LOAD; }

/* One lookup; false when it must wait (no MSHR, or the level below full). */
static bool lookup_one(struct tlb_level *t, struct mem_req *r, sim_time now)
{
    uint64_t vpn = page_of(r->vaddr);
    bool dirty = needs_dirty(r);
    struct tlb_entry *e = lookup(t, vpn);
    if (e && (e->dirty || !dirty)) {
        e->stamp = ++t->stamp;
        *t->hits += 1;
        reply(t, r, e->pfn, now);
        return true;
    }
    struct mshr *m = mshr_find(t, vpn, dirty);
    if (m) {
        *t->merges += 1;
        *t->misses += 1;
        r->next = m->waiters;
        m->waiters = r;
        return true;
    }
    m = mshr_free_slot(t);
    if (!m) {                           /* a fill frees one and wakes us */
        *t->mshr_full += 1;
        return false;
    }
    if (mq_full(t->down)) {
        mq_wait_space(t->down, &t->comp);
        return false;
    }
    *t->misses += 1;
    struct mem_req *d = req_alloc(t->sys->pool);
    d->kind = REQ_XLATE;
    d->access = r->access;
    d->vaddr = vpn << PAGE_SHIFT;
    d->sm = r->sm;
    d->t_issue = now;
    d->reply = &t->fill;
    *m = (struct mshr){ true, dirty, vpn, r };
    r->next = NULL;
    mq_push(t->down, d, now, &t->comp);
    return true;
}

static void fill_one(struct tlb_level *t, struct mem_req *d, sim_time now)
{
    uint64_t vpn = page_of(d->vaddr), pfn = d->paddr >> PAGE_SHIFT;
    bool dirty = needs_dirty(d);
    insert(t, vpn, pfn, dirty);
    struct mshr *m = mshr_find(t, vpn, dirty);
    SIM_ASSERT(m, t->name, now, "fill for page %#llx without an MSHR",
               (unsigned long long)vpn);
    for (struct mem_req *r = m->waiters, *n; r; r = n) {
        n = r->next;
        r->next = NULL;
        reply(t, r, pfn, now);
    }
    m->valid = false;
    m->waiters = NULL;
    req_release(t->sys->pool, d);
}

static sim_time level_tick(struct component *c, sim_time now)
{
    struct tlb_level *t = (struct tlb_level *)c;
    struct mem_req *r;
    while ((r = mq_pop(&t->fill, now))) fill_one(t, r, now);
    for (uint32_t p = 0; p < t->ports; p++) {
        r = mq_peek(&t->in, now);
        if (!r || !lookup_one(t, r, now)) break;
        mq_pop(&t->in, now);
    }
    /* Work blocked on an MSHR or on the level below is woken by the fill or
     * the freed slot; otherwise tick again for the next lookup. */
    sim_time next = mq_next_ready(&t->in);
    if (next <= now)
        next = (mshr_free_slot(t) && !mq_full(t->down)) ? now + c->dom->period
                                                        : TIME_NEVER;
    sim_time f = mq_next_ready(&t->fill);
    return f < next ? f : next;
}

static void level_dump(struct component *c, FILE *out)
{
    struct tlb_level *t = (struct tlb_level *)c;
    fprintf(out, "    %u lookups queued, %u fills queued\n", t->in.n, t->fill.n);
    for (uint32_t i = 0; i < t->in.n && i < 8; i++) req_dump(out, mq_at(&t->in, i));
    for (uint32_t i = 0; i < t->nmshr; i++) {
        if (!t->mshr[i].valid) continue;
        unsigned n = 0;
        for (struct mem_req *r = t->mshr[i].waiters; r; r = r->next) n++;
        fprintf(out, "    mshr %u: page %#llx%s, %u waiting\n", i,
                (unsigned long long)t->mshr[i].vpn,
                t->mshr[i].want_dirty ? " (dirty)" : "", n);
        for (struct mem_req *r = t->mshr[i].waiters; r; r = r->next) req_dump(out, r);
    }
}

static const struct comp_ops level_ops = { level_tick, level_dump };

static void level_init(struct tlb_level *t, struct tlb *sys, struct engine *e,
                       const struct config *cfg, const struct domain *dom, const char *lvl,
                       const char *name, unsigned fill_cap)
{
    char key[64];
#define KEY(k) (snprintf(key, sizeof key, "tlb.%s." k, lvl), key)
    uint32_t entries = (uint32_t)cfg_u64(cfg, KEY("entries"));
    uint32_t assoc = (uint32_t)cfg_u64(cfg, KEY("assoc"));
    if (assoc == 0 || assoc > entries) assoc = entries;
    if (entries % assoc)
        user_error("%s (%u) is not a multiple of %s (%u)", KEY("entries"),
                   entries, "the associativity", assoc);
    t->sys = sys;
    snprintf(t->name, sizeof t->name, "%s", name);
    t->ways = assoc;
    t->sets = entries / assoc;
    t->ports = (uint32_t)cfg_u64(cfg, KEY("ports"));
    t->nmshr = (uint32_t)cfg_u64(cfg, KEY("mshrs"));
    sim_time lat = cfg_u64(cfg, KEY("latency")) * dom->period;
#undef KEY
    t->e = xcalloc(entries, sizeof *t->e);
    t->mshr = xcalloc(t->nmshr, sizeof *t->mshr);
    comp_init(&t->comp, e, &level_ops, t->name, dom);
    mq_init(&t->in, t->name, 1024, lat, &t->comp);
    mq_init(&t->fill, t->name, fill_cap, 0, &t->comp);
}

/* All SMs' L1 TLBs share one set of counters. */
static void level_stats(struct tlb_level *t, uint64_t *const c[4])
{
    t->hits = c[0]; t->misses = c[1]; t->merges = c[2]; t->mshr_full = c[3];
}

static void register_level_stats(struct stats *st, const char *lvl,
                                 const char *what, uint64_t *c[4])
{
    static const char *const fields[4] = {"hits", "misses", "mshr_merges", "mshr_full"};
    static const char *const desc[4] = {
        "%s hits", "%s misses (merged ones included)",
        "%s misses merged into an outstanding miss to the same page",
        "%s lookups stalled for lack of an MSHR"};
    for (int i = 0; i < 4; i++) {
        char name[64], d[128];
        snprintf(name, sizeof name, "tlb.%s.%s", lvl, fields[i]);
        snprintf(d, sizeof d, desc[i], what);
        c[i] = stat_counter(st, name, "lookups", d);
    }
}

struct tlb *tlb_create(struct engine *e, const struct config *cfg,
                       struct stats *st, struct req_pool *pool,
                       const struct domain *dom, unsigned nsms)
{
    struct tlb *t = xcalloc(1, sizeof *t);
    t->pool = pool;
    t->nsms = nsms;
    t->l1 = xcalloc(nsms, sizeof *t->l1);
    uint64_t *c1[4], *c2[4];
    register_level_stats(st, "l1", "L1 TLB (all SMs)", c1);
    register_level_stats(st, "l2", "L2 TLB", c2);
    t->shootdowns = stat_counter(st, "tlb.shootdowns", "pages",
                                 "pages invalidated in every TLB by the driver");
    level_init(&t->l2, t, e, cfg, dom, "l2", "tlb.l2",
               (unsigned)cfg_u64(cfg, "tlb.l2.mshrs"));
    level_stats(&t->l2, c2);
    unsigned l1_mshrs = (unsigned)cfg_u64(cfg, "tlb.l1.mshrs");
    for (unsigned i = 0; i < nsms; i++) {
        char name[24];
        snprintf(name, sizeof name, "tlb.l1.%u", i);
        level_init(&t->l1[i], t, e, cfg, dom, "l1", name, l1_mshrs);
        level_stats(&t->l1[i], c1);
        t->l1[i].down = &t->l2.in;
    }
    return t;
}

static void level_free(struct tlb_level *t)
{
    mq_free(&t->in);
    mq_free(&t->fill);
    free(t->e);
    free(t->mshr);
}

void tlb_free(struct tlb *t)
{
    if (!t) return;
    for (unsigned i = 0; i < t->nsms; i++) level_free(&t->l1[i]);
    level_free(&t->l2);
    free(t->l1);
    free(t);
}

struct mq *tlb_l1_in(struct tlb *t, unsigned sm) { return &t->l1[sm].in; }
void tlb_set_walker(struct tlb *t, struct mq *walk_in) { t->l2.down = walk_in; }

void tlb_shootdown(struct tlb *t, uint64_t vpn, sim_time now)
{
    (void)now;
    for (unsigned i = 0; i < t->nsms; i++) {
        struct tlb_entry *e = lookup(&t->l1[i], vpn);
        if (e) e->valid = false;
    }
    struct tlb_entry *e = lookup(&t->l2, vpn);
    if (e) e->valid = false;
    *t->shootdowns += 1;
}

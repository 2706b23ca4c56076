/* The TLB hierarchy: builds the levels from the config, and shootdowns.
 * Defaults follow HPE Table I: L1 128 entries per SM, fully associative
 * here (the table gives no associativity), 1 cycle, 1 port, hit under
 * miss; L2 512 entries, 16-way, 10 cycles, 2 ports; LRU in both.  The
 * batch-aware paper's Table 1 (64-entry fully associative L1, 1024-entry
 * 32-way L2) is configs/translation-batch-aware.yaml.
 *
 * Shootdowns (Agarwal thesis Ch. V, Sec. 5.2.2 and 5.3.1): the pessimistic
 * model stalls every SM for a fixed 100 cycles per shootdown; the sharers
 * scope stalls only the SMs whose L1 may hold the entry (the OS sharers
 * list).  Which pages need one is tlb.shootdown.filter: `present` (a TLB
 * holds the page now: no false positives, the cheapest a sharer tracker
 * could be) or `touched` (the thesis' OS sharers list, Sec. 5.3.1: "if no
 * request has been made for the page table entry, that core will not
 * receive a TLB shootdown request", false positives allowed once the entry
 * has left the TLBs; the whole GPU is one sharer, so it needs scope all).
 * A page migrated before the GPU's first touch needs none (range
 * expansion's saving).  Shootdowns of one SM serialise: each adds its
 * full cost. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "tlb.h"
#include "tlb_level.h"
#include "config/config.h"
#include "core/stats.h"
#include "core/mem_req.h"
#include "trace/trace.h"

struct tlb {
    struct tlb_shared sh;
    unsigned nsms;
    struct tlb_level *l1;         /* nsms of them */
    struct tlb_level l2;
    sim_time sd_cost;             /* ps */
    uint64_t sd_cycles;
    bool sd_all;
    bool sd_touched;              /* tlb.shootdown.filter touched */
    tlb_sharer_fn sharer_fn;
    void *sharer_ctx;
    sim_time *sd_until;           /* per SM: end of its last shootdown stall */
    bool *sharer;                 /* scratch, per SM */
    tlb_shootdown_hook sd_hook;
    void *sd_ctx;
    uint64_t *shootdowns, *sd_avoided, *sd_stall, *sd_entries;
};

const struct cfg_key tlb_config_keys[] = {
    {"tlb.l1.entries", CFG_INT, "128", 1, 65536, NULL, "L1 TLB entries per SM (HPE Table I)"},
    {"tlb.l1.assoc", CFG_INT, "0", 0, 65536, NULL, "L1 TLB ways (0: fully associative)"},
    {"tlb.l1.latency", CFG_INT, "1", 0, 1000, NULL, "L1 TLB lookup latency in core cycles (HPE Table I)"},
    {"tlb.l1.ports", CFG_INT, "1", 1, 64, NULL, "L1 TLB lookups per cycle (HPE Table I: single port)"},
    {"tlb.l1.mshrs", CFG_INT, "32", 1, 4096, NULL, "L1 TLB outstanding misses (distinct pages)"},
    {"tlb.l2.entries", CFG_INT, "512", 1, 1048576, NULL, "shared L2 TLB entries (HPE Table I)"},
    {"tlb.l2.assoc", CFG_INT, "16", 0, 1048576, NULL, "L2 TLB ways (0: fully associative; HPE Table I: 16)"},
    {"tlb.l2.latency", CFG_INT, "10", 0, 10000, NULL, "L2 TLB lookup latency in core cycles (HPE Table I)"},
    {"tlb.l2.ports", CFG_INT, "2", 1, 64, NULL, "L2 TLB lookups per cycle (HPE Table I)"},
    {"tlb.l2.mshrs", CFG_INT, "128", 1, 65536, NULL, "L2 TLB outstanding misses (distinct pages)"},
    {"tlb.shootdown.cycles", CFG_INT, "100", 0, 1e9, NULL,
     "core cycles an SM stops issuing per TLB shootdown (Agarwal thesis Ch. V: 100)"},
    {"tlb.shootdown.scope", CFG_ENUM, "all", 0, -1, "all|sharers",
     "SMs stalled by a shootdown: all (thesis Ch. V) or those whose L1 held the page"},
    {"tlb.shootdown.filter", CFG_ENUM, "present", 0, -1, "present|touched",
     "which remaps need a shootdown: present (a TLB holds the page now) or touched (the thesis' "
     "OS sharers list, Sec. 5.3.1: the GPU has walked the page since it was mapped, whether or "
     "not its entry is still cached; needs scope all)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* The sharers list knows the GPU as one sharer (thesis Sec. 5.2.1: "the
 * entire GPU is treated like a single CPU"), not which SMs hold a page. */
bool tlb_config_check(const struct config *c, struct cfg_error *err)
{
    if (!cfg_is(c, "tlb.shootdown.filter", "touched") ||
        !cfg_is(c, "tlb.shootdown.scope", "sharers"))
        return true;
    const char *keys[] = { "tlb.shootdown.filter", "tlb.shootdown.scope", NULL };
    return cfg_fail_keys(c, err, keys, "touched tracks the GPU as one sharer (thesis Sec. "
                         "5.3.1), so it stalls every SM: needs tlb.shootdown.scope all, not sharers");
}

static void level_cfg(const struct config *cfg, const char *lvl, const struct domain *dom,
                      struct tlb_level_cfg *c)
{
    char key[64];
#define KEY(k) (snprintf(key, sizeof key, "tlb.%s." k, lvl), key)
    c->entries = (uint32_t)cfg_u64(cfg, KEY("entries"));
    c->ways = (uint32_t)cfg_u64(cfg, KEY("assoc"));
    if (c->ways == 0) c->ways = c->entries;
    if (c->ways > c->entries || c->entries % c->ways)
        user_error("tlb.%s.entries (%u) is not a multiple of tlb.%s.assoc (%u)",
                   lvl, c->entries, lvl, c->ways);
    c->ports = (uint32_t)cfg_u64(cfg, KEY("ports"));
    c->mshrs = (uint32_t)cfg_u64(cfg, KEY("mshrs"));
    c->latency = cfg_u64(cfg, KEY("latency")) * dom->period;
#undef KEY
}

static void level_stats(struct stats *st, const char *lvl, const char *what,
                        struct tlb_level_stats *s)
{
    static const char *const fields[7] = {"hits", "misses", "mshr_merges", "mshr_full",
                                          "port_conflicts", "evictions", "fault_nacks"};
    static const char *const units[7] = {"lookups", "lookups", "lookups", "lookups",
                                         "cycles", "entries", "misses"};
    static const char *const desc[7] = {
        "%s hits", "%s misses (merged ones included)",
        "%s misses merged into an outstanding miss to the same page",
        "%s lookups stalled for lack of an MSHR",
        "%s cycles in which a ready lookup found every port taken",
        "%s valid entries replaced by a fill",
        "%s outstanding misses whose walk faulted (MSHR freed, accesses to the GMMU)"};
    uint64_t **p[7] = {&s->hits, &s->misses, &s->merges, &s->mshr_full,
                       &s->port_conflicts, &s->evictions, &s->nacks};
    for (int i = 0; i < 7; i++) {
        char name[64], d[128];
        snprintf(name, sizeof name, "tlb.%s.%s", lvl, fields[i]);
        snprintf(d, sizeof d, desc[i], what);
        *p[i] = stat_counter(st, name, units[i], d);
    }
}

struct tlb *tlb_create(struct engine *e, const struct config *cfg,
                       struct stats *st, struct req_pool *pool,
                       const struct domain *dom, unsigned nsms)
{
    struct tlb *t = xcalloc(1, sizeof *t);
    t->sh.pool = pool;
    t->nsms = nsms;
    t->l1 = xcalloc(nsms, sizeof *t->l1);
    t->sd_until = xcalloc(nsms, sizeof *t->sd_until);
    t->sharer = xcalloc(nsms, sizeof *t->sharer);
    t->sd_cycles = cfg_u64(cfg, "tlb.shootdown.cycles");
    t->sd_cost = t->sd_cycles * dom->period;
    t->sd_all = cfg_is(cfg, "tlb.shootdown.scope", "all");
    t->sd_touched = cfg_is(cfg, "tlb.shootdown.filter", "touched");
    struct tlb_level_stats s1, s2;
    level_stats(st, "l1", "L1 TLB (all SMs)", &s1);
    level_stats(st, "l2", "L2 TLB", &s2);
    t->shootdowns = stat_counter(st, "tlb.shootdowns", "shootdowns",
                                 "unmaps/remaps the GPU may have cached (tlb.shootdown.filter): "
                                 "charged");
    t->sd_avoided = stat_counter(st, "tlb.shootdowns_avoided", "pages",
                                 "unmaps/remaps of pages the filter says the GPU cannot hold "
                                 "(no shootdown needed)");
    t->sd_entries = stat_counter(st, "tlb.shootdown_entries", "entries",
                                 "TLB entries invalidated by shootdowns, L1s and L2");
    t->sd_stall = stat_counter(st, "tlb.shootdown_stall", "cycles",
                               "issue-stall cycles charged by shootdowns, summed over SMs");
    struct tlb_level_cfg c2, c1;
    level_cfg(cfg, "l2", dom, &c2);
    level_cfg(cfg, "l1", dom, &c1);
    /* The L2 queue holds every L1 MSHR's miss; an L1 queue holds what its
     * SM can send (the SM keeps the rest in its own outbound queue). */
    c2.in_cap = c1.mshrs * nsms;
    c1.in_cap = 1024;
    tlb_level_init(&t->l2, e, dom, "tlb.l2", -1, &c2, &t->sh, &s2);
    for (unsigned i = 0; i < nsms; i++) {
        char name[24];
        snprintf(name, sizeof name, "tlb.l1.%u", i);
        tlb_level_init(&t->l1[i], e, dom, name, (int)i, &c1, &t->sh, &s1);
        t->l1[i].down = &t->l2.in;
    }
    return t;
}

void tlb_free(struct tlb *t)
{
    if (!t) return;
    for (unsigned i = 0; i < t->nsms; i++) tlb_level_free(&t->l1[i]);
    tlb_level_free(&t->l2);
    free(t->l1);
    free(t->sd_until);
    free(t->sharer);
    free(t);
}

struct mq *tlb_l1_in(struct tlb *t, unsigned sm) { return &t->l1[sm].in; }
struct tlb_level *tlb_l1_level(struct tlb *t, unsigned sm) { return &t->l1[sm]; }
void tlb_set_walker(struct tlb *t, struct mq *walk_in) { t->l2.down = walk_in; }

void tlb_set_shootdown_hook(struct tlb *t, tlb_shootdown_hook fn, void *ctx)
{
    t->sd_hook = fn;
    t->sd_ctx = ctx;
}

void tlb_set_sharer_hook(struct tlb *t, tlb_sharer_fn fn, void *ctx)
{
    t->sharer_fn = fn;
    t->sharer_ctx = ctx;
}

void tlb_set_remote_hook(struct tlb *t, tlb_remote_hook fn, void *ctx)
{
    t->sh.remote = fn;
    t->sh.remote_ctx = ctx;
}

void tlb_set_fault_hook(struct tlb *t, tlb_fault_hook fn, void *ctx)
{
    t->sh.fault = fn;
    t->sh.fault_ctx = ctx;
}

void tlb_replay(void *tlb, unsigned sm, struct mem_req *reqs, sim_time now)
{
    struct tlb *t = tlb;
    SIM_ASSERT(sm < t->nsms, "tlb", now, "replay into SM %u of %u", sm, t->nsms);
    struct tlb_level *l = &t->l1[sm];
    for (struct mem_req *r = reqs; r; r = r->next) {
        r->t_issue = now;             /* re-issued: visible one lookup latency on */
        l->rp_n++;
        if (l->rp_tail) l->rp_tail->next = r;
        else l->rp_head = r;
        l->rp_tail = r;
    }
    comp_wake_at(&l->comp, now + l->in.latency);
}

void tlb_stall_sm(void *tlb, unsigned sm, bool stalled, sim_time now)
{
    struct tlb *t = tlb;
    SIM_ASSERT(sm < t->nsms, "tlb", now, "stall of SM %u of %u", sm, t->nsms);
    struct tlb_level *l = &t->l1[sm];
    l->stalled = stalled;
    if (!stalled) comp_wake(&l->comp, now);
}

bool tlb_shootdown(struct tlb *t, uint64_t vpn, sim_time now)
{
    return tlb_shootdown_range(t, vpn, 1, now);
}

bool tlb_shootdown_range(struct tlb *t, uint64_t vpn, uint64_t npages, sim_time now)
{
    unsigned n = 0;
    for (unsigned i = 0; i < t->nsms; i++) {
        unsigned k = 0;
        for (uint64_t v = vpn; v < vpn + npages; v++) k += tlb_array_invalidate(&t->l1[i].arr, v);
        t->sharer[i] = k != 0;
        n += k;
    }
    for (uint64_t v = vpn; v < vpn + npages; v++) n += tlb_array_invalidate(&t->l2.arr, v);
    bool may_hold = n != 0;
    if (t->sd_touched) {
        SIM_ASSERT(t->sharer_fn, "tlb", now, "tlb.shootdown.filter touched and no sharers list "
                   "(tlb_set_sharer_hook)");
        may_hold = t->sharer_fn(t->sharer_ctx, vpn, npages);
        /* A cached entry came from a walk, which put the GPU on the list. */
        SIM_ASSERT(may_hold || !n, "tlb", now, "page %#llx cached in a TLB but not on the "
                   "sharers list", (unsigned long long)vpn);
    }
    if (!may_hold) {
        *t->sd_avoided += 1;
        return false;
    }
    *t->shootdowns += 1;
    *t->sd_entries += n;
    if (TRACE_ON(TW_SHOOTDOWN)) trace_shootdown(vpn, npages, n, now);
    if (!t->sd_cost) return true;
    for (unsigned i = 0; i < t->nsms; i++) {
        if (!t->sd_all && !t->sharer[i]) continue;
        sim_time from = t->sd_until[i] > now ? t->sd_until[i] : now;
        t->sd_until[i] = from + t->sd_cost;
        *t->sd_stall += t->sd_cycles;
        if (t->sd_hook) t->sd_hook(t->sd_ctx, i, t->sd_until[i]);
    }
    return true;
}

/* ---- read-only views for the stepper (uvmsim step: show tlb) ---- */

static void entry(FILE *out, const struct tlb_entry *e, uint32_t set, uint32_t way)
{
    fprintf(out, "    set %u way %u: page %#llx (%u KiB) -> %#llx%s%s%s, last use %llu\n", set, way,
            (unsigned long long)(e->tag << (e->shift - 12)), 1u << (e->shift - 10),
            (unsigned long long)e->pbase, e->flags & XLATE_DIRTY ? " dirty" : "",
            e->flags & XLATE_READONLY ? " read-only" : "", e->flags & XLATE_REMOTE ? " remote" : "",
            (unsigned long long)e->stamp);
}

static void level(FILE *out, const struct tlb_level *t, long set)
{
    const struct tlb_array *a = &t->arr;
    unsigned valid = 0;
    for (uint32_t i = 0; i < a->sets * a->ways; i++) valid += a->e[i].valid;
    fprintf(out, "  %s: %u sets x %u ways, %u valid entries\n", t->name, a->sets, a->ways, valid);
    t->comp.ops->dump((struct component *)&t->comp, out);
    for (uint32_t s = 0; s < a->sets; s++) {
        if (set >= 0 && s != (uint32_t)set) continue;
        for (uint32_t w = 0; w < a->ways; w++) {
            const struct tlb_entry *e = &a->e[s * a->ways + w];
            if (e->valid) entry(out, e, s, w);
            else if (set >= 0) fprintf(out, "    set %u way %u: invalid\n", s, w);
        }
    }
}

void tlb_describe_l1(const struct tlb *t, unsigned sm, FILE *out)
{
        if (sm >= t->nsms) { fprintf(out, "  no SM %u (%u SMs)\n", sm, t->nsms); return; }
    level(out, &t->l1[sm], -1);
}

void tlb_describe_l2(const struct tlb *t, long set, FILE *out)
{
        if (set >= (long)t->l2.arr.sets) {
        fprintf(out, "  no set %ld (%u sets)\n", set, t->l2.arr.sets);
        return;
    }
    level(out, &t->l2, set);
}

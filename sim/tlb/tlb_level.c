/* One TLB level.  HPE Table I: the L1 has one port and a 1-cycle lookup and
 * supports hit under miss; the L2 has 2 ports and a 10-cycle lookup.  A
 * lookup becomes visible `latency` after it is sent (the queue latency)
 * and then takes one of `ports` slots of its cycle; a miss takes an MSHR
 * (or merges into the one for its page) and lookups behind it go on, so
 * hits are served under outstanding misses.
 *
 * Dirty tracking (docs/decisions.md): a store needs an entry marked dirty;
 * a store that finds a clean entry misses and goes down to the walker,
 * which sets the PTE's dirty bit (the x86 A/D-bit assist).  Read-only
 * entries are never dirty, so a store to one reaches the walker, which
 * raises the protection fault.  Load and store misses to one page use
 * separate MSHRs so a store never completes on a clean translation.
 *
 * Faults (the real uTLB's replayable faults, uvm_gpu_replayable_faults.c):
 * a walk that faults comes back as a fault NACK (XLATE_FAULT).  The L2
 * installs nothing, frees its MSHR and forwards the NACK to every L1 miss
 * merged into it; an L1 frees its MSHR and hands its waiting accesses to
 * the GMMU (the fault hook), which logs the uTLB's fault and parks them.
 * So a pending fault holds no MSHR.  A replay sends the accesses back
 * (tlb_replay) into the L1's replay queue, served ahead of new lookups on
 * the same ports: they miss and walk again like the real replay. */
#include <stdlib.h>
#include <stdio.h>
#include "tlb_level.h"
#include "core/mem_req.h"

static bool needs_dirty(const struct mem_req *r) { return r->access != REQ_LOAD; }

static void reply(struct tlb_level *t, struct mem_req *r, uint64_t pbase,
                  uint8_t shift, uint8_t flags, sim_time now)
{
    uint64_t size = 1ULL << shift;
    r->paddr = pbase | (r->vaddr & (size - 1));
    r->size = (uint32_t)size;
    r->xflags = flags;
    if (t->sm >= 0 && (flags & XLATE_REMOTE) && t->sh->remote)
        t->sh->remote(t->sh->remote_ctx, (unsigned)t->sm, r->vaddr, now);
    if (!mq_push(r->reply, r, now, NULL))
        sim_panic(t->name, now, "reply queue '%s' full", r->reply->name);
}

/* One lookup; false when it must wait (no MSHR, or the level below full). */
static bool lookup_one(struct tlb_level *t, struct mem_req *r, sim_time now)
{
    return tlb_level_lookup(t, r, now);
}

bool tlb_level_hit(struct tlb_level *t, struct mem_req *r, sim_time now)
{
    struct tlb_entry *e = tlb_array_find(&t->arr, r->vaddr);
    if (!e || !(e->flags & XLATE_DIRTY || !needs_dirty(r))) return false;
    tlb_array_touch(&t->arr, e);
    *t->st.hits += 1;
    uint64_t size = 1ULL << e->shift;
    r->paddr = e->pbase | (r->vaddr & (size - 1));
    r->size = (uint32_t)size;
    r->xflags = e->flags;
    if (t->sm >= 0 && (e->flags & XLATE_REMOTE) && t->sh->remote)
        t->sh->remote(t->sh->remote_ctx, (unsigned)t->sm, r->vaddr, now);
    return true;
}

bool tlb_level_lookup(struct tlb_level *t, struct mem_req *r, sim_time now)
{
    bool dirty = needs_dirty(r);
    struct tlb_entry *e = tlb_array_find(&t->arr, r->vaddr);
    if (e && (e->flags & XLATE_DIRTY || !dirty)) {
        tlb_array_touch(&t->arr, e);
        *t->st.hits += 1;
        reply(t, r, e->pbase, e->shift, e->flags, now);
        return true;
    }
    uint64_t vpn = page_of(r->vaddr);
    struct tlb_mshr *m = tlb_mshr_find(&t->mshr, vpn, dirty);
    if (m) {
        *t->st.merges += 1;
        *t->st.misses += 1;
        tlb_mshr_merge(m, r);
        return true;
    }
    if (tlb_mshrs_full(&t->mshr)) {       /* a fill frees one and wakes us */
        *t->st.mshr_full += 1;
        return false;
    }
    if (mq_full(t->down)) {
        mq_wait_space(t->down, &t->comp);
        return false;
    }
    *t->st.misses += 1;
    struct mem_req *d = req_alloc(t->sh->pool);
    d->kind = REQ_XLATE;
    d->access = r->access;
    d->vaddr = vpn << PAGE_SHIFT;
    d->paddr = 0;
    d->size = 0;
    /* A replayed access's walk says so: the walker feeds the eviction
     * policy no reference for it (walker.c). */
    d->xflags = (uint8_t)(XLATE_WANT_NACK | (r->xflags & XLATE_REPLAYED));
    d->sm = r->sm;
    d->warp = r->warp;
    d->slot = 0;
    d->t_issue = now;
    d->reply = &t->fill;
    tlb_mshr_alloc(&t->mshr, vpn, dirty, r);
    mq_push(t->down, d, now, &t->comp);
    return true;
}

static uint8_t shift_of(uint32_t size)
{
    return (uint8_t)(size ? __builtin_ctz(size) : PAGE_SHIFT);
}

/* A fault NACK for the miss of MSHR m's page. */
static void nack(struct tlb_level *t, struct mem_req *d, struct tlb_mshr *m, sim_time now)
{
    *t->st.nacks += 1;
    struct mem_req *w = tlb_mshr_release(&t->mshr, m);
    if (t->sm >= 0) {                     /* an L1: the uTLB's fault */
        SIM_ASSERT(t->sh->fault, t->name, now, "fault NACK with no GMMU to hand it to");
        t->sh->fault(t->sh->fault_ctx, (unsigned)t->sm, w, now);
        return;
    }
    for (struct mem_req *r = w, *n; r; r = n) {   /* the L2: to each L1 miss */
        n = r->next;
        r->next = NULL;
        r->paddr = 0;
        r->size = 0;
        r->xflags = d->xflags;
        if (!mq_push(r->reply, r, now, NULL))
            sim_panic(t->name, now, "reply queue '%s' full", r->reply->name);
    }
}

static void fill_one(struct tlb_level *t, struct mem_req *d, sim_time now)
{
    struct tlb_mshr *m = tlb_mshr_find(&t->mshr, page_of(d->vaddr), needs_dirty(d));
    SIM_ASSERT(m, t->name, now, "fill for page %#llx without an MSHR",
               (unsigned long long)page_of(d->vaddr));
    if (d->xflags & XLATE_FAULT) {
        nack(t, d, m, now);
        req_release(t->sh->pool, d);
        return;
    }
    uint8_t shift = shift_of(d->size);
    uint64_t pbase = d->paddr & ~((1ULL << shift) - 1);
    if (tlb_array_insert(&t->arr, d->vaddr, shift, pbase, d->xflags))
        *t->st.evictions += 1;
    for (struct mem_req *r = tlb_mshr_release(&t->mshr, m), *n; r; r = n) {
        n = r->next;
        r->next = NULL;
        reply(t, r, pbase, shift, d->xflags, now);
    }
    req_release(t->sh->pool, d);
}

/* The next lookup, oldest first: a replayed access once visible, else the
 * head of the lookup queue once visible. */
static struct mem_req *next_lookup(struct tlb_level *t, sim_time now, bool *replayed)
{
    struct mem_req *r = t->rp_head;
    *replayed = r && r->t_issue + t->in.latency <= now;
    return *replayed ? r : mq_peek(&t->in, now);
}

static sim_time level_tick(struct component *c, sim_time now)
{
    struct tlb_level *t = (struct tlb_level *)c;
    struct mem_req *r;
    while ((r = mq_pop(&t->fill, now))) fill_one(t, r, now);
    bool blocked = false, replayed;
    uint32_t served = 0;
    while (!t->stalled && served < t->ports && (r = next_lookup(t, now, &replayed))) {
        struct mem_req *rn = r->next;       /* lookup_one reuses ->next */
        if (!lookup_one(t, r, now)) { blocked = true; break; }
        if (replayed) {
            t->rp_head = rn;
            if (!rn) t->rp_tail = NULL;
            t->rp_n--;
        } else {
            mq_pop(&t->in, now);
        }
        served++;
    }
    /* A port conflict: a lookup was ready but every port of this cycle was
     * taken (counted once per cycle). */
    if (!blocked && served == t->ports && next_lookup(t, now, &replayed))
        *t->st.port_conflicts += 1;
    sim_time next = TIME_NEVER;
    if (!t->stalled && !blocked) {      /* stalls and blocks are woken */
        next = mq_next_ready(&t->in);
        if (t->rp_head && t->rp_head->t_issue + t->in.latency < next)
            next = t->rp_head->t_issue + t->in.latency;
        if (next <= now) next = now + c->dom->period;
    }
    sim_time f = mq_next_ready(&t->fill);
    return f < next ? f : next;
}

static void level_dump(struct component *c, FILE *out)
{
    struct tlb_level *t = (struct tlb_level *)c;
    fprintf(out, "    %u lookups queued, %u replayed accesses queued, %u fills queued, "
            "%u of %u MSHRs busy%s\n", t->in.n, t->rp_n, t->fill.n, t->mshr.used, t->mshr.n,
            t->stalled ? " (stalled: fault buffer full)" : "");
    for (uint32_t i = 0; i < t->in.n && i < 8; i++) req_dump(out, mq_at(&t->in, i));
    for (uint32_t i = 0; i < t->mshr.n; i++) {
        const struct tlb_mshr *m = &t->mshr.m[i];
        if (!m->valid) continue;
        unsigned n = 0;
        for (struct mem_req *r = m->waiters; r; r = r->next) n++;
        fprintf(out, "    mshr %u: page %#llx%s, %u waiting\n", i,
                (unsigned long long)m->vpn, m->want_dirty ? " (dirty)" : "", n);
    }
}

static const struct comp_ops level_ops = { level_tick, level_dump };

void tlb_level_init(struct tlb_level *t, struct engine *e, const struct domain *dom,
                    const char *name, int sm, const struct tlb_level_cfg *c,
                    struct tlb_shared *sh, const struct tlb_level_stats *st)
{
    snprintf(t->name, sizeof t->name, "%s", name);
    t->sh = sh;
    t->sm = sm;
    t->ports = c->ports;
    t->st = *st;
    t->latency = c->latency;
    tlb_array_init(&t->arr, c->entries, c->ways);
    tlb_mshrs_init(&t->mshr, c->mshrs);
    comp_init(&t->comp, e, &level_ops, t->name, dom);
    mq_init(&t->in, t->name, c->in_cap, c->latency, &t->comp);
    /* One fill per MSHR at most is ever in flight. */
    mq_init(&t->fill, t->name, c->mshrs, 0, &t->comp);
}

void tlb_level_free(struct tlb_level *t)
{
    mq_free(&t->in);
    mq_free(&t->fill);
    tlb_array_free(&t->arr);
    tlb_mshrs_free(&t->mshr);
}

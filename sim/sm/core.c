/* Warp issue and the answers that come back to an SM.
 *
 * A memory instruction is coalesced into one of the warp's in-flight slots
 * (gpu.sm.max_outstanding_mem, default 1: the warp waits for its load
 * before its next instruction).  Each distinct page is translated once;
 * when its translation returns, the lines on that page go to the L1D.  A
 * page that faults holds only its warp (replayable far faults, HPE Sec. II
 * and batch-aware Sec. 2.2): the translation is parked in the GMMU until
 * a replay translates it again, the other pages' lines have already gone
 * on, and when it returns only the faulted page's lines are sent (the
 * replay of the faulted accesses). */
#include <stdlib.h>
#include "sm_internal.h"
#include "core/stats.h"
#include "trace/trace.h"

/* The warp's state as the trace shows it (sim/trace). */
static void warp_traced(struct sm *s, struct warp *w, sim_time now)
{
    enum trace_wstate st = w->st == W_PIPE ? TWS_COMPUTE
                         : w->st == W_MEM ? (w->nfault ? TWS_FAULT : TWS_MEMORY)
                         : w->st == W_BARRIER ? TWS_BARRIER : TWS_IDLE;
    trace_warp(s->id, (unsigned)(w - s->w), st, now, w->ready_at);
}
#define WARP_TRACE(s, w, now) do { if (TRACE_ON(TW_WARPS)) warp_traced(s, w, now); } while (0)

#define FILL_WARP UINT32_MAX

void ring_init(struct ring *r, uint32_t cap)
{
    *r = (struct ring){ .q = xcalloc(cap, sizeof *r->q), .cap = cap };
}

void ring_free(struct ring *r) { free(r->q); r->q = NULL; }

void ring_push(struct sm *s, struct ring *r, struct mem_req *m)
{
    SIM_ASSERT(r->n < r->cap, s->name, engine_now(s->comp.eng), "outbound ring overflow");
    uint32_t t = r->head + r->n++;
    if (t >= r->cap) t -= r->cap;
    r->q[t] = m;
}

static void barrier_release(struct sm *s, struct block_slot *b)
{
    if (!b->at_barrier || b->at_barrier < b->live) return;
    uint32_t slot = (uint32_t)(b - s->b);
    for (uint32_t i = 0; i < s->gpu->max_warps; i++)
        if (s->w[i].st == W_BARRIER && s->w[i].block == slot) {
            warp_set(s, &s->w[i], W_READY);
            WARP_TRACE(s, &s->w[i], engine_now(s->comp.eng));
        }
    b->at_barrier = 0;
    sm_issue_wake(s);
}

/* Barrier or exit, once the warp's memory instructions are answered (a
 * barrier makes the block's earlier global accesses visible; an exiting
 * warp's stores must complete before its block retires). */
static void sync_inst(struct sm *s, struct warp *w, sim_time now)
{
    struct block_slot *b = &s->b[w->block];
    w->held = false;
    if (w->inst.op == INST_BARRIER) {
        warp_set(s, w, W_BARRIER);
        WARP_TRACE(s, w, now);
        b->at_barrier++;
        barrier_release(s, b);
        if (s->gpu->to) oversub_check(s, b, now);
        return;
    }
    warp_set(s, w, W_DONE);
    WARP_TRACE(s, w, now);
    b->live--;
    engine_progress(s->comp.eng);
    barrier_release(s, b);
    if (!b->live) retire_block(s, b, now);
    else if (s->gpu->to) oversub_check(s, b, now);
}

void warp_mem_done(struct sm *s, struct warp *w, struct minst *m, sim_time now)
{
    m->used = false;
    w->outstanding--;
    engine_progress(s->comp.eng);
    if (w->held) { if (!w->outstanding) sync_inst(s, w, now); }
    else if (w->st == W_MEM) { warp_set(s, w, W_READY); sm_issue_wake(s); }
    WARP_TRACE(s, w, now);
}

void warp_fault_change(struct sm *s, struct warp *w, int delta, sim_time now)
{
    bool was = w->nfault != 0;
    w->nfault = (uint32_t)((int)w->nfault + delta);
    if (was == (w->nfault != 0)) return;
    fault_warps_change(s, was ? -1 : +1, now);
    if (w->st == W_MEM) s->nfault_mem += was ? (uint32_t)-1 : 1;
    if (s->gpu->to) oversub_fault(s, w, was ? -1 : +1, now);
}

/* ---- the SM's set of faulted pages (at most FSET_MAX; beyond that a
 * late warp is accounted as waiting on memory, not on the fault) ---- */

static int fset_find(const struct sm *s, uint64_t vpn)
{
    if (!s->fcount[vpn_bucket(vpn, 8)]) return -1;  /* no faulted page there */
    for (uint32_t i = 0; i < s->nfv; i++) if (s->fvpn[i] == vpn) return (int)i;
    return -1;
}

static void fset_add(struct sm *s, uint64_t vpn)
{
    if (s->nfv < FSET_MAX && fset_find(s, vpn) < 0) {
        s->fvpn[s->nfv++] = vpn;
        s->fcount[vpn_bucket(vpn, 8)]++;
    }
}

static void fset_remove(struct sm *s, uint64_t vpn)
{
    int i = fset_find(s, vpn);
    if (i < 0) return;
    s->fvpn[i] = s->fvpn[--s->nfv];
    s->fcount[vpn_bucket(vpn, 8)]--;
}

/* ---- pages in translation, chained per vpn bucket ---- */

static uint32_t page_node(const struct sm *s, const struct warp *w, uint32_t mi, uint32_t p)
{
    return ((uint32_t)(w - s->w) * s->gpu->max_outstanding + mi) * COAL_MAX + p;
}

static void page_link(struct sm *s, uint32_t node, uint64_t vpn)
{
    uint32_t *h = &s->phead[vpn_bucket(vpn, s->pbits)];
    s->pprev[node] = PNIL;
    s->pnext[node] = *h;
    if (*h != PNIL) s->pprev[*h] = node;
    *h = node;
}

static void page_unlink(struct sm *s, uint32_t node, uint64_t vpn)
{
    uint32_t n = s->pnext[node], p = s->pprev[node];
    if (p != PNIL) s->pnext[p] = n;
    else s->phead[vpn_bucket(vpn, s->pbits)] = n;
    if (n != PNIL) s->pprev[n] = p;
}

static void mark_faulted(struct sm *s, struct warp *w, struct minst *m, uint32_t p,
                         sim_time now)
{
    m->page_state[p] = PG_FAULTED;
    warp_fault_change(s, w, +1, now);
    WARP_TRACE(s, w, now);
}

static void mem_issue(struct sm *s, struct warp *w, sim_time now)
{
    struct gpu *g = s->gpu;
    uint32_t mi = 0;
    while (w->mi[mi].used) mi++;
    struct minst *m = &w->mi[mi];
    const struct warp_inst *in = &w->inst;
    m->used = true;
    m->access = in->op == INST_LOAD ? REQ_LOAD : in->op == INST_STORE ? REQ_STORE : REQ_ATOMIC;
    m->bypass = g->l1_bypass_all || (in->flags & INST_F_BYPASS_L1);
    m->inst = w->nmem++;
    m->done_at = 0;
    gpu_coalesce(in->addr, in->active, in->size, &m->c);
    m->pending = m->c.npages + m->c.nlines;
    uint32_t wi = (uint32_t)(w - s->w);
    for (uint32_t p = 0; p < m->c.npages; p++) {
        m->page_state[p] = PG_XLATE;
        page_link(s, page_node(s, w, mi, p), m->c.page_vpn[p]);
        if (s->nfv && fset_find(s, m->c.page_vpn[p]) >= 0) mark_faulted(s, w, m, p, now);
        struct mem_req *r = req_alloc(g->pool);
        r->kind = REQ_XLATE;
        r->xflags = 0;                  /* no request-side flag (mem_req.h) */
        r->access = m->access;
        r->vaddr = m->c.page_vpn[p] << PAGE_SHIFT;
        r->sm = (uint16_t)s->id;
        r->warp = wi;
        r->slot = mi << 8 | p;
        r->t_issue = now;
        r->reply = &s->xlate_resp;
        ring_push(s, &s->xq, r);
    }
    *g->mem_insts += 1;
    g->v.mem_insts[s->id] += 1;
    *g->xlates += m->c.npages;
    *g->lines += m->c.nlines;
    *g->sectors += m->c.nsectors;
    stat_hist_add(g->lines_per_inst, m->c.nlines);
    stat_hist_add(g->pages_per_inst, m->c.npages);
    w->outstanding++;
    warp_set(s, w, w->outstanding < g->max_outstanding ? W_READY : W_MEM);
    if (!m->pending) warp_mem_done(s, w, m, now);
}

static void issue(struct sm *s, struct scheduler *k, struct warp *w, sim_time now)
{
    struct gpu *g = s->gpu;
    sim_time p = s->comp.dom->period;
    w->inst.flags = w->inst.issue_cycles = w->inst.cycles = 0;
    wl_next_inst(g->wl, &w->ctx, &w->inst);
    *g->warp_insts += 1;
    g->v.insts[s->id] += 1;
    g->k_insts++;
    if (k->busy_until < now + p) k->busy_until = now + p;
    switch (w->inst.op) {
    case INST_COMPUTE: {
        /* `issue_cycles` hold the scheduler (e.g. a 32-lane op on a 16-wide
         * Fermi unit issues in 2 cycles); the warp is ready again after
         * `cycles` (its dependent-issue latency), never before the issue. */
        sim_time ic = w->inst.issue_cycles ? w->inst.issue_cycles : 1;
        sim_time lat = w->inst.cycles > ic ? w->inst.cycles : ic;
        if (k->busy_until < now + ic * p) k->busy_until = now + ic * p;
        w->ready_at = now + lat * p;
        warp_set(s, w, W_PIPE);
        break;
    }
    case INST_LOAD: case INST_STORE: case INST_ATOMIC:
        mem_issue(s, w, now);
        break;
    case INST_BARRIER: case INST_EXIT:
        if (w->outstanding) { w->held = true; warp_set(s, w, W_MEM); }
        else sync_inst(s, w, now);
        break;
    }
    WARP_TRACE(s, w, now);
}

/* ---- answers ---- */

static void page_translated(struct sm *s, struct warp *w, struct minst *m,
                            uint32_t p, sim_time now)
{
    page_unlink(s, page_node(s, w, (uint32_t)(m - w->mi), p), m->c.page_vpn[p]);
    if (m->page_state[p] == PG_FAULTED) {
        if (TRACE_ON(TW_FAULTS))
            trace_replay_warp(s->id, (unsigned)(w - s->w), m->c.page_vpn[p], now, s->comp.dom->period);
        fset_remove(s, m->c.page_vpn[p]);
        warp_fault_change(s, w, -1, now);
    }
    m->page_state[p] = PG_DONE;
    WARP_TRACE(s, w, now);
}

static void translated(struct sm *s, struct mem_req *r, sim_time now)
{
    struct warp *w = &s->w[r->warp];
    uint32_t mi = r->slot >> 8, p = r->slot & 0xff;
    struct minst *m = &w->mi[mi];
    bool held;
    uint8_t flags = selcache_page_flags(s, r, &held, now);
    if (held) return;                   /* a protection fault holds it */
    page_translated(s, w, m, p, now);
    if (s->gpu->ref_fn) {
        struct gpu_ref ref = { w->ctx.k->seq, w->ctx.block, m->inst, m->c.page_vpn[p], w->ctx.warp };
        s->gpu->ref_fn(s->gpu->ref_ctx, &ref);
    }
    uint64_t frame = r->paddr >> PAGE_SHIFT << PAGE_SHIFT;
    if (s->gpu->mem_now && !flags && fast_page_lines(s, w, m, p, frame, r->paddr, now)) {
        req_release(s->gpu->pool, r);
        if (--m->pending == 0) minst_answered(s, w, m, now);
        return;
    }
    for (uint32_t l = 0; l < m->c.nlines; l++) {
        if (m->c.line_page[l] != p) continue;
        struct mem_req *q = req_alloc(s->gpu->pool);
        q->kind = m->access;
        q->vaddr = m->c.line_addr[l];
        q->paddr = frame | (m->c.line_addr[l] & (PAGE_SIZE - 1));
        q->sector_mask = m->c.line_mask[l];
        q->size = sector_count(q->sector_mask) * SECTOR_SIZE;
        q->sm = (uint16_t)s->id;
        q->warp = r->warp;
        q->slot = mi << 8 | l;
        q->t_issue = now;
        q->reply = &s->mem_resp;
        q->xflags = flags;
        if (flags & LINE_NOCACHE) *s->gpu->sc.uncached += 1;
        if (!mq_push(&s->l1q, q, now, NULL))
            sim_panic(s->name, now, "L1D input queue full");
    }
    req_release(s->gpu->pool, r);
    if (--m->pending == 0) minst_answered(s, w, m, now);
}

/* sim.model fast: translation r of a GPU-homed page, looked up at t (now,
 * or the next cycle: xq_early), hits in the L1 TLB, answered at a later
 * time: the page is done and its lines are timed now from then on
 * (fast.c), instead of the answer waiting in xlate_resp for a tick of its
 * own.  Faulted pages and host-homed ones take the queue. */
static bool xlate_hit(struct sm *s, struct mem_req *r, sim_time t, sim_time now)
{
    struct gpu *g = s->gpu;
    struct warp *w = &s->w[r->warp];
    uint32_t mi = r->slot >> 8, p = r->slot & 0xff;
    struct minst *m = &w->mi[mi];
    sim_time at;
    if (m->page_state[p] != PG_XLATE || !g->xlate_hit(g->xlate_ctx, s->id, r, t, &at))
        return false;
    if ((r->paddr & PADDR_HOST) || at <= t) {
        if (!mq_push(&s->xlate_resp, r, at, NULL))
            sim_panic(s->name, now, "translation answer queue full");
        return true;
    }
    page_translated(s, w, m, p, at);
    if (g->ref_fn) {
        struct gpu_ref ref = { w->ctx.k->seq, w->ctx.block, m->inst, m->c.page_vpn[p], w->ctx.warp };
        g->ref_fn(g->ref_ctx, &ref);
    }
    fast_page_lines(s, w, m, p, r->paddr >> PAGE_SHIFT << PAGE_SHIFT, r->paddr, at);
    req_release(g->pool, r);
    if (--m->pending == 0) minst_answered(s, w, m, now);
    return true;
}

/* sim.model fast: the translations just issued are sent now as of the
 * next cycle, when the cycle model's next tick sends them (up to
 * gpu.sm.lsu_width, hits only, in order): that tick need not happen.
 * What is sent counts against the next cycle's width. */
static void xq_early(struct sm *s, sim_time now)
{
    sim_time t1 = now + s->comp.dom->period;
    uint32_t n = 0;
    while (n < s->gpu->lsu_width && s->xq.n && xlate_hit(s, ring_head(&s->xq), t1, now)) {
        ring_drop(&s->xq);
        n++;
    }
    s->xq_pre_t = t1;
    s->xq_pre_n = n;
}

void line_done(struct sm *s, struct mem_req *r, sim_time now)
{
    struct warp *w = &s->w[r->warp];
    struct minst *m = &w->mi[r->slot >> 8];
    req_release(s->gpu->pool, r);
    if (--m->pending == 0) minst_answered(s, w, m, now);
}

/* ---- the cycle ---- */

/* When warp w of scheduler k could issue, from its own readiness x (now +
 * one cycle for a W_READY warp, ready_at for a W_PIPE one): not before the
 * scheduler's port and the SM's shootdown block free, and after now. */
static inline sim_time issue_time(const struct sm *s, const struct scheduler *k,
                                  sim_time x, sim_time now, sim_time p)
{
    if (k->busy_until > x) x = k->busy_until;
    if (s->blocked_until > x) x = s->blocked_until;
    return x <= now ? now + p : x;
}

/* The earliest issue_time over scheduler k's W_READY and W_PIPE warps.
 * issue_time is monotone in x above now, so the earliest W_PIPE warp
 * stands for all of them unless one is past its ready time. */
static sim_time sched_issue_at(const struct sm *s, const struct scheduler *k,
                               sim_time now, sim_time p)
{
    const struct gpu *g = s->gpu;
    sim_time t = TIME_NEVER;
    const uint64_t *r = &s->rdy[(size_t)k->idx * g->bwords];
    for (uint32_t wd = 0; wd < g->bwords; wd++)
        if (r[wd]) { t = issue_time(s, k, now + p, now, p); break; }
    sim_time pm = s->pipe_min[k->idx];
    if (pm == TIME_NEVER) return t;
    if (pm > now) {
        sim_time u = issue_time(s, k, pm, now, p);
        return u < t ? u : t;
    }
    for (uint32_t wd = 0; wd < g->bwords; wd++)
        for (uint64_t m = s->pip[(size_t)k->idx * g->bwords + wd]; m; m &= m - 1) {
            uint32_t j = wd * 64 + (uint32_t)__builtin_ctzll(m);
            sim_time u = issue_time(s, k, s->w[k->idx + j * g->nsched].ready_at, now, p);
            if (u < t) t = u;
        }
    return t;
}

static sim_time next_tick(struct sm *s, sim_time now, bool xq_blocked)
{
    const struct gpu *g = s->gpu;
    sim_time p = s->comp.dom->period, next = TIME_NEVER, issue = TIME_NEVER;
    for (uint32_t k = 0; k < g->nsched; k++) {
        sim_time t = sched_issue_at(s, &s->sch[k], now, p);
        if (t < issue) issue = t;
    }
    if (s->pf_blocked) issue = TIME_NEVER;      /* until a protection fault ends */
    if (s->throttled) issue = TIME_NEVER;       /* until it runs again (throttle.c) */
    s->issue_at = issue;
    next = issue;
    if (mq_peek(&s->l1q, now) || (s->xq.n && !xq_blocked)) return now + p;
    if (s->oq.n) {
        sim_time t = s->xbar_free > now + p ? s->xbar_free : now + p;
        if (t < next) next = t;
    }
    const struct mq *qs[] = { &s->l1q, &s->mem_resp, &s->xlate_resp };
    for (int i = 0; i < 3; i++)
        if (mq_next_ready(qs[i]) < next) next = mq_next_ready(qs[i]);
    return next;
}

sim_time sm_tick(struct component *c, sim_time now)
{
    struct sm *s = (struct sm *)c;
    struct gpu *g = s->gpu;
    struct mem_req *r;
    stall_account(s, now);
    if (s->fdone.n) fast_due(s, now);   /* sim.model fast only */
    while ((r = mq_pop(&s->xlate_resp, now))) translated(s, r, now);
    while ((r = mq_pop(&s->mem_resp, now))) {
        if (r->warp == FILL_WARP) l1d_answer(s, r, now);
        else line_done(s, r, now);
    }
    for (uint32_t i = 0; i < g->l1_ports && (r = mq_peek(&s->l1q, now)); i++) {
        bool stalled;
        l1d_access(s, r, now, &stalled);
        if (stalled) break;
        mq_pop(&s->l1q, now);
    }
    bool xq_blocked = false;
    uint32_t width = g->lsu_width - (s->xq_pre_t == now ? s->xq_pre_n : 0);
    for (uint32_t i = 0; i < width && s->xq.n; i++) {
        struct mem_req *x = ring_head(&s->xq);
        if (g->xlate_hit && xlate_hit(s, x, now, now)) { ring_drop(&s->xq); continue; }
        if (!(g->xlate_now && g->xlate_now(g->xlate_ctx, s->id, x, now)) &&
            !mq_push(s->xlate_out, x, now, c)) { xq_blocked = true; break; }
        ring_drop(&s->xq);
    }
    xbar_send(s, now);
    bool issued = false;
    /* Ticks for memory traffic alone skip the scheduler scan. */
    if (now >= s->blocked_until && now >= s->issue_at && !s->pf_blocked && !s->throttled) {
        sim_time p = c->dom->period;
        for (uint32_t k = 0; k < g->nsched; k++) {
            struct scheduler *sk = &s->sch[k];
            if (sk->busy_until > now) continue;
            for (uint32_t i = 0; i < g->issue_width; i++) {
                struct warp *w = g->sched->pick(s, sk, now);
                if (!w) break;
                issue(s, sk, w, now);
                issued = true;
                if (sk->busy_until > now + p) break;    /* multi-cycle issue */
            }
        }
    }
    if (g->xlate_hit && s->xq.n && !xq_blocked) xq_early(s, now);
    sim_time next = next_tick(s, now, xq_blocked);
    if (s->fdone.n && s->fdone.e[0].t < next) next = s->fdone.e[0].t;   /* fast */
    stall_decide(s, issued, now, next);
    return next;
}

static const char *wstate_name(const struct warp *w)
{
    static const char *const n[] = {"free", "ready", "pipeline", "memory", "barrier", "done"};
    return w->st == W_MEM && w->nfault ? "fault" : n[w->st];
}

void sm_dump(struct component *c, FILE *out)
{
    struct sm *s = (struct sm *)c;
    fprintf(out, "    %u blocks (%u active), %u warps resident; %u translations and "
            "%u line requests waiting for a port; %u L1D MSHRs in use\n",
            s->res_blocks, s->active_blocks, s->res_warps, s->xq.n, s->oq.n,
            s->l1.mshr_used);
    for (uint32_t i = 0; i < s->gpu->max_warps; i++) {
        const struct warp *w = &s->w[i];
        if (w->st == W_FREE || w->st == W_DONE || w->st == W_READY) continue;
        fprintf(out, "    warp %u (block %llu, warp %u): %s", i,
                (unsigned long long)w->ctx.block, w->ctx.warp, wstate_name(w));
        for (uint32_t j = 0; j < s->gpu->max_outstanding; j++) {
            const struct minst *m = &w->mi[j];
            if (!m->used) continue;
            fprintf(out, "; %u outstanding of %u pages / %u lines, first page %#llx",
                    m->pending, m->c.npages, m->c.nlines,
                    (unsigned long long)(m->c.npages ? m->c.page_vpn[0] : 0));
        }
        fputc('\n', out);
    }
}

/* SM `sm`'s uTLB raised a fault for vpn.  Its warps waiting on vpn become
 * fault-stalled: requests of other warps may have merged into the same
 * TLB miss, or wait behind it.  They are found in the chain of vpn's
 * bucket of pages in translation (the order of marking is immaterial: it
 * only counts).  Other SMs raise their own faults (one entry per uTLB), so
 * only this SM is looked at. */
void gpu_note_fault(void *gpu, unsigned sm, uint64_t vpn, sim_time now)
{
    struct gpu *g = gpu;
    g->v.faults[sm] += 1;
    struct sm *s = &g->sm[sm];
    bool waits = false;
    for (uint32_t n = s->phead[vpn_bucket(vpn, s->pbits)]; n != PNIL; n = s->pnext[n]) {
        uint32_t p = n % COAL_MAX, slot = n / COAL_MAX;
        struct warp *w = &s->w[slot / g->max_outstanding];
        struct minst *m = &w->mi[slot % g->max_outstanding];
        if (m->c.page_vpn[p] != vpn) continue;
        waits = true;                   /* in the chain: not PG_DONE */
        if (m->page_state[p] == PG_XLATE) mark_faulted(s, w, m, p, now);
    }
    if (waits) fset_add(s, vpn);
}

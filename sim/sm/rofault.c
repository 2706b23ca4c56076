/* Promiscuous read-only caching (thesis Sec. 6.2.3, 6.3): at every kernel
 * launch the runtime speculatively marks every page homed in host memory
 * read-only (Sec. 6.3: "we initially mark all the pages (4kB in our system)
 * in DDR as read-only upon GPU kernel launch"), and lines of read-only host
 * pages may be cached by the GPU like any.  A GPU write (store or atomic)
 * to such a page raises a protection fault: the GPU MMU interrupts the CPU,
 * whose handler marks the page read-write -- uncacheable, for the rest of
 * the kernel ("pages marked read-write are never re-marked read-only during
 * GPU kernel execution") -- and shoots down the stale translations and
 * cached lines; then the write re-executes (its translation is looked up
 * again) and goes over the link uncached.
 *
 * Timing: the fault's unloaded latency is gpu.caching.ro_fault_latency
 * (20 us measured on Maxwell; 20-40 us evaluated, Fig. 6.7), faults
 * overlapping freely.  Only the warps whose writes touch the page wait:
 * the faulting one and any other writing to it meanwhile (they attach to
 * the pending fault; reads of the page go on).  An SM has at most
 * gpu.sm.max_prot_faults pending faults of its own (Table 6.3: 16); a
 * 17th blocks the SM -- no warp issues -- until one of its faults is over
 * (Sec. 6.3: "a seventeenth fault blocks the SM from making forward
 * progress on any warp").  RO-ZeroCost (gpu.caching.ro_zero_cost): the
 * transition costs nothing, the write goes on at once, uncached.
 *
 * State: a map from host page to the kernel in which it became read-write
 * (a page is read-only unless the entry is the running kernel's, so a
 * launch re-marks every page without touching the map), and a map from
 * page to its pending fault; both sized once from the workload's
 * footprint and the SMs' fault slots. */
#include <stdlib.h>
#include <string.h>
#include "sm_internal.h"
#include "config/config.h"
#include "core/stats.h"
#include "workloads/workload.h"

struct pfault {
    uint64_t page;              /* host page number */
    unsigned sm;                /* the SM that raised it */
    struct mem_req *head, *tail;/* held translations (->next; r->sm their SM) */
};

struct rofault {
    sim_time latency;
    bool zero_cost;
    bool remark;                /* gpu.caching.ro_remark launch */
    uint32_t max;               /* pending faults per SM */
    struct idxmap rw;           /* host page -> kernel seq + 1 it became read-write in */
    struct idxmap pend;         /* host page -> pending fault */
    struct pfault *pf;
    uint32_t *free, nfree;
    uint32_t *npend;            /* per SM: its pending faults */
    struct mem_req **qh, **qt;  /* per SM: writes waiting for a fault slot */
    sim_time *blocked_at;
    struct idxmap pages;        /* page -> 1 touched, 3 written (Fig. 6.3) */
    void (*flush)(void *ctx, uint64_t pa);
    void *flush_ctx;
    uint64_t *faults, *waits, *rw_pages, *blocks, *blocked_ps, *touched, *written;
};

static inline uint64_t host_page(uint64_t pa) { return (pa & ~PADDR_HOST) >> PAGE_SHIFT; }

static bool is_rw(const struct gpu *g, uint64_t page)
{
    uint32_t k = idxmap_get(&g->ro->rw, page);
    return g->ro->remark ? k == (uint32_t)(g->k.seq + 1) : k != IDXMAP_NONE;
}

/* The page becomes read-write: its cached lines go (the shootdown). */
static void make_rw(struct gpu *g, uint64_t page)
{
    struct rofault *f = g->ro;
    idxmap_put(&f->rw, page, (uint32_t)(g->k.seq + 1));
    *f->rw_pages += 1;
    uint64_t pa = PADDR_HOST | page << PAGE_SHIFT;
    gpu_invalidate_frame(g, pa);
    if (f->flush) f->flush(f->flush_ctx, pa);
}

/* Re-execute a held write: its translation is looked up again. */
static void resend(struct gpu *g, struct mem_req *r, sim_time now)
{
    struct sm *s = &g->sm[r->sm];
    r->next = NULL;
    r->paddr = 0;
    r->xflags = 0;
    r->t_issue = now;
    ring_push(s, &s->xq, r);
    comp_wake(&s->comp, now);
}

static void fault_done(void *obj, uint64_t slot, sim_time now);

static void hold(struct pfault *p, struct mem_req *r)
{
    r->next = NULL;
    if (p->tail) p->tail->next = r;
    else p->head = r;
    p->tail = r;
}

/* Write r of SM s to read-only page `page`: attach to its pending fault,
 * raise one, or wait for a slot (blocking the SM). */
static void fault(struct sm *s, struct mem_req *r, uint64_t page, sim_time now)
{
    struct gpu *g = s->gpu;
    struct rofault *f = g->ro;
    uint32_t i = idxmap_get(&f->pend, page);
    if (i != IDXMAP_NONE) {
        *f->waits += 1;
        hold(&f->pf[i], r);
        return;
    }
    if (f->npend[s->id] == f->max) {
        /* No slot: the SM stops issuing until one of its faults is over. */
        r->next = NULL;
        if (f->qt[s->id]) f->qt[s->id]->next = r;
        else f->qh[s->id] = r;
        f->qt[s->id] = r;
        if (!s->pf_blocked) {
            s->pf_blocked = true;
            f->blocked_at[s->id] = now;
            *f->blocks += 1;
        }
        return;
    }
    SIM_ASSERT(f->nfree, s->name, now, "no protection-fault slot left");
    i = f->free[--f->nfree];
    f->pf[i] = (struct pfault){ .page = page, .sm = s->id };
    hold(&f->pf[i], r);
    idxmap_put(&f->pend, page, i);
    f->npend[s->id]++;
    *f->faults += 1;
    engine_at(g->eng, now + f->latency, g->dom, fault_done, g, i);
}

static void fault_done(void *obj, uint64_t slot, sim_time now)
{
    struct gpu *g = obj;
    struct rofault *f = g->ro;
    struct pfault *p = &f->pf[slot];
    idxmap_del(&f->pend, p->page);
    make_rw(g, p->page);
    for (struct mem_req *r = p->head, *n; r; r = n) {
        n = r->next;
        resend(g, r, now);
    }
    f->free[f->nfree++] = (uint32_t)slot;
    struct sm *s = &g->sm[p->sm];
    f->npend[s->id]--;
    engine_progress(g->eng);
    /* Writes waiting for a slot take it, in order, while there is one. */
    while (f->qh[s->id] && f->npend[s->id] < f->max) {
        struct mem_req *r = f->qh[s->id];
        f->qh[s->id] = r->next;
        if (!f->qh[s->id]) f->qt[s->id] = NULL;
        uint64_t page = host_page(r->paddr);
        if (is_rw(g, page)) resend(g, r, now);
        else fault(s, r, page, now);
    }
    if (s->pf_blocked && !f->qh[s->id]) {
        s->pf_blocked = false;
        *f->blocked_ps += now - f->blocked_at[s->id];
        sm_issue_wake(s);
        comp_wake(&s->comp, now);
    }
}

uint8_t rofault_page(struct sm *s, struct mem_req *r, bool *held, sim_time now)
{
    struct gpu *g = s->gpu;
    struct rofault *f = g->ro;
    struct warp *w = &s->w[r->warp];
    struct minst *m = &w->mi[r->slot >> 8];
    bool write = m->access != REQ_LOAD;
    /* Fig. 6.3: 4 KB pages touched and written, all memories, whole run. */
    uint64_t vpn = m->c.page_vpn[r->slot & 0xff];
    uint32_t seen = idxmap_get(&f->pages, vpn), now_seen = write ? 3 : 1;
    if (seen == IDXMAP_NONE || (now_seen & ~seen)) {
        if (seen == IDXMAP_NONE) { *f->touched += 1; seen = 0; }
        if (write && !(seen & 2)) *f->written += 1;
        idxmap_put(&f->pages, vpn, seen | now_seen);
    }
    *held = false;
    if (!(r->paddr & PADDR_HOST)) return 0;
    uint64_t page = host_page(r->paddr);
    if (is_rw(g, page)) return LINE_NOCACHE;
    if (!write) return 0;                   /* read-only: cacheable */
    if (f->zero_cost) {
        make_rw(g, page);
        return LINE_NOCACHE;
    }
    /* The warp waits on a fault (it may already, on a far fault of the
     * page whose translation this is: it stays stalled, once). */
    if (m->page_state[r->slot & 0xff] != PG_FAULTED) {
        m->page_state[r->slot & 0xff] = PG_FAULTED;
        warp_fault_change(s, w, +1, now);
    }
    fault(s, r, page, now);
    *held = true;
    return 0;
}

void gpu_set_prot_flush(struct gpu *g, void (*fn)(void *ctx, uint64_t pa), void *ctx)
{
    if (!g->ro) return;
    g->ro->flush = fn;
    g->ro->flush_ctx = ctx;
}

void rofault_create(struct gpu *g, const struct config *cfg, struct stats *st)
{
    struct rofault *f = xcalloc(1, sizeof *f);
    f->latency = cfg_u64(cfg, "gpu.caching.ro_fault_latency");
    f->zero_cost = cfg_bool(cfg, "gpu.caching.ro_zero_cost");
    f->remark = cfg_is(cfg, "gpu.caching.ro_remark", "launch");
    f->max = (uint32_t)cfg_u64(cfg, "gpu.sm.max_prot_faults");
    uint64_t pages = g->wl->footprint / PAGE_SIZE + 64;
    if (pages > UINT32_MAX / 4) user_error("gpu.caching.remote readonly: footprint too large");
    idxmap_init(&f->rw, (uint32_t)pages);
    idxmap_init(&f->pages, (uint32_t)pages);
    uint32_t slots = g->nsms * f->max;
    idxmap_init(&f->pend, slots);
    f->pf = xcalloc(slots, sizeof *f->pf);
    f->free = xmalloc(slots * sizeof *f->free);
    for (uint32_t i = 0; i < slots; i++) f->free[i] = slots - 1 - i;
    f->nfree = slots;
    f->npend = xcalloc(g->nsms, sizeof *f->npend);
    f->qh = xcalloc(g->nsms, sizeof *f->qh);
    f->qt = xcalloc(g->nsms, sizeof *f->qt);
    f->blocked_at = xcalloc(g->nsms, sizeof *f->blocked_at);
    f->faults = stat_counter(st, "gpu.caching.prot_faults", "faults",
                             "protection faults raised by GPU writes to read-only host pages");
    f->waits = stat_counter(st, "gpu.caching.prot_fault_waits", "requests",
                            "writes that waited on a protection fault already pending for "
                            "their page");
    f->rw_pages = stat_counter(st, "gpu.caching.rw_pages", "pages",
                               "host pages made read-write (uncacheable) for the rest of a "
                               "kernel");
    f->blocks = stat_counter(st, "gpu.caching.prot_fault_blocks", "times",
                             "an SM with gpu.sm.max_prot_faults pending faults had another: "
                             "it stopped issuing");
    f->blocked_ps = stat_counter(st, "gpu.caching.prot_fault_blocked_ps", "ps",
                                 "time SMs spent blocked so, summed over SMs");
    f->touched = stat_counter(st, "gpu.caching.pages_touched", "pages",
                              "distinct 4 KiB pages the GPU accessed (thesis Fig. 6.3)");
    f->written = stat_counter(st, "gpu.caching.pages_written", "pages",
                              "of those, pages it wrote (the rest were read-only)");
    g->ro = f;
}

void rofault_free(struct gpu *g)
{
    struct rofault *f = g->ro;
    if (!f) return;
    /* Faults still pending when a run was cut short hold requests of the
     * pool, which frees them. */
    idxmap_free(&f->rw);
    idxmap_free(&f->pages);
    idxmap_free(&f->pend);
    free(f->pf);
    free(f->free);
    free(f->npend);
    free(f->qh);
    free(f->qt);
    free(f->blocked_at);
    free(f);
}

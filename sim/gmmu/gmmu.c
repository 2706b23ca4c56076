/* GMMU skeleton: a fixed-latency page walk (HPE Sec. III: single-level
 * table, 8-cycle walk) and a fault buffer that the driver drains.
 *
 * A walk that finds its page absent logs one fault-buffer entry (hardware
 * logs every faulting access, duplicates included; the driver coalesces) and
 * parks until the driver maps the page.  A full buffer stalls the walker
 * until the driver drains it: back-pressure, no fault is lost.  Defaults:
 * 1024 entries (batch-aware paper Table 1); interrupt latency 0, since the
 * HPE paper's 20 us fault time covers the whole round trip. */
#include <stdlib.h>
#include "gmmu.h"
#include "page_table.h"
#include "../config.h"
#include "../stats.h"

struct gmmu {
    struct component comp;
    struct mq walk_in;          /* queue latency = walk latency */
    struct page_table pt;
    struct fault_entry *fb;     /* ring */
    uint32_t fb_cap, fb_head, fb_n;
    struct component *driver;
    gmmu_fault_hook fault_hook;
    void *fault_ctx;
    sim_time irq_latency;
    bool stalled;               /* head walk waits for fault-buffer space */
    uint64_t parked;            /* walks waiting on faults */
    uint64_t *walks, *faults, *fb_full, *dirty_sets;
    struct stat_avg *fault_wait;
};

const struct cfg_key gmmu_config_keys[] = {
    {"gmmu.walk_latency", CFG_INT, "8", 0, 100000, NULL,
     "page walk latency in core cycles (HPE Sec. III: fixed 8 cycles)"},
    {"gmmu.fault_buffer.entries", CFG_INT, "1024", 1, 1048576, NULL,
     "fault buffer entries (batch-aware paper Table 1)"},
    {"gmmu.interrupt_latency", CFG_TIME, "0ns", 0, 1e12, NULL,
     "from a fault being logged to the driver thread waking"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void answer(struct gmmu *g, struct mem_req *r, const struct pte *p,
                   sim_time now)
{
    r->paddr = p->pfn << PAGE_SHIFT;
    if (!mq_push(r->reply, r, now, NULL))
        sim_panic("gmmu", now, "reply queue '%s' full", r->reply->name);
    (void)g;
}

/* false: the fault buffer is full and the walk must wait. */
static bool walk_one(struct gmmu *g, struct mem_req *r, sim_time now)
{
    struct pte *p = pt_get(&g->pt, page_of(r->vaddr));
    if (p->flags & PTE_PRESENT) {
        *g->walks += 1;
        if (r->access != REQ_LOAD && !(p->flags & PTE_DIRTY)) {
            p->flags |= PTE_DIRTY;
            *g->dirty_sets += 1;
        }
        answer(g, r, p, now);
        return true;
    }
    if (g->fb_n == g->fb_cap) {
        *g->fb_full += 1;
        return false;
    }
    *g->walks += 1;
    uint32_t tail = (g->fb_head + g->fb_n++) % g->fb_cap;
    g->fb[tail] = (struct fault_entry){ p->vpn, r->access, r->sm, now };
    *g->faults += 1;
    if (!p->waiters) p->t_fault = now;
    r->next = p->waiters;
    p->waiters = r;
    g->parked++;
    if (g->fault_hook) g->fault_hook(g->fault_ctx, r->sm, p->vpn, now);
    if (g->driver) comp_wake_at(g->driver, now + g->irq_latency);
    return true;
}

static sim_time gmmu_tick(struct component *c, sim_time now)
{
    struct gmmu *g = (struct gmmu *)c;
    struct mem_req *r;
    g->stalled = false;
    while ((r = mq_peek(&g->walk_in, now))) {
        if (!walk_one(g, r, now)) {
            g->stalled = true;          /* gmmu_fetch_faults wakes us */
            return TIME_NEVER;
        }
        mq_pop(&g->walk_in, now);
    }
    return mq_next_ready(&g->walk_in);
}

static void gmmu_dump(struct component *c, FILE *out)
{
    struct gmmu *g = (struct gmmu *)c;
    fprintf(out, "    %u walks queued%s, %u faults in buffer, %llu walks parked on faults\n",
            g->walk_in.n, g->stalled ? " (stalled: fault buffer full)" : "",
            g->fb_n, (unsigned long long)g->parked);
    for (uint32_t i = 0; i < g->walk_in.n && i < 8; i++) req_dump(out, mq_at(&g->walk_in, i));
    for (uint32_t i = 0; i < g->fb_n && i < 16; i++) {
        const struct fault_entry *f = &g->fb[(g->fb_head + i) % g->fb_cap];
        fprintf(out, "    fault page %#llx %s sm %u at %llu ps\n",
                (unsigned long long)f->vpn, req_kind_name(f->access), f->sm,
                (unsigned long long)f->t);
    }
}

static const struct comp_ops gmmu_ops = { gmmu_tick, gmmu_dump };

struct gmmu *gmmu_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom)
{
    struct gmmu *g = xcalloc(1, sizeof *g);
    comp_init(&g->comp, e, &gmmu_ops, "gmmu", dom);
    mq_init(&g->walk_in, "gmmu.walk", 4096,
            cfg_u64(cfg, "gmmu.walk_latency") * dom->period, &g->comp);
    pt_init(&g->pt);
    g->fb_cap = (uint32_t)cfg_u64(cfg, "gmmu.fault_buffer.entries");
    g->fb = xcalloc(g->fb_cap, sizeof *g->fb);
    g->irq_latency = cfg_u64(cfg, "gmmu.interrupt_latency");
    g->walks = stat_counter(st, "gmmu.walks", "walks", "page walks completed");
    g->faults = stat_counter(st, "gmmu.faults", "faults",
                             "fault-buffer entries logged (duplicates included)");
    g->fb_full = stat_counter(st, "gmmu.fault_buffer_full", "cycles",
                              "walker stalls on a full fault buffer");
    g->dirty_sets = stat_counter(st, "gmmu.dirty_sets", "walks",
                                 "walks that set a PTE's dirty bit");
    g->fault_wait = stat_average(st, "gmmu.fault_wait", "ps",
                                 "from a page's first fault to its mapping, per faulted page");
    return g;
}

void gmmu_free(struct gmmu *g)
{
    if (!g) return;
    mq_free(&g->walk_in);
    pt_free(&g->pt);
    free(g->fb);
    free(g);
}

struct mq *gmmu_walk_in(struct gmmu *g) { return &g->walk_in; }
void gmmu_set_driver(struct gmmu *g, struct component *d) { g->driver = d; }
void gmmu_set_fault_hook(struct gmmu *g, gmmu_fault_hook fn, void *ctx)
{
    g->fault_hook = fn;
    g->fault_ctx = ctx;
}
size_t gmmu_faults_pending(const struct gmmu *g) { return g->fb_n; }

size_t gmmu_fetch_faults(struct gmmu *g, struct fault_entry *out, size_t max,
                         sim_time now)
{
    size_t n = 0;
    while (n < max && g->fb_n) {
        out[n++] = g->fb[g->fb_head];
        g->fb_head = (g->fb_head + 1) % g->fb_cap;
        g->fb_n--;
    }
    if (n && g->stalled) comp_wake_at(&g->comp, now);
    return n;
}

void gmmu_map(struct gmmu *g, uint64_t vpn, uint64_t pfn, sim_time now)
{
    struct pte *p = pt_get(&g->pt, vpn);
    SIM_ASSERT(!(p->flags & PTE_PRESENT), "gmmu", now,
               "page %#llx mapped twice", (unsigned long long)vpn);
    p->flags = PTE_PRESENT;
    p->pfn = pfn;
    if (p->waiters) stat_avg_add(g->fault_wait, (double)(now - p->t_fault));
    struct mem_req *r = p->waiters;
    p->waiters = NULL;
    while (r) {
        struct mem_req *n = r->next;
        r->next = NULL;
        g->parked--;
        /* The replayed access sets the dirty bit as a walk would. */
        if (r->access != REQ_LOAD) p->flags |= PTE_DIRTY;
        answer(g, r, p, now);
        r = n;
    }
    engine_progress(g->comp.eng);
}

bool gmmu_unmap(struct gmmu *g, uint64_t vpn, sim_time now)
{
    struct pte *p = pt_find(&g->pt, vpn);
    SIM_ASSERT(p && (p->flags & PTE_PRESENT), "gmmu", now,
               "unmap of non-resident page %#llx", (unsigned long long)vpn);
    bool dirty = p->flags & PTE_DIRTY;
    p->flags = 0;
    return dirty;
}

bool gmmu_is_resident(const struct gmmu *g, uint64_t vpn)
{
    const struct pte *p = pt_find(&g->pt, vpn);
    return p && (p->flags & PTE_PRESENT);
}

uint64_t gmmu_frame_of(const struct gmmu *g, uint64_t vpn)
{
    const struct pte *p = pt_find(&g->pt, vpn);
    SIM_ASSERT(p && (p->flags & PTE_PRESENT), "gmmu", engine_now(g->comp.eng),
               "frame of non-resident page %#llx", (unsigned long long)vpn);
    return p->pfn;
}

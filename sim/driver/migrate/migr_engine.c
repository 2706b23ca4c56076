/* The migration runtime of the thesis (Ch. V, Sec. 5.2.1): "The GPU
 * tracks candidate migration addresses by maintaining a ring buffer of
 * virtual addresses ... The runtime process on the CPU polls this ring
 * buffer, converts the address to the page aligned base address and
 * initiates migration using the standard Linux move_pages system call",
 * "no more than 4 concurrent page migrations"; candidates wait "in an
 * unbounded FIFO queue" (Sec. 5.2.2).
 *
 *   touch (hot path) --policy--> hint in the ring (driver.migrate.ring
 *   entries; a full ring drops it, and the page's next touch hints again)
 *   --poll (driver.migrate.poll)--> the trigger and its range expansion
 *   into the FIFO --at most `limit` at once (concurrency, or less under
 *   bandwidth balancing)--> a GPU frame, a 4 KiB H2D copy (the copy
 *   engine reads host DDR4 and crosses the link: link_dma) --landed-->
 *   its 32 lines written into GPU memory (migr_gddr.c) --written--> the
 *   remap: a TLB shootdown if tlb.shootdown.filter says the GPU may hold
 *   the translation (C cycles on every SM), the remote mapping and the
 *   page's host lines in the GPU caches dropped, the page mapped in GPU
 *   memory.  Until then every access is served from host memory (the
 *   page stays mapped remote: spec C.2.6 item 4).
 * The software costs of move_pages beyond its traffic and shootdown are
 * not modelled (spec C.2.6 item 3); there is no reverse migration
 * (Sec. 5.4.1).  Nothing starts after the program's last kernel. */
#include <stdlib.h>
#include <string.h>
#include "migrate.h"
#include "config/config.h"
#include "core/stats.h"
#include "gmmu/gmmu.h"
#include "tlb/tlb.h"
#include "link/link.h"
#include "dram/dram.h"

#define NO_MOVE UINT32_MAX

static sim_time migr_tick(struct component *c, sim_time now);
static void migr_dump(struct component *c, FILE *out);
static const struct comp_ops migr_comp_ops = { migr_tick, migr_dump };

struct migr *migr_engine_create(const struct migr_host *h, const struct migr_ops *ops,
                                const struct config *cfg, struct stats *st)
{
    struct migr *m = xcalloc(1, sizeof *m);
    m->host = *h;
    m->ops = ops;
    comp_init(&m->comp, h->eng, &migr_comp_ops, "migration", h->dom);
    m->threshold = (unsigned)cfg_u64(cfg, "driver.migrate.threshold");
    m->expand = (unsigned)cfg_u64(cfg, "driver.migrate.expand");
    m->concurrency = (unsigned)cfg_u64(cfg, "driver.migrate.concurrency");
    m->limit = m->concurrency;
    m->touch_walk = cfg_is(cfg, "driver.migrate.touch", "walk");
    m->poll = cfg_u64(cfg, "driver.migrate.poll");
    m->ring_cap = (uint32_t)cfg_u64(cfg, "driver.migrate.ring");
    m->poll_at = TIME_NEVER;
    m->n_pages = stat_counter(st, "migration.pages", "pages",
                              "pages migrated from host to GPU memory (copied, written, remapped)");
    m->n_sd = stat_counter(st, "migration.shootdowns", "pages",
                           "migrations whose remap was charged a TLB shootdown (tlb.shootdown.filter)");
    m->n_nosd = stat_counter(st, "migration.no_shootdown", "pages",
                             "migrations that needed no TLB shootdown (the GPU could not hold the page)");
    m->n_expand = stat_counter(st, "migration.expansion_pages", "pages",
                               "pages queued by range expansion (thesis Sec. 5.3)");
    m->n_triggers = stat_counter(st, "migration.triggers", "pages",
                                 "candidates the runtime took from the ring (threshold reached)");
    m->n_touches = stat_counter(st, "migration.touches", "touches",
                                "GPU touches of host-homed pages counted (driver.migrate.touch)");
    m->n_dropped = stat_counter(st, "migration.hints_dropped", "hints",
                                "hints lost to a full ring (the page hints again at its next touch)");
    m->n_queued = stat_counter(st, "migration.queued", "pages",
                               "pages waiting in the migration queue now (a level)");
    m->n_qpeak = stat_counter(st, "migration.queue_peak", "pages",
                              "longest the migration queue has been");
    m->n_refused = stat_counter(st, "migration.refused", "pages",
                                "pages not migrated: GPU memory was full");
    m->ddr_bytes = stat_counter(st, "migration.ddr_bytes", "bytes",
                                "host memory read by migrations (thesis Fig. 5.10's DDR migration)");
    m->gddr_bytes = stat_counter(st, "migration.gddr_bytes", "bytes",
                                 "GPU memory written by migrations (Fig. 5.10's GDDR migration)");
    m->pro_ps = stat_counter(st, "migration.prologue_ps", "ps",
                             "time the kernels waited for the copies before the first "
                             "(driver.migration memcpy)");
    if (ops->touch) {
        m->b.n_full = stat_counter(st, "migration.bwb.full_windows", "windows",
                                   "windows below target - band: full rate");
        m->b.n_half = stat_counter(st, "migration.bwb.half_windows", "windows",
                                   "windows within the band below target: half rate");
        m->b.n_off = stat_counter(st, "migration.bwb.off_windows", "windows",
                                  "windows above target: migrations suspended");
    }
    return m;
}

void migr_free(struct migr *m)
{
    if (!m) return;
    if (m->attached) migr_gddr_free(&m->w);
    free(m->count);
    free(m->state);
    free(m->ring);
    free(m->fifo);
    free(m->mv);
    free(m->bulk);
    free(m->runs);
    free(m->expbuf);
    free(m);
}

void migr_attach(struct migr *m, const struct config *cfg, const struct driver_mem *mem,
                 struct stats *st, uint64_t vpn0, uint64_t npages)
{
    SIM_ASSERT(!m->attached, "migration", 0, "attached twice");
    m->vpn0 = vpn0;
    m->npages = npages;
    size_t np = m->npages ? (size_t)m->npages : 1;
    m->count = xcalloc(np, 1);
    m->state = xcalloc(np, 1);
    m->fifo = xcalloc(np, sizeof *m->fifo);
    m->ring = xcalloc(m->ring_cap, sizeof *m->ring);
    m->mv_cap = m->concurrency ? m->concurrency : 1;
    m->mv = xcalloc(m->mv_cap, sizeof *m->mv);
    for (uint32_t i = 0; i < m->mv_cap; i++) m->mv[i].next = i + 1 < m->mv_cap ? i + 1 : NO_MOVE;
    m->mv_free = 0;
    m->expbuf = xcalloc(m->expand ? m->expand : 1, sizeof *m->expbuf);
    m->busy = mem->busy;
    m->busy_ctx = mem->busy_ctx;
    migr_gddr_init(&m->w, &m->comp, mem->gpu_port, mem->pool);
    if (m->ops->touch) migr_bwb_init(m, cfg, st, mem->gpu, mem->host, cfg_period(cfg, "gpu.clock"));
    m->attached = true;
}

bool migr_counts(const struct migr *m) { return m->ops->touch; }
bool migr_walks(const struct migr *m) { return migr_counts(m) && m->touch_walk; }

bool migr_alloc_of(const struct migr *m, uint64_t vpn, uint64_t *first, uint64_t *end)
{
    return m->host.alloc_of(m->host.ctx, vpn, first, end);
}

bool migr_may_queue(const struct migr *m, uint64_t vpn)
{
    uint64_t i = migr_index(m, vpn);
    return i != UINT64_MAX && !m->state[i] && gmmu_is_remote(m->host.gmmu, vpn);
}

void migr_enqueue(struct migr *m, uint64_t vpn)
{
    uint64_t i = migr_index(m, vpn);
    SIM_ASSERT(i != UINT64_MAX && !m->state[i], "migration", engine_now(m->comp.eng),
               "page %#llx queued twice or outside the footprint", (unsigned long long)vpn);
    /* A page enters once: npages slots never overflow. */
    m->fifo[(m->fifo_head + m->fifo_n++) % m->npages] = vpn;
    m->state[i] |= MS_QUEUED;
    *m->n_queued += 1;
    if (*m->n_queued > *m->n_qpeak) *m->n_qpeak = *m->n_queued;
}

/* ---- the GPU side: touches and the hint ring ---- */

void migr_touch(struct migr *m, uint64_t vpn)
{
    if (!m->ops->touch) return;
    uint64_t i = migr_index(m, vpn);
    /* A migrated page's stragglers (requests sent before its remap). */
    if (i == UINT64_MAX || (m->state[i] & MS_DONE)) return;
    *m->n_touches += 1;
    if (!m->ops->touch(m, i)) return;
    if (m->ring_n == m->ring_cap) {
        *m->n_dropped += 1;
        m->count[i]--;            /* not a candidate yet: the next touch hints again */
        return;
    }
    m->ring[(m->ring_head + m->ring_n++) % m->ring_cap] = vpn;
    if (m->poll_at == TIME_NEVER) {
        m->poll_at = engine_now(m->comp.eng) + m->poll;
        comp_wake_at(&m->comp, m->poll_at);
    }
}

/* The runtime takes a hint: the trigger first (the single-page mechanism
 * that range expansion "builds on", Sec. 5.3), then its neighbours
 * furthest first; pages queued, moving, migrated or not host-homed are
 * skipped (their place in the neighbourhood is not given to others). */
static void take_hint(struct migr *m, uint64_t vpn)
{
    *m->n_triggers += 1;
    if (migr_may_queue(m, vpn)) migr_enqueue(m, vpn);
    uint64_t first, end;
    if (!m->expand || !migr_alloc_of(m, vpn, &first, &end)) return;
    size_t n = migr_expand_order(vpn, first, end, m->expand, m->expbuf);
    for (size_t k = 0; k < n; k++)
        if (migr_may_queue(m, m->expbuf[k])) {
            migr_enqueue(m, m->expbuf[k]);
            *m->n_expand += 1;
        }
}

/* ---- the runtime: starting migrations, landing, remapping ---- */

void migr_hold(struct migr *m, uint64_t vpn, uint64_t pfn, sim_time now)
{
    /* No fault asked for it: a prefetch for the eviction bookkeeping. */
    m->host.frame_hold(m->host.ctx, pfn, vpn, now);
    m->state[migr_index(m, vpn)] |= MS_MOVING;
    *m->ddr_bytes += PAGE_SIZE;
}

static void landed(void *obj, uint64_t mv, sim_time now)
{
    struct migr *m = obj;
    engine_progress(m->comp.eng);          /* a page landed (watchdog) */
    migr_gddr_page(&m->w, m->mv[mv].pfn, (uint32_t)mv);
    comp_wake(&m->comp, now);
}

static void start(struct migr *m, uint64_t vpn, uint64_t pfn, sim_time now)
{
    uint32_t k = m->mv_free;
    SIM_ASSERT(k != NO_MOVE, "migration", now, "more than %u migrations at once", m->mv_cap);
    m->mv_free = m->mv[k].next;
    m->mv[k] = (struct migr_move){ vpn, pfn, LINE_PER_PAGE, NO_MOVE };
    migr_hold(m, vpn, pfn, now);
    m->active++;
    /* Host pages are identity-mapped: the copy reads the page's own
     * host address (drv_block.c). */
    link_dma(m->host.link, LINK_H2D, vpn << PAGE_SHIFT, PAGE_SIZE, now, landed, m, k);
}

void migr_kick(struct migr *m, sim_time now)
{
    const struct migr_host *h = &m->host;
    while (m->active < m->limit && m->fifo_n && !m->full) {
        if (m->busy && !m->busy(m->busy_ctx)) return;     /* the program is over */
        uint64_t vpn = m->fifo[m->fifo_head];
        m->fifo_head = (m->fifo_head + 1) % m->npages;
        m->fifo_n--;
        *m->n_queued -= 1;
        uint64_t i = migr_index(m, vpn);
        m->state[i] &= (uint8_t)~MS_QUEUED;
        /* Only this runtime maps host-homed pages elsewhere. */
        SIM_ASSERT(gmmu_is_remote(h->gmmu, vpn), "migration", now,
                   "queued page %#llx is no longer mapped remote", (unsigned long long)vpn);
        uint64_t pfn;
        if (!h->frame_take(h->ctx, &pfn)) {
            /* No reverse migration (Sec. 5.4.1): nothing makes room. */
            m->full = true;
            *m->n_refused += 1 + m->fifo_n;
            return;
        }
        start(m, vpn, pfn, now);
    }
}

/* The remap of a written page (move_pages' PTE update): the old
 * translation is shot down where the filter says the GPU may hold it
 * (spec C.2.2: "if the GPU may hold the translation: TLB shootdown"). */
static void remap(struct migr *m, uint64_t vpn, uint64_t pfn, sim_time now)
{
    const struct migr_host *h = &m->host;
    SIM_ASSERT(gmmu_is_remote(h->gmmu, vpn) && !gmmu_is_resident(h->gmmu, vpn), "migration", now,
               "page %#llx migrating but not (only) mapped remote", (unsigned long long)vpn);
    SIM_ASSERT(h->frame_vpn(h->ctx, pfn) == vpn, "migration", now,
               "frame %llu does not hold migrating page %#llx", (unsigned long long)pfn,
               (unsigned long long)vpn);
    bool shot = tlb_shootdown(h->tlb, vpn, now);
    *(shot ? m->n_sd : m->n_nosd) += 1;
    gmmu_unmap(h->gmmu, vpn, now);
    /* The page's lines cached under its host address are stale now: the
     * copy read them coherently, so they go without a write-back. */
    h->unmapped(h->ctx, PADDR_HOST | (vpn << PAGE_SHIFT), now);
    gmmu_map_page(h->gmmu, vpn, pfn, PAGE_SHIFT, 0, now);
    h->landed(h->ctx, vpn, pfn, now);
    m->state[migr_index(m, vpn)] = MS_DONE;
    *m->n_pages += 1;
    SIM_ASSERT(gmmu_is_resident(h->gmmu, vpn) && !gmmu_is_remote(h->gmmu, vpn), "migration", now,
               "page %#llx both resident and remote after its remap", (unsigned long long)vpn);
}

void migr_written(struct migr *m, uint32_t k, sim_time now)
{
    struct migr_move *mv = migr_move_at(m, k);
    remap(m, mv->vpn, mv->pfn, now);
    if (k & MV_BULK) {
        if (--m->pro_left == 0) migr_prologue_done(m, now);
        return;
    }
    mv->next = m->mv_free;
    m->mv_free = k;
    m->active--;
}

static sim_time migr_tick(struct component *c, sim_time now)
{
    struct migr *m = (struct migr *)c;
    migr_gddr_run(m, now);
    if (m->ring_n && now >= m->poll_at) {
        /* The poll: every hint in the ring, oldest first. */
        while (m->ring_n) {
            uint64_t vpn = m->ring[m->ring_head];
            m->ring_head = (m->ring_head + 1) % m->ring_cap;
            m->ring_n--;
            take_hint(m, vpn);
        }
        m->poll_at = TIME_NEVER;
    }
    migr_kick(m, now);
    /* The writer's answers and full channels wake us; so do landings. */
    return m->ring_n ? m->poll_at : TIME_NEVER;
}

static void migr_dump(struct component *c, FILE *out)
{
    const struct migr *m = (const struct migr *)c;
    fprintf(out, "    %s: %zu pages queued, %u of %u migrating, %u hints in the ring, "
            "%zu lines to write, %u writes out%s\n",
            m->ops->name, m->fifo_n, m->active, m->limit, m->ring_n, m->w.n, m->w.out,
            m->full ? ", GPU memory full" : "");
}

/* ---- the prologue (migr_memcpy.c) ---- */

bool migr_prologue(struct migr *m, driver_step_done done, void *ctx, sim_time now)
{
    if (!m->ops->prologue) return false;
    m->pro_done = done;
    m->pro_ctx = ctx;
    m->pro_start = now;
    return m->ops->prologue(m, now);
}

void migr_prologue_done(struct migr *m, sim_time now)
{
    *m->pro_ps = now - m->pro_start;
    free(m->bulk);
    free(m->runs);
    m->bulk = NULL;
    m->runs = NULL;
    m->nbulk = m->nruns = 0;
    m->pro_done(m->pro_ctx, now);
}

/* ---- the invariants ---- */

void migr_check(const struct migr *m, sim_time now)
{
    const struct migr_host *h = &m->host;
    if (!m->attached) return;
    uint64_t queued = 0, moving = 0;
    for (uint64_t i = 0; i < m->npages; i++) {
        uint64_t vpn = m->vpn0 + i;
        bool res = gmmu_is_resident(h->gmmu, vpn), rem = gmmu_is_remote(h->gmmu, vpn);
        SIM_ASSERT(!(res && rem), "migration", now, "page %#llx both resident and remote",
                   (unsigned long long)vpn);
        uint8_t s = m->state[i];
        if (s & MS_DONE) {
            SIM_ASSERT(s == MS_DONE && res && h->frame_vpn(h->ctx, gmmu_frame_of(h->gmmu, vpn)) == vpn,
                       "migration", now, "migrated page %#llx not resident in its frame",
                       (unsigned long long)vpn);
        } else if (s) {
            SIM_ASSERT(rem, "migration", now, "%s page %#llx not mapped remote",
                       s & MS_MOVING ? "moving" : "queued", (unsigned long long)vpn);
        }
        queued += (s & MS_QUEUED) != 0;
        moving += (s & MS_MOVING) != 0;
    }
    SIM_ASSERT(queued == m->fifo_n && queued == *m->n_queued, "migration", now,
               "%llu pages marked queued, %zu in the queue", (unsigned long long)queued, m->fifo_n);
    SIM_ASSERT(moving == m->active + m->pro_left, "migration", now,
               "%llu pages marked moving, %u migrations running",
               (unsigned long long)moving, m->active);
}

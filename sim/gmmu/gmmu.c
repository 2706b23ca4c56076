/* The GMMU: construction, configuration, and the driver's side (fault
 * buffer drain, mapping, protection, access-counter notifications).
 * The walker is walker.c, fault logging faults.c, HIR transfers
 * hir_xfer.c. */
#include <stdlib.h>
#include <string.h>
#include "gmmu_internal.h"
#include "config/config.h"
#include "core/stats.h"

const struct cfg_key gmmu_config_keys[] = {
    {"gmmu.walker.mode", CFG_ENUM, "fixed", 0, -1, "fixed|memory",
     "fixed: every walk takes gmmu.walk_latency (HPE Sec. III); memory: 4-level walk, PTE reads through GPU memory"},
    {"gmmu.walk_latency", CFG_INT, "8", 0, 100000, NULL,
     "fixed-mode page walk latency in core cycles (HPE Sec. III: 8 cycles)"},
    {"gmmu.walker.threads", CFG_INT, "64", 1, 65536, NULL,
     "concurrent page walks (batch-aware paper Sec. 5: 64, after Power et al.)"},
    {"gmmu.pwc.entries", CFG_INT, "1024", 0, 1048576, NULL,
     "page-walk cache entries for upper-level PTEs, memory mode (0: none; 8 KiB of 8 B entries)"},
    {"gmmu.pwc.assoc", CFG_INT, "16", 1, 1048576, NULL, "page-walk cache ways"},
    {"gmmu.pwc.latency", CFG_INT, "1", 0, 1000, NULL,
     "page-walk cache probe latency in core cycles, memory mode"},
    {"gmmu.fault_buffer.entries", CFG_INT, "1024", 1, 1048576, NULL,
     "fault buffer entries (batch-aware paper Table 1)"},
    {"gmmu.interrupt_latency", CFG_TIME, "5us", 0, 1e12, NULL,
     "from a fault entry being written to the driver's bottom half running: MSI, top half and "
     "kthread wake-up of uvm_gpu_isr.c, ~1 + ~4 us (docs/decisions.md); 0: the papers' 20 us covers it"},
    {"gmmu.hir.enabled", CFG_ENUM, "auto", 0, -1, "auto|true|false",
     "HIR cache beside the walker (HPE Sec. IV-B): auto turns it on when the eviction policy takes its records "
     "(driver.eviction=hpe with driver.evict.hpe.hit_feed=hir), else off (it costs link bandwidth)"},
    {"gmmu.hir.entries", CFG_INT, "1024", 1, 1048576, NULL, "HIR entries (HPE Sec. V-A: 1024)"},
    {"gmmu.hir.assoc", CFG_INT, "8", 1, 1048576, NULL, "HIR ways (HPE Sec. V-A: 8)"},
    {"gmmu.hir.set_pages", CFG_INT, "16", 1, 32, NULL,
     "pages per page set, a power of two (HPE Sec. V-A: 16)"},
    {"gmmu.hir.counter_bits", CFG_INT, "2", 1, 8, NULL,
     "bits of each page's saturating hit counter (HPE Sec. V-C: 2)"},
    {"gmmu.hir.transfer_faults", CFG_INT, "16", 1, 1000000, NULL,
     "HIR handed to the driver every Nth fault (HPE Sec. V-A: 16)"},
    {"gmmu.hir.record_bytes", CFG_INT, "10", 1, 4096, NULL,
     "link bytes per transferred HIR entry (HPE Sec. V-C: 80 bits)"},
    {"gmmu.hir.host_records", CFG_INT, "1024", 1, 16777216, NULL,
     "records the driver's host buffer holds (HPE Sec. V-C: 10 KB)"},
    {"gmmu.hir.drain", CFG_ENUM, "batch", 0, -1, "batch|landing",
     "when the driver takes landed HIR records: batch (as it fetches each fault batch; records finding the "
     "host buffer full are dropped) or landing (as each transfer lands, beside fault handling: HPE Sec. V-C's "
     "update is 'not on the critical path' and its 10 KB buffer holds one HIR's records; issue 42)"},
    {"gmmu.access_counters.enabled", CFG_BOOL, "true", 0, -1, NULL,
     "count accesses to remote memory and notify the driver (Volta+)"},
    {"gmmu.access_counters.granularity", CFG_SIZE, "64KiB", 4096, 2147483648.0, NULL,
     "bytes of remote memory per access counter, a power of two"},
    {"gmmu.access_counters.threshold", CFG_INT, "256", 1, 4294967295.0, NULL,
     "accesses that trigger a notification (NVIDIA UVM driver default: 256)"},
    {"gmmu.access_counters.buffer", CFG_INT, "1024", 1, 1048576, NULL,
     "notification buffer entries (full: notifications are dropped and counted)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static bool pow2(uint64_t x) { return x && !(x & (x - 1)); }

static uint32_t ways_of(const struct config *cfg, const char *ek, const char *ak)
{
    uint64_t e = cfg_u64(cfg, ek), a = cfg_u64(cfg, ak);
    if (a > e || e % a)
        user_error("%s (%llu) is not a multiple of %s (%llu)", ek,
                   (unsigned long long)e, ak, (unsigned long long)a);
    return (uint32_t)a;
}

static void register_stats(struct gmmu *g, struct stats *st)
{
    g->walks = stat_counter(st, "gmmu.walks", "walks", "page walks completed");
    g->walk_hits = stat_counter(st, "gmmu.walk_hits", "walks", "walks that found their page mapped");
    g->pte_reads = stat_counter(st, "gmmu.pte_reads", "reads", "page-table entry reads sent to memory");
    g->pwc_hits = stat_counter(st, "gmmu.pwc_hits", "walks", "walks that started below the root (page-walk cache hit)");
    g->faults = stat_counter(st, "gmmu.faults", "faults",
                             "fault-buffer entries logged (one per uTLB and page: duplicates across SMs included)");
    g->unique_faults = stat_counter(st, "gmmu.unique_faults", "faults",
                                    "pages' first entries while absent (what the HIR hand-over counts)");
    g->utlb_merges = stat_counter(st, "gmmu.utlb_merges", "hand-overs",
                                  "faulted accesses parked behind their uTLB's entry for the page (no new entry)");
    g->replays = stat_counter(st, "gmmu.replays", "signals", "replay signals from the driver");
    g->replayed = stat_counter(st, "gmmu.replayed_accesses", "accesses",
                               "parked accesses re-executed by replays (or released by a mapping)");
    g->refaults = stat_counter(st, "gmmu.refaults", "faults",
                               "entries logged again by replayed accesses whose page was still absent");
    g->flushed = stat_counter(st, "gmmu.flushed_faults", "faults",
                              "fault-buffer entries discarded by the driver (batch_flush)");
    g->prot_faults = stat_counter(st, "gmmu.protection_faults", "faults", "faults by writes to read-only pages");
    g->dirty_sets = stat_counter(st, "gmmu.dirty_sets", "walks", "walks that set a PTE's dirty bit");
    g->fb_occ = stat_counter(st, "gmmu.fault_buffer.occupancy", "entries",
                             "fault-buffer entries now (a level, sampled each epoch)");
    g->fb_max = stat_counter(st, "gmmu.fault_buffer.max_occupancy", "entries", "most fault-buffer entries at once");
    g->fb_waited = stat_counter(st, "gmmu.fault_buffer.waited", "faults", "faults that found the fault buffer full");
    g->fb_stall = stat_counter(st, "gmmu.fault_buffer.stall_cycles", "cycles",
                               "core cycles with a fault waiting for fault-buffer room (its SM's translation stopped)");
    g->hir_records = stat_counter(st, "gmmu.hir.records", "hits", "walk hits recorded in the HIR");
    g->hir_lost = stat_counter(st, "gmmu.hir.lost", "hits", "walk hits lost to HIR way conflicts");
    g->hir_xfers = stat_counter(st, "gmmu.hir.transfers", "transfers", "HIR contents handed to the driver");
    g->hir_bytes = stat_counter(st, "gmmu.hir.transfer_bytes", "bytes", "link bytes carrying HIR records");
    g->hir_dropped = stat_counter(st, "gmmu.hir.host_dropped", "records", "HIR records that found the driver's buffer full");
    g->ac_counted = stat_counter(st, "gmmu.access_counters.accesses", "accesses", "remote accesses counted");
    g->ac_notes = stat_counter(st, "gmmu.access_counters.notifications", "notifications", "threshold crossings notified to the driver");
    g->ac_dropped = stat_counter(st, "gmmu.access_counters.dropped", "notifications", "notifications lost to a full buffer");
    /* 256 bins from 1 cycle that widen with the data: a fixed latency
     * stays exact, walks through memory (~280 cycles a read) get 8- or
     * 16-cycle bins, a queueing tail widens them further (no overflow). */
    g->walk_lat = stat_histogram_ranging(st, "gmmu.walk_latency", "cycles",
                                         "from a walker taking a walk to its last read", 256, 1);
    g->walk_queue = stat_average(st, "gmmu.walk_queue_wait", "ps",
                                 "from the L2 TLB sending a walk to a walker taking it");
    g->fault_wait = stat_average(st, "gmmu.fault_wait", "ps",
                                 "from a page's first fault entry to its mapping, per faulted page");
}

struct gmmu *gmmu_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom)
{
    struct gmmu *g = xcalloc(1, sizeof *g);
    g->dom = dom;
    comp_init(&g->comp, e, &gmmu_walker_ops, "gmmu", dom);
    g->fixed = cfg_is(cfg, "gmmu.walker.mode", "fixed");
    g->fixed_lat = cfg_u64(cfg, "gmmu.walk_latency") * dom->period;
    g->nwalkers = (uint32_t)cfg_u64(cfg, "gmmu.walker.threads");
    g->slot = xcalloc(g->nwalkers, sizeof *g->slot);
    g->free_slot = xcalloc(g->nwalkers, sizeof *g->free_slot);
    g->busy = xcalloc(g->nwalkers, sizeof *g->busy);
    g->outq = xcalloc(g->nwalkers, sizeof *g->outq);
    for (uint32_t i = 0; i < g->nwalkers; i++) g->free_slot[g->nfree++] = g->nwalkers - 1 - i;
    uint32_t pwc_entries = (uint32_t)cfg_u64(cfg, "gmmu.pwc.entries");
    g->pwc_on = !g->fixed && pwc_entries;
    if (pwc_entries) pwc_init(&g->pwc, pwc_entries, ways_of(cfg, "gmmu.pwc.entries", "gmmu.pwc.assoc"));
    sim_time probe = g->fixed ? 0 : cfg_u64(cfg, "gmmu.pwc.latency") * dom->period;
    mq_init(&g->walk_in, "gmmu.walk", 65536, probe, &g->comp);
    mq_init(&g->mem_resp, "gmmu.pte", g->nwalkers, 0, &g->comp);
    pt_init(&g->pt);
    fp_init(&g->fpages);
    fb_init(&g->fb, (uint32_t)cfg_u64(cfg, "gmmu.fault_buffer.entries"));
    g->irq_latency = cfg_u64(cfg, "gmmu.interrupt_latency");
    g->hir_on = cfg_is(cfg, "gmmu.hir.enabled", "true");
    g->hir_auto = cfg_is(cfg, "gmmu.hir.enabled", "auto");
    uint32_t set_pages = (uint32_t)cfg_u64(cfg, "gmmu.hir.set_pages");
    if (!pow2(set_pages)) user_error("gmmu.hir.set_pages (%u) is not a power of two", set_pages);
    uint32_t hir_entries = (uint32_t)cfg_u64(cfg, "gmmu.hir.entries");
    hir_init(&g->hir, hir_entries, ways_of(cfg, "gmmu.hir.entries", "gmmu.hir.assoc"),
             set_pages, (uint32_t)cfg_u64(cfg, "gmmu.hir.counter_bits"));
    g->hir_tmp = xcalloc(hir_entries, sizeof *g->hir_tmp);
    g->host_cap = (uint32_t)cfg_u64(cfg, "gmmu.hir.host_records");
    g->host = xcalloc(g->host_cap, sizeof *g->host);
    g->hir_every = (uint32_t)cfg_u64(cfg, "gmmu.hir.transfer_faults");
    g->hir_rec_bytes = (uint32_t)cfg_u64(cfg, "gmmu.hir.record_bytes");
    g->ac_on = cfg_bool(cfg, "gmmu.access_counters.enabled");
    uint64_t gran = cfg_u64(cfg, "gmmu.access_counters.granularity");
    if (!pow2(gran)) user_error("gmmu.access_counters.granularity (%llu) is not a power of two",
                                (unsigned long long)gran);
    ac_init(&g->ac, (uint32_t)__builtin_ctzll(gran),
            (uint32_t)cfg_u64(cfg, "gmmu.access_counters.threshold"));
    g->note_cap = (uint32_t)cfg_u64(cfg, "gmmu.access_counters.buffer");
    g->note = xcalloc(g->note_cap, sizeof *g->note);
    register_stats(g, st);
    return g;
}

void gmmu_free(struct gmmu *g)
{
    if (!g) return;
    mq_free(&g->walk_in);
    mq_free(&g->mem_resp);
    pt_free(&g->pt);
    fp_free(&g->fpages);
    if (g->pwc.e) pwc_free(&g->pwc);
    fb_free(&g->fb);
    hir_free(&g->hir);
    ac_free(&g->ac);
    free(g->hir_tmp);
    free(g->host);
    free(g->note);
    for (size_t i = 0; i < g->rec_nchunks; i++) free(g->rec_chunks[i]);
    free(g->rec_chunks);
    free(g->slot);
    free(g->free_slot);
    free(g->busy);
    free(g->outq);
    free(g);
}

struct mq *gmmu_walk_in(struct gmmu *g) { return &g->walk_in; }
void gmmu_set_memory(struct gmmu *g, struct mem_port port, struct req_pool *pool)
{
    g->mem = port;
    g->pool = pool;
    g->has_mem = true;
}
void gmmu_set_link(struct gmmu *g, struct link *l) { g->link = l; }
void gmmu_set_driver(struct gmmu *g, struct component *d) { g->driver = d; }
void gmmu_set_fault_hook(struct gmmu *g, gmmu_fault_hook fn, void *ctx)
{
    g->fault_hook = fn;
    g->fault_ctx = ctx;
}
void gmmu_set_dirty_hook(struct gmmu *g, gmmu_dirty_hook fn, void *ctx)
{
    g->dirty_hook = fn;
    g->dirty_ctx = ctx;
}

void gmmu_set_walk_hit_hook(struct gmmu *g, gmmu_walk_hit_hook fn, void *ctx, bool replayed)
{
    g->hit_hook = fn;
    g->hit_ctx = ctx;
    g->hit_replayed = replayed;
}

void gmmu_set_hir_landed_hook(struct gmmu *g, gmmu_hir_landed_hook fn, void *ctx)
{
    g->hir_landed = fn;
    g->hir_landed_ctx = ctx;
}

void gmmu_set_remote_walk_hook(struct gmmu *g, gmmu_remote_walk_hook fn, void *ctx)
{
    g->rwalk_hook = fn;
    g->rwalk_ctx = ctx;
}

void gmmu_set_stall_hook(struct gmmu *g, gmmu_stall_hook fn, void *ctx)
{
    g->stall_hook = fn;
    g->stall_ctx = ctx;
}

/* ---- driver side ---- */

size_t gmmu_faults_pending(const struct gmmu *g) { return g->fb.n; }

size_t gmmu_fetch_faults(struct gmmu *g, struct fault_entry *out, size_t max,
                         sim_time now)
{
    size_t n = 0;
    while (n < max && g->fb.n) out[n++] = fb_pop(&g->fb);
    gmmu_fault_drained(g, now);
    return n;
}

void gmmu_map_page(struct gmmu *g, uint64_t vpn, uint64_t pfn, unsigned page_shift,
                   unsigned flags, sim_time now)
{
    SIM_ASSERT(page_shift == 12 || page_shift == 16 || page_shift == 21, "gmmu", now,
               "page size 2^%u is not 4 KiB, 64 KiB or 2 MiB", page_shift);
    uint64_t n = 1ULL << (page_shift - PAGE_SHIFT);
    SIM_ASSERT(!(vpn & (n - 1)) && !(pfn & (n - 1)), "gmmu", now,
               "page %#llx / frame %#llx not aligned to 2^%u bytes",
               (unsigned long long)vpn, (unsigned long long)pfn, page_shift);
    SIM_ASSERT(pfn + n <= 1ULL << PTE_PFN_BITS, "gmmu", now,
               "frame %#llx beyond the PTE's %u frame bits", (unsigned long long)pfn, PTE_PFN_BITS);
    uint8_t f = (uint8_t)((flags & GMMU_MAP_REMOTE ? PTE_REMOTE : PTE_PRESENT) |
                          (flags & GMMU_MAP_READONLY ? PTE_READONLY : 0));
    for (uint64_t i = 0; i < n; i++) {
        struct pte *p = pt_get(&g->pt, vpn + i);
        SIM_ASSERT(!(p->flags & (PTE_PRESENT | PTE_REMOTE)), "gmmu", now,
                   "page %#llx mapped twice", (unsigned long long)(vpn + i));
        if (p->flags & PTE_FAULTED)
            stat_avg_add(g->fault_wait, (double)(now - fp_find(&g->fpages, vpn + i)->t_fault));
        bool faulted = p->flags & PTE_FAULTED;
        p->flags = (uint8_t)(f | (p->flags & (PTE_RECS | PTE_REFERENCED)));
        if (faulted) gmmu_page_tidy(g, vpn + i, p);
        pte_set_pfn(p, pfn + i);
        p->shift = (uint8_t)page_shift;
    }
    if (g->deferred) return;          /* released at the replay signal */
    for (uint64_t i = 0; i < n; i++) gmmu_release_page(g, vpn + i, now);
    engine_progress(g->comp.eng);
}

void gmmu_map(struct gmmu *g, uint64_t vpn, uint64_t pfn, sim_time now)
{
    gmmu_map_page(g, vpn, pfn, PAGE_SHIFT, 0, now);
}

bool gmmu_unmap(struct gmmu *g, uint64_t vpn, sim_time now)
{
    struct pte *p = pt_find(&g->pt, vpn);
    SIM_ASSERT(p && (p->flags & (PTE_PRESENT | PTE_REMOTE)), "gmmu", now,
               "unmap of unmapped page %#llx", (unsigned long long)vpn);
    uint64_t n = 1ULL << (p->shift - PAGE_SHIFT), base = vpn & ~(n - 1);
    bool dirty = false;
    for (uint64_t i = 0; i < n; i++) {
        struct pte *q = pt_find(&g->pt, base + i);
        dirty = dirty || (q->flags & PTE_DIRTY);
        bool faulted = q->flags & PTE_FAULTED;
        q->flags &= PTE_RECS | PTE_REFERENCED;   /* records parked on it stay */
        if (faulted) gmmu_page_tidy(g, base + i, q);
        q->shift = PAGE_SHIFT;
    }
    return dirty;
}

unsigned gmmu_page_shift(const struct gmmu *g, uint64_t vpn)
{
    const struct pte *p = pt_find(&g->pt, vpn);
    return p && (p->flags & (PTE_PRESENT | PTE_REMOTE)) ? p->shift : PAGE_SHIFT;
}

void gmmu_set_page_size(struct gmmu *g, uint64_t vpn, unsigned page_shift, sim_time now)
{
    SIM_ASSERT(page_shift == 12 || page_shift == 16 || page_shift == 21, "gmmu", now,
               "page size 2^%u is not 4 KiB, 64 KiB or 2 MiB", page_shift);
    const struct pte *p = pt_find(&g->pt, vpn);
    SIM_ASSERT(p && (p->flags & (PTE_PRESENT | PTE_REMOTE)), "gmmu", now,
               "page size change of unmapped page %#llx", (unsigned long long)vpn);
    unsigned cur = p->shift, span = page_shift > cur ? page_shift : cur;
    if (page_shift == cur) return;
    uint64_t n = 1ULL << (span - PAGE_SHIFT), base = vpn & ~(n - 1);
    /* An aligned region of at most 2 MiB lies in one leaf table. */
    struct pte *b = pt_find(&g->pt, base);
    const uint8_t kind = PTE_PRESENT | PTE_REMOTE | PTE_READONLY;
    uint8_t dirty = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (page_shift > cur)
            SIM_ASSERT(b && (b[i].flags & (PTE_PRESENT | PTE_REMOTE)) &&
                       (b[i].flags & kind) == (b->flags & kind) && pte_pfn(&b[i]) == pte_pfn(b) + i &&
                       !(pte_pfn(b) & (n - 1)), "gmmu", now,
                       "page %#llx cannot join a 2^%u-byte page at %#llx (unmapped, "
                       "other protection or frames not contiguous)",
                       (unsigned long long)(base + i), page_shift, (unsigned long long)base);
        dirty |= b[i].flags & PTE_DIRTY;
    }
    for (uint64_t i = 0; i < n; i++) {
        b[i].shift = (uint8_t)page_shift;
        if (page_shift < cur) b[i].flags |= dirty;
    }
}

void gmmu_set_writable(struct gmmu *g, uint64_t vpn, sim_time now)
{
    struct pte *p = pt_find(&g->pt, vpn);
    SIM_ASSERT(p && (p->flags & (PTE_PRESENT | PTE_REMOTE)), "gmmu", now,
               "protection change of unmapped page %#llx", (unsigned long long)vpn);
    uint64_t n = 1ULL << (p->shift - PAGE_SHIFT), base = vpn & ~(n - 1);
    for (uint64_t i = 0; i < n; i++) pt_find(&g->pt, base + i)->flags &= (uint8_t)~PTE_READONLY;
    if (g->deferred) return;
    for (uint64_t i = 0; i < n; i++) gmmu_release_page(g, base + i, now);
    engine_progress(g->comp.eng);
}

static const struct pte *mapped(const struct gmmu *g, uint64_t vpn, uint8_t flag)
{
    const struct pte *p = pt_find(&g->pt, vpn);
    return p && (p->flags & flag) ? p : NULL;
}

bool gmmu_is_resident(const struct gmmu *g, uint64_t vpn) { return mapped(g, vpn, PTE_PRESENT); }
bool gmmu_is_remote(const struct gmmu *g, uint64_t vpn) { return mapped(g, vpn, PTE_REMOTE); }
bool gmmu_is_read_only(const struct gmmu *g, uint64_t vpn)
{
    const struct pte *p = mapped(g, vpn, PTE_PRESENT | PTE_REMOTE);
    return p && (p->flags & PTE_READONLY);
}

bool gmmu_referenced(void *gmmu, uint64_t vpn, uint64_t n)
{
    const struct gmmu *g = gmmu;
    for (uint64_t v = vpn; v < vpn + n; v++) {
        const struct pte *p = pt_find(&g->pt, v);
        if (!p) continue;
        if (p->flags & PTE_REFERENCED) return true;
        if (p->shift > PAGE_SHIFT && (p->flags & (PTE_PRESENT | PTE_REMOTE))) {
            const struct pte *b = pt_find(&g->pt, v & ~((1ULL << (p->shift - PAGE_SHIFT)) - 1));
            if (b && (b->flags & PTE_REFERENCED)) return true;
        }
    }
    return false;
}

uint64_t gmmu_frame_of(const struct gmmu *g, uint64_t vpn)
{
    const struct pte *p = mapped(g, vpn, PTE_PRESENT | PTE_REMOTE);
    SIM_ASSERT(p, "gmmu", engine_now(g->comp.eng),
               "frame of unmapped page %#llx", (unsigned long long)vpn);
    return pte_pfn(p);
}

/* ---- access counters ---- */

void gmmu_note_remote_access(void *gmmu, unsigned sm, uint64_t vaddr, sim_time now)
{
    struct gmmu *g = gmmu;
    if (!g->ac_on) return;
    *g->ac_counted += 1;
    uint64_t region;
    if (!ac_count(&g->ac, vaddr, &region)) return;
    if (g->note_n == g->note_cap) { *g->ac_dropped += 1; return; }
    g->note[(g->note_head + g->note_n++) % g->note_cap] =
        (struct access_notification){ region, (uint16_t)sm, now };
    *g->ac_notes += 1;
    if (g->driver) comp_wake_at(g->driver, now + g->irq_latency);
}

size_t gmmu_access_notifications_pending(const struct gmmu *g) { return g->note_n; }

size_t gmmu_fetch_access_notifications(struct gmmu *g, struct access_notification *out,
                                       size_t max)
{
    size_t n = 0;
    while (n < max && g->note_n) {
        out[n++] = g->note[g->note_head];
        g->note_head = (g->note_head + 1) % g->note_cap;
        g->note_n--;
    }
    return n;
}

void gmmu_hir_wanted(struct gmmu *g)
{
    if (g->hir_auto) g->hir_on = true;
}

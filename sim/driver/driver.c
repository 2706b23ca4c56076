/* The driver thread, skeleton version.  A state machine in its own clock
 * domain whose steps cost simulated time:
 *   IDLE --interrupt--> fetch a batch (up to driver.batch_size entries),
 *   coalesce duplicate pages (keeping the most intrusive access) and sort
 *   them --> HANDLING for driver.fault_latency (HPE Sec. III: a fixed 20 us
 *   per fault service) --> SERVICE: for each page, take a frame (evicting
 *   the policy's victim first when memory is full; a dirty victim is
 *   written back D2H and the migration waits for it, as the baseline driver
 *   serialises eviction before migration, batch-aware paper Sec. 3) and
 *   start its H2D copy --> WAIT until every copy of the batch has landed
 *   (each landing maps its page and wakes the walks parked on it) --> the
 *   next batch if faults remain, else IDLE. */
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "evict.h"
#include "../config.h"
#include "../stats.h"
#include "../mem_req.h"
#include "../gmmu/gmmu.h"
#include "../tlb/tlb.h"
#include "../pcie/pcie.h"

enum drv_state { D_IDLE, D_HANDLING, D_SERVICE, D_EVICTING, D_WAIT };

struct batch_page { uint64_t vpn, pfn; enum req_kind access; };

struct driver {
    struct component comp;
    driver_unmap_hook unmap_hook;
    void *unmap_ctx;
    struct gmmu *gmmu;
    struct tlb *tlb;
    struct link *link;
    enum drv_state state;
    sim_time busy_until;
    sim_time fault_latency;
    uint32_t batch_size;
    struct fault_entry *fetched;
    struct batch_page *pages;
    size_t nfaults, npages, next;
    size_t inflight;              /* H2D copies of this batch not landed */
    /* frames */
    uint64_t capacity, never_used;  /* frames [0, never_used) hold pages */
    uint64_t victim_pfn;            /* frame freed by the last write-back */
    struct evictor *evict;
    /* the batch being serviced */
    sim_time batch_start;
    uint64_t batch_h2d, batch_d2h, batch_evictions;
    struct rec_table *batches;
    struct stat_hist *batch_faults;
    uint64_t *n_batches, *n_faults, *n_pages, *n_evictions, *n_writebacks,
             *n_dup, *busy_ps;
};

const struct cfg_key driver_config_keys[] = {
    {"driver.clock", CFG_FREQ, "3GHz", 1e6, 1e11, NULL,
     "clock of the CPU core running the driver thread"},
    {"driver.fault_latency", CFG_TIME, "20us", 0, 1e12, NULL,
     "runtime fault-handling time per batch (HPE Sec. III, batch-aware Table 1: 20 us)"},
    {"driver.batch_size", CFG_INT, "256", 1, 1048576, NULL,
     "fault-buffer entries fetched per batch (real driver default: 256)"},
    {"gpu.memory.capacity", CFG_SIZE, "0B", 0, 1.2e18, NULL,
     "GPU memory for migrated pages (0: gpu.memory.fraction of the footprint)"},
    {"gpu.memory.fraction", CFG_FRACTION, "100%", 1e-6, 1, NULL,
     "GPU memory as a share of the workload footprint (the papers' oversubscription rate)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static const char *state_name(enum drv_state s)
{
    static const char *const n[] = {"idle", "handling", "service", "evicting", "wait"};
    return n[s];
}

static int by_vpn(const void *a, const void *b)
{
    uint64_t x = ((const struct batch_page *)a)->vpn;
    uint64_t y = ((const struct batch_page *)b)->vpn;
    return x < y ? -1 : x > y;
}

/* atomic > write > read: the access the page must be mapped for. */
static int intrusiveness(enum req_kind k)
{
    return k == REQ_ATOMIC ? 2 : k == REQ_STORE ? 1 : 0;
}

/* HIR records that have landed in the driver's buffer feed the eviction
 * policy (HPE Sec. IV-B: HPE updates its page-set chain from them). */
static void take_hir_records(struct driver *d, sim_time now)
{
    struct hir_record rec[32];
    size_t n;
    while ((n = gmmu_hir_fetch(d->gmmu, rec, 32, now)))
        for (size_t i = 0; i < n; i++)
            for (uint32_t p = 0; p < HIR_MAX_SET_PAGES; p++)
                if (rec[i].count[p]) driver_hit_info(d, rec[i].first_vpn + p, rec[i].count[p]);
}

static void fetch_batch(struct driver *d, sim_time now)
{
    take_hir_records(d, now);
    d->nfaults = gmmu_fetch_faults(d->gmmu, d->fetched, d->batch_size, now);
    for (size_t i = 0; i < d->nfaults; i++)
        d->pages[i] = (struct batch_page){ d->fetched[i].vpn, 0, d->fetched[i].access };
    qsort(d->pages, d->nfaults, sizeof *d->pages, by_vpn);
    size_t n = 0;
    for (size_t i = 0; i < d->nfaults; i++) {
        if (n && d->pages[n - 1].vpn == d->pages[i].vpn) {
            if (intrusiveness(d->pages[i].access) > intrusiveness(d->pages[n - 1].access))
                d->pages[n - 1].access = d->pages[i].access;
            continue;
        }
        d->pages[n++] = d->pages[i];
    }
    *d->n_dup += d->nfaults - n;
    *d->n_faults += d->nfaults;
    d->npages = n;
    d->next = 0;
    d->batch_start = now;
    d->batch_h2d = d->batch_d2h = d->batch_evictions = 0;
    d->state = D_HANDLING;
    d->busy_until = now + d->fault_latency;
}

static void end_batch(struct driver *d, sim_time now)
{
    uint64_t start = d->batch_start, end = now, faults = d->nfaults,
             pages = d->npages;
    const void *row[] = { &start, &end, &faults, &pages, &d->batch_h2d,
                          &d->batch_d2h, &d->batch_evictions };
    rec_append(d->batches, row);
    stat_hist_add(d->batch_faults, faults);
    *d->n_batches += 1;
    *d->busy_ps += now - d->batch_start;
    d->state = D_IDLE;
}

static void h2d_landed(void *obj, uint64_t idx, sim_time now)
{
    struct driver *d = obj;
    struct batch_page *p = &d->pages[idx];
    gmmu_map(d->gmmu, p->vpn, p->pfn, now);
    evictor_resident(d->evict, p->vpn);
    d->inflight--;
    comp_wake(&d->comp, now);
}

static void d2h_landed(void *obj, uint64_t pfn, sim_time now)
{
    struct driver *d = obj;
    d->victim_pfn = pfn;
    d->state = D_SERVICE;
    comp_wake(&d->comp, now);
}

/* A frame for the next page: free, or freed by evicting.  Returns false
 * when the driver must wait (write-back in flight, or every frame is
 * holding a copy still in flight). */
static bool take_frame(struct driver *d, uint64_t *pfn, sim_time now)
{
    if (d->victim_pfn != UINT64_MAX) {
        *pfn = d->victim_pfn;
        d->victim_pfn = UINT64_MAX;
        return true;
    }
    if (d->never_used < d->capacity) { *pfn = d->never_used++; return true; }
    uint64_t vpn;
    if (!evictor_victim(d->evict, &vpn)) return false;
    /* HPE Sec. IV-B: the HIR goes to the driver before each eviction. */
    gmmu_hir_flush(d->gmmu, now);
    uint64_t frame = gmmu_frame_of(d->gmmu, vpn);
    bool dirty = gmmu_unmap(d->gmmu, vpn, now);
    tlb_shootdown(d->tlb, vpn, now);
    if (d->unmap_hook) d->unmap_hook(d->unmap_ctx, frame << PAGE_SHIFT, now);
    *d->n_evictions += 1;
    d->batch_evictions++;
    if (!dirty) { *pfn = frame; return true; }   /* host copy still valid */
    *d->n_writebacks += 1;
    d->batch_d2h += PAGE_SIZE;
    d->state = D_EVICTING;
    link_transfer(d->link, LINK_D2H, PAGE_SIZE, now, d2h_landed, d, frame);
    return false;
}

static void service(struct driver *d, sim_time now)
{
    while (d->next < d->npages) {
        struct batch_page *p = &d->pages[d->next];
        if (gmmu_is_resident(d->gmmu, p->vpn) || gmmu_is_remote(d->gmmu, p->vpn)) {
            /* Mapped already: only a protection fault needs servicing. */
            if (p->access != REQ_LOAD && gmmu_is_read_only(d->gmmu, p->vpn))
                gmmu_set_writable(d->gmmu, p->vpn, now);
            d->next++;
            continue;
        }
        if (!take_frame(d, &p->pfn, now)) return;
        d->inflight++;
        *d->n_pages += 1;
        d->batch_h2d += PAGE_SIZE;
        link_transfer(d->link, LINK_H2D, PAGE_SIZE, now, h2d_landed, d, d->next);
        d->next++;
    }
    d->state = D_WAIT;
}

static sim_time driver_tick(struct component *c, sim_time now)
{
    struct driver *d = (struct driver *)c;
    for (;;) {
        switch (d->state) {
        case D_IDLE:
            if (!gmmu_faults_pending(d->gmmu)) return TIME_NEVER;
            fetch_batch(d, now);
            break;
        case D_HANDLING:
            if (now < d->busy_until) return d->busy_until;
            d->state = D_SERVICE;
            break;
        case D_SERVICE:
            service(d, now);
            if (d->state != D_WAIT) return TIME_NEVER;   /* a landing wakes us */
            break;
        case D_EVICTING:
            return TIME_NEVER;
        case D_WAIT:
            if (d->inflight) return TIME_NEVER;
            end_batch(d, now);
            break;
        }
    }
}

static void driver_dump(struct component *c, FILE *out)
{
    struct driver *d = (struct driver *)c;
    fprintf(out, "    state %s, batch of %zu faults / %zu pages, next page %zu, "
            "%zu copies in flight, %llu of %llu frames used\n",
            state_name(d->state), d->nfaults, d->npages, d->next, d->inflight,
            (unsigned long long)d->never_used,
            (unsigned long long)d->capacity);
}

static const struct comp_ops driver_ops = { driver_tick, driver_dump };

static uint64_t capacity_pages(const struct config *cfg, uint64_t footprint)
{
    uint64_t bytes = cfg_u64(cfg, "gpu.memory.capacity");
    if (!bytes) bytes = (uint64_t)(cfg_f64(cfg, "gpu.memory.fraction") * (double)footprint);
    uint64_t pages = bytes / PAGE_SIZE;
    if (pages == 0)
        user_error("GPU memory (gpu.memory.capacity / gpu.memory.fraction) "
                   "holds no %llu-byte page", (unsigned long long)PAGE_SIZE);
    return pages;
}

struct driver *driver_create(struct engine *e, const struct config *cfg,
                             struct stats *st, const struct domain *dom,
                             struct gmmu *g, struct tlb *t, struct link *l,
                             uint64_t footprint)
{
    static const struct rec_field batch_fields[] = {
        {"start_ps", REC_U64, "ps"}, {"end_ps", REC_U64, "ps"},
        {"faults", REC_U64, "faults"}, {"pages", REC_U64, "pages"},
        {"h2d_bytes", REC_U64, "bytes"}, {"d2h_bytes", REC_U64, "bytes"},
        {"evictions", REC_U64, "pages"},
    };
    struct driver *d = xcalloc(1, sizeof *d);
    comp_init(&d->comp, e, &driver_ops, "driver", dom);
    d->gmmu = g;
    d->tlb = t;
    d->link = l;
    d->fault_latency = cfg_u64(cfg, "driver.fault_latency");
    d->batch_size = (uint32_t)cfg_u64(cfg, "driver.batch_size");
    d->fetched = xcalloc(d->batch_size, sizeof *d->fetched);
    d->pages = xcalloc(d->batch_size, sizeof *d->pages);
    d->capacity = capacity_pages(cfg, footprint);
    d->victim_pfn = UINT64_MAX;
    d->evict = evictor_create(cfg, cfg_str(cfg, "driver.eviction"), d->capacity, st);
    d->batches = stat_table(st, "batches", "one row per fault batch the driver serviced",
                            batch_fields, sizeof batch_fields / sizeof batch_fields[0]);
    d->n_batches = stat_counter(st, "driver.batches", "batches", "fault batches serviced");
    d->n_faults = stat_counter(st, "driver.faults", "faults", "fault-buffer entries fetched");
    d->n_dup = stat_counter(st, "driver.duplicate_faults", "faults",
                            "entries coalesced into another entry of the same batch");
    d->n_pages = stat_counter(st, "driver.pages_migrated", "pages", "pages copied host to GPU");
    d->n_evictions = stat_counter(st, "driver.evictions", "pages", "pages evicted from GPU memory");
    d->n_writebacks = stat_counter(st, "driver.writebacks", "pages", "evicted dirty pages copied back to the host");
    d->busy_ps = stat_counter(st, "driver.batch_ps", "ps", "time from batch fetch to its last page landing, summed");
    /* 16-entry bins up to the real driver's 256-entry batch, then overflow. */
    d->batch_faults = stat_histogram(st, "driver.batch_faults", "faults",
                                     "fault-buffer entries per batch", 17, 16);
    uint64_t *cap = stat_counter(st, "driver.capacity_pages", "pages", "GPU memory frames available to migrated pages");
    *cap = d->capacity;
    gmmu_set_driver(g, &d->comp);
    return d;
}

void driver_free(struct driver *d)
{
    if (!d) return;
    evictor_free(d->evict);
    free(d->fetched);
    free(d->pages);
    free(d);
}

struct component *driver_component(struct driver *d) { return &d->comp; }
void driver_set_unmap_hook(struct driver *d, driver_unmap_hook fn, void *ctx)
{
    d->unmap_hook = fn;
    d->unmap_ctx = ctx;
}
uint64_t driver_capacity_pages(const struct driver *d) { return d->capacity; }

void driver_walk_hit(struct driver *d, uint64_t vpn) { evictor_touch(d->evict, vpn); }
bool driver_wants_walk_hits(const struct driver *d) { return evictor_wants_touches(d->evict); }
void driver_hit_info(struct driver *d, uint64_t vpn, uint32_t count) { evictor_hits(d->evict, vpn, count); }

/* The evictor: a policy behind its ops table plus the bookkeeping every
 * policy shares (evict.h).  Wrong evictions: a page mapped again while
 * among the last driver.evict.wrong_window victims (default 128, the HPE
 * paper's FIFO depth of two 64-fault intervals, Sec. V-A); counted at
 * mapping, the moment the driver knows both.
 *
 * What the policy was fed and what it chose (issue 42: the HPE paper's
 * comparators get "page walk hits and page faults ... in the exact
 * reference order", Sec. V-B): counts of the faults, prefetches, touches
 * and hit records handed over, and per victim its age and idle time in
 * faults (since it became resident; since its last reference the policy
 * saw) and whether the policy saw any reference to it after its arrival.
 * The per-page record is one slot per frame behind a page_map, so it is
 * O(1) per call and sized by GPU memory, never the footprint. */
#include <stdlib.h>
#include <string.h>
#include "evict.h"
#include "vpn_fifo.h"
#include "driver/mem/mem.h"
#include "config/config.h"
#include "core/stats.h"

#define NO_SLOT UINT32_MAX

/* One resident page as the evictor saw it (fault numbers are the count of
 * faults handed over before it). */
struct seen { uint64_t arrived, last_ref; uint32_t refs, next_free; };

struct evictor {
    const struct evict_ops *ops;
    void *p;
    struct vpn_fifo recent;       /* the last driver.evict.wrong_window victims */
    FILE *record;                 /* driver.evict.record, or NULL */
    bool programmed;              /* evict_ops.program called (timed run) */
    uint64_t *n_victims, *n_wrong, *n_hits;
    struct stat_avg *search;
    uint64_t own_victims, own_wrong, own_hits;   /* when no stats registry is given */
    struct stat_avg own_search;
    /* The feed and the victims' history: only with a stats registry. */
    uint64_t *fed_faults, *fed_prefetches, *fed_touches, *unreferenced;
    struct stat_avg *victim_age, *victim_idle;
    struct page_map seen_of;
    struct seen *seen;
    uint32_t seen_free;
    uint64_t faults;
};

static unsigned feeds(const struct evictor *ev);

struct evictor *evictor_create(const struct config *cfg, const char *policy,
                               uint64_t capacity, struct stats *st)
{
    const struct evict_ops *ops = evict_find(policy);
    if (!ops) sim_panic("evict", 0, "no eviction policy '%s'", policy);
    struct evictor *ev = xcalloc(1, sizeof *ev);
    ev->ops = ops;
    ev->p = ops->create(cfg, capacity);
    vpn_fifo_init(&ev->recent, cfg_u64(cfg, "driver.evict.wrong_window"));
    const char *rec = cfg_str(cfg, "driver.evict.record");
    if (*rec && !(ev->record = fopen(rec, "w")))
        user_error("driver.evict.record: cannot write '%s'", rec);
    if (st) {
        ev->n_victims = stat_counter(st, "evict.victims", "pages", "victims the eviction policy chose");
        ev->n_wrong = stat_counter(st, "evict.wrong_evictions", "faults",
                                   "pages mapped again while among the last driver.evict.wrong_window victims");
        ev->n_hits = stat_counter(st, "evict.hit_records", "records",
                                  "per-page hit counts handed to the policy (HIR transfers, HPE Sec. IV-B)");
        ev->search = stat_average(st, "evict.search", "comparisons",
                                  "entries the policy examined per victim (HPE Fig. 14's search overhead)");
        if (ops->register_stats) ops->register_stats(ev->p, st);
        ev->fed_faults = stat_counter(st, "evict.fed_faults", "pages",
                                      "pages made resident by a fault, handed to the policy");
        ev->fed_prefetches = stat_counter(st, "evict.fed_prefetches", "pages",
                                          "pages made resident without a fault (prefetch, host step)");
        ev->fed_touches = stat_counter(st, "evict.fed_touches", "references",
                                       "references to resident pages handed to the policy (walk hits; replay: TLB misses)");
        ev->unreferenced = stat_counter(st, "evict.victims_unreferenced", "pages",
                                        "victims the policy saw no reference to (touch or hit record) after their arrival");
        ev->victim_age = stat_average(st, "evict.victim_age", "faults",
                                      "faults handed to the policy between a victim's arrival and its eviction");
        ev->victim_idle = stat_average(st, "evict.victim_idle", "faults",
                                       "faults handed to the policy between the last reference it saw to a victim and its eviction");
        uint64_t n = capacity ? capacity : 1;
        if (n >= NO_SLOT) sim_panic("evict", 0, "%llu frames exceed the evictor's slot index", (unsigned long long)n);
        ev->seen = xcalloc(n, sizeof *ev->seen);
        for (uint64_t i = 0; i < n; i++) ev->seen[i].next_free = i + 1 < n ? (uint32_t)(i + 1) : NO_SLOT;
        page_map_init(&ev->seen_of, n);
    } else {
        ev->n_victims = &ev->own_victims;
        ev->n_wrong = &ev->own_wrong;
        ev->n_hits = &ev->own_hits;
        ev->search = &ev->own_search;
    }
    return ev;
}

void evictor_free(struct evictor *ev)
{
    if (!ev) return;
    ev->ops->destroy(ev->p);
    if (ev->seen) {
        page_map_free(&ev->seen_of);
        free(ev->seen);
    }
    if (ev->record) fclose(ev->record);
    vpn_fifo_free(&ev->recent);
    free(ev);
}

void evictor_set_future(struct evictor *ev, const uint64_t *refs, size_t n)
{
    if (ev->ops->set_future) ev->ops->set_future(ev->p, refs, n);
}

void evictor_program(struct evictor *ev, const struct config *cfg)
{
    if (!ev->ops->program) return;
    ev->ops->program(ev->p, cfg);
    ev->programmed = true;
}

bool evictor_wants_references(const struct evictor *ev) { return ev->programmed && ev->ops->reference; }

void evictor_reference(struct evictor *ev, const struct evict_ref *r)
{
    ev->ops->reference(ev->p, r);
}

/* Page vpn's record, or NULL (no stats registry, or not resident). */
static struct seen *seen_get(struct evictor *ev, uint64_t vpn)
{
    if (!ev->seen) return NULL;
    uint32_t i = page_map_get(&ev->seen_of, vpn);
    return i == NO_SLOT ? NULL : &ev->seen[i];
}

static void seen_arrive(struct evictor *ev, uint64_t vpn, bool fault)
{
    if (!ev->seen) return;
    *(fault ? ev->fed_faults : ev->fed_prefetches) += 1;
    struct seen *x = seen_get(ev, vpn);
    if (!x) {
        /* A page the policy holds beyond the frame count (none today) is
         * not followed rather than aborting a statistic. */
        uint32_t i = ev->seen_free;
        if (i == NO_SLOT) return;
        ev->seen_free = ev->seen[i].next_free;
        page_map_put(&ev->seen_of, vpn, i);
        x = &ev->seen[i];
    }
    x->arrived = x->last_ref = ev->faults;
    x->refs = 0;
    if (fault) ev->faults++;
}

static void seen_reference(struct evictor *ev, uint64_t vpn)
{
    struct seen *x = seen_get(ev, vpn);
    if (!x) return;
    x->last_ref = ev->faults;
    if (x->refs < UINT32_MAX) x->refs++;
}

static void seen_leave(struct evictor *ev, uint64_t vpn, bool victim)
{
    if (!ev->seen) return;
    uint32_t i = page_map_get(&ev->seen_of, vpn);
    if (i == NO_SLOT) return;
    struct seen *x = &ev->seen[i];
    if (victim) {
        stat_avg_add(ev->victim_age, (double)(ev->faults - x->arrived));
        stat_avg_add(ev->victim_idle, (double)(ev->faults - x->last_ref));
        if (!x->refs) *ev->unreferenced += 1;
    }
    page_map_erase(&ev->seen_of, vpn);
    x->next_free = ev->seen_free;
    ev->seen_free = i;
}

void evictor_resident(struct evictor *ev, uint64_t vpn, bool prefetched)
{
    seen_arrive(ev, vpn, !prefetched);
    if (prefetched) {
        /* No fault asked for it (issue 11.1, 11.4c): not a wrong eviction,
         * not a reference of the recorded stream; it leaves the window so
         * that only a fault after a later eviction counts. */
        vpn_fifo_take(&ev->recent, vpn);
        if (ev->ops->prefetched) ev->ops->prefetched(ev->p, vpn);
        else ev->ops->on_resident(ev->p, vpn);
        return;
    }
    if (vpn_fifo_take(&ev->recent, vpn)) *ev->n_wrong += 1;
    if (ev->record) fprintf(ev->record, "%llu\n", (unsigned long long)vpn);
    ev->ops->on_resident(ev->p, vpn);
}

void evictor_touch(struct evictor *ev, uint64_t vpn)
{
    if (ev->record) fprintf(ev->record, "%llu\n", (unsigned long long)vpn);
    if (!ev->ops->touch) return;
    if (ev->seen) {
        *ev->fed_touches += 1;
        seen_reference(ev, vpn);
    }
    ev->ops->touch(ev->p, vpn);
}

void evictor_hits(struct evictor *ev, uint64_t vpn, uint32_t count)
{
    if (!evictor_wants_hits(ev)) return;
    *ev->n_hits += 1;
    seen_reference(ev, vpn);
    ev->ops->hits(ev->p, vpn, count);
}

bool evictor_victim(struct evictor *ev, uint64_t *vpn)
{
    if (!ev->ops->victim(ev->p, vpn)) return false;
    *ev->n_victims += 1;
    stat_avg_add(ev->search, ev->ops->last_search ? (double)ev->ops->last_search(ev->p) : 1.0);
    vpn_fifo_push(&ev->recent, *vpn);
    seen_leave(ev, *vpn, true);
    return true;
}

bool evictor_can_forget(const struct evictor *ev) { return ev->ops->forget != NULL; }
void evictor_forget(struct evictor *ev, uint64_t vpn)
{
    seen_leave(ev, vpn, false);
    ev->ops->forget(ev->p, vpn);
}

static unsigned feeds(const struct evictor *ev)
{
    if (ev->ops->feeds) return ev->ops->feeds(ev->p);
    return (ev->ops->touch ? EVICT_FEED_TOUCH : 0) | (ev->ops->hits ? EVICT_FEED_HITS : 0);
}

bool evictor_wants_touches(const struct evictor *ev)
{
    return (feeds(ev) & EVICT_FEED_TOUCH) || ev->record;
}
bool evictor_wants_hits(const struct evictor *ev) { return feeds(ev) & EVICT_FEED_HITS; }
const struct evict_ops *evictor_ops(const struct evictor *ev) { return ev->ops; }
void *evictor_policy(const struct evictor *ev) { return ev->p; }

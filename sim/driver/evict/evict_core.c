/* The evictor: a policy behind its ops table plus the bookkeeping every
 * policy shares (evict.h).  Wrong evictions: a page mapped again while
 * among the last driver.evict.wrong_window victims (default 128, the HPE
 * paper's FIFO depth of two 64-fault intervals, Sec. V-A); counted at
 * mapping, the moment the driver knows both. */
#include <stdlib.h>
#include <string.h>
#include "evict.h"
#include "vpn_fifo.h"
#include "config/config.h"
#include "core/stats.h"

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

void evictor_resident(struct evictor *ev, uint64_t vpn, bool prefetched)
{
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
    ev->ops->touch(ev->p, vpn);
}

void evictor_hits(struct evictor *ev, uint64_t vpn, uint32_t count)
{
    if (!evictor_wants_hits(ev)) return;
    *ev->n_hits += 1;
    ev->ops->hits(ev->p, vpn, count);
}

bool evictor_victim(struct evictor *ev, uint64_t *vpn)
{
    if (!ev->ops->victim(ev->p, vpn)) return false;
    *ev->n_victims += 1;
    stat_avg_add(ev->search, ev->ops->last_search ? (double)ev->ops->last_search(ev->p) : 1.0);
    vpn_fifo_push(&ev->recent, *vpn);
    return true;
}

bool evictor_can_forget(const struct evictor *ev) { return ev->ops->forget != NULL; }
void evictor_forget(struct evictor *ev, uint64_t vpn) { ev->ops->forget(ev->p, vpn); }

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

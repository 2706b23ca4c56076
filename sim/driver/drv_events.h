/* Private to sim/driver: the driver's events.  What happens to a page (a
 * fault fetched, a copy started, a page resident, evicted, released to the
 * host, a root chunk evicted) is posted once where it happens; the
 * heuristics and policies that react subscribe at driver_create, in one
 * fixed order (driver.c), instead of being called by hand at each place.
 * Like the real driver's uvm_perf_events.c (uvm_perf_event_notify over the
 * callbacks registered per event), but a fixed array filled at create: no
 * hash and no list grown at run time, so the reactions run in the same
 * order on every run (determinism) and a post allocates nothing.
 * Queries that return a decision (thrashing hints, victims, advice) are
 * direct calls, not events. */
#ifndef UVMSIM_DRIVER_EVENTS_H
#define UVMSIM_DRIVER_EVENTS_H

#include "core/base.h"

enum drv_event_kind {
    DRV_EV_FAULT,        /* a fault on vpn (a driver page's first page) fetched, once per batch */
    DRV_EV_MIGRATED,     /* vpn's copy into a GPU frame starts (frames held) */
    DRV_EV_RESIDENT,     /* vpn landed and is mapped, asked for by a fault or placed */
    DRV_EV_PREFETCHED,   /* ... landed without a fault asking for it (prefetch, migration) */
    DRV_EV_EVICTED,      /* vpn unmapped by an eviction (its frame is the evictor's to reuse) */
    DRV_EV_RELEASED,     /* vpn sent home by a host prefetch step (its frame freed) */
    DRV_EV_ROOT_EVICTED, /* evict_unit chunk: the root chunk of VA block vpn evicted whole */
    DRV_EV_KINDS
};
#define DRV_EV(k) (1u << (k))

struct drv_event {
    enum drv_event_kind kind;
    uint64_t vpn;
    sim_time now;
    bool step;           /* posted while a host step runs (drv_step.c) */
};
typedef void (*drv_event_fn)(void *ctx, const struct drv_event *e);

/* Subscribers per event: every reaction the house has fits (today at most
 * three on one event). */
#define DRV_EV_MAX_SUBS 4
struct drv_events {
    struct drv_sub { drv_event_fn fn; void *ctx; } sub[DRV_EV_KINDS][DRV_EV_MAX_SUBS];
    uint8_t n[DRV_EV_KINDS];
};

/* fn(ctx, e) for every event of the kinds in mask, after the ones
 * subscribed before it. */
void drv_events_subscribe(struct drv_events *ev, unsigned mask, drv_event_fn fn, void *ctx);

static inline void drv_events_post(const struct drv_events *ev, enum drv_event_kind kind,
                                   uint64_t vpn, bool step, sim_time now)
{
    unsigned n = ev->n[kind];
    if (!n) return;
    struct drv_event e = { kind, vpn, now, step };
    for (unsigned i = 0; i < n; i++) ev->sub[kind][i].fn(ev->sub[kind][i].ctx, &e);
}

#endif

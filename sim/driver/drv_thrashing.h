/* Private to sim/driver: thrashing detection and mitigation after the real
 * driver's uvm_perf_thrashing.c (keys driver.thrashing.*).  Two processors
 * take part: the GPU, whose faults migrate pages in (and whose faults ask
 * for a hint), and the host, which takes pages back when they are evicted
 * (driver.thrashing.evictions; see drv_thrashing.c for why).
 *
 * The core (thrashing_*) is pure bookkeeping on (page, time) and is tested
 * on its own; the drv_thrashing_* glue acts on the driver (remote mapping,
 * unpinning, the prefetch mask) and is what the driver's files call. */
#ifndef UVMSIM_DRIVER_THRASHING_H
#define UVMSIM_DRIVER_THRASHING_H

#include "core/engine.h"
#include "prefetch.h"

struct config;
struct stats;
struct driver;

enum thr_proc { THR_GPU = 0, THR_HOST = 1 };

/* What a GPU fault on a page should get (uvm_perf_thrashing_hint_t). */
enum thr_hint {
    THR_NONE,       /* service it as usual */
    THR_THROTTLE,   /* skip it this time: its walks fault again after the replay */
    THR_PIN_GPU,    /* migrate it and pin it in GPU memory */
    THR_PIN_HOST,   /* pin it in host memory: map it remotely, no migration */
};

struct thrashing;

/* NULL when driver.thrashing.enabled is false.  `unpin(ctx, vpn, now)` is
 * called when a pinned page's pin time runs out, before its state is reset. */
typedef void (*thr_unpin_fn)(void *ctx, uint64_t vpn, sim_time now);
struct thrashing *thrashing_create(const struct config *cfg, struct stats *st,
                                   struct engine *e, const struct domain *dom,
                                   thr_unpin_fn unpin, void *ctx);
void thrashing_free(struct thrashing *t);

/* A migration of vpn into `proc`'s memory caused by a fault or a prefetch
 * (THR_GPU), or its eviction to the host (THR_HOST): a thrashing event
 * (thrashing_event_cb). */
void thrashing_event(struct thrashing *t, uint64_t vpn, enum thr_proc proc, sim_time now);
/* A migration the user asked for (host steps): the page's thrashing state
 * is dropped (the real driver resets on API-caused migrations). */
void thrashing_reset(struct thrashing *t, uint64_t vpn);
/* The hint for a GPU fault on vpn (uvm_perf_thrashing_get_hint). */
enum thr_hint thrashing_hint(struct thrashing *t, uint64_t vpn, sim_time now);
/* The thrashing pages of the VA block at `base` (a multiple of 512);
 * false when it has none. */
bool thrashing_block_mask(const struct thrashing *t, uint64_t base, struct block_bits *out);
/* Inspection (tests, dumps). */
bool thrashing_is_pinned(const struct thrashing *t, uint64_t vpn);
unsigned thrashing_events(const struct thrashing *t, uint64_t vpn);

/* ---- glue for the driver's files (one call each) ---- */
struct thrashing *drv_thrashing_create(struct driver *d, const struct config *cfg,
                                       struct stats *st);
/* Before servicing a GPU fault on vpn: true when the page must not be
 * migrated now (throttled, or pinned in host memory and mapped there). */
bool drv_thrashing_fault(struct driver *d, uint64_t vpn, sim_time now);
/* The block's pages to migrate: the prefetcher's choice without thrashing
 * pages, whose faults do not seed a prefetch either (uvm_perf_prefetch.c),
 * plus every faulted page. */
struct prefetch_in;
void drv_thrashing_prefetch(struct driver *d, uint64_t base, struct prefetch_in *in,
                            struct block_bits *want);
/* A page's copy into GPU memory started: a host step's (reset) or a
 * fault's / prefetch's (event). */
void drv_thrashing_migrated(struct driver *d, uint64_t vpn, sim_time now);
/* A page left GPU memory by eviction. */
void drv_thrashing_evicted(struct driver *d, uint64_t vpn, sim_time now);

#endif

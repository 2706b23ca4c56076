/* The event engine: deterministic discrete-event core with clock domains,
 * components that tick only while they have work, bounded message queues
 * with back-pressure, a watchdog, and run limits. */
#ifndef UVMSIM_ENGINE_H
#define UVMSIM_ENGINE_H

#include <signal.h>
#include <stdio.h>
#include "base.h"

struct engine;
struct component;

/* A clock domain: edges at k * period (phase 0).  `order` breaks ties
 * between events of different domains at the same picosecond. */
struct domain {
    const char *name;
    sim_time period;
    unsigned order;
};

/* Component ops.  tick() runs at a clock edge of the component's domain
 * and returns the absolute time it next wants to tick, or TIME_NEVER to go
 * idle until something wakes it (comp_wake_at, a message in its queue). */
struct comp_ops {
    sim_time (*tick)(struct component *c, sim_time now);
    /* Print in-flight requests / waiting warps for the watchdog dump. */
    void (*dump)(struct component *c, FILE *out);
};

struct component {
    const struct comp_ops *ops;
    const char *name;
    struct engine *eng;
    const struct domain *dom;
    sim_time next_tick;       /* pending tick time, TIME_NEVER when idle */
    uint64_t tick_key;        /* its (domain order, sequence) key */
    uint32_t id;              /* registration number */
    uint32_t hidx;            /* slot in the engine's tick heap */
    uint32_t nghost;          /* superseded ticks still ahead (engine.c) */
    struct component *next;   /* engine's list of components (dump) */
    struct component *wait_next;  /* list of producers waiting on one mq */
    struct mq *waiting_on;    /* the full queue it waits on, or NULL */
};

typedef void (*event_fn)(void *obj, uint64_t arg, sim_time now);

struct engine_limits {
    sim_time max_time;      /* stop after this simulated time (0: none) */
    uint64_t max_events;    /* stop after this many events (0: none) */
    sim_time watchdog;      /* abort if no progress this long (0: off) */
};

enum run_status { RUN_COMPLETED, RUN_TIME_LIMIT, RUN_EVENT_LIMIT, RUN_INTERRUPTED };

struct engine *engine_new(const struct engine_limits *lim);
void engine_free(struct engine *e);

sim_time engine_now(const struct engine *e);
/* Where the next pending event stands: its time and domain order (false:
 * none).  What runs before it can be run now by a component with a loop of
 * its own (sim/link link_host_loop.c): no event can intervene. */
bool engine_next_at(const struct engine *e, sim_time *t, unsigned *order);
uint64_t engine_events(const struct engine *e);
/* After engine_run: when the simulated work ended (the last event that was
 * not housekeeping), or the limit time when a limit stopped the run. */
sim_time engine_end_time(const struct engine *e);

/* Register a component in domain `dom`; it starts idle. */
void comp_init(struct component *c, struct engine *e,
               const struct comp_ops *ops, const char *name,
               const struct domain *dom);
/* Ensure a tick at the first edge of c's domain at or after t. */
void comp_wake_slow(struct component *c, sim_time t);
static inline void comp_wake_at(struct component *c, sim_time t)
{
    /* A pending tick is never in the past, so one at or before t already
     * re-decides: most wakes end here, without a call (issue 13). */
    if (c->next_tick <= t) return;
    comp_wake_slow(c, t);
}
static inline void comp_wake(struct component *c, sim_time now)
{ comp_wake_at(c, now); }
/* First edge of d at or after t. */
static inline sim_time domain_edge(const struct domain *d, sim_time t)
{ sim_time r = t % d->period; return r ? t + (d->period - r) : t; }

/* One-shot callback at time t (exact, not aligned to an edge). */
void engine_at(struct engine *e, sim_time t, const struct domain *dom,
               event_fn fn, void *obj, uint64_t arg);

/* A deferred action at time t: runs as engine_at's callback while the run
 * is busy (always, without a busy function) and is dropped once the run is
 * over.  It never counts as work, neither in the end time nor against the
 * deadlock check, so nothing may wait on it.  For the driver's delayed
 * housekeeping: a thrashing pin's expiry 150 ms on (drv_thrashing.c) is
 * the real driver's delayed work item (uvm_perf_thrashing.c,
 * thrashing_unpin_pages), which no program waits for. */
void engine_defer_at(struct engine *e, sim_time t, const struct domain *dom,
                     event_fn fn, void *obj, uint64_t arg);

/* Something completed (an instruction retired, a page landed): resets the
 * watchdog. */
static inline void engine_progress(struct engine *e);
/* The top level tells the engine whether work is outstanding (kernels not
 * finished).  The run ends when it returns false and the queue drains of
 * everything but housekeeping events. */
void engine_set_busy_fn(struct engine *e, bool (*busy)(void *), void *ctx);
/* Periodic housekeeping (epoch sampling, progress) while busy. */
void engine_every(struct engine *e, sim_time period,
                  void (*fn)(void *ctx, sim_time now), void *ctx);
/* Host-side progress callback, called about every 2^16 events. */
void engine_set_progress_fn(struct engine *e,
                            void (*fn)(void *ctx, sim_time now), void *ctx);

/* A flag a signal handler sets (uvmsim run: SIGINT, SIGTERM): the run
 * stops within 4096 events of it turning non-zero, with RUN_INTERRUPTED. */
void engine_set_stop_flag(struct engine *e, volatile sig_atomic_t *flag);

enum run_status engine_run(struct engine *e);
/* engine_run in steps (the stepper): run the events at or before `until`
 * while stop(ctx) (asked after each event; may be NULL) is false.  Returns
 * true when the run is over (*status set, as engine_run), false when it
 * paused: at the stop, or with the clock moved to `until`. */
bool engine_run_until(struct engine *e, sim_time until, bool (*stop)(void *ctx), void *ctx,
                      enum run_status *status);
/* The next event that will act (for the stepper's `where`; superseded
 * ticks are no events): its time and the component it ticks or what kind
 * of callback it is.  false when the queue is empty. */
bool engine_next(const struct engine *e, sim_time *t, const char **what);

/* Dump every component's state (watchdog, panic). */
void engine_dump(struct engine *e, FILE *out);

/* ---- bounded message queue between components ----
 * A message pushed at `now` becomes visible to the consumer at now+latency;
 * the consumer is woken then.  A full queue refuses the push (the producer
 * keeps its message and is woken when a slot frees): back-pressure, never a
 * silent drop. */
struct mq {
    const char *name;
    void **msg;
    sim_time *ready;
    uint32_t cap, head, n;
    sim_time latency;
    struct component *consumer;
    struct component *blocked;    /* producers to wake when a slot frees */
    uint64_t full_stalls;         /* refused pushes */
};

void mq_init(struct mq *q, const char *name, uint32_t cap, sim_time latency,
             struct component *consumer);
void mq_free(struct mq *q);
/* false = full; `producer` (may be NULL) is woken when space frees. */
bool mq_push(struct mq *q, void *m, sim_time now, struct component *producer);
static inline bool mq_full(const struct mq *q) { return q->n == q->cap; }
/* Wake `producer` when a slot frees (it found the queue full).  Every
 * waiting producer is woken; those that find it full again wait again. */
void mq_wait_space(struct mq *q, struct component *producer);
/* Head message if visible at `now`, else NULL. */
static inline void *mq_peek(const struct mq *q, sim_time now)
{ return (q->n && q->ready[q->head] <= now) ? q->msg[q->head] : NULL; }
void *mq_pop_head(struct mq *q, sim_time now);
/* The head message if visible at `now` (removed), else NULL.  Consumers
 * drain with while (mq_pop(...)): the last, empty call costs no call. */
static inline void *mq_pop(struct mq *q, sim_time now)
{ return mq_peek(q, now) ? mq_pop_head(q, now) : NULL; }
/* The i-th queued message, 0 = head (dumps). */
static inline void *mq_at(const struct mq *q, uint32_t i)
{ return q->msg[(q->head + i) % q->cap]; }
/* When the head becomes visible (TIME_NEVER if empty). */
static inline sim_time mq_next_ready(const struct mq *q)
{ return q->n ? q->ready[q->head] : TIME_NEVER; }

/* ---- inline bits ---- */
struct engine_hot { uint64_t progress; };
static inline void engine_progress(struct engine *e)
{ ((struct engine_hot *)(void *)e)->progress++; }

#endif

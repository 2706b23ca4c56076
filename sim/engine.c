/* Discrete-event engine.  Events are ordered by (time, domain order,
 * sequence number): the order is a pure function of what was scheduled and
 * when, never of pointer values, so runs are reproducible bit for bit. */
#include <stdlib.h>
#include <string.h>
#include "engine.h"

#define HOUSEKEEPING_ORDER 255u     /* after every domain at the same time */
#define SEQ_BITS 56

struct event {
    sim_time t;
    uint64_t key;           /* domain order << 56 | sequence */
    event_fn fn;            /* NULL: tick the component in obj */
    void *obj;
    uint64_t arg;
};

struct periodic {
    sim_time period;
    void (*fn)(void *ctx, sim_time now);
    void *ctx;
};

struct engine {
    struct engine_hot hot;          /* must stay first (engine_progress) */
    struct event *heap;
    size_t n, cap;
    uint64_t seq;
    sim_time now;
    sim_time last_work;             /* time of the last non-housekeeping event */
    uint64_t events;
    size_t housekeeping_pending;    /* events in the heap that are periodic */
    struct engine_limits lim;
    struct component *comps, **comps_tail;
    bool (*busy)(void *);
    void *busy_ctx;
    struct periodic *per;
    size_t nper;
    void (*progress_fn)(void *, sim_time);
    void *progress_ctx;
    uint64_t watchdog_mark;
    sim_time watchdog_since;
    bool started;                   /* engine_run(_until) set up the run */
};

static struct engine *current;

struct engine *engine_current(void) { return current; }

struct engine *engine_new(const struct engine_limits *lim)
{
    struct engine *e = xcalloc(1, sizeof *e);
    e->lim = *lim;
    e->cap = 1024;
    e->heap = xmalloc(e->cap * sizeof *e->heap);
    e->comps_tail = &e->comps;
    return e;
}

void engine_free(struct engine *e)
{
    if (!e) return;
    if (current == e) current = NULL;
    free(e->heap);
    free(e->per);
    free(e);
}

sim_time engine_now(const struct engine *e) { return e->now; }
sim_time engine_end_time(const struct engine *e)
{
    return e->now > e->last_work && e->n ? e->now : e->last_work;
}
uint64_t engine_events(const struct engine *e) { return e->events; }

static inline bool ev_before(const struct event *a, const struct event *b)
{
    return a->t < b->t || (a->t == b->t && a->key < b->key);
}

static void heap_push(struct engine *e, struct event ev)
{
    if (e->n == e->cap) {
        /* Grows to the peak number of pending events once, then never. */
        e->cap *= 2;
        e->heap = xrealloc(e->heap, e->cap * sizeof *e->heap);
    }
    size_t i = e->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!ev_before(&ev, &e->heap[p])) break;
        e->heap[i] = e->heap[p];
        i = p;
    }
    e->heap[i] = ev;
}

static struct event heap_pop(struct engine *e)
{
    struct event top = e->heap[0];
    struct event last = e->heap[--e->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l >= e->n) break;
        if (ev_before(&e->heap[l], &last)) m = l;
        if (l + 1 < e->n && ev_before(&e->heap[l + 1], m == l ? &e->heap[l] : &last))
            m = l + 1;
        if (m == i) break;
        e->heap[i] = e->heap[m];
        i = m;
    }
    if (e->n) e->heap[i] = last;
    return top;
}

static void schedule(struct engine *e, sim_time t, unsigned order,
                     event_fn fn, void *obj, uint64_t arg)
{
    SIM_ASSERT(t >= e->now, "engine", e->now,
               "event scheduled in the past (t=%llu)", (unsigned long long)t);
    struct event ev = { t, ((uint64_t)order << SEQ_BITS) | e->seq++, fn, obj, arg };
    heap_push(e, ev);
}

void engine_at(struct engine *e, sim_time t, const struct domain *dom,
               event_fn fn, void *obj, uint64_t arg)
{
    schedule(e, t, dom ? dom->order : 0, fn, obj, arg);
}

void comp_init(struct component *c, struct engine *e,
               const struct comp_ops *ops, const char *name,
               const struct domain *dom)
{
    c->ops = ops;
    c->name = name;
    c->eng = e;
    c->dom = dom;
    c->next_tick = TIME_NEVER;
    c->next = NULL;
    c->wait_next = NULL;
    c->waiting_on = NULL;
    *e->comps_tail = c;
    e->comps_tail = &c->next;
}

void comp_wake_at(struct component *c, sim_time t)
{
    struct engine *e = c->eng;
    if (t < e->now) t = e->now;
    sim_time edge = domain_edge(c->dom, t);
    if (c->next_tick <= edge) return;     /* an earlier tick re-decides */
    c->next_tick = edge;                  /* a later pending one goes stale */
    schedule(e, edge, c->dom->order, NULL, c, 0);
}

static void run_tick(struct component *c, sim_time t)
{
    if (c->next_tick != t) return;        /* stale: superseded by an earlier wake */
    c->next_tick = TIME_NEVER;
    sim_time next = c->ops->tick(c, t);
    if (next == TIME_NEVER) return;
    SIM_ASSERT(next > t, c->name, t, "tick asked to run again at t=%llu",
               (unsigned long long)next);
    comp_wake_at(c, next);
}

/* ---- housekeeping: periodic tasks and the watchdog ---- */

static bool busy(struct engine *e) { return e->busy && e->busy(e->busy_ctx); }

static void periodic_fire(void *obj, uint64_t idx, sim_time now)
{
    struct engine *e = obj;
    e->housekeeping_pending--;
    if (!busy(e)) return;           /* the run is over: let the queue drain */
    struct periodic *p = &e->per[idx];
    p->fn(p->ctx, now);
    if (busy(e)) {
        e->housekeeping_pending++;
        schedule(e, now + p->period, HOUSEKEEPING_ORDER, periodic_fire, e, idx);
    }
}

void engine_every(struct engine *e, sim_time period,
                  void (*fn)(void *ctx, sim_time now), void *ctx)
{
    e->per = xrealloc(e->per, (e->nper + 1) * sizeof *e->per);
    e->per[e->nper] = (struct periodic){ period, fn, ctx };
    e->housekeeping_pending++;
    schedule(e, e->now + period, HOUSEKEEPING_ORDER, periodic_fire, e, e->nper);
    e->nper++;
}

static void watchdog_check(void *ctx, sim_time now)
{
    struct engine *e = ctx;
    if (e->hot.progress != e->watchdog_mark) {
        e->watchdog_mark = e->hot.progress;
        e->watchdog_since = now;
        return;
    }
    if (busy(e) && now - e->watchdog_since >= e->lim.watchdog)
        sim_panic("watchdog", now,
                  "nothing completed for %llu ps while work is outstanding "
                  "(sim.watchdog)", (unsigned long long)(now - e->watchdog_since));
}

void engine_set_busy_fn(struct engine *e, bool (*fn)(void *), void *ctx)
{
    e->busy = fn;
    e->busy_ctx = ctx;
}

void engine_set_progress_fn(struct engine *e,
                            void (*fn)(void *ctx, sim_time now), void *ctx)
{
    e->progress_fn = fn;
    e->progress_ctx = ctx;
}

void engine_dump(struct engine *e, FILE *out)
{
    fprintf(out, "  engine: t=%llu ps, %llu events done, %zu pending\n",
            (unsigned long long)e->now, (unsigned long long)e->events, e->n);
    for (struct component *c = e->comps; c; c = c->next) {
        fprintf(out, "  [%s] next tick %s", c->name,
                c->next_tick == TIME_NEVER ? "idle" : "");
        if (c->next_tick != TIME_NEVER)
            fprintf(out, "at %llu ps", (unsigned long long)c->next_tick);
        fputc('\n', out);
        if (c->ops->dump) c->ops->dump(c, out);
    }
}

enum run_status engine_run(struct engine *e)
{
    enum run_status st;
    engine_run_until(e, TIME_NEVER, NULL, NULL, &st);
    return st;
}

bool engine_run_until(struct engine *e, sim_time until, bool (*stop)(void *ctx), void *ctx,
                      enum run_status *status)
{
    current = e;
    if (!e->started) {
        e->started = true;
        if (e->lim.watchdog) {
            /* Check twice per window so a stall is caught within 1.5 windows. */
            e->watchdog_since = e->now;
            engine_every(e, e->lim.watchdog / 2 ? e->lim.watchdog / 2 : 1,
                         watchdog_check, e);
        }
    }
    enum run_status st = RUN_COMPLETED;
    while (e->n) {
        /* Paused (the stepper): the next event is later than asked. */
        if (e->heap[0].t > until && !(e->n == e->housekeeping_pending && !busy(e))) {
            if (e->now < until) e->now = until;
            return false;
        }
        if (e->n == e->housekeeping_pending && busy(e))
            sim_panic("engine", e->now, "deadlock: no event can make progress "
                      "while work is outstanding");
        if (e->lim.max_time && e->heap[0].t > e->lim.max_time) {
            e->now = e->lim.max_time;
            st = RUN_TIME_LIMIT;
            break;
        }
        if (e->lim.max_events && e->events >= e->lim.max_events) {
            st = RUN_EVENT_LIMIT;
            break;
        }
        struct event ev = heap_pop(e);
        e->now = ev.t;
        e->events++;
        if (ev.fn) ev.fn(ev.obj, ev.arg, ev.t);
        else run_tick(ev.obj, ev.t);
        if (ev.fn != periodic_fire) e->last_work = ev.t;
        if (e->progress_fn && (e->events & 0xffff) == 0)
            e->progress_fn(e->progress_ctx, e->now);
        if (stop && e->n && stop(ctx)) return false;
    }
    if (st == RUN_COMPLETED && busy(e))
        sim_panic("engine", e->now, "deadlock: no event left while work is outstanding");
    current = NULL;
    *status = st;
    return true;
}

bool engine_next(const struct engine *e, sim_time *t, const char **what)
{
    /* The earliest event that will do something: a tick superseded by an
     * earlier wake is skipped when it comes up, so it is not "next". */
    const struct event *best = NULL;
    for (size_t i = 0; i < e->n; i++) {
        const struct event *ev = &e->heap[i];
        if (!ev->fn && ((const struct component *)ev->obj)->next_tick != ev->t) continue;
        if (!best || ev_before(ev, best)) best = ev;
    }
    if (!best) return false;
    *t = best->t;
    *what = best->fn == periodic_fire ? "housekeeping (statistics epoch or watchdog)"
          : best->fn ? "a scheduled callback (a landing, a launch, a timer)"
          : ((const struct component *)best->obj)->name;
    return true;
}

/* ---- bounded message queues ---- */

void mq_init(struct mq *q, const char *name, uint32_t cap, sim_time latency,
             struct component *consumer)
{
    memset(q, 0, sizeof *q);
    q->name = name;
    q->cap = cap;
    q->latency = latency;
    q->consumer = consumer;
    q->msg = xcalloc(cap, sizeof *q->msg);
    q->ready = xcalloc(cap, sizeof *q->ready);
}

void mq_free(struct mq *q)
{
    free(q->msg);
    free(q->ready);
    q->msg = NULL;
    q->ready = NULL;
}

bool mq_push(struct mq *q, void *m, sim_time now, struct component *producer)
{
    if (q->n == q->cap) {
        q->full_stalls++;
        if (producer) mq_wait_space(q, producer);
        return false;
    }
    uint32_t tail = q->head + q->n;
    if (tail >= q->cap) tail -= q->cap;
    q->msg[tail] = m;
    q->ready[tail] = now + q->latency;   /* constant latency keeps FIFO order */
    q->n++;
    if (q->consumer) comp_wake_at(q->consumer, now + q->latency);
    return true;
}

void *mq_pop(struct mq *q, sim_time now)
{
    void *m = mq_peek(q, now);
    if (!m) return NULL;
    if (++q->head == q->cap) q->head = 0;
    q->n--;
    struct component *p = q->blocked;
    q->blocked = NULL;
    while (p) {
        struct component *n = p->wait_next;
        p->wait_next = NULL;
        p->waiting_on = NULL;
        comp_wake_at(p, now);
        p = n;
    }
    return m;
}

void mq_wait_space(struct mq *q, struct component *producer)
{
    if (producer->waiting_on == q) return;
    SIM_ASSERT(!producer->waiting_on, producer->name, engine_now(producer->eng),
               "waits on two full queues at once");
    producer->waiting_on = q;
    producer->wait_next = q->blocked;
    q->blocked = producer;
}

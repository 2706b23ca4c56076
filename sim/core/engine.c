/* Discrete-event engine.  Events are ordered by (time, domain order,
 * sequence number): the order is a pure function of what was scheduled and
 * when, never of pointer values, so runs are reproducible bit for bit.
 *
 * Two heaps hold what is pending: one-shot callbacks (engine_at), and one
 * entry per component with a pending tick, indexed by the component so
 * that a wake for an earlier time moves its entry instead of leaving a
 * stale event behind (issue 13: 16-19 % of all events were such stale
 * ticks).  The main loop pops the earlier of the two tops.
 *
 * The order is exactly the one of the former single heap, in which a wake
 * for an earlier time pushed a new event and left the superseded one
 * pending, to be dropped when it came up unless the component's tick was
 * due at that very time again -- then the older event (lower sequence
 * number) was the one that ticked.  So a superseded tick is kept as a
 * "ghost" (time, key) of its component for as long as the old heap would
 * have held it; a later wake for that same time takes the ghost's key, as
 * the old event would have fired first.  Ghosts are few (a component's
 * superseded ticks still pending) and cost nothing while the list is
 * empty.  Their times also count where the old events' did: in the end
 * time of the run and at a time limit.
 *
 * When the old heap would have popped a ghost: events come out in time
 * order, but not in key order within one time -- an event scheduled for
 * the current time in a domain of lower order runs next, behind the
 * running one.  A ghost was popped exactly when some event popped after
 * the ghost was pushed is later in (time, key) order (ghost_alive). */
#include <stdlib.h>
#include <string.h>
#include "engine.h"

#define HOUSEKEEPING_ORDER 255u     /* after every domain at the same time */
#define SEQ_BITS 56
#define NO_SLOT UINT32_MAX

struct event {
    sim_time t;
    uint64_t key;           /* domain order << 56 | sequence */
    event_fn fn;
    void *obj;
    uint64_t arg;
};

struct tick {
    sim_time t;
    uint64_t key;
    struct component *c;
};

struct ghost {
    sim_time t;
    uint64_t key;
};


struct ghosts {
    struct ghost *g;
    uint32_t cap;
};

struct periodic {
    sim_time period;
    void (*fn)(void *ctx, sim_time now);
    void *ctx;
};

/* A deferred action (engine_defer_at) waiting in the heap; free slots are
 * chained through `next_free`. */
struct deferred {
    event_fn fn;
    void *obj;
    uint64_t arg;
    uint32_t next_free;
};

struct engine {
    struct engine_hot hot;          /* must stay first (engine_progress) */
    struct event *heap;             /* one-shot callbacks */
    size_t n, cap;
    struct tick *th;                /* component ticks, indexed by c->hidx */
    uint32_t tn, tcap;
    struct ghosts *gh;              /* per component (c->id) */
    uint32_t ncomps, ghcap;
    sim_time ghost_tmax;            /* latest superseded tick ever */
    struct component *ticking;      /* whose entry is the root, while it ticks */
    uint64_t seq;
    sim_time now;
    sim_time mark_t;                /* time of the last pop */
    uint64_t mark_hw;               /* largest key popped at mark_t */
    sim_time last_work;             /* time of the last non-housekeeping event */
    uint64_t events;
    size_t housekeeping_pending;    /* events in the heap that are periodic or deferred */
    struct engine_limits lim;
    struct component *comps, **comps_tail;
    bool (*busy)(void *);
    void *busy_ctx;
    struct periodic *per;
    size_t nper;
    struct deferred *def;           /* deferred actions, by slot */
    uint32_t ndef, defcap, def_free;
    void (*progress_fn)(void *, sim_time);
    void *progress_ctx;
    uint64_t watchdog_mark;
    sim_time watchdog_since;
    volatile sig_atomic_t *stop;
    bool started;                   /* engine_run(_until) set up the run */
};

/* The running engine: sim_panic dumps its components (base.h's hook). */
static struct engine *current;

static void panic_dump(void *ctx, FILE *out) { engine_dump(ctx, out); }

static void set_current(struct engine *e)
{
    current = e;
    sim_set_panic_dump(e ? panic_dump : NULL, e);
}

struct engine *engine_new(const struct engine_limits *lim)
{
    struct engine *e = xcalloc(1, sizeof *e);
    e->lim = *lim;
    e->cap = 1024;
    e->heap = xmalloc(e->cap * sizeof *e->heap);
    e->comps_tail = &e->comps;
    e->seq = 1;
    e->mark_t = TIME_NEVER;
    e->def_free = NO_SLOT;
    return e;
}

void engine_free(struct engine *e)
{
    if (!e) return;
    if (current == e) set_current(NULL);
    free(e->heap);
    free(e->th);
    for (uint32_t i = 0; i < e->ncomps; i++) free(e->gh[i].g);
    free(e->gh);
    free(e->per);
    free(e->def);
    free(e);
}

sim_time engine_now(const struct engine *e) { return e->now; }

bool engine_next_at(const struct engine *e, sim_time *t, unsigned *order)
{
    /* The earlier of the two heaps' tops (component ticks, callbacks). */
    bool tk = e->tn && (!e->n || e->th[0].t < e->heap[0].t ||
                        (e->th[0].t == e->heap[0].t && e->th[0].key < e->heap[0].key));
    if (!tk && !e->n) return false;
    *t = tk ? e->th[0].t : e->heap[0].t;
    *order = (unsigned)((tk ? e->th[0].key : e->heap[0].key) >> SEQ_BITS);
    return true;
}
sim_time engine_end_time(const struct engine *e)
{
    return e->now > e->last_work && (e->n || e->tn) ? e->now : e->last_work;
}
uint64_t engine_events(const struct engine *e) { return e->events; }

/* (time, key) as one 128-bit number: compared without a branch on equal
 * times (issue 13; see tick_ord). */
__extension__ typedef unsigned __int128 order128;

static inline bool ev_before(const struct event *a, const struct event *b)
{
    return ((order128)a->t << 64 | a->key) < ((order128)b->t << 64 | b->key);
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

/* ---- the tick heap: at most one entry per component ---- */

/* A 4-ary heap: a tick is popped (sifted down) about as often as one is
 * pushed, and halving the depth of a few hundred components' heap saves
 * more than the extra comparisons per level cost.  Keys are unique, so the
 * pop order is the same for any arity. */
#define TICK_ARITY 4u

/* (time, key) as one 128-bit number: one comparison without a branch on
 * equal times (components of one clock domain tie on time at every edge,
 * and the branch on the key mispredicted often enough to cost a fifth of
 * the engine's time; issue 13). */
static inline order128 tick_ord(const struct tick *a)
{
    return (order128)a->t << 64 | a->key;
}

/* Move entry (t, key, c) up from slot i (a new entry, or one whose time dropped).
 * While a component ticks its entry holds the root (run_tick) and nothing
 * is compared with it: an entry for the current time in a domain of lower
 * order may be due before it, and stays a child of the root until the
 * root's new entry is moved down. */
static inline void tick_up(struct engine *e, uint32_t i, sim_time t, uint64_t key,
                           struct component *c)
{
    /* Scalars, not a struct tick by value: the struct went through the
     * stack and its reload stalled on store forwarding (issue 13). */
    uint32_t top = e->ticking ? 1 : 0;
    order128 xo = (order128)t << 64 | key;
    while (i > top) {
        uint32_t p = (i - 1) / TICK_ARITY;
        if (p < top || xo >= tick_ord(&e->th[p])) break;
        e->th[i] = e->th[p];
        e->th[i].c->hidx = i;
        i = p;
    }
    e->th[i].t = t;
    e->th[i].key = key;
    e->th[i].c = c;
    c->hidx = i;
}

/* Move entry (t, key, c) down from the root (the root's component ticked
 * and asks for a later time, or left: the entry is then the last one). */
static void tick_down(struct engine *e, sim_time t, uint64_t key, struct component *c)
{
    uint32_t i = 0;
    order128 lo = (order128)t << 64 | key;
    for (;;) {
        uint32_t l = TICK_ARITY * i + 1, end = l + TICK_ARITY, m = l;
        if (l >= e->tn) break;
        if (end > e->tn) end = e->tn;
        order128 mo = tick_ord(&e->th[l]);
        for (uint32_t k = l + 1; k < end; k++) {
            order128 ko = tick_ord(&e->th[k]);
            bool lt = ko < mo;
            m = lt ? k : m;
            mo = lt ? ko : mo;
        }
        if (mo >= lo) break;
        e->th[i] = e->th[m];
        e->th[i].c->hidx = i;
        i = m;
    }
    e->th[i].t = t;
    e->th[i].key = key;
    e->th[i].c = c;
    c->hidx = i;
}

/* ---- ghosts: superseded ticks the old heap would still hold ---- */

/* Would the former heap still hold ghost g?  Not once an event later in
 * (time, key) order has been popped after g was pushed: g, the smaller,
 * would have come out first.  A ghost of a later time: yes; of an earlier
 * time: no (the running event is later, and was popped after).  Of the
 * current time: no iff a key above g's has been popped at this time.
 * That is exact for a ghost pushed before this time's first pop, and for
 * one pushed since: such a ghost is the fresh key of a wake that took an
 * older ghost of the same time and component (ghost_take), which was then
 * still held, so every key popped here before the push was below the
 * older ghost's and therefore below this one's. */
static inline bool ghost_alive(const struct engine *e, const struct ghost *g)
{
    if (g->t != e->now) return g->t > e->now;
    return e->mark_t != e->now || g->key > e->mark_hw;
}

/* A pop at time t: the bookkeeping ghost_alive reads. */
static inline void note_pop(struct engine *e, sim_time t, uint64_t key)
{
    if (t != e->mark_t) {
        e->mark_t = t;
        e->mark_hw = key;
    } else if (key > e->mark_hw) {
        e->mark_hw = key;
    }
}

static void ghost_add(struct engine *e, struct component *c, sim_time t, uint64_t key)
{
    struct ghosts *g = &e->gh[c->id];
    if (c->nghost == g->cap) {
        /* Grows to the component's peak number of superseded ticks. */
        g->cap = g->cap ? 2 * g->cap : 4;
        g->g = xrealloc(g->g, g->cap * sizeof *g->g);
    }
    g->g[c->nghost++] = (struct ghost){ t, key };
    if (t > e->ghost_tmax) e->ghost_tmax = t;
}

/* The key a tick of c at edge t gets when its fresh key is `key`: the
 * oldest ghost of c at t that the old heap still holds would have fired
 * first; it becomes the tick and the fresh one a ghost in its place.
 * Drops the ghosts the old heap would have popped. */
static uint64_t ghost_take(struct engine *e, struct component *c, sim_time t, uint64_t key)
{
    struct ghost *g = e->gh[c->id].g;
    uint32_t n = 0, best = NO_SLOT;
    for (uint32_t i = 0; i < c->nghost; i++) {
        if (!ghost_alive(e, &g[i])) continue;
        if (n != i) g[n] = g[i];
        if (g[n].t == t && (best == NO_SLOT || g[n].key < g[best].key)) best = n;
        n++;
    }
    c->nghost = n;
    if (best == NO_SLOT || g[best].key > key) return key;
    uint64_t k = g[best].key;
    g[best].key = key;
    return k;
}

/* The earliest superseded tick later than t, and the latest at or before
 * t (TIME_NEVER / 0 when none): where the old heap's run ended once only
 * superseded ticks were left.  Once per run, so a scan. */
static sim_time ghost_after(const struct engine *e, sim_time t)
{
    sim_time best = TIME_NEVER;
    for (struct component *c = e->comps; c; c = c->next)
        for (uint32_t i = 0; i < c->nghost; i++) {
            sim_time g = e->gh[c->id].g[i].t;
            if (g > t && g < best) best = g;
        }
    return best;
}

static sim_time ghost_upto(const struct engine *e, sim_time t)
{
    sim_time best = 0;
    for (struct component *c = e->comps; c; c = c->next)
        for (uint32_t i = 0; i < c->nghost; i++) {
            sim_time g = e->gh[c->id].g[i].t;
            if (g <= t && g > best) best = g;
        }
    return best;
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
    c->tick_key = 0;
    c->hidx = NO_SLOT;
    c->nghost = 0;
    c->next = NULL;
    c->wait_next = NULL;
    c->waiting_on = NULL;
    if (e->ncomps == e->ghcap) {
        e->ghcap = e->ghcap ? 2 * e->ghcap : 64;
        e->gh = xrealloc(e->gh, e->ghcap * sizeof *e->gh);
        e->th = xrealloc(e->th, e->ghcap * sizeof *e->th);
    }
    e->gh[e->ncomps] = (struct ghosts){ NULL, 0 };
    c->id = e->ncomps++;
    *e->comps_tail = c;
    e->comps_tail = &c->next;
}

void comp_wake_slow(struct component *c, sim_time t)
{
    struct engine *e = c->eng;
    if (t < e->now) t = e->now;
    if (c->next_tick <= t) return;        /* edge >= t: no division needed */
    sim_time edge = domain_edge(c->dom, t);
    if (c->next_tick <= edge) return;     /* an earlier tick re-decides */
    uint64_t key = ((uint64_t)c->dom->order << SEQ_BITS) | e->seq++;
    if (c->next_tick != TIME_NEVER) ghost_add(e, c, c->next_tick, c->tick_key);
    if (c->nghost) key = ghost_take(e, c, edge, key);
    c->next_tick = edge;
    c->tick_key = key;
    if (c == e->ticking) return;          /* its entry is placed after the tick */
    if (c->hidx == NO_SLOT) tick_up(e, e->tn++, edge, key, c);
    else tick_up(e, c->hidx, edge, key, c);   /* earlier than before: only up */
}

/* The root's component ticks with its entry left at the root (tick_up
 * moves nothing above it meanwhile), which is then moved down once to the
 * component's next tick, or removed: one sift instead of a pop and a push. */
static void run_tick(struct engine *e, sim_time t)
{
    struct component *c = e->th[0].c;
    c->next_tick = TIME_NEVER;
    e->ticking = c;
    sim_time next = c->ops->tick(c, t);
    if (next != TIME_NEVER) {
        SIM_ASSERT(next > t, c->name, t, "tick asked to run again at t=%llu",
                   (unsigned long long)next);
        comp_wake_at(c, next);
    }
    e->ticking = NULL;
    if (c->next_tick != TIME_NEVER) {
        tick_down(e, c->next_tick, c->tick_key, c);
        return;
    }
    c->hidx = NO_SLOT;
    if (--e->tn) {
        const struct tick *l = &e->th[e->tn];
        tick_down(e, l->t, l->key, l->c);
    }
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

/* A deferred action that fires after the run is over would only move the
 * end time: the program waits for none of them (engine.h). */
static void deferred_fire(void *obj, uint64_t slot, sim_time now)
{
    struct engine *e = obj;
    struct deferred d = e->def[slot];
    e->def[slot].next_free = e->def_free;
    e->def_free = (uint32_t)slot;
    e->housekeeping_pending--;
    /* Without a busy function the engine cannot tell the end of the work:
     * everything runs (unit rigs). */
    if (!e->busy || busy(e)) d.fn(d.obj, d.arg, now);
}

void engine_defer_at(struct engine *e, sim_time t, const struct domain *dom,
                     event_fn fn, void *obj, uint64_t arg)
{
    uint32_t slot = e->def_free;
    if (slot != NO_SLOT) {
        e->def_free = e->def[slot].next_free;
    } else {
        if (e->ndef == e->defcap) {
            e->defcap = e->defcap ? 2 * e->defcap : 64;
            e->def = xrealloc(e->def, e->defcap * sizeof *e->def);
        }
        slot = e->ndef++;
    }
    e->def[slot] = (struct deferred){ fn, obj, arg, NO_SLOT };
    e->housekeeping_pending++;
    schedule(e, t, dom ? dom->order : 0, deferred_fire, e, slot);
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

void engine_set_stop_flag(struct engine *e, volatile sig_atomic_t *flag) { e->stop = flag; }

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
            (unsigned long long)e->now, (unsigned long long)e->events, e->n + e->tn);
    for (struct component *c = e->comps; c; c = c->next) {
        fprintf(out, "  [%s] next tick %s", c->name,
                c->next_tick == TIME_NEVER ? "idle" : "");
        if (c->next_tick != TIME_NEVER)
            fprintf(out, "at %llu ps", (unsigned long long)c->next_tick);
        fputc('\n', out);
        if (c->ops->dump) c->ops->dump(c, out);
    }
}

/* The earlier of the two heaps' tops: true for the tick heap. */
static inline bool tick_first(const struct engine *e)
{
    if (!e->tn) return false;
    if (!e->n) return true;
    const struct tick *a = &e->th[0];
    const struct event *b = &e->heap[0];
    return ((order128)a->t << 64 | a->key) < ((order128)b->t << 64 | b->key);
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
    set_current(e);
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
    while (e->n || e->tn) {
        bool tk = tick_first(e);
        sim_time t = tk ? e->th[0].t : e->heap[0].t;
        bool idle = e->n + e->tn == e->housekeeping_pending;
        /* Paused (the stepper): the next event is later than asked. */
        if (t > until && !(idle && !busy(e))) {
            if (e->now < until) e->now = until;
            return false;
        }
        if (idle && busy(e))
            sim_panic("engine", e->now, "deadlock: no event can make progress "
                      "while work is outstanding");
        if (e->lim.max_time && t > e->lim.max_time) {
            e->now = e->lim.max_time;
            st = RUN_TIME_LIMIT;
            break;
        }
        if (e->lim.max_events && e->events >= e->lim.max_events) {
            st = RUN_EVENT_LIMIT;
            break;
        }
        if ((e->events & 0xfff) == 0 && e->stop && *e->stop) {
            st = RUN_INTERRUPTED;
            break;
        }
        e->now = t;
        e->events++;
        if (tk) {
            note_pop(e, t, e->th[0].key);
            run_tick(e, t);
            e->last_work = t;
        } else {
            struct event ev = heap_pop(e);
            note_pop(e, t, ev.key);
            ev.fn(ev.obj, ev.arg, t);
            if (ev.fn != periodic_fire && ev.fn != deferred_fire) e->last_work = t;
        }
        if (e->progress_fn && (e->events & 0xffff) == 0)
            e->progress_fn(e->progress_ctx, e->now);
        if (stop && (e->n || e->tn) && stop(ctx)) return false;
    }
    if (st == RUN_COMPLETED && e->ghost_tmax > e->now) {
        /* Superseded ticks later than every real event: the old heap ran
         * on to them, and stopped at the first one past `until` (paused)
         * or past the time limit, in that order of checks. */
        sim_time lim = e->lim.max_time ? e->lim.max_time : TIME_NEVER;
        sim_time cut = until < lim ? until : lim;
        sim_time g = ghost_after(e, cut > e->now ? cut : e->now);
        if (g != TIME_NEVER && g > until) {
            sim_time m = ghost_upto(e, until);
            if (m > e->last_work) e->last_work = m;
            if (e->now < until) e->now = until;
            return false;
        }
        if (g != TIME_NEVER) {
            e->now = e->last_work = lim;
            st = RUN_TIME_LIMIT;
        } else {
            e->now = e->last_work = e->ghost_tmax;
        }
    } else if (st == RUN_COMPLETED && e->ghost_tmax > e->last_work) {
        e->last_work = e->ghost_tmax;
    }
    if (st == RUN_COMPLETED && busy(e))
        sim_panic("engine", e->now, "deadlock: no event left while work is outstanding");
    set_current(NULL);
    *status = st;
    return true;
}

bool engine_next(const struct engine *e, sim_time *t, const char **what)
{
    /* The earlier of the two tops: superseded ticks are no events here. */
    if (!e->n && !e->tn) return false;
    if (tick_first(e)) {
        *t = e->th[0].t;
        *what = e->th[0].c->name;
        return true;
    }
    *t = e->heap[0].t;
    *what = e->heap[0].fn == periodic_fire ? "housekeeping (statistics epoch or watchdog)"
          : e->heap[0].fn == deferred_fire ? "a deferred driver action (a pin's expiry)"
          : "a scheduled callback (a landing, a launch, a timer)";
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

void *mq_pop_head(struct mq *q, sim_time now)
{
    void *m = q->msg[q->head];
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

/* The host side of the link -- the H2D copy engines, the writer of landed
 * D2H data and the host DDR4 channels -- run in a private event loop
 * instead of the engine (issue 13: a page copy cost ~110 engine events,
 * one per 128 B host read and its answer, channel clock and engine tick).
 *
 * The loop is the engine in miniature: events ordered by (time, domain
 * order, sequence), components that tick at their domain's clock edges and
 * wake as comp_wake_at does, so its events happen in the order the engine
 * would give them.  It meets the engine only through one pending engine
 * event (the sync) at the position of its next event that must happen in
 * the engine's order; everything else it may run early, "ahead":
 *
 *  - Outputs happen in the sync, at their own position: a copy engine's
 *    tick that takes a DMA (it reads the queue the driver fills), ends a
 *    setup (read requests on the D2H wire) or sends a DMA's data (the H2D
 *    wire, the done event).  A tick scheduled by an event at the same time
 *    (an answer) keeps that event's place: right after it.
 *  - Inputs come only from engine events.  So whatever the loop has before
 *    the engine's next event may run at once, outputs included.  Further:
 *    an H2D DMA wakes an idle copy engine now (a busy one reads the queue
 *    only at an output); a D2H transfer registered now lands no earlier
 *    than now + L (link latency + setup + the smallest packet), and until
 *    it lands nothing in the loop sees it (a landing is an event of its
 *    own).  So while every copy engine is busy, the loop runs ahead up to
 *    now + L, outputs excepted, past engine events.
 *  - Statistics are sampled every sim.epoch (system.c) and at sim.max_time:
 *    the loop never runs ahead across either.
 *  - Nothing runs ahead while a trace or the stepper listens (trace_mask):
 *    the hooks then see every burst and DMA in the engine's time order.
 * What runs ahead is the copy's detailed model itself (the same FR-FCFS
 * channels, the same reads and answers), so the times are those the
 * engine would give; only engine events are saved.  Ties at the same
 * picosecond with the engine's own link-domain events (landing callbacks,
 * wire accounting) touch nothing here, so their order does not matter.
 *
 * Stale ticks (a component woken earlier than a pending tick) cost no
 * engine event: when one comes up it is set aside as a ghost of its
 * component, which a later wake for that same time takes over (in the
 * engine the older event would have fired first, as in engine.c), and the
 * engine counted it in the run's end time, so the last one is synced if
 * nothing comes after it. */
#include <stdlib.h>
#include "link_int.h"
#include "core/mem_req.h"
#include "dram/dram.h"
#include "trace/trace.h"

enum { EV_TICK, EV_ANSWER, EV_CALL };

struct hev {
    sim_time t;
    uint64_t key;                /* order << 56 | sequence */
    struct mem_req *r;           /* EV_ANSWER */
    uint32_t idx;                /* EV_TICK: component; EV_CALL: callback */
    uint8_t kind;
    uint8_t pos_o;               /* the order it runs at: its own, or that of the
                                  * same-time event that scheduled it if later */
};

struct ghost { sim_time t; uint64_t key; uint8_t pos_o; };
struct hcall { void (*fn)(void *obj, sim_time now); void *obj; };

struct hcomp {
    sim_time next_tick;
    struct ghost *gh;           /* superseded ticks set aside, still ahead */
    unsigned ngh, capgh;
    const struct domain *dom;
    sim_time (*tick)(void *obj, unsigned arg, sim_time now);
    bool (*output)(void *obj, sim_time now);
    bool (*wants)(void *obj);
    void *obj;
    unsigned arg;
    unsigned waiting_on, wait_next;   /* a channel's full input queue */
};

#define NONE UINT32_MAX
#define SEQ_BITS 56

struct hloop {
    struct engine *eng;
    const struct domain *ldom, *hdom;
    struct dram *host;
    struct hev *heap;
    size_t n, cap;
    uint64_t seq;
    struct hcomp *c;
    unsigned nc, cap_c, nch;
    unsigned *blocked;           /* per channel: producers waiting for a slot */
    struct hcall *calls;
    unsigned ncalls;
    bool (*ahead_ok)(void *ctx);
    void *ahead_ctx;
    sim_time lmin, epoch, max_time;
    bool lockstep;
    /* the event being processed, or the engine's time outside */
    bool running;
    sim_time cur_t;
    unsigned cur_o;
    uint64_t cur_key;            /* of the last event popped: the loop's point */
    sim_time done_t;             /* the latest event processed */
    sim_time stale_t;            /* the latest stale tick skipped unsynced */
    /* the pending engine event */
    uint64_t gen;
    bool armed;
    sim_time armed_t;
    unsigned armed_o;
};

/* (time, key) compared as one 128-bit number: no branch on equal times,
 * which the loop's channels and copy engines hit at every clock edge
 * (issue 13: the loop's heap pop mispredicted on it). */
static inline bool before(sim_time t1, uint64_t k1, sim_time t2, uint64_t k2)
{
    __extension__ typedef unsigned __int128 u128;
    return ((u128)t1 << 64 | k1) < ((u128)t2 << 64 | k2);
}

static void push(struct hloop *L, struct hev ev)
{
    if (L->n == L->cap) {
        /* Grows to the peak number of pending events, then never again. */
        L->cap = L->cap ? 2 * L->cap : 256;
        L->heap = xrealloc(L->heap, L->cap * sizeof *L->heap);
    }
    size_t i = L->n++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!before(ev.t, ev.key, L->heap[p].t, L->heap[p].key)) break;
        L->heap[i] = L->heap[p];
        i = p;
    }
    L->heap[i] = ev;
}

static struct hev pop(struct hloop *L)
{
    struct hev top = L->heap[0], last = L->heap[--L->n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l >= L->n) break;
        const struct hev *cand = &last;
        if (before(L->heap[l].t, L->heap[l].key, cand->t, cand->key)) { m = l; cand = &L->heap[l]; }
        if (l + 1 < L->n && before(L->heap[l + 1].t, L->heap[l + 1].key, cand->t, cand->key))
            m = l + 1;
        if (m == i) break;
        L->heap[i] = L->heap[m];
        i = m;
    }
    if (L->n) L->heap[i] = last;
    return top;
}

/* An event scheduled at the time it is for, by an event of a later order,
 * runs right after that one (it is the engine's earliest then). */
static uint8_t pos_order(const struct hloop *L, sim_time t, unsigned order)
{
    if (L->running && L->cur_t == t && L->cur_o > order) return (uint8_t)L->cur_o;
    return (uint8_t)order;
}

static void schedule(struct hloop *L, struct hev ev, unsigned order)
{
    ev.key = ((uint64_t)order << SEQ_BITS) | L->seq++;
    ev.pos_o = pos_order(L, ev.t, order);
    push(L, ev);
}

/* ---- the sync with the engine ---- */

static void sync_fn(void *obj, uint64_t gen, sim_time now);

static bool is_stale(const struct hloop *L, const struct hev *ev)
{
    return ev->kind == EV_TICK && L->c[ev->idx].next_tick != ev->t;
}

/* Where the engine would run ev: at its own (time, order), or right after
 * the same-time event that scheduled it. */
static void position(const struct hloop *L, const struct hev *ev, sim_time *t, unsigned *o)
{
    (void)L;
    *t = ev->t;
    *o = ev->pos_o;
}

static void arm_at(struct hloop *L, sim_time t, unsigned o)
{
    if (L->armed && !before(t, o, L->armed_t, L->armed_o)) return;
    L->armed = true;
    L->armed_t = t;
    L->armed_o = o;
    engine_at(L->eng, t, o == L->hdom->order ? L->hdom : L->ldom, sync_fn, L, ++L->gen);
}

static void arm(struct hloop *L)
{
    /* Stale ticks cost no sync: set aside as ghosts.  The engine counted
     * each in the run's end time: the last is synced if nothing follows. */
    while (L->n && is_stale(L, &L->heap[0])) {
        struct hev ev = pop(L);
        struct hcomp *c = &L->c[ev.idx];
        if (c->ngh == c->capgh) {
            /* Grows to the component's peak number of ghosts. */
            c->capgh = c->capgh ? 2 * c->capgh : 4;
            c->gh = xrealloc(c->gh, c->capgh * sizeof *c->gh);
        }
        c->gh[c->ngh++] = (struct ghost){ ev.t, ev.key, ev.pos_o };
        if (ev.t > L->stale_t) L->stale_t = ev.t;
    }
    if (L->n) {
        sim_time t;
        unsigned o;
        position(L, &L->heap[0], &t, &o);
        arm_at(L, t, o);
    } else {
        /* Nothing left: the engine still ends its run at the last event it
         * would have had (one that ran ahead, or a stale tick). */
        sim_time last = L->stale_t > L->done_t ? L->stale_t : L->done_t;
        if (last > engine_now(L->eng)) arm_at(L, last, L->ldom->order);
    }
}

static bool is_output(const struct hloop *L, const struct hev *ev)
{
    if (ev->kind != EV_TICK || is_stale(L, ev)) return false;
    const struct hcomp *c = &L->c[ev->idx];
    return c->output && c->output(c->obj, ev->t);
}

static void wake(struct hloop *L, unsigned ci, sim_time t);

/* The answer r arrives at t: into its consumer's reply queue, and the
 * consumer's tick -- which the engine would run next, right after this
 * event -- runs here unless another event of the loop is due first at t,
 * it would touch anything outside (an output: the run decides), or the
 * consumer has nothing to do with it (it pops its answers when it next
 * ticks; no tick of it is pending that this wake would have superseded). */
static void answered(struct hloop *L, struct mem_req *r, sim_time t)
{
    if (!mq_push(r->reply, r, t, NULL))
        sim_panic("link.host", t, "reply queue '%s' full", r->reply->name);
    unsigned ci = r->slot;
    struct hcomp *c = &L->c[ci];
    sim_time at = t + r->reply->latency;
    if (c->next_tick == TIME_NEVER && c->wants && !c->wants(c->obj)) return;
    if (at != t || domain_edge(c->dom, t) != t || c->next_tick != TIME_NEVER || c->ngh ||
        !L->running || (c->output && c->output(c->obj, t))) {
        wake(L, ci, at);
        return;
    }
    if (L->n && L->heap[0].t == t && (unsigned)(L->heap[0].key >> SEQ_BITS) <= c->dom->order) {
        wake(L, ci, at);
        return;
    }
    /* The consumer's tick, as step() would run it at (t, its order). */
    L->cur_o = c->dom->order;
    sim_time next = c->tick(c->obj, c->arg, t);
    if (next == TIME_NEVER) return;
    SIM_ASSERT(next > t, "link.host", t, "tick asked to run again at t=%llu",
               (unsigned long long)next);
    wake(L, ci, next);
}

static void step(struct hloop *L)
{
    struct hev ev = pop(L);
    L->cur_key = ev.key;
    L->cur_t = ev.t;
    L->cur_o = (unsigned)(ev.key >> SEQ_BITS);
    if (ev.t > L->done_t) L->done_t = ev.t;
    switch (ev.kind) {
    case EV_TICK: {
        struct hcomp *c = &L->c[ev.idx];
        if (c->next_tick != ev.t) return;          /* stale */
        c->next_tick = TIME_NEVER;
        sim_time next = c->tick(c->obj, c->arg, ev.t);
        if (next == TIME_NEVER) return;
        SIM_ASSERT(next > ev.t, "link.host", ev.t, "tick asked to run again at t=%llu",
                   (unsigned long long)next);
        wake(L, ev.idx, next);
        return;
    }
    case EV_ANSWER:
        answered(L, ev.r, ev.t);
        return;
    default:
        L->calls[ev.idx].fn(L->calls[ev.idx].obj, ev.t);
        return;
    }
}

/* The next sample at or after t: multiples of the period from the first
 * (engine_every from time 0: none at 0).  One due at t itself comes after
 * every event at t: nothing may run ahead of it. */
static sim_time next_sample(const struct hloop *L, sim_time t)
{
    if (!L->epoch) return TIME_NEVER;
    if (t < L->epoch) return L->epoch;
    return (t + L->epoch - 1) / L->epoch * L->epoch;
}

/* Whether ev comes before the engine's next event: then nothing can reach
 * the loop before it, and it may run now, outputs included. */
static bool before_engine(const struct hloop *L, const struct hev *ev)
{
    sim_time te;
    unsigned oe;
    if (!engine_next_at(L->eng, &te, &oe)) return true;
    sim_time t;
    unsigned o;
    position(L, ev, &t, &o);
    return t < te || (t == te && o < oe);
}

static void run(struct hloop *L, sim_time now, unsigned o)
{
    L->running = true;
    /* Everything up to the sync's own position, in order. */
    while (L->n && !before(now, o, L->heap[0].t, L->heap[0].key >> SEQ_BITS)) step(L);
    /* Then ahead, as far as no input can reach the loop first:
     *  - anything before the engine's next event (no event intervenes);
     *  - while every copy engine is busy, anything but an output before
     *    now + lmin (no input takes effect earlier) and the next sample;
     * never past the time limit. */
    sim_time h = now + L->lmin;
    sim_time s = next_sample(L, now);
    if (s < h) h = s;
    sim_time lim = L->max_time ? L->max_time : TIME_NEVER - 1;
    /* While anything listens to the trace hooks the loop runs in step: the
     * writer closes its window at the first hook past its end (a burst
     * run ahead would cut off the engine's events before it), and the
     * stepper shows host memory and the link as of the engine's time. */
    while (L->n && !L->lockstep && !trace_mask) {
        const struct hev *ev = &L->heap[0];
        if (ev->t > lim) break;
        bool busy_ok = ev->t < h && L->ahead_ok(L->ahead_ctx) && !is_output(L, ev);
        if (!busy_ok && !before_engine(L, ev)) break;
        step(L);
    }
    L->running = false;
    arm(L);
}

static void sync_fn(void *obj, uint64_t gen, sim_time now)
{
    struct hloop *L = obj;
    if (gen != L->gen) return;                     /* superseded by an earlier sync */
    L->armed = false;
    if (now > L->done_t) L->done_t = now;
    run(L, now, L->armed_o);
}

/* ---- what the components call ---- */

/* A ghost of c at t that the loop has not passed would have come up before
 * a fresh tick at t: the tick takes its place (key and origin), and the
 * fresh one is the ghost now.  Ghosts the loop has passed are dropped. */
static void take_ghost(struct hloop *L, struct hcomp *c, struct hev *ev)
{
    unsigned n = 0, best = NONE;
    for (unsigned i = 0; i < c->ngh; i++) {
        struct ghost g = c->gh[i];
        if (!before(L->cur_t, L->cur_key, g.t, g.key)) continue;   /* passed */
        c->gh[n] = g;
        if (g.t == ev->t && (best == NONE || g.key < c->gh[best].key)) best = n;
        n++;
    }
    c->ngh = n;
    if (best == NONE || c->gh[best].key > ev->key) return;
    struct ghost g = c->gh[best];
    c->gh[best] = (struct ghost){ ev->t, ev->key, ev->pos_o };
    ev->key = g.key;
    ev->pos_o = g.pos_o;
}

static void wake(struct hloop *L, unsigned ci, sim_time t)
{
    struct hcomp *c = &L->c[ci];
    sim_time now = L->running ? L->cur_t : engine_now(L->eng);
    if (t < now) t = now;
    sim_time edge = domain_edge(c->dom, t);
    if (c->next_tick <= edge) return;              /* an earlier tick re-decides */
    c->next_tick = edge;
    struct hev ev = { .t = edge, .kind = EV_TICK, .idx = ci };
    ev.key = ((uint64_t)c->dom->order << SEQ_BITS) | L->seq++;
    ev.pos_o = pos_order(L, edge, c->dom->order);
    if (c->ngh) take_ghost(L, c, &ev);
    /* An input behind what already ran ahead would break the order. */
    SIM_ASSERT(L->running || edge >= L->done_t, "link.host", now,
               "a wake at %llu ps behind the loop's %llu ps", (unsigned long long)edge,
               (unsigned long long)L->done_t);
    push(L, ev);
    if (!L->running) arm(L);
}

void hl_wake(struct hloop *L, unsigned c, sim_time t) { wake(L, c, t); }

void hl_at(struct hloop *L, sim_time t, void (*fn)(void *obj, sim_time now), void *obj)
{
    SIM_ASSERT(t > L->done_t, "link.host", hl_now(L), "an event at %llu ps behind the loop's "
               "%llu ps", (unsigned long long)t, (unsigned long long)L->done_t);
    unsigned i = 0;
    while (i < L->ncalls && (L->calls[i].fn != fn || L->calls[i].obj != obj)) i++;
    if (i == L->ncalls) {
        /* One entry per distinct callback (the writer's landings): set up once. */
        L->calls = xrealloc(L->calls, (L->ncalls + 1) * sizeof *L->calls);
        L->calls[L->ncalls++] = (struct hcall){ fn, obj };
    }
    schedule(L, (struct hev){ .t = t, .kind = EV_CALL, .idx = i }, L->ldom->order);
    if (!L->running) arm(L);
}

void hl_push(struct hloop *L, unsigned ch, struct mem_req *r, sim_time now)
{
    struct mq *q = dram_channel_in(L->host, ch);
    mq_push(q, r, now, NULL);
    wake(L, ch, now + q->latency);
}

bool hl_wait_if_full(struct hloop *L, unsigned ch, unsigned c)
{
    if (!mq_full(dram_channel_in(L->host, ch))) return false;
    /* As mq_wait_space: once per queue, the latest first. */
    struct hcomp *p = &L->c[c];
    if (p->waiting_on == ch) return true;
    SIM_ASSERT(p->waiting_on == NONE, "link.host", L->cur_t, "waits on two full queues at once");
    p->waiting_on = ch;
    p->wait_next = L->blocked[ch];
    L->blocked[ch] = c;
    return true;
}

static void loop_answer(void *ctx, struct mem_req *r, sim_time at, bool now)
{
    struct hloop *L = ctx;
    if (!now) {
        schedule(L, (struct hev){ .t = at, .kind = EV_ANSWER, .r = r }, L->hdom->order);
        return;
    }
    if (!mq_push(r->reply, r, at, NULL))
        sim_panic("link.host", at, "reply queue '%s' full", r->reply->name);
    wake(L, r->slot, at + r->reply->latency);
}

static void loop_popped(void *ctx, unsigned ch, sim_time now)
{
    struct hloop *L = ctx;
    unsigned c = L->blocked[ch];
    L->blocked[ch] = NONE;
    while (c != NONE) {
        unsigned nx = L->c[c].wait_next;
        L->c[c].wait_next = NONE;
        L->c[c].waiting_on = NONE;
        wake(L, c, now);
        c = nx;
    }
}

static const struct dram_loop loop_ops = { loop_answer, loop_popped };

static sim_time channel_tick(void *obj, unsigned ch, sim_time now)
{
    struct hloop *L = obj;
    return dram_tick(L->host, ch, now);
}

struct hloop *hl_new(struct engine *e, struct dram *host, const struct domain *ldom,
                     sim_time lmin, sim_time epoch, sim_time max_time)
{
    struct hloop *L = xcalloc(1, sizeof *L);
    L->eng = e;
    L->host = host;
    L->ldom = ldom;
    L->hdom = dram_domain(host);
    L->lmin = lmin;
    L->epoch = epoch;
    L->max_time = max_time;
    L->nch = dram_nchannels(host);
    L->blocked = xmalloc(L->nch * sizeof *L->blocked);
    for (unsigned i = 0; i < L->nch; i++) {
        L->blocked[i] = NONE;
        hl_add(L, L->hdom, channel_tick, NULL, NULL, L);
    }
    dram_set_loop(host, &loop_ops, L);
    return L;
}

void hl_free(struct hloop *L)
{
    if (!L) return;
    free(L->heap);
    for (unsigned i = 0; i < L->nc; i++) free(L->c[i].gh);
    free(L->c);
    free(L->blocked);
    free(L->calls);
    free(L);
}

unsigned hl_add(struct hloop *L, const struct domain *dom,
                sim_time (*tick)(void *obj, unsigned arg, sim_time now),
                bool (*output)(void *obj, sim_time now), bool (*wants)(void *obj), void *obj)
{
    if (L->nc == L->cap_c) {
        L->cap_c = L->cap_c ? 2 * L->cap_c : 8;
        L->c = xrealloc(L->c, L->cap_c * sizeof *L->c);
    }
    unsigned i = L->nc++;
    L->c[i] = (struct hcomp){ .next_tick = TIME_NEVER, .dom = dom, .tick = tick,
                              .output = output, .wants = wants, .obj = obj,
                              .arg = i < L->nch ? i : 0,
                              .waiting_on = NONE, .wait_next = NONE };
    return i;
}

void hl_set_ahead(struct hloop *L, bool (*ok)(void *ctx), void *ctx)
{
    L->ahead_ok = ok;
    L->ahead_ctx = ctx;
}

void hl_lockstep(struct hloop *L, bool on) { L->lockstep = on; }

sim_time hl_now(const struct hloop *L) { return L->running ? L->cur_t : engine_now(L->eng); }
struct dram *hl_host(const struct hloop *L) { return L->host; }

void hl_dump(const struct hloop *L, FILE *out)
{
    fprintf(out, "    host loop: %zu events pending, done to %llu ps, sync %s%llu ps\n", L->n,
            (unsigned long long)L->done_t, L->armed ? "at " : "none, last ",
            (unsigned long long)L->armed_t);
}

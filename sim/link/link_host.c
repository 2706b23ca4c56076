/* H2D copy engines that read host memory.  Each engine is a component:
 * it takes the next queued DMA, pays the setup, sends its read requests
 * (link.max_read_request bytes each, D2H), reads the bytes from host DDR4
 * in 128 B requests (at most MAX_OUT in flight, the engine's read tags),
 * and puts the data on the wire pipelined behind the reads: the first
 * completion can go when the first answer is back, the last leaves no
 * earlier than the last answer plus its own wire time.  Once a DMA's data
 * is handed to the wire the engine takes its next DMA, whose host reads
 * overlap this one's wire time (issue 11, point 10: a copy engine keeps
 * the wire busy across back-to-back DMAs).  (With DDR4 at 80 GB/s against
 * a 16 GB/s link the reads add latency, not a bandwidth limit, unless
 * remote accesses load host memory.)
 *
 * The engines, the writer and host memory run in the host side's private
 * loop (link_host_loop.c): a tick of an engine that takes a DMA, ends a
 * setup or sends a DMA's data is an output and runs in the engine's order;
 * its reads and their answers run ahead while every engine is busy. */
#include <stdlib.h>
#include "link_int.h"
#include "core/mem_req.h"
#include "dram/dram.h"
#include "trace/trace.h"

#define MAX_OUT 64
#define CHUNK 128u

struct dma { uint64_t addr, bytes, wire; sim_time lat; event_fn done; void *obj; uint64_t arg; };

enum ce_state { CE_IDLE, CE_SETUP, CE_READ };

struct ce {
    struct component comp;      /* for the engine's dump only: the loop ticks it */
    char name[24];
    unsigned id;                /* in the loop */
    struct host_dma *h;
    enum ce_state st;
    struct dma cur;
    sim_time t;                 /* end of setup */
    sim_time t_start;           /* the DMA's start on this engine (trace) */
    uint64_t nreq, issued, answered;
    sim_time first;
    struct mq replies;
};

struct host_dma {
    struct link *l;
    struct dram *host;
    struct hloop *loop;
    struct req_pool *pool;
    struct ce *ce;
    struct dma *q;              /* ring of DMAs waiting for an engine */
    size_t cap, head, n;
};

static sim_time ce_tick(void *obj, unsigned arg, sim_time now);

static void ce_dump(struct component *c, FILE *out)
{
    struct ce *e = (struct ce *)c;
    fprintf(out, "    state %d, %llu of %llu reads answered, %zu DMAs queued\n", (int)e->st,
            (unsigned long long)e->answered, (unsigned long long)e->nreq, e->h->n);
    if (e == e->h->ce) hl_dump(e->h->loop, out);
}

/* Never run by the engine: the loop ticks the engines (ce_tick). */
static sim_time ce_never(struct component *c, sim_time now)
{
    (void)c; (void)now;
    return TIME_NEVER;
}

static const struct comp_ops ce_ops = { ce_never, ce_dump };

/* Whether e's tick at t touches anything outside the loop. */
static bool ce_output(void *obj, sim_time t)
{
    const struct ce *e = obj;
    switch (e->st) {
    case CE_IDLE: return true;                           /* reads the DMA queue */
    case CE_SETUP: return t >= e->t;                     /* read requests, D2H wire */
    default: return e->answered + e->replies.n >= e->nreq;  /* the data, H2D wire */
    }
}

/* An answer needs e's tick now only if it has reads left to issue, is the
 * first (the wire is reserved from it: link_h2d_reserve) or completes the
 * DMA; otherwise it waits in the reply queue. */
static bool ce_wants(void *obj)
{
    const struct ce *e = obj;
    return e->st != CE_READ || e->issued < e->nreq || !e->answered ||
           e->answered + e->replies.n >= e->nreq;
}

/* The loop may run ahead while no engine waits for a DMA. */
static bool all_busy(void *ctx)
{
    const struct host_dma *h = ctx;
    for (unsigned i = 0; i < h->l->nce; i++)
        if (h->ce[i].st == CE_IDLE) return false;
    return true;
}

void link_attach_host(struct link *l, struct dram *host, struct req_pool *pool)
{
    struct host_dma *h = xcalloc(1, sizeof *h);
    h->l = l;
    h->host = host;
    h->pool = pool;
    /* A D2H transfer registered now lands no earlier than its setup, its
     * smallest packet and the latency later (link_dma). */
    sim_time lmin = l->setup + link_ser(l, link_fmt_wire(&l->fmt[LINK_D2H], 1)) + l->latency;
    h->loop = hl_new(l->eng, host, l->dom, lmin, l->epoch, l->max_time);
    hl_set_ahead(h->loop, all_busy, h);
    h->ce = xcalloc(l->nce, sizeof *h->ce);
    for (unsigned i = 0; i < l->nce; i++) {
        struct ce *e = &h->ce[i];
        snprintf(e->name, sizeof e->name, "link.h2d.ce%u", i);
        e->h = h;
        comp_init(&e->comp, l->eng, &ce_ops, e->name, l->dom);
        mq_init(&e->replies, e->name, MAX_OUT, 0, NULL);
        e->id = hl_add(h->loop, l->dom, ce_tick, ce_output, ce_wants, e);
    }
    l->host = h;
    l->hw = link_host_writer_new(l, h->loop, pool, l->st);
}

struct hloop *link_host_loop(const struct link *l) { return l->host->loop; }
struct req_pool *link_host_pool(const struct link *l) { return l->host->pool; }

void link_host_lockstep(struct link *l, bool on)
{
    if (l->host) hl_lockstep(l->host->loop, on);
}

void link_host_free(struct host_dma *h)
{
    if (!h) return;
    for (unsigned i = 0; i < h->l->nce; i++) mq_free(&h->ce[i].replies);
    free(h->ce);
    free(h->q);
    hl_free(h->loop);
    free(h);
}

sim_time link_host_dma(struct link *l, uint64_t host_addr, uint64_t bytes, uint64_t wire,
                       sim_time lat, sim_time now, event_fn done, void *obj, uint64_t arg)
{
    struct host_dma *h = l->host;
    if (h->n == h->cap) {
        /* Grows to the peak number of queued DMAs, then never again. */
        size_t cap = h->cap ? 2 * h->cap : 64;
        struct dma *q = xcalloc(cap, sizeof *q);
        for (size_t i = 0; i < h->n; i++) q[i] = h->q[(h->head + i) % h->cap];
        free(h->q);
        h->q = q;
        h->cap = cap;
        h->head = 0;
    }
    h->q[(h->head + h->n++) % h->cap] = (struct dma){ host_addr, bytes, wire, lat, done, obj, arg };
    *l->d[LINK_H2D].transfers += 1;
    for (unsigned i = 0; i < l->nce; i++)
        if (h->ce[i].st == CE_IDLE) { hl_wake(h->loop, h->ce[i].id, now); break; }
    return TIME_NEVER;
}

static sim_time ce_tick(void *obj, unsigned arg, sim_time now)
{
    (void)arg;
    struct ce *e = obj;
    struct host_dma *h = e->h;
    struct link *l = h->l;
    struct mem_req *r;
    while (e->replies.n) {
        /* When it arrived (the queue has no latency), if this tick is later. */
        sim_time at = e->replies.ready[e->replies.head];
        r = mq_pop(&e->replies, now);
        if (e->answered++ == 0) {
            e->first = at;
            link_h2d_reserve(l, e->cur.wire, at);
        }
        req_release(h->pool, r);
    }
    for (;;) {
        switch (e->st) {
        case CE_IDLE:
            if (!h->n) return TIME_NEVER;
            e->cur = h->q[h->head];
            h->head = (h->head + 1) % h->cap;
            h->n--;
            e->t = now + l->setup;
            e->t_start = now;
            e->st = CE_SETUP;
            break;
        case CE_SETUP:
            if (now < e->t) return e->t;
            e->nreq = (e->cur.bytes + CHUNK - 1) / CHUNK;
            e->issued = e->answered = 0;
            link_read_requests(l, e->cur.wire, now);
            e->st = CE_READ;
            break;
        case CE_READ:
            while (e->issued < e->nreq && e->issued - e->answered < MAX_OUT) {
                uint64_t pa = e->cur.addr + e->issued * CHUNK;
                unsigned ch = dram_channel_of(h->host, pa);
                if (hl_wait_if_full(h->loop, ch, e->id)) return TIME_NEVER;
                r = req_alloc(h->pool);
                r->kind = REQ_LOAD;
                r->vaddr = r->paddr = pa;
                uint64_t left = e->cur.bytes - e->issued * CHUNK;
                r->size = (uint32_t)(left < CHUNK ? left : CHUNK);
                r->sector_mask = 0xf;
                r->t_issue = now;
                r->reply = &e->replies;
                r->slot = e->id;            /* the loop wakes us with the answer */
                hl_push(h->loop, ch, r, now);
                e->issued++;
            }
            if (e->answered < e->nreq) return TIME_NEVER;   /* answers wake us */
            {
                /* Pipelined behind the reads: from the first answer, and
                 * the last chunk's completion after the last answer. */
                uint64_t last = e->cur.bytes - (e->nreq - 1) * CHUNK;
                /* Compressed: the last answer's share of the stream. */
                if (e->cur.wire != e->cur.bytes) last = link_compressed(l, last);
                sim_time tail = now + link_ser(l, link_wire_bytes(l, LINK_H2D, last));
                sim_time left = link_send(l, LINK_H2D, e->cur.wire, e->first, tail);
                sim_time land = left + l->latency + e->cur.lat;
                if (TRACE_ON(TW_DMA))
                    trace_dma(false, (unsigned)(e - h->ce), e->cur.addr, e->cur.bytes, now,
                              e->t_start, land);
                engine_at(l->eng, land, l->dom, e->cur.done, e->cur.obj, e->cur.arg);
                e->st = CE_IDLE;
            }
            break;
        }
    }
}

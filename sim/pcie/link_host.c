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
 * remote accesses load host memory.) */
#include <stdlib.h>
#include "link_int.h"
#include "../mem_req.h"
#include "../dram/dram.h"
#include "../trace/trace.h"

#define MAX_OUT 64
#define CHUNK 128u

struct dma { uint64_t addr, bytes; event_fn done; void *obj; uint64_t arg; };

enum ce_state { CE_IDLE, CE_SETUP, CE_READ };

struct ce {
    struct component comp;
    char name[24];
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
    struct req_pool *pool;
    struct ce *ce;
    struct dma *q;              /* ring of DMAs waiting for an engine */
    size_t cap, head, n;
};

static sim_time ce_tick(struct component *c, sim_time now);

static void ce_dump(struct component *c, FILE *out)
{
    struct ce *e = (struct ce *)c;
    fprintf(out, "    state %d, %llu of %llu reads answered, %zu DMAs queued\n", (int)e->st,
            (unsigned long long)e->answered, (unsigned long long)e->nreq, e->h->n);
}

static const struct comp_ops ce_ops = { ce_tick, ce_dump };

void link_attach_host(struct link *l, struct dram *host, struct req_pool *pool)
{
    struct host_dma *h = xcalloc(1, sizeof *h);
    h->l = l;
    h->host = host;
    h->pool = pool;
    h->ce = xcalloc(l->nce, sizeof *h->ce);
    for (unsigned i = 0; i < l->nce; i++) {
        struct ce *e = &h->ce[i];
        snprintf(e->name, sizeof e->name, "link.h2d.ce%u", i);
        e->h = h;
        comp_init(&e->comp, l->eng, &ce_ops, e->name, l->dom);
        mq_init(&e->replies, e->name, MAX_OUT, 0, &e->comp);
    }
    l->host = h;
    l->hw = link_host_writer_new(l, host, pool, l->st);
}

void link_host_free(struct host_dma *h)
{
    if (!h) return;
    for (unsigned i = 0; i < h->l->nce; i++) mq_free(&h->ce[i].replies);
    free(h->ce);
    free(h->q);
    free(h);
}

sim_time link_host_dma(struct link *l, uint64_t host_addr, uint64_t bytes,
                       sim_time now, event_fn done, void *obj, uint64_t arg)
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
    h->q[(h->head + h->n++) % h->cap] = (struct dma){ host_addr, bytes, done, obj, arg };
    *l->d[LINK_H2D].transfers += 1;
    for (unsigned i = 0; i < l->nce; i++)
        if (h->ce[i].st == CE_IDLE) { comp_wake(&h->ce[i].comp, now); break; }
    return TIME_NEVER;
}

static sim_time ce_tick(struct component *c, sim_time now)
{
    struct ce *e = (struct ce *)c;
    struct host_dma *h = e->h;
    struct link *l = h->l;
    struct mem_req *r;
    while ((r = mq_pop(&e->replies, now))) {
        if (e->answered++ == 0) e->first = now;
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
            link_read_requests(l, e->cur.bytes, now);
            e->st = CE_READ;
            break;
        case CE_READ:
            while (e->issued < e->nreq && e->issued - e->answered < MAX_OUT) {
                uint64_t pa = e->cur.addr + e->issued * CHUNK;
                struct mq *q = dram_channel_in(h->host, dram_channel_of(h->host, pa));
                if (mq_full(q)) { mq_wait_space(q, c); return TIME_NEVER; }
                r = req_alloc(h->pool);
                r->kind = REQ_LOAD;
                r->vaddr = r->paddr = pa;
                uint64_t left = e->cur.bytes - e->issued * CHUNK;
                r->size = (uint32_t)(left < CHUNK ? left : CHUNK);
                r->sector_mask = 0xf;
                r->t_issue = now;
                r->reply = &e->replies;
                mq_push(q, r, now, c);
                e->issued++;
            }
            if (e->answered < e->nreq) return TIME_NEVER;   /* answers wake us */
            {
                /* Pipelined behind the reads: from the first answer, and
                 * the last chunk's completion after the last answer. */
                uint64_t last = e->cur.bytes - (e->nreq - 1) * CHUNK;
                sim_time tail = now + link_ser(l, link_wire_bytes(l, LINK_H2D, last));
                sim_time left = link_send(l, LINK_H2D, e->cur.bytes, e->first, tail);
                if (TRACE_ON(TW_DMA))
                    trace_dma(false, (unsigned)(e - h->ce), e->cur.addr, e->cur.bytes, now,
                              e->t_start, left + l->latency);
                engine_at(l->eng, left + l->latency, l->dom, e->cur.done, e->cur.obj, e->cur.arg);
                e->st = CE_IDLE;
            }
            break;
        }
    }
}

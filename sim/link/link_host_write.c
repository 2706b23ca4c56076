/* D2H data lands in host memory: once a D2H transfer has crossed the link,
 * its bytes are written into host DDR4 as 128 B posted writes.  PCIe
 * memory writes are posted, so the transfer is complete for its sender at
 * landing; the writes only load the host channels (which serve H2D reads
 * and, later, remote accesses too).  At most MAX_OUT writes in flight.
 * It runs in the host side's private loop (link_host_loop.c): a transfer
 * joins its queue when it lands (an event of its own), so nothing before
 * the landing depends on when it was registered. */
#include <stdlib.h>
#include "link_int.h"
#include "core/mem_req.h"
#include "dram/dram.h"
#include "core/stats.h"

#define MAX_OUT 64
#define CHUNK 128u

struct pending { uint64_t addr, bytes, done; };

struct host_writer {
    struct component comp;      /* for the engine's dump only: the loop ticks it */
    struct hloop *loop;
    unsigned id;                /* in the loop */
    struct dram *host;
    struct req_pool *pool;
    struct pending *q;          /* ring, in landing order */
    size_t cap, head, n, landed;    /* landed: the first `landed` of the n */
    uint64_t outstanding;
    struct mq replies;
    uint64_t *writes;
};

static sim_time hw_tick(void *obj, unsigned arg, sim_time now)
{
    (void)arg;
    struct host_writer *w = obj;
    struct mem_req *r;
    while ((r = mq_pop(&w->replies, now))) {
        req_release(w->pool, r);
        w->outstanding--;
    }
    while (w->landed && w->outstanding < MAX_OUT) {
        struct pending *p = &w->q[w->head];
        uint64_t pa = p->addr + p->done;
        unsigned ch = dram_channel_of(w->host, pa);
        if (hl_wait_if_full(w->loop, ch, w->id)) return TIME_NEVER;
        r = req_alloc(w->pool);
        r->kind = REQ_STORE;
        r->vaddr = r->paddr = pa;
        uint64_t left = p->bytes - p->done;
        r->size = (uint32_t)(left < CHUNK ? left : CHUNK);
        r->sector_mask = 0xf;
        r->t_issue = now;
        r->reply = &w->replies;
        r->slot = w->id;                /* the loop wakes us with the answer */
        hl_push(w->loop, ch, r, now);
        w->outstanding++;
        *w->writes += 1;
        p->done += r->size;
        if (p->done == p->bytes) { w->head = (w->head + 1) % w->cap; w->n--; w->landed--; }
    }
    /* Answers and landings wake us. */
    return TIME_NEVER;
}

static void landed(void *obj, sim_time now)
{
    struct host_writer *w = obj;
    w->landed++;
    hl_wake(w->loop, w->id, now);
}

/* A write's acknowledgement needs the writer's tick now only if it has
 * landed data left to write, or to release the requests once the last
 * write is acknowledged; otherwise it waits in the reply queue. */
static bool hw_wants(void *obj)
{
    const struct host_writer *w = obj;
    return w->landed > 0 || w->replies.n >= w->outstanding;
}

static void hw_dump(struct component *c, FILE *out)
{
    struct host_writer *w = (struct host_writer *)c;
    fprintf(out, "    %zu landed transfers to write (%zu more to land), %llu writes in flight\n",
            w->landed, w->n - w->landed, (unsigned long long)w->outstanding);
}

/* Never run by the engine: the loop ticks the writer (hw_tick). */
static sim_time hw_never(struct component *c, sim_time now)
{
    (void)c; (void)now;
    return TIME_NEVER;
}

static const struct comp_ops hw_ops = { hw_never, hw_dump };

struct host_writer *link_host_writer_new(struct link *l, struct hloop *L,
                                         struct req_pool *pool, struct stats *st)
{
    struct host_writer *w = xcalloc(1, sizeof *w);
    w->loop = L;
    w->host = hl_host(L);
    w->pool = pool;
    comp_init(&w->comp, l->eng, &hw_ops, "link.d2h.host_writes", l->dom);
    mq_init(&w->replies, "link.d2h.host_writes", MAX_OUT, 0, NULL);
    w->id = hl_add(L, l->dom, hw_tick, NULL, hw_wants, w);
    w->writes = stat_counter(st, "link.d2h.host_writes", "requests",
                             "128 B writes of landed D2H data into host memory");
    return w;
}

void link_host_writer_free(struct host_writer *w)
{
    if (!w) return;
    mq_free(&w->replies);
    free(w->q);
    free(w);
}

void link_host_write(struct host_writer *w, uint64_t addr, uint64_t bytes, sim_time landing)
{
    if (!bytes) return;
    if (w->n == w->cap) {
        /* Grows to the peak number of landed-but-unwritten transfers. */
        size_t cap = w->cap ? 2 * w->cap : 64;
        struct pending *q = xcalloc(cap, sizeof *q);
        for (size_t i = 0; i < w->n; i++) q[i] = w->q[(w->head + i) % w->cap];
        free(w->q);
        w->q = q;
        w->cap = cap;
        w->head = 0;
    }
    w->q[(w->head + w->n++) % w->cap] = (struct pending){ addr, bytes, 0 };
    hl_at(w->loop, landing, landed, w);
}

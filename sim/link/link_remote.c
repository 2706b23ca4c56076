/* Remote (CC-NUMA) accesses: a line request of the GPU to a page homed in
 * host memory crosses the link to host DDR4 and, for a read, back (thesis
 * Ch. III-IV: the capacity-optimised DDR4 reached with one extra
 * interconnect hop of +100 GPU core cycles; DESIGN.md, "the path of one
 * access", step 4).
 *
 * GPU end (called from an L2 slice's tick): the request goes on the D2H
 * wire at once, first come first served with the copy engines' traffic
 * (link_send: the same per-direction wire, packets and rate): a read or an
 * atomic as a header-only read request (an atomic carries its operand
 * sectors), a write as a write packet with its sector bytes.  A write is
 * posted (PCIe memory writes are; NVLink writes too): its sender gets it
 * back when its last byte has left the wire.  The L2's MSHRs and write-back
 * buffer bound what is in flight; nothing queues at this end.
 *
 * Host end (in the host side's private loop, link_host_loop.c): a request
 * lands link.latency after it left the wire, enters the host DDR4 channel
 * of its address (waiting for a slot of its bounded input queue), and the
 * channel answers it host.latency GPU cycles after its data (the thesis'
 * extra hop, counted once, in the controller pipeline: dram.c
 * hostmem_create).  A read's answer then goes on the H2D wire as one
 * completion of its sector bytes (first come first served with the DMA
 * data) and lands link.latency later, back in the sender's reply queue.
 * So an idle read of one 128 B line takes
 *   ser(D2H read request) + link.latency + host DDR4 access + hop
 *   + ser(H2D completion of 128 B) + link.latency.
 * With the CPU-side client cache (link_client.c) every request is looked up
 * there first, host.client_cache.latency after it lands: a hit is answered
 * the hop later, a miss reads its whole line through the DDR4 channel. 
 *
 * The loop and the engine: requests reach host memory, so the host side
 * cannot run ahead of the engine while remote accesses are possible; and
 * a remote answer may take the H2D wire between a copy's first and last
 * host read, so the single copy engine may not reserve the wire ahead of
 * its data.  link_remote_enable turns both off (system.c calls it when a
 * page can be host-homed); a remote request with the path off is an
 * internal error. */
#include <stdlib.h>
#include "link_int.h"
#include "core/mem_req.h"
#include "dram/dram.h"
#include "core/stats.h"

/* Host-side requests in flight at once: sizes the answer queue.  Not a
 * modelled limit: well above the bandwidth-delay product of the host
 * memories configured (200 GB/s x ~200 ns / 128 B = 312 lines). */
#define MAX_OUT 1024u

struct rentry {
    struct mem_req *r;          /* the sender's request; NULL: a posted write */
    struct mem_req *h;          /* its copy that host memory serves */
    sim_time t_send;            /* when it went on the D2H wire */
    uint32_t next;              /* free list */
};

struct remote {
    struct component comp;      /* for the engine's dump only: the loop ticks it */
    struct link *l;
    struct hloop *loop;
    struct dram *host;
    struct req_pool *pool;
    unsigned id;                /* in the loop */
    struct rentry *e;           /* in flight: grows to the peak, then never again */
    uint32_t cap, free_head, live;
    uint32_t *arr;              /* ring of entries in landing order */
    uint32_t ahead, an, landed; /* landed: the first `landed` of the an */
    uint32_t outstanding;       /* host DDR4 requests in flight */
    struct mq replies;
    /* The CPU-side client cache (link_client.c), or NULL. */
    struct client_cache *cc;
    sim_time cc_access, cc_hop;
    uint32_t *hits, hcap, hhead, hn;   /* entries hit, in answer order */
    struct mem_req *stash;      /* taken from the landed ring, its channel was full */
    uint64_t *reads, *writes, *bytes_d2h, *bytes_h2d;
    struct stat_avg *lat;
    struct stat_hist *lat_hist;
};

#define NONE UINT32_MAX
/* A host request that reads a line into the client cache: warp = FILL | MSHR. */
#define FILL 0x80000000u

static uint32_t entry_new(struct remote *m)
{
    if (m->free_head == NONE) {
        /* Grows to the peak number in flight, then never again; the
         * landing ring holds at most every entry. */
        uint32_t cap = m->cap ? 2 * m->cap : 256;
        m->e = xrealloc(m->e, cap * sizeof *m->e);
        for (uint32_t i = m->cap; i < cap; i++) m->e[i].next = i + 1 < cap ? i + 1 : NONE;
        m->free_head = m->cap;
        uint32_t *a = xmalloc(cap * sizeof *a);
        for (uint32_t i = 0; i < m->an; i++) a[i] = m->arr[(m->ahead + i) % m->cap];
        free(m->arr);
        m->arr = a;
        m->ahead = 0;
        m->cap = cap;
    }
    uint32_t i = m->free_head;
    m->free_head = m->e[i].next;
    m->live++;
    return i;
}

static void entry_free(struct remote *m, uint32_t i)
{
    m->e[i].next = m->free_head;
    m->free_head = i;
    m->live--;
}

/* Back at the GPU end: into the sender's reply queue. */
static void deliver(void *obj, uint64_t arg, sim_time now)
{
    (void)obj;
    struct mem_req *r = (struct mem_req *)(uintptr_t)arg;
    /* Reply queues are sized for everything their owner has in flight. */
    if (!mq_push(r->reply, r, now, NULL))
        sim_panic("link.remote", now, "reply queue '%s' full", r->reply->name);
}

/* Entry i's answer leaves the host end now: a read's data as one
 * completion of its sector bytes, H2D. */
static void answer(struct remote *m, uint32_t i, sim_time now)
{
    struct link *l = m->l;
    struct rentry *e = &m->e[i];
    struct mem_req *h = e->h;
    if (e->r) {
        sim_time t = link_send_remote(l, LINK_H2D, h->size, now) + l->latency;
        *m->bytes_h2d += h->size;
        *l->d[LINK_H2D].messages += 1;
        stat_avg_add(m->lat, (double)(t - e->t_send));
        stat_hist_add(m->lat_hist, (t - e->t_send) / 1000);
        engine_at(l->eng, t, l->dom, deliver, m, (uint64_t)(uintptr_t)e->r);
    }
    entry_free(m, i);
    req_release(m->pool, h);
}

/* A client-cache hit's answer is due (hits are answered in order: the same
 * delay after each). */
static void hit_due(void *obj, sim_time now)
{
    struct remote *m = obj;
    uint32_t i = m->hits[m->hhead];
    m->hhead = (m->hhead + 1) % m->hcap;
    m->hn--;
    answer(m, i, now);
}

static void hit(struct remote *m, uint32_t i, sim_time now)
{
    if (!m->cc_hop) { answer(m, i, now); return; }
    if (m->hn == m->hcap) {
        /* Grows to the peak of hits waiting, then never again. */
        uint32_t cap = m->hcap ? 2 * m->hcap : 64;
        uint32_t *a = xmalloc(cap * sizeof *a);
        for (uint32_t k = 0; k < m->hn; k++) a[k] = m->hits[(m->hhead + k) % m->hcap];
        free(m->hits);
        m->hits = a;
        m->hhead = 0;
        m->hcap = cap;
    }
    m->hits[(m->hhead + m->hn++) % m->hcap] = i;
    hl_at(m->loop, now + m->cc_hop, hit_due, m);
}

/* What a landed request asks of host memory: itself, a line fill for the
 * client cache, or nothing (the client cache answers or will). */
static struct mem_req *to_memory(struct remote *m, uint32_t i, sim_time now)
{
    struct mem_req *h = m->e[i].h;
    if (!m->cc) return h;
    if (h->kind != REQ_LOAD) {
        client_cache_write(m->cc, h);
        return h;
    }
    uint32_t k;
    switch (client_cache_read(m->cc, h, &k)) {
    case CC_HIT: hit(m, i, now); return NULL;
    case CC_MERGED: return NULL;
    case CC_BYPASS: return h;
    case CC_MISS: break;
    }
    struct mem_req *f = req_alloc(m->pool);
    f->kind = REQ_LOAD;
    f->vaddr = f->paddr = h->paddr & ~(uint64_t)(LINE_SIZE - 1);
    f->size = LINE_SIZE;
    f->sector_mask = 0xf;
    f->reply = &m->replies;
    f->slot = m->id;
    f->warp = FILL | k;
    return f;
}

static sim_time remote_tick(void *obj, unsigned arg, sim_time now)
{
    (void)arg;
    struct remote *m = obj;
    struct mem_req *h;
    while ((h = mq_pop(&m->replies, now))) {
        m->outstanding--;
        if (h->warp & FILL) {
            /* The client cache's line is in: its waiting reads are answered. */
            struct mem_req *w = client_cache_filled(m->cc, h->warp & ~FILL);
            req_release(m->pool, h);
            while (w) {
                struct mem_req *n = w->next;
                w->next = NULL;
                answer(m, w->warp, now);
                w = n;
            }
            continue;
        }
        answer(m, h->warp, now);
    }
    for (;;) {
        if (!m->stash) {
            if (!m->landed || m->outstanding >= MAX_OUT) break;
            uint32_t i = m->arr[m->ahead];
            m->ahead = (m->ahead + 1) % m->cap;
            m->an--;
            m->landed--;
            if (!(m->stash = to_memory(m, i, now))) continue;
        }
        h = m->stash;
        unsigned ch = dram_channel_of(m->host, h->paddr);
        if (hl_wait_if_full(m->loop, ch, m->id)) return TIME_NEVER;
        h->t_issue = now;
        hl_push(m->loop, ch, h, now);
        m->outstanding++;
        m->stash = NULL;
    }
    /* Landings and answers wake us. */
    return TIME_NEVER;
}

/* A request has landed at the host end. */
static void landed(void *obj, sim_time now)
{
    struct remote *m = obj;
    m->landed++;
    hl_wake(m->loop, m->id, now);
}

/* Whether the tick at t touches anything outside the loop: an answer to
 * send back (the H2D wire, an engine event). */
static bool remote_output(void *obj, sim_time t)
{
    (void)t;
    const struct remote *m = obj;
    return m->replies.n > 0;
}

static void remote_dump(struct component *c, FILE *out)
{
    struct remote *m = (struct remote *)c;
    fprintf(out, "    %u requests in flight, %u landed waiting for host memory, %u in host memory\n",
            m->live, m->landed, m->outstanding);
}

/* Never run by the engine: the loop ticks it (remote_tick). */
static sim_time remote_never(struct component *c, sim_time now)
{
    (void)c; (void)now;
    return TIME_NEVER;
}

static const struct comp_ops remote_ops = { remote_never, remote_dump };

void link_remote_enable(struct link *l)
{
    SIM_ASSERT(l->host, "link", 0, "remote accesses need host memory attached (link_attach_host)");
    if (l->remote) return;
    struct remote *m = xcalloc(1, sizeof *m);
    m->l = l;
    m->loop = link_host_loop(l);
    m->host = hl_host(m->loop);
    m->pool = link_host_pool(l);
    m->free_head = NONE;
    comp_init(&m->comp, l->eng, &remote_ops, "link.remote", l->dom);
    mq_init(&m->replies, "link.remote", MAX_OUT, 0, NULL);
    m->id = hl_add(m->loop, l->dom, remote_tick, remote_output, NULL, m);
    struct stats *st = l->st;
    m->reads = stat_counter(st, "remote.reads", "requests",
                            "GPU reads (and atomics) of host-homed lines over the link");
    m->writes = stat_counter(st, "remote.writes", "requests",
                             "GPU writes of host-homed lines over the link (posted)");
    m->bytes_d2h = stat_counter(st, "remote.d2h_bytes", "bytes",
                                "payload bytes of remote writes and atomics, GPU to host");
    m->bytes_h2d = stat_counter(st, "remote.h2d_bytes", "bytes",
                                "payload bytes of remote read answers, host to GPU");
    m->lat = stat_average(st, "remote.latency", "ps",
                          "remote read, from leaving the GPU end to its answer landing back");
    m->lat_hist = stat_histogram(st, "remote.latency_hist", "ns",
                                 "remote read latency (GPU end to GPU end)", 128, 50);
    static const char *const dn[2] = {"h2d", "d2h"};
    char name[64];
    for (int i = 0; i < 2; i++) {
        snprintf(name, sizeof name, "link.%s.remote_busy_ps", dn[i]);
        l->d[i].remote_busy_ps = stat_counter(st, name, "ps",
            "of busy_ps, the time the wire spent on remote accesses (the rest: migrations, "
            "copies, read requests of copies)");
        snprintf(name, sizeof name, "link.%s.remote_wire_bytes", dn[i]);
        l->d[i].remote_wire_bytes = stat_counter(st, name, "bytes",
            "of wire_bytes, the packet bytes of remote accesses");
    }
    l->remote = m;
    /* Requests reach host memory from engine events: the host side runs in
     * step (link_host_loop.c), and no copy reserves the H2D wire. */
    link_host_lockstep(l, true);
}

bool link_remote_enabled(const struct link *l) { return l->remote != NULL; }

void link_remote_send(struct link *l, struct mem_req *r, sim_time now)
{
    struct remote *m = l->remote;
    SIM_ASSERT(m, "link", now, "a remote access to %#llx with the remote path off "
               "(system.c turns it on when a page can be host-homed)",
               (unsigned long long)r->paddr);
    SIM_ASSERT(r->paddr & PADDR_HOST, "link", now, "remote access to GPU address %#llx",
               (unsigned long long)r->paddr);
    bool write = r->kind == REQ_STORE;
    uint32_t bytes = r->size ? r->size : LINE_SIZE;
    /* Reads ask with a header-only request; writes and atomics carry data. */
    uint64_t payload = r->kind == REQ_LOAD ? 0 : bytes;
    sim_time left = link_send_remote(l, LINK_D2H, payload, now);
    *l->d[LINK_D2H].messages += 1;
    *m->bytes_d2h += payload;
    *(write ? m->writes : m->reads) += 1;
    uint32_t i = entry_new(m);
    struct mem_req *h = req_alloc(m->pool);
    h->kind = r->kind;
    h->vaddr = h->paddr = r->paddr & ~PADDR_HOST;
    h->size = bytes;
    h->sector_mask = r->sector_mask;
    h->reply = &m->replies;
    h->slot = m->id;                /* the loop wakes us with the answer */
    h->warp = i;
    m->e[i] = (struct rentry){ write ? NULL : r, h, now, NONE };
    m->arr[(m->ahead + m->an++) % m->cap] = i;
    /* A link with neither latency nor wire time (header 0) lands it now.
     * With the client cache, its lookup follows (every request passes it). */
    sim_time at = left + l->latency + m->cc_access;
    if (at > now) hl_at(m->loop, at, landed, m);
    else landed(m, now);
    /* Posted: the write is its sender's again once it has left. */
    if (write) engine_at(l->eng, left, l->dom, deliver, m, (uint64_t)(uintptr_t)r);
}

void link_remote_client_cache(struct link *l, const struct config *cfg, struct stats *st,
                              sim_time core_period)
{
    struct remote *m = l->remote;
    SIM_ASSERT(m, "link", 0, "the client cache needs the remote path (link_remote_enable)");
    if (m->cc || !(m->cc = client_cache_create(cfg, st, core_period))) return;
    m->cc_access = client_cache_access(m->cc);
    m->cc_hop = client_cache_hop(m->cc);
}

void link_remote_free(struct remote *m)
{
    if (!m) return;
    client_cache_free(m->cc);
    free(m->hits);
    mq_free(&m->replies);
    free(m->e);
    free(m->arr);
    free(m);
}

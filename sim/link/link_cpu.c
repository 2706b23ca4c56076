/* The CPU's side of selective caching (thesis Sec. 6.2.1), over the link.
 *
 * There is no CPU core model.  An optional synthetic CPU request stream
 * (cpu.stream.interval, cpu.stream.footprint) reads GPU-homed lines: one
 * read every `interval` while the GPU runs, of a line drawn uniformly from
 * GPU physical memory [0, footprint) (its own random stream from sim.seed).
 * Each is a header-only request on the H2D wire that lands link.latency
 * later at the GPU's memory side (l2_cpu_read: the remote directory takes
 * the line, the GPU's caches drop it, the line is read), whose 128 B then
 * go D2H.  At most L2_CPU_MAX are in flight; a read due beyond that is
 * skipped (counted).  Without the stream (interval 0) the directory stays
 * empty, as in the thesis' workloads ("the remote directory remains largely
 * empty").
 *
 * The GPU's requests for lines the directory holds come here too
 * (link_cpu_probe): a header-only request D2H, the CPU's cache answering
 * host.latency GPU cycles after it lands (the one hop, no DRAM), then the
 * data -- or a NACK, a header-only packet, when the CPU does not hold the
 * line -- H2D. */
#include <stdlib.h>
#include "link_int.h"
#include "config/config.h"
#include "core/mem_req.h"
#include "dram/dram.h"
#include "l2/l2.h"
#include "core/rng.h"
#include "core/stats.h"

const struct cfg_key cpu_config_keys[] = {
    {"cpu.stream.interval", CFG_TIME, "0ns", 0, 1e15, NULL,
     "a synthetic CPU read of a GPU-homed line every this long while the GPU runs (0: none; "
     "there is no CPU core model: it exercises selective caching's remote directory)"},
    {"cpu.stream.footprint", CFG_SIZE, "8MiB", 128, 1e15, NULL,
     "the CPU stream reads lines of GPU physical memory [0, this) uniformly (thesis Sec. "
     "6.2.1 sizes the directory for 8 MB)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

struct link_cpu {
    struct link *l;
    struct rng rng;
    sim_time interval, hop;
    uint64_t lines;
    uint32_t outstanding;
    void (*read)(void *ctx, uint64_t pa, sim_time now);
    void *ctx;
    uint64_t *requests, *skipped, *h2d_bytes, *d2h_bytes, *probes, *nacks;
};

struct link_cpu *link_cpu_create(struct link *l, const struct config *cfg, struct stats *st,
                                 sim_time core_period)
{
    struct link_cpu *c = xcalloc(1, sizeof *c);
    c->l = l;
    c->interval = cfg_u64(cfg, "cpu.stream.interval");
    c->lines = cfg_u64(cfg, "cpu.stream.footprint") / LINE_SIZE;
    c->hop = cfg_u64(cfg, "host.latency") * core_period;
    rng_init(&c->rng, cfg_u64(cfg, "sim.seed"), "cpu.stream");
    c->probes = stat_counter(st, "cpu.probes", "requests",
                             "GPU requests routed to the CPU by the remote directory");
    c->nacks = stat_counter(st, "cpu.nacks", "requests",
                            "of those, NACKed: the CPU did not hold the line");
    c->h2d_bytes = stat_counter(st, "cpu.h2d_bytes", "bytes",
                                "payload H2D of the CPU side: answers to routed GPU requests");
    c->d2h_bytes = stat_counter(st, "cpu.d2h_bytes", "bytes",
                                "payload D2H of the CPU side: GPU-homed lines the CPU read");
    if (c->interval) {
        c->requests = stat_counter(st, "cpu.stream.requests", "requests",
                                   "synthetic CPU reads of GPU-homed lines sent");
        c->skipped = stat_counter(st, "cpu.stream.skipped", "requests",
                                  "synthetic CPU reads not sent: L2_CPU_MAX in flight");
    }
    return c;
}

void link_cpu_free(struct link_cpu *c) { free(c); }

static void landed_read(void *obj, uint64_t pa, sim_time now)
{
    struct link_cpu *c = obj;
    c->read(c->ctx, pa, now);
}

static void stream_tick(void *ctx, sim_time now)
{
    struct link_cpu *c = ctx;
    if (c->outstanding >= L2_CPU_MAX) { *c->skipped += 1; return; }
    uint64_t pa = rng_below(&c->rng, c->lines) * LINE_SIZE;
    sim_time t = link_send_remote(c->l, LINK_H2D, 0, now) + c->l->latency;
    *c->l->d[LINK_H2D].messages += 1;
    c->outstanding++;
    *c->requests += 1;
    engine_at(c->l->eng, t, c->l->dom, landed_read, c, pa);
}

void link_cpu_start(struct link_cpu *c, void (*read)(void *ctx, uint64_t pa, sim_time now),
                    void *ctx)
{
    c->read = read;
    c->ctx = ctx;
    if (c->interval) engine_every(c->l->eng, c->interval, stream_tick, c);
}

void link_cpu_answer(void *ctx, uint64_t pa, sim_time now)
{
    (void)pa;
    struct link_cpu *c = ctx;
    link_send_remote(c->l, LINK_D2H, LINE_SIZE, now);
    *c->l->d[LINK_D2H].messages += 1;
    *c->d2h_bytes += LINE_SIZE;
    if (c->outstanding) c->outstanding--;       /* 0: a read not from the stream (tests) */
}

static void deliver(void *obj, uint64_t arg, sim_time now)
{
    (void)obj;
    struct mem_req *r = (struct mem_req *)(uintptr_t)arg;
    if (!mq_push(r->reply, r, now, NULL))
        sim_panic("link.cpu", now, "reply queue '%s' full", r->reply->name);
}

/* The routed request is at the CPU, its cache answered: data or a NACK. */
static void cpu_answers(void *obj, uint64_t arg, sim_time now)
{
    struct link_cpu *c = obj;
    struct mem_req *r = (struct mem_req *)(uintptr_t)arg;
    uint64_t bytes = (r->xflags & LINE_NACK) || r->kind == REQ_STORE ? 0 : r->size;
    sim_time t = link_send_remote(c->l, LINK_H2D, bytes, now) + c->l->latency;
    *c->l->d[LINK_H2D].messages += 1;
    *c->h2d_bytes += bytes;
    engine_at(c->l->eng, t, c->l->dom, deliver, c, arg);
}

void link_cpu_probe(void *ctx, struct mem_req *r, bool held, sim_time now)
{
    struct link_cpu *c = ctx;
    *c->probes += 1;
    if (!held) { r->xflags |= LINE_NACK; *c->nacks += 1; }
    uint64_t bytes = r->kind == REQ_LOAD ? 0 : r->size;
    sim_time t = link_send_remote(c->l, LINK_D2H, bytes, now) + c->l->latency + c->hop;
    *c->l->d[LINK_D2H].messages += 1;
    engine_at(c->l->eng, t, c->l->dom, cpu_answers, c, (uint64_t)(uintptr_t)r);
}

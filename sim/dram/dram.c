/* Skeleton GPU memory: one queue whose latency is the access latency; every
 * request visible at a tick is answered at once.  The default 200 ns is an
 * unloaded GDDR5 access seen from an SM of a Fermi-class GPU (about 280
 * core cycles at 1.4 GHz, GPGPU-Sim GTX480 range). */
#include <stdlib.h>
#include "dram.h"
#include "../config.h"
#include "../stats.h"
#include "../mem_req.h"

struct dram {
    struct component comp;
    struct mq in;
    uint64_t *reads, *writes, *bytes;
};

const struct cfg_key dram_config_keys[] = {
    {"dram.clock", CFG_FREQ, "924MHz", 1e6, 1e11, NULL,
     "GPU memory controller clock (GTX 480 GDDR5 command clock)"},
    {"dram.latency", CFG_TIME, "200ns", 0, 1e9, NULL,
     "fixed access latency of GPU memory (skeleton model)"},
    {"dram.queue", CFG_INT, "1024", 1, 1048576, NULL,
     "entries of the memory request queue (full: SMs stall)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static sim_time dram_tick(struct component *c, sim_time now)
{
    struct dram *d = (struct dram *)c;
    struct mem_req *r;
    while ((r = mq_pop(&d->in, now))) {
        if (r->kind == REQ_LOAD) *d->reads += 1;
        else *d->writes += 1;
        *d->bytes += r->size;
        /* Reply queues are sized for everything their owner can have in
         * flight, so a refusal here is a sizing bug, not back-pressure. */
        if (!mq_push(r->reply, r, now, NULL))
            sim_panic("dram", now, "reply queue '%s' full", r->reply->name);
    }
    return mq_next_ready(&d->in);
}

static void dram_dump(struct component *c, FILE *out)
{
    struct dram *d = (struct dram *)c;
    fprintf(out, "    %u requests queued\n", d->in.n);
}

static const struct comp_ops dram_ops = { dram_tick, dram_dump };

struct dram *dram_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom)
{
    struct dram *d = xcalloc(1, sizeof *d);
    comp_init(&d->comp, e, &dram_ops, "dram", dom);
    mq_init(&d->in, "dram.in", (uint32_t)cfg_u64(cfg, "dram.queue"),
            cfg_u64(cfg, "dram.latency"), &d->comp);
    d->reads = stat_counter(st, "dram.reads", "requests", "line reads served");
    d->writes = stat_counter(st, "dram.writes", "requests", "line writes served");
    d->bytes = stat_counter(st, "dram.bytes", "bytes", "bytes accessed");
    return d;
}

void dram_free(struct dram *d)
{
    if (!d) return;
    mq_free(&d->in);
    free(d);
}

struct mq *dram_in(struct dram *d) { return &d->in; }

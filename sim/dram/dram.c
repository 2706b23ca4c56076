/* Skeleton GPU memory: per channel, one queue whose latency is the access
 * latency; every request visible at a tick is answered at once.  Channels
 * interleave at 256 B (GPGPU-Sim's default chunk for GTX 480).  The default
 * 200 ns is an unloaded GDDR5 access seen from an SM of a Fermi-class GPU
 * (about 280 core cycles at 1.4 GHz). */
#include <stdlib.h>
#include "dram.h"
#include "../config.h"
#include "../stats.h"

#define INTERLEAVE_SHIFT 8

struct channel {
    struct component comp;
    char name[24];
    struct mq in;
    struct dram *d;
};

struct dram {
    unsigned nch;
    struct channel *ch;
    uint64_t *reads, *writes, *bytes;
};

const struct cfg_key dram_config_keys[] = {
    {"dram.clock", CFG_FREQ, "924MHz", 1e6, 1e11, NULL,
     "GPU memory controller clock (GTX 480 GDDR5 command clock)"},
    {"dram.channels", CFG_INT, "12", 1, 1024, NULL,
     "GPU memory channels (HPE Table I: 12 GDDR5 channels)"},
    {"dram.latency", CFG_TIME, "200ns", 0, 1e9, NULL,
     "fixed access latency of GPU memory (skeleton model)"},
    {"dram.queue", CFG_INT, "1024", 1, 1048576, NULL,
     "entries of each channel's request queue (full: senders stall)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static sim_time channel_tick(struct component *c, sim_time now)
{
    struct channel *ch = (struct channel *)c;
    struct dram *d = ch->d;
    struct mem_req *r;
    while ((r = mq_pop(&ch->in, now))) {
        if (r->kind == REQ_LOAD) *d->reads += 1;
        else *d->writes += 1;
        *d->bytes += r->size;
        /* Reply queues are sized for everything their owner can have in
         * flight, so a refusal here is a sizing bug, not back-pressure. */
        if (!mq_push(r->reply, r, now, NULL))
            sim_panic(ch->name, now, "reply queue '%s' full", r->reply->name);
    }
    return mq_next_ready(&ch->in);
}

static void channel_dump(struct component *c, FILE *out)
{
    struct channel *ch = (struct channel *)c;
    fprintf(out, "    %u requests queued\n", ch->in.n);
    for (uint32_t i = 0; i < ch->in.n && i < 8; i++) req_dump(out, mq_at(&ch->in, i));
}

static const struct comp_ops channel_ops = { channel_tick, channel_dump };

struct dram *dram_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom)
{
    struct dram *d = xcalloc(1, sizeof *d);
    d->nch = (unsigned)cfg_u64(cfg, "dram.channels");
    d->ch = xcalloc(d->nch, sizeof *d->ch);
    for (unsigned i = 0; i < d->nch; i++) {
        struct channel *ch = &d->ch[i];
        snprintf(ch->name, sizeof ch->name, "dram.%u", i);
        ch->d = d;
        comp_init(&ch->comp, e, &channel_ops, ch->name, dom);
        mq_init(&ch->in, ch->name, (uint32_t)cfg_u64(cfg, "dram.queue"),
                cfg_u64(cfg, "dram.latency"), &ch->comp);
    }
    d->reads = stat_counter(st, "dram.reads", "requests", "line reads served");
    d->writes = stat_counter(st, "dram.writes", "requests", "line writes served");
    d->bytes = stat_counter(st, "dram.bytes", "bytes", "bytes accessed");
    return d;
}

void dram_free(struct dram *d)
{
    if (!d) return;
    for (unsigned i = 0; i < d->nch; i++) mq_free(&d->ch[i].in);
    free(d->ch);
    free(d);
}

unsigned dram_nchannels(const struct dram *d) { return d->nch; }

unsigned dram_channel_of(const struct dram *d, uint64_t pa)
{
    return (unsigned)((pa >> INTERLEAVE_SHIFT) % d->nch);
}

struct mq *dram_channel_in(struct dram *d, unsigned ch) { return &d->ch[ch].in; }

static struct mq *route(void *ctx, uint64_t pa)
{
    struct dram *d = ctx;
    return &d->ch[dram_channel_of(d, pa)].in;
}

struct mem_port dram_port(struct dram *d) { return (struct mem_port){ route, d }; }

/* Memory instances: channels, their statistics, routing by address. */
#include <stdlib.h>
#include "dram_int.h"
#include "config/config.h"

static struct dram *build(struct engine *e, const struct config *cfg,
                          struct stats *st, const struct domain *dom,
                          const char *prefix, sim_time extra, bool fast)
{
    struct dram *d = xcalloc(1, sizeof *d);
    d->eng = e;
    d->dom = dom;
    dram_params_load(&d->p, cfg, prefix);
    d->p.ctrl += extra;
    unsigned n = d->p.nch;
    char name[96];
#define VEC(field, stat, unit, desc) \
    (snprintf(name, sizeof name, "%s.%s", prefix, stat), \
     d->v.field = stat_vector(st, name, n, unit, desc))
    VEC(reads, "channel_reads", "requests", "read requests per channel");
    VEC(writes, "channel_writes", "requests", "write requests per channel");
    VEC(bytes, "channel_bytes", "bytes", "bytes requested per channel (bandwidth = bytes / time)");
    VEC(hits, "channel_row_hits", "requests", "requests whose first burst found their row open");
    VEC(misses, "channel_row_misses", "requests", "requests that opened a closed bank");
    VEC(conflicts, "channel_row_conflicts", "requests", "requests that closed another row first");
    VEC(refreshes, "channel_refreshes", "refreshes", "all-bank refreshes per channel");
    VEC(refresh_ps, "channel_refresh_stall_ps", "ps",
        "time a refresh kept the channel from serving (due to end of tRFC)");
    VEC(rq_occ, "channel_read_queue_ps", "request-ps",
        "read-queue occupancy integrated over time (/ time = mean occupancy)");
    VEC(wq_occ, "channel_write_queue_ps", "request-ps",
        "write-queue occupancy integrated over time (/ time = mean occupancy)");
    VEC(forwarded, "channel_forwarded", "requests", "reads answered from the write queue");
#undef VEC
#define CNT(field, stat, unit, desc) \
    (snprintf(name, sizeof name, "%s.%s", prefix, stat), \
     d->tot.field = stat_counter(st, name, unit, desc))
    CNT(reads, "reads", "requests", "read requests served");
    CNT(writes, "writes", "requests", "write requests served");
    CNT(bytes, "bytes", "bytes", "bytes accessed");
    CNT(hits, "row_hits", "requests", "row-buffer hits");
    CNT(misses, "row_misses", "requests", "accesses to a closed bank");
    CNT(conflicts, "row_conflicts", "requests", "accesses that closed another open row");
#undef CNT
    snprintf(name, sizeof name, "%s.read_latency", prefix);
    d->tot.read_lat = stat_average(st, name, "ps",
                                   "read latency in the controller (queue entry to last data)");
    snprintf(name, sizeof name, "%s.read_latency_hist", prefix);
    d->lat_hist = stat_histogram(st, name, "ns", "read latency in the controller", 64, 10);
    d->ch = xcalloc(n, sizeof *d->ch);
    for (unsigned i = 0; i < n; i++) {
        if (fast) fast_channel_init(&d->ch[i], d, i);
        else channel_init(&d->ch[i], d, i);
    }
    return d;
}

struct dram *dram_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom)
{
    return build(e, cfg, st, dom, "dram", 0, false);
}

struct dram *dram_fast_create(struct engine *e, const struct config *cfg,
                              struct stats *st, const struct domain *dom)
{
    return build(e, cfg, st, dom, "dram", 0, true);
}

sim_time hostmem_period(const struct config *cfg) { return cfg_period(cfg, "host.dram.clock"); }

/* Host memory's controllers add the thesis' extra hop (host.latency). */
static struct dram *host_build(struct engine *e, const struct config *cfg, struct stats *st,
                               const struct domain *dom, bool fast)
{
    sim_time hop = cfg_u64(cfg, "host.latency") * cfg_period(cfg, "gpu.clock");
    return build(e, cfg, st, dom, "host.dram", hop, fast);
}

struct dram *hostmem_create(struct engine *e, const struct config *cfg,
                            struct stats *st, const struct domain *dom)
{
    return host_build(e, cfg, st, dom, false);
}

struct dram *hostmem_fast_create(struct engine *e, const struct config *cfg,
                                 struct stats *st, const struct domain *dom)
{
    return host_build(e, cfg, st, dom, true);
}

void dram_free(struct dram *d)
{
    if (!d) return;
    for (unsigned i = 0; i < d->p.nch; i++) channel_free(&d->ch[i]);
    free(d->ch);
    free(d);
}

unsigned dram_nchannels(const struct dram *d) { return d->p.nch; }
const struct domain *dram_domain(const struct dram *d) { return d->dom; }

void dram_set_loop(struct dram *d, const struct dram_loop *loop, void *ctx)
{
    d->loop = loop;
    d->loop_ctx = ctx;
    /* The loop wakes the channels; the engine must not. */
    for (unsigned i = 0; i < d->p.nch; i++) d->ch[i].in.consumer = NULL;
}

unsigned dram_channel_of(const struct dram *d, uint64_t pa)
{
    return (unsigned)((pa / d->p.interleave) % d->p.nch);
}

struct mq *dram_channel_in(struct dram *d, unsigned ch) { return &d->ch[ch].in; }

static struct mq *route(void *ctx, uint64_t pa)
{
    struct dram *d = ctx;
    return &d->ch[dram_channel_of(d, pa)].in;
}

struct mem_port dram_port(struct dram *d) { return (struct mem_port){ route, d }; }

double dram_peak_bandwidth(const struct dram *d) { return d->p.peak_bw; }
uint32_t dram_atom(const struct dram *d) { return d->p.atom; }

void dram_totals(const struct dram *d, struct dram_totals *t)
{
    *t = (struct dram_totals){ *d->tot.reads, *d->tot.writes, *d->tot.bytes,
                               *d->tot.hits, *d->tot.misses, *d->tot.conflicts, 0, 0 };
    for (unsigned i = 0; i < d->p.nch; i++) {
        t->refreshes += d->v.refreshes[i];
        t->refresh_ps += d->v.refresh_ps[i];
    }
}

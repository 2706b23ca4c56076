/* Skeleton link: each direction is a serial channel.  A transfer starts when
 * the previous one in its direction has finished serialising, takes
 * bytes / bandwidth, and lands `latency` later (the latency pipelines with
 * the next transfer's serialisation).  Defaults: 16 GB/s per direction (HPE
 * Table I), 1 us one-way DMA latency (a typical PCIe 3.0 round of doorbell,
 * descriptor fetch and completion; the papers fold it into their figures). */
#include <math.h>
#include <stdlib.h>
#include "pcie.h"
#include "../config.h"
#include "../stats.h"

struct link_dir_state {
    sim_time free_at;           /* end of serialisation of the last transfer */
    uint64_t *bytes, *transfers, *busy_ps;
};

struct link {
    struct engine *eng;
    const struct domain *dom;
    double bw;                  /* bytes per second, each direction */
    sim_time latency;
    struct link_dir_state d[2];
};

const struct cfg_key link_config_keys[] = {
    {"link.bandwidth", CFG_BW, "16GB/s", 1e6, 1e13, NULL,
     "per-direction bandwidth of the CPU-GPU link (HPE Table I: 16 GB/s)"},
    {"link.latency", CFG_TIME, "1us", 0, 1e12, NULL,
     "one-way latency added to every transfer"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

struct link *link_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom)
{
    static const char *const names[2][3] = {
        {"link.h2d.bytes", "link.h2d.transfers", "link.h2d.busy_ps"},
        {"link.d2h.bytes", "link.d2h.transfers", "link.d2h.busy_ps"},
    };
    struct link *l = xcalloc(1, sizeof *l);
    l->eng = e;
    l->dom = dom;
    l->bw = cfg_f64(cfg, "link.bandwidth");
    l->latency = cfg_u64(cfg, "link.latency");
    for (int i = 0; i < 2; i++) {
        l->d[i].bytes = stat_counter(st, names[i][0], "bytes",
                                     "bytes carried in this direction");
        l->d[i].transfers = stat_counter(st, names[i][1], "transfers",
                                         "DMA transfers in this direction");
        l->d[i].busy_ps = stat_counter(st, names[i][2], "ps",
                                       "time this direction spent serialising data");
    }
    return l;
}

void link_free(struct link *l) { free(l); }

sim_time link_transfer(struct link *l, enum link_dir dir, uint64_t bytes,
                       sim_time now, event_fn done, void *obj, uint64_t arg)
{
    struct link_dir_state *d = &l->d[dir];
    sim_time start = d->free_at > now ? d->free_at : now;
    sim_time ser = (sim_time)ceil((double)bytes * 1e12 / l->bw);
    d->free_at = start + ser;
    *d->bytes += bytes;
    *d->transfers += 1;
    *d->busy_ps += ser;
    sim_time t = d->free_at + l->latency;
    engine_at(l->eng, t, l->dom, done, obj, arg);
    return t;
}

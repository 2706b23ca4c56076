/* The link's directions and copy engines.  Each direction is one wire: a
 * DMA's data goes on it once its copy engine has paid the per-transfer
 * setup and the wire is free (first come, first served), and takes
 * wire_bytes / bandwidth; the copy engine is busy until its data has left.
 * With one engine the setups serialise with the data; with N engines one
 * engine's setup overlaps another's data, so back-to-back page copies
 * approach the wire rate.  Data lands `latency` after it left.
 *
 * Defaults are the HPE machine (Table I: 16 GB/s per direction) on PCIe
 * 3.0 x16 with the TLP arithmetic of link_packet.c (effective 14.6 GB/s for
 * 4 KiB pages), one copy engine per direction (Fermi: one DMA engine each
 * way), no setup, and 1 us one-way latency (a PCIe 3.0 round of doorbell,
 * descriptor fetch and completion; the papers fold it into their 20 us).
 * busy_ps is credited when a transfer's data has left the wire, so its
 * sampled series gives utilisation per epoch. */
#include <math.h>
#include <stdlib.h>
#include "link_int.h"
#include "../config.h"
#include "../stats.h"

const struct cfg_key link_config_keys[] = {
    {"link.bandwidth", CFG_BW, "16GB/s", 1e6, 1e13, NULL,
     "per-direction wire bandwidth (HPE Table I: 16 GB/s; batch-aware Table 1: 15.75 GB/s)"},
    {"link.latency", CFG_TIME, "1us", 0, 1e12, NULL,
     "one-way latency from a byte leaving the wire to its arrival"},
    {"link.max_payload", CFG_SIZE, "256B", 1, 1048576, NULL,
     "largest payload of one packet (PCIe max payload size; NVLink: 128 B)"},
    {"link.header", CFG_SIZE, "24B", 0, 4096, NULL,
     "header and framing bytes per packet (PCIe 3.0 TLP: 24 B; NVLink: one 16 B flit)"},
    {"link.flit", CFG_SIZE, "1B", 1, 4096, NULL,
     "packets are padded to whole flits (PCIe: 1 B; NVLink: 16 B)"},
    {"link.copy_engines", CFG_INT, "1", 1, MAX_CE, NULL,
     "DMA copy engines per direction"},
    {"link.ce_setup", CFG_TIME, "0ns", 0, 1e12, NULL,
     "per-transfer setup of a copy engine before its data goes on the wire"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

struct link *link_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom)
{
    static const char *const dn[2] = {"h2d", "d2h"};
    struct link *l = xcalloc(1, sizeof *l);
    l->eng = e;
    l->dom = dom;
    l->st = st;
    l->bw = cfg_f64(cfg, "link.bandwidth");
    l->latency = cfg_u64(cfg, "link.latency");
    l->setup = cfg_u64(cfg, "link.ce_setup");
    l->nce = (unsigned)cfg_u64(cfg, "link.copy_engines");
    l->fmt = (struct link_fmt){ cfg_u64(cfg, "link.max_payload"),
                                cfg_u64(cfg, "link.header"), cfg_u64(cfg, "link.flit") };
    char name[64];
    for (int i = 0; i < 2; i++) {
        struct link_dir_state *d = &l->d[i];
#define CNT(f, s, unit, desc) \
        (snprintf(name, sizeof name, "link.%s.%s", dn[i], s), \
         d->f = stat_counter(st, name, unit, desc))
        CNT(bytes, "bytes", "bytes", "payload bytes carried in this direction");
        CNT(wire_bytes, "wire_bytes", "bytes", "bytes on the wire, headers and padding included");
        CNT(transfers, "transfers", "transfers", "DMA transfers in this direction");
        CNT(messages, "messages", "messages", "messages without a copy engine (remote accesses)");
        CNT(busy_ps, "busy_ps", "ps",
            "time the wire spent sending (credited when a transfer has left; "
            "its series / epoch = utilisation)");
#undef CNT
    }
    return l;
}

void link_free(struct link *l)
{
    if (!l) return;
    link_host_free(l->host);
    link_host_writer_free(l->hw);
    free(l);
}

uint64_t link_wire_bytes(const struct link *l, uint64_t payload)
{
    return link_fmt_wire(&l->fmt, payload);
}

double link_efficiency(const struct link *l, uint64_t payload)
{
    return (double)payload / (double)link_wire_bytes(l, payload);
}

static void credit_busy(void *obj, uint64_t ser, sim_time now)
{
    (void)now;
    struct link_dir_state *d = obj;
    *d->busy_ps += ser;
}

/* Put `payload` on the wire no earlier than `ready`; returns when it left. */
sim_time link_send(struct link *l, struct link_dir_state *d, uint64_t payload,
                   sim_time ready, sim_time min_end)
{
    uint64_t wire = link_wire_bytes(l, payload);
    sim_time start = d->wire_free > ready ? d->wire_free : ready;
    sim_time ser = (sim_time)ceil((double)wire * 1e12 / l->bw);
    d->wire_free = start + ser > min_end ? start + ser : min_end;
    *d->bytes += payload;
    *d->wire_bytes += wire;
    engine_at(l->eng, d->wire_free, l->dom, credit_busy, d, ser);
    return d->wire_free;
}

sim_time link_transfer(struct link *l, enum link_dir dir, uint64_t bytes,
                       sim_time now, event_fn done, void *obj, uint64_t arg)
{
    /* Consecutive host addresses, 4 KiB aligned: like pages of one buffer. */
    uint64_t a = l->next_addr;
    l->next_addr += (bytes + 4095) / 4096 * 4096;
    return link_dma(l, dir, a, bytes, now, done, obj, arg);
}

sim_time link_dma(struct link *l, enum link_dir dir, uint64_t host_addr,
                  uint64_t bytes, sim_time now, event_fn done, void *obj,
                  uint64_t arg)
{
    if (dir == LINK_H2D && l->host)
        return link_host_dma(l, host_addr, bytes, now, done, obj, arg);
    struct link_dir_state *d = &l->d[dir];
    unsigned ce = 0;
    for (unsigned i = 1; i < l->nce; i++)
        if (d->ce_free[i] < d->ce_free[ce]) ce = i;
    sim_time start = d->ce_free[ce] > now ? d->ce_free[ce] : now;
    sim_time left = link_send(l, d, bytes, start + l->setup, 0);
    d->ce_free[ce] = left;
    *d->transfers += 1;
    sim_time t = left + l->latency;
    engine_at(l->eng, t, l->dom, done, obj, arg);
    if (dir == LINK_D2H && l->hw) link_host_write(l->hw, host_addr, bytes, t);
    return t;
}

sim_time link_message(struct link *l, enum link_dir dir, uint64_t payload,
                      sim_time now, event_fn done, void *obj, uint64_t arg)
{
    struct link_dir_state *d = &l->d[dir];
    sim_time t = link_send(l, d, payload, now, 0) + l->latency;
    *d->messages += 1;
    if (done) engine_at(l->eng, t, l->dom, done, obj, arg);
    return t;
}

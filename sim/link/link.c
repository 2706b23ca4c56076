/* The link's directions and copy engines.  Each direction is one wire: a
 * DMA's data goes on it once its copy engine has paid the per-transfer
 * setup and the wire is free (first come, first served), and takes
 * wire_bytes / rate; data lands `latency` after it left.
 *
 * Rate: the raw signalling rate (link.bandwidth) times the line code's
 * share (link.encoding) less the ACK and UpdateFC DLLPs that the receiver
 * interleaves (link.dllp_interval).  Packets (link_packet.c): the GPU's
 * posted writes and its read requests go D2H in write-sized packets
 * (link.max_payload, link.header); the host answers its reads H2D in
 * completions split at the read completion boundary (link.rcb,
 * link.completion_header).  An H2D DMA also puts one read request per
 * link.max_read_request bytes on the D2H wire.
 *
 * Defaults: the HPE machine (Table I: 16 GB/s) as PCIe 3.0 x16, calibrated
 * against public measurements of large pinned copies (NVIDIA bandwidthTest
 * on a Tesla P100-PCIE: 12.15 GB/s H2D, 12.89 GB/s D2H; on an RTX 2080 Ti:
 * 13.1 GB/s H2D; docs/validation.md): 16 GB/s x 128/130 x (1 - 16/168) =
 * 14.25 GB/s of packets; 4 KiB H2D = 32 completions of 128 B + 20 B
 * (332 ns), 4 KiB D2H = 16 writes of 256 B + 24 B (314 ns); a 2 MiB H2D
 * copy runs at 12.33 GB/s on the wire.  One copy engine per direction
 * (Fermi: one DMA engine each way), no setup, and 1 us one-way latency (a
 * PCIe 3.0 round of doorbell, descriptor fetch and completion; the papers
 * fold it into their 20 us).
 *
 * Copy engines pipeline: an engine takes its next DMA (setup, host reads)
 * as soon as the current one's data is ready for the wire, so the wire,
 * not the engine, sets the pace of back-to-back copies.  Bytes, wire
 * bytes and busy_ps are credited packet by packet as each leaves the wire
 * (link_settle before every sample), so their sampled series give the
 * bandwidth and utilisation per epoch within the wire's rate.  An H2D
 * copy from host memory goes on the wire once its reads are answered,
 * with packets from its first answer on: one copy engine reserves the
 * wire at that answer (link_h2d_reserve); with several, a sample during
 * the reads misses the packets already left (docs/decisions.md). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "link_int.h"
#include "config/config.h"
#include "core/stats.h"
#include "trace/trace.h"

const struct cfg_key link_config_keys[] = {
    {"link.bandwidth", CFG_BW, "16GB/s", 1e6, 1e13, NULL,
     "raw signalling rate per direction, before link.encoding (PCIe 3.0 x16: 16 lanes x "
     "8 GT/s = 16 GB/s, HPE Table I; NVLink: the data rate its source gives)"},
    {"link.encoding", CFG_ENUM, "128b130b", 0, -1, "none|8b10b|128b130b",
     "line code: share of the raw rate that carries packets (PCIe 3.0 base spec 4.2.2: "
     "128b/130b, 16 GB/s -> 15.75 GB/s as batch-aware Table 1; PCIe 1.x/2.x: 8b/10b)"},
    {"link.dllp_interval", CFG_SIZE, "168B", 0, 1048576, NULL,
     "wire bytes per 8 B ACK DLLP and per 8 B UpdateFC DLLP, 0: none (PCIe base spec "
     "Ack/UpdateFC latency limits for Gen3 x16 at MPS 256: 168 symbol times, counted "
     "per byte as pcie-bench does, Neugebauer et al. SIGCOMM 2018: 9.5 % of the wire)"},
    {"link.latency", CFG_TIME, "1us", 0, 1e12, NULL,
     "one-way latency from a byte leaving the wire to its arrival"},
    {"link.max_payload", CFG_SIZE, "256B", 1, 1048576, NULL,
     "largest payload of one write packet or completion (PCIe max payload size, MPS; "
     "NVLink: 128 B thesis, 256 B NVLink 2)"},
    {"link.header", CFG_SIZE, "24B", 0, 4096, NULL,
     "header and framing bytes of a write or read-request packet (PCIe 3.0 MWr/MRd, "
     "4DW header 16 B + 4 B STP/sequence + 4 B LCRC; NVLink: one 16 B flit)"},
    {"link.max_read_request", CFG_SIZE, "512B", 1, 1048576, NULL,
     "bytes one read request asks for: an H2D DMA sends one per this many bytes D2H "
     "(PCIe max read request size, MRRS: 512 B, the Device Control register default)"},
    {"link.rcb", CFG_SIZE, "128B", 0, 1048576, NULL,
     "read completion boundary: the host answers a read in completions of this many "
     "bytes, 0: of up to max_payload (PCIe RCB 64 or 128 B; 128 B fits the measured "
     "P100 bandwidthTest H2D/D2H ratio 0.943, docs/validation.md)"},
    {"link.completion_header", CFG_SIZE, "20B", 0, 4096, NULL,
     "header and framing bytes of a read completion (PCIe 3.0 CplD: 3DW header 12 B "
     "+ 4 B STP/sequence + 4 B LCRC; NVLink: one 16 B flit)"},
    {"link.flit", CFG_SIZE, "1B", 1, 4096, NULL,
     "packets are padded to whole flits (PCIe: 1 B; NVLink: 16 B)"},
    {"link.copy_engines", CFG_INT, "1", 1, MAX_CE, NULL,
     "DMA copy engines per direction"},
    {"link.ce_setup", CFG_TIME, "0ns", 0, 1e12, NULL,
     "per-transfer setup of a copy engine before its data goes on the wire"},
    {"link.compression", CFG_FLOAT, "0", 0, 64, NULL,
     "page DMAs (migrations, write-backs, host steps) cross the wire compressed by this ratio: "
     "ceil(bytes / ratio) payload bytes, which link.*.bytes count (batch-aware Sec. 5.2's 'BASELINE "
     "with PCIe Compression', which gives no ratio; 0 or 1: off; docs/decisions.md)"},
    {"link.compression_latency", CFG_TIME, "0ns", 0, 1e12, NULL,
     "with link.compression: (de)compression time added to each compressed DMA's landing "
     "(no stored source gives one; docs/decisions.md)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static double encoding_share(const struct config *cfg)
{
    if (cfg_is(cfg, "link.encoding", "128b130b")) return 128.0 / 130.0;
    if (cfg_is(cfg, "link.encoding", "8b10b")) return 8.0 / 10.0;
    return 1.0;
}

/* ACK and UpdateFC: one 8 B DLLP each per interval of wire bytes. */
#define DLLP_BYTES 16.0

static bool link_bad(const struct config *cfg, struct cfg_error *err, const char *key,
                     const char *why)
{
    const struct cfg_value *v = cfg_get(cfg, key);
    char where[300] = "";
    if (v->file && v->line)
        snprintf(where, sizeof where, "%s:%d:%d: ", v->file, v->line, v->col);
    else if (v->file)
        snprintf(where, sizeof where, "%s '%s=%s': ", v->file, key, v->text);
    snprintf(err->msg, sizeof err->msg, "%skey '%s': %s", where, key, why);
    return false;
}

bool link_config_check(const struct config *cfg, struct cfg_error *err)
{
    uint64_t mps = cfg_u64(cfg, "link.max_payload"), rcb = cfg_u64(cfg, "link.rcb");
    uint64_t dllp = cfg_u64(cfg, "link.dllp_interval");
    char why[160];
    if (rcb > mps) {
        snprintf(why, sizeof why, "%llu B > link.max_payload (%llu B): a completion "
                 "never carries more than the max payload", (unsigned long long)rcb,
                 (unsigned long long)mps);
        return link_bad(cfg, err, "link.rcb", why);
    }
    if (dllp && dllp <= DLLP_BYTES) {
        snprintf(why, sizeof why, "%llu B leaves no room for packets between two 8 B "
                 "DLLPs (must exceed 16 B, or be 0)", (unsigned long long)dllp);
        return link_bad(cfg, err, "link.dllp_interval", why);
    }
    double cr = cfg_f64(cfg, "link.compression");
    if (cr > 0 && cr < 1)
        return link_bad(cfg, err, "link.compression", "a ratio below 1 would expand the pages "
                        "(0 or 1: no compression)");
    return true;
}

struct link *link_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom)
{
    static const char *const dn[2] = {"h2d", "d2h"};
    struct link *l = xcalloc(1, sizeof *l);
    l->eng = e;
    l->dom = dom;
    l->st = st;
    l->bw = cfg_f64(cfg, "link.bandwidth");
    uint64_t dllp = cfg_u64(cfg, "link.dllp_interval");
    l->rate = l->bw * encoding_share(cfg) *
              (dllp ? 1.0 - DLLP_BYTES / (double)dllp : 1.0);
    l->latency = cfg_u64(cfg, "link.latency");
    l->setup = cfg_u64(cfg, "link.ce_setup");
    l->comp = cfg_f64(cfg, "link.compression");
    if (l->comp <= 1.0) l->comp = 0;
    l->comp_lat = l->comp ? cfg_u64(cfg, "link.compression_latency") : 0;
    l->nce = (unsigned)cfg_u64(cfg, "link.copy_engines");
    l->mrrs = cfg_u64(cfg, "link.max_read_request");
    l->epoch = cfg_u64(cfg, "sim.epoch");
    l->max_time = cfg_u64(cfg, "sim.max_time");
    uint64_t mps = cfg_u64(cfg, "link.max_payload"), rcb = cfg_u64(cfg, "link.rcb");
    uint64_t flit = cfg_u64(cfg, "link.flit");
    l->fmt[LINK_D2H] = (struct link_fmt){ mps, cfg_u64(cfg, "link.header"), flit };
    l->fmt[LINK_H2D] = (struct link_fmt){ rcb ? rcb : mps,
                                          cfg_u64(cfg, "link.completion_header"), flit };
    char name[64];
    for (int i = 0; i < 2; i++) {
        struct link_dir_state *d = &l->d[i];
#define CNT(f, s, unit, desc) \
        (snprintf(name, sizeof name, "link.%s.%s", dn[i], s), \
         d->f = stat_counter(st, name, unit, desc))
        CNT(bytes, "bytes", "bytes", "payload bytes carried in this direction");
        CNT(wire_bytes, "wire_bytes", "bytes",
            "packet bytes on the wire, headers and padding included (not DLLPs or line code)");
        CNT(transfers, "transfers", "transfers", "DMA transfers in this direction");
        CNT(messages, "messages", "messages", "messages without a copy engine (remote accesses)");
        CNT(busy_ps, "busy_ps", "ps",
            "time the wire spent sending (credited per packet as it leaves; "
            "its series / epoch = utilisation)");
#undef CNT
    }
    l->d[LINK_D2H].read_requests = stat_counter(st, "link.d2h.read_requests", "requests",
                                                "read requests the H2D DMAs sent (one per "
                                                "link.max_read_request bytes)");
    return l;
}

void link_free(struct link *l)
{
    if (!l) return;
    link_remote_free(l->remote);
    link_host_free(l->host);
    link_host_writer_free(l->hw);
    free(l->d[LINK_H2D].fl);
    free(l->d[LINK_D2H].fl);
    free(l);
}

uint64_t link_wire_bytes(const struct link *l, enum link_dir dir, uint64_t payload)
{
    return link_fmt_wire(&l->fmt[dir], payload);
}

double link_efficiency(const struct link *l, enum link_dir dir, uint64_t payload)
{
    return (double)payload / (double)link_wire_bytes(l, dir, payload);
}

double link_rate(const struct link *l) { return l->rate; }

sim_time link_ser(const struct link *l, uint64_t wire)
{
    return (sim_time)ceil((double)wire * 1e12 / l->rate);
}

/* Credit direction d's bytes, wire bytes and busy time packet by packet
 * as each leaves the wire (by `now`), so that a sampled epoch never holds
 * more than the wire carried in it; the totals are those of whole
 * transfers. */
static void credit(struct link *l, struct link_dir_state *d, sim_time now)
{
    while (d->fn) {
        struct link_flight *f = &d->fl[d->fhead];
        uint64_t k = 0;                 /* packets left by now */
        if (now >= f->end) {
            k = f->n;
        } else if (now > f->start && f->n > 1) {
            sim_time dt = now - f->start;
            k = f->wf ? (uint64_t)((double)dt * l->rate / 1e12 / (double)f->wf) : f->n - 1;
            if (k > f->n - 1) k = f->n - 1;
            /* link_ser rounds up: settle k on its exact leave times. */
            while (k > 0 && link_ser(l, k * f->wf) > dt) k--;
            while (k + 1 < f->n && link_ser(l, (k + 1) * f->wf) <= dt) k++;
        }
        if (k > f->sent) {
            uint64_t a = k < f->n - 1 ? k : f->n - 1;     /* full packets */
            uint64_t db = 0, dw = 0, dt = 0;
            if (a > f->sent) {
                db += (a - f->sent) * f->pf;
                dw += (a - f->sent) * f->wf;
                dt += link_ser(l, a * f->wf) - link_ser(l, f->sent * f->wf);
            }
            if (k == f->n) {
                db += f->pl;
                dw += f->wl;
                dt += f->ser - link_ser(l, (f->n - 1) * f->wf);
            }
            *d->bytes += db;
            *d->wire_bytes += dw;
            *d->busy_ps += dt;
            if (f->remote) {
                *d->remote_wire_bytes += dw;
                *d->remote_busy_ps += dt;
            }
            f->sent = k;
        }
        if (k < f->n) return;
        d->fhead = (d->fhead + 1) % d->fcap;
        d->fn--;
    }
}

static void left_wire(void *obj, uint64_t dir, sim_time now)
{
    struct link *l = obj;
    credit(l, &l->d[dir], now);
}

void link_settle(struct link *l, sim_time now)
{
    credit(l, &l->d[LINK_H2D], now);
    credit(l, &l->d[LINK_D2H], now);
}

struct shape { uint64_t n, pf, wf, pl, wl; };

/* Packets as link_fmt_wire cuts them: full ones, then the rest (a
 * header-only packet for no payload). */
static struct shape shape_of(const struct link *l, enum link_dir dir, uint64_t payload)
{
    const struct link_fmt *f = &l->fmt[dir];
    uint64_t full = payload / f->max_payload, rest = payload % f->max_payload;
    uint64_t wf = link_fmt_wire(f, f->max_payload);
    if (rest || !full) return (struct shape){ full + 1, f->max_payload, wf, rest, link_fmt_wire(f, rest) };
    return (struct shape){ full, f->max_payload, wf, f->max_payload, wf };
}

static void add_flight(struct link_dir_state *d, struct link_flight f)
{
    if (d->fn == d->fcap) {
        /* Grows to the peak number of transfers on the wire, then never again. */
        size_t cap = d->fcap ? 2 * d->fcap : 64;
        struct link_flight *fl = xcalloc(cap, sizeof *fl);
        for (size_t i = 0; i < d->fn; i++) fl[i] = d->fl[(d->fhead + i) % d->fcap];
        free(d->fl);
        d->fl = fl;
        d->fcap = cap;
        d->fhead = 0;
    }
    d->fl[(d->fhead + d->fn++) % d->fcap] = f;
}

/* Packets of shape p on direction dir's wire. */
static sim_time put(struct link *l, enum link_dir dir, struct shape p, sim_time ready,
                    sim_time min_end, bool remote)
{
    struct link_dir_state *d = &l->d[dir];
    sim_time start = d->wire_free > ready ? d->wire_free : ready;
    sim_time ser = link_ser(l, (p.n - 1) * p.wf + p.wl);
    d->wire_free = start + ser > min_end ? start + ser : min_end;
    if (d->reserved) {
        /* The reserved copy's data: the same packets from the same start. */
        struct link_flight *f = &d->fl[(d->fhead + d->fn - 1) % d->fcap];
        SIM_ASSERT(f->start == start && f->n == p.n && f->ser == ser, "link", ready,
                   "H2D data that is not the reserved copy's (start %llu ps, reserved %llu ps)",
                   (unsigned long long)start, (unsigned long long)f->start);
        f->end = d->wire_free;
        d->reserved = false;
    } else {
        add_flight(d, (struct link_flight){ start, d->wire_free, ser, p.n, 0, p.pf, p.wf, p.pl, p.wl,
                                            remote });
    }
    engine_at(l->eng, d->wire_free, l->dom, left_wire, l, (uint64_t)dir);
    return d->wire_free;
}

void link_h2d_reserve(struct link *l, uint64_t payload, sim_time first)
{
    /* With several engines, or remote answers, another may reach the wire
     * first: no reservation. */
    if (l->nce != 1 || l->remote) return;
    struct link_dir_state *d = &l->d[LINK_H2D];
    SIM_ASSERT(!d->reserved, "link", first, "two H2D reservations at once");
    struct shape p = shape_of(l, LINK_H2D, payload);
    sim_time start = d->wire_free > first ? d->wire_free : first;
    add_flight(d, (struct link_flight){ start, TIME_NEVER, link_ser(l, (p.n - 1) * p.wf + p.wl),
                                        p.n, 0, p.pf, p.wf, p.pl, p.wl, false });
    d->reserved = true;
}

sim_time link_send(struct link *l, enum link_dir dir, uint64_t payload,
                   sim_time ready, sim_time min_end)
{
    return put(l, dir, shape_of(l, dir, payload), ready, min_end, false);
}

sim_time link_send_remote(struct link *l, enum link_dir dir, uint64_t payload, sim_time ready)
{
    return put(l, dir, shape_of(l, dir, payload), ready, 0, true);
}

void link_read_requests(struct link *l, uint64_t bytes, sim_time ready)
{
    uint64_t n = (bytes + l->mrrs - 1) / l->mrrs;
    if (!n) return;
    /* Header-only packets in the D2H format, sent together: they take their
     * share of the D2H wire, and the H2D data does not wait for them (the
     * request's trip is inside link.latency). */
    uint64_t w = link_fmt_wire(&l->fmt[LINK_D2H], 0);
    put(l, LINK_D2H, (struct shape){ n, 0, w, 0, w }, ready, 0, false);
    *l->d[LINK_D2H].read_requests += n;
}

uint64_t link_compressed(const struct link *l, uint64_t bytes)
{
    if (!l->comp || !bytes) return bytes;
    uint64_t w = (uint64_t)ceil((double)bytes / l->comp);
    return w ? w : 1;
}

static sim_time dma(struct link *l, enum link_dir dir, uint64_t host_addr, uint64_t bytes,
                    uint64_t wire, sim_time lat, sim_time now, event_fn done, void *obj,
                    uint64_t arg);

sim_time link_transfer(struct link *l, enum link_dir dir, uint64_t bytes,
                       sim_time now, event_fn done, void *obj, uint64_t arg)
{
    /* Consecutive host addresses, 4 KiB aligned: like pages of one buffer.
     * Not page data (HIR records, link-bench): never compressed. */
    uint64_t a = l->next_addr;
    l->next_addr += (bytes + 4095) / 4096 * 4096;
    return dma(l, dir, a, bytes, bytes, 0, now, done, obj, arg);
}

/* BASELINE with PCIe Compression (batch-aware Sec. 5.2): the sender's
 * engine compresses a page stream, the receiver's decompresses it; the
 * wire carries ceil(bytes / link.compression) and the landing waits
 * link.compression_latency more (pipelined with the stream: once per
 * DMA).  Memories at both ends hold the data uncompressed. */
sim_time link_dma(struct link *l, enum link_dir dir, uint64_t host_addr,
                  uint64_t bytes, sim_time now, event_fn done, void *obj,
                  uint64_t arg)
{
    return dma(l, dir, host_addr, bytes, link_compressed(l, bytes), l->comp_lat, now, done, obj,
               arg);
}

static sim_time dma(struct link *l, enum link_dir dir, uint64_t host_addr, uint64_t bytes,
                    uint64_t wire, sim_time lat, sim_time now, event_fn done, void *obj,
                    uint64_t arg)
{
    if (dir == LINK_H2D && l->host)
        return link_host_dma(l, host_addr, bytes, wire, lat, now, done, obj, arg);
    struct link_dir_state *d = &l->d[dir];
    unsigned ce = 0;
    for (unsigned i = 1; i < l->nce; i++)
        if (d->ce_free[i] < d->ce_free[ce]) ce = i;
    sim_time start = d->ce_free[ce] > now ? d->ce_free[ce] : now;
    sim_time ready = start + l->setup;
    if (dir == LINK_H2D) link_read_requests(l, wire, ready);
    sim_time left = link_send(l, dir, wire, ready, 0);
    /* Pipelined: the engine takes its next DMA once this one's data is
     * ready for the wire. */
    d->ce_free[ce] = ready;
    *d->transfers += 1;
    sim_time t = left + l->latency + lat;
    if (TRACE_ON(TW_DMA)) trace_dma(dir == LINK_D2H, ce, host_addr, bytes, now, start, t);
    engine_at(l->eng, t, l->dom, done, obj, arg);
    if (dir == LINK_D2H && l->hw) link_host_write(l->hw, host_addr, bytes, t);
    return t;
}

sim_time link_message(struct link *l, enum link_dir dir, uint64_t payload,
                      sim_time now, event_fn done, void *obj, uint64_t arg)
{
    struct link_dir_state *d = &l->d[dir];
    sim_time t = link_send(l, dir, payload, now, 0) + l->latency;
    *d->messages += 1;
    if (done) engine_at(l->eng, t, l->dom, done, obj, arg);
    return t;
}

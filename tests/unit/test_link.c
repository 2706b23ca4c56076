/* The CPU-GPU link against hand-derived times and the flit arithmetic. */
#include <check.h>
#include "suite_main.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/config.h"
#include "core/stats.h"
#include "link/link.h"
#include "dram/dram.h"
#include "core/mem_req.h"
#include "trace/trace.h"

static struct config *load(const char *const *sets, size_t n)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    if (!c) ck_abort_msg("config: %s", err.msg);
    return c;
}
#define NSETS(a) (sizeof a / sizeof a[0])

struct rig { struct engine *e; struct stats *st; struct config *c; struct link *l;
             struct domain dom; sim_time t[16]; };

static void landed(void *obj, uint64_t i, sim_time now) { ((struct rig *)obj)->t[i] = now; }

static void rig_up(struct rig *r, const char *const *sets, size_t n)
{
    struct engine_limits lim = {0, 0, 0};
    r->e = engine_new(&lim);
    r->st = stats_new();
    r->c = load(sets, n);
    r->dom = (struct domain){ "link", 1, 0 };
    r->l = link_create(r->e, r->c, r->st, &r->dom);
}

static void rig_down(struct rig *r)
{
    link_free(r->l);
    config_free(r->c);
    stats_free(r->st);
    engine_free(r->e);
}

/* PCIe 3.0 x16 defaults (issue 11, point 10): 16 GB/s raw x 128/130
 * (128b/130b) x (1 - 16/168) (an 8 B ACK and an 8 B UpdateFC DLLP per
 * 168 B) = 14.2535 GB/s of packets, computed in the model's order so the
 * ceil()s agree.  H2D data are completions split at the 128 B RCB with
 * 20 B each; D2H writes carry 256 B + 24 B; a read request is 24 B. */
#define RATE (16e9 * (128.0 / 130.0) * (1.0 - 16.0 / 168.0))
static sim_time ser(double wire) { return (sim_time)ceil(wire * 1e12 / RATE); }
#define L 1000000ULL

START_TEST(pcie_rate_is_raw_times_encoding_less_dllps)
{
    struct rig r;
    rig_up(&r, NULL, 0);
    ck_assert_double_eq_tol(link_rate(r.l), 14.2534798e9, 1e3);
    rig_down(&r);
    const char *none[] = { "link.encoding=none", "link.dllp_interval=0" };
    rig_up(&r, none, NSETS(none));
    ck_assert_double_eq_tol(link_rate(r.l), 16e9, 1e-3);
    rig_down(&r);
    /* PCIe 2.0's 8b/10b: 16 GB/s raw carries 12.8 GB/s. */
    const char *gen2[] = { "link.encoding=8b10b", "link.dllp_interval=0" };
    rig_up(&r, gen2, NSETS(gen2));
    ck_assert_double_eq_tol(link_rate(r.l), 12.8e9, 1e-3);
    rig_down(&r);
}
END_TEST

START_TEST(pcie_packets_by_direction)
{
    struct rig r;
    rig_up(&r, NULL, 0);
    /* D2H writes: 16 x (256 + 24); H2D completions: 32 x (128 + 20). */
    ck_assert_uint_eq(link_wire_bytes(r.l, LINK_D2H, 4096), 16 * 280);
    ck_assert_uint_eq(link_wire_bytes(r.l, LINK_H2D, 4096), 32 * 148);
    ck_assert_uint_eq(link_wire_bytes(r.l, LINK_D2H, 0), 24);
    ck_assert_double_eq_tol(link_efficiency(r.l, LINK_H2D, 4096), 128.0 / 148, 1e-12);
    rig_down(&r);
    /* Completions of up to the max payload (rcb 0): 16 x (256 + 20). */
    const char *mps[] = { "link.rcb=0" };
    rig_up(&r, mps, NSETS(mps));
    ck_assert_uint_eq(link_wire_bytes(r.l, LINK_H2D, 4096), 16 * 276);
    rig_down(&r);
    /* A 64 B RCB: 64 x (64 + 20). */
    const char *r64[] = { "link.rcb=64B" };
    rig_up(&r, r64, NSETS(r64));
    ck_assert_uint_eq(link_wire_bytes(r.l, LINK_H2D, 4096), 64 * 84);
    rig_down(&r);
}
END_TEST

/* The calibrated copy times (bare wire, no host memory attached): an H2D
 * copy of S bytes is S / 128 completions of 148 B, serialised at RATE and
 * landing 1 us later.
 *   4 KiB:  4736 B    ->   332.270 ns -> 1.332 us   (3.07 GB/s)
 *   64 KiB: 75776 B   ->  5316.316 ns -> 6.316 us   (10.38 GB/s)
 *   2 MiB:  2424832 B -> 170122.106 ns -> 171.122 us (12.26 GB/s)
 * so a 2 MiB copy lands in the 12-13 GB/s that bandwidthTest measures for
 * large pinned copies on PCIe 3.0 x16 (docs/validation.md). */
START_TEST(h2d_copies_take_the_calibrated_time)
{
    const uint64_t size[] = { 4096, 65536, 2u << 20 };
    const sim_time hand[] = { 332270 + L, 5316316 + L, 170122106 + L };
    for (int i = 0; i < 3; i++) {
        struct rig r;
        rig_up(&r, NULL, 0);
        link_transfer(r.l, LINK_H2D, size[i], 0, landed, &r, 0);
        engine_run(r.e);
        ck_assert_uint_eq(r.t[0], ser((double)size[i] / 128 * 148) + L);
        ck_assert_uint_eq(r.t[0], hand[i]);
        /* One 24 B read request per 512 B went D2H. */
        ck_assert_uint_eq(*stats_find(r.st, "link.d2h.read_requests")->p.u, size[i] / 512);
        ck_assert_uint_eq(*stats_find(r.st, "link.d2h.wire_bytes")->p.u, size[i] / 512 * 24);
        if (i == 2) {
            double gbs = (double)size[i] / (double)r.t[0] * 1e3;
            ck_assert_msg(gbs >= 12.0 && gbs <= 13.0, "2 MiB at %.3f GB/s", gbs);
        }
        rig_down(&r);
    }
}
END_TEST

START_TEST(directions_share_only_read_requests)
{
    const char *sets[] = { "link.latency=1us" };
    struct rig r;
    rig_up(&r, sets, NSETS(sets));
    link_transfer(r.l, LINK_H2D, 65536, 0, landed, &r, 0);
    engine_run(r.e);
    sim_time single = r.t[0];
    rig_down(&r);
    rig_up(&r, sets, NSETS(sets));
    link_transfer(r.l, LINK_D2H, 65536, 0, landed, &r, 1);
    link_transfer(r.l, LINK_H2D, 65536, 0, landed, &r, 0);
    engine_run(r.e);
    /* The H2D copy is unaffected by the D2H one; its 128 read requests
     * (3072 B) queue behind the D2H data, which is 256 x 280 B. */
    ck_assert_uint_eq(r.t[0], single);
    ck_assert_uint_eq(r.t[1], ser(256 * 280) + L);
    /* Two in the same direction: the second's data follows the first's. */
    link_transfer(r.l, LINK_H2D, 65536, r.t[0], landed, &r, 2);
    link_transfer(r.l, LINK_H2D, 65536, r.t[0], landed, &r, 3);
    engine_run(r.e);
    ck_assert_uint_eq(r.t[3] - r.t[2], single - L);
    rig_down(&r);
}
END_TEST

/* NVLink-like (thesis Table 6.3): 16 B flits, one header flit per <= 128 B
 * in both directions, no line code or DLLPs in the source: P bytes take
 * P/16 + 1 flits, efficiency P / (16 (P/16 + 1)). */
START_TEST(nvlink_efficiency_is_flit_arithmetic)
{
    const char *sets[] = { "link.bandwidth=90GB/s", "link.max_payload=128B",
                           "link.header=16B", "link.flit=16B", "link.rcb=0",
                           "link.completion_header=16B", "link.encoding=none",
                           "link.dllp_interval=0" };
    struct rig r;
    rig_up(&r, sets, NSETS(sets));
    ck_assert_double_eq_tol(link_rate(r.l), 90e9, 1e-3);
    const unsigned p[] = { 32, 64, 128 };
    const double table[] = { 0.66, 0.80, 0.88 };
    for (int d = 0; d < 2; d++)
        for (int i = 0; i < 3; i++) {
            double flits = p[i] / 16.0 + 1;
            ck_assert_double_eq_tol(link_efficiency(r.l, d, p[i]), p[i] / (16 * flits), 1e-12);
            ck_assert_double_eq_tol(link_efficiency(r.l, d, p[i]), table[i], 0.01);
        }
    /* 4 KiB = 32 packets of 9 flits. */
    ck_assert_uint_eq(link_wire_bytes(r.l, LINK_H2D, 4096), 32 * 9 * 16);
    /* A 33 B payload needs 3 data flits. */
    ck_assert_uint_eq(link_wire_bytes(r.l, LINK_D2H, 33), 4 * 16);
    /* A header-only request is one flit. */
    ck_assert_uint_eq(link_wire_bytes(r.l, LINK_D2H, 0), 16);
    rig_down(&r);
}
END_TEST

/* Copy engines with setup S = 500 ns; a 4 KiB H2D copy's data takes
 * D = 332.27 ns.  An engine takes its next copy once the current one's
 * data is ready for the wire (pipelined), so with one engine copy k is
 * ready at (k + 1) S and, since D < S, goes at once: the last lands at
 * 4 S + D + L.  With two engines copies 0 and 1 are ready at S; copies 2
 * and 3 at 2 S = 1000 ns, after the wire has become busy until S + 2 D =
 * 1164.5 ns: from S on the wire is never idle, copy k ends at S + (k+1) D. */
START_TEST(copy_engines_pipeline_setup)
{
    const sim_time S = 500000, D = ser(4736);
    ck_assert_uint_eq(D, 332270);
    const char *one[] = { "link.ce_setup=500ns", "link.copy_engines=1" };
    struct rig r;
    rig_up(&r, one, NSETS(one));
    for (int i = 0; i < 4; i++) link_transfer(r.l, LINK_H2D, 4096, 0, landed, &r, (uint64_t)i);
    engine_run(r.e);
    for (int k = 0; k < 4; k++) ck_assert_uint_eq(r.t[k], (sim_time)(k + 1) * S + D + L);
    rig_down(&r);
    const char *two[] = { "link.ce_setup=500ns", "link.copy_engines=2" };
    rig_up(&r, two, NSETS(two));
    for (int i = 0; i < 4; i++) link_transfer(r.l, LINK_H2D, 4096, 0, landed, &r, (uint64_t)i);
    /* A remote 128 B reply sent now shares the wire: one 148 B completion
     * after the copies. */
    link_message(r.l, LINK_H2D, 128, 0, landed, &r, 4);
    engine_run(r.e);
    for (int k = 0; k < 4; k++) ck_assert_uint_eq(r.t[k], S + (sim_time)(k + 1) * D + L);
    ck_assert_uint_eq(r.t[4], S + 4 * D + ser(148) + L);
    ck_assert_uint_eq(*stats_find(r.st, "link.h2d.busy_ps")->p.u, 4 * D + ser(148));
    rig_down(&r);
}
END_TEST

/* An H2D page read from host DDR4 (defaults: 1250 MHz -> 800 ps clocks,
 * tRCD = tCL = 12, tCCD_L = 6, 4-clock bursts of 64 B; host.latency 100
 * core cycles of 714 ps = 71.4 ns).  The engine issues 32 reads of 128 B
 * at 0; they are scheduled at once and each answer leaves the controller
 * pipeline 71.4 ns after its data (re-derived when the pipeline delay
 * moved from the input queue to the answer: 0.6 ns earlier than the old
 * 72.0 ns clock edge).  Channel 0 holds bytes 0-255 (bank 0) and
 * 1024-1279 (bank 1, group 1): ACT bank 0 at clock 0, ACT bank 1 at
 * tRRD_S = 4; read A (bytes 0-127) bursts at 12, its second burst must
 * wait tCCD_L = 6, so bank 1's first burst takes clock 16 (tCCD_S after
 * 12) and A's second goes at 20 (tCCD_S after 16): A is answered at
 * 20 + tCL + burst = 36 clocks = 28.8 ns, at 71.4 + 28.8 = 100.2 ns.  The
 * page (32 completions of 148 B, 332.27 ns) goes on the wire from then;
 * the last of the 32 reads (8 per channel, about 50 ns of bursts) is back
 * long before its last completion, so the page lands at 100.2 + 332.27 +
 * 1000 ns.  The engine sends its 8 read requests when it first ticks,
 * after the D2H page took the D2H wire: the D2H page is the bare wire
 * time (4480 B) plus latency. */
START_TEST(h2d_dma_reads_host_memory)
{
    const char *sets[] = { "link.latency=1us", "gpu.clock=1.4GHz" };
    struct rig r;
    rig_up(&r, sets, NSETS(sets));
    struct req_pool pool;
    req_pool_init(&pool);
    struct domain hdom = { "host", hostmem_period(r.c), 1 };
    struct dram *host = hostmem_create(r.e, r.c, r.st, &hdom);
    link_attach_host(r.l, host, &pool);
    ck_assert_uint_eq(link_transfer(r.l, LINK_H2D, 4096, 0, landed, &r, 0), TIME_NEVER);
    link_transfer(r.l, LINK_D2H, 4096, 0, landed, &r, 1);
    engine_run(r.e);
    ck_assert_uint_eq(r.t[0], 100200 + 332270 + L);
    ck_assert_uint_eq(r.t[1], ser(4480) + L);
    ck_assert_uint_eq(*stats_find(r.st, "host.dram.reads")->p.u, 32);
    ck_assert_uint_eq(pool.live, 0);
    dram_free(host);
    req_pool_free(&pool);
    rig_down(&r);
}
END_TEST

/* Pipelining with host memory: two 64 KiB H2D copies on one engine.  The
 * second's 512 host reads (about 1 us at 80 GB/s) run while the first's
 * 5.316 us of completions are on the wire, so its data follows without a
 * gap: the landings are one wire time apart.  (Reading only after the
 * first had left, the gap would hold the second's first-answer latency.) */
START_TEST(copy_engine_reads_next_dma_while_wire_busy)
{
    const char *sets[] = { "gpu.clock=1.4GHz" };
    struct rig r;
    rig_up(&r, sets, NSETS(sets));
    struct req_pool pool;
    req_pool_init(&pool);
    struct domain hdom = { "host", hostmem_period(r.c), 1 };
    struct dram *host = hostmem_create(r.e, r.c, r.st, &hdom);
    link_attach_host(r.l, host, &pool);
    link_transfer(r.l, LINK_H2D, 65536, 0, landed, &r, 0);
    link_transfer(r.l, LINK_H2D, 65536, 0, landed, &r, 1);
    engine_run(r.e);
    ck_assert_uint_eq(r.t[1] - r.t[0], ser(512 * 148));
    ck_assert_uint_eq(*stats_find(r.st, "link.d2h.read_requests")->p.u, 2 * 128);
    ck_assert_uint_eq(pool.live, 0);
    dram_free(host);
    req_pool_free(&pool);
    rig_down(&r);
}
END_TEST

/* The host side runs ahead of the engine while every copy engine is busy
 * (link_host_loop.c), or in step with it.  Either way the same model runs,
 * so the times and statistics must be the same, to the picosecond. */
struct host_rig { struct rig r; struct req_pool pool; struct dram *host; };

static void host_up(struct host_rig *h, const char *const *sets, size_t n, bool lockstep)
{
    rig_up(&h->r, sets, n);
    req_pool_init(&h->pool);
    /* Domain orders as in system.c: the link before host memory. */
    h->r.dom.order = 2;
    static struct domain hdom;
    hdom = (struct domain){ "host", hostmem_period(h->r.c), 4 };
    h->host = hostmem_create(h->r.e, h->r.c, h->r.st, &hdom);
    link_attach_host(h->r.l, h->host, &h->pool);
    link_host_lockstep(h->r.l, lockstep);
}

static void host_down(struct host_rig *h)
{
    ck_assert_uint_eq(h->pool.live, 0);
    dram_free(h->host);
    req_pool_free(&h->pool);
    rig_down(&h->r);
}

static uint64_t stat(struct host_rig *h, const char *name) { return *stats_find(h->r.st, name)->p.u; }

/* A 4 KiB H2D copy alone: the hand-derived time of h2d_dma_reads_host_memory
 * (100.2 ns to the first answer, 332.27 ns of completions, 1 us latency),
 * ahead or in step.  Ahead it costs five engine events: the sync that takes
 * the DMA and the wire accounting of its read requests, the sync that sends
 * the data, its wire accounting and the landing; in step each host clock
 * with work and each answer time is one more (a channel's 8 reads share
 * its data bus: 8 answer times at least). */
START_TEST(copy_alone_same_time_ahead_or_in_step)
{
    const char *sets[] = { "gpu.clock=1.4GHz" };
    uint64_t events[2];
    for (int lockstep = 0; lockstep < 2; lockstep++) {
        struct host_rig h;
        host_up(&h, sets, NSETS(sets), lockstep);
        link_transfer(h.r.l, LINK_H2D, 4096, 0, landed, &h.r, 0);
        engine_run(h.r.e);
        ck_assert_uint_eq(h.r.t[0], 100200 + 332270 + L);
        ck_assert_uint_eq(stat(&h, "host.dram.reads"), 32);
        events[lockstep] = engine_events(h.r.e);
        host_down(&h);
    }
    ck_assert_uint_eq(events[0], 5);
    ck_assert_uint_ge(events[1], 5 + 8);
}
END_TEST

/* Statistics sampled every 20 ns (the engine's sim.epoch samples) see the
 * same host memory ahead as in step: the loop never runs ahead across a
 * sample.  A 64 KiB H2D copy next to a 64 KiB D2H write-back (the other
 * traffic of host memory: its 128 B writes land 1 us + 4.5 us after it is
 * sent, while the H2D reads run) and a second H2D copy issued when the
 * writes land. */
struct sampler { struct host_rig *h; uint64_t reads[1024], writes[1024], hits[1024]; size_t n; };

static void sample(void *ctx, sim_time now)
{
    (void)now;
    struct sampler *s = ctx;
    if (s->n == 1024) return;
    s->reads[s->n] = stat(s->h, "host.dram.reads");
    s->writes[s->n] = stat(s->h, "host.dram.writes");
    s->hits[s->n++] = stat(s->h, "host.dram.row_hits");
}

/* Busy until the three copies have landed (t[] starts at 0). */
static bool copies_out(void *ctx)
{
    const struct rig *r = ctx;
    return !r->t[0] || !r->t[1] || !r->t[2];
}

static void second_copy(void *obj, uint64_t arg, sim_time now)
{
    (void)arg;
    struct rig *r = obj;
    link_transfer(r->l, LINK_H2D, 65536, now, landed, r, 2);
}

/* The write-back has landed: its 512 writes take about 0.8 us of host
 * memory; the second copy comes 200 ns into them. */
static void wb_landed(void *obj, uint64_t arg, sim_time now)
{
    struct rig *r = obj;
    r->t[arg] = now;
    engine_at(r->e, now + 200000, &r->dom, second_copy, r, 0);
}

START_TEST(copy_next_to_host_traffic_same_ahead_or_in_step)
{
    const char *sets[] = { "gpu.clock=1.4GHz", "sim.epoch=20ns" };
    static struct sampler s[2];
    sim_time t[2][3];
    for (int lockstep = 0; lockstep < 2; lockstep++) {
        struct host_rig h;
        host_up(&h, sets, NSETS(sets), lockstep);
        s[lockstep] = (struct sampler){ .h = &h };
        memset(h.r.t, 0, sizeof h.r.t);
        engine_set_busy_fn(h.r.e, copies_out, &h.r);
        engine_every(h.r.e, 20000, sample, &s[lockstep]);
        link_transfer(h.r.l, LINK_D2H, 65536, 0, wb_landed, &h.r, 1);
        link_transfer(h.r.l, LINK_H2D, 65536, 0, landed, &h.r, 0);
        engine_run(h.r.e);
        for (int k = 0; k < 3; k++) t[lockstep][k] = h.r.t[k];
        ck_assert_uint_eq(stat(&h, "host.dram.reads"), 2 * 512);
        ck_assert_uint_eq(stat(&h, "host.dram.writes"), 512);
        host_down(&h);
    }
    for (int k = 0; k < 3; k++) ck_assert_uint_eq(t[0][k], t[1][k]);
    ck_assert_uint_eq(s[0].n, s[1].n);
    for (size_t i = 0; i < s[0].n; i++) {
        ck_assert_uint_eq(s[0].reads[i], s[1].reads[i]);
        ck_assert_uint_eq(s[0].writes[i], s[1].writes[i]);
        ck_assert_uint_eq(s[0].hits[i], s[1].hits[i]);
    }
    /* The samples did fall inside the copies. */
    bool mid_reads = false, mid_writes = false;
    for (size_t i = 0; i < s[0].n; i++) {
        mid_reads |= s[0].reads[i] > 0 && s[0].reads[i] < 512;
        mid_writes |= s[0].writes[i] > 0 && s[0].writes[i] < 512;
    }
    ck_assert(mid_reads && mid_writes);
}
END_TEST

/* A trace window that ends while the host side could run ahead: the
 * writer closes the file at the first hook past the window's end, so a
 * host burst run ahead of the engine would cut off what the engine still
 * has inside the window.  A 64 KiB H2D copy from 0 keeps host memory busy
 * for longer than the window (512 reads of 128 B: 64 KiB at 20 GB/s is
 * 3.3 us); the D2H DMA issued at 500 ns is inside the window [0, 600 ns)
 * and must be in the file, and no burst may start at or past 600 ns. */
static void d2h_at(void *obj, uint64_t arg, sim_time now)
{
    (void)arg;
    struct rig *r = obj;
    link_transfer(r->l, LINK_D2H, 4096, now, landed, r, 1);
}

START_TEST(trace_window_sees_engine_events_next_to_a_copy)
{
    const char *sets[] = { "gpu.clock=1.4GHz" };
    char path[] = "/tmp/uvmsim-test-link-trace.XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    struct host_rig h;
    host_up(&h, sets, NSETS(sets), false);
    ck_assert_int_eq(trace_open(path, 0, 600000, TW_DMA | TW_DRAM), 0);
    link_transfer(h.r.l, LINK_H2D, 65536, 0, landed, &h.r, 0);
    engine_at(h.r.e, 500000, &h.r.dom, d2h_at, &h.r, 0);
    engine_run(h.r.e);
    trace_close();
    ck_assert_uint_eq(trace_mask, 0);
    FILE *f = fopen(path, "r");
    ck_assert_ptr_nonnull(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    unlink(path);
    ck_assert_msg(strstr(buf, "\"DMA D2H\"") != NULL, "the D2H DMA at 500 ns is missing");
    unsigned bursts = 0;
    for (const char *q = buf; (q = strstr(q, "\"read burst\"")); q++) {
        const char *ts = strstr(q, "\"ts\":");
        ck_assert_ptr_nonnull(ts);
        ck_assert_double_lt(strtod(ts + 5, NULL), 0.6);   /* us */
        bursts++;
    }
    ck_assert_uint_gt(bursts, 0);
    ck_assert_uint_gt(h.r.t[0], 0);
    ck_assert_uint_gt(h.r.t[1], 0);
    host_down(&h);
}
END_TEST

/* The link's statistics per epoch never exceed the wire: bytes, wire bytes
 * and busy time are credited per packet as it leaves (link_settle before
 * each sample).  A 2 MiB H2D copy on the bare link: 16384 completions of
 * 128 B + 20 B = 148 B, back to back at RATE (14.2535 GB/s of packets),
 * 2 MiB x 148/128 / RATE = 170.1 us; sampled every 1 us.  Packets leaving
 * in one epoch were on the wire in it, but for the one that straddles its
 * start: at most RATE x 1 us + 148 wire bytes (14401.5), i.e. at most 98
 * packets, 12544 B of payload (less than the 16 GB/s raw signalling rate,
 * 16000 B per us: the series that `uvmsim report` plots); while the wire is
 * busy the whole epoch, at least floor(14253.5 / 148) - 1 = 95 packets.
 * The totals are the transfer's.  (Credited whole at the start, the first
 * epoch held all 2 MiB.) */
struct lsampler { struct link *l; struct stats *st; size_t n; uint64_t b[512], w[512], busy[512]; };

static void lsample(void *ctx, sim_time now)
{
    struct lsampler *s = ctx;
    link_settle(s->l, now);
    if (s->n == 512) return;
    s->b[s->n] = *stats_find(s->st, "link.h2d.bytes")->p.u;
    s->w[s->n] = *stats_find(s->st, "link.h2d.wire_bytes")->p.u;
    s->busy[s->n++] = *stats_find(s->st, "link.h2d.busy_ps")->p.u;
}

static bool first_out(void *ctx) { return !((const struct rig *)ctx)->t[0]; }

START_TEST(link_series_never_above_the_wire)
{
    struct rig r;
    rig_up(&r, NULL, 0);
    memset(r.t, 0, sizeof r.t);
    static struct lsampler s;
    s = (struct lsampler){ .l = r.l, .st = r.st };
    engine_set_busy_fn(r.e, first_out, &r);
    engine_every(r.e, 1000000, lsample, &s);
    link_transfer(r.l, LINK_H2D, 2u << 20, 0, landed, &r, 0);
    engine_run(r.e);
    uint64_t wire = (2u << 20) / 128 * 148;
    ck_assert_uint_eq(r.t[0], ser((double)wire) + L);
    ck_assert_uint_ge(s.n, 170);
    uint64_t pb = 0, pw = 0, pbusy = 0;
    for (size_t i = 0; i < s.n; i++) {
        uint64_t db = s.b[i] - pb, dw = s.w[i] - pw, dbusy = s.busy[i] - pbusy;
        ck_assert_uint_le(dw, 98 * 148);
        ck_assert_uint_le(db, 98 * 128);
        ck_assert_uint_le(dbusy, 1000000 + ser(148));
        if (i + 1 < 170) ck_assert_uint_ge(db, 95 * 128);   /* epochs (i, i + 1] us */
        ck_assert_uint_eq(dw / 148 * 128, db);                /* whole packets only */
        pb = s.b[i]; pw = s.w[i]; pbusy = s.busy[i];
    }
    ck_assert_uint_eq(*stats_find(r.st, "link.h2d.bytes")->p.u, 2u << 20);
    ck_assert_uint_eq(*stats_find(r.st, "link.h2d.wire_bytes")->p.u, wire);
    ck_assert_uint_eq(*stats_find(r.st, "link.h2d.busy_ps")->p.u, ser((double)wire));
    rig_down(&r);
}
END_TEST

/* The same from host memory (one copy engine): the engine puts the copy on
 * the wire only once all its reads are answered, with packets from its
 * first answer on, so the wire is reserved at the first answer
 * (link_h2d_reserve) and the samples taken while the reads run see the
 * packets that have left.  The 2 MiB copy's reads take longer than one
 * epoch (16384 reads, 64 in flight); per epoch the same bounds as on the
 * bare link, from the first answer (~0.1 us) on the wire back to back. */
START_TEST(link_series_within_the_wire_from_host_memory)
{
    const char *sets[] = { "gpu.clock=1.4GHz" };
    struct host_rig h;
    host_up(&h, sets, NSETS(sets), false);
    memset(h.r.t, 0, sizeof h.r.t);
    static struct lsampler s;
    s = (struct lsampler){ .l = h.r.l, .st = h.r.st };
    engine_set_busy_fn(h.r.e, first_out, &h.r);
    engine_every(h.r.e, 1000000, lsample, &s);
    link_transfer(h.r.l, LINK_H2D, 2u << 20, 0, landed, &h.r, 0);
    engine_run(h.r.e);
    uint64_t wire = (2u << 20) / 128 * 148;
    ck_assert_uint_ge(s.n, 170);
    uint64_t pb = 0, pw = 0, pbusy = 0;
    for (size_t i = 0; i < s.n; i++) {
        uint64_t db = s.b[i] - pb, dw = s.w[i] - pw, dbusy = s.busy[i] - pbusy;
        ck_assert_uint_le(dw, 98 * 148);
        ck_assert_uint_le(db, 98 * 128);
        ck_assert_uint_le(dbusy, 1000000 + ser(148));
        if (i >= 1 && i + 1 < 170) ck_assert_uint_ge(db, 95 * 128);
        pb = s.b[i]; pw = s.w[i]; pbusy = s.busy[i];
    }
    ck_assert_uint_eq(stat(&h, "link.h2d.bytes"), 2u << 20);
    ck_assert_uint_eq(stat(&h, "link.h2d.wire_bytes"), wire);
    ck_assert_uint_eq(stat(&h, "link.h2d.busy_ps"), ser((double)wire));
    host_down(&h);
}
END_TEST

/* A completion larger than the max payload is impossible: refused, naming
 * the key. */
/* BASELINE with PCIe Compression (batch-aware Sec. 5.2; link.compression):
 * with the line code, DLLPs and headers off and one packet per DMA, a
 * 64 KiB D2H page at ratio 2 is 32768 B on a 16 GB/s wire: 2.048 us, plus
 * the 1 us latency and 100 ns of (de)compression = 3.148 us.  A 4 KiB one
 * at ratio 3 is ceil(4096 / 3) = 1366 B: 85.375 ns -> 1.185375 us.  The
 * same DMA through link_transfer (not page data) and with the key at 0 or
 * 1 is uncompressed: 4.096 us + 1 us. */
START_TEST(compressed_page_dma_takes_bytes_over_ratio)
{
    const char *base[] = { "link.encoding=none", "link.dllp_interval=0", "link.header=0B",
                           "link.completion_header=0B", "link.rcb=0B", "link.max_payload=1MiB",
                           "link.latency=1us", "link.compression=2",
                           "link.compression_latency=100ns" };
    struct rig r;
    rig_up(&r, base, NSETS(base));
    ck_assert_uint_eq(link_compressed(r.l, 65536), 32768);
    link_dma(r.l, LINK_D2H, 0, 65536, 0, landed, &r, 0);
    engine_run(r.e);
    ck_assert_uint_eq(r.t[0], 2048000 + L + 100000);
    ck_assert_uint_eq(*stats_find(r.st, "link.d2h.bytes")->p.u, 32768);
    /* Not page data: uncompressed, no (de)compression time. */
    link_transfer(r.l, LINK_D2H, 65536, r.t[0], landed, &r, 1);
    engine_run(r.e);
    ck_assert_uint_eq(r.t[1] - r.t[0], 4096000 + L);
    rig_down(&r);
    const char *three[] = { "link.encoding=none", "link.dllp_interval=0", "link.header=0B",
                            "link.max_payload=1MiB", "link.latency=1us", "link.compression=3" };
    rig_up(&r, three, NSETS(three));
    ck_assert_uint_eq(link_compressed(r.l, 4096), 1366);
    link_dma(r.l, LINK_D2H, 0, 4096, 0, landed, &r, 0);
    engine_run(r.e);
    ck_assert_uint_eq(r.t[0], 85375 + L);
    rig_down(&r);
    for (int off = 0; off < 2; off++) {
        const char *no[] = { "link.encoding=none", "link.dllp_interval=0", "link.header=0B",
                             "link.max_payload=1MiB", "link.latency=1us",
                             off ? "link.compression=1" : "link.compression=0",
                             "link.compression_latency=100ns" };
        rig_up(&r, no, NSETS(no));
        link_dma(r.l, LINK_D2H, 0, 65536, 0, landed, &r, 0);
        engine_run(r.e);
        ck_assert_uint_eq(r.t[0], 4096000 + L);
        rig_down(&r);
    }
}
END_TEST

/* From host memory (H2D): the reads fetch all 64 KiB, the wire carries
 * half of it.  Two back-to-back pages land one compressed wire time apart
 * (32768 B at 16 GB/s = 2.048 us), as the uncompressed ones land 4.096 us
 * apart (copy_engine_reads_next_dma_while_wire_busy's argument: the second
 * page's reads run under the first's wire time). */
START_TEST(compressed_h2d_from_host_memory)
{
    const char *sets[] = { "gpu.clock=1.4GHz", "link.encoding=none", "link.dllp_interval=0",
                           "link.completion_header=0B", "link.rcb=0B", "link.header=0B",
                           "link.max_payload=1MiB", "link.compression=2" };
    struct rig r;
    rig_up(&r, sets, NSETS(sets));
    struct req_pool pool;
    req_pool_init(&pool);
    struct domain hdom = { "host", hostmem_period(r.c), 1 };
    struct dram *host = hostmem_create(r.e, r.c, r.st, &hdom);
    link_attach_host(r.l, host, &pool);
    link_dma(r.l, LINK_H2D, 0, 65536, 0, landed, &r, 0);
    link_dma(r.l, LINK_H2D, 65536, 65536, 0, landed, &r, 1);
    engine_run(r.e);
    ck_assert_uint_eq(r.t[1] - r.t[0], 2048000);
    ck_assert_uint_eq(*stats_find(r.st, "host.dram.reads")->p.u, 2 * 512);
    ck_assert_uint_eq(*stats_find(r.st, "link.h2d.bytes")->p.u, 2 * 32768);
    ck_assert_uint_eq(pool.live, 0);
    dram_free(host);
    req_pool_free(&pool);
    rig_down(&r);
}
END_TEST

START_TEST(compression_below_one_is_refused)
{
    const char *sets[] = { "link.compression=0.5" };
    struct cfg_error err;
    ck_assert_ptr_null(config_load(NULL, sets, 1, &err));
    ck_assert_ptr_nonnull(strstr(err.msg, "link.compression"));
}
END_TEST

START_TEST(rcb_above_max_payload_is_refused)
{
    const char *sets[] = { "link.rcb=512B" };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, 1, &err);
    ck_assert_ptr_null(c);
    ck_assert_msg(strstr(err.msg, "key 'link.rcb'") != NULL, "%s", err.msg);
}
END_TEST

static Suite *link_suite(void)
{
    Suite *s = suite_create("link");
    TCase *tc = tcase_create("link");
    tcase_add_test(tc, pcie_rate_is_raw_times_encoding_less_dllps);
    tcase_add_test(tc, pcie_packets_by_direction);
    tcase_add_test(tc, h2d_copies_take_the_calibrated_time);
    tcase_add_test(tc, directions_share_only_read_requests);
    tcase_add_test(tc, nvlink_efficiency_is_flit_arithmetic);
    tcase_add_test(tc, copy_engines_pipeline_setup);
    tcase_add_test(tc, h2d_dma_reads_host_memory);
    tcase_add_test(tc, copy_engine_reads_next_dma_while_wire_busy);
    tcase_add_test(tc, copy_alone_same_time_ahead_or_in_step);
    tcase_add_test(tc, copy_next_to_host_traffic_same_ahead_or_in_step);
    tcase_add_test(tc, trace_window_sees_engine_events_next_to_a_copy);
    tcase_add_test(tc, link_series_never_above_the_wire);
    tcase_add_test(tc, link_series_within_the_wire_from_host_memory);
    tcase_add_test(tc, rcb_above_max_payload_is_refused);
    tcase_add_test(tc, compressed_page_dma_takes_bytes_over_ratio);
    tcase_add_test(tc, compressed_h2d_from_host_memory);
    tcase_add_test(tc, compression_below_one_is_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(link_suite()); }

/* The CPU-GPU link against hand-derived times and the flit arithmetic. */
#include <check.h>
#include "suite_main.h"
#include <math.h>
#include "config.h"
#include "stats.h"
#include "pcie/pcie.h"
#include "dram/dram.h"
#include "mem_req.h"

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

/* PCIe 3.0 defaults: 16 GB/s wire, 256 B payload + 24 B per TLP:
 * effective 16 x 256 / 280 GB/s; 1 us latency. */
START_TEST(pcie_transfer_takes_bytes_over_effective_bw_plus_latency)
{
    const char *sets[] = { "link.bandwidth=16GB/s", "link.latency=1us" };
    struct rig r;
    rig_up(&r, sets, NSETS(sets));
    uint64_t x = 1 << 20;
    link_transfer(r.l, LINK_H2D, x, 0, landed, &r, 0);
    engine_run(r.e);
    double eff = 16e9 * 256.0 / (256.0 + 24.0);
    double expect = (double)x / eff * 1e12 + 1e6;
    ck_assert_msg(fabs((double)r.t[0] - expect) <= 0.01 * expect,
                  "%llu ps vs %.0f", (unsigned long long)r.t[0], expect);
    rig_down(&r);
}
END_TEST

START_TEST(directions_are_independent)
{
    const char *sets[] = { "link.latency=1us" };
    struct rig r;
    rig_up(&r, sets, NSETS(sets));
    link_transfer(r.l, LINK_H2D, 65536, 0, landed, &r, 0);
    engine_run(r.e);
    sim_time single = r.t[0];
    rig_down(&r);
    rig_up(&r, sets, NSETS(sets));
    link_transfer(r.l, LINK_H2D, 65536, 0, landed, &r, 0);
    link_transfer(r.l, LINK_D2H, 65536, 0, landed, &r, 1);
    engine_run(r.e);
    ck_assert_uint_eq(r.t[0], single);
    ck_assert_uint_eq(r.t[1], single);
    /* Two in the same direction: the second's data follows the first's. */
    link_transfer(r.l, LINK_H2D, 65536, r.t[1], landed, &r, 2);
    link_transfer(r.l, LINK_H2D, 65536, r.t[1], landed, &r, 3);
    engine_run(r.e);
    ck_assert_uint_eq(r.t[3] - r.t[2], single - 1000000);
    rig_down(&r);
}
END_TEST

/* NVLink-like (thesis Table 6.3): 16 B flits, one header flit per <= 128 B:
 * P bytes take P/16 + 1 flits, efficiency P / (16 (P/16 + 1)). */
START_TEST(nvlink_efficiency_is_flit_arithmetic)
{
    const char *sets[] = { "link.bandwidth=90GB/s", "link.max_payload=128B",
                           "link.header=16B", "link.flit=16B" };
    struct rig r;
    rig_up(&r, sets, NSETS(sets));
    const unsigned p[] = { 32, 64, 128 };
    const double table[] = { 0.66, 0.80, 0.88 };
    for (int i = 0; i < 3; i++) {
        double flits = p[i] / 16.0 + 1;
        ck_assert_double_eq_tol(link_efficiency(r.l, p[i]), p[i] / (16 * flits), 1e-12);
        ck_assert_double_eq_tol(link_efficiency(r.l, p[i]), table[i], 0.01);
    }
    /* 4 KiB = 32 packets of 9 flits. */
    ck_assert_uint_eq(link_wire_bytes(r.l, 4096), 32 * 9 * 16);
    /* A 33 B payload needs 3 data flits. */
    ck_assert_uint_eq(link_wire_bytes(r.l, 33), 4 * 16);
    /* A header-only request is one flit. */
    ck_assert_uint_eq(link_wire_bytes(r.l, 0), 16);
    rig_down(&r);
}
END_TEST

/* Copy engines: four 4 KiB copies at once with setup S = 500 ns and
 * serialisation D = 4480 B / 16 GB/s = 280 ns.  One engine: setups
 * serialise, the last lands at 4 (S + D) + L.  Two engines: engine 2's
 * setup overlaps engine 1's data: the wire is busy from S on except while
 * both wait: copies leave at S+D, 2S+D... = max chains; hand: engine A runs
 * copies 0, 2; B runs 1, 3.  c0: data [S, S+D]; c1: data [S+D, S+2D]
 * (setup done at S); c2: A free at S+D, setup to 2S+D, data [2S+D, 2S+2D];
 * c3: B free at S+2D, setup to 2S+2D, data [2S+2D, 2S+3D]. */
START_TEST(copy_engines_overlap_setup)
{
    const sim_time S = 500000, D = 280000, L = 1000000;
    const char *one[] = { "link.ce_setup=500ns", "link.copy_engines=1" };
    struct rig r;
    rig_up(&r, one, NSETS(one));
    for (int i = 0; i < 4; i++) link_transfer(r.l, LINK_H2D, 4096, 0, landed, &r, (uint64_t)i);
    engine_run(r.e);
    ck_assert_uint_eq(r.t[3], 4 * (S + D) + L);
    rig_down(&r);
    const char *two[] = { "link.ce_setup=500ns", "link.copy_engines=2" };
    rig_up(&r, two, NSETS(two));
    for (int i = 0; i < 4; i++) link_transfer(r.l, LINK_H2D, 4096, 0, landed, &r, (uint64_t)i);
    /* A remote message sent now shares the wire: it follows the copies. */
    link_message(r.l, LINK_H2D, 128, 0, landed, &r, 4);
    engine_run(r.e);
    ck_assert_uint_eq(r.t[0], S + D + L);
    ck_assert_uint_eq(r.t[1], S + 2 * D + L);
    ck_assert_uint_eq(r.t[2], 2 * S + 2 * D + L);
    ck_assert_uint_eq(r.t[3], 2 * S + 3 * D + L);
    ck_assert_uint_eq(r.t[4], 2 * S + 3 * D + (128 + 24) * 1000 / 16 + L);
    ck_assert_uint_eq(*stats_find(r.st, "link.h2d.busy_ps")->p.u, 4 * D + (128 + 24) * 1000 / 16);
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
 * 20 + tCL + burst = 36 clocks = 28.8 ns, at 71.4 + 28.8 = 100.2 ns.  The page (4480
 * wire bytes, 280 ns) goes on the wire from then; the last of the 32 reads
 * (8 per channel, about 50 ns of bursts) is back long before its last
 * packet, so the page lands at 100.2 + 280 + 1000 ns. */
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
    ck_assert_uint_eq(r.t[0], 100200 + 280000 + 1000000);
    /* D2H is unaffected: the wire time plus latency. */
    ck_assert_uint_eq(r.t[1], 280000 + 1000000);
    ck_assert_uint_eq(*stats_find(r.st, "host.dram.reads")->p.u, 32);
    ck_assert_uint_eq(pool.live, 0);
    dram_free(host);
    req_pool_free(&pool);
    rig_down(&r);
}
END_TEST

static Suite *link_suite(void)
{
    Suite *s = suite_create("link");
    TCase *tc = tcase_create("link");
    tcase_add_test(tc, pcie_transfer_takes_bytes_over_effective_bw_plus_latency);
    tcase_add_test(tc, directions_are_independent);
    tcase_add_test(tc, nvlink_efficiency_is_flit_arithmetic);
    tcase_add_test(tc, copy_engines_overlap_setup);
    tcase_add_test(tc, h2d_dma_reads_host_memory);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(link_suite()); }

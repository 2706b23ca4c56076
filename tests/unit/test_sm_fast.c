/* sim.model fast's SM side (sim/sm/fast.c, issue 41): a memory
 * instruction's lines timed through the L1D at once, with the L2 played by
 * a stub that answers every request exactly 100 cycles after it is sent.
 * Numbers derived from the config (1 GHz core: 1 cycle = 1000 ps;
 * gpu.l1d.latency 3, gpu.l1d.ports 1, gpu.xbar.latency 8):
 *  - a miss looked up 3 cycles after its translation, sent at once, is
 *    answered 3 + 100 + 8 = 111 cycles after it;
 *  - a second line of the same instruction waits a cycle for the port;
 *  - a load of a line still in flight merges: answered with the fill,
 *    nothing sent;
 *  - a hit is answered exactly 3 cycles (the L1D latency) after it;
 *  - with one MSHR a second miss is sent when the first's fill is in.
 * None of it is an engine event. */
#include <check.h>
#include "suite_main.h"
#include "gpu_rig.h"
#include "workloads/workload.h"

#define P 1000ULL

struct stub { int calls; sim_time sent[8]; };

static bool stub_l2(void *ctx, enum req_kind k, uint64_t pa, uint8_t mask, sim_time sent,
                    sim_time *done)
{
    (void)k; (void)pa; (void)mask;
    struct stub *s = ctx;
    if (s->calls < 8) s->sent[s->calls] = sent;
    s->calls++;
    *done = sent + 100 * P;
    return true;
}

struct rig {
    struct gpu_rig gr;
    struct gpu *g;
    struct engine *e;
    struct stats *st;
    struct stub stub;
};

static void rig_init(struct rig *r, const char *mshrs)
{
    const char *sets[] = { "gpu.sms=1", "gpu.l1d.latency=3", "gpu.l1d.ports=1",
                           "gpu.xbar.latency=8", mshrs };
    gpu_rig_init(&r->gr, sets, 5, P);
    r->g = r->gr.g;
    r->e = r->gr.e;
    r->st = r->gr.st;
    r->stub = (struct stub){0};
    gpu_set_mem_now(r->g, stub_l2, &r->stub);
}

static void rig_free(struct rig *r) { gpu_rig_free(&r->gr); }

/* A load of whole lines at the given line addresses (one page, frame 0x5000),
 * translated at t: its answer time. */
static sim_time load(struct rig *r, const uint64_t *lines, uint32_t n, sim_time t)
{
    struct sm *s = &r->g->sm[0];
    struct warp *w = &s->w[0];
    struct minst *m = &w->mi[0];
    *m = (struct minst){ .used = true, .access = REQ_LOAD };
    m->c.npages = 1;
    m->c.nlines = n;
    for (uint32_t i = 0; i < n; i++) {
        m->c.line_addr[i] = lines[i];
        m->c.line_mask[i] = 0xf;
        m->c.line_page[i] = 0;
    }
    m->pending = 1 + n;
    ck_assert(fast_page_lines(s, w, m, 0, 0x5000, 0x5000, t));
    ck_assert_uint_eq(m->pending, 1);          /* only the translation still counts */
    return m->done_at;
}

static uint64_t stat(struct rig *r, const char *n) { return *stats_find(r->st, n)->p.u; }

START_TEST(l1d_miss_port_merge_hit)
{
    struct rig r;
    rig_init(&r, "gpu.l1d.mshrs=64");
    sim_time t0 = 10 * P;
    const uint64_t ab[] = { 0x100, 0x180 };
    ck_assert_uint_eq(load(&r, ab, 2, t0), t0 + 112 * P);   /* B: a cycle behind A */
    ck_assert_int_eq(r.stub.calls, 2);
    ck_assert_uint_eq(r.stub.sent[0], t0 + 3 * P);
    ck_assert_uint_eq(r.stub.sent[1], t0 + 4 * P);
    ck_assert_uint_eq(stat(&r, "gpu.l1d.misses"), 2);
    /* A again at t0 + 50: its fill arrives at t0 + 111. */
    ck_assert_uint_eq(load(&r, ab, 1, t0 + 50 * P), t0 + 111 * P);
    ck_assert_int_eq(r.stub.calls, 2);
    ck_assert_uint_eq(stat(&r, "gpu.l1d.mshr_merges"), 1);
    /* A once more after the fill: a hit, exactly the L1D latency. */
    sim_time t1 = t0 + 200 * P;
    ck_assert_uint_eq(load(&r, ab, 1, t1), t1 + 3 * P);
    ck_assert_int_eq(r.stub.calls, 2);
    ck_assert_uint_eq(stat(&r, "gpu.l1d.hits"), 1);
    ck_assert_uint_eq(engine_events(r.e), 0);

    rig_free(&r);
}
END_TEST

START_TEST(l1d_one_mshr_serialises_misses)
{
    struct rig r;
    rig_init(&r, "gpu.l1d.mshrs=1");
    sim_time t0 = 10 * P;
    const uint64_t ab[] = { 0x100, 0x180 };
    /* A sent at t0 + 3, its fill back at the SM at t0 + 111, which frees
     * the register (l1d.c releases it when the fill is answered); B, looked
     * up at t0 + 4, is sent then and answered 100 + 8 cycles later. */
    ck_assert_uint_eq(load(&r, ab, 2, t0), t0 + 111 * P + 108 * P);
    ck_assert_uint_eq(r.stub.sent[1], t0 + 111 * P);
    rig_free(&r);
}
END_TEST

/* A TLB that hits every page one cycle after the lookup, identity-mapped. */
static bool stub_hit(void *ctx, unsigned sm, struct mem_req *r, sim_time now, sim_time *at)
{
    (void)ctx; (void)sm;
    r->paddr = r->vaddr;
    r->size = 4096;
    r->xflags = 0;
    *at = now + P;
    return true;
}

/* One warp reading 4 KiB at 4 B a lane: 32 loads of one line each, then
 * its exit.  Each load is answered 1 (the SM sends its translation at its
 * next tick, as in cycle) + 1 (TLB) + 3 (L1D) + 100 (L2 stub) + 8
 * (crossbar back) = 113 cycles after its issue, and the warp issues its
 * next instruction that very cycle (the SM's tick at the answer, as the
 * cycle model's tick at a line's answer): 32 x 112 cycles waiting on
 * memory, 33 issue cycles.  The SM ticks once a load (at the answer it
 * issues the next and sends its translation as of the next cycle,
 * xq_early), nothing else is an event. */
START_TEST(warp_issues_at_its_answer)
{
    static const char *const sets[] = { "gpu.sms=1", "gpu.l1d.latency=3", "gpu.xbar.latency=8",
                                        "workload.kind=stream", "workload.stream.op=read",
                                        "workload.stream.footprint=4096B",
                                        "workload.stream.grid=1", "workload.stream.block=32",
                                        "workload.stream.passes=1" };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, sizeof sets / sizeof *sets, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    struct engine_limits lim = { 0, 0, 0 };
    struct engine *e = engine_new(&lim);
    struct stats *st = stats_new();
    struct req_pool pool;
    req_pool_init(&pool);
    struct domain core = { "core", P, 0 };
    struct workload *wl = workload_create(c);
    struct gpu *g = gpu_create(e, c, st, &pool, &core, wl);
    struct stub stub = {0};
    gpu_set_mem_now(g, stub_l2, &stub);
    gpu_set_xlate_hit(g, stub_hit);
    gpu_start(g, 0);
    engine_run(e);
    ck_assert(!gpu_busy(g));
    ck_assert_int_eq(stub.calls, 32);
    for (int i = 1; i < 8; i++) ck_assert_uint_eq(stub.sent[i] - stub.sent[i - 1], 113 * P);
    ck_assert_uint_eq(*stats_find(st, "sm.issue_cycles")->p.u, 33);
    ck_assert_uint_eq(*stats_find(st, "sm.stall.memory")->p.u, 32 * 112);
    ck_assert_uint_le(engine_events(e), 32 + 4);   /* + the exit, the launch */
    gpu_free(g);
    workload_free(wl);
    req_pool_free(&pool);
    stats_free(st);
    engine_free(e);
    config_free(c);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("sm_fast");
    TCase *t = tcase_create("fast");
    tcase_add_test(t, l1d_miss_port_merge_hit);
    tcase_add_test(t, l1d_one_mshr_serialises_misses);
    tcase_add_test(t, warp_issues_at_its_answer);
    suite_add_tcase(su, t);
    return run_suite(su);
}

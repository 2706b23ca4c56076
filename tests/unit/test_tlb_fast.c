/* sim.model fast's L1 TLB lookups (sim/tlb/tlb_fast.c, issue 41): a hit
 * answered at lookup reaches the SM exactly tlb.l1.latency core cycles
 * after it is sent -- the same time as the cycle model's lookup through
 * the level's queue -- and the single port (tlb.l1.ports = 1, HPE Table I)
 * puts a second lookup of the same cycle one cycle later.  The TLB is
 * built alone; the test plays the walker. */
#include <check.h>
#include "suite_main.h"
#include "config/config.h"
#include "core/stats.h"
#include "core/mem_req.h"
#include "tlb/tlb.h"

#define CYC 1000ULL
#define VA 0x200000000ULL



struct rig {
    struct config *cfg;
    struct engine *e;
    struct stats *st;
    struct req_pool pool;
    struct domain core;
    struct tlb *tlb;
    struct mq walk, resp;
};

static void rig_init(struct rig *g)
{
    const char *sets[] = { "tlb.l1.latency=3" };
    struct cfg_error err;
    g->cfg = config_load(NULL, sets, 1, &err);
    ck_assert_msg(g->cfg != NULL, "%s", err.msg);
    struct engine_limits lim = { 0, 0, 0 };
    g->e = engine_new(&lim);
    g->st = stats_new();
    req_pool_init(&g->pool);
    g->core = (struct domain){ "core", CYC, 0 };
    g->tlb = tlb_create(g->e, g->cfg, g->st, &g->pool, &g->core, 1);
    mq_init(&g->walk, "walk", 64, 0, NULL);
    mq_init(&g->resp, "resp", 16, 0, NULL);
    tlb_set_walker(g->tlb, &g->walk);
}

static void rig_free(struct rig *g)
{
    tlb_free(g->tlb);
    mq_free(&g->walk);
    mq_free(&g->resp);
    stats_free(g->st);
    engine_free(g->e);
    req_pool_free(&g->pool);
    config_free(g->cfg);
}

/* Run every event up to t (no busy function: the engine stops when its
 * queue is empty, and the test goes on from there). */
static void run_to(struct rig *g, sim_time t)
{
    enum run_status s;
    (void)engine_run_until(g->e, t, NULL, NULL, &s);
}

static struct mem_req *xlate(struct rig *g, uint64_t va, sim_time now)
{
    struct mem_req *r = req_alloc(&g->pool);
    r->kind = REQ_XLATE;
    r->access = REQ_LOAD;
    r->vaddr = va;
    r->reply = &g->resp;
    r->t_issue = now;
    return r;
}

static uint64_t counter(struct rig *g, const char *name) { return *stats_find(g->st, name)->p.u; }

/* The page's first lookup misses both levels; the test answers the walk. */
static void fill_page(struct rig *g)
{
    struct mem_req *r = xlate(g, VA, 0);
    ck_assert(tlb_l1_lookup_now(g->tlb, 0, r, 0));
    ck_assert_uint_eq(counter(g, "tlb.l1.misses"), 1);
    run_to(g, 1000 * CYC);
    struct mem_req *w = mq_pop(&g->walk, 1000 * CYC);
    ck_assert_ptr_nonnull(w);
    w->paddr = 0x7000000;
    w->size = 4096;
    w->xflags = 0;
    ck_assert(mq_push(w->reply, w, 1000 * CYC, NULL));
    run_to(g, 2000 * CYC);
    struct mem_req *a = mq_pop(&g->resp, 2000 * CYC);
    ck_assert_ptr_eq(a, r);
    ck_assert_uint_eq(a->paddr, 0x7000000 | (VA & 4095));
    req_release(&g->pool, a);
}

START_TEST(a_hit_adds_exactly_its_latency)
{
    struct rig g;
    rig_init(&g);
    fill_page(&g);
    /* Answered at lookup: ready 3 cycles after it was sent, no tick. */
    const sim_time t = 3000 * CYC;
    struct mem_req *r = xlate(&g, VA + 64, t);
    ck_assert(tlb_l1_lookup_now(g.tlb, 0, r, t));
    ck_assert_uint_eq(counter(&g, "tlb.l1.hits"), 1);
    ck_assert_uint_eq(g.resp.n, 1);
    ck_assert_uint_eq(mq_next_ready(&g.resp), t + 3 * CYC);
    /* A second lookup that cycle waits for the single port: one more. */
    struct mem_req *r2 = xlate(&g, VA + 128, t);
    ck_assert(tlb_l1_lookup_now(g.tlb, 0, r2, t));
    ck_assert_ptr_eq(mq_pop(&g.resp, t + 3 * CYC), r);
    ck_assert_uint_eq(mq_next_ready(&g.resp), t + 4 * CYC);
    ck_assert_ptr_eq(mq_pop(&g.resp, t + 4 * CYC), r2);
    /* The cycle model's path for the same hit: through the level's queue
     * (latency 3 cycles), answered by its tick at the same time. */
    const sim_time t2 = 4000 * CYC;
    run_to(&g, t2);
    struct mem_req *r3 = xlate(&g, VA + 192, t2);
    ck_assert(mq_push(tlb_l1_in(g.tlb, 0), r3, t2, NULL));
    run_to(&g, t2 + 3 * CYC);
    ck_assert_ptr_eq(mq_pop(&g.resp, t2 + 3 * CYC), r3);
    ck_assert_uint_eq(counter(&g, "tlb.l1.hits"), 3);
    req_release(&g.pool, r);
    req_release(&g.pool, r2);
    req_release(&g.pool, r3);
    rig_free(&g);
}
END_TEST

/* The hit-only form (tlb_l1_hit_now, which the SM's fast path asks
 * first): the same time, handed back instead of queued; the single port
 * still puts the second of a cycle one later; a page the level does not
 * hold is no hit and takes nothing (no port, no count). */
START_TEST(a_hit_answered_to_the_caller)
{
    struct rig g;
    rig_init(&g);
    fill_page(&g);
    const sim_time t = 3000 * CYC;
    sim_time at = 0;
    struct mem_req *r = xlate(&g, VA + 64, t), *r2 = xlate(&g, VA + 128, t),
                   *r3 = xlate(&g, VA + 0x100000, t);
    ck_assert(!tlb_l1_hit_now(g.tlb, 0, r3, t, &at));
    ck_assert_uint_eq(counter(&g, "tlb.l1.hits"), 0);
    ck_assert(tlb_l1_hit_now(g.tlb, 0, r, t, &at));
    ck_assert_uint_eq(at, t + 3 * CYC);
    ck_assert_uint_eq(r->paddr, 0x7000000 | ((VA + 64) & 4095));
    ck_assert(tlb_l1_hit_now(g.tlb, 0, r2, t, &at));
    ck_assert_uint_eq(at, t + 4 * CYC);
    ck_assert_uint_eq(g.resp.n, 0);
    ck_assert_uint_eq(counter(&g, "tlb.l1.hits"), 2);
    req_release(&g.pool, r);
    req_release(&g.pool, r2);
    req_release(&g.pool, r3);
    rig_free(&g);
}
END_TEST

static Suite *tlb_fast_suite(void)
{
    Suite *s = suite_create("tlb_fast");
    TCase *tc = tcase_create("lookup");
    tcase_add_test(tc, a_hit_adds_exactly_its_latency);
    tcase_add_test(tc, a_hit_answered_to_the_caller);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(tlb_fast_suite()); }

/* Dynamic migration in CC-NUMA (sim/driver migr_*.c, thesis Ch. V)
 * against hand-derived timelines, orders and counts.
 *
 * The rig is the driver's (drv_rig.h): fixed 8-cycle walks at 1 GHz, a
 * bare 16 GB/s link with 1 us latency and no host memory behind it, so a
 * 4 KiB H2D copy is 4480 B = 280 ns on the wire and lands 1 us after its
 * last byte; copies on the one copy engine go back to back on the wire.
 * GPU memory for the migrations' writes is the rig's fixed memory: a write
 * is answered 1 cycle (1 ns) after it is sent, so a page landed at t is
 * written (its 32 lines sent at once) and remapped at t + 1 ns.  The
 * driver's clock is 1 ps, so the runtime acts exactly at the events that
 * wake it.  Pages are placed by driver.placement host: every page of the
 * 64-page allocation at VA0 starts mapped remote. */
#include <check.h>
#include "suite_main.h"
#include <stdlib.h>
#include "drv_rig.h"
#include <stddef.h>
#include "dram/dram.h"
#include "driver/migrate/migrate.h"
#include "workloads/workload.h"

#define NPAGES 64
#define WRITE_PS CYC                       /* rig memory: 1 cycle */
#define COPY_PS (PAGE_WIRE_PS + LAT_PS)    /* one copy alone: 1.28 us */

struct mrig {
    struct drig *g;
    bool busy;                  /* the engine's view: housekeeping (windows) runs */
    bool live;                  /* the runtime's view: migrations may start */
    struct domain dd, hd;
    struct dram *gpu, *host;
    struct workload wl;
};

static bool engine_busy(void *ctx) { return ((struct mrig *)ctx)->busy; }
static bool program_runs(void *ctx) { return ((struct mrig *)ctx)->live; }

static struct mrig *mrig_new(const char *const *extra, size_t nextra)
{
    static const char *const base[] = {
        "driver.placement=host", "driver.migration=threshold", "gpu.memory.capacity=1MiB",
        "gpu.clock=1GHz",           /* the rig's core domain: windows of 10 000 cycles = 10 us */
    };
    const char *sets[32];
    size_t n = 0;
    for (size_t i = 0; i < NSETS(base); i++) sets[n++] = base[i];
    for (size_t i = 0; i < nextra; i++) sets[n++] = extra[i];
    struct mrig *m = calloc(1, sizeof *m);
    m->g = drig_new(sets, n);
    struct rig *r = m->g->r;
    m->dd = (struct domain){ "dram", cfg_period(r->cfg, "dram.clock"), 5 };
    m->hd = (struct domain){ "host", hostmem_period(r->cfg), 6 };
    m->gpu = dram_create(r->e, r->cfg, r->st, &m->dd);
    m->host = hostmem_create(r->e, r->cfg, r->st, &m->hd);
    m->wl.nallocs = 1;
    m->wl.allocs[0].base = VA0;
    m->wl.allocs[0].size = NPAGES * 4096;
    m->wl.footprint = NPAGES * 4096;
    driver_set_workload(m->g->d, &m->wl);
    ck_assert_uint_eq(driver_place(m->g->d, r->cfg, &m->wl, 0.7, r->st), NPAGES);
    struct driver_mem mem = { m->gpu, m->host, { rig_mem_route, &r->mem.in }, &r->pool,
                              program_runs, m };
    driver_migration_attach(m->g->d, r->cfg, &mem, r->st);
    m->busy = m->live = true;
    engine_set_busy_fn(r->e, engine_busy, m);
    return m;
}

static void mrig_free(struct mrig *m)
{
    driver_migration_check(m->g->d, engine_now(m->g->r->e));
    dram_free(m->gpu);
    dram_free(m->host);
    drig_free(m->g);
    free(m);
}

static uint64_t vpn(unsigned i) { return PG(i) >> 12; }

static void touch_ev(void *obj, uint64_t v, sim_time now)
{
    (void)now;
    driver_migration_touch(obj, v);
}

/* A touch of page i at time t (as the L2's request to host memory would). */
static void touch(struct mrig *m, unsigned i, sim_time t)
{
    engine_at(m->g->r->e, t, &m->g->dom, touch_ev, m->g->d, vpn(i));
}

/* The rest of the events run out (the windows stop: the engine sees the
 * program over, the runtime does not). */
static void finish(struct mrig *m)
{
    m->busy = false;
    rig_run(m->g->r);
}

static void run_to(struct mrig *m, sim_time t)
{
    enum run_status st;
    engine_run_until(m->g->r->e, t, NULL, NULL, &st);
}

/* Page i is resident from exactly t on (remote until then). */
static void remapped_at(struct mrig *m, unsigned i, sim_time t)
{
    struct gmmu *g = m->g->r->gmmu;
    run_to(m, t - 1);
    ck_assert_msg(gmmu_is_remote(g, vpn(i)) && !gmmu_is_resident(g, vpn(i)),
                  "page %u remapped before %llu ps", i, (unsigned long long)t);
    run_to(m, t);
    ck_assert_msg(gmmu_is_resident(g, vpn(i)) && !gmmu_is_remote(g, vpn(i)),
                  "page %u not remapped at %llu ps", i, (unsigned long long)t);
}

static uint64_t counter(struct mrig *m, const char *name) { return rig_counter(m->g->r, name); }

/* threshold-3: page 5 touched at 1, 2 and 3 us.  The third touch writes
 * the hint; the runtime (poll 0) queues and starts it at once: its copy
 * lands at 3 us + 280 ns + 1 us, its writes are answered 1 ns later and it
 * is remapped at 4.281 us.  Page 6, touched twice, never migrates.  A
 * touch after the remap (a straggler) is not counted. */
START_TEST(threshold_n_migrates_at_the_nth_touch)
{
    static const char *const sets[] = { "driver.migrate.threshold=3" };
    struct mrig *m = mrig_new(sets, NSETS(sets));
    for (unsigned k = 1; k <= 3; k++) touch(m, 5, k * US);
    touch(m, 6, 1 * US);
    touch(m, 6, 2 * US);
    run_to(m, 3 * US);
    ck_assert_uint_eq(counter(m, "migration.triggers"), 1);
    ck_assert_uint_eq(counter(m, "migration.ddr_bytes"), 4096);   /* its copy started */
    remapped_at(m, 5, 3 * US + COPY_PS + WRITE_PS);
    touch(m, 5, 5 * US);
    finish(m);
    ck_assert(gmmu_is_remote(m->g->r->gmmu, vpn(6)));
    ck_assert_uint_eq(counter(m, "migration.pages"), 1);
    ck_assert_uint_eq(counter(m, "migration.touches"), 5);
    ck_assert_uint_eq(counter(m, "migration.gddr_bytes"), 4096);
    ck_assert_uint_eq(counter(m, "migration.queued"), 0);
    mrig_free(m);
}
END_TEST

static void walk_touch(void *ctx, uint64_t v, sim_time now)
{
    (void)now;
    driver_migration_touch(ctx, v);
}

/* Touches from walks (driver.migrate.touch walk: the GPU's TLB misses on
 * host-homed pages, Sec. 5.2.1's ring).  threshold-2: page 9 walked at 0
 * and at 100 cycles, each walk done 8 cycles later: the second is the
 * hint at 108 ns, so the page is remapped at 108 ns + 1.28 us + 1 ns.  A
 * walk of it at 2 us finds it resident (no touch) and translates it to its
 * GPU frame. */
START_TEST(threshold_counts_walks)
{
    static const char *const sets[] = { "driver.migrate.threshold=2", "driver.migrate.touch=walk" };
    struct mrig *m = mrig_new(sets, NSETS(sets));
    struct rig *r = m->g->r;
    ck_assert(driver_migration_walks(m->g->d) && driver_migration_counts(m->g->d));
    gmmu_set_remote_walk_hook(r->gmmu, walk_touch, m->g->d);
    rig_walk(r, 0, PG(9), REQ_LOAD);
    rig_walk(r, 100 * CYC, PG(9), REQ_LOAD);
    remapped_at(m, 9, 108 * CYC + COPY_PS + WRITE_PS);
    rig_walk(r, 2 * US, PG(9), REQ_LOAD);
    finish(m);
    ck_assert_uint_eq(counter(m, "migration.touches"), 2);
    ck_assert_uint_eq(counter(m, "migration.pages"), 1);
    ck_assert(rig_ans(r, PG(9), 1)->paddr & PADDR_HOST);
    const struct rig_ans *a = rig_ans(r, PG(9), 2);
    ck_assert_uint_eq(a->paddr, gmmu_frame_of(r->gmmu, vpn(9)) << 12);
    ck_assert(!(a->xflags & XLATE_REMOTE));
    mrig_free(m);
}
END_TEST

/* At most driver.migrate.concurrency migrations at once.  Pages 0..11
 * touched at 1 us (threshold-1), in order.  With 4: pages 0-3 start at
 * once, their copies back to back on the one copy engine (wire ends 1280,
 * 1560, 1840, 2120 ns; landed 1 us later, remapped 1 ns after that); page
 * k >= 4 starts when page k - 4 is remapped, its copy on the wire from the
 * later of that and the previous copy's end:
 *   k    0    1    2    3    4    5    6    7    8    9    10   11
 *   wire 1000 1280 1560 1840 2281 2561 2841 3121 3562 3842 4122 4402  (start, ns)
 *   map  2281 2561 2841 3121 3562 3842 4122 4402 4843 5123 5403 5683
 * so each group of four follows the last by 1281 ns: 4 pages per (280 ns
 * + 1 us + 1 ns), 3.12 pages/us, latency-bound below the wire's 3.57.
 * With 8 the wire saturates: page k remapped at 1000 + 280 (k + 1) +
 * 1001 ns (page k - 8 is always remapped before page k - 1's copy ends). */
START_TEST(four_concurrent_migrations_saturate_as_computed)
{
    static const sim_time map4[12] = { 2281, 2561, 2841, 3121, 3562, 3842, 4122, 4402,
                                       4843, 5123, 5403, 5683 };
    struct mrig *m = mrig_new(NULL, 0);
    for (unsigned k = 0; k < 12; k++) touch(m, k, 1 * US);
    for (unsigned k = 0; k < 12; k++) remapped_at(m, k, map4[k] * CYC);
    finish(m);
    ck_assert_uint_eq(counter(m, "migration.pages"), 12);
    ck_assert_uint_eq(counter(m, "migration.queue_peak"), 12);   /* one poll took all */
    mrig_free(m);

    static const char *const eight[] = { "driver.migrate.concurrency=8" };
    m = mrig_new(eight, 1);
    for (unsigned k = 0; k < 12; k++) touch(m, k, 1 * US);
    for (unsigned k = 0; k < 12; k++) remapped_at(m, k, (1000 + 280 * (k + 1) + 1001) * CYC);
    finish(m);
    mrig_free(m);
}
END_TEST

/* While page 3 moves (touched at 0, remapped at 1.281 us) SM 0's access
 * at 1 us is still translated to its host copy (served from host memory);
 * the remap shoots SM 0's entry down, and the accesses of SMs 0 and 1 at
 * 2 us are translated to its GPU frame: they hit GPU memory. */
START_TEST(a_migrated_page_is_accessed_in_gpu_memory)
{
    struct mrig *m = mrig_new(NULL, 0);
    struct rig *r = m->g->r;
    touch(m, 3, 0);
    rig_send(r, 1 * US, 0, PG(3) + 64, REQ_LOAD);
    rig_send(r, 2 * US, 0, PG(3) + 128, REQ_LOAD);
    rig_send(r, 2 * US, 1, PG(3) + 192, REQ_LOAD);
    remapped_at(m, 3, COPY_PS + WRITE_PS);
    finish(m);
    uint64_t frame = gmmu_frame_of(r->gmmu, vpn(3)) << 12;
    const struct rig_ans *before = rig_ans(r, PG(3) + 64, 0);
    ck_assert_uint_eq(before->paddr, PADDR_HOST | (PG(3) + 64));
    ck_assert(before->xflags & XLATE_REMOTE);
    ck_assert_uint_eq(rig_ans(r, PG(3) + 128, 0)->paddr, frame + 128);
    ck_assert_uint_eq(rig_ans(r, PG(3) + 192, 0)->paddr, frame + 192);
    ck_assert(!(rig_ans(r, PG(3) + 192, 0)->xflags & XLATE_REMOTE));
    ck_assert_uint_eq(counter(m, "migration.shootdowns"), 1);   /* SM 0's entry */
    mrig_free(m);
}
END_TEST

/* The shootdown of a remap stalls every SM for tlb.shootdown.cycles
 * (100) only when tlb.shootdown.filter says the GPU may hold the page.
 * (a) touched, expansion 2: SM 0 translates page 10 at 0 (L1 1 + L2 10 +
 * walk 8 cycles: walked at 19 ns, the touch).  Queue: 10, then 11 and 9
 * (distance 1, above first); all three start at 19 ns, copies back to
 * back: remapped at 1300, 1580, 1860 ns.  Page 10 was walked: both SMs
 * stall to 1400 ns; 11 and 9 never were: no shootdown (range expansion's
 * saving, Sec. 5.3.1).  (b) page 20 walked at 0 straight in the walker
 * (no TLB keeps it), remapped at 8 ns + 1.281 us: present charges nothing
 * (no TLB holds it), touched charges it (the sharers list's false
 * positive). */
START_TEST(shootdown_only_when_the_filter_says_so)
{
    static const char *const a_sets[] = { "tlb.shootdown.filter=touched", "driver.migrate.touch=walk",
                                          "driver.migrate.expand=2" };
    struct mrig *m = mrig_new(a_sets, NSETS(a_sets));
    struct rig *r = m->g->r;
    gmmu_set_remote_walk_hook(r->gmmu, walk_touch, m->g->d);
    rig_send(r, 0, 0, PG(10), REQ_LOAD);
    remapped_at(m, 10, 1300 * CYC);
    ck_assert_uint_eq(r->sd_calls, 2);
    ck_assert_uint_eq(r->sd_until[0], 1400 * CYC);
    ck_assert_uint_eq(r->sd_until[1], 1400 * CYC);
    remapped_at(m, 11, 1580 * CYC);
    remapped_at(m, 9, 1860 * CYC);
    finish(m);
    ck_assert_uint_eq(r->sd_calls, 2);
    ck_assert_uint_eq(counter(m, "migration.shootdowns"), 1);
    ck_assert_uint_eq(counter(m, "migration.no_shootdown"), 2);
    ck_assert_uint_eq(counter(m, "migration.expansion_pages"), 2);
    ck_assert_uint_eq(counter(m, "tlb.shootdown_stall"), 200);
    mrig_free(m);

    for (int touched = 0; touched < 2; touched++) {
        const char *b_sets[] = { touched ? "tlb.shootdown.filter=touched" : "tlb.shootdown.filter=present",
                                 "driver.migrate.touch=walk" };
        m = mrig_new(b_sets, NSETS(b_sets));
        r = m->g->r;
        gmmu_set_remote_walk_hook(r->gmmu, walk_touch, m->g->d);
        rig_walk(r, 0, PG(20), REQ_LOAD);
        sim_time t = 8 * CYC + COPY_PS + WRITE_PS;
        remapped_at(m, 20, t);
        finish(m);
        ck_assert_uint_eq(r->sd_calls, touched ? 2 : 0);
        if (touched) ck_assert_uint_eq(r->sd_until[1], t + 100 * CYC);
        ck_assert_uint_eq(counter(m, "migration.shootdowns"), touched ? 1 : 0);
        ck_assert_uint_eq(counter(m, "migration.no_shootdown"), touched ? 0 : 1);
        mrig_free(m);
    }
}
END_TEST

/* Range expansion's order (furthest first, above before below) and its
 * clipping at the allocation [100, 110): N = 8 around 102 gives
 * 106 105 104 100 103 101 (98 and 99 are outside); around 108, 104 105
 * 106 109 107 (110-112 outside); around 101, 105 104 103 102 100. */
START_TEST(range_expansion_order_and_clipping)
{
    uint64_t out[8];
    static const uint64_t a[] = { 106, 105, 104, 100, 103, 101 };
    static const uint64_t b[] = { 104, 105, 106, 109, 107 };
    static const uint64_t c[] = { 105, 104, 103, 102, 100 };
    ck_assert_uint_eq(migr_expand_order(102, 100, 110, 8, out), NSETS(a));
    for (size_t k = 0; k < NSETS(a); k++) ck_assert_uint_eq(out[k], a[k]);
    ck_assert_uint_eq(migr_expand_order(108, 100, 110, 8, out), NSETS(b));
    for (size_t k = 0; k < NSETS(b); k++) ck_assert_uint_eq(out[k], b[k]);
    ck_assert_uint_eq(migr_expand_order(101, 100, 110, 8, out), NSETS(c));
    for (size_t k = 0; k < NSETS(c); k++) ck_assert_uint_eq(out[k], c[k]);
    /* Odd N: the extra page is above. */
    ck_assert_uint_eq(migr_expand_order(105, 100, 110, 3, out), 3);
    ck_assert_uint_eq(out[0], 107);
    ck_assert_uint_eq(out[1], 106);
    ck_assert_uint_eq(out[2], 104);
    ck_assert_uint_eq(migr_expand_order(105, 100, 110, 0, out), 0);
}
END_TEST

/* The same in the runtime, on the 64-page allocation, one migration at a
 * time (each 280 ns + 1 us + 1 ns after the last): page 62 touched at 0
 * queues 62, then 58 59 60 63 61 (64-66 are past the end); page 60's
 * touch at 100 ns (queued already: not again) adds only 56 and 57 (63,
 * 61, 59, 58 queued, 62 moving).  Remapped in that order, 1.281 us
 * apart.  None was walked (filter touched): no shootdown. */
START_TEST(range_expansion_in_the_queue)
{
    static const char *const sets[] = { "driver.migrate.expand=8", "driver.migrate.concurrency=1",
                                        "tlb.shootdown.filter=touched" };
    static const unsigned order[] = { 62, 58, 59, 60, 63, 61, 56, 57 };
    struct mrig *m = mrig_new(sets, NSETS(sets));
    touch(m, 62, 0);
    touch(m, 60, 100 * CYC);
    for (unsigned p = 0; p < NSETS(order); p++) remapped_at(m, order[p], (p + 1) * 1281 * CYC);
    finish(m);
    ck_assert_uint_eq(counter(m, "migration.pages"), 8);
    ck_assert_uint_eq(counter(m, "migration.triggers"), 2);
    ck_assert_uint_eq(counter(m, "migration.expansion_pages"), 7);
    ck_assert_uint_eq(counter(m, "migration.no_shootdown"), 8);
    ck_assert_uint_eq(counter(m, "migration.queue_peak"), 7);
    mrig_free(m);
}
END_TEST

/* Crafted traffic for bandwidth balancing: windows of 10 000 cycles (10
 * us), target 70 %, band 5 points.  In each window 100 reads of 128 B go
 * to the two memories at 1 us + 10 ns apart (all taken by the channels well
 * before the window ends): 60/40 (share 0.60 < 0.65: full rate, 4),
 * 67/33 (0.67 in [0.65, 0.70]: half, 2), 71/29 (0.71 > 0.70: suspended,
 * 0), then two windows without traffic (full).  A decision holds for the
 * next window.  Page 7, touched at 35 us (suspended), waits in the queue
 * and starts at 40 us: remapped at 41.281 us.  With half=windows the half
 * window (the second, index 1, odd) is suspended instead. */
struct inj { struct mrig *m; struct dram *d; struct component c; struct mq reply; };
static sim_time inj_tick(struct component *c, sim_time now)
{
    struct inj *j = (struct inj *)((char *)c - offsetof(struct inj, c));
    struct mem_req *r;
    while ((r = mq_pop(&j->reply, now))) req_release(&j->m->g->r->pool, r);
    return TIME_NEVER;
}
static const struct comp_ops inj_ops = { inj_tick, NULL };
struct inj_arg { struct inj *j; uint64_t addr; };
static void inject(void *obj, uint64_t addr, sim_time now)
{
    struct inj *j = obj;
    struct mem_req *r = req_alloc(&j->m->g->r->pool);
    memset(r, 0, sizeof *r);
    r->kind = r->access = REQ_LOAD;
    r->paddr = r->vaddr = addr;
    r->size = 128;
    r->sector_mask = 0xf;
    r->reply = &j->reply;
    r->t_issue = now;
    ck_assert(mq_push(dram_channel_in(j->d, dram_channel_of(j->d, addr)), r, now, NULL));
}
static void traffic(struct inj *g, struct inj *h, sim_time w0, unsigned ng, unsigned nh)
{
    for (unsigned k = 0; k < ng; k++)
        engine_at(g->m->g->r->e, w0 + 1 * US + k * 10 * CYC, &g->m->g->dom, inject, g, k * 128ULL);
    for (unsigned k = 0; k < nh; k++)
        engine_at(h->m->g->r->e, w0 + 1 * US + k * 10 * CYC, &h->m->g->dom, inject, h, k * 128ULL);
}

START_TEST(bandwidth_balancing_switches_rate_on_crafted_traffic)
{
    static const uint64_t want[2][5] = { { 4, 2, 0, 4, 4 }, { 4, 0, 0, 4, 4 } };
    for (int mode = 0; mode < 2; mode++) {
        const char *sets[] = { "driver.migrate.bwb.enabled=true", "driver.migrate.bwb.target=70",
                               mode ? "driver.migrate.bwb.half=windows" : "driver.migrate.bwb.half=concurrency" };
        struct mrig *m = mrig_new(sets, NSETS(sets));
        struct rig *r = m->g->r;
        struct inj g = { m, m->gpu, {0}, {0} }, h = { m, m->host, {0}, {0} };
        comp_init(&g.c, r->e, &inj_ops, "inj.gpu", &r->dom);
        comp_init(&h.c, r->e, &inj_ops, "inj.host", &r->dom);
        mq_init(&g.reply, "inj.gpu", 256, 0, &g.c);
        mq_init(&h.reply, "inj.host", 256, 0, &h.c);
        traffic(&g, &h, 0, 60, 40);
        traffic(&g, &h, 10 * US, 67, 33);
        traffic(&g, &h, 20 * US, 71, 29);
        touch(m, 7, 35 * US);
        /* Something else runs meanwhile (the GPU would): no deadlock. */
        engine_at(r->e, 60 * US, &m->g->dom, touch_ev, m->g->d, 0);
        run_to(m, 40 * US - 1);
        ck_assert(gmmu_is_remote(r->gmmu, vpn(7)));
        ck_assert_uint_eq(counter(m, "migration.queued"), 1);
        remapped_at(m, 7, 40 * US + COPY_PS + WRITE_PS);
        run_to(m, 50 * US);
        m->busy = false;
        rig_run(r);
        for (size_t w = 0; w < 5; w++) {
            ck_assert_uint_eq(drig_row(r, "migration_windows", w, "end_ps"), (w + 1) * 10 * US);
            ck_assert_uint_eq(drig_row(r, "migration_windows", w, "limit"), want[mode][w]);
        }
        ck_assert_uint_eq(drig_row(r, "migration_windows", 1, "gddr_demand_bytes"), 67 * 128);
        ck_assert_uint_eq(drig_row(r, "migration_windows", 1, "ddr_demand_bytes"), 33 * 128);
        ck_assert_uint_eq(counter(m, "migration.bwb.full_windows"), 3);
        ck_assert_uint_eq(counter(m, "migration.bwb.half_windows"), 1);
        ck_assert_uint_eq(counter(m, "migration.bwb.off_windows"), 1);
        mq_free(&g.reply);
        mq_free(&h.reply);
        mrig_free(m);
    }
    /* The decision's boundaries (percentage points). */
    ck_assert_int_eq(migr_bwb_rate(0.649, 0.70, 0.05), MR_FULL);
    ck_assert_int_eq(migr_bwb_rate(0.65, 0.70, 0.05), MR_HALF);
    ck_assert_int_eq(migr_bwb_rate(0.70, 0.70, 0.05), MR_HALF);
    ck_assert_int_eq(migr_bwb_rate(0.7001, 0.70, 0.05), MR_OFF);
    ck_assert_uint_eq(migr_bwb_limit(MR_HALF, 1, false, 0), 1);
    ck_assert_uint_eq(migr_bwb_limit(MR_HALF, 5, false, 0), 2);
}
END_TEST

/* The legacy memcpy baseline: the 64 host-homed pages (one run in one
 * 2 MiB block) are one copy of 64 x 280 ns on the wire, landed 1 us
 * later (18.92 us); their 2048 line writes go 256 at a time (the writer's
 * bound), each round answered 1 ns after the last: pages 8q..8q+7
 * remapped at 18.92 us + (q + 1) ns, the last at 18.928 us, when the
 * kernels may start.  Nothing was walked: no shootdown. */
static sim_time started_at;
static void started(void *ctx, sim_time now)
{
    ((struct mrig *)ctx)->busy = false;    /* the kernels would run now: here, nothing */
    started_at = now;
}

START_TEST(memcpy_copies_everything_before_the_kernels)
{
    static const char *const sets[] = { "driver.migration=memcpy" };
    struct mrig *m = mrig_new(sets, NSETS(sets));
    started_at = 0;
    ck_assert(driver_prologue(m->g->d, started, m, 0));
    const sim_time land = 64 * PAGE_WIRE_PS + LAT_PS;
    for (unsigned q = 0; q < 8; q++) {
        run_to(m, land + (q + 1) * CYC - 1);
        for (unsigned p = 8 * q; p < 8 * q + 8; p++) ck_assert(gmmu_is_remote(m->g->r->gmmu, vpn(p)));
        run_to(m, land + (q + 1) * CYC);
        for (unsigned p = 8 * q; p < 8 * q + 8; p++) ck_assert(gmmu_is_resident(m->g->r->gmmu, vpn(p)));
    }
    finish(m);
    ck_assert_uint_eq(started_at, land + 8 * CYC);
    ck_assert_uint_eq(counter(m, "migration.prologue_ps"), land + 8 * CYC);
    ck_assert_uint_eq(counter(m, "migration.pages"), NPAGES);
    ck_assert_uint_eq(counter(m, "migration.no_shootdown"), NPAGES);
    ck_assert_uint_eq(counter(m, "migration.ddr_bytes"), NPAGES * 4096);
    ck_assert_uint_eq(counter(m, "link.h2d.transfers"), 1);
    mrig_free(m);
}
END_TEST

/* GPU memory of 4 frames: of six candidates four migrate, the fifth
 * finds no frame and the runtime stops (no reverse migration): two
 * refused. */
START_TEST(full_gpu_memory_stops_migration)
{
    static const char *const sets[] = { "gpu.memory.capacity=16KiB" };
    struct mrig *m = mrig_new(sets, NSETS(sets));
    for (unsigned k = 0; k < 6; k++) touch(m, k, 0);
    finish(m);
    ck_assert_uint_eq(counter(m, "migration.pages"), 4);
    ck_assert_uint_eq(counter(m, "migration.refused"), 2);
    mrig_free(m);
}
END_TEST

/* The runtime never maps a page both ways: a queued page that something
 * else mapped in GPU memory is an internal error when its turn comes
 * (exit 3), as is a migrated page found unmapped by the check. */
static void steal(void *obj, uint64_t v, sim_time now)
{
    struct mrig *m = obj;
    gmmu_unmap(m->g->r->gmmu, v, now);
    gmmu_map(m->g->r->gmmu, v, 7, now);
}
START_TEST(queued_page_mapped_elsewhere_aborts)
{
    static const char *const sets[] = { "driver.migrate.concurrency=1" };
    struct mrig *m = mrig_new(sets, NSETS(sets));
    touch(m, 1, 0);
    touch(m, 2, 0);
    engine_at(m->g->r->e, 100 * CYC, &m->g->dom, steal, m, vpn(2));
    finish(m);
}
END_TEST

START_TEST(migrated_page_unmapped_fails_the_check)
{
    struct mrig *m = mrig_new(NULL, 0);
    touch(m, 1, 0);
    finish(m);
    driver_migration_check(m->g->d, engine_now(m->g->r->e));
    gmmu_unmap(m->g->r->gmmu, vpn(1), engine_now(m->g->r->e));
    driver_migration_check(m->g->d, engine_now(m->g->r->e));
}
END_TEST

static Suite *migration_suite(void)
{
    Suite *s = suite_create("migration");
    TCase *t = tcase_create("migration");
    tcase_add_test(t, threshold_n_migrates_at_the_nth_touch);
    tcase_add_test(t, threshold_counts_walks);
    tcase_add_test(t, four_concurrent_migrations_saturate_as_computed);
    tcase_add_test(t, a_migrated_page_is_accessed_in_gpu_memory);
    tcase_add_test(t, shootdown_only_when_the_filter_says_so);
    tcase_add_test(t, range_expansion_order_and_clipping);
    tcase_add_test(t, range_expansion_in_the_queue);
    tcase_add_test(t, bandwidth_balancing_switches_rate_on_crafted_traffic);
    tcase_add_test(t, memcpy_copies_everything_before_the_kernels);
    tcase_add_test(t, full_gpu_memory_stops_migration);
    tcase_add_exit_test(t, queued_page_mapped_elsewhere_aborts, 3);
    tcase_add_exit_test(t, migrated_page_unmapped_fails_the_check, 3);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(migration_suite()); }

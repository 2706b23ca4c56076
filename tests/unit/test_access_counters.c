/* The driver acting on access-counter notifications
 * (drv_access_counters.c), on drv_rig.h's timed rig: 4 MiB of GPU memory
 * unless a case says otherwise, fixed walks, a 4 KiB page copied in
 * 280 ns + 1 us of latency.  The GMMU counts every L1 TLB answer for a
 * remotely mapped page against the page's 64 KiB region (16 pages) and,
 * with gmmu.access_counters.threshold=4 here, notifies at the 4th; the
 * interrupt latency is 0, so the driver takes the notification at once,
 * spends driver.access_counters.batch_latency (20 us) and migrates.
 * Expectations derived by hand in each case. */
#include <check.h>
#include "suite_main.h"
#include "drv_rig.h"
#include "workloads/workload.h"

#define MiB (1ULL << 20)
#define VPN(i) (PG(i) >> 12)

static const char *const AC_ON[] = {
    "gmmu.access_counters.enabled=true", "gmmu.access_counters.threshold=4",
    "driver.access_counters.migrate=true",
};

static unsigned ndone;
static void step_done(void *ctx, sim_time now) { (void)ctx; (void)now; ndone++; }

/* One allocation A of 2 MiB: pages 0-511 of the rig's region. */
static struct workload *one_alloc(struct drig *g)
{
    static struct workload wl;
    memset(&wl, 0, sizeof wl);
    wl.nallocs = 1;
    wl.footprint = 2 * MiB;
    wl.allocs[0] = (struct wl_alloc){ "A", 2 * MiB, PG(0), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
    driver_set_workload(g->d, &wl);
    return &wl;
}

/* A host step on A (advice: set `adv` on the whole allocation; prefetch:
 * its first `bytes` to the GPU), run to completion. */
static void step(struct drig *g, enum wl_step_kind kind, enum wl_advice adv, uint64_t bytes)
{
    struct wl_step s;
    memset(&s, 0, sizeof s);
    s.kind = kind;
    s.host = (struct wl_host_step){ .alloc = 0, .offset = 0, .bytes = bytes, .dir = WL_TO_GPU,
                                    .advice = adv, .unset = false };
    unsigned before = ndone;
    driver_host_step(g->d, &s, step_done, NULL, engine_now(g->r->e));
    rig_run(g->r);
    ck_assert_uint_eq(ndone, before + 1);
}

static unsigned count(struct drig *g, unsigned first, unsigned n, bool remote)
{
    unsigned c = 0;
    for (unsigned i = first; i < first + n; i++)
        c += remote ? gmmu_is_remote(g->r->gmmu, VPN(i)) : gmmu_is_resident(g->r->gmmu, VPN(i));
    return c;
}

/* SM 0 reads page 5 four times (region 0 reaches the threshold: one
 * notification at the 4th answer), SM 1 reads page 20 three times (region
 * 1, pages 16-31: 3 < 4, none); 50 cycles apart from t0. */
static void touch(struct drig *g, sim_time t0)
{
    for (unsigned k = 0; k < 4; k++) rig_send(g->r, t0 + k * 50 * CYC, 0, PG(5), REQ_LOAD);
    for (unsigned k = 0; k < 3; k++) rig_send(g->r, t0 + k * 50 * CYC, 1, PG(20), REQ_LOAD);
}

/* Pages 0-3 prefetched to the GPU, then accessed-by maps the other 508
 * remotely.  Region 0's notification covers pages 0-15: 0-3 are in GPU
 * memory (skipped), 4-15 are host-resident and remotely mapped, and
 * accessed-by does not keep them (block_select_residency leaves that rule
 * out for access counters): 12 pages migrate, virtually contiguous, one
 * copy of 12 x 280 ns + 1 us, after the batch's 20 us.  Region 1 (pages
 * 16-31) was read 3 times: no notification, its pages stay remote.  No
 * fault anywhere.  Afterwards page 5 answers from GPU memory and is not
 * counted (7 counted accesses in all). */
START_TEST(notified_region_migrates)
{
    struct drig *g = drig_new(AC_ON, NSETS(AC_ON));
    one_alloc(g);
    step(g, WL_STEP_PREFETCH, WL_ADV_NONE, 4 * 4096);
    step(g, WL_STEP_ADVISE, WL_ADV_ACCESSED_BY_GPU, 2 * MiB);
    ck_assert_uint_eq(count(g, 0, 4, false), 4);
    ck_assert_uint_eq(count(g, 4, 508, true), 508);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 4);

    const sim_time t0 = engine_now(g->r->e) + 1000 * CYC;
    touch(g, t0);
    rig_send(g->r, t0 + 200 * US, 0, PG(5), REQ_LOAD);
    rig_run(g->r);

    ck_assert_uint_eq(rig_counter(g->r, "gmmu.access_counters.notifications"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.notifications"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.batches"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.pages_migrated"), 12);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.pages_kept"), 0);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.stale"), 0);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 4 + 12);
    ck_assert_uint_eq(rig_counter(g->r, "driver.h2d_transfers"), 1 + 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.busy_ps"),
                      20 * US + 12 * PAGE_WIRE_PS + LAT_PS);
    ck_assert_uint_eq(count(g, 0, 16, false), 16);
    ck_assert_uint_eq(count(g, 0, 16, true), 0);
    ck_assert_uint_eq(count(g, 16, 496, true), 496);
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.faults"), 0);
    ck_assert_uint_eq(gmmu_access_notifications_pending(g->r->gmmu), 0);
    const struct rig_ans *a = rig_ans(g->r, PG(5), 4);
    ck_assert(!(a->xflags & XLATE_REMOTE));
    ck_assert(!(a->paddr & PADDR_HOST));
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.access_counters.accesses"), 7);
    drig_free(g);
}
END_TEST

/* The same accesses with driver.access_counters.migrate off (the real
 * driver's default without ATS): the GMMU still notifies once, nobody
 * fetches it, nothing moves. */
START_TEST(migrate_off_leaves_them_remote)
{
    static const char *const sets[] = {
        "gmmu.access_counters.enabled=true", "gmmu.access_counters.threshold=4",
    };
    struct drig *g = drig_new(sets, NSETS(sets));
    one_alloc(g);
    step(g, WL_STEP_ADVISE, WL_ADV_ACCESSED_BY_GPU, 2 * MiB);
    touch(g, engine_now(g->r->e) + 1000 * CYC);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.access_counters.notifications"), 1);
    ck_assert_uint_eq(gmmu_access_notifications_pending(g->r->gmmu), 1);
    ck_assert_ptr_null(stats_find(g->r->st, "driver.access_counters.batches"));
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 0);
    ck_assert_uint_eq(count(g, 0, 512, true), 512);
    drig_free(g);
}
END_TEST

/* Preferred location host + accessed-by (the SC19 runtime's "placed in CPU
 * memory"): the notification is serviced, but block_select_residency sends
 * each of region 0's 16 host-resident pages to the preferred location the
 * GPU can reach: all 16 kept, none copied; the batch costs its 20 us. */
START_TEST(preferred_host_keeps_them)
{
    struct drig *g = drig_new(AC_ON, NSETS(AC_ON));
    one_alloc(g);
    step(g, WL_STEP_ADVISE, WL_ADV_PREFERRED_HOST, 2 * MiB);
    step(g, WL_STEP_ADVISE, WL_ADV_ACCESSED_BY_GPU, 2 * MiB);
    touch(g, engine_now(g->r->e) + 1000 * CYC);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.notifications"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.batches"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.pages_kept"), 16);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.pages_migrated"), 0);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.busy_ps"), 20 * US);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 0);
    ck_assert_uint_eq(count(g, 0, 512, true), 512);
    drig_free(g);
}
END_TEST

/* Read-mostly + accessed-by: every page mapped remotely; region 0's
 * notification duplicates its 16 host-resident pages read-only in GPU
 * memory (an access-counter access is a "prefetch", a read, and
 * read-mostly duplicates on reads: block_select_residency). */
START_TEST(read_mostly_comes_read_only)
{
    struct drig *g = drig_new(AC_ON, NSETS(AC_ON));
    one_alloc(g);
    step(g, WL_STEP_ADVISE, WL_ADV_READ_MOSTLY, 2 * MiB);
    step(g, WL_STEP_ADVISE, WL_ADV_ACCESSED_BY_GPU, 2 * MiB);
    touch(g, engine_now(g->r->e) + 1000 * CYC);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.pages_migrated"), 16);
    ck_assert_uint_eq(count(g, 0, 16, false), 16);
    for (unsigned i = 0; i < 16; i++) ck_assert(gmmu_is_read_only(g->r->gmmu, VPN(i)));
    ck_assert_uint_eq(count(g, 16, 496, true), 496);
    drig_free(g);
}
END_TEST

/* 64 KiB of GPU memory (16 frames), FIFO eviction, no advice.  SM 0 reads
 * pages 0-15 at t = 0: they fault in and fill memory, page 0 landing first
 * (FIFO's oldest).  At 1 ms page 16 faults: page 0 is evicted and, access
 * counters being able to bring it back, stays mapped remotely to its host
 * copy (map_remote_on_eviction).  From 2 ms SM 0 reads page 0 four times:
 * remote answers, no fault; the 4th notifies region 0, whose only
 * host-resident page is 0 (1-15 are in GPU memory): page 0 migrates,
 * evicting FIFO's next, page 1, which stays mapped remotely too.
 * Migrated: 16 + 1 (faults) + 1 (counters); evictions 2, both mapped. */
START_TEST(evicted_pages_stay_mapped_and_come_back)
{
    static const char *const sets[] = {
        "gmmu.access_counters.enabled=true", "gmmu.access_counters.threshold=4",
        "driver.access_counters.migrate=true", "gpu.memory.capacity=64KiB",
    };
    struct drig *g = drig_new(sets, NSETS(sets));
    one_alloc(g);
    for (unsigned i = 0; i < 16; i++) rig_send(g->r, 0, 0, PG(i), REQ_LOAD);
    rig_send(g->r, 1000 * US, 0, PG(16), REQ_LOAD);
    for (unsigned k = 0; k < 4; k++) rig_send(g->r, 2000 * US + k * 50 * CYC, 0, PG(0), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.evictions"), 2);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.evicted_mapped"), 2);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.notifications"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.pages_migrated"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 18);
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.unique_faults"), 17);
    ck_assert(gmmu_is_resident(g->r->gmmu, VPN(0)));
    ck_assert(gmmu_is_remote(g->r->gmmu, VPN(1)));
    ck_assert_uint_eq(count(g, 2, 15, false), 15);
    for (unsigned k = 0; k < 4; k++) ck_assert(rig_ans(g->r, PG(0), 1 + k)->xflags & XLATE_REMOTE);
    drig_free(g);
}
END_TEST

/* The service costs of a migrated block (drv_block_cpu_cost), with
 * driver.page_cost 2 us and new_block_cost 30 us.  First the case above:
 * the prefetch of pages 0-3 created A's block, so the notification's 12
 * pages pay 12 x 2 us after the batch's 20 us, then their copy.  Then a
 * second allocation B (pages 512-1023) only ever mapped remotely: its
 * first migration is the block's first service, 16 pages: 20 + 16 x 2 +
 * 30 us, then 16 x 280 ns + 1 us.  busy_ps sums both batches. */
START_TEST(migrated_blocks_pay_the_service_costs)
{
    static const char *const sets[] = {
        "gmmu.access_counters.enabled=true", "gmmu.access_counters.threshold=4",
        "driver.access_counters.migrate=true", "driver.page_cost=2us", "driver.new_block_cost=30us",
    };
    struct drig *g = drig_new(sets, NSETS(sets));
    static struct workload wl;
    memset(&wl, 0, sizeof wl);
    wl.nallocs = 2;
    wl.footprint = 4 * MiB;
    wl.allocs[0] = (struct wl_alloc){ "A", 2 * MiB, PG(0), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
    wl.allocs[1] = (struct wl_alloc){ "B", 2 * MiB, PG(512), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
    driver_set_workload(g->d, &wl);
    step(g, WL_STEP_PREFETCH, WL_ADV_NONE, 4 * 4096);
    step(g, WL_STEP_ADVISE, WL_ADV_ACCESSED_BY_GPU, 2 * MiB);
    struct wl_step adv;
    memset(&adv, 0, sizeof adv);
    adv.kind = WL_STEP_ADVISE;
    adv.host = (struct wl_host_step){ .alloc = 1, .offset = 0, .bytes = 2 * MiB, .dir = WL_TO_GPU,
                                      .advice = WL_ADV_ACCESSED_BY_GPU, .unset = false };
    driver_host_step(g->d, &adv, step_done, NULL, engine_now(g->r->e));
    rig_run(g->r);
    ck_assert_uint_eq(count(g, 512, 512, true), 512);

    sim_time t0 = engine_now(g->r->e) + 1000 * CYC;
    for (unsigned k = 0; k < 4; k++) rig_send(g->r, t0 + k * 50 * CYC, 0, PG(5), REQ_LOAD);
    rig_run(g->r);
    const sim_time first = 20 * US + 12 * 2 * US + 12 * PAGE_WIRE_PS + LAT_PS;
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.pages_migrated"), 12);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.busy_ps"), first);

    t0 = engine_now(g->r->e) + 1000 * CYC;
    for (unsigned k = 0; k < 4; k++) rig_send(g->r, t0 + k * 50 * CYC, 0, PG(512 + 5), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.batches"), 2);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.pages_migrated"), 12 + 16);
    ck_assert_uint_eq(count(g, 512, 16, false), 16);
    ck_assert_uint_eq(rig_counter(g->r, "driver.access_counters.busy_ps"),
                      first + 20 * US + 16 * 2 * US + 30 * US + 16 * PAGE_WIRE_PS + LAT_PS);
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.faults"), 0);
    drig_free(g);
}
END_TEST

/* Static placement decides where pages live: migrating on notifications
 * would undo it, so the combination is refused at the key. */
START_TEST(placement_refused)
{
    static const char *const sets[] = { "driver.access_counters.migrate=true", "driver.placement=host" };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, 2, &err);
    ck_assert_ptr_null(c);
    ck_assert_ptr_nonnull(strstr(err.msg, "driver.access_counters.migrate"));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("access_counters");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, notified_region_migrates);
    tcase_add_test(tc, migrate_off_leaves_them_remote);
    tcase_add_test(tc, preferred_host_keeps_them);
    tcase_add_test(tc, read_mostly_comes_read_only);
    tcase_add_test(tc, evicted_pages_stay_mapped_and_come_back);
    tcase_add_test(tc, migrated_blocks_pay_the_service_costs);
    tcase_add_test(tc, placement_refused);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

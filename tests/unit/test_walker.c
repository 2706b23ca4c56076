/* The page walker: concurrency limit, page-walk cache latencies, faults,
 * protection faults, remote mappings and access counters.  1 cycle =
 * 1000 ps; walks are injected straight into the walker unless noted. */
#include <check.h>
#include "suite_main.h"
#include "xlate_rig.h"

/* Fixed mode, N walkers (default 64), N + 1 walks arriving together at 0:
 * N finish at W = 8 cycles, the last waits for a walker and finishes one
 * walk time later, at 2W. */
START_TEST(n_walkers_n_plus_one_walks)
{
    struct rig *r = rig_new(NULL, 0, 1, 0);
    const unsigned n = 64;
    for (unsigned i = 0; i <= n; i++) rig_map(r, i);
    for (unsigned i = 0; i <= n; i++) rig_walk(r, 0, PG(i), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(r->nans, n + 1);
    for (unsigned i = 0; i < n; i++) ck_assert_uint_eq(rig_ans(r, PG(i), 0)->t, 8 * CYC);
    ck_assert_uint_eq(rig_ans(r, PG(n), 0)->t, 16 * CYC);
    rig_free(r);
}
END_TEST

/* The same with 4 walkers and 9 walks: three waves, at 8, 16 and 24. */
START_TEST(walks_queue_in_waves)
{
    static const char *const sets[] = { "gmmu.walker.threads=4" };
    struct rig *r = rig_new(sets, 1, 1, 0);
    for (unsigned i = 0; i < 9; i++) { rig_map(r, i); rig_walk(r, 0, PG(i), REQ_LOAD); }
    rig_run(r);
    for (unsigned i = 0; i < 9; i++)
        ck_assert_uint_eq(rig_ans(r, PG(i), 0)->t, (i / 4 + 1) * 8 * CYC);
    rig_free(r);
}
END_TEST

/* Memory mode: a walk reads the levels below the deepest page-walk-cache
 * hit, one 8-byte read at a time; PWC probe P = 1 cycle, read M = 100.
 *   PG(0) cold:                4 reads: 1 + 400
 *   PG(1), same leaf table:    level-2 entry cached, 1 read: 1 + 100
 *   +2 MiB, same 1 GiB region: level-3 entry cached, 2 reads: 1 + 200
 *   +1 GiB:                    level-4 entry cached, 3 reads: 1 + 300
 *   +4 GiB, nothing mapped:    level-4 cached, the level-3 entry is empty:
 *                              1 read, then a fault at 1 + 100. */
START_TEST(walk_cache_cuts_latency)
{
    static const char *const sets[] = { "gmmu.walker.mode=memory", "gmmu.pwc.latency=1" };
    struct rig *r = rig_new(sets, NSETS(sets), 1, 100);
    uint64_t v[4] = { PG(0), PG(1), VA0 + (2ULL << 20), VA0 + (1ULL << 30) };
    uint64_t hole = VA0 + (4ULL << 30);
    for (unsigned i = 0; i < 4; i++) gmmu_map(r->gmmu, v[i] >> 12, 0x100 + i, 0);
    static const unsigned reads[4] = {4, 1, 2, 3};
    for (unsigned i = 0; i < 4; i++) rig_walk(r, i * 1000 * CYC, v[i], REQ_LOAD);
    rig_walk(r, 4000 * CYC, hole, REQ_LOAD);
    rig_run(r);
    for (unsigned i = 0; i < 4; i++) {
        const struct rig_ans *a = rig_ans(r, v[i], 0);
        ck_assert_uint_eq(a->t - i * 1000 * CYC, (1 + 100 * reads[i]) * CYC);
        ck_assert_uint_eq(a->paddr, (0x100ULL + i) << 12);
    }
    ck_assert_uint_eq(rig_counter(r, "gmmu.pte_reads"), 4 + 1 + 2 + 3 + 1);
    ck_assert_uint_eq(rig_counter(r, "gmmu.pwc_hits"), 4);
    ck_assert_uint_eq(gmmu_faults_pending(r->gmmu), 1);
    struct fault_entry f;
    ck_assert_uint_eq(gmmu_fetch_faults(r->gmmu, &f, 1, engine_now(r->e)), 1);
    ck_assert_uint_eq(f.vpn, hole >> 12);
    ck_assert_uint_eq(f.t, (4000 + 1 + 100) * CYC);
    ck_assert(!f.protection);
    rig_free(r);
}
END_TEST

/* Without a page-walk cache every walk reads all four levels. */
START_TEST(no_walk_cache_reads_every_level)
{
    static const char *const sets[] = { "gmmu.walker.mode=memory", "gmmu.pwc.entries=0",
                                        "gmmu.pwc.latency=1" };
    struct rig *r = rig_new(sets, NSETS(sets), 1, 100);
    rig_map(r, 0);
    rig_map(r, 1);
    rig_walk(r, 0, PG(0), REQ_LOAD);
    rig_walk(r, 1000 * CYC, PG(1), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_ans(r, PG(1), 0)->t - 1000 * CYC, 401 * CYC);
    ck_assert_uint_eq(rig_counter(r, "gmmu.pte_reads"), 8);
    rig_free(r);
}
END_TEST

/* A fault parks the walk until the driver maps the page; the answer then
 * carries the new frame.  The two walks come from one client (SM 0's
 * uTLB) for one page: one entry, the second walk parked behind it. */
START_TEST(fault_parks_until_mapped)
{
    struct rig *r = rig_new(NULL, 0, 1, 0);
    rig_walk(r, 0, PG(7), REQ_LOAD);
    rig_walk(r, 0, PG(7), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(r->nans, 0);
    ck_assert_uint_eq(gmmu_faults_pending(r->gmmu), 1);
    ck_assert_uint_eq(rig_counter(r, "gmmu.utlb_merges"), 1);
    gmmu_map(r->gmmu, PG(7) >> 12, 0x42, 50 * CYC);
    rig_run(r);
    ck_assert_uint_eq(r->nans, 2);
    ck_assert_uint_eq(r->ans[0].paddr, 0x42ULL << 12);
    rig_free(r);
}
END_TEST

/* Read-only page: loads translate, a store raises a protection fault and
 * waits until the driver lifts the protection; then it is answered dirty. */
START_TEST(read_only_store_is_a_protection_fault)
{
    struct rig *r = rig_new(NULL, 0, 1, 0);
    gmmu_map_page(r->gmmu, PG(3) >> 12, 0x9, 12, GMMU_MAP_READONLY, 0);
    rig_send(r, 0, 0, PG(3), REQ_LOAD);
    rig_send(r, 100 * CYC, 0, PG(3), REQ_STORE);
    rig_run(r);
    ck_assert_uint_eq(r->nans, 1);
    ck_assert(r->ans[0].xflags & XLATE_READONLY);
    struct fault_entry f;
    ck_assert_uint_eq(gmmu_fetch_faults(r->gmmu, &f, 1, engine_now(r->e)), 1);
    ck_assert(f.protection);
    ck_assert_int_eq(f.access, REQ_STORE);
    ck_assert_uint_eq(rig_counter(r, "gmmu.protection_faults"), 1);
    ck_assert(gmmu_is_read_only(r->gmmu, PG(3) >> 12));
    gmmu_set_writable(r->gmmu, PG(3) >> 12, engine_now(r->e));
    rig_run(r);
    ck_assert_uint_eq(r->nans, 2);
    ck_assert(r->ans[1].xflags & XLATE_DIRTY);
    ck_assert(gmmu_unmap(r->gmmu, PG(3) >> 12, engine_now(r->e)));
    rig_free(r);
}
END_TEST

/* Mapped remote: no fault, the address is in host memory, and every L1
 * answer for it counts against its 64 KiB region.  Threshold 4: 8 accesses
 * to page 1 -> 2 notifications for region 0; 3 accesses to page 20
 * (region 1) -> none. */
START_TEST(remote_pages_and_access_counters)
{
    static const char *const sets[] = { "gmmu.access_counters.threshold=4" };
    struct rig *r = rig_new(sets, 1, 2, 0);
    gmmu_map_page(r->gmmu, PG(1) >> 12, 0x77, 12, GMMU_MAP_REMOTE, 0);
    gmmu_map_page(r->gmmu, PG(20) >> 12, 0x78, 12, GMMU_MAP_REMOTE, 0);
    for (unsigned i = 0; i < 8; i++) rig_send(r, i * 50 * CYC, 1, PG(1), REQ_LOAD);
    for (unsigned i = 0; i < 3; i++) rig_send(r, i * 50 * CYC, 0, PG(20), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(r->nans, 11);
    ck_assert_uint_eq(rig_counter(r, "gmmu.faults"), 0);
    ck_assert(gmmu_is_remote(r->gmmu, PG(1) >> 12));
    ck_assert(!gmmu_is_resident(r->gmmu, PG(1) >> 12));
    const struct rig_ans *a = rig_ans(r, PG(1), 0);
    ck_assert_uint_eq(a->paddr, PADDR_HOST | (0x77ULL << 12));
    ck_assert(a->xflags & XLATE_REMOTE);
    ck_assert_uint_eq(rig_counter(r, "gmmu.access_counters.accesses"), 11);
    ck_assert_uint_eq(gmmu_access_notifications_pending(r->gmmu), 2);
    struct access_notification n[4];
    ck_assert_uint_eq(gmmu_fetch_access_notifications(r->gmmu, n, 4), 2);
    ck_assert_uint_eq(n[0].vaddr, VA0);
    ck_assert_uint_eq(n[0].sm, 1);
    ck_assert_uint_eq(n[1].t, 7 * 50 * CYC + 1 * CYC);   /* the 8th access's L1 hit */
    rig_free(r);
}
END_TEST

static void drain_one(void *obj, uint64_t arg, sim_time now)
{
    struct rig *r = obj;
    struct fault_entry f;
    (void)arg;
    ck_assert_uint_eq(gmmu_fetch_faults(r->gmmu, &f, 1, now), 1);
    ck_assert_uint_eq(f.vpn, PG(10) >> 12);
}

/* A one-entry fault buffer.  SM 0 faults on A (logged at 0 + 19) and on B
 * (its lookup one cycle later: fault at 20, buffer full: B waits and SM 0's
 * translation stops).  SM 0's lookup of mapped C at 100 is not served; SM 1
 * is unaffected (mapped D at 100 answers at 119).  The driver drains A at
 * 500: B is logged, SM 0 resumes and C answers at 500 + 10 + 8 = 518.
 * Stall: 500 - 20 = 480 cycles. */
START_TEST(full_fault_buffer_stops_only_the_faulting_sm)
{
    static const char *const sets[] = { "gmmu.fault_buffer.entries=1" };
    struct rig *r = rig_new(sets, 1, 2, 0);
    rig_map(r, 12);
    rig_map(r, 13);
    rig_send(r, 0, 0, PG(10), REQ_LOAD);
    rig_send(r, 0, 0, PG(11), REQ_LOAD);
    rig_send(r, 100 * CYC, 0, PG(12), REQ_LOAD);
    rig_send(r, 100 * CYC, 1, PG(13), REQ_LOAD);
    engine_at(r->e, 500 * CYC, &r->dom, drain_one, r, 0);
    rig_run(r);
    ck_assert_uint_eq(rig_ans(r, PG(13), 0)->t, 119 * CYC);
    ck_assert_uint_eq(rig_ans(r, PG(12), 0)->t, 518 * CYC);
    ck_assert_uint_eq(rig_counter(r, "gmmu.faults"), 2);
    ck_assert_uint_eq(rig_counter(r, "gmmu.fault_buffer.waited"), 1);
    ck_assert_uint_eq(rig_counter(r, "gmmu.fault_buffer.stall_cycles"), 480);
    struct fault_entry f;
    ck_assert_uint_eq(gmmu_fetch_faults(r->gmmu, &f, 1, engine_now(r->e)), 1);
    ck_assert_uint_eq(f.vpn, PG(11) >> 12);
    ck_assert_uint_eq(f.t, 500 * CYC);                 /* logged when room was made */
    rig_free(r);
}
END_TEST

static Suite *walker_suite(void)
{
    Suite *s = suite_create("walker");
    TCase *t = tcase_create("walker");
    tcase_add_test(t, n_walkers_n_plus_one_walks);
    tcase_add_test(t, walks_queue_in_waves);
    tcase_add_test(t, walk_cache_cuts_latency);
    tcase_add_test(t, no_walk_cache_reads_every_level);
    tcase_add_test(t, fault_parks_until_mapped);
    tcase_add_test(t, read_only_store_is_a_protection_fault);
    tcase_add_test(t, remote_pages_and_access_counters);
    tcase_add_test(t, full_fault_buffer_stops_only_the_faulting_sm);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(walker_suite()); }

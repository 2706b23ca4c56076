/* HIR cache (HPE Sec. IV-B): counters, first-touch order, way conflicts,
 * and its trips to the driver over the link. */
#include <check.h>
#include "suite_main.h"
#include "xlate_rig.h"
#include "gmmu/hir.h"

/* Page set = vpn >> 4.  Touches: 0x20 once, 0x10 x3, 0x11 once, 0x13 x5.
 * First-touch order: set 2, then set 1.  Counters saturate at 3 (2 bits):
 * set 1 = {3, 1, 0, 3, 0...}, set 2 = {1, 0...}. */
START_TEST(counters_and_first_touch_order)
{
    struct hir h;
    hir_init(&h, 1024, 8, 16, 2);
    ck_assert(hir_touch(&h, 0x20));
    for (int i = 0; i < 3; i++) ck_assert(hir_touch(&h, 0x10));
    ck_assert(hir_touch(&h, 0x11));
    for (int i = 0; i < 5; i++) ck_assert(hir_touch(&h, 0x13));
    struct hir_record out[1024];
    ck_assert_uint_eq(hir_take(&h, out), 2);
    ck_assert_uint_eq(out[0].page_set, 2);
    ck_assert_uint_eq(out[0].first_vpn, 0x20);
    ck_assert_uint_eq(out[0].count[0], 1);
    ck_assert_uint_eq(out[1].page_set, 1);
    static const uint8_t want[16] = {3, 1, 0, 3};
    ck_assert(!memcmp(out[1].count, want, 16));
    ck_assert_uint_eq(hir_take(&h, out), 0);       /* flushed */
    hir_free(&h);
}
END_TEST

/* 1024 entries / 8 ways = 128 sets; page sets 0, 128, ..., 1024 all map to
 * set 0.  Touching the nine in order fills the 8 ways with the first eight;
 * the ninth (page set 1024) is lost, twice if touched twice, and nothing
 * else is.  After a flush it fits again. */
START_TEST(nine_page_sets_in_one_set_lose_the_ninth)
{
    struct hir h;
    hir_init(&h, 1024, 8, 16, 2);
    unsigned lost = 0;
    for (unsigned k = 0; k < 9; k++) lost += !hir_touch(&h, (uint64_t)k * 128 * 16);
    lost += !hir_touch(&h, 1024ULL * 16 + 5);
    lost += !hir_touch(&h, 3 * 128 * 16 + 1);       /* a held page set still records */
    ck_assert_uint_eq(lost, 2);
    struct hir_record out[1024];
    ck_assert_uint_eq(hir_take(&h, out), 8);
    for (unsigned k = 0; k < 8; k++) ck_assert_uint_eq(out[k].page_set, k * 128);
    ck_assert_uint_eq(out[3].count[1], 1);
    ck_assert(hir_touch(&h, 1024ULL * 16));
    hir_free(&h);
    /* A page set in another HIR set is unaffected by the conflict. */
    hir_init(&h, 1024, 8, 16, 2);
    for (unsigned k = 0; k < 8; k++) ck_assert(hir_touch(&h, (uint64_t)k * 128 * 16));
    ck_assert(hir_touch(&h, 1 * 16));
    hir_free(&h);
}
END_TEST

/* Through the GMMU: walk hits on 3 pages of 2 page sets (pages 0, 1, 17),
 * then a flush before an eviction: 2 records x 10 B = 20 B go D2H as one
 * PCIe packet of 20 B payload + 24 B header = 44 B at the default link's
 * 16 GB/s x 128/130 (encoding) x (1 - 16/168) (DLLPs) = 14.2535 GB/s:
 * 3.087 ns (re-derived when the link model gained encoding and DLLPs;
 * 2.75 ns before) + 1 us latency; the driver sees them only once landed,
 * in first-touch order. */
START_TEST(flush_carries_records_over_the_link)
{
    static const char *const sets[] = { "gmmu.hir.enabled=true" };
    struct rig *r = rig_new(sets, 1, 1, 0);
    rig_map(r, 0); rig_map(r, 1); rig_map(r, 17);
    rig_walk(r, 0, PG(17), REQ_LOAD);
    rig_walk(r, 10 * CYC, PG(0), REQ_LOAD);
    rig_walk(r, 20 * CYC, PG(1), REQ_LOAD);
    rig_walk(r, 30 * CYC, PG(1), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_counter(r, "gmmu.hir.records"), 4);
    sim_time t = 100 * CYC;
    gmmu_hir_flush(r->gmmu, t);
    /* The link credits bytes as its packet leaves the wire (t + 3.087 ns):
     * none yet at the flush, 20 once the run is over (issue 13). */
    ck_assert_uint_eq(rig_counter(r, "link.d2h.bytes"), 0);
    ck_assert_uint_eq(rig_counter(r, "gmmu.hir.transfer_bytes"), 20);
    struct hir_record out[8];
    sim_time land = t + 3087 + 1000000;
    ck_assert_uint_eq(gmmu_hir_fetch(r->gmmu, out, 8, land - 1), 0);
    ck_assert_uint_eq(gmmu_hir_fetch(r->gmmu, out, 8, land), 2);
    ck_assert_uint_eq(out[0].first_vpn, (PG(16)) >> 12);
    ck_assert_uint_eq(out[0].count[1], 1);
    ck_assert_uint_eq(out[1].first_vpn, PG(0) >> 12);
    ck_assert_uint_eq(out[1].count[0], 1);
    ck_assert_uint_eq(out[1].count[1], 2);
    rig_run(r);
    ck_assert_uint_eq(rig_counter(r, "link.d2h.bytes"), 20);
    rig_free(r);
}
END_TEST

/* Every 16th fault hands the HIR over: one hit recorded, then 16 faults on
 * distinct pages -> exactly one transfer (of 1 record), after the 16th. */
START_TEST(every_sixteenth_fault_transfers)
{
    static const char *const sets[] = { "gmmu.hir.enabled=true" };
    struct rig *r = rig_new(sets, 1, 1, 0);
    rig_map(r, 0);
    rig_walk(r, 0, PG(0), REQ_LOAD);
    for (unsigned i = 0; i < 15; i++) rig_walk(r, 100 * CYC, PG(100 + i), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_counter(r, "gmmu.hir.transfers"), 0);
    rig_walk(r, 200 * CYC, PG(200), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_counter(r, "gmmu.faults"), 16);
    ck_assert_uint_eq(rig_counter(r, "gmmu.hir.transfers"), 1);
    ck_assert_uint_eq(rig_counter(r, "link.d2h.bytes"), 10);
    rig_free(r);
}
END_TEST

static size_t replayed;
static void replay_flush(void *obj, uint64_t arg, sim_time now)
{
    struct rig *r = obj;
    (void)arg;
    replayed = gmmu_replay(r->gmmu, true, now);
}

/* The hand-over counts unique faults (a page's first entry while it is
 * absent), not per-uTLB duplicates nor entries re-logged by a flush and
 * replay.  Replays deferred as with the driver.  One walk hit (page 0)
 * gives the HIR one record.  SMs 0 and 1 both fault on pages 100..109:
 * 20 entries (one per uTLB and page), 10 unique.  A flushing replay at
 * cycle 1000 discards the 20 and re-executes the 20 accesses, which fault
 * again: 20 more entries, none unique.  40 entries and no hand-over yet;
 * six more absent pages (200..205) make the 16th unique fault: one
 * transfer, of the one record (10 B D2H). */
START_TEST(sixteenth_unique_fault_transfers)
{
    static const char *const sets[] = { "gmmu.hir.enabled=true" };
    struct rig *r = rig_new(sets, 1, 2, 0);
    gmmu_defer_replay(r->gmmu, true);
    rig_map(r, 0);
    rig_send(r, 0, 0, PG(0), REQ_LOAD);
    for (unsigned i = 0; i < 10; i++) {
        rig_send(r, 100 * CYC, 0, PG(100 + i), REQ_LOAD);
        rig_send(r, 100 * CYC, 1, PG(100 + i), REQ_LOAD);
    }
    engine_at(r->e, 1000 * CYC, &r->dom, replay_flush, r, 0);
    rig_run(r);
    ck_assert_uint_eq(rig_counter(r, "gmmu.hir.transfers"), 0);
    ck_assert_uint_eq(replayed, 20);
    ck_assert_uint_eq(rig_counter(r, "gmmu.faults"), 40);
    ck_assert_uint_eq(rig_counter(r, "gmmu.flushed_faults"), 20);
    ck_assert_uint_eq(rig_counter(r, "gmmu.refaults"), 20);
    ck_assert_uint_eq(rig_counter(r, "gmmu.unique_faults"), 10);
    for (unsigned i = 0; i < 5; i++) rig_send(r, 2000 * CYC, 0, PG(200 + i), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_counter(r, "gmmu.unique_faults"), 15);
    ck_assert_uint_eq(rig_counter(r, "gmmu.hir.transfers"), 0);
    rig_send(r, 3000 * CYC, 0, PG(205), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_counter(r, "gmmu.faults"), 46);
    ck_assert_uint_eq(rig_counter(r, "gmmu.unique_faults"), 16);
    ck_assert_uint_eq(rig_counter(r, "gmmu.hir.transfers"), 1);
    ck_assert_uint_eq(rig_counter(r, "link.d2h.bytes"), 10);
    rig_free(r);
}
END_TEST

struct taker { struct rig *r; unsigned calls, taken; sim_time at[4]; };
static void take_landed(void *ctx, sim_time now)
{
    struct taker *k = ctx;
    struct hir_record out[8];
    if (k->calls < 4) k->at[k->calls] = now;
    k->calls++;
    k->taken += (unsigned)gmmu_hir_fetch(k->r->gmmu, out, 8, now);
}

/* The host buffer holds 2 records (gmmu.hir.host_records=2).  Two
 * transfers of 2 records each (page sets 0 and 1, then 2 and 3), the
 * second after the first has landed (land = flush + 3.087 ns + 1 us, as
 * in flush_carries_records_over_the_link: 2 records = 20 B).  Drained at
 * the batch (no hook: nobody takes them before the second arrives) the
 * second pair finds the buffer full: 2 dropped.  Drained as each lands
 * (gmmu.hir.drain=landing: the hook fetches) the buffer is empty again
 * when the second arrives: nothing dropped, 4 records taken, each pair at
 * its own landing time. */
START_TEST(records_drained_as_they_land_are_not_dropped)
{
    static const char *const sets[] = { "gmmu.hir.enabled=true", "gmmu.hir.host_records=2" };
    for (int landing = 0; landing < 2; landing++) {
        struct rig *r = rig_new(sets, 2, 1, 0);
        struct taker k = { r, 0, 0, {0} };
        if (landing) gmmu_set_hir_landed_hook(r->gmmu, take_landed, &k);
        for (unsigned p = 0; p < 4; p++) rig_map(r, p * 16);
        rig_walk(r, 0, PG(0), REQ_LOAD);
        rig_walk(r, 10 * CYC, PG(16), REQ_LOAD);
        rig_run(r);
        sim_time t1 = 100 * CYC, land1 = t1 + 3087 + 1000000;
        gmmu_hir_flush(r->gmmu, t1);
        rig_walk(r, land1 + 10 * CYC, PG(32), REQ_LOAD);
        rig_walk(r, land1 + 20 * CYC, PG(48), REQ_LOAD);
        rig_run(r);
        sim_time t2 = land1 + 100 * CYC, land2 = t2 + 3087 + 1000000;
        gmmu_hir_flush(r->gmmu, t2);
        rig_run(r);
        ck_assert_uint_eq(rig_counter(r, "gmmu.hir.transfers"), 2);
        if (landing) {
            ck_assert_uint_eq(rig_counter(r, "gmmu.hir.host_dropped"), 0);
            ck_assert_uint_eq(k.calls, 2);
            ck_assert_uint_eq(k.taken, 4);
            ck_assert_uint_eq(k.at[0], land1);
            ck_assert_uint_eq(k.at[1], land2);
        } else {
            ck_assert_uint_eq(rig_counter(r, "gmmu.hir.host_dropped"), 2);
            struct hir_record out[8];
            ck_assert_uint_eq(gmmu_hir_fetch(r->gmmu, out, 8, land2), 2);
            ck_assert_uint_eq(out[0].first_vpn, PG(0) >> 12);
            ck_assert_uint_eq(out[1].first_vpn, PG(16) >> 12);
        }
        rig_free(r);
    }
}
END_TEST

static Suite *hir_suite(void)
{
    Suite *s = suite_create("hir");
    TCase *t = tcase_create("hir");
    tcase_add_test(t, counters_and_first_touch_order);
    tcase_add_test(t, nine_page_sets_in_one_set_lose_the_ninth);
    tcase_add_test(t, flush_carries_records_over_the_link);
    tcase_add_test(t, every_sixteenth_fault_transfers);
    tcase_add_test(t, sixteenth_unique_fault_transfers);
    tcase_add_test(t, records_drained_as_they_land_are_not_dropped);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(hir_suite()); }

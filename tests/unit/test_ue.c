/* Eviction timing (driver.eviction_timing, sim/driver/drv_ue.c) against
 * hand-derived batch timelines: the batch-aware paper's serialised
 * baseline (Sec. 3, Fig. 4), unobtrusive eviction (Sec. 4.2, Fig. 9-10),
 * ideal eviction (Fig. 8) and the block order uvmsim had before; and the
 * invariant that no migration starts into a frame whose write-back has not
 * landed.  Link arithmetic: see drv_rig.h (W = 280 ns a 4 KiB page on the
 * wire, L = 1 us latency, R = 1.5 ns a read request on the D2H wire). */
#include "drv_rig.h"
#include "suite_main.h"
#include "driver/drv_internal.h"

#define W PAGE_WIRE_PS
#define L LAT_PS
#define R RREQ_PS
#define F FAULT_PS

/* 8 frames (32 KiB).  Batch 1: pages 0..7 of one VA block fault at 8 ns
 * and fill memory (no eviction: the last lands at end1 = 8 ns + F + 8W +
 * L).  Batch 2: at T = end1 + 1 us one page in each of four other VA
 * blocks (pages 512, 1024, 1536, 2048) faults at s = T + 8 ns; memory is
 * full, so each needs an eviction (FIFO: pages 0..3).  Every page is its
 * own copy (replay_policy page), answered when it lands.
 *   serial:  at s + F evict page 0 (lands W + L later), then migrate page
 *            512 (W + L); only then the next eviction: end = s + F +
 *            8 (W + L).
 *   block:   block 1 evicts (W + L) and migrates; block 2's eviction
 *            starts with that migration, after its read request (R) on
 *            the D2H wire; each later migration waits for its block's
 *            eviction: end = s + F + (W + L) + 3 (R + W + L) + (W + L).
 *   unobtrusive: the eviction of page 0 starts at s, pre-emptively, and
 *            lands during the 20 us; at s + F page 512's migration starts
 *            at once and page 1's eviction beside it (after the read
 *            request): migration k + 1 starts when eviction k + 1 lands,
 *            R + W + L after migration k: page k (0-based) is answered at
 *            s + F + k (R + W + L) + W + L, end = s + F + 3 (R + W + L)
 *            + W + L.
 *   ideal:   the serial order with no write-back: each eviction frees
 *            its frame at once when the previous copy has landed: end =
 *            s + F + 4 (W + L). */
static sim_time batch2(const char *timing, struct drig **out)
{
    char set[64];
    snprintf(set, sizeof set, "driver.eviction_timing=%s", timing);
    const char *extra[] = { set, "driver.replay_policy=page", "gpu.memory.capacity=32KiB" };
    struct drig *g = drig_new(extra, NSETS(extra));
    const sim_time end1 = 8 * CYC + F + 8 * W + L, t2 = end1 + US;
    for (unsigned i = 0; i < 8; i++) rig_walk(g->r, 0, PG(i), REQ_LOAD);
    for (unsigned k = 1; k <= 4; k++) rig_walk(g->r, t2, PG(512 * k), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 2);
    ck_assert_uint_eq(drig_row(g->r, "batches", 0, "end_ps"), end1);
    ck_assert_uint_eq(drig_row(g->r, "batches", 0, "evictions"), 0);
    ck_assert_uint_eq(drig_row(g->r, "batches", 1, "start_ps"), t2 + 8 * CYC);
    ck_assert_uint_eq(drig_row(g->r, "batches", 1, "evictions"), 4);
    ck_assert_uint_eq(rig_counter(g->r, "driver.evictions"), 4);
    ck_assert_uint_eq(rig_counter(g->r, "driver.writebacks"), 4);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_mapped"), 12);
    ck_assert_uint_eq(g->r->nans, g->r->nsent);
    /* Victims oldest first: pages 0..3 left, 4..7 stayed. */
    for (unsigned i = 0; i < 8; i++) ck_assert(gmmu_is_resident(g->r->gmmu, PG(i) >> 12) == (i >= 4));
    *out = g;
    return drig_row(g->r, "batches", 1, "end_ps") - (t2 + 8 * CYC);
}

START_TEST(serial_eviction_never_overlaps_migration)
{
    struct drig *g;
    ck_assert_uint_eq(batch2("serial", &g), F + 8 * (W + L));
    ck_assert_uint_eq(rig_counter(g->r, "link.d2h.bytes"), 4 * 4096);
    drig_free(g);
}
END_TEST

START_TEST(block_eviction_overlaps_the_previous_block)
{
    struct drig *g;
    ck_assert_uint_eq(batch2("block", &g), F + 5 * (W + L) + 3 * R);
    ck_assert_uint_eq(rig_counter(g->r, "driver.ue.preemptive_evictions"), 0);
    drig_free(g);
}
END_TEST

START_TEST(unobtrusive_timeline_by_hand)
{
    struct drig *g;
    ck_assert_uint_eq(batch2("unobtrusive", &g), F + 4 * (W + L) + 3 * R);
    const sim_time s = 8 * CYC + F + 8 * W + L + US + 8 * CYC;
    /* Each page's parked walk is answered on the GMMU's first core-clock
     * edge (1 ns) at or after its landing.  The first page is not delayed
     * by its eviction: it lands as it would with a frame free. */
    for (unsigned k = 0; k < 4; k++) {
        sim_time land = s + F + k * (R + W + L) + W + L;
        ck_assert_uint_eq(rig_ans(g->r, PG(512 * (k + 1)), 0)->t, (land + CYC - 1) / CYC * CYC);
    }
    ck_assert_uint_eq(rig_counter(g->r, "driver.ue.preemptive_evictions"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.ue.pipelined_evictions"), 3);
    ck_assert_uint_eq(rig_counter(g->r, "driver.ue.demand_evictions"), 0);
    /* Pages 2..4 each found their frame still being written back. */
    ck_assert_uint_eq(rig_counter(g->r, "driver.ue.frame_waits"), 3);
    ck_assert_uint_eq(rig_counter(g->r, "link.d2h.bytes"), 4 * 4096);
    ck_assert(!g->d->ue_have);
    drig_free(g);
}
END_TEST

START_TEST(ideal_eviction_costs_nothing)
{
    struct drig *g;
    ck_assert_uint_eq(batch2("ideal", &g), F + 4 * (W + L));
    ck_assert_uint_eq(rig_counter(g->r, "link.d2h.bytes"), 0);
    ck_assert_uint_eq(rig_counter(g->r, "link.d2h.transfers"), 0);
    drig_free(g);
}
END_TEST

/* 64 KiB driver pages (the paper's Table 1): the same batch 2 with 4
 * frames of 64 KiB, W64 = 16 W per page each way, 16 read requests per
 * copy (R64 = 16 R).  unobtrusive: s + F + 3 (R64 + W64 + L) + W64 + L;
 * serial: s + F + 8 (W64 + L). */
START_TEST(unobtrusive_with_64k_pages)
{
    static const char *const timing[] = { "unobtrusive", "serial" };
    for (int m = 0; m < 2; m++) {
        char set[64];
        snprintf(set, sizeof set, "driver.eviction_timing=%s", timing[m]);
        const char *extra[] = { set, "driver.replay_policy=page", "driver.page_size=64KiB",
                                "gpu.memory.capacity=256KiB" };
        struct drig *g = drig_new(extra, NSETS(extra));
        const sim_time w = 16 * W, end1 = 8 * CYC + F + 4 * w + L, t2 = end1 + US;
        for (unsigned i = 0; i < 4; i++) rig_walk(g->r, 0, PG(16 * i), REQ_LOAD);
        for (unsigned k = 1; k <= 4; k++) rig_walk(g->r, t2, PG(512 * k), REQ_LOAD);
        rig_run(g->r);
        ck_assert_uint_eq(drig_row(g->r, "batches", 0, "end_ps"), end1);
        sim_time d = drig_row(g->r, "batches", 1, "end_ps") - drig_row(g->r, "batches", 1, "start_ps");
        ck_assert_uint_eq(d, m == 0 ? F + 3 * (16 * R + w + L) + w + L : F + 8 * (w + L));
        ck_assert_uint_eq(rig_counter(g->r, "driver.evictions"), 64);
        ck_assert_uint_eq(rig_counter(g->r, "evict.victims"), 4);
        drig_free(g);
    }
}
END_TEST

/* With frames free no eviction is made ahead: one batch of 4 faults in 4
 * blocks with 8 frames free runs as without UE: F + 4W + L. */
START_TEST(unobtrusive_idle_while_memory_has_room)
{
    const char *extra[] = { "driver.eviction_timing=unobtrusive", "driver.replay_policy=page",
                            "gpu.memory.capacity=32KiB" };
    struct drig *g = drig_new(extra, NSETS(extra));
    for (unsigned k = 1; k <= 4; k++) rig_walk(g->r, 0, PG(512 * k), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(drig_row(g->r, "batches", 0, "end_ps") - drig_row(g->r, "batches", 0, "start_ps"),
                      F + 4 * W + L);
    ck_assert_uint_eq(rig_counter(g->r, "driver.evictions"), 0);
    ck_assert_uint_eq(rig_counter(g->r, "driver.ue.preemptive_evictions"), 0);
    ck_assert_uint_eq(rig_counter(g->r, "driver.ue.pipelined_evictions"), 0);
    drig_free(g);
}
END_TEST

/* The invariant is checked in the model: with every frame marked as
 * still being written back, the first migration aborts the run (exit 3,
 * sim_panic, with the component dump on stderr) instead of copying over
 * a page not yet evicted. */
START_TEST(migration_into_a_frame_being_written_back_aborts)
{
    const char *extra[] = { "driver.eviction_timing=unobtrusive", "gpu.memory.capacity=32KiB" };
    struct drig *g = drig_new(extra, NSETS(extra));
    uint64_t pfn[8];
    for (unsigned i = 0; i < 8; i++) pfn[i] = i;
    drv_wb_begin(g->d, pfn, 8, 0);
    rig_walk(g->r, 0, PG(0), REQ_LOAD);
    rig_run(g->r);
    drig_free(g);
}
END_TEST

/* serial and unobtrusive order single pages: the real driver's root
 * chunks (evict_unit chunk) are refused at the key. */
START_TEST(page_orders_need_page_unit)
{
    static const char *const bad[] = { "serial", "unobtrusive" };
    for (int i = 0; i < 2; i++) {
        char set[64];
        snprintf(set, sizeof set, "driver.eviction_timing=%s", bad[i]);
        const char *sets[] = { "driver.evict_unit=chunk", set };
        struct cfg_error err;
        struct config *c = config_load(NULL, sets, 2, &err);
        ck_assert_ptr_null(c);
        ck_assert_ptr_nonnull(strstr(err.msg, "driver.eviction_timing"));
    }
    const char *ok[] = { "driver.evict_unit=chunk", "driver.eviction_timing=ideal" };
    struct cfg_error err;
    struct config *c = config_load(NULL, ok, 2, &err);
    ck_assert_ptr_nonnull(c);
    config_free(c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ue");
    TCase *t = tcase_create("timing");
    tcase_add_test(t, serial_eviction_never_overlaps_migration);
    tcase_add_test(t, block_eviction_overlaps_the_previous_block);
    tcase_add_test(t, unobtrusive_timeline_by_hand);
    tcase_add_test(t, ideal_eviction_costs_nothing);
    tcase_add_test(t, unobtrusive_with_64k_pages);
    tcase_add_test(t, unobtrusive_idle_while_memory_has_room);
    tcase_add_exit_test(t, migration_into_a_frame_being_written_back_aborts, 3);
    tcase_add_test(t, page_orders_need_page_unit);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(suite()); }

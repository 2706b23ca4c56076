/* L1/L2 TLBs against hand-computed sequences.  Timing (1 cycle = 1000 ps):
 * an L1 hit answers 1 cycle after the request (L1 latency); an L1 miss that
 * hits the L2 answers after 1 + 10 cycles; a miss in both goes to the
 * fixed-latency walker (8 cycles): 1 + 10 + 8 = 19 cycles. */
#include <check.h>
#include <stdlib.h>
#include "suite_main.h"
#include "xlate_rig.h"

#define L1_HIT 1
#define L2_HIT 11
#define WALK 19

/* Fully associative 4-entry L1 (big L2): LRU, not FIFO.
 * Pages 1 2 3 4 1 5 2 1 3 4, one at a time (100 cycles apart):
 *   1-4 cold misses (LRU order 1 2 3 4); 1 hit (2 3 4 1); 5 misses,
 *   evicts 2 (3 4 1 5); 2 misses, evicts 3 (4 1 5 2); 1 hit (4 5 2 1);
 *   3 misses, evicts 4 (5 2 1 3); 4 misses, evicts 5.
 * L1: 2 hits, 8 misses, 4 evictions.  2, 3 and 4 come back from the L2.
 * (FIFO would have evicted 1 for 5 and missed on the second 1.) */
START_TEST(l1_fully_associative_lru_sequence)
{
    static const char *const sets[] = { "tlb.l1.entries=4", "tlb.l1.assoc=0" };
    struct rig *r = rig_new(sets, NSETS(sets), 1, 0);
    static const unsigned seq[] = {1, 2, 3, 4, 1, 5, 2, 1, 3, 4};
    static const unsigned lat[] = {WALK, WALK, WALK, WALK, L1_HIT, WALK, L2_HIT, L1_HIT,
                                   L2_HIT, L2_HIT};
    for (unsigned i = 1; i <= 5; i++) rig_map(r, i);
    for (unsigned i = 0; i < 10; i++) rig_send(r, i * 100 * CYC, 0, PG(seq[i]), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(r->nans, 10);
    for (unsigned i = 0; i < 10; i++) {
        ck_assert_uint_eq(r->ans[i].vaddr, PG(seq[i]));
        ck_assert_uint_eq(r->ans[i].t - i * 100 * CYC, lat[i] * CYC);
        ck_assert_uint_eq(r->ans[i].paddr, (0x1000ULL + seq[i]) << 12);
    }
    ck_assert_uint_eq(rig_counter(r, "tlb.l1.hits"), 2);
    ck_assert_uint_eq(rig_counter(r, "tlb.l1.misses"), 8);
    ck_assert_uint_eq(rig_counter(r, "tlb.l1.evictions"), 4);
    ck_assert_uint_eq(rig_counter(r, "tlb.l2.hits"), 3);
    ck_assert_uint_eq(rig_counter(r, "tlb.l2.misses"), 5);
    ck_assert_uint_eq(rig_counter(r, "gmmu.walks"), 5);
    rig_free(r);
}
END_TEST

/* Set-associative: a 1-entry L1 sends everything on; L2 of 4 entries,
 * 2-way = 2 sets, set = page number mod 2 (VA0 is even).  Pages 1 0 2 4 0 4 1:
 * set 1 gets page 1 (miss ... hit at the end, never disturbed); set 0:
 * 0 M, 2 M, 4 M evicts 0 (LRU), 0 M evicts 2, 4 H.
 * L2: 2 hits (4, 1), 5 misses, 2 evictions.  The L1 only hits never (every
 * access differs from the one before). */
START_TEST(l2_set_associative_sequence)
{
    static const char *const sets[] = { "tlb.l1.entries=1", "tlb.l2.entries=4",
                                        "tlb.l2.assoc=2" };
    struct rig *r = rig_new(sets, NSETS(sets), 1, 0);
    static const unsigned seq[] = {1, 0, 2, 4, 0, 4, 1};
    static const unsigned lat[] = {WALK, WALK, WALK, WALK, WALK, L2_HIT, L2_HIT};
    for (unsigned i = 0; i <= 4; i++) rig_map(r, i);
    for (unsigned i = 0; i < 7; i++) rig_send(r, i * 100 * CYC, 0, PG(seq[i]), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(r->nans, 7);
    for (unsigned i = 0; i < 7; i++)
        ck_assert_uint_eq(r->ans[i].t - i * 100 * CYC, lat[i] * CYC);
    ck_assert_uint_eq(rig_counter(r, "tlb.l1.hits"), 0);
    ck_assert_uint_eq(rig_counter(r, "tlb.l2.hits"), 2);
    ck_assert_uint_eq(rig_counter(r, "tlb.l2.misses"), 5);
    ck_assert_uint_eq(rig_counter(r, "tlb.l2.evictions"), 2);
    rig_free(r);
}
END_TEST

/* MSHR merging and hit under miss on one single-ported L1.  At cycle 0
 * page B is fetched (cold, ready at 19).  At cycle 100 four lookups arrive
 * together: A, A, B, A.  One per cycle from 101: A misses (MSHR), A merges,
 * B hits at 103 (served under the outstanding miss), A merges at 104.  The
 * one walk for A answers all three at 101 + 10 + 8 = 119.
 * Port conflicts: at 101, 102 and 103 a ready lookup found the port taken. */
START_TEST(mshr_merge_and_hit_under_miss)
{
    static const char *const sets[] = { "tlb.l1.ports=1" };
    struct rig *r = rig_new(sets, NSETS(sets), 1, 0);
    rig_map(r, 1);
    rig_map(r, 2);
    uint64_t A = PG(1), B = PG(2);
    rig_send(r, 0, 0, B, REQ_LOAD);
    rig_send(r, 100 * CYC, 0, A, REQ_LOAD);
    rig_send(r, 100 * CYC, 0, A, REQ_LOAD);
    rig_send(r, 100 * CYC, 0, B, REQ_LOAD);
    rig_send(r, 100 * CYC, 0, A, REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_ans(r, B, 0)->t, WALK * CYC);
    ck_assert_uint_eq(rig_ans(r, B, 1)->t, 103 * CYC);
    for (unsigned k = 0; k < 3; k++) ck_assert_uint_eq(rig_ans(r, A, k)->t, 119 * CYC);
    ck_assert_uint_eq(rig_counter(r, "tlb.l1.mshr_merges"), 2);
    ck_assert_uint_eq(rig_counter(r, "tlb.l1.misses"), 4);
    ck_assert_uint_eq(rig_counter(r, "tlb.l1.hits"), 1);
    ck_assert_uint_eq(rig_counter(r, "tlb.l1.port_conflicts"), 3);
    ck_assert_uint_eq(rig_counter(r, "gmmu.walks"), 2);
    rig_free(r);
}
END_TEST

/* With one MSHR a second miss to another page waits for the first fill:
 * A at 1 -> walk answers at 19; C waits, misses at 19 and answers at
 * 19 + 10 + 8 = 37; mshr_full counts the stalled cycle(s) >= 1. */
START_TEST(mshr_full_blocks_the_next_miss)
{
    static const char *const sets[] = { "tlb.l1.mshrs=1" };
    struct rig *r = rig_new(sets, NSETS(sets), 1, 0);
    rig_map(r, 1);
    rig_map(r, 3);
    rig_send(r, 0, 0, PG(1), REQ_LOAD);
    rig_send(r, 0, 0, PG(3), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_ans(r, PG(1), 0)->t, 19 * CYC);
    ck_assert_uint_eq(rig_ans(r, PG(3), 0)->t, 37 * CYC);
    ck_assert_uint_ge(rig_counter(r, "tlb.l1.mshr_full"), 1);
    rig_free(r);
}
END_TEST

/* A store needs a dirty entry: a load fills a clean entry, the store then
 * misses (walk sets the dirty bit), a second store hits. */
START_TEST(store_needs_dirty_entry)
{
    struct rig *r = rig_new(NULL, 0, 1, 0);
    rig_map(r, 1);
    rig_send(r, 0, 0, PG(1), REQ_LOAD);
    rig_send(r, 100 * CYC, 0, PG(1), REQ_STORE);
    rig_send(r, 200 * CYC, 0, PG(1), REQ_STORE);
    rig_run(r);
    ck_assert_uint_eq(rig_ans(r, PG(1), 1)->t - 100 * CYC, WALK * CYC);
    ck_assert_uint_eq(rig_ans(r, PG(1), 2)->t - 200 * CYC, L1_HIT * CYC);
    ck_assert(rig_ans(r, PG(1), 1)->xflags & XLATE_DIRTY);
    ck_assert_uint_eq(rig_counter(r, "gmmu.dirty_sets"), 1);
    ck_assert(gmmu_unmap(r->gmmu, PG(1) >> 12, 300 * CYC));
    rig_free(r);
}
END_TEST

/* 4 KiB, 64 KiB and 2 MiB entries coexist: one walk per large page, then
 * every 4 KiB page inside it hits the L1; addresses keep their offset. */
START_TEST(page_sizes_coexist)
{
    struct rig *r = rig_new(NULL, 0, 1, 0);
    uint64_t big = VA0 + (4ULL << 20);      /* a 2 MiB page at frame 0x200000 */
    uint64_t mid = VA0 + (64ULL << 10);     /* a 64 KiB page at frame 0x30 */
    gmmu_map_page(r->gmmu, big >> 12, 0x200000 >> 0, 21, 0, 0);
    gmmu_map_page(r->gmmu, mid >> 12, 0x30, 16, 0, 0);
    rig_map(r, 0);
    rig_send(r, 0, 0, big + 0x1000, REQ_LOAD);
    rig_send(r, 100 * CYC, 0, big + 0x1ff000, REQ_LOAD);
    rig_send(r, 200 * CYC, 0, mid + 0x3000, REQ_LOAD);
    rig_send(r, 300 * CYC, 0, mid + 0xf000, REQ_LOAD);
    rig_send(r, 400 * CYC, 0, PG(0), REQ_LOAD);
    rig_send(r, 500 * CYC, 0, PG(0), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_counter(r, "gmmu.walks"), 3);
    ck_assert_uint_eq(rig_counter(r, "tlb.l1.hits"), 3);
    ck_assert_uint_eq(rig_ans(r, big + 0x1ff000, 0)->paddr, (0x200000ULL << 12) + 0x1ff000);
    ck_assert_uint_eq(rig_ans(r, big + 0x1ff000, 0)->size, 2u << 20);
    ck_assert_uint_eq(rig_ans(r, mid + 0xf000, 0)->paddr, (0x30ULL << 12) + 0xf000);
    ck_assert_uint_eq(rig_ans(r, mid + 0xf000, 0)->size, 64u << 10);
    ck_assert_uint_eq(rig_ans(r, PG(0), 1)->paddr, 0x1000ULL << 12);
    /* A shootdown of any 4 KiB page inside the 2 MiB page removes it. */
    ck_assert(tlb_shootdown(r->tlb, (big + 0x5000) >> 12, 600 * CYC));
    ck_assert(!tlb_shootdown(r->tlb, (big + 0x5000) >> 12, 600 * CYC));
    rig_free(r);
}
END_TEST

/* Shootdown cost: scope all stalls every SM for the configured cycles,
 * back-to-back shootdowns serialise; scope sharers stalls only the SMs
 * whose L1 held the page; a page no TLB holds costs nothing. */
START_TEST(shootdown_cost_and_scope)
{
    static const char *const all[] = { "tlb.shootdown.cycles=100" };
    struct rig *r = rig_new(all, 1, 3, 0);
    rig_map(r, 1);
    rig_send(r, 0, 1, PG(1), REQ_LOAD);
    rig_run(r);
    ck_assert(tlb_shootdown(r->tlb, PG(1) >> 12, 1000 * CYC));
    ck_assert_uint_eq(r->sd_calls, 3);
    for (unsigned i = 0; i < 3; i++) ck_assert_uint_eq(r->sd_until[i], 1100 * CYC);
    ck_assert(!tlb_shootdown(r->tlb, PG(1) >> 12, 1000 * CYC));   /* nothing cached now */
    ck_assert_uint_eq(rig_counter(r, "tlb.shootdowns"), 1);
    ck_assert_uint_eq(rig_counter(r, "tlb.shootdowns_avoided"), 1);
    ck_assert_uint_eq(rig_counter(r, "tlb.shootdown_stall"), 300);
    rig_free(r);

    static const char *const sharers[] = { "tlb.shootdown.cycles=100",
                                           "tlb.shootdown.scope=sharers" };
    r = rig_new(sharers, 2, 3, 0);
    rig_map(r, 1);
    rig_map(r, 2);
    rig_send(r, 0, 1, PG(1), REQ_LOAD);
    rig_send(r, 0, 2, PG(2), REQ_LOAD);
    rig_run(r);
    sim_time now = engine_now(r->e);
    ck_assert(tlb_shootdown(r->tlb, PG(1) >> 12, now));
    ck_assert(tlb_shootdown(r->tlb, PG(2) >> 12, now));
    ck_assert_uint_eq(r->sd_calls, 2);
    ck_assert_uint_eq(r->sd_until[0], 0);
    ck_assert_uint_eq(r->sd_until[1], now + 100 * CYC);
    ck_assert_uint_eq(r->sd_until[2], now + 100 * CYC);
    rig_free(r);
}
END_TEST

/* tlb.shootdown.filter touched (thesis Sec. 5.3.1, the OS sharers list):
 * a page the GPU has walked is shot down whether or not a TLB still holds
 * it; a page never walked is not.  Three SMs, C = 100 cycles, scope all.
 * Page 1 is walked by SM 1 (cycles 0..~20).  At 1000 its shootdown stalls
 * all three SMs to 1100; a second one at 1000 (nothing cached any more: a
 * false positive the filter allows) queues behind it to 1200 -- with the
 * present filter that one would be free (shootdown_cost_and_scope).  Page
 * 2, mapped but never walked, costs nothing: no hook call, counted as
 * avoided.  A remap (unmap, map elsewhere) keeps page 1 on the list. */
START_TEST(shootdown_filter_touched)
{
    static const char *const sets[] = { "tlb.shootdown.cycles=100", "tlb.shootdown.filter=touched" };
    struct rig *r = rig_new(sets, 2, 3, 0);
    rig_map(r, 1);
    rig_map(r, 2);
    ck_assert(!gmmu_referenced(r->gmmu, PG(1) >> 12, 2));
    rig_send(r, 0, 1, PG(1), REQ_LOAD);
    rig_run(r);
    ck_assert(gmmu_referenced(r->gmmu, PG(1) >> 12, 1));
    ck_assert(!gmmu_referenced(r->gmmu, PG(2) >> 12, 1));
    ck_assert(tlb_shootdown(r->tlb, PG(1) >> 12, 1000 * CYC));
    ck_assert_uint_eq(r->sd_calls, 3);
    for (unsigned i = 0; i < 3; i++) ck_assert_uint_eq(r->sd_until[i], 1100 * CYC);
    ck_assert(tlb_shootdown(r->tlb, PG(1) >> 12, 1000 * CYC));
    ck_assert_uint_eq(r->sd_calls, 6);
    for (unsigned i = 0; i < 3; i++) ck_assert_uint_eq(r->sd_until[i], 1200 * CYC);
    ck_assert(!tlb_shootdown(r->tlb, PG(2) >> 12, 1000 * CYC));
    ck_assert_uint_eq(r->sd_calls, 6);
    gmmu_unmap(r->gmmu, PG(1) >> 12, 1000 * CYC);
    gmmu_map(r->gmmu, PG(1) >> 12, 0x2000, 1000 * CYC);
    ck_assert(gmmu_referenced(r->gmmu, PG(1) >> 12, 1));
    ck_assert_uint_eq(rig_counter(r, "tlb.shootdowns"), 2);
    ck_assert_uint_eq(rig_counter(r, "tlb.shootdowns_avoided"), 1);
    ck_assert_uint_eq(rig_counter(r, "tlb.shootdown_stall"), 600);
    /* A range is on the list when any of its pages is. */
    ck_assert(gmmu_referenced(r->gmmu, PG(0) >> 12, 3));
    rig_free(r);
}
END_TEST

/* One fault entry per uTLB and page (uvm_gpu_replayable_faults.c: entries
 * carry their uTLB; the driver coalesces the duplicates).  Page A is
 * absent; SMs 0 and 1 look it up at cycle 0 (lookup at 1): their L1
 * misses reach the L2 at 11, the second merges into the first's MSHR, one
 * walk answers both with a fault NACK at 19, and each L1 hands its access
 * to the GMMU: two entries (SM 0 and SM 1) from one walk.  Page B is
 * absent; two warps of SM 0 look it up at 0 and at 100.  The first (looked
 * up at 2, behind A on the one port) faults at 20; the fault freed the
 * MSHRs and installed nothing, so the second misses again and walks again
 * (NACK at 119), and joins SM 0's fault on B: one entry.  Mapping both
 * pages at 1000 (no driver: replays are not deferred) sends the four
 * parked accesses back into their L1s, visible at 1001: SM 1's A looked up
 * at 1001; SM 0's queue in fault order: A at 1001, B at 1002, the other B
 * at 1003 (merged into the first's MSHR).  A is walked once (the two L2
 * lookups merge) and answered to both at 1001 + 18 = 1019, B at 1020. */
START_TEST(one_entry_per_utlb_and_page)
{
    struct rig *r = rig_new(NULL, 0, 2, 0);
    uint64_t A = PG(5), B = PG(6);
    rig_send(r, 0, 0, A, REQ_LOAD);
    rig_send(r, 0, 1, A, REQ_LOAD);
    rig_send(r, 0, 0, B, REQ_LOAD);
    rig_send(r, 100 * CYC, 0, B, REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(r->nans, 0);
    ck_assert_uint_eq(rig_counter(r, "gmmu.walks"), 3);
    ck_assert_uint_eq(rig_counter(r, "gmmu.faults"), 3);
    ck_assert_uint_eq(rig_counter(r, "gmmu.unique_faults"), 2);
    ck_assert_uint_eq(rig_counter(r, "gmmu.utlb_merges"), 1);
    ck_assert_uint_eq(rig_counter(r, "tlb.l2.fault_nacks"), 3);
    ck_assert_uint_eq(rig_counter(r, "tlb.l1.fault_nacks"), 4);
    struct fault_entry f[4];
    ck_assert_uint_eq(gmmu_fetch_faults(r->gmmu, f, 4, engine_now(r->e)), 3);
    unsigned sms_a = 0;
    for (unsigned i = 0; i < 3; i++) {
        if (f[i].vpn == A >> 12) { sms_a |= 1u << f[i].sm; ck_assert_uint_eq(f[i].t, 19 * CYC); }
        else {
            ck_assert_uint_eq(f[i].vpn, B >> 12);
            ck_assert_uint_eq(f[i].sm, 0);
            ck_assert_uint_eq(f[i].t, 20 * CYC);
        }
    }
    ck_assert_uint_eq(sms_a, 3);
    gmmu_map(r->gmmu, A >> 12, 0x50, 1000 * CYC);
    gmmu_map(r->gmmu, B >> 12, 0x60, 1000 * CYC);
    rig_run(r);
    ck_assert_uint_eq(r->nans, 4);
    for (unsigned k = 0; k < 2; k++) {
        ck_assert_uint_eq(rig_ans(r, A, k)->t, 1019 * CYC);
        ck_assert_uint_eq(rig_ans(r, B, k)->t, 1020 * CYC);
    }
    ck_assert_uint_eq(rig_ans(r, B, 1)->paddr, 0x60ULL << 12);
    ck_assert_uint_eq(rig_counter(r, "gmmu.replayed_accesses"), 4);
    /* The re-walk filled the L1: the next lookup hits. */
    rig_send(r, 2000 * CYC, 1, A, REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_ans(r, A, 2)->t, 2001 * CYC);
    rig_free(r);
}
END_TEST

/* A pending fault holds no MSHR.  One MSHR in each TLB; SM 0 looks up 40
 * absent pages at cycle 0.  Lookup k misses (the MSHR), its walk faults
 * 18 cycles later (L2 10 + walk 8) and the NACK frees both MSHRs, so the
 * next lookup goes out in that same cycle: fault k is logged at
 * 1 + 18 (k + 1) = 19 + 18k cycles, and all 40 are outstanding at once.
 * (If the fault kept its MSHRs, lookup 1 would wait for the replay: one
 * fault.)  Mapping the 40 pages at 2000 replays them through the one MSHR
 * the same way: answer k at 2000 + 19 + 18k. */
START_TEST(pending_faults_hold_no_mshr)
{
    static const char *const sets[] = { "tlb.l1.mshrs=1", "tlb.l2.mshrs=1" };
    struct rig *r = rig_new(sets, NSETS(sets), 1, 0);
    for (unsigned k = 0; k < 40; k++) rig_send(r, 0, 0, PG(100 + k), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(r->nans, 0);
    ck_assert_uint_eq(rig_counter(r, "gmmu.faults"), 40);
    ck_assert_uint_ge(rig_counter(r, "tlb.l1.mshr_full"), 1);
    /* The watchdog's dump: every MSHR free, the 40 accesses parked. */
    char *dump = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&dump, &len);
    engine_dump(r->e, out);
    fclose(out);
    ck_assert_msg(strstr(dump, "40 accesses parked in 40 uTLB fault records"), "%s", dump);
    ck_assert_msg(!strstr(dump, "1 of 1 MSHRs busy"), "%s", dump);
    ck_assert_msg(strstr(dump, "0 of 1 MSHRs busy"), "%s", dump);
    free(dump);
    struct fault_entry f[40];
    ck_assert_uint_eq(gmmu_fetch_faults(r->gmmu, f, 40, engine_now(r->e)), 40);
    for (unsigned k = 0; k < 40; k++) {
        ck_assert_uint_eq(f[k].vpn, PG(100 + k) >> 12);
        ck_assert_uint_eq(f[k].t, (19 + 18 * k) * CYC);
    }
    for (unsigned k = 0; k < 40; k++) gmmu_map(r->gmmu, PG(100 + k) >> 12, 0x200 + k, 2000 * CYC);
    rig_run(r);
    ck_assert_uint_eq(r->nans, 40);
    for (unsigned k = 0; k < 40; k++)
        ck_assert_uint_eq(rig_ans(r, PG(100 + k), 0)->t, (2000 + 19 + 18 * k) * CYC);
    rig_free(r);
}
END_TEST

static Suite *tlb_suite(void)
{
    Suite *s = suite_create("tlb");
    TCase *t = tcase_create("tlb");
    tcase_add_test(t, l1_fully_associative_lru_sequence);
    tcase_add_test(t, l2_set_associative_sequence);
    tcase_add_test(t, mshr_merge_and_hit_under_miss);
    tcase_add_test(t, mshr_full_blocks_the_next_miss);
    tcase_add_test(t, store_needs_dirty_entry);
    tcase_add_test(t, page_sizes_coexist);
    tcase_add_test(t, shootdown_cost_and_scope);
    tcase_add_test(t, shootdown_filter_touched);
    tcase_add_test(t, one_entry_per_utlb_and_page);
    tcase_add_test(t, pending_faults_hold_no_mshr);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(tlb_suite()); }

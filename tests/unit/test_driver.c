/* The timed driver (sim/driver drv_*.c) against hand-derived batch
 * timelines, prefetch outcomes and eviction counts.  Walks go straight into
 * the real walker of the translation rig (fixed 8-cycle walks at 1 GHz); the
 * real link carries the copies: a 4 KiB page is 16 TLPs of 256 B payload +
 * 24 B header = 4480 B on a 16 GB/s wire = 280 ns, and lands 1 us
 * (link.latency) later; a run of n contiguous pages is one transfer of
 * n x 280 ns + 1 us (no copy-engine setup, link.ce_setup = 0). */
#include <stdlib.h>
#include "xlate_rig.h"
#include "suite_main.h"
#include <stdlib.h>
#include "system.h"
#include "driver/driver.h"
#include "../../workloads/workload.h"

#define US 1000000ULL
#define PAGE_WIRE_PS 280000ULL      /* 4480 B at 16 GB/s */
#define FAULT_PS (20 * US)
#define LAT_PS (1 * US)

struct drig { struct rig *r; struct driver *d; struct domain dom; };

static struct drig *drig_new(const char *const *extra, size_t nextra)
{
    static const char *const base[] = {
        "gmmu.walker.mode=fixed", "gmmu.walk_latency=8", "gmmu.interrupt_latency=0ns",
        "driver.fault_latency=20us", "link.bandwidth=16GB/s", "link.latency=1us",
        "link.ce_setup=0ns", "gmmu.access_counters.enabled=false",
        "gpu.memory.capacity=4MiB",
    };
    const char *sets[32];
    size_t n = 0;
    for (size_t i = 0; i < NSETS(base); i++) sets[n++] = base[i];
    for (size_t i = 0; i < nextra; i++) sets[n++] = extra[i];
    struct drig *g = calloc(1, sizeof *g);
    g->r = rig_new(sets, n, 2, 1);
    /* The driver ticks after the walker in a same-time tie, as in system.c. */
    g->dom = (struct domain){ "driver", 1, 3 };
    g->d = driver_create(g->r->e, g->r->cfg, g->r->st, &g->dom, g->r->gmmu, g->r->tlb,
                         g->r->link, 0);
    return g;
}

static void drig_free(struct drig *g)
{
    driver_free(g->d);
    rig_free(g->r);
    free(g);
}

static const struct rec_table *batches(const struct rig *r)
{
    for (size_t i = 0; i < stats_table_count(r->st); i++)
        if (!strcmp(stats_table_at(r->st, i)->name, "batches")) return stats_table_at(r->st, i);
    ck_abort_msg("no /batches");
    return NULL;
}

/* Field f of row i of /batches (every field is a uint64_t). */
static uint64_t brow(const struct rig *r, size_t i, const char *f)
{
    const struct rec_table *t = batches(r);
    ck_assert_uint_lt(i, t->nrows);
    for (size_t k = 0; k < t->nfields; k++)
        if (!strcmp(t->fields[k].name, f)) {
            uint64_t v;
            memcpy(&v, t->rows + i * t->row_bytes + k * 8, 8);
            return v;
        }
    ck_abort_msg("no field %s", f);
    return 0;
}

/* No fault lost or serviced twice: every logged entry was fetched or
 * flushed (batch_flush), every migrated page mapped, every walk answered. */
static void assert_conserved(const struct drig *g)
{
    ck_assert_uint_eq(rig_counter(g->r, "driver.faults") + rig_counter(g->r, "gmmu.flushed_faults"),
                      rig_counter(g->r, "gmmu.faults"));
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_mapped"),
                      rig_counter(g->r, "driver.pages_migrated"));
    ck_assert_uint_eq(g->r->nans, g->r->nsent);
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.fault_buffer.occupancy"), 0);
}

/* Batch 1: page 0 alone.  Its walk logs the fault at t0 = 8 ns (one fixed
 * walk); the interrupt wakes the driver 5 us later (gmmu.interrupt_latency)
 * and the batch ends when the page has landed: end1 = t0 + 5 us + 20 us +
 * 280 ns + 1 us.  While batch 1 is in flight (at 10 us) SM 0 faults on
 * pages 1..5 and SM 1 on pages 6..10, and SM 1 also on page 3 (at 10 us +
 * 100 cycles): 11 entries, one per uTLB and page (page 3 has one from each
 * SM).  Replay policy batch_flush (default): at end1 the 11 entries are
 * flushed and the replay sends the 11 parked accesses back into their L1
 * TLBs, where they are looked up one per cycle (one port) from end1 + 1
 * cycle: SM 0's five and SM 1's six reach the L2 (10 cycles, two ports:
 * one of each SM per cycle) and the walker (8 cycles) and fault again from
 * end1 + 19 cycles (pages 1 and 6) to end1 + 24 (SM 1's page 3, its sixth).
 * The first of these re-raised entries interrupts the driver at end1 + 19
 * cycles + 5 us, when all 11 are in: batch 2 has 11 entries, 10 unique
 * pages (the uTLBs' duplicate of page 3 coalesced), one run of 10
 * contiguous pages: end2 = start2 + 20 us + 2.8 us + 1 us.  Page 20's
 * walk (at end1 + 10 us, during batch 2) is flushed at end2 and faults
 * again at that replay (a client with no TLB faults at once): the driver,
 * still in its loop, fetches it at end2 for batch 3, ending 20 us + 280 ns
 * + 1 us later.  Entries: 1 + 11 + 11 + 1 + 1 = 25 logged, 12 flushed, 12
 * re-raised.  At end2 the replayed accesses find their pages mapped: SM
 * 1's page 7 (second in its L1's replay queue) is looked up at end2 + 2
 * cycles and answered after the L2 and a walk, at end2 + 20 cycles. */
START_TEST(batch_timeline_by_hand)
{
    static const char *const extra[] = { "gmmu.interrupt_latency=5us" };
    struct drig *g = drig_new(extra, NSETS(extra));
    struct rig *r = g->r;
    const sim_time t0 = 8 * CYC, irq = 5 * US;
    const sim_time end1 = t0 + irq + FAULT_PS + PAGE_WIRE_PS + LAT_PS;
    const sim_time start2 = end1 + 19 * CYC + irq;
    const sim_time end2 = start2 + FAULT_PS + 10 * PAGE_WIRE_PS + LAT_PS;
    const sim_time end3 = end2 + FAULT_PS + PAGE_WIRE_PS + LAT_PS;
    rig_walk(r, 0, PG(0), REQ_LOAD);
    for (unsigned i = 1; i <= 5; i++) rig_send(r, 10 * US, 0, PG(i), REQ_LOAD);
    for (unsigned i = 6; i <= 10; i++) rig_send(r, 10 * US, 1, PG(i), REQ_STORE);
    rig_send(r, 10 * US + 100 * CYC, 1, PG(3), REQ_STORE);
    rig_walk(r, end1 + 10 * US, PG(20), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_counter(r, "driver.batches"), 3);
    ck_assert_uint_eq(batches(r)->nrows, 3);
    static const uint64_t faults[] = { 1, 11, 1 }, pages[] = { 1, 10, 1 };
    const sim_time start[] = { t0 + irq, start2, end2 }, end[] = { end1, end2, end3 };
    for (size_t i = 0; i < 3; i++) {
        ck_assert_uint_eq(brow(r, i, "faults"), faults[i]);
        ck_assert_uint_eq(brow(r, i, "pages"), pages[i]);
        ck_assert_uint_eq(brow(r, i, "migrated"), pages[i]);
        ck_assert_uint_eq(brow(r, i, "h2d_bytes"), pages[i] * 4096);
        ck_assert_uint_eq(brow(r, i, "start_ps"), start[i]);
        ck_assert_uint_eq(brow(r, i, "end_ps"), end[i]);
        ck_assert_uint_eq(brow(r, i, "handling_ps"), FAULT_PS);
    }
    ck_assert_uint_eq(rig_counter(r, "driver.duplicate_faults"), 1);
    ck_assert_uint_eq(rig_counter(r, "driver.h2d_transfers"), 3);
    ck_assert_uint_eq(rig_counter(r, "gmmu.flushed_faults"), 12);
    ck_assert_uint_eq(rig_counter(r, "gmmu.refaults"), 12);
    ck_assert_uint_eq(rig_counter(r, "gmmu.faults"), 25);
    ck_assert_uint_eq(rig_counter(r, "gmmu.unique_faults"), 12);
    /* The replayed accesses re-walk when their pages are mapped. */
    ck_assert_uint_eq(rig_ans(r, PG(7), 0)->t, end2 + 20 * CYC);
    ck_assert_uint_eq(rig_ans(r, PG(20), 0)->t, end3);
    assert_conserved(g);
    drig_free(g);
}
END_TEST

/* Per-fault and per-block costs add to the batch's handling time: 11
 * entries in 2 VA blocks (pages 0..9 and page 512) with 1 us per fault and
 * 5 us per block: 20 + 11 + 10 = 41 us. */
START_TEST(fault_and_block_costs)
{
    static const char *const extra[] = { "driver.fault_cost=1us", "driver.block_cost=5us" };
    struct drig *g = drig_new(extra, NSETS(extra));
    for (unsigned i = 0; i < 10; i++) rig_walk(g->r, 0, PG(i), REQ_LOAD);
    rig_walk(g->r, 0, PG(512), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 1);
    ck_assert_uint_eq(brow(g->r, 0, "handling_ps"), 41 * US);
    ck_assert_uint_eq(rig_counter(g->r, "driver.va_blocks"), 2);
    /* Two runs, one per block, on one copy engine back to back. */
    ck_assert_uint_eq(rig_counter(g->r, "driver.h2d_transfers"), 2);
    ck_assert_uint_eq(brow(g->r, 0, "end_ps"),
                      8 * CYC + 41 * US + 11 * PAGE_WIRE_PS + LAT_PS);
    assert_conserved(g);
    drig_free(g);
}
END_TEST

/* Tree prefetch over one 2 MiB block.  Phase 1 touches pages 0..255 (no
 * subtree reaching past page 255 can exceed 51 %: at most 256 of 512), so
 * exactly those 256 become resident.  Phase 2 touches pages 256..n-1:
 * resident + faulted = n; the whole block comes when n x 100 > 51 x 512,
 * i.e. n >= 262: 512 pages migrated.  With n = 261 only the faulting
 * pages' 64 KiB big page (256..271) comes: 272 pages. */
static uint64_t tree_pages(unsigned n)
{
    static const char *const extra[] = { "driver.prefetch=tree", "gpu.memory.capacity=4MiB" };
    struct drig *g = drig_new(extra, NSETS(extra));
    for (unsigned i = 0; i < 256; i++) rig_walk(g->r, 0, PG(i), REQ_LOAD);
    for (unsigned i = 256; i < n; i++) rig_walk(g->r, 200 * US, PG(i), REQ_LOAD);
    rig_run(g->r);
    uint64_t migrated = rig_counter(g->r, "driver.pages_migrated");
    ck_assert_uint_eq(rig_counter(g->r, "driver.evictions"), 0);
    assert_conserved(g);
    drig_free(g);
    return migrated;
}

START_TEST(tree_prefetch_262_brings_the_block)
{
    ck_assert_uint_eq(tree_pages(262), 512);
    ck_assert_uint_eq(tree_pages(261), 272);
}
END_TEST

/* Sequential-local: pages 0, 20, 40 and 100 fault in one batch; their big
 * pages 0, 1, 2 and 6 come whole: 64 pages, 60 of them prefetched, in two
 * runs (pages 0..47 and 96..111). */
START_TEST(seq_prefetch_brings_each_64k_block)
{
    static const char *const extra[] = { "driver.prefetch=seq" };
    struct drig *g = drig_new(extra, NSETS(extra));
    static const unsigned pg[] = { 0, 20, 40, 100 };
    for (unsigned i = 0; i < 4; i++) rig_walk(g->r, 0, PG(pg[i]), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 64);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_prefetched"), 60);
    ck_assert_uint_eq(rig_counter(g->r, "driver.h2d_transfers"), 2);
    for (unsigned p = 0; p < 48; p++) ck_assert(gmmu_is_resident(g->r->gmmu, PG(p) >> 12));
    ck_assert(!gmmu_is_resident(g->r->gmmu, PG(48) >> 12));
    /* Each filled big page got one 64 KiB chunk: 16 contiguous frames. */
    ck_assert_uint_eq(rig_counter(g->r, "driver.pmm.chunks_64k"), 4);
    uint64_t f16 = gmmu_frame_of(g->r->gmmu, PG(16) >> 12);
    ck_assert_uint_eq(f16 % 16, 0);
    ck_assert_uint_eq(gmmu_frame_of(g->r->gmmu, PG(20) >> 12), f16 + 4);
    assert_conserved(g);
    drig_free(g);
}
END_TEST

/* Replay policies.  Pages 0 and 512 (two VA blocks) fault together at
 * t0 = 8 ns: one batch; block 0's copy lands at L1 = t0 + 20 us + 280 ns +
 * 1 us, block 1's (queued behind it on the one copy engine) 280 ns later.
 * block answers page 0 at L1; batch, batch_flush and once at L2.  Under
 * block, the replay at L1 also makes page 512's walk (its copy still in
 * flight) fault again: a second batch, which finds the page resident. */
static void two_blocks(const char *policy, uint64_t nbatches, sim_time *a0, sim_time *a512)
{
    char set[64];
    snprintf(set, sizeof set, "driver.replay_policy=%s", policy);
    const char *extra[] = { set };
    struct drig *g = drig_new(extra, 1);
    rig_walk(g->r, 0, PG(0), REQ_LOAD);
    rig_walk(g->r, 0, PG(512), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), nbatches);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 2);
    *a0 = rig_ans(g->r, PG(0), 0)->t;
    *a512 = rig_ans(g->r, PG(512), 0)->t;
    assert_conserved(g);
    drig_free(g);
}

START_TEST(replay_block_answers_each_block_at_its_landing)
{
    const sim_time l1 = 8 * CYC + FAULT_PS + PAGE_WIRE_PS + LAT_PS, l2 = l1 + PAGE_WIRE_PS;
    static const char *const pol[] = { "block", "batch", "batch_flush", "once" };
    for (int i = 0; i < 4; i++) {
        sim_time a0, a512;
        two_blocks(pol[i], i == 0 ? 2 : 1, &a0, &a512);
        ck_assert_uint_eq(a0, i == 0 ? l1 : l2);
        ck_assert_uint_eq(a512, l2);
    }
}
END_TEST

/* block replays once per block: pages 0 and 2 of one block are two runs
 * (landing at L1 and L1 + 280 ns); page 0 waits for the second. */
START_TEST(replay_block_waits_for_the_whole_block)
{
    static const char *const extra[] = { "driver.replay_policy=block" };
    struct drig *g = drig_new(extra, NSETS(extra));
    rig_walk(g->r, 0, PG(0), REQ_LOAD);
    rig_walk(g->r, 0, PG(2), REQ_LOAD);
    rig_run(g->r);
    const sim_time l2 = 8 * CYC + FAULT_PS + 2 * PAGE_WIRE_PS + LAT_PS;
    ck_assert_uint_eq(rig_counter(g->r, "driver.h2d_transfers"), 2);
    ck_assert_uint_eq(rig_ans(g->r, PG(0), 0)->t, l2);
    ck_assert_uint_eq(rig_ans(g->r, PG(2), 0)->t, l2);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 1);
    assert_conserved(g);
    drig_free(g);
}
END_TEST

/* Page 0 faults at t0 = 8 ns, page 1 at 5 us while batch 1 is serviced.
 * batch: at batch 1's end (end1) page 0 is answered and page 1's parked
 * walk faults again next to its first entry: batch 2 has 2 entries, 1
 * page.  batch_flush: the first entry is flushed first: 1 entry.  once: no
 * replay until the wake-up's last batch, so no re-raise (1 entry) and page
 * 0 waits for the replay at end2. */
static void late_fault(const char *policy, uint64_t *faults2, sim_time *a0)
{
    char set[64];
    snprintf(set, sizeof set, "driver.replay_policy=%s", policy);
    const char *extra[] = { set };
    struct drig *g = drig_new(extra, 1);
    rig_walk(g->r, 0, PG(0), REQ_LOAD);
    rig_walk(g->r, 5 * US, PG(1), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 2);
    *faults2 = brow(g->r, 1, "faults");
    ck_assert_uint_eq(brow(g->r, 1, "pages"), 1);
    *a0 = rig_ans(g->r, PG(0), 0)->t;
    const sim_time end1 = 8 * CYC + FAULT_PS + PAGE_WIRE_PS + LAT_PS;
    ck_assert_uint_eq(rig_ans(g->r, PG(1), 0)->t, end1 + FAULT_PS + PAGE_WIRE_PS + LAT_PS);
    assert_conserved(g);
    drig_free(g);
}

START_TEST(replay_batch_flush_and_once_differ_by_hand)
{
    const sim_time end1 = 8 * CYC + FAULT_PS + PAGE_WIRE_PS + LAT_PS;
    const sim_time end2 = end1 + FAULT_PS + PAGE_WIRE_PS + LAT_PS;
    uint64_t f;
    sim_time a0;
    late_fault("batch", &f, &a0);
    ck_assert_uint_eq(f, 2);
    ck_assert_uint_eq(a0, end1);
    late_fault("batch_flush", &f, &a0);
    ck_assert_uint_eq(f, 1);
    ck_assert_uint_eq(a0, end1);
    late_fault("once", &f, &a0);
    ck_assert_uint_eq(f, 1);
    ck_assert_uint_eq(a0, end2);
}
END_TEST

/* batch_flush with a full fault buffer (2 entries): pages 0..5 fault at
 * t0; 0 and 1 are logged, 2..5 wait for room.  Batch 1 fetches 0,1 and the
 * freed room takes 2,3.  At its end (end1) the flush drops 2,3 and the
 * still waiting 4,5 (the driver has seen neither); the replay answers 0,1
 * and re-raises 2, 3, 4, 5 in that order (their faults' order): 2,3 fill
 * the buffer, 4,5 wait.  Batch 2 (2,3) frees room for 4,5, which are
 * flushed at its end and re-raised into the empty buffer: batch 3 (4,5).
 * Each batch: 2 faults, one run of 2 pages, 20 us + 2 x 280 ns + 1 us.
 * Entries logged: 0,1 + 2,3 (from the wait) + 2,3 (re-raised at end1) +
 * 4,5 (re-raised at end1, logged at batch 2's fetch) + 4,5 (re-raised at
 * end2) = 10 = 6 fetched + 4 flushed; re-raised: 4 at end1, 2 at end2. */
START_TEST(flush_with_waiting_faults_keeps_order_and_count)
{
    static const char *const extra[] = { "gmmu.fault_buffer.entries=2" };
    struct drig *g = drig_new(extra, NSETS(extra));
    for (unsigned i = 0; i < 6; i++) rig_walk(g->r, 0, PG(i), REQ_LOAD);
    rig_run(g->r);
    const sim_time per = FAULT_PS + 2 * PAGE_WIRE_PS + LAT_PS;
    const sim_time end1 = 8 * CYC + per, end2 = end1 + per, end3 = end2 + per;
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 3);
    for (size_t i = 0; i < 3; i++) ck_assert_uint_eq(brow(g->r, i, "faults"), 2);
    ck_assert_uint_eq(rig_ans(g->r, PG(1), 0)->t, end1);
    ck_assert_uint_eq(rig_ans(g->r, PG(2), 0)->t, end2);
    ck_assert_uint_eq(rig_ans(g->r, PG(5), 0)->t, end3);
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.faults"), 10);
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.flushed_faults"), 4);
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.refaults"), 6);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 6);
    assert_conserved(g);
    drig_free(g);
}
END_TEST

/* The wake-up limit: batches of one entry, two batches per wake-up, the
 * interrupt 5 us after a fault.  Pages 0, 1, 2 fault at t0 = 8 ns; the
 * driver wakes at t0 + 5 us and services page 0, then (the flushed entries
 * of 1 and 2 re-raised at the replay) page 1; then it yields and the
 * still-pending interrupt wakes it 5 us later for page 2.  Each batch:
 * 20 us + 280 ns + 1 us. */
START_TEST(batches_per_wake_yields_to_the_interrupt)
{
    static const char *const extra[] = { "driver.batch_size=1", "driver.batches_per_wake=2",
                                         "gmmu.interrupt_latency=5us" };
    struct drig *g = drig_new(extra, NSETS(extra));
    for (unsigned i = 0; i < 3; i++) rig_walk(g->r, 0, PG(i), REQ_LOAD);
    rig_run(g->r);
    const sim_time per = FAULT_PS + PAGE_WIRE_PS + LAT_PS;
    const sim_time s1 = 8 * CYC + 5 * US, s2 = s1 + per, s3 = s2 + per + 5 * US;
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 3);
    ck_assert_uint_eq(rig_counter(g->r, "driver.wakeups"), 2);
    ck_assert_uint_eq(brow(g->r, 0, "start_ps"), s1);
    ck_assert_uint_eq(brow(g->r, 1, "start_ps"), s2);
    ck_assert_uint_eq(brow(g->r, 2, "start_ps"), s3);
    ck_assert_uint_eq(rig_ans(g->r, PG(2), 0)->t, s3 + per);
    assert_conserved(g);
    drig_free(g);
}
END_TEST

/* Eviction before migration (batch-aware paper Sec. 3): one frame.  Page 0
 * is written (batch 1); page 1 faults 1 us after batch 1's end (t1 = end1
 * + 1 us + 8 ns).  Batch 2 evicts page 0: dirty, so its D2H write-back
 * (280 ns + 1 us) lands before page 1's H2D copy starts: batch 2 ends at
 * t1 + 20 us + 2 x 1.28 us.  Read instead of written, page 0 is dropped:
 * t1 + 20 us + 1.28 us; unless driver.drop_clean is off. */
static sim_time evict_timeline(enum req_kind first, const char *drop, uint64_t *wb)
{
    const char *extra[] = { "gpu.memory.capacity=4KiB", drop };
    struct drig *g = drig_new(extra, 2);
    const sim_time end1 = 8 * CYC + FAULT_PS + PAGE_WIRE_PS + LAT_PS;
    rig_walk(g->r, 0, PG(0), first);
    rig_walk(g->r, end1 + LAT_PS, PG(1), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 2);
    ck_assert_uint_eq(brow(g->r, 0, "end_ps"), end1);
    ck_assert_uint_eq(brow(g->r, 1, "start_ps"), end1 + LAT_PS + 8 * CYC);
    ck_assert_uint_eq(brow(g->r, 1, "evictions"), 1);
    *wb = rig_counter(g->r, "driver.writebacks");
    ck_assert_uint_eq(rig_counter(g->r, "driver.evictions_clean"), first == REQ_LOAD);
    sim_time d = brow(g->r, 1, "end_ps") - brow(g->r, 1, "start_ps");
    assert_conserved(g);
    drig_free(g);
    return d;
}

START_TEST(eviction_serialised_before_migration)
{
    const sim_time one = PAGE_WIRE_PS + LAT_PS;
    uint64_t wb;
    ck_assert_uint_eq(evict_timeline(REQ_STORE, "driver.drop_clean=true", &wb), FAULT_PS + 2 * one);
    ck_assert_uint_eq(wb, 1);
    ck_assert_uint_eq(evict_timeline(REQ_LOAD, "driver.drop_clean=true", &wb), FAULT_PS + one);
    ck_assert_uint_eq(wb, 0);
    ck_assert_uint_eq(evict_timeline(REQ_LOAD, "driver.drop_clean=false", &wb), FAULT_PS + 2 * one);
    ck_assert_uint_eq(wb, 1);
}
END_TEST

/* ---- host steps ---- */

struct step_log { sim_time done[8]; unsigned n; };
static void step_done(void *ctx, sim_time now)
{
    struct step_log *l = ctx;
    ck_assert_uint_lt(l->n, 8);
    l->done[l->n++] = now;
}

static void host_step(struct drig *g, enum wl_step_kind kind, enum wl_dir dir,
                      uint64_t offset, uint64_t bytes, enum wl_advice adv,
                      struct step_log *log)
{
    struct wl_step st = { .kind = kind };
    st.host = (struct wl_host_step){ 0, offset, bytes, dir, adv, false };
    /* The rig has no front end: the step starts when the engine is idle. */
    driver_host_step(g->d, &st, step_done, log, engine_now(g->r->e));
    rig_run(g->r);
}

/* One 256 KiB allocation at page 0.  A prefetch of its first 40 KiB to the
 * GPU is one run of 10 pages: done 10 x 280 ns + 1 us after it starts.  A
 * memcpy D2H of its first 64 KiB copies back only the 10 resident pages:
 * another 10 x 280 ns + 1 us.  Then read-mostly: a read fault on page 20
 * maps it read-only (and a write to it lifts that without a copy);
 * preferred location host: a fault on page 30 maps it remotely, no copy. */
START_TEST(host_steps_prefetch_memcpy_advise)
{
    struct drig *g = drig_new(NULL, 0);
    struct workload wl = { .nallocs = 1, .footprint = 256 * 1024 };
    wl.allocs[0] = (struct wl_alloc){ "a", 256 * 1024, PG(0), WL_PLACE_DEFAULT, 0 };
    driver_set_workload(g->d, &wl);
    struct step_log log = { {0}, 0 };
    host_step(g, WL_STEP_PREFETCH, WL_TO_GPU, 0, 40 * 1024, 0, &log);
    ck_assert_uint_eq(log.n, 1);
    ck_assert_uint_eq(log.done[0], 10 * PAGE_WIRE_PS + LAT_PS);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 10);
    ck_assert_uint_eq(rig_counter(g->r, "driver.h2d_transfers"), 1);
    for (unsigned p = 0; p < 10; p++) ck_assert(gmmu_is_resident(g->r->gmmu, PG(p) >> 12));
    ck_assert(!gmmu_is_resident(g->r->gmmu, PG(10) >> 12));
    host_step(g, WL_STEP_MEMCPY, WL_TO_HOST, 0, 64 * 1024, 0, &log);
    ck_assert_uint_eq(log.n, 2);
    ck_assert_uint_eq(log.done[1] - log.done[0], 10 * PAGE_WIRE_PS + LAT_PS);
    ck_assert_uint_eq(rig_counter(g->r, "driver.step_d2h_bytes"), 10 * 4096);
    ck_assert_uint_eq(rig_counter(g->r, "link.d2h.bytes"), 10 * 4096);
    host_step(g, WL_STEP_ADVISE, WL_TO_GPU, 0, 256 * 1024, WL_ADV_READ_MOSTLY, &log);
    ck_assert_uint_eq(log.n, 3);
    ck_assert_uint_eq(log.done[2], log.done[1]);           /* advice costs no time here */
    sim_time t = engine_now(g->r->e);
    rig_walk(g->r, t, PG(20), REQ_LOAD);
    rig_run(g->r);
    ck_assert(gmmu_is_resident(g->r->gmmu, PG(20) >> 12));
    ck_assert(gmmu_is_read_only(g->r->gmmu, PG(20) >> 12));
    rig_walk(g->r, engine_now(g->r->e), PG(20), REQ_STORE);
    rig_run(g->r);
    ck_assert(!gmmu_is_read_only(g->r->gmmu, PG(20) >> 12));
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.protection_faults"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 11);
    /* Unset read-mostly, set preferred location host. */
    struct wl_step st = { .kind = WL_STEP_ADVISE };
    st.host = (struct wl_host_step){ 0, 0, 256 * 1024, WL_TO_GPU, WL_ADV_READ_MOSTLY, true };
    driver_host_step(g->d, &st, step_done, &log, engine_now(g->r->e));
    rig_run(g->r);
    host_step(g, WL_STEP_ADVISE, WL_TO_GPU, 0, 256 * 1024, WL_ADV_PREFERRED_HOST, &log);
    ck_assert_uint_eq(log.n, 5);
    rig_walk(g->r, engine_now(g->r->e), PG(30), REQ_LOAD);
    rig_run(g->r);
    ck_assert(gmmu_is_remote(g->r->gmmu, PG(30) >> 12));
    ck_assert_uint_eq(rig_counter(g->r, "driver.remote_mapped"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 11);
    ck_assert_uint_eq(rig_counter(g->r, "driver.host_steps"), 5);
    assert_conserved(g);
    drig_free(g);
}
END_TEST

/* Accessed-by: 4 frames, 64-page allocation.  Prefetching pages 0..3 fills
 * memory; the advice then maps the other 60 remotely at once (no fault
 * when the GPU reads page 30).  A prefetch of pages 4..7 evicts 0..3, which
 * stay mapped, now to their host copies: 60 + 4 = 64 remote mappings, and
 * a read of page 0 does not fault either. */
START_TEST(accessed_by_keeps_the_gpu_mapped)
{
    static const char *const cap[] = { "gpu.memory.capacity=16KiB" };
    struct drig *g = drig_new(cap, 1);
    struct workload wl = { .nallocs = 1, .footprint = 256 * 1024 };
    wl.allocs[0] = (struct wl_alloc){ "a", 256 * 1024, PG(0), WL_PLACE_DEFAULT, 0 };
    driver_set_workload(g->d, &wl);
    struct step_log log = { {0}, 0 };
    host_step(g, WL_STEP_PREFETCH, WL_TO_GPU, 0, 16 * 1024, 0, &log);
    host_step(g, WL_STEP_ADVISE, WL_TO_GPU, 0, 256 * 1024, WL_ADV_ACCESSED_BY_GPU, &log);
    ck_assert_uint_eq(rig_counter(g->r, "driver.accessed_by_mapped"), 60);
    ck_assert(gmmu_is_remote(g->r->gmmu, PG(30) >> 12));
    rig_walk(g->r, engine_now(g->r->e), PG(30), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.faults"), 0);
    /* Pages 4..7 are remote now: a prefetch to the GPU still migrates. */
    host_step(g, WL_STEP_PREFETCH, WL_TO_GPU, 16 * 1024, 16 * 1024, 0, &log);
    ck_assert_uint_eq(log.n, 3);
    ck_assert_uint_eq(rig_counter(g->r, "driver.evictions"), 4);
    ck_assert_uint_eq(rig_counter(g->r, "driver.accessed_by_mapped"), 64);
    ck_assert(gmmu_is_remote(g->r->gmmu, PG(0) >> 12));
    rig_walk(g->r, engine_now(g->r->e), PG(0), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.faults"), 0);
    drig_free(g);
}
END_TEST

/* A prefetch of a whole 2 MiB block takes one root chunk: page i in frame
 * root + i, one transfer of 512 pages: 512 x 280 ns + 1 us. */
START_TEST(whole_block_prefetch_takes_a_root_chunk)
{
    struct drig *g = drig_new(NULL, 0);
    struct workload wl = { .nallocs = 1, .footprint = 2 << 20 };
    wl.allocs[0] = (struct wl_alloc){ "a", 2 << 20, PG(0), WL_PLACE_DEFAULT, 0 };
    driver_set_workload(g->d, &wl);
    struct step_log log = { {0}, 0 };
    host_step(g, WL_STEP_PREFETCH, WL_TO_GPU, 0, 2 << 20, 0, &log);
    ck_assert_uint_eq(log.done[0], 512 * PAGE_WIRE_PS + LAT_PS);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pmm.chunks_2m"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.h2d_transfers"), 1);
    uint64_t f0 = gmmu_frame_of(g->r->gmmu, PG(0) >> 12);
    ck_assert_uint_eq(f0 % 512, 0);
    for (unsigned p = 0; p < 512; p++)
        ck_assert_uint_eq(gmmu_frame_of(g->r->gmmu, PG(p) >> 12), f0 + p);
    drig_free(g);
}
END_TEST

/* A prefetch larger than memory is dropped: 8 frames, sequential-local on
 * page 0 would want 16 pages; only page 0 comes. */
START_TEST(prefetch_larger_than_memory_is_dropped)
{
    static const char *const extra[] = { "driver.prefetch=seq", "gpu.memory.capacity=32KiB" };
    struct drig *g = drig_new(extra, NSETS(extra));
    rig_walk(g->r, 0, PG(0), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_prefetched"), 0);
    ck_assert_uint_eq(rig_counter(g->r, "driver.prefetch_dropped"), 1);
    assert_conserved(g);
    drig_free(g);
}
END_TEST

/* Prefetch to host (FIFO has a forget op): 10 pages prefetched to the
 * GPU, pages 0..4 written, then the 10 sent home: the 5 written ones go
 * back as one D2H run (5 x 280 ns + 1 us), all 10 leave GPU memory and
 * their frames merge back, so the whole 4 MiB then takes 2 root chunks. */
START_TEST(prefetch_to_host_moves_pages_out)
{
    struct drig *g = drig_new(NULL, 0);
    struct workload wl = { .nallocs = 1, .footprint = 4 << 20 };
    wl.allocs[0] = (struct wl_alloc){ "a", 4 << 20, PG(0), WL_PLACE_DEFAULT, 0 };
    driver_set_workload(g->d, &wl);
    struct step_log log = { {0}, 0 };
    host_step(g, WL_STEP_PREFETCH, WL_TO_GPU, 0, 40 * 1024, 0, &log);
    for (unsigned p = 0; p < 5; p++) rig_walk(g->r, engine_now(g->r->e), PG(p), REQ_STORE);
    rig_run(g->r);
    sim_time t = engine_now(g->r->e);
    host_step(g, WL_STEP_PREFETCH, WL_TO_HOST, 0, 40 * 1024, 0, &log);
    ck_assert_uint_eq(log.n, 2);
    ck_assert_uint_eq(log.done[1] - t, 5 * PAGE_WIRE_PS + LAT_PS);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_to_host"), 10);
    ck_assert_uint_eq(rig_counter(g->r, "driver.writebacks"), 5);
    ck_assert_uint_eq(rig_counter(g->r, "driver.step_d2h_bytes"), 5 * 4096);
    for (unsigned p = 0; p < 10; p++) ck_assert(!gmmu_is_resident(g->r->gmmu, PG(p) >> 12));
    host_step(g, WL_STEP_PREFETCH, WL_TO_GPU, 0, 4 << 20, 0, &log);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pmm.chunks_2m"), 2);
    ck_assert_uint_eq(rig_counter(g->r, "driver.evictions"), 0);
    drig_free(g);
}
END_TEST

/* ---- cyclic sweeps on the whole machine ---- */

static struct config *load(const char *const *sets, size_t n)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    if (!c) ck_abort_msg("config: %s", err.msg);
    return c;
}

static uint64_t sys_counter(struct system *s, const char *name)
{
    const struct stat_entry *st = stats_find(system_stats(s), name);
    ck_assert_msg(st && st->kind == STAT_COUNTER, "no counter %s", name);
    return *st->p.u;
}

#define SWEEP_PAGES 80      /* 1.25 x the 64-page memory */
#define SWEEP_PASSES 3

/* One warp reading one page per instruction (lane stride 128 B), pages in
 * order, 3 passes over 80 pages with 64 frames.  FIFO and LRU both evict
 * the page touched longest ago, which is the next one the sweep needs, so
 * every page of every pass faults: 3 x 80 = 240 faults, 240 - 64 = 176
 * evictions (pass 1: pages 0..15; passes 2 and 3: all 80 pages each).
 * Premature evictions are those whose page faults again later: every one
 * but the last 16 (pages 0..15, pushed out by pages 64..79 of pass 3; the
 * others, e.g. page 16 evicted by page 0 of pass 3, fault later in the same
 * pass): 176 - 16 = 160. */
static struct system *sweep(const char *policy, unsigned seed, struct config **c)
{
    char ev[64], sd[64];
    snprintf(ev, sizeof ev, "driver.eviction=%s", policy);
    snprintf(sd, sizeof sd, "sim.seed=%u", seed);
    const char *sets[] = {
        "workload.stream.footprint=320KiB", "workload.stream.grid=1",
        "workload.stream.block=32", "workload.stream.lane_stride=128B",
        "workload.stream.passes=3", "workload.stream.op=read",
        "gpu.memory.capacity=256KiB", ev, sd,
    };
    *c = load(sets, NSETS(sets));
    struct system *s = system_build(*c);
    ck_assert_int_eq(system_run(s), RUN_COMPLETED);
    ck_assert_uint_eq(sys_counter(s, "driver.faults") + sys_counter(s, "gmmu.flushed_faults"),
                      sys_counter(s, "gmmu.faults"));
    ck_assert_uint_eq(sys_counter(s, "driver.pages_mapped"), sys_counter(s, "driver.pages_migrated"));
    return s;
}

START_TEST(cyclic_sweep_fifo_lru_fault_every_page)
{
    static const char *const pol[] = { "fifo", "lru" };
    for (int i = 0; i < 2; i++) {
        struct config *c;
        struct system *s = sweep(pol[i], 1, &c);
        ck_assert_uint_eq(sys_counter(s, "gmmu.faults"), SWEEP_PASSES * SWEEP_PAGES);
        ck_assert_uint_eq(sys_counter(s, "driver.evictions"), SWEEP_PASSES * SWEEP_PAGES - 64);
        ck_assert_uint_eq(sys_counter(s, "driver.premature_evictions"), 176 - 16);
        system_free(s);
        config_free(c);
    }
}
END_TEST

START_TEST(cyclic_sweep_random_faults_less)
{
    uint64_t sum = 0;
    for (unsigned seed = 1; seed <= 5; seed++) {
        struct config *c;
        struct system *s = sweep("random", seed, &c);
        uint64_t f = sys_counter(s, "gmmu.faults");
        ck_assert_uint_le(f, SWEEP_PASSES * SWEEP_PAGES);
        ck_assert_uint_ge(f, SWEEP_PAGES + 2 * (SWEEP_PAGES - 64));
        sum += f;
        system_free(s);
        config_free(c);
    }
    ck_assert_uint_lt(sum, 5 * SWEEP_PASSES * SWEEP_PAGES);
}
END_TEST

/* Rodinia bfs on the whole machine: the host copies its six arrays in, then
 * per level copies the over flag in, runs two kernels, copies it out, and
 * at the end copies the costs out (workloads/rodinia_bfs.c after bfs.cu).
 * So the driver runs 6 + 2 x levels + 1 = 7 + kernels host steps, and with
 * memory for everything no kernel access faults: every page was copied in
 * before the first kernel touched it. */
START_TEST(bfs_host_steps_run_in_program_order)
{
    const char *sets[] = { "workload.kind=bfs", "workload.bfs.nodes=3000",
                           "gpu.memory.capacity=64MiB" };
    struct config *c = load(sets, NSETS(sets));
    struct system *s = system_build(c);
    ck_assert_int_eq(system_run(s), RUN_COMPLETED);
    uint64_t kernels = sys_counter(s, "gpu.kernels");
    ck_assert_uint_gt(kernels, 0);
    ck_assert_uint_eq(sys_counter(s, "driver.host_steps"), 7 + kernels);
    ck_assert_uint_eq(sys_counter(s, "gmmu.faults"), 0);
    ck_assert_uint_gt(sys_counter(s, "driver.step_h2d_bytes"), 3000 * 8);
    system_free(s);
    config_free(c);
}
END_TEST

static Suite *driver_suite(void)
{
    Suite *s = suite_create("driver");
    TCase *tc = tcase_create("timed");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, batch_timeline_by_hand);
    tcase_add_test(tc, fault_and_block_costs);
    tcase_add_test(tc, tree_prefetch_262_brings_the_block);
    tcase_add_test(tc, seq_prefetch_brings_each_64k_block);
    tcase_add_test(tc, replay_block_answers_each_block_at_its_landing);
    tcase_add_test(tc, replay_batch_flush_and_once_differ_by_hand);
    tcase_add_test(tc, replay_block_waits_for_the_whole_block);
    tcase_add_test(tc, flush_with_waiting_faults_keeps_order_and_count);
    tcase_add_test(tc, batches_per_wake_yields_to_the_interrupt);
    tcase_add_test(tc, eviction_serialised_before_migration);
    tcase_add_test(tc, prefetch_larger_than_memory_is_dropped);
    tcase_add_test(tc, host_steps_prefetch_memcpy_advise);
    tcase_add_test(tc, accessed_by_keeps_the_gpu_mapped);
    tcase_add_test(tc, whole_block_prefetch_takes_a_root_chunk);
    tcase_add_test(tc, prefetch_to_host_moves_pages_out);
    tcase_add_test(tc, bfs_host_steps_run_in_program_order);
    tcase_add_test(tc, cyclic_sweep_fifo_lru_fault_every_page);
    tcase_add_test(tc, cyclic_sweep_random_faults_less);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(driver_suite()); }

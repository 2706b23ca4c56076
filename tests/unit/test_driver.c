/* The timed driver (sim/driver drv_*.c) against hand-derived batch
 * timelines, prefetch outcomes and eviction counts.  Walks go straight into
 * the real walker of the translation rig (fixed 8-cycle walks at 1 GHz); the
 * real link carries the copies: a 4 KiB page is 16 TLPs of 256 B payload +
 * 24 B header = 4480 B on a 16 GB/s wire = 280 ns, and lands 1 us
 * (link.latency) later; a run of n contiguous pages is one transfer of
 * n x 280 ns + 1 us (no copy-engine setup, link.ce_setup = 0).  The rig
 * pins the link to that bare packet model in both directions (no line
 * code, no DLLPs, completions as large and with the same header as
 * writes); the read requests of H2D copies (24 B per 4 KiB) go D2H. */
#include <stdlib.h>
#include "xlate_rig.h"
#include "suite_main.h"
#include <stdlib.h>
#include "system.h"
#include "driver/driver.h"
#include "workloads/workload.h"

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
        "link.ce_setup=0ns", "link.encoding=none", "link.dllp_interval=0", "link.rcb=0",
        "link.completion_header=24B", "link.max_read_request=4KiB",
        "gmmu.access_counters.enabled=false",
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

/* The CPU-side service costs (issue 40), a serial one-warp sequence by
 * hand: page 0 at t = 0, page 1 at 500 us (same VA block), page 512 at
 * 1000 us (a new block), each its own batch (the previous has ended).
 * Costs: 2 us per page migrated, 30 us per VA block first serviced,
 * 100 us on the run's first batch.  A batch's time is
 *   fault_latency 20 us [+ 100 us first batch] + 2 us x pages
 *   [+ 30 us new block] + the copy (280 ns + 1 us per page),
 * from the walk's fault at 8 cycles after the access:
 *   batch 1: 20 + 100 + 2 + 30 + 1.28 = 153.28 us  (handling 120 us)
 *   batch 2: 20 + 2 + 1.28            =  23.28 us  (handling  20 us)
 *   batch 3: 20 + 2 + 30 + 1.28       =  53.28 us  (handling  20 us) */
START_TEST(service_costs_serial)
{
    static const char *const extra[] = { "driver.page_cost=2us", "driver.new_block_cost=30us",
                                         "driver.first_fault_cost=100us" };
    struct drig *g = drig_new(extra, NSETS(extra));
    rig_walk(g->r, 0, PG(0), REQ_LOAD);
    rig_walk(g->r, 500 * US, PG(1), REQ_LOAD);
    rig_walk(g->r, 1000 * US, PG(512), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 3);
    const uint64_t copy = PAGE_WIRE_PS + LAT_PS;
    const uint64_t start[3] = { 8 * CYC, 500 * US + 8 * CYC, 1000 * US + 8 * CYC };
    const uint64_t busy[3] = { 152 * US, 22 * US, 52 * US };
    const uint64_t handling[3] = { 120 * US, 20 * US, 20 * US };
    for (size_t i = 0; i < 3; i++) {
        ck_assert_uint_eq(brow(g->r, i, "start_ps"), start[i]);
        ck_assert_uint_eq(brow(g->r, i, "handling_ps"), handling[i]);
        ck_assert_uint_eq(brow(g->r, i, "end_ps"), start[i] + busy[i] + copy);
    }
    assert_conserved(g);
    drig_free(g);
}
END_TEST

/* The per-page cost scales with the pages a block migrates, before its
 * copies start: 10 pages of one block in one batch at 1 us each, then one
 * 10-page transfer: 20 + 10 + 10 x 0.28 + 1 us.  With every cost 0 the
 * same batch is 20 + 2.8 + 1 us (nothing waits). */
START_TEST(page_cost_per_page)
{
    static const char *const extra[] = { "driver.page_cost=1us" };
    for (int costed = 0; costed < 2; costed++) {
        struct drig *g = drig_new(extra, costed ? NSETS(extra) : 0);
        for (unsigned i = 0; i < 10; i++) rig_walk(g->r, 0, PG(i), REQ_LOAD);
        rig_run(g->r);
        ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 1);
        ck_assert_uint_eq(brow(g->r, 0, "end_ps"),
                          8 * CYC + FAULT_PS + (costed ? 10 * US : 0) + 10 * PAGE_WIRE_PS + LAT_PS);
        assert_conserved(g);
        drig_free(g);
    }
}
END_TEST

/* Tree prefetch over one 2 MiB block, each faulted page counted as its
 * whole 64 KiB big page (grow_fault_granularity).  Phase 1 faults pages
 * 0..127 (in one batch or several, as the walks log them): 0..127
 * qualifies (128/128), 0..255 does not (12800 <= 51 x 256 = 13056), so
 * 128 pages.  Phase 2 faults the first page of k big pages
 * from page 256 on: the tree counts 128 + 16k.  k = 8: 256..383 qualifies
 * (128/128), 256..511 and the root do not (128/256, 256/512): 128 more,
 * 256 in all.  k = 9: the root holds 272 (27200 > 51 x 512 = 26112): the
 * whole block, 512 pages. */
static uint64_t tree_pages(unsigned k)
{
    static const char *const extra[] = { "driver.prefetch=tree", "gpu.memory.capacity=4MiB" };
    struct drig *g = drig_new(extra, NSETS(extra));
    for (unsigned i = 0; i < 128; i++) rig_walk(g->r, 0, PG(i), REQ_LOAD);
    for (unsigned j = 0; j < k; j++) rig_walk(g->r, 200 * US, PG(256 + 16 * j), REQ_LOAD);
    rig_run(g->r);
    uint64_t migrated = rig_counter(g->r, "driver.pages_migrated");
    ck_assert_uint_eq(rig_counter(g->r, "driver.evictions"), 0);
    assert_conserved(g);
    drig_free(g);
    return migrated;
}

START_TEST(tree_prefetch_262_brings_the_block)
{
    ck_assert_uint_eq(tree_pages(9), 512);
    ck_assert_uint_eq(tree_pages(8), 256);
}
END_TEST

/* Issue 11 point 4a: 17 faults in 17 big pages (pages 0, 16, ..., 256) in
 * one batch count 17 x 16 = 272 pages: the whole block, 512 pages, 495 of
 * them prefetched, in one 2 MiB root chunk and one transfer:
 * 8 ns + 20 us + 512 x 280 ns + 1 us.  (Growing only the output gave 272.) */
START_TEST(tree_prefetch_17_faults_in_17_big_pages)
{
    static const char *const extra[] = { "driver.prefetch=tree" };
    struct drig *g = drig_new(extra, NSETS(extra));
    for (unsigned b = 0; b < 17; b++) rig_walk(g->r, 0, PG(16 * b), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 512);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_prefetched"), 495);
    ck_assert_uint_eq(rig_counter(g->r, "driver.h2d_transfers"), 1);
    ck_assert_uint_eq(brow(g->r, 0, "end_ps"), 8 * CYC + FAULT_PS + 512 * PAGE_WIRE_PS + LAT_PS);
    assert_conserved(g);
    drig_free(g);
}
END_TEST

/* Point 4b: an allocation of 2 MiB + 100 KiB: its second VA block is 25
 * pages (512..536), one whole big page and a 9-page suffix.  A fault on
 * its last page (536) brings the suffix, pages 528..536, one run of 9
 * pages: 20 us + 9 x 280 ns + 1 us; page 537 and beyond, outside the
 * allocation, never (the old 512-page block brought 528..543).  seq does
 * the same. */
static void short_block(const char *prefetch)
{
    char set[64];
    snprintf(set, sizeof set, "driver.prefetch=%s", prefetch);
    const char *extra[] = { set };
    struct drig *g = drig_new(extra, 1);
    struct workload wl = { .nallocs = 1, .footprint = (2 << 20) + 100 * 1024 };
    wl.allocs[0] = (struct wl_alloc){ "a", (2 << 20) + 100 * 1024, PG(0), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
    driver_set_workload(g->d, &wl);
    rig_walk(g->r, 0, PG(536), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 9);
    for (unsigned p = 528; p <= 536; p++) ck_assert(gmmu_is_resident(g->r->gmmu, PG(p) >> 12));
    for (unsigned p = 537; p < 544; p++) ck_assert(!gmmu_is_resident(g->r->gmmu, PG(p) >> 12));
    ck_assert_uint_eq(brow(g->r, 0, "end_ps"), 8 * CYC + FAULT_PS + 9 * PAGE_WIRE_PS + LAT_PS);
    assert_conserved(g);
    drig_free(g);
}

START_TEST(prefetch_stays_inside_a_short_block)
{
    short_block("tree");
    short_block("seq");
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
 * + 1 us + 8 ns).  Batch 2 evicts page 0: its D2H write-back (280 ns +
 * 1 us) lands before page 1's H2D copy starts: batch 2 ends at t1 + 20 us
 * + 2 x 1.28 us.  Read instead of written, the page is copied back all the
 * same by default (issue 11 point 3: the real driver's
 * uvm_va_block_evict_chunks copies every evicted page), but dropped with
 * driver.drop_clean: t1 + 20 us + 1.28 us. */
static sim_time evict_timeline(enum req_kind first, const char *drop, uint64_t *wb)
{
    const char *extra[] = { "gpu.memory.capacity=4KiB", drop };
    struct drig *g = drig_new(extra, drop ? 2 : 1);
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
    /* The default: an evicted clean page costs its D2H copy. */
    ck_assert_uint_eq(evict_timeline(REQ_LOAD, NULL, &wb), FAULT_PS + 2 * one);
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
    st.host = (struct wl_host_step){ 0, offset, bytes, dir, adv, false, false };
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
    wl.allocs[0] = (struct wl_alloc){ "a", 256 * 1024, PG(0), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
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
    st.host = (struct wl_host_step){ 0, 0, 256 * 1024, WL_TO_GPU, WL_ADV_READ_MOSTLY, true, false };
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

/* cudaMemPrefetchAsync runs the fault path's per-page and new-block CPU
 * work (uvm_migrate -> uvm_va_block_make_resident), a memcpy and the
 * Baseline's cudaMalloc stand-in (host.device) none, and the first-fault
 * cost stays with the first fault batch.  Costs 2 us per page, 30 us per
 * new VA block, 100 us first batch; a 4 MiB allocation (blocks 0 and 1):
 *   prefetch pages 0..9 (block 0, new):  2 x 10 + 30 = 50 us, then the
 *     copy 10 x 280 ns + 1 us;
 *   prefetch pages 10..19 (block 0 again): 20 us + the copy;
 *   memcpy H2D pages 20..29: the copy only;
 *   device prefetch pages 512..521 (block 1): the copy only;
 *   a fault on page 40 (block 0, seen): handling 20 + 100 us, then 2 us
 *     and one page's copy. */
START_TEST(prefetch_pays_the_service_costs)
{
    static const char *const extra[] = { "driver.page_cost=2us", "driver.new_block_cost=30us",
                                         "driver.first_fault_cost=100us" };
    struct drig *g = drig_new(extra, NSETS(extra));
    struct workload wl = { .nallocs = 1, .footprint = 4 << 20 };
    wl.allocs[0] = (struct wl_alloc){ "a", 4 << 20, PG(0), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
    driver_set_workload(g->d, &wl);
    struct step_log log = { {0}, 0 };
    const uint64_t copy10 = 10 * PAGE_WIRE_PS + LAT_PS;
    host_step(g, WL_STEP_PREFETCH, WL_TO_GPU, 0, 40 * 1024, 0, &log);
    ck_assert_uint_eq(log.done[0], 50 * US + copy10);
    host_step(g, WL_STEP_PREFETCH, WL_TO_GPU, 40 * 1024, 40 * 1024, 0, &log);
    ck_assert_uint_eq(log.done[1] - log.done[0], 20 * US + copy10);
    host_step(g, WL_STEP_MEMCPY, WL_TO_GPU, 80 * 1024, 40 * 1024, 0, &log);
    ck_assert_uint_eq(log.done[2] - log.done[1], copy10);
    struct wl_step st = { .kind = WL_STEP_PREFETCH };
    st.host = (struct wl_host_step){ 0, 2 << 20, 40 * 1024, WL_TO_GPU, WL_ADV_NONE, false, true };
    driver_host_step(g->d, &st, step_done, &log, engine_now(g->r->e));
    rig_run(g->r);
    ck_assert_uint_eq(log.n, 4);
    ck_assert_uint_eq(log.done[3] - log.done[2], copy10);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 40);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 0);
    sim_time t = engine_now(g->r->e);
    rig_walk(g->r, t, PG(40), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 1);
    ck_assert_uint_eq(brow(g->r, 0, "start_ps"), t + 8 * CYC);
    ck_assert_uint_eq(brow(g->r, 0, "handling_ps"), 120 * US);
    ck_assert_uint_eq(brow(g->r, 0, "end_ps"), t + 8 * CYC + 122 * US + PAGE_WIRE_PS + LAT_PS);
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
    wl.allocs[0] = (struct wl_alloc){ "a", 256 * 1024, PG(0), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
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
    wl.allocs[0] = (struct wl_alloc){ "a", 2 << 20, PG(0), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
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
 * GPU, pages 0..4 written, then the 10 sent home.  Every page goes back
 * (driver.drop_clean off, the real driver's behaviour; re-derived for
 * issue 11 from 5 written pages): one D2H run of 10 pages, 10 x 280 ns +
 * 1 us; all 10 leave GPU memory and their frames merge back, so the whole
 * 4 MiB then takes 2 root chunks. */
START_TEST(prefetch_to_host_moves_pages_out)
{
    struct drig *g = drig_new(NULL, 0);
    struct workload wl = { .nallocs = 1, .footprint = 4 << 20 };
    wl.allocs[0] = (struct wl_alloc){ "a", 4 << 20, PG(0), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
    driver_set_workload(g->d, &wl);
    struct step_log log = { {0}, 0 };
    host_step(g, WL_STEP_PREFETCH, WL_TO_GPU, 0, 40 * 1024, 0, &log);
    for (unsigned p = 0; p < 5; p++) rig_walk(g->r, engine_now(g->r->e), PG(p), REQ_STORE);
    rig_run(g->r);
    sim_time t = engine_now(g->r->e);
    host_step(g, WL_STEP_PREFETCH, WL_TO_HOST, 0, 40 * 1024, 0, &log);
    ck_assert_uint_eq(log.n, 2);
    ck_assert_uint_eq(log.done[1] - t, 10 * PAGE_WIRE_PS + LAT_PS);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_to_host"), 10);
    ck_assert_uint_eq(rig_counter(g->r, "driver.writebacks"), 10);
    ck_assert_uint_eq(rig_counter(g->r, "driver.step_d2h_bytes"), 10 * 4096);
    for (unsigned p = 0; p < 10; p++) ck_assert(!gmmu_is_resident(g->r->gmmu, PG(p) >> 12));
    host_step(g, WL_STEP_PREFETCH, WL_TO_GPU, 0, 4 << 20, 0, &log);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pmm.chunks_2m"), 2);
    ck_assert_uint_eq(rig_counter(g->r, "driver.evictions"), 0);
    drig_free(g);
}
END_TEST

/* ---- the real driver's GPU memory (driver.evict_unit=chunk) ---- */

static struct drig *chunk_rig(const char *unit, uint64_t alloc_bytes)
{
    char set[64];
    snprintf(set, sizeof set, "driver.evict_unit=%s", unit);
    const char *extra[] = { set, "gpu.memory.capacity=4MiB" };
    struct drig *g = drig_new(extra, 2);
    if (alloc_bytes) {
        struct workload wl = { .nallocs = 1, .footprint = alloc_bytes };
        wl.allocs[0] = (struct wl_alloc){ "a", alloc_bytes, PG(0), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
        driver_set_workload(g->d, &wl);
    }
    return g;
}

/* Issue 11 point 5: two root chunks of memory, a 6 MiB allocation (three
 * full VA blocks A = pages 0.., B = 512.., C = 1024..).  Batch 1 faults A's
 * pages 0, 1, 2, 100 (all logged at t0 = 8 ns): A takes a whole root chunk
 * (first touch), two runs, ends at E1 = t0 + 20 us + 4 x 280 ns + 1 us.
 * Batch 2 (B's page 512, 1 us after E1) takes the second root.  Batch 3
 * faults A's page 200 after B: it lands in A's chunk (no allocation, and
 * the root does not move: the list is by age, never refreshed by use).
 * Batch 4 (C's page 1024) finds no free chunk and evicts the head of the
 * list, A's root, whole: its 5 resident pages, every one copied back
 * (drop_clean off) as 3 D2H runs (0..2, 100, 200) on one copy engine, the
 * last landing 5 x 280 ns + 1 us after the handling; then page 1024's H2D
 * copy into the freed root: batch 4 takes 20 us + 2.4 us + 1.28 us. */
START_TEST(chunk_root_per_block_evicted_whole_by_age)
{
    struct drig *g = chunk_rig("chunk", 6 << 20);
    struct rig *r = g->r;
    const sim_time one = PAGE_WIRE_PS + LAT_PS, t0 = 8 * CYC;
    const sim_time e1 = t0 + FAULT_PS + 4 * PAGE_WIRE_PS + LAT_PS;
    const sim_time s2 = e1 + LAT_PS + t0, e2 = s2 + FAULT_PS + one;
    const sim_time s3 = e2 + LAT_PS + t0, e3 = s3 + FAULT_PS + one;
    const sim_time s4 = e3 + LAT_PS + t0;
    static const unsigned a[] = { 0, 1, 2, 100 };
    for (unsigned i = 0; i < 4; i++) rig_walk(r, 0, PG(a[i]), REQ_LOAD);
    rig_walk(r, e1 + LAT_PS, PG(512), REQ_LOAD);
    rig_walk(r, e2 + LAT_PS, PG(200), REQ_LOAD);
    rig_walk(r, e3 + LAT_PS, PG(1024), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_counter(r, "driver.batches"), 4);
    ck_assert_uint_eq(brow(r, 0, "end_ps"), e1);
    ck_assert_uint_eq(brow(r, 2, "end_ps"), e3);
    ck_assert_uint_eq(brow(r, 3, "start_ps"), s4);
    ck_assert_uint_eq(brow(r, 3, "end_ps"), s4 + FAULT_PS + 5 * PAGE_WIRE_PS + LAT_PS + one);
    ck_assert_uint_eq(brow(r, 3, "evictions"), 5);
    ck_assert_uint_eq(brow(r, 3, "d2h_bytes"), 5 * 4096);
    ck_assert_uint_eq(rig_counter(r, "driver.pmm.chunks_2m"), 3);
    ck_assert_uint_eq(rig_counter(r, "driver.pmm.root_evictions"), 1);
    ck_assert_uint_eq(rig_counter(r, "driver.evictions"), 5);
    ck_assert_uint_eq(rig_counter(r, "driver.writebacks"), 5);
    for (unsigned i = 0; i < 4; i++) ck_assert(!gmmu_is_resident(r->gmmu, PG(a[i]) >> 12));
    ck_assert(!gmmu_is_resident(r->gmmu, PG(200) >> 12));
    ck_assert(gmmu_is_resident(r->gmmu, PG(512) >> 12));
    /* C's page sits at its offset in the root A left. */
    uint64_t f = gmmu_frame_of(r->gmmu, PG(1024) >> 12);
    ck_assert_uint_eq(f, 0);
    ck_assert_uint_eq(gmmu_frame_of(r->gmmu, PG(512) >> 12) % 512, 0);
    assert_conserved(g);
    drig_free(g);
}
END_TEST

/* Park et al. (WIP) on the real driver's list: 8 MiB of memory = 4 root
 * chunks, a 10 MiB allocation of 5 VA blocks, one page of each touched in
 * the cycle 0,1,2,3,4,0,... one fault at a time.  FIFO over roots evicts
 * the block touched next, so every touch faults.  Cyclic pinning (roots =
 * 4: min_group ceil(5 % x 4) = 1, budget floor(25 % x 4) = 1 root, ratio
 * 75 %): touch t faults block t mod 5; from touch 4 on, it evicts block
 * (t - 4) mod 5, the e-th eviction block (e - 1) mod 5.  Evictions 1-5 put
 * every block in group 1; eviction 6 makes groups {1: 4, 2: 1}, 7 {3, 2}
 * (2 < 0.75 x 3), 8 {2, 3} (3 >= 1.5): thrashing at eviction 8 (touch 11).
 * Touch 12 (block 2) finds the list 3,4,0,1: root of block 3 is held, block
 * 4's evicted.  Block 3 never faults again; the other four cycle through 3
 * roots, every touch a fault.  33 touches: FIFO 33 faults, pinning 13 + 4 x
 * 4 = 29; the table of root evictions lists blocks 0..4 first, in order. */
static uint64_t cyclic_roots_run(const char *policy, uint64_t *pinned, uint64_t *first5)
{
    char pol[64], mode[64];
    snprintf(pol, sizeof pol, "driver.eviction=%s", strcmp(policy, "shuffle") ? policy : "cyclic");
    snprintf(mode, sizeof mode, "driver.evict.cyclic.mode=%s", strcmp(policy, "shuffle") ? "pin" : "shuffle");
    const char *extra[] = { "driver.evict_unit=chunk", "gpu.memory.capacity=8MiB", pol,
                            mode, "driver.prefetch=none" };
    struct drig *g = drig_new(extra, NSETS(extra));
    struct workload wl = { .nallocs = 1, .footprint = 10 << 20 };
    wl.allocs[0] = (struct wl_alloc){ "a", 10 << 20, PG(0), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
    driver_set_workload(g->d, &wl);
    for (unsigned t = 0; t < 33; t++) {
        rig_walk(g->r, engine_now(g->r->e) + 1000, PG((t % 5) * 512), REQ_LOAD);
        rig_run(g->r);
    }
    uint64_t faults = rig_counter(g->r, "driver.faults");
    ck_assert_uint_eq(rig_counter(g->r, "driver.pmm.root_evictions"), faults - 4);
    const struct rec_table *t = NULL;
    for (size_t i = 0; i < stats_table_count(g->r->st); i++)
        if (!strcmp(stats_table_at(g->r->st, i)->name, "driver_root_evictions")) t = stats_table_at(g->r->st, i);
    ck_assert(t && t->nrows == faults - 4);
    for (size_t i = 0; i < 5; i++) memcpy(&first5[i], t->rows + i * t->row_bytes + 16, 8);
    *pinned = !strcmp(policy, "cyclic") ? rig_counter(g->r, "evict.cyclic.pinned")
            : !strcmp(policy, "shuffle") ? rig_counter(g->r, "evict.cyclic.shuffles") : 0;
    assert_conserved(g);
    drig_free(g);
    return faults;
}

START_TEST(cyclic_pins_root_chunks_of_the_real_driver_list)
{
    uint64_t pinned, blocks[5];
    ck_assert_uint_eq(cyclic_roots_run("fifo", &pinned, blocks), 33);
    for (unsigned i = 0; i < 5; i++) ck_assert_uint_eq(blocks[i], PG(i * 512));
    ck_assert_uint_eq(cyclic_roots_run("cyclic", &pinned, blocks), 29);
    ck_assert_uint_eq(pinned, 1);
    for (unsigned i = 0; i < 5; i++) ck_assert_uint_eq(blocks[i], PG(i * 512));
    /* Shuffling: declared at the same eviction 8 (the same age order until
     * then), the USED list permuted there and after every 4 root evictions
     * while detections go on.  Any order but the age order keeps a block
     * the cycle reuses: fewer than 33 faults; and never fewer than MIN's
     * on this cycle: faults at touches 0-4, then (evicting the block
     * needed furthest ahead) one every 4 touches, t = 8, 12, ..., 32: 12. */
    uint64_t shuffles, f = cyclic_roots_run("shuffle", &shuffles, blocks);
    ck_assert_uint_ge(shuffles, 1);
    ck_assert_uint_lt(f, 33);
    ck_assert_uint_ge(f, 12);
}
END_TEST

/* Point 5, TLB reach.  Chunk unit: pages 0..15 (a whole big page) fault in
 * one batch and land as one run in their root chunk: one 64 KiB PTE, so a
 * translation of page 3 through the TLBs is 64 KiB and one of page 9 then
 * hits the L1 TLB.  Pages 16..23 land as 4 KiB PTEs; with 24..31 big page 1
 * is whole and merges to 64 KiB.  A prefetch of the whole block brings the
 * other 480 pages (30 big pages mapped 64 KiB at once) and the block,
 * resident whole in its root, merges to one 2 MiB PTE.  A prefetch of pages
 * 0..15 to the host splits it back into 64 KiB pages (page 16 stays mapped
 * at 64 KiB) and copies the 16 pages back in one run.  Page unit (the
 * papers' 4 KiB machines): the same faults map 4 KiB PTEs only. */
static void pte_sizes(bool chunk)
{
    struct drig *g = chunk_rig(chunk ? "chunk" : "page", 2 << 20);
    struct rig *r = g->r;
    const sim_time per = FAULT_PS + 30 * US;
    for (unsigned i = 0; i < 16; i++) rig_walk(r, 0, PG(i), REQ_LOAD);
    for (unsigned i = 16; i < 24; i++) rig_walk(r, per, PG(i), REQ_LOAD);
    rig_send(r, 2 * per, 0, PG(3), REQ_LOAD);
    rig_send(r, 2 * per + 100 * CYC, 0, PG(9), REQ_LOAD);
    rig_walk(r, 2 * per, PG(17), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_ans(r, PG(3), 1)->size, chunk ? 65536 : 4096);
    ck_assert_uint_eq(rig_ans(r, PG(17), 1)->size, 4096);
    ck_assert_uint_eq(rig_counter(r, "tlb.l1.hits"), chunk ? 1 : 0);
    for (unsigned i = 24; i < 32; i++) rig_walk(r, engine_now(r->e), PG(i), REQ_LOAD);
    rig_run(r);
    rig_walk(r, engine_now(r->e), PG(17), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_ans(r, PG(17), 2)->size, chunk ? 65536 : 4096);
    ck_assert_uint_eq(rig_counter(r, "driver.ptes_64k"), chunk ? 2 : 0);
    if (!chunk) {
        assert_conserved(g);
        drig_free(g);
        return;
    }
    struct step_log log = { {0}, 0 };
    host_step(g, WL_STEP_PREFETCH, WL_TO_GPU, 0, 2 << 20, 0, &log);
    ck_assert_uint_eq(rig_counter(r, "driver.ptes_64k"), 2 + 30);
    ck_assert_uint_eq(rig_counter(r, "driver.ptes_2m"), 1);
    rig_walk(r, engine_now(r->e), PG(300), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_ans(r, PG(300), 0)->size, 2 << 20);
    sim_time t = engine_now(r->e);
    host_step(g, WL_STEP_PREFETCH, WL_TO_HOST, 0, 64 * 1024, 0, &log);
    ck_assert_uint_eq(log.done[1] - t, 16 * PAGE_WIRE_PS + LAT_PS);
    ck_assert_uint_eq(rig_counter(r, "driver.writebacks"), 16);
    ck_assert(!gmmu_is_resident(r->gmmu, PG(0) >> 12));
    rig_walk(r, engine_now(r->e), PG(16), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_ans(r, PG(16), 1)->size, 65536);
    drig_free(g);
}

START_TEST(large_ptes_where_the_residency_allows)
{
    pte_sizes(true);
    pte_sizes(false);
}
END_TEST

/* driver.evict_unit=chunk evicts in the real driver's order only. */
START_TEST(chunk_unit_needs_fifo)
{
    struct cfg_error err;
    const char *sets[] = { "driver.evict_unit=chunk", "driver.eviction=lru" };
    struct config *c = config_load(NULL, sets, 2, &err);
    ck_assert_ptr_null(c);
    ck_assert_ptr_nonnull(strstr(err.msg, "driver.evict_unit"));
    ck_assert_ptr_nonnull(strstr(err.msg, "lru"));
}
END_TEST

/* ---- per-page wake-up (driver.replay_policy=page) ---- */

/* Issue 11 point 7: pages 0 and 2 of one block fault at t0 = 8 ns: one
 * batch, one copy each.  Page 0 lands at L1 = t0 + 20 us + 280 ns + 1 us,
 * page 2 at L1 + 280 ns, when the batch ends.  page answers page 0 at L1,
 * before the batch ends; block (and the batch policies) at L1 + 280 ns. */
START_TEST(page_replay_wakes_each_page_at_its_landing)
{
    static const char *const pol[] = { "page", "block", "batch_flush" };
    const sim_time l1 = 8 * CYC + FAULT_PS + PAGE_WIRE_PS + LAT_PS, l2 = l1 + PAGE_WIRE_PS;
    for (int i = 0; i < 3; i++) {
        char set[64];
        snprintf(set, sizeof set, "driver.replay_policy=%s", pol[i]);
        const char *extra[] = { set };
        struct drig *g = drig_new(extra, 1);
        rig_walk(g->r, 0, PG(0), REQ_LOAD);
        rig_walk(g->r, 0, PG(2), REQ_LOAD);
        rig_run(g->r);
        ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 1);
        ck_assert_uint_eq(brow(g->r, 0, "end_ps"), l2);
        ck_assert_uint_eq(rig_ans(g->r, PG(0), 0)->t, i == 0 ? l1 : l2);
        ck_assert_uint_eq(rig_ans(g->r, PG(2), 0)->t, l2);
        ck_assert_uint_eq(rig_counter(g->r, "driver.replays"), i == 0 ? 0 : 1);
        assert_conserved(g);
        drig_free(g);
    }
}
END_TEST

/* 64 KiB driver pages with per-page wake-up, as configs/batch-aware-table1:
 * faults on pages 0 and 5 (one 64 KiB page: 2 entries, 1 fault after
 * coalescing) and 16 (the next) at t0.  Each 64 KiB page is one copy of
 * 16 x 280 ns: the first lands at L1 = t0 + 20 us + 4.48 us + 1 us and
 * wakes pages 0 and 5 then, mapped as one 64 KiB page; the second 4.48 us
 * later, the batch's end. */
START_TEST(page_replay_with_64k_pages)
{
    static const char *const extra[] = { "driver.replay_policy=page", "driver.page_size=64KiB" };
    struct drig *g = drig_new(extra, NSETS(extra));
    rig_walk(g->r, 0, PG(0), REQ_LOAD);
    rig_walk(g->r, 0, PG(5), REQ_STORE);
    rig_walk(g->r, 0, PG(16), REQ_LOAD);
    rig_run(g->r);
    const sim_time l1 = 8 * CYC + FAULT_PS + 16 * PAGE_WIRE_PS + LAT_PS, l2 = l1 + 16 * PAGE_WIRE_PS;
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 1);
    ck_assert_uint_eq(brow(g->r, 0, "faults"), 3);
    ck_assert_uint_eq(brow(g->r, 0, "pages"), 2);
    ck_assert_uint_eq(rig_counter(g->r, "driver.duplicate_faults"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 32);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_prefetched"), 0);
    ck_assert_uint_eq(rig_counter(g->r, "driver.h2d_transfers"), 2);
    ck_assert_uint_eq(brow(g->r, 0, "end_ps"), l2);
    ck_assert_uint_eq(rig_ans(g->r, PG(0), 0)->t, l1);
    ck_assert_uint_eq(rig_ans(g->r, PG(5), 0)->t, l1);
    ck_assert_uint_eq(rig_ans(g->r, PG(5), 0)->size, 65536);
    ck_assert_uint_eq(rig_ans(g->r, PG(16), 0)->t, l2);
    assert_conserved(g);
    drig_free(g);
}
END_TEST

/* A 64 KiB driver page is evicted whole and copied back in one transfer:
 * 64 KiB of memory, page 0's 64 KiB page (batch 1), then page 16's 1 us
 * after batch 1's end: batch 2 evicts the first (16 pages, one D2H of
 * 16 x 280 ns + 1 us) before copying the second in:
 * 20 us + 2 x (4.48 us + 1 us). */
START_TEST(page_size_64k_evicts_whole_pages)
{
    static const char *const extra[] = { "driver.page_size=64KiB", "gpu.memory.capacity=64KiB" };
    struct drig *g = drig_new(extra, NSETS(extra));
    const sim_time per = 16 * PAGE_WIRE_PS + LAT_PS, e1 = 8 * CYC + FAULT_PS + per;
    rig_walk(g->r, 0, PG(0), REQ_LOAD);
    rig_walk(g->r, e1 + LAT_PS, PG(16), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 2);
    ck_assert_uint_eq(brow(g->r, 1, "end_ps") - brow(g->r, 1, "start_ps"), FAULT_PS + 2 * per);
    ck_assert_uint_eq(rig_counter(g->r, "driver.evictions"), 16);
    ck_assert_uint_eq(rig_counter(g->r, "driver.writebacks"), 16);
    ck_assert_uint_eq(rig_counter(g->r, "evict.victims"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "link.d2h.bytes"), 65536);
    ck_assert(!gmmu_is_resident(g->r->gmmu, PG(15) >> 12));
    ck_assert(gmmu_is_resident(g->r->gmmu, PG(31) >> 12));
    assert_conserved(g);
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
        /* 240 pages landed, 176 left: the 64 frames end full. */
        ck_assert_uint_eq(sys_counter(s, "driver.resident_pages"), 64);
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
    tcase_add_test(tc, service_costs_serial);
    tcase_add_test(tc, page_cost_per_page);
    tcase_add_test(tc, tree_prefetch_262_brings_the_block);
    tcase_add_test(tc, tree_prefetch_17_faults_in_17_big_pages);
    tcase_add_test(tc, prefetch_stays_inside_a_short_block);
    tcase_add_test(tc, seq_prefetch_brings_each_64k_block);
    tcase_add_test(tc, replay_block_answers_each_block_at_its_landing);
    tcase_add_test(tc, replay_batch_flush_and_once_differ_by_hand);
    tcase_add_test(tc, replay_block_waits_for_the_whole_block);
    tcase_add_test(tc, flush_with_waiting_faults_keeps_order_and_count);
    tcase_add_test(tc, batches_per_wake_yields_to_the_interrupt);
    tcase_add_test(tc, eviction_serialised_before_migration);
    tcase_add_test(tc, prefetch_larger_than_memory_is_dropped);
    tcase_add_test(tc, host_steps_prefetch_memcpy_advise);
    tcase_add_test(tc, prefetch_pays_the_service_costs);
    tcase_add_test(tc, accessed_by_keeps_the_gpu_mapped);
    tcase_add_test(tc, whole_block_prefetch_takes_a_root_chunk);
    tcase_add_test(tc, prefetch_to_host_moves_pages_out);
    tcase_add_test(tc, chunk_root_per_block_evicted_whole_by_age);
    tcase_add_test(tc, cyclic_pins_root_chunks_of_the_real_driver_list);
    tcase_add_test(tc, large_ptes_where_the_residency_allows);
    tcase_add_test(tc, chunk_unit_needs_fifo);
    tcase_add_test(tc, page_replay_wakes_each_page_at_its_landing);
    tcase_add_test(tc, page_replay_with_64k_pages);
    tcase_add_test(tc, page_size_64k_evicts_whole_pages);
    tcase_add_test(tc, bfs_host_steps_run_in_program_order);
    tcase_add_test(tc, cyclic_sweep_fifo_lru_fault_every_page);
    tcase_add_test(tc, cyclic_sweep_random_faults_less);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(driver_suite()); }

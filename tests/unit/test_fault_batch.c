/* Fault concurrency end to end: the real TLBs, walker, fault buffer, link
 * and timed driver (the translation rig of xlate_rig.h with a driver, as
 * test_driver.c's), driven by a wide irregular kernel built by hand.
 *
 * 64 warps, 32 on each of SMs 0 and 1; every lane of a warp touches a page
 * of its own: warp w's lanes read pages 32w .. 32w + 31, on both SMs, so
 * the kernel touches pages 0..1023 (the first two 2 MiB VA blocks), each
 * from both SMs.  Each warp instruction sends its 32 page translations
 * into its SM's L1 TLB at cycle w (1 cycle = 1 ns).  Timeline:
 *  - each L1 TLB serves one lookup a cycle (one port): translation k of an
 *    SM (page k) is looked up at cycle k + 1, reaches the L2 at k + 11
 *    (two ports: both SMs' page-k lookups in that cycle; the second merges
 *    into the first's MSHR), and its one walk faults at k + 19: the fault
 *    NACK frees both MSHRs and each L1 logs its uTLB's entry.  So page k's
 *    two entries are written at cycle k + 19, pages in order, and no MSHR
 *    stays busy more than 18 cycles (32 L1 / 128 L2 MSHRs never fill);
 *  - the 1024-entry buffer is full when page 511's pair is in (cycle 530);
 *    the next faults wait for room and their SMs' translation stops;
 *  - the first entry (cycle 19) interrupts the driver 5 us later (the
 *    default gmmu.interrupt_latency): at cycle 19 + 5000 it fetches the
 *    256 oldest entries, pages 0..127 twice each: a 256-fault batch of 128
 *    pages, 128 duplicates coalesced;
 *  - its 128 pages are one run in VA block 0: they land 20 us + 128 x
 *    280 ns + 1 us later (4 KiB = 4480 wire bytes at 16 GB/s, link latency
 *    1 us), which ends the batch.
 * With driver.batch_size = 1024 the first batch takes the whole buffer:
 * pages 0..511 twice each, 1024 faults, 512 pages, 512 duplicates, one run
 * of 512 pages.
 * (Were the faulted misses to hold their MSHRs until the replay, no more
 * than the L1's 32 pages could be outstanding: 64 entries at most.) */
#include <stdlib.h>
#include "xlate_rig.h"
#include "suite_main.h"
#include "driver/driver.h"

#define US 1000000ULL
#define PAGE_WIRE_PS 280000ULL
#define WARPS_PER_SM 32

struct frig { struct rig *r; struct driver *d; struct domain dom; };

static struct frig *frig_new(const char *batch_size)
{
    const char *sets[] = {
        "gmmu.walker.mode=fixed", "gmmu.walk_latency=8", "driver.fault_latency=20us",
        "link.bandwidth=16GB/s", "link.latency=1us", "link.ce_setup=0ns",
        /* the bare packet model the timeline assumes (no line code, no
         * DLLPs, completions sized and headed like writes) */
        "link.encoding=none", "link.dllp_interval=0", "link.rcb=0", "link.completion_header=24B",
        "gmmu.access_counters.enabled=false", "gpu.memory.capacity=4MiB", batch_size,
    };
    struct frig *g = calloc(1, sizeof *g);
    g->r = rig_new(sets, NSETS(sets), 2, 1);
    g->dom = (struct domain){ "driver", 1, 3 };
    g->d = driver_create(g->r->e, g->r->cfg, g->r->st, &g->dom, g->r->gmmu, g->r->tlb,
                         g->r->link, 0);
    return g;
}

static void frig_free(struct frig *g)
{
    driver_free(g->d);
    rig_free(g->r);
    free(g);
}

static uint64_t brow(const struct rig *r, size_t i, const char *f)
{
    for (size_t t = 0; t < stats_table_count(r->st); t++) {
        const struct rec_table *b = stats_table_at(r->st, t);
        if (strcmp(b->name, "batches")) continue;
        ck_assert_uint_lt(i, b->nrows);
        for (size_t k = 0; k < b->nfields; k++)
            if (!strcmp(b->fields[k].name, f)) {
                uint64_t v;
                memcpy(&v, b->rows + i * b->row_bytes + k * 8, 8);
                return v;
            }
    }
    ck_abort_msg("no /batches field %s", f);
    return 0;
}

/* Run the 64-warp kernel; returns the first batch's size. */
static void run_kernel(struct frig *g)
{
    for (unsigned w = 0; w < WARPS_PER_SM; w++)
        for (unsigned sm = 0; sm < 2; sm++)
            for (unsigned l = 0; l < 32; l++)
                rig_send(g->r, w * CYC, sm, PG(32 * w + l), REQ_LOAD);
    rig_run(g->r);
}

static void check_run(const struct frig *g, uint64_t first_faults)
{
    const struct rig *r = g->r;
    const uint64_t first_pages = first_faults / 2;
    const sim_time start = 19 * CYC + 5 * US;
    ck_assert_uint_eq(rig_counter(r, "gmmu.fault_buffer.max_occupancy"), 1024);
    ck_assert_uint_gt(rig_counter(r, "gmmu.fault_buffer.waited"), 0);
    ck_assert_uint_eq(brow(r, 0, "start_ps"), start);
    ck_assert_uint_eq(brow(r, 0, "faults"), first_faults);
    ck_assert_uint_eq(brow(r, 0, "pages"), first_pages);
    ck_assert_uint_eq(brow(r, 0, "end_ps"),
                      start + 20 * US + first_pages * PAGE_WIRE_PS + 1 * US);
    ck_assert_uint_ge(rig_counter(r, "driver.duplicate_faults"), first_pages);
    /* The batch histogram's last bin counts batches of 256 entries or more. */
    const struct stat_entry *h = stats_find(r->st, "driver.batch_faults");
    ck_assert(h && h->kind == STAT_HISTOGRAM);
    ck_assert_uint_ge(h->p.hist->bins[h->p.hist->nbins - 1], 1);
    /* Every access answered, every page migrated once, no entry lost. */
    ck_assert_uint_eq(r->nans, r->nsent);
    ck_assert_uint_eq(rig_counter(r, "driver.pages_migrated"), 1024);
    ck_assert_uint_eq(rig_counter(r, "gmmu.unique_faults"), 1024);
    ck_assert_uint_eq(rig_counter(r, "driver.faults") + rig_counter(r, "gmmu.flushed_faults"),
                      rig_counter(r, "gmmu.faults"));
    ck_assert_uint_eq(rig_counter(r, "gmmu.fault_buffer.occupancy"), 0);
}

START_TEST(wide_kernel_fills_the_buffer_256_batches)
{
    struct frig *g = frig_new("driver.batch_size=256");
    run_kernel(g);
    check_run(g, 256);
    frig_free(g);
}
END_TEST

START_TEST(wide_kernel_fills_the_buffer_1024_batches)
{
    struct frig *g = frig_new("driver.batch_size=1024");
    run_kernel(g);
    check_run(g, 1024);
    frig_free(g);
}
END_TEST

static Suite *fb_suite(void)
{
    Suite *s = suite_create("fault_batch");
    TCase *t = tcase_create("fault_batch");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, wide_kernel_fills_the_buffer_256_batches);
    tcase_add_test(t, wide_kernel_fills_the_buffer_1024_batches);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(fb_suite()); }

/* The walking skeleton end to end, against numbers derived by hand. */
#include <check.h>
#include "suite_main.h"
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "core/stats.h"
#include "system.h"

static struct config *load(const char *const *sets, size_t n)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    if (!c) ck_abort_msg("config: %s", err.msg);
    return c;
}

static uint64_t counter(struct system *s, const char *name)
{
    const struct stat_entry *st = stats_find(system_stats(s), name);
    ck_assert_msg(st && st->kind == STAT_COUNTER, "no counter %s", name);
    return *st->p.u;
}

#define N_PAGES 64

/* One warp of 32 threads, lane stride 128 B: each warp instruction covers
 * exactly one 4 KiB page (32 x 128 B), so the warp faults on every page in
 * turn and nothing overlaps.  Per page the critical path is
 *   interrupt (gmmu.interrupt_latency, 5 us: the driver is idle at each
 *   fault) + fault handling (20 us) + the page's wire bytes / 16 GB/s +
 *   link latency (1 us)
 * where the page crosses PCIe as 16 TLPs of 256 B payload + 24 B header
 * (sim/link/link_packet.c): 16 x 280 = 4480 B, 280 ns; plus a few hundred
 * ns of TLB, walk (the fault's, and the replayed access's) and memory
 * latency, so
 *   N x 26.28 us <= T <= 1.05 x N x 26.28 us.
 * The link is pinned to that bare packet model (no line code, no DLLPs,
 * completions sized and headed like writes), as the rig pins its rate. */
static const char *const one_warp[] = {
    "workload.stream.footprint=256KiB",   /* 64 pages */
    "workload.stream.grid=1", "workload.stream.block=32",
    "workload.stream.lane_stride=128B",
    "driver.fault_latency=20us", "link.bandwidth=16GB/s", "link.latency=1us",
    "link.encoding=none", "link.dllp_interval=0", "link.rcb=0", "link.completion_header=24B",
    "gpu.memory.fraction=100%", "gmmu.interrupt_latency=5us",
};
#define NSETS(a) (sizeof a / sizeof a[0])

/* Build and run the one-warp machine with `extra` overrides appended. */
static struct system *run_one_warp(const char *const *extra, size_t nextra,
                                   struct config **cfg)
{
    const char *sets[NSETS(one_warp) + 8];
    ck_assert_uint_le(nextra, 8);
    memcpy(sets, one_warp, sizeof one_warp);
    memcpy(sets + NSETS(one_warp), extra, nextra * sizeof *extra);
    *cfg = load(sets, NSETS(one_warp) + nextra);
    struct system *s = system_build(*cfg);
    ck_assert_int_eq(system_run(s), RUN_COMPLETED);
    return s;
}

START_TEST(streaming_one_warp_time_matches_hand_formula)
{
    static const char *const extra[] = { "workload.stream.passes=1",
                                         "workload.stream.op=read" };
    struct config *c;
    struct system *s = run_one_warp(extra, NSETS(extra), &c);
    double per_page_ps = 5e6 + 20e6 + 16 * (256.0 + 24.0) * 1e12 / 16e9 + 1e6;
    double expect = N_PAGES * per_page_ps;
    double t = (double)engine_end_time(system_engine(s));
    ck_assert_msg(t >= expect && t <= 1.05 * expect,
                  "simulated %.0f ps, hand formula %.0f ps", t, expect);
    ck_assert_uint_eq(counter(s, "driver.faults"), N_PAGES);
    ck_assert_uint_eq(counter(s, "driver.pages_migrated"), N_PAGES);
    ck_assert_uint_eq(counter(s, "link.h2d.bytes"), N_PAGES * 4096);
    ck_assert_uint_eq(counter(s, "driver.evictions"), 0);
    system_free(s);
    config_free(c);
}
END_TEST

/* Capacity N/2, two passes of read-then-write: FIFO keeps the last N/2
 * pages of pass 1, and pass 2 starts from page 0, so every access of pass 2
 * misses too: faults = 2N.  Evictions: N/2 in pass 1 (pages N/2..N-1 each
 * push one out) + N in pass 2 = 1.5N, all dirty (every page was written), so
 * D2H = 1.5N x 4096 bytes. */
START_TEST(half_capacity_two_passes_thrash_and_write_back)
{
    static const char *const extra[] = { "workload.stream.passes=2",
                                         "workload.stream.op=readwrite",
                                         "gpu.memory.capacity=128KiB" /* N/2 pages */ };
    struct config *c;
    struct system *s = run_one_warp(extra, NSETS(extra), &c);
    ck_assert_uint_eq(counter(s, "driver.capacity_pages"), N_PAGES / 2);
    ck_assert_uint_eq(counter(s, "gmmu.faults"), 2 * N_PAGES);
    ck_assert_uint_eq(counter(s, "driver.pages_migrated"), 2 * N_PAGES);
    ck_assert_uint_eq(counter(s, "driver.evictions"), 3 * N_PAGES / 2);
    ck_assert_uint_eq(counter(s, "driver.writebacks"), 3 * N_PAGES / 2);
    ck_assert_uint_eq(counter(s, "link.d2h.bytes"), 3 * N_PAGES / 2 * 4096);
    ck_assert_uint_eq(counter(s, "tlb.shootdowns"), 3 * N_PAGES / 2);
    /* Each evicted frame's 32 lines leave the L2 before the frame is
     * reused, so no load of either pass finds another page's lines: every
     * one of the 2 passes x N pages x 32 lines misses. */
    ck_assert_uint_eq(counter(s, "l2.invalidated_lines"), 3 * N_PAGES / 2 * 32);
    ck_assert_uint_eq(counter(s, "l2.misses"), 2 * N_PAGES * 32);
    /* Host DDR4 serves both directions of every migration in 128 B
     * requests: 2N pages read for H2D, 1.5N dirty pages written by D2H. */
    ck_assert_uint_eq(counter(s, "host.dram.reads"), 2 * N_PAGES * 32);
    ck_assert_uint_eq(counter(s, "host.dram.writes"), 3 * N_PAGES / 2 * 32);
    ck_assert_uint_eq(counter(s, "gpu.kernels"), 2);
    system_free(s);
    config_free(c);
}
END_TEST

/* Read-only pass over half capacity with driver.drop_clean (pinned: the
 * default copies every evicted page back, issue 11): evicted pages are
 * clean and dropped, nothing goes D2H. */
START_TEST(clean_pages_are_dropped_not_written_back)
{
    static const char *const extra[] = { "workload.stream.passes=2",
                                         "workload.stream.op=read",
                                         "gpu.memory.capacity=128KiB", "driver.drop_clean=true" };
    struct config *c;
    struct system *s = run_one_warp(extra, NSETS(extra), &c);
    ck_assert_uint_eq(counter(s, "driver.evictions"), 3 * N_PAGES / 2);
    ck_assert_uint_eq(counter(s, "driver.writebacks"), 0);
    ck_assert_uint_eq(counter(s, "link.d2h.bytes"), 0);
    system_free(s);
    config_free(c);
}
END_TEST

/* 1025 pages (4100 KiB: VA blocks of 512, 512 and 1 page) through 1024
 * frames (two 2 MiB root chunks), one warp, one read each.  Page unit:
 * 4 KiB pieces, FIFO evicts page 0 when page 1024 faults: 1 eviction,
 * copied back (drop_clean off).  Chunk unit (the real driver): block 0
 * takes root A at its first touch, block 1 root B; the 1-page block 2
 * needs a 4 KiB chunk, none is free, so the head of the age-ordered list,
 * A, is evicted whole: its 512 pages, every one copied back, and page
 * 1024's chunk comes out of A. */
START_TEST(chunk_eviction_frees_the_victims_root_chunk)
{
    for (int chunk = 0; chunk < 2; chunk++) {
        const char *const extra[] = { "workload.stream.footprint=4100KiB",
                                      "workload.stream.passes=1", "workload.stream.op=read",
                                      "gpu.memory.capacity=4MiB",
                                      chunk ? "driver.evict_unit=chunk" : "driver.evict_unit=page" };
        struct config *c;
        struct system *s = run_one_warp(extra, NSETS(extra), &c);
        ck_assert_uint_eq(counter(s, "driver.pages_migrated"), 1025);
        ck_assert_uint_eq(counter(s, "driver.evictions"), chunk ? 512 : 1);
        ck_assert_uint_eq(counter(s, "driver.writebacks"), chunk ? 512 : 1);
        ck_assert_uint_eq(counter(s, "driver.pmm.root_evictions"), chunk ? 1 : 0);
        ck_assert_uint_eq(counter(s, "driver.pmm.chunks_2m"), chunk ? 2 : 0);
        system_free(s);
        config_free(c);
    }
}
END_TEST

/* Every element is touched once per pass: with 15 SMs and many warps the
 * instruction counts are fixed by the kernel, whatever the interleaving:
 * 8192 elements x 4 B = 32 KiB = 8 pages; 256 warps, each 1 load + 1 store
 * + 1 exit per pass.  GPU memory traffic: each warp's load misses in the
 * L2 and reads its whole 128 B line (4 sectors), 256 x 128 B = 32 KiB; the
 * stores then hit those lines in the write-back L2 (1.5 MB holds all of
 * 32 KiB) and stay dirty there, so nothing is written to GDDR. */
START_TEST(many_warps_counts_are_exact)
{
    const char *sets[] = { "workload.stream.footprint=32KiB",
                           "workload.stream.passes=1", "workload.stream.op=readwrite" };
    struct config *c = load(sets, NSETS(sets));
    struct system *s = system_build(c);
    system_run(s);
    ck_assert_uint_eq(counter(s, "gpu.warp_insts"), 256 * 3);
    ck_assert_uint_eq(counter(s, "gpu.mem_insts"), 256 * 2);
    ck_assert_uint_eq(counter(s, "gpu.line_reqs"), 256 * 2);
    ck_assert_uint_eq(counter(s, "dram.bytes"), 32768);
    ck_assert_uint_eq(counter(s, "dram.writes"), 0);
    ck_assert_uint_eq(counter(s, "l2.misses"), 256);
    ck_assert_uint_eq(counter(s, "l2.hits"), 256);
    ck_assert_uint_eq(counter(s, "driver.pages_migrated"), 8);
    system_free(s);
    config_free(c);
}
END_TEST

/* Same config and seed twice: identical statistics and time series. */
START_TEST(same_seed_same_statistics)
{
    const char *sets[] = { "workload.stream.footprint=1MiB", "gpu.memory.fraction=50%",
                           "sim.epoch=5us" };
    struct stats *st[2];
    struct system *sys[2];
    struct config *c = load(sets, NSETS(sets));
    for (int i = 0; i < 2; i++) {
        sys[i] = system_build(c);
        system_run(sys[i]);
        st[i] = system_stats(sys[i]);
    }
    ck_assert_uint_eq(stats_count(st[0]), stats_count(st[1]));
    for (size_t i = 0; i < stats_count(st[0]); i++) {
        const struct stat_entry *a = stats_at(st[0], i), *b = stats_at(st[1], i);
        if (a->kind == STAT_COUNTER || a->kind == STAT_VECTOR)
            ck_assert_msg(!memcmp(a->p.u, b->p.u, a->n * 8), "%s differs", a->name);
    }
    size_t rows = stats_series_rows(st[0]), cols = stats_series_columns(st[0]);
    ck_assert_uint_gt(rows, 10);
    ck_assert_uint_eq(rows, stats_series_rows(st[1]));
    for (size_t r = 0; r < rows; r++)
        ck_assert(!memcmp(stats_series_row(st[0], r), stats_series_row(st[1], r), cols * 8));
    for (int i = 0; i < 2; i++) system_free(sys[i]);
    config_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("skeleton");
    TCase *t = tcase_create("end-to-end");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, streaming_one_warp_time_matches_hand_formula);
    tcase_add_test(t, half_capacity_two_passes_thrash_and_write_back);
    tcase_add_test(t, clean_pages_are_dropped_not_written_back);
    tcase_add_test(t, many_warps_counts_are_exact);
    tcase_add_test(t, chunk_eviction_frees_the_victims_root_chunk);
    tcase_add_test(t, same_seed_same_statistics);
    suite_add_tcase(s, t);
    return run_suite(s);
}

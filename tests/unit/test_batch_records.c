/* The real driver's view of GPU memory on drv_rig.h's timed rig.
 * /batches' per-batch columns that an instrumented real driver also logs
 * (Allen and Ge, tallendev/uvm-eval tools/plotv2/Batch.py; the mapping is
 * docs/results.md's), on drv_rig.h's timed rig under the real driver's
 * chunks (driver.evict_unit=chunk: 4 MiB = two 2 MiB root chunks), tree
 * prefetch, replay after each batch (policy batch, so a stale entry stays
 * in the buffer for the next batch).  Derived by hand:
 *  batch 1 (fetched at 8 ns, walks issued at 0): SM 0 faults pages 0 and
 *    3 and 512, SM 1 page 3: 4 faults, 3 pages, 2 VA blocks.  The tree
 *    fills each faulted 64 KiB big page (16 pages; 16 of 32 at the next
 *    level is not over 51 %): block 0 gets pages 0-15 (2 faulted, 14
 *    prefetched), block 1 pages 512-527 (1 + 15): 32 migrated, 29
 *    prefetched, one transfer per block (contiguous pages in contiguous
 *    frames of its root chunk) = 2, 32 mapped, none found resident, no
 *    eviction;
 *  batch 2: SM 1's walk of page 7, issued at 1 ns, faulted at 9 ns after
 *    batch 1's fetch; page 7 came as a prefetch in batch 1, so when
 *    serviced it is resident: 1 fault, 1 page, 1 block, resident 1,
 *    nothing migrated, transferred or mapped;
 *  batch 3 (page 1024, at 500 us): block 2 needs a root chunk and both
 *    are taken: the oldest, block 0's, is evicted whole (its 16 pages,
 *    16 x 4096 B back), then pages 1024-1039 come (1 faulted, 15
 *    prefetched, one transfer, 16 mapped). */
#include <check.h>
#include "suite_main.h"
#include "drv_rig.h"

static uint64_t col(struct drig *g, size_t row, const char *f) { return drig_row(g->r, "batches", row, f); }

START_TEST(batch_columns_count_what_the_real_drivers_log_counts)
{
    const char *extra[] = { "driver.evict_unit=chunk", "driver.eviction=fifo", "driver.prefetch=tree",
                            "driver.replay_policy=batch", "driver.thrashing.enabled=false" };
    struct drig *g = drig_new(extra, NSETS(extra));
    rig_send_to(g->r, gmmu_walk_in(g->r->gmmu), 0, 0, PG(0), REQ_LOAD);
    rig_send_to(g->r, gmmu_walk_in(g->r->gmmu), 0, 0, PG(3), REQ_LOAD);
    rig_send_to(g->r, gmmu_walk_in(g->r->gmmu), 0, 0, PG(512), REQ_LOAD);
    rig_send_to(g->r, gmmu_walk_in(g->r->gmmu), 0, 1, PG(3), REQ_LOAD);
    rig_send_to(g->r, gmmu_walk_in(g->r->gmmu), 1 * CYC, 1, PG(7), REQ_LOAD);
    rig_send_to(g->r, gmmu_walk_in(g->r->gmmu), 500 * US, 0, PG(1024), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 3);
    static const char *const f[] = { "faults", "pages", "va_blocks", "migrated", "prefetched", "transfers",
                                     "mapped", "resident", "evictions", "root_evictions", "d2h_bytes" };
    static const uint64_t want[3][11] = {
        { 4, 3, 2, 32, 29, 2, 32, 0, 0, 0, 0 },
        { 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0 },
        { 1, 1, 1, 16, 15, 1, 16, 0, 16, 1, 16 * 4096 },
    };
    for (size_t b = 0; b < 3; b++)
        for (size_t k = 0; k < NSETS(f); k++)
            ck_assert_msg(col(g, b, f[k]) == want[b][k], "batch %zu %s: %llu, want %llu", b + 1, f[k],
                          (unsigned long long)col(g, b, f[k]), (unsigned long long)want[b][k]);
    ck_assert_uint_eq(g->r->nans, g->r->nsent);
    drig_free(g);
}
END_TEST

/* GPU memory that is not a whole number of 2 MiB root chunks (issue 40
 * point 4): the real driver takes memory from PMA only as whole, naturally
 * aligned 2 MiB root chunks (uvm_pmm_gpu.c alloc_root_chunk asks
 * nvUvmInterfacePmaAllocPages for UVM_CHUNK_SIZE_MAX pages and asserts
 * their alignment; its root-chunk array is indexed by address / 2 MiB),
 * so the rest is never its.  One page faulted in each of 5 VA blocks, one
 * batch each, no prefetch: every block takes a root chunk of its own, so
 * with R roots 5 - R roots are evicted (FIFO, none needed again).  8 MiB,
 * 9 MiB and 10 MiB - 4 KiB all hold R = 4 (1 eviction); 10 MiB holds 5
 * (none). */
START_TEST(memory_between_root_chunks_is_not_the_drivers)
{
    static const char *const cap[] = { "gpu.memory.capacity=8MiB", "gpu.memory.capacity=9MiB",
                                       "gpu.memory.capacity=10236KiB", "gpu.memory.capacity=10MiB" };
    static const uint64_t frames[] = { 2048, 2048, 2048, 2560 }, evicted[] = { 1, 1, 1, 0 };
    for (size_t c = 0; c < NSETS(cap); c++) {
        const char *extra[] = { "driver.evict_unit=chunk", "driver.eviction=fifo", "driver.prefetch=none",
                                "driver.thrashing.enabled=false", cap[c] };
        struct drig *g = drig_new(extra, NSETS(extra));
        ck_assert_uint_eq(driver_capacity_pages(g->d), frames[c]);
        for (unsigned k = 0; k < 5; k++)
            rig_send_to(g->r, gmmu_walk_in(g->r->gmmu), k * 100 * US, 0, PG(512 * k), REQ_LOAD);
        rig_run(g->r);
        ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 5);
        ck_assert_uint_eq(rig_counter(g->r, "driver.pmm.root_evictions"), evicted[c]);
        ck_assert_uint_eq(rig_counter(g->r, "driver.evictions"), evicted[c]);
        ck_assert_uint_eq(g->r->nans, g->r->nsent);
        drig_free(g);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("batch_records");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, batch_columns_count_what_the_real_drivers_log_counts);
    tcase_add_test(tc, memory_between_root_chunks_is_not_the_drivers);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

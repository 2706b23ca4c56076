/* A 64 KiB driver page (driver.page_size=64KiB) is resident whole or not at
 * all, also under the real driver's chunks (driver.evict_unit=chunk), on
 * drv_rig.h's timed rig.  The case is the SC19 preset's (64 KiB pages,
 * 2 MiB root chunks) in miniature: an allocation whose size is not a
 * multiple of 64 KiB ends inside a driver page, whose chunk must still be
 * one 64 KiB chunk (the real driver never allocates a chunk smaller than
 * PAGE_SIZE: uvm_mmu.c uvm_mmu_init_gpu_chunk_sizes), so that evicting a
 * root chunk takes the whole page.  Expectations derived by hand. */
#include <check.h>
#include "suite_main.h"
#include "drv_rig.h"
#include "workloads/workload.h"

#define MiB (1ULL << 20)
#define VPN(i) (PG(i) >> 12)

static unsigned resident(struct drig *g, unsigned first, unsigned n)
{
    unsigned c = 0;
    for (unsigned i = first; i < first + n; i++) c += gmmu_is_resident(g->r->gmmu, VPN(i));
    return c;
}

/* Walks on pages `first`, first + step, ... (n of them) at once, run to
 * completion. */
static void fault(struct drig *g, unsigned first, unsigned n, unsigned step)
{
    sim_time t = engine_now(g->r->e) + 1000;
    for (unsigned k = 0; k < n; k++) rig_walk(g->r, t, PG(first + k * step), REQ_LOAD);
    rig_run(g->r);
}

/* 4 MiB of GPU memory: root chunks 0 (frames 0-511) and 1 (512-1023),
 * free roots handed out from root 0 up.  No prefetch: a fault brings its
 * driver page (16 pages) and nothing else.  Three allocations, each at its
 * own 2 MiB VA block:
 *   D, pages 0-510 (2 MiB - 4 KiB): its block is cut, so it has a 64 KiB
 *      chunk per big page; big page 31 (pages 496-511) holds 15 of D's.
 *   B, pages 512-513 (8 KiB): one driver page cut to 2 pages.
 *   C, pages 1024-1535 (2 MiB): a whole block, one 2 MiB root chunk.
 * 1. C's page 1024 faults: C takes root 0 (first touch), its driver page
 *    (1024-1039) lands in frames 0-15.  Root lists: USED [0].
 * 2. One fault per driver page of D (pages 0, 16, ..., 496: 32): 32 chunks
 *    of 64 KiB, splitting root 1 whole (big page 31's chunk too: frame
 *    1023, past D's end, stays empty).  USED [0, 1].
 * 3. B's page 512 faults: B's driver page needs a chunk; nothing is free,
 *    so root 0 (USED's head, unpinned) is evicted with C's 16 pages and B's
 *    chunk is root 0's first 64 KiB: pages 512, 513 in frames 0, 1.  USED
 *    [1, 0].  (With a 4 KiB chunk per page of B's, as the block geometry
 *    alone would give, page 512 took the one frame root 1 had left, 1023,
 *    and page 513, finding none, evicted root 0 and went to frame 0: one
 *    driver page in two roots.)
 * 4. C's page 1024 faults again: its 2 MiB chunk went with root 0, and no
 *    root is free: root 1, USED's head, is evicted with D's 511 pages, and C
 *    takes it: page 1024 in frame 512.  B's driver page, in root 0, stays
 *    resident whole.  (With the 4 KiB chunks page 512 went with root 1 and
 *    page 513 stayed: resident in part.)
 * 5. B's page 512 is walked again: resident, no fault.  (With page 512
 *    gone, the fault brought B's driver page whole, and page 513's chunk
 *    gave it frame 0 a second time.)
 * Batches 4 (steps 1-4), faults 1 + 32 + 1 + 1 = 35; pages migrated 16 +
 * 511 + 2 + 16 = 545; root evictions 2, evicting 16 + 511 = 527 pages;
 * chunks: 2 MiB 2 (C twice), 64 KiB 32 + 1. */
START_TEST(cut_driver_page_has_one_chunk)
{
    static const char *const sets[] = {
        "driver.evict_unit=chunk", "driver.page_size=64KiB", "driver.prefetch=none",
        "gpu.memory.capacity=4MiB",
    };
    struct drig *g = drig_new(sets, NSETS(sets));
    struct workload wl;
    memset(&wl, 0, sizeof wl);
    wl.nallocs = 3;
    wl.footprint = 4 * MiB + 8192 - 4096;
    wl.allocs[0] = (struct wl_alloc){ "D", 2 * MiB - 4096, PG(0), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
    wl.allocs[1] = (struct wl_alloc){ "B", 8192, PG(512), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
    wl.allocs[2] = (struct wl_alloc){ "C", 2 * MiB, PG(1024), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
    driver_set_workload(g->d, &wl);

    fault(g, 1024, 1, 0);
    ck_assert_uint_eq(gmmu_frame_of(g->r->gmmu, VPN(1024)), 0);
    fault(g, 0, 32, 16);
    ck_assert_uint_eq(resident(g, 0, 511), 511);
    ck_assert_uint_eq(gmmu_frame_of(g->r->gmmu, VPN(496)), 1008);
    fault(g, 512, 1, 0);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pmm.root_evictions"), 1);
    ck_assert_uint_eq(resident(g, 512, 2), 2);
    ck_assert_uint_eq(gmmu_frame_of(g->r->gmmu, VPN(512)), 0);
    ck_assert_uint_eq(gmmu_frame_of(g->r->gmmu, VPN(513)), 1);
    ck_assert_uint_eq(resident(g, 1024, 16), 0);
    fault(g, 1024, 1, 0);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pmm.root_evictions"), 2);
    ck_assert_uint_eq(gmmu_frame_of(g->r->gmmu, VPN(1024)), 512);
    ck_assert_uint_eq(resident(g, 0, 511), 0);
    ck_assert_uint_eq(resident(g, 512, 2), 2);
    fault(g, 512, 1, 0);

    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 4);
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.faults"), 35);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 545);
    ck_assert_uint_eq(rig_counter(g->r, "driver.evictions"), 527);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pmm.chunks_2m"), 2);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pmm.chunks_64k"), 33);
    ck_assert_uint_eq(resident(g, 512, 2), 2);
    ck_assert_uint_eq(resident(g, 1024, 16), 16);
    ck_assert_uint_eq(g->r->nans, g->r->nsent);
    drig_free(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("drv_units");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, cut_driver_page_has_one_chunk);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

/* The SC19 runtime's steps run by the real driver (on drv_rig.h's timed
 * rig, 4 MiB of GPU memory = 1024 frames): what the decisions of spec
 * B.2.7 do to the pages.  Expectations from the decisions (derived by hand
 * below) and the driver's documented step semantics (drv_step.c). */
#include <check.h>
#include "suite_main.h"
#include "drv_rig.h"
#include "runtime/rt_internal.h"

#define MiB (1ULL << 20)
#define VPN(i) (PG(i) >> 12)

static unsigned ndone;
static void step_done(void *ctx, sim_time now) { (void)ctx; (void)now; ndone++; }

/* Run the runtime's queued steps in order through the driver. */
static void run_steps(struct drig *g, struct runtime *rt)
{
    for (uint32_t i = 0; i < rt->qn; i++) {
        unsigned before = ndone;
        driver_host_step(g->d, &rt->q[i], step_done, NULL, engine_now(g->r->e));
        rig_run(g->r);
        ck_assert_uint_eq(ndone, before + 1);
    }
    rt->qn = rt->qhead = 0;
}

static unsigned count(struct drig *g, uint64_t first, uint64_t n, bool remote)
{
    unsigned c = 0;
    for (uint64_t v = first; v < first + n; v++)
        c += remote ? gmmu_is_remote(g->r->gmmu, v) : gmmu_is_resident(g->r->gmmu, v);
    return c;
}

/* X (2 MiB, pages 0-511) and Y (4 MiB, pages 512-1535), RDM, partial
 * mapping on, both dense (density 1).
 * Launch 1, region 0 uses X (RD 1) and Y (RD 2): X fits (2 MiB of 4) and
 *   is prefetched: 512 pages in.  Y needs 4 MiB, 2 MiB free, X placed ->
 *   partial: Y's pages 0-511 prefetched, 512-1023 mapped remotely by
 *   accessed-by (no fault when the GPU reads one).
 * Launch 2, region 1 uses Y alone (RD 1): Y needs 2 MiB more; X was
 *   predicted for this launch (TRC 1 + 1 = 2), which does not use it ->
 *   +inf -> X evicted: prefetch to host (512
 *   pages leave) + preferred host; Y's upper half is remote, so Y moves by
 *   prefetch although the switch would say implicit (density 0 here):
 *   accessed-by unset, 512 pages migrated, the remote mappings replaced.
 *   Then a GPU read of X faults and maps remotely (preferred host), moving
 *   nothing. */
START_TEST(partial_then_evict_on_the_driver)
{
    struct drig *g = drig_new(NULL, 0);
    static struct workload wl;
    memset(&wl, 0, sizeof wl);
    wl.nallocs = 2;
    wl.footprint = 6 * MiB;
    wl.allocs[0] = (struct wl_alloc){ "X", 2 * MiB, PG(0), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
    wl.allocs[1] = (struct wl_alloc){ "Y", 4 * MiB, PG(512), WL_PLACE_DEFAULT, 0, WL_HINT_NONE, 0 };
    driver_set_workload(g->d, &wl);
    ck_assert_uint_eq(driver_capacity_pages(g->d), 1024);

    static struct rt_info ri;
    memset(&ri, 0, sizeof ri);
    ri.nregions = 2;
    ri.site[0] = 0;
    ri.site[1] = 1;
    ri.uses[0][0] = ri.uses[0][1] = ri.uses[1][1] = true;
    ri.rd[0][0] = 1;
    ri.rd[0][1] = 2;
    ri.rd[1][1] = 1;
    ri.bytes_iter[0][0] = 2048;         /* x 1024 threads / 2 MiB = 1 */
    ri.bytes_iter[0][1] = 4096;         /* x 1024 / 4 MiB = 1 */
    struct rt_params p = { &rt_rdm_ops, 0.5, RT_HYBRID, true, 0, false, false, false };
    struct runtime *rt = rt_new(&p, &ri, &wl, driver_capacity_pages(g->d) * PAGE_SIZE, NULL);

    struct wl_kernel k = { .grid = {4, 1, 1}, .block = {256, 1, 1}, .site = 0 };
    rt_before_kernel(rt, &k);
    ck_assert_uint_eq(rt->qn, 3);
    run_steps(g, rt);
    ck_assert_uint_eq(count(g, VPN(0), 512, false), 512);        /* X */
    ck_assert_uint_eq(count(g, VPN(512), 512, false), 512);      /* Y's lower half */
    ck_assert_uint_eq(count(g, VPN(1024), 512, true), 512);      /* Y's upper half */
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 1024);
    ck_assert_uint_eq(rig_counter(g->r, "driver.accessed_by_mapped"), 512);
    rig_walk(g->r, engine_now(g->r->e), PG(1100), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.faults"), 0);

    k.site = 1;
    rt_before_kernel(rt, &k);
    ck_assert_uint_eq(rt->qn, 4);      /* X: prefetch home, preferred host; Y: unset AB, prefetch */
    run_steps(g, rt);
    ck_assert_uint_eq(count(g, VPN(0), 512, false), 0);
    ck_assert_uint_eq(count(g, VPN(512), 1024, false), 1024);
    ck_assert_uint_eq(count(g, VPN(512), 1024, true), 0);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 1536);
    ck_assert_uint_eq(rig_counter(g->r, "driver.evictions"), 0);  /* the runtime made the room */
    rig_walk(g->r, engine_now(g->r->e), PG(5), REQ_LOAD);
    rig_run(g->r);
    ck_assert(gmmu_is_remote(g->r->gmmu, VPN(5)));
    ck_assert_uint_eq(rig_counter(g->r, "driver.remote_mapped"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 1536);
    runtime_free(rt);
    drig_free(g);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("runtime_driver");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, partial_then_evict_on_the_driver);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

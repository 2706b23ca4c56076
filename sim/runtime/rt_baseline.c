/* Baseline: the traditional explicit management (SC19 Sec. 2.3, 5.2; spec
 * B.2.1): device copies of whole objects around every target region, as
 * per-region map clauses do -- map(to:) of what the kernel reads before
 * it, map(from:) of what it writes after it -- each launch anew ("re-
 * mapping copies the whole region again", B.9.9: SC-13's "UM_PF moves less
 * H2D than Baseline" needs the re-copies).  A copy H2D is a memcpy step
 * (resident pages are written again, drv_step.c); an object only written
 * gets its device pages by a prefetch (cudaMalloc has no copy; uvmsim's
 * closest is populating the GPU frames, a move only the first time).
 *
 * baseline_hoisted: the same copies hoisted into one target data region
 * around the whole program (spec B.9.9's variant; what the CUDA originals
 * do with cudaMemcpy before the first and after the last kernel, and what
 * SC-3's "explicit transfer already best" implies): an object is copied in
 * before the first kernel that uses it, never again, and copied out once
 * after the program's last kernel if some kernel wrote it.  The programs'
 * small per-iteration updates (bfs's stop flag) are left out, as the
 * per-region Baseline leaves them to its map clauses. */
#include "rt_internal.h"

static void copy_in(struct runtime *rt, uint32_t d)
{
    uint64_t size = rt->obj[d].size;
    if (rt_mode(rt, d) & WL_USE_R) {
        rt_push(rt, WL_STEP_MEMCPY, d, 0, size, WL_TO_GPU, WL_ADV_NONE, false);
        rt_row(rt, d, "copy_h2d", size);
    } else {
        rt_push(rt, WL_STEP_PREFETCH, d, 0, size, WL_TO_GPU, WL_ADV_NONE, false);
        rt->q[rt->qn - 1].host.device = true;    /* cudaMalloc, not uvm_migrate */
        rt_row(rt, d, "alloc_gpu", size);
    }
}

static void copy_out(struct runtime *rt, uint32_t d)
{
    rt_push(rt, WL_STEP_MEMCPY, d, 0, rt->obj[d].size, WL_TO_HOST, WL_ADV_NONE, false);
    rt_row(rt, d, "copy_d2h", rt->obj[d].size);
}

static void before(struct runtime *rt)
{
    for (uint32_t d = 0; d < rt->nobjs; d++)
        if (rt->ri.uses[rt->region][d]) copy_in(rt, d);
}

static void after(struct runtime *rt)
{
    for (uint32_t d = 0; d < rt->nobjs; d++)
        if (rt->ri.uses[rt->region][d] && (rt_mode(rt, d) & WL_USE_W)) copy_out(rt, d);
}

static void hoisted_before(struct runtime *rt)
{
    for (uint32_t d = 0; d < rt->nobjs; d++) {
        struct rt_obj *o = &rt->obj[d];
        if (!rt->ri.uses[rt->region][d]) continue;
        if (!o->mapped) copy_in(rt, d);
        o->mapped = true;
    }
}

static void hoisted_end(struct runtime *rt)
{
    for (uint32_t d = 0; d < rt->nobjs; d++)
        if (rt->obj[d].written) copy_out(rt, d);
}

const struct rt_ops rt_baseline_ops = { "baseline", before, after, false, NULL, false };
const struct rt_ops rt_baseline_hoisted_ops = { "baseline_hoisted", hoisted_before, NULL, false,
                                                hoisted_end, false };

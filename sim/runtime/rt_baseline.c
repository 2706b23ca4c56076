/* Baseline: the traditional explicit management (SC19 Sec. 2.3, 5.2; spec
 * B.2.1): device copies of whole objects around every target region, as
 * per-region map clauses do -- map(to:) of what the kernel reads before
 * it, map(from:) of what it writes after it -- each launch anew ("re-
 * mapping copies the whole region again", B.9.9: SC-13's "UM_PF moves less
 * H2D than Baseline" needs the re-copies).  A copy H2D is a memcpy step
 * (resident pages are written again, drv_step.c); an object only written
 * gets its device pages by a prefetch (cudaMalloc has no copy; uvmsim's
 * closest is populating the GPU frames, a move only the first time). */
#include "rt_internal.h"

static unsigned mode(const struct runtime *rt, uint32_t d)
{
    unsigned m = rt->ri.mode[rt->region][d];
    return m ? m : WL_USE_R | WL_USE_W;     /* unknown: tofrom */
}

static void before(struct runtime *rt)
{
    for (uint32_t d = 0; d < rt->nobjs; d++) {
        if (!rt->ri.uses[rt->region][d]) continue;
        uint64_t size = rt->obj[d].size;
        if (mode(rt, d) & WL_USE_R) {
            rt_push(rt, WL_STEP_MEMCPY, d, 0, size, WL_TO_GPU, WL_ADV_NONE, false);
            rt_row(rt, d, "copy_h2d", size);
        } else {
            rt_push(rt, WL_STEP_PREFETCH, d, 0, size, WL_TO_GPU, WL_ADV_NONE, false);
            rt_row(rt, d, "alloc_gpu", size);
        }
    }
}

static void after(struct runtime *rt)
{
    for (uint32_t d = 0; d < rt->nobjs; d++) {
        if (!rt->ri.uses[rt->region][d] || !(mode(rt, d) & WL_USE_W)) continue;
        rt_push(rt, WL_STEP_MEMCPY, d, 0, rt->obj[d].size, WL_TO_HOST, WL_ADV_NONE, false);
        rt_row(rt, d, "copy_d2h", rt->obj[d].size);
    }
}

const struct rt_ops rt_baseline_ops = { "baseline", before, after, false };

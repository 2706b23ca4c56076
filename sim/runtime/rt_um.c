/* The reference schemes without replacement (SC19 Sec. 2.3, 5.2; spec
 * B.2.1):
 *   none:  the generator's own program, untouched (uvmsim's default);
 *   um:    default unified memory (UM_DEF): no runtime action, the driver
 *          migrates on demand, prefetches and evicts;
 *   um_pf: cudaMemPrefetchAsync of every object the kernel uses before it
 *          (re-prefetching resident data moves nothing: drv_step.c).
 * The SC19 programs are OpenMP ports whose only host-side data movement is
 * the map clauses, which unified memory makes no-ops: every policy but
 * none drops the generator's own host steps. */
#include "rt_internal.h"

static void um_before(struct runtime *rt)
{
    for (uint32_t d = 0; d < rt->nobjs; d++)
        if (rt->ri.uses[rt->region][d]) rt_row(rt, d, "demand", rt->obj[d].size);
}

static void um_pf_before(struct runtime *rt)
{
    for (uint32_t d = 0; d < rt->nobjs; d++) {
        if (!rt->ri.uses[rt->region][d]) continue;
        rt_push(rt, WL_STEP_PREFETCH, d, 0, rt->obj[d].size, WL_TO_GPU, WL_ADV_NONE, false);
        rt_row(rt, d, "prefetch", rt->obj[d].size);
    }
}

const struct rt_ops rt_none_ops = { "none", NULL, NULL, true, NULL, false };
const struct rt_ops rt_um_ops = { "um", um_before, NULL, false, rt_read_results, false };
const struct rt_ops rt_um_pf_ops = { "um_pf", um_pf_before, NULL, false, rt_read_results, false };

/* LRU, the paper's runtime-only reference (SC19 Sec. 5.2, after Denning):
 * object-level least recently used -- the most recently used objects stay
 * in GPU memory, the others are placed in CPU memory; transfers are always
 * explicit; no compiler information (the region's objects in allocation
 * order, recency their only priority).  Every object of the launch is
 * "used now", so none of them is a candidate for another. */
#include "rt_internal.h"

static double recency(const struct runtime *rt, uint32_t x) { return (double)rt->obj[x].last_use; }
static int cmp(const struct runtime *rt, uint32_t a, uint32_t b) { (void)rt; return a < b ? -1 : a > b; }
static uint32_t cand(const struct runtime *rt, uint32_t d, const bool *ex)
{ return rt_lowest_below(rt, d, ex, recency, false); }

static const struct rt_scheme scheme = { cmp, cand, false, true };

static void before(struct runtime *rt)
{
    for (uint32_t d = 0; d < rt->nobjs; d++)
        if (rt->ri.uses[rt->region][d]) rt->obj[d].last_use = rt->trc;
    rt_replace(rt, &scheme);
}

const struct rt_ops rt_lru_ops = { "lru", before, NULL, false, rt_read_results, true };

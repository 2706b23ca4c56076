/* Host (SC19 Sec. 5.2; spec B.2.1): every object pinned to CPU memory --
 * preferred location host + accessed-by at its first use (B.9.4), so the
 * GPU reads it remotely over the link and nothing migrates. */
#include "rt_internal.h"

static void before(struct runtime *rt)
{
    for (uint32_t d = 0; d < rt->nobjs; d++)
        if (rt->ri.uses[rt->region][d]) rt_pin(rt, d);
}

const struct rt_ops rt_host_ops = { "host", before, NULL, false, rt_read_results, true };

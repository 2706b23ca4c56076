/* RDM, Target Reuse Distance based Management (SC19 Sec. 3.4; spec
 * B.2.5): at each launch of region r, next_reuse[d] = TRC + RD(r, d) for
 * its objects; they are decided in ascending RD; the candidate is the GPU
 * object reused furthest in the future, replaced if reused later than d,
 * on a tie if its global locality is lower, never if reused sooner (then
 * the search stops: every other object is reused sooner still).
 * Assumptions (spec B.9): the region's objects already placed this call
 * are not candidates (B.9.5); a prediction that did not come true counts
 * as +inf (B.9.6): RD counts the regions up to and including the next
 * user (rt_analysis.c, the paper's Fig. 3: O at TR_0 has RD 2), so an
 * object predicted for this launch or an earlier one (next_reuse <= TRC)
 * that this launch does not use was mispredicted (e.g. after a loop exit).
 * RD is an expected count; the runtime's clock is integral, so it is
 * rounded to the nearest integer. */
#include <math.h>
#include "rt_internal.h"

#define RT_INF UINT64_MAX

static uint64_t reuse_at(const struct runtime *rt, uint32_t x)
{
    uint64_t t = rt->obj[x].next_reuse;
    return t <= rt->trc && !rt->ri.uses[rt->region][x] ? RT_INF : t;
}

static int cmp(const struct runtime *rt, uint32_t a, uint32_t b)
{
    double ra = rt->ri.rd[rt->region][a], rb = rt->ri.rd[rt->region][b];
    if (ra != rb) return ra < rb ? -1 : 1;
    if (rt->ri.gl8[a] != rt->ri.gl8[b]) return rt->ri.gl8[a] > rt->ri.gl8[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

static uint32_t cand(const struct runtime *rt, uint32_t d, const bool *ex)
{
    /* argmax next reuse; among equal times the lowest GL first (it is the
     * one the tie rule would replace), then the later allocation. */
    uint32_t c = UINT32_MAX;
    for (uint32_t x = 0; x < rt->nobjs; x++) {
        if (ex[x] || !rt->obj[x].gpu) continue;
        if (c == UINT32_MAX || reuse_at(rt, x) > reuse_at(rt, c) ||
            (reuse_at(rt, x) == reuse_at(rt, c) &&
             (rt->ri.gl8[x] < rt->ri.gl8[c] || (rt->ri.gl8[x] == rt->ri.gl8[c] && x > c))))
            c = x;
    }
    if (c == UINT32_MAX) return c;
    uint64_t tc = reuse_at(rt, c), td = reuse_at(rt, d);
    if (tc > td) return c;
    if (tc == td && rt->ri.gl8[c] < rt->ri.gl8[d]) return c;
    return UINT32_MAX;
}

static void before(struct runtime *rt)
{
    for (uint32_t d = 0; d < rt->nobjs; d++) {
        if (!rt->ri.uses[rt->region][d]) continue;
        double rd = rt->ri.rd[rt->region][d];
        rt->obj[d].next_reuse = !(rd < 1e18) ? RT_INF : rt->trc + (uint64_t)llround(rd);
    }
    struct rt_scheme s = { cmp, cand, rt->p.partial, false };
    rt_replace(rt, &s);
}

const struct rt_ops rt_rdm_ops = { "rdm", before, NULL, false, rt_read_results, true };

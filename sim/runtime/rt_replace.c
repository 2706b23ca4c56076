/* The replacement core the object-level schemes share (SC19 Sec. 3.2
 * steps 1-4, Sec. 3.4 steps 1-4; spec B.2.3 / B.2.5): the region's objects
 * in the scheme's order; each is kept if on the GPU, moved if it fits, or
 * moved after evicting replacement candidates the scheme qualifies until
 * enough is free; otherwise placed in CPU memory (the candidate list is
 * discarded) -- or, for the first such object with partial mapping on,
 * split at the free space (Sec. 3.4 "Partial Mapping").
 *
 * Space is whole objects' bytes against the GPU's capacity (B.9.8: an
 * implicitly moved object reserves its whole size even if only part of it
 * will fault in), each rounded up to 64 KiB (RT_GRAIN). */
#include "rt_internal.h"

static void sort_region(const struct runtime *rt, const struct rt_scheme *s,
                        uint32_t *ord, uint32_t *n)
{
    *n = 0;
    for (uint32_t d = 0; d < rt->nobjs; d++)
        if (rt->ri.uses[rt->region][d]) ord[(*n)++] = d;
    /* Insertion sort: at most WL_MAX_ALLOCS objects, stable. */
    for (uint32_t i = 1; i < *n; i++) {
        uint32_t x = ord[i], j = i;
        while (j > 0 && s->cmp(rt, x, ord[j - 1]) < 0) { ord[j] = ord[j - 1]; j--; }
        ord[j] = x;
    }
}

void rt_replace(struct runtime *rt, const struct rt_scheme *s)
{
    uint32_t ord[WL_MAX_ALLOCS], n;
    sort_region(rt, s, ord, &n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t d = ord[i];
        struct rt_obj *o = &rt->obj[d];
        if (o->gpu == o->acct) {                        /* step 1 */
            rt->placed[d] = true;
            rt_row(rt, d, "keep_gpu", o->size);
            continue;
        }
        uint64_t need = o->acct - o->gpu;
        if (rt_free(rt) < need) {                       /* steps 3-4 */
            bool ex[WL_MAX_ALLOCS];
            uint32_t cand[WL_MAX_ALLOCS], nc = 0;
            uint64_t freed = 0;
            for (uint32_t x = 0; x < rt->nobjs; x++) ex[x] = rt->placed[x] || x == d;
            while (rt_free(rt) + freed < need) {
                uint32_t c = s->candidate(rt, d, ex);
                if (c == UINT32_MAX) break;
                ex[c] = true;
                cand[nc++] = c;
                freed += rt->obj[c].gpu;
            }
            if (rt_free(rt) + freed < need) {
                /* Partial mapping: the free space as it stands (B.9.7),
                 * whole 2 MiB blocks, this object's own share included. */
                uint64_t g = (rt_free(rt) + o->gpu) / RT_BLOCK * RT_BLOCK;
                if (s->partial && !rt->partial_done && g > 0) {
                    rt->partial_done = true;
                    rt_partial(rt, d, g);
                } else {
                    rt_pin(rt, d);
                }
                continue;
            }
            for (uint32_t k = 0; k < nc; k++) rt_evict(rt, cand[k]);
        }
        rt_to_gpu(rt, d, s->explicit_only);             /* step 2 */
    }
}

int rt_cmp_prio(const struct runtime *rt, uint32_t a, uint32_t b,
                double (*prio)(const struct runtime *rt, uint32_t x), bool gl_ties)
{
    double pa = prio(rt, a), pb = prio(rt, b);
    if (pa != pb) return pa > pb ? -1 : 1;              /* descending priority */
    if (gl_ties && rt->ri.gl8[a] != rt->ri.gl8[b]) return rt->ri.gl8[a] > rt->ri.gl8[b] ? -1 : 1;
    return a < b ? -1 : a > b;
}

/* "Select the data object with the lowest priority in the GPU memory as
 * the replacement candidate" (Sec. 3.2 step 3).  Only objects of lower
 * priority than d qualify: the paper's GLM "completely avoids thrashing"
 * and keeps V and N on the GPU throughout Fig. 3's cfd, which holds only
 * if a lower-priority object never displaces a higher one (the literal
 * step 3 would let F evict N at every TR_2). */
uint32_t rt_lowest_below(const struct runtime *rt, uint32_t d, const bool *excluded,
                         double (*prio)(const struct runtime *rt, uint32_t x), bool gl_ties)
{
    uint32_t best = UINT32_MAX;
    for (uint32_t x = 0; x < rt->nobjs; x++) {
        if (excluded[x] || !rt->obj[x].gpu) continue;
        if (prio(rt, x) >= prio(rt, d)) continue;
        if (best == UINT32_MAX || rt_cmp_prio(rt, x, best, prio, gl_ties) > 0) best = x;
    }
    return best;
}

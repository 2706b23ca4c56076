/* GLM, Global Locality based Management (SC19 Sec. 3.3; spec B.2.4): the
 * RLM algorithm with the priority GL_d = sum_i RF_i x RL_{i,d} (Eq. 1), as
 * the runtime stores it (8 bits per object, Sec. 3.4): constant over the
 * run, so once the GPU holds the highest-GL objects nothing is replaced. */
#include "rt_internal.h"

static double gl(const struct runtime *rt, uint32_t x) { return rt->ri.gl8[x]; }
static int cmp(const struct runtime *rt, uint32_t a, uint32_t b) { return rt_cmp_prio(rt, a, b, gl, false); }
static uint32_t cand(const struct runtime *rt, uint32_t d, const bool *ex)
{ return rt_lowest_below(rt, d, ex, gl, false); }

static const struct rt_scheme scheme = { cmp, cand, false, false };
static void before(struct runtime *rt) { rt_replace(rt, &scheme); }

const struct rt_ops rt_glm_ops = { "glm", before, NULL, false, rt_read_results, true };

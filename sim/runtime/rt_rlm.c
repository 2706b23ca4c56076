/* RLM, Regional Locality based Management (SC19 Sec. 3.2; spec B.2.3):
 * priority of an object in region i = RL_{i,d}, the static frequency of
 * its accesses in the region (Sec. 4.1); objects the region does not use
 * have RL 0 there, the lowest.  Ties: global locality, then allocation
 * order.  Hybrid implicit/explicit transfer by density; no partial mapping
 * (Sec. 3.4 adds it to RDM; Sec. 5.2: RDM moves more H2D than GLM on bfs
 * 31 GB because of it). */
#include "rt_internal.h"

static double rl(const struct runtime *rt, uint32_t x) { return rt->ri.rl[rt->region][x]; }
static int cmp(const struct runtime *rt, uint32_t a, uint32_t b) { return rt_cmp_prio(rt, a, b, rl, true); }
static uint32_t cand(const struct runtime *rt, uint32_t d, const bool *ex)
{ return rt_lowest_below(rt, d, ex, rl, true); }

static const struct rt_scheme scheme = { cmp, cand, false, false };
static void before(struct runtime *rt) { rt_replace(rt, &scheme); }

const struct rt_ops rt_rlm_ops = { "rlm", before, NULL, false, rt_read_results, true };

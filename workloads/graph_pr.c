/* PageRank (batch-aware paper, Kim et al. ASPLOS'20 Sec. 5: PR).
 * GraphBIG's GPU suite ships no PageRank kernel, so this one follows the
 * suite's topological thread-centric style with GraphBIG's CPU PageRank
 * (bench/PageRank) formulation in pull form: one thread per vertex sums
 * rank(u) / degree(u) over its neighbours u (the graph is symmetric, so
 * in-neighbours are neighbours) and writes (1-d)/V + d * sum into the other
 * rank array; arrays swap between iterations.  d = 0.85, a fixed
 * workload.pagerank.iterations (no convergence test, so the program's
 * length does not depend on float rounding).  Float ranks; degrees come
 * from the vertex list (two uint64 loads per neighbour).  No thread reads
 * what another writes in the same kernel: race-free. */
#include <stdlib.h>
#include <string.h>
#include "graph.h"
#include "catalog.h"
#include "config/config.h"

const struct cfg_key pagerank_config_keys[] = {
    {"workload.pagerank.iterations", CFG_INT, "10", 1, 1e9, NULL,
     "PageRank iterations (one kernel each)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

enum { K_INIT, K_ITER };
enum { A_R0 = 2, A_R1 };

struct pr {
    struct gk_base b;
    uint64_t iters, it;
};

#define GK_EXIT(L) do { (L)->pc = GK_DONE; return; } while (0)

static void thread(void *impl, struct gk_lane *L)
{
    struct pr *p = impl;
    const struct graph *g = p->b.g;
    const uint64_t *a = p->b.a;
    uint64_t t = L->tid, in = a[(p->b.k.arg & 1) ? A_R1 : A_R0], out = a[(p->b.k.arg & 1) ? A_R0 : A_R1];
    if (L->pc == 0 && t >= g->nv) GK_EXIT(L);
    switch (p->b.k.id) {
    case K_INIT:
        GK_BEGIN(L);
        GK_OP(L, INST_STORE, a[A_R0] + t * 4, 4);
        GK_END(L);
    case K_ITER:
        GK_BEGIN(L);
        GK_OP(L, INST_LOAD, a[GK_VL] + t * 8, 8);
        GK_OP(L, INST_LOAD, a[GK_VL] + (t + 1) * 8, 8);
        for (L->v[0] = g->row[t]; L->v[0] < g->row[t + 1]; L->v[0]++) {
            GK_OP(L, INST_LOAD, a[GK_EL] + L->v[0] * 8, 8);
            GK_OP(L, INST_LOAD, a[GK_VL] + g->col[L->v[0]] * 8ULL, 8);
            GK_OP(L, INST_LOAD, a[GK_VL] + (g->col[L->v[0]] + 1ULL) * 8, 8);
            GK_OP(L, INST_LOAD, in + g->col[L->v[0]] * 4ULL, 4);
        }
        GK_OP(L, INST_STORE, out + t * 4, 4);
        GK_END(L);
    default:
        sim_panic("workload", 0, "pagerank: no kernel %u", p->b.k.id);
    }
}

static bool pr_next_step(void *impl, struct wl_step *out)
{
    struct pr *p = impl;
    struct gk_base *b = &p->b;
    switch (b->pc) {
    case 0:
        gk_kernel_step(b, out, K_INIT, "initialize", b->g->nv, 0);
        GK_YIELD(b);
        for (p->it = 0; p->it < p->iters; p->it++) {
            gk_kernel_step(b, out, K_ITER, "pagerank", b->g->nv, p->it);
            GK_YIELD(b);
        }
        b->pc = -1;
        /* fall through */
    default:
        return false;
    }
}

static void *pr_create(struct workload *wl, const struct config *cfg)
{
    struct gk_base base;
    gk_base_init(&base, cfg);
    struct pr *p = xcalloc(1, sizeof *p);
    p->b = base;
    p->iters = cfg_u64(cfg, "workload.pagerank.iterations");
    gk_alloc_csr(wl, &p->b);
    gk_alloc(wl, &p->b, A_R0, "rank", base.g->nv * 4, WL_PLACE_DEFAULT);
    gk_alloc(wl, &p->b, A_R1, "rank_next", base.g->nv * 4, WL_PLACE_DEFAULT);
    return p;
}

static void pr_warp_start(void *impl, struct warp_ctx *w)
{
    struct pr *p = impl;
    gk_warp_start(&p->b.slab, p, thread, w);
}

static void pr_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *out)
{
    struct pr *p = impl;
    gk_next_inst(&p->b.slab, p, thread, w, out);
}

static void pr_destroy(void *impl)
{
    struct pr *p = impl;
    gk_base_free(&p->b);
    free(p);
}

static const struct workload_ops ops = {
    .name = "pagerank", .create = pr_create, .next_step = pr_next_step,
    .warp_start = pr_warp_start, .next_inst = pr_next_inst, .destroy = pr_destroy,
};

const struct wl_info pagerank_info = { &ops, pagerank_config_keys,
    "PageRank, GraphBIG-style topological thread-centric pull kernel (GraphBIG CPU bench/PageRank formulation), batch-aware paper PR; input graph: workload.graph.*",
    "8(V+1) + 8E + 2 x 4V bytes (V vertices, E directed edges)" };

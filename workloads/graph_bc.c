/* Betweenness centrality, GraphBIG gpu_BetweennessCentr betweenness.cu
 * (Brandes' algorithm on the GPU after Sariyuce et al.; batch-aware paper,
 * Kim et al. ASPLOS'20 Sec. 5: BC).  Per source: kernel_init; forward BFS
 * levels (kernel_forward_phase, one thread per vertex, while the flag
 * comes back cleared), counting shortest paths into sigma with atomicAdd;
 * backward accumulation of delta level by level (kernel_backward_phase);
 * kernel_backsum_phase adds delta into BC.  GraphBIG runs every vertex as a
 * source; workload.bc.sources limits that to the first N sources counted
 * from workload.graph.root.  Arrays as GraphBIG's: float BC and delta,
 * uint32 dist and sigma, bool flag.
 * Races: the forward kernel's "dist[w] == INF -> dist[w] = curr+1" is
 * executed as one serialisation (threads in id order; claim[w] = the edge
 * whose thread set it, as in graph_bfs.c); its sigma atomicAdd runs for
 * every frontier edge into the new level whoever claimed it.  The backward
 * kernels read only the finished levels.  Sigma and delta values do not
 * steer any address and are not computed. */
#include <stdlib.h>
#include <string.h>
#include "graph.h"
#include "catalog.h"
#include "config/config.h"

#define INF GRAPH_INF

const struct cfg_key bc_config_keys[] = {
    {"workload.bc.sources", CFG_INT, "1", 1, 4294967295.0, NULL,
     "source vertices (GraphBIG: all V; here the first N from workload.graph.root)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

enum { K_INIT, K_FWD, K_BWD, K_SUM };
enum { A_BC = 2, A_DELTA, A_DIST, A_SIGMA, A_OVER };

struct bc {
    struct gk_base b;
    uint64_t sources, src, root;
    uint32_t *level;
    uint64_t *claim;
    uint32_t curr;
    bool changed;
};

#define GK_EXIT(L) do { (L)->pc = GK_DONE; return; } while (0)

static void forward(struct bc *c)
{
    const struct graph *g = c->b.g;
    c->changed = false;
    for (uint64_t v = 0; v < g->nv; v++)
        if (c->level[v] == c->curr)
            for (uint64_t e = g->row[v]; e < g->row[v + 1]; e++)
                if (c->level[g->col[e]] == INF) {
                    c->level[g->col[e]] = c->curr + 1;
                    c->claim[g->col[e]] = e;
                    c->changed = true;
                }
}

static void thread(void *impl, struct gk_lane *L)
{
    struct bc *c = impl;
    const struct graph *g = c->b.g;
    const uint64_t *a = c->b.a;
    uint64_t t = L->tid;
    uint32_t cu = c->curr;
    if (L->pc == 0 && t >= g->nv) GK_EXIT(L);
    switch (c->b.k.id) {
    case K_INIT:
        GK_BEGIN(L);
        GK_OP(L, INST_STORE, a[A_DIST] + t * 4, 4);
        GK_OP(L, INST_STORE, a[A_SIGMA] + t * 4, 4);
        GK_OP(L, INST_STORE, a[A_DELTA] + t * 4, 4);
        GK_OP_IF(L, t == c->root, INST_STORE, a[A_DIST] + t * 4, 4);
        GK_OP_IF(L, t == c->root, INST_STORE, a[A_SIGMA] + t * 4, 4);
        GK_END(L);
    case K_FWD:
        GK_BEGIN(L);
        GK_OP(L, INST_LOAD, a[A_DIST] + t * 4, 4);
        if (c->level[t] != cu) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[GK_VL] + t * 8, 8);
        GK_OP(L, INST_LOAD, a[GK_VL] + (t + 1) * 8, 8);
        for (L->v[0] = g->row[t]; L->v[0] < g->row[t + 1]; L->v[0]++) {
            GK_OP(L, INST_LOAD, a[GK_EL] + L->v[0] * 8, 8);
            GK_OP(L, INST_LOAD, a[A_DIST] + g->col[L->v[0]] * 4ULL, 4);
#define CLAIMED (c->level[g->col[L->v[0]]] == cu + 1 && c->claim[g->col[L->v[0]]] == L->v[0])
            GK_OP_IF(L, CLAIMED, INST_STORE, a[A_DIST] + g->col[L->v[0]] * 4ULL, 4);
            GK_OP_IF(L, CLAIMED, INST_STORE, a[A_OVER], 1);
#undef CLAIMED
            GK_OP_IF(L, c->level[g->col[L->v[0]]] == cu + 1, INST_LOAD, a[A_SIGMA] + t * 4, 4);
            GK_OP_IF(L, c->level[g->col[L->v[0]]] == cu + 1, INST_ATOMIC,
                     a[A_SIGMA] + g->col[L->v[0]] * 4ULL, 4);
        }
        GK_END(L);
    case K_BWD:
        GK_BEGIN(L);
        GK_OP(L, INST_LOAD, a[A_DIST] + t * 4, 4);
        if (c->level[t] != cu - 1) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[GK_VL] + t * 8, 8);
        GK_OP(L, INST_LOAD, a[GK_VL] + (t + 1) * 8, 8);
        for (L->v[0] = g->row[t]; L->v[0] < g->row[t + 1]; L->v[0]++) {
            GK_OP(L, INST_LOAD, a[GK_EL] + L->v[0] * 8, 8);
            GK_OP(L, INST_LOAD, a[A_DIST] + g->col[L->v[0]] * 4ULL, 4);
            GK_OP_IF(L, c->level[g->col[L->v[0]]] == cu, INST_LOAD, a[A_SIGMA] + t * 4, 4);
            GK_OP_IF(L, c->level[g->col[L->v[0]]] == cu, INST_LOAD,
                     a[A_SIGMA] + g->col[L->v[0]] * 4ULL, 4);
            GK_OP_IF(L, c->level[g->col[L->v[0]]] == cu, INST_LOAD,
                     a[A_DELTA] + g->col[L->v[0]] * 4ULL, 4);
        }
        GK_OP(L, INST_LOAD, a[A_DELTA] + t * 4, 4);
        GK_OP(L, INST_STORE, a[A_DELTA] + t * 4, 4);
        GK_END(L);
    case K_SUM:
        GK_BEGIN(L);
        if (t == c->root) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_DIST] + t * 4, 4);
        if (c->level[t] == INF) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_BC] + t * 4, 4);
        GK_OP(L, INST_LOAD, a[A_DELTA] + t * 4, 4);
        GK_OP(L, INST_STORE, a[A_BC] + t * 4, 4);
        GK_END(L);
    default:
        sim_panic("workload", 0, "bc: no kernel %u", c->b.k.id);
    }
}

static bool bc_next_step(void *impl, struct wl_step *out)
{
    struct bc *c = impl;
    struct gk_base *b = &c->b;
    const struct graph *g = b->g;
    switch (b->pc) {
    case 0:
        for (c->src = 0; c->src < c->sources; c->src++) {
            c->root = (b->root + c->src) % g->nv;
            for (uint64_t v = 0; v < g->nv; v++) c->level[v] = INF;
            c->level[c->root] = 0;
            gk_kernel_step(b, out, K_INIT, "bc_init", g->nv, c->src);
            GK_YIELD(b);
            for (c->curr = 0;; c->curr++) {
                gk_memcpy_step(b, out, A_OVER, 0, 1, WL_TO_GPU);
                GK_YIELD(b);
                gk_kernel_step(b, out, K_FWD, "bc_forward", g->nv, c->curr);
                forward(c);
                GK_YIELD(b);
                gk_memcpy_step(b, out, A_OVER, 0, 1, WL_TO_HOST);
                GK_YIELD(b);
                if (!c->changed) break;
            }
            c->curr++;
            while (c->curr > 1) {
                c->curr--;
                gk_kernel_step(b, out, K_BWD, "bc_backward", g->nv, c->curr);
                GK_YIELD(b);
            }
            gk_kernel_step(b, out, K_SUM, "bc_backsum", g->nv, c->src);
            GK_YIELD(b);
        }
        b->pc = -1;
        /* fall through */
    default:
        return false;
    }
}

static void *bc_create(struct workload *wl, const struct config *cfg)
{
    struct gk_base base;
    gk_base_init(&base, cfg);
    struct bc *c = xcalloc(1, sizeof *c);
    c->b = base;
    c->sources = cfg_u64(cfg, "workload.bc.sources");
    uint64_t nv = base.g->nv;
    gk_alloc_csr(wl, &c->b);
    gk_alloc(wl, &c->b, A_BC, "BC", nv * 4, WL_PLACE_DEFAULT);
    gk_alloc(wl, &c->b, A_DELTA, "delta", nv * 4, WL_PLACE_DEFAULT);
    gk_alloc(wl, &c->b, A_DIST, "dist", nv * 4, WL_PLACE_DEFAULT);
    gk_alloc(wl, &c->b, A_SIGMA, "sigma", nv * 4, WL_PLACE_DEFAULT);
    gk_alloc(wl, &c->b, A_OVER, "device_over", 1, WL_PLACE_DEFAULT);
    c->level = xmalloc(nv * sizeof *c->level);
    c->claim = xcalloc(nv, sizeof *c->claim);
    return c;
}

static void bc_warp_start(void *impl, struct warp_ctx *w)
{
    struct bc *c = impl;
    gk_warp_start(&c->b.slab, c, thread, w);
}

static void bc_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *out)
{
    struct bc *c = impl;
    gk_next_inst(&c->b.slab, c, thread, w, out);
}

static void bc_destroy(void *impl)
{
    struct bc *c = impl;
    gk_base_free(&c->b);
    free(c->level); free(c->claim);
    free(c);
}

static const struct workload_ops ops = {
    .name = "bc", .create = bc_create, .next_step = bc_next_step,
    .warp_start = bc_warp_start, .next_inst = bc_next_inst, .destroy = bc_destroy,
};

const struct wl_info bc_info = { &ops, bc_config_keys,
    "GraphBIG gpu_BetweennessCentr betweenness.cu (init, forward, backward, backsum), batch-aware paper BC; input graph: workload.graph.*",
    "8(V+1) + 8E + 4V (BC) + 4V (delta) + 4V (dist) + 4V (sigma) + 1 bytes" };

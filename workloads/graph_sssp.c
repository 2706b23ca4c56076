/* Single-source shortest paths, GraphBIG gpu_SSSP sssp_topo_warp_centric.cu
 * (batch-aware paper, Kim et al. ASPLOS'20 Sec. 5: SSSP-TWC).  Per round:
 * `kernel`, a warp per 32 vertices whose lanes split the edges of each
 * masked vertex and atomicMin the tentative distance (update) of every
 * neighbour; `kernel2`, one thread per vertex, commits improved distances,
 * re-masks those vertices and sets the flag.  Rounds repeat while the flag
 * comes back set (Bellman-Ford).  Arrays as GraphBIG's: uint32 vertex
 * property, uint32 edge property (weights: gk_weight), uint32 update, bool
 * mask.  Neither kernel races on anything that changes its addresses: the
 * atomicMin is unconditional and kernel2's threads touch only their own
 * vertex, so each kernel's outcome is computed at launch and its warps are
 * generated against it (the mask bitset is the pre-kernel state of both). */
#include <stdlib.h>
#include <string.h>
#include "graph.h"
#include "catalog.h"
#include "config/config.h"

#define INF GRAPH_INF
enum { K_INIT, K_RELAX, K_COMMIT };
enum { A_VP = 2, A_EP, A_UPD, A_MASK, A_OVER };

struct sssp {
    struct gk_base b;
    uint32_t *dist, *upd;
    uint8_t *mask;            /* kernel: masked before it; kernel2: improved by it */
    bool changed;
    uint64_t round;
};

static inline bool bit(const uint8_t *m, uint64_t i) { return m[i >> 3] >> (i & 7) & 1; }

static void relax(struct sssp *s)
{
    const struct graph *g = s->b.g;
    for (uint64_t v = 0; v < g->nv; v++)
        if (bit(s->mask, v))
            for (uint64_t e = g->row[v]; e < g->row[v + 1]; e++) {
                uint32_t d = s->dist[v] + gk_weight(v, g->col[e]);
                if (d < s->upd[g->col[e]]) s->upd[g->col[e]] = d;
            }
}

static void commit(struct sssp *s)
{
    memset(s->mask, 0, (s->b.g->nv + 7) / 8);
    s->changed = false;
    for (uint64_t v = 0; v < s->b.g->nv; v++) {
        if (s->dist[v] > s->upd[v]) {
            s->dist[v] = s->upd[v];
            s->mask[v >> 3] |= (uint8_t)(1u << (v & 7));
            s->changed = true;
        } else {
            s->upd[v] = s->dist[v];
        }
    }
}

#define GK_EXIT(L) do { (L)->pc = GK_DONE; return; } while (0)

static void thread(void *impl, struct gk_lane *L)
{
    struct sssp *s = impl;
    const struct graph *g = s->b.g;
    const uint64_t *a = s->b.a;
    uint64_t t = L->tid, nv = g->nv, v1 = t / WARP_SIZE * WARP_SIZE;
    switch (s->b.k.id) {
    case K_INIT:
        GK_BEGIN(L);
        if (t >= nv) GK_EXIT(L);
        GK_OP(L, INST_STORE, a[A_VP] + t * 4, 4);
        GK_OP(L, INST_STORE, a[A_UPD] + t * 4, 4);
        GK_OP(L, INST_STORE, a[A_MASK] + t, 1);
        GK_END(L);
    case K_RELAX:
        GK_BEGIN(L);
        if (v1 >= nv) GK_EXIT(L);
        for (L->v[0] = v1; L->v[0] < v1 + WARP_SIZE && L->v[0] < nv; L->v[0]++) {
            GK_OP(L, INST_LOAD, a[A_MASK] + L->v[0], 1);
            if (bit(s->mask, L->v[0])) {
                GK_OP(L, INST_LOAD, a[GK_VL] + L->v[0] * 8, 8);
                GK_OP(L, INST_LOAD, a[GK_VL] + (L->v[0] + 1) * 8, 8);
                GK_OP(L, INST_LOAD, a[A_VP] + L->v[0] * 4, 4);
                for (L->v[1] = g->row[L->v[0]] + t % WARP_SIZE; L->v[1] < g->row[L->v[0] + 1];
                     L->v[1] += WARP_SIZE) {
                    GK_OP(L, INST_LOAD, a[GK_EL] + L->v[1] * 8, 8);
                    GK_OP(L, INST_LOAD, a[A_EP] + L->v[1] * 4, 4);
                    GK_OP(L, INST_ATOMIC, a[A_UPD] + g->col[L->v[1]] * 4ULL, 4);
                }
                GK_OP(L, INST_STORE, a[A_MASK] + L->v[0], 1);
            }
        }
        GK_END(L);
    case K_COMMIT:
        GK_BEGIN(L);
        if (t >= nv) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_VP] + t * 4, 4);
        GK_OP(L, INST_LOAD, a[A_UPD] + t * 4, 4);
        if (bit(s->mask, t)) {
            GK_OP(L, INST_STORE, a[A_VP] + t * 4, 4);
            GK_OP(L, INST_STORE, a[A_MASK] + t, 1);
            GK_OP(L, INST_STORE, a[A_OVER], 1);
        } else {
            GK_OP(L, INST_STORE, a[A_UPD] + t * 4, 4);
        }
        GK_END(L);
    default:
        sim_panic("workload", 0, "sssp: no kernel %u", s->b.k.id);
    }
}

/* GraphBIG cuda_SSSP: initialise, copy root distance, root mask and edge
 * weights in, then rounds of kernel + kernel2 while the flag is set. */
static bool sssp_next_step(void *impl, struct wl_step *out)
{
    struct sssp *s = impl;
    struct gk_base *b = &s->b;
    const struct graph *g = b->g;
    switch (b->pc) {
    case 0:
        gk_kernel_step(b, out, K_INIT, "initialize", g->nv, 0);
        GK_YIELD(b);
        s->dist[b->root] = 0;
        s->upd[b->root] = 0;
        s->mask[b->root >> 3] |= (uint8_t)(1u << (b->root & 7));
        gk_memcpy_step(b, out, A_VP, b->root * 4, 4, WL_TO_GPU);
        GK_YIELD(b);
        gk_memcpy_step(b, out, A_MASK, b->root, 1, WL_TO_GPU);
        GK_YIELD(b);
        gk_memcpy_step(b, out, A_EP, 0, g->ne ? g->ne * 4 : 1, WL_TO_GPU);
        GK_YIELD(b);
        for (s->round = 0;; s->round++) {
            gk_memcpy_step(b, out, A_OVER, 0, 1, WL_TO_GPU);
            GK_YIELD(b);
            gk_kernel_step(b, out, K_RELAX, "sssp_twc", g->nv, s->round);
            /* GraphBIG: ceil(blocks / CHUNK_SZ) * WARP_SZ blocks */
            out->kernel.grid.x = (out->kernel.grid.x + WARP_SIZE - 1) / WARP_SIZE * WARP_SIZE;
            b->k = out->kernel;
            relax(s);
            GK_YIELD(b);
            gk_kernel_step(b, out, K_COMMIT, "sssp_twc_2", g->nv, s->round);
            commit(s);
            GK_YIELD(b);
            gk_memcpy_step(b, out, A_OVER, 0, 1, WL_TO_HOST);
            GK_YIELD(b);
            if (!s->changed) break;
        }
        b->pc = -1;
        /* fall through */
    default:
        return false;
    }
}

static void *sssp_create(struct workload *wl, const struct config *cfg)
{
    struct gk_base base;
    gk_base_init(&base, cfg);
    struct sssp *s = xcalloc(1, sizeof *s);
    s->b = base;
    uint64_t nv = base.g->nv, ne = base.g->ne;
    gk_alloc_csr(wl, &s->b);
    gk_alloc(wl, &s->b, A_VP, "vproplist", nv * 4, WL_PLACE_DEFAULT);
    gk_alloc(wl, &s->b, A_EP, "eproplist", ne * 4, WL_PLACE_DEFAULT);
    gk_alloc(wl, &s->b, A_UPD, "update", nv * 4, WL_PLACE_DEFAULT);
    gk_alloc(wl, &s->b, A_MASK, "mask", nv, WL_PLACE_DEFAULT);
    gk_alloc(wl, &s->b, A_OVER, "device_over", 1, WL_PLACE_DEFAULT);
    s->dist = xmalloc(nv * sizeof *s->dist);
    s->upd = xmalloc(nv * sizeof *s->upd);
    for (uint64_t v = 0; v < nv; v++) s->dist[v] = s->upd[v] = INF;
    s->mask = xcalloc((nv + 7) / 8 + 1, 1);
    return s;
}

static void sssp_warp_start(void *impl, struct warp_ctx *w)
{
    struct sssp *s = impl;
    gk_warp_start(&s->b.slab, s, thread, w);
}

static void sssp_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *out)
{
    struct sssp *s = impl;
    gk_next_inst(&s->b.slab, s, thread, w, out);
}

static void sssp_destroy(void *impl)
{
    struct sssp *s = impl;
    gk_base_free(&s->b);
    free(s->dist); free(s->upd); free(s->mask);
    free(s);
}

const uint32_t *sssp_dist(const struct workload *wl)
{
    return ((const struct sssp *)wl->impl)->dist;
}

static const struct workload_ops ops = {
    .name = "sssp_twc", .create = sssp_create, .next_step = sssp_next_step,
    .warp_start = sssp_warp_start, .next_inst = sssp_next_inst, .destroy = sssp_destroy,
};

extern const struct cfg_key graph_config_keys[];
const struct wl_info sssp_twc_info = { &ops, graph_config_keys,
    "GraphBIG gpu_SSSP sssp_topo_warp_centric.cu (kernel, kernel2), batch-aware paper SSSP-TWC",
    "8(V+1) + 8E + 4V + 4E + 4V + V + 1 bytes (V vertices, E directed edges)" };

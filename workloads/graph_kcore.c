/* k-core decomposition, GraphBIG gpu_kCore kcore.cu (batch-aware paper,
 * Kim et al. ASPLOS'20 Sec. 5: KCORE): vertex property = degree; per round,
 * `kernel` lets every vertex removed in the previous round (flag set)
 * atomicSub the degree of each neighbour not yet removed, and `kernel2`
 * removes every remaining vertex whose degree fell below k (rmlist, flag,
 * atomicAdd on the removal count, flag "over" cleared); rounds repeat until
 * a round removes nothing.  Arrays as GraphBIG's: uint64 degree list (the
 * cudaGraph dlist), uint32 property, bool rmlist and flaglist.  Neither
 * kernel branches on what it writes (kernel reads rmlist, which only
 * kernel2 writes; kernel2 reads degrees, which only kernel writes), so each
 * outcome is computed at launch.  k: workload.kcore.k. */
#include <stdlib.h>
#include <string.h>
#include "graph.h"
#include "catalog.h"
#include "config/config.h"

const struct cfg_key kcore_config_keys[] = {
    {"workload.kcore.k", CFG_INT, "3", 1, 4294967295.0, NULL,
     "the core order: vertices of degree < k are peeled off (GraphBIG kcore argument)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

enum { K_INIT, K_PEEL, K_REMOVE };
enum { A_DL = 2, A_VP, A_RML, A_FLAG, A_CNT, A_OVER };

struct kcore {
    struct gk_base b;
    uint64_t k;
    uint32_t *deg;
    uint8_t *rml, *flag;      /* flag: removed by the last kernel2 */
    bool removed;
    uint64_t round;
};

static inline bool bit(const uint8_t *m, uint64_t i) { return m[i >> 3] >> (i & 7) & 1; }
static inline void set_bit(uint8_t *m, uint64_t i) { m[i >> 3] |= (uint8_t)(1u << (i & 7)); }

static void peel(struct kcore *c)
{
    const struct graph *g = c->b.g;
    for (uint64_t v = 0; v < g->nv; v++)
        if (bit(c->flag, v))
            for (uint64_t e = g->row[v]; e < g->row[v + 1]; e++)
                if (!bit(c->rml, g->col[e])) c->deg[g->col[e]]--;
}

static void remove_low(struct kcore *c)
{
    memset(c->flag, 0, (c->b.g->nv + 7) / 8);
    c->removed = false;
    for (uint64_t v = 0; v < c->b.g->nv; v++)
        if (!bit(c->rml, v) && c->deg[v] < c->k) {
            set_bit(c->rml, v);
            set_bit(c->flag, v);
            c->removed = true;
        }
}

#define GK_EXIT(L) do { (L)->pc = GK_DONE; return; } while (0)

static void thread(void *impl, struct gk_lane *L)
{
    struct kcore *c = impl;
    const struct graph *g = c->b.g;
    const uint64_t *a = c->b.a;
    uint64_t t = L->tid;
    if (L->pc == 0 && t >= g->nv) GK_EXIT(L);
    switch (c->b.k.id) {
    case K_INIT:
        GK_BEGIN(L);
        GK_OP(L, INST_LOAD, a[A_DL] + t * 8, 8);
        GK_OP(L, INST_STORE, a[A_VP] + t * 4, 4);
        GK_OP(L, INST_STORE, a[A_RML] + t, 1);
        GK_OP(L, INST_STORE, a[A_FLAG] + t, 1);
        GK_END(L);
    case K_PEEL:
        GK_BEGIN(L);
        GK_OP(L, INST_LOAD, a[A_FLAG] + t, 1);
        if (!bit(c->flag, t)) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[GK_VL] + t * 8, 8);
        GK_OP(L, INST_LOAD, a[GK_VL] + (t + 1) * 8, 8);
        for (L->v[0] = g->row[t]; L->v[0] < g->row[t + 1]; L->v[0]++) {
            GK_OP(L, INST_LOAD, a[GK_EL] + L->v[0] * 8, 8);
            GK_OP(L, INST_LOAD, a[A_RML] + g->col[L->v[0]], 1);
            GK_OP_IF(L, !bit(c->rml, g->col[L->v[0]]), INST_ATOMIC,
                     a[A_VP] + g->col[L->v[0]] * 4ULL, 4);
        }
        GK_OP(L, INST_STORE, a[A_FLAG] + t, 1);
        GK_END(L);
    case K_REMOVE:
        /* removed before this kernel: rml set and not by it (flag) */
        GK_BEGIN(L);
        GK_OP(L, INST_LOAD, a[A_RML] + t, 1);
        if (bit(c->rml, t) && !bit(c->flag, t)) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_VP] + t * 4, 4);
        if (!bit(c->flag, t)) GK_EXIT(L);
        GK_OP(L, INST_STORE, a[A_RML] + t, 1);
        GK_OP(L, INST_STORE, a[A_FLAG] + t, 1);
        GK_OP(L, INST_ATOMIC, a[A_CNT], 4);
        GK_OP(L, INST_STORE, a[A_OVER], 1);
        GK_END(L);
    default:
        sim_panic("workload", 0, "kcore: no kernel %u", c->b.k.id);
    }
}

/* GraphBIG cuda_kcore: counters in, initialise, then kernel + kernel2 while
 * a round removes something. */
static bool kcore_next_step(void *impl, struct wl_step *out)
{
    struct kcore *c = impl;
    struct gk_base *b = &c->b;
    const struct graph *g = b->g;
    switch (b->pc) {
    case 0:
        gk_memcpy_step(b, out, A_CNT, 0, 4, WL_TO_GPU);
        GK_YIELD(b);
        gk_memcpy_step(b, out, A_OVER, 0, 1, WL_TO_GPU);
        GK_YIELD(b);
        gk_kernel_step(b, out, K_INIT, "initialize", g->nv, 0);
        GK_YIELD(b);
        for (c->round = 0;; c->round++) {
            gk_memcpy_step(b, out, A_OVER, 0, 1, WL_TO_GPU);
            GK_YIELD(b);
            gk_kernel_step(b, out, K_PEEL, "kcore", g->nv, c->round);
            peel(c);
            GK_YIELD(b);
            gk_kernel_step(b, out, K_REMOVE, "kcore_2", g->nv, c->round);
            remove_low(c);
            GK_YIELD(b);
            gk_memcpy_step(b, out, A_OVER, 0, 1, WL_TO_HOST);
            GK_YIELD(b);
            if (!c->removed) break;
        }
        b->pc = -1;
        /* fall through */
    default:
        return false;
    }
}

static void *kcore_create(struct workload *wl, const struct config *cfg)
{
    struct gk_base base;
    gk_base_init(&base, cfg);
    struct kcore *c = xcalloc(1, sizeof *c);
    c->b = base;
    c->k = cfg_u64(cfg, "workload.kcore.k");
    const struct graph *g = base.g;
    uint64_t nv = g->nv;
    gk_alloc_csr(wl, &c->b);
    gk_alloc(wl, &c->b, A_DL, "degreelist", nv * 8, WL_PLACE_HOST);
    gk_alloc(wl, &c->b, A_VP, "vproplist", nv * 4, WL_PLACE_DEFAULT);
    gk_alloc(wl, &c->b, A_RML, "rmlist", nv, WL_PLACE_DEFAULT);
    gk_alloc(wl, &c->b, A_FLAG, "flaglist", nv, WL_PLACE_DEFAULT);
    gk_alloc(wl, &c->b, A_CNT, "remove_cnt", 4, WL_PLACE_DEFAULT);
    gk_alloc(wl, &c->b, A_OVER, "device_over", 1, WL_PLACE_DEFAULT);
    c->deg = xmalloc(nv * sizeof *c->deg);
    for (uint64_t v = 0; v < nv; v++) c->deg[v] = (uint32_t)(g->row[v + 1] - g->row[v]);
    c->rml = xcalloc((nv + 7) / 8 + 1, 1);
    c->flag = xcalloc((nv + 7) / 8 + 1, 1);
    return c;
}

static void kcore_warp_start(void *impl, struct warp_ctx *w)
{
    struct kcore *c = impl;
    gk_warp_start(&c->b.slab, c, thread, w);
}

static void kcore_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *out)
{
    struct kcore *c = impl;
    gk_next_inst(&c->b.slab, c, thread, w, out);
}

static void kcore_destroy(void *impl)
{
    struct kcore *c = impl;
    gk_base_free(&c->b);
    free(c->deg); free(c->rml); free(c->flag);
    free(c);
}

const uint8_t *kcore_removed(const struct workload *wl)
{
    return ((const struct kcore *)wl->impl)->rml;
}

static const struct workload_ops ops = {
    .name = "kcore", .create = kcore_create, .next_step = kcore_next_step,
    .warp_start = kcore_warp_start, .next_inst = kcore_next_inst, .destroy = kcore_destroy,
};

const struct wl_info kcore_info = { &ops, kcore_config_keys,
    "GraphBIG gpu_kCore kcore.cu (kernel, kernel2), batch-aware paper KCORE; input graph: workload.graph.*",
    "8(V+1) + 8E + 8V + 4V + V + V + 4 + 1 bytes (V vertices, E directed edges)" };

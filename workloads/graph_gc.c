/* Graph colouring, GraphBIG gpu_GraphColoring (Jones-Plassmann style:
 * Grosset et al., PPoPP'11), the two variants of the batch-aware paper
 * (Kim et al. ASPLOS'20 Sec. 5: GC-DTC and GC-TTC):
 *   gc_ttc  gc_topo_thread_centric.cu: one thread per vertex, a kernel per
 *           colour; an uncoloured vertex takes the colour unless a
 *           neighbour not coloured in an earlier round has a larger random
 *           value (ties: larger id wins); the flag is cleared while some
 *           vertex stays uncoloured;
 *   gc_dtc  gc_data_thread_centric.cu: the same test over a worklist of the
 *           uncoloured vertices; losers are pushed (atomicAdd on the out
 *           worklist's end) and the next colour runs on them.
 * Random values: GraphBIG draws rand() after srand(123); here xoshiro256**
 * seeded with 123, 31-bit values.  The kernels do not race on their
 * branches: a neighbour coloured in this round holds the current colour,
 * which the test treats like "uncoloured" (both are >= colour), so a
 * kernel's outcome depends only on the colours before it and is computed
 * at launch; pushes are ordered by thread id (one legal serialisation). */
#include <stdlib.h>
#include <string.h>
#include "graph.h"
#include "catalog.h"
#include "config/config.h"

#define INF GRAPH_INF
enum { K_INIT, K_TTC, K_DTC };
enum { A_VP = 2, A_RAND, A_OVER, A_ITEMS1, A_END1, A_ITEMS2, A_END2 };

struct gc {
    struct gk_base b;
    bool dtc;
    uint32_t *color, *rnd;
    uint32_t *wl[2];
    uint64_t wln[2], *obase;
    uint32_t curr;
    bool more;
};

/* Does vertex V lose against a neighbour in round COLOR?  Returns the edge
 * index where its loop breaks, or the row end when it takes the colour. */
static uint64_t loses_at(const struct gc *c, uint64_t v)
{
    const struct graph *g = c->b.g;
    for (uint64_t e = g->row[v]; e < g->row[v + 1]; e++) {
        uint32_t d = g->col[e];
        if (c->color[d] < c->curr) continue;
        if (c->rnd[d] > c->rnd[v] || (c->rnd[d] == c->rnd[v] && d < v)) return e;
    }
    return g->row[v + 1];
}

static void run_round(struct gc *c)
{
    const struct graph *g = c->b.g;
    c->more = false;
    if (!c->dtc) {
        /* decide every vertex on the colours before the round, then commit */
        uint64_t n = 0;
        for (uint64_t v = 0; v < g->nv; v++)
            if (c->color[v] == INF && loses_at(c, v) == g->row[v + 1]) c->obase[n++] = v;
            else if (c->color[v] == INF) c->more = true;
        for (uint64_t i = 0; i < n; i++) c->color[c->obase[i]] = c->curr;
        return;
    }
    const uint32_t *in = c->wl[c->curr & 1];
    uint32_t *out = c->wl[(c->curr + 1) & 1];
    uint64_t n = c->wln[c->curr & 1], on = 0;
    for (uint64_t t = 0; t < n; t++) {
        uint64_t v = in[t];
        c->obase[t] = on;
        if (loses_at(c, v) != g->row[v + 1]) out[on++] = (uint32_t)v;
    }
    /* colours after the decisions (a winner's colour is invisible to the
     * round's other tests, see above) */
    for (uint64_t t = 0, o = 0; t < n; t++) {
        if (o < on && out[o] == in[t]) { o++; continue; }
        c->color[in[t]] = c->curr;
    }
    c->wln[(c->curr + 1) & 1] = on;
    c->more = on != 0;
}

#define GK_EXIT(L) do { (L)->pc = GK_DONE; return; } while (0)

static void thread(void *impl, struct gk_lane *L)
{
    struct gc *c = impl;
    const struct graph *g = c->b.g;
    const uint64_t *a = c->b.a;
    uint64_t t = L->tid, nv = g->nv;
    unsigned in = c->curr & 1, out = in ^ 1;
    /* v[2]: the vertex, v[0]: the edge */
    switch (c->b.k.id) {
    case K_INIT:
        GK_BEGIN(L);
        if (t >= nv) GK_EXIT(L);
        GK_OP(L, INST_STORE, a[A_VP] + t * 4, 4);
        GK_END(L);
    case K_TTC: case K_DTC:
        GK_BEGIN(L);
        if (c->b.k.id == K_DTC) {
            if (t >= c->wln[in]) GK_EXIT(L);
            GK_OP(L, INST_LOAD, a[in ? A_END2 : A_END1], 4);
            GK_OP(L, INST_LOAD, a[in ? A_ITEMS2 : A_ITEMS1] + t * 8, 8);
            L->v[2] = c->wl[in][t];
        } else {
            if (t >= nv) GK_EXIT(L);
            L->v[2] = t;
        }
        GK_OP(L, INST_LOAD, a[A_VP] + L->v[2] * 4, 4);
        if (c->color[L->v[2]] < c->curr) GK_EXIT(L);     /* coloured before */
        GK_OP(L, INST_LOAD, a[GK_VL] + L->v[2] * 8, 8);
        GK_OP(L, INST_LOAD, a[GK_VL] + (L->v[2] + 1) * 8, 8);
        GK_OP(L, INST_LOAD, a[A_RAND] + L->v[2] * 4, 4);
        for (L->v[0] = g->row[L->v[2]]; L->v[0] < g->row[L->v[2] + 1]; L->v[0]++) {
            GK_OP(L, INST_LOAD, a[GK_EL] + L->v[0] * 8, 8);
            GK_OP(L, INST_LOAD, a[A_VP] + g->col[L->v[0]] * 4ULL, 4);
            GK_OP_IF(L, c->color[g->col[L->v[0]]] >= c->curr, INST_LOAD,
                     a[A_RAND] + g->col[L->v[0]] * 4ULL, 4);
            {
                uint32_t d = g->col[L->v[0]];
                uint64_t v = L->v[2];
                if (c->color[d] >= c->curr &&
                    (c->rnd[d] > c->rnd[v] || (c->rnd[d] == c->rnd[v] && d < v))) break;
            }
        }
        if (L->v[0] == g->row[L->v[2] + 1]) {
            GK_OP(L, INST_STORE, a[A_VP] + L->v[2] * 4, 4);
        } else if (c->b.k.id == K_TTC) {
            GK_OP(L, INST_STORE, a[A_OVER], 1);
        } else {
            GK_OP(L, INST_ATOMIC, a[out ? A_END2 : A_END1], 4);
            GK_OP(L, INST_STORE, a[out ? A_ITEMS2 : A_ITEMS1] + c->obase[t] * 8, 8);
        }
        GK_END(L);
    default:
        sim_panic("workload", 0, "gc: no kernel %u", c->b.k.id);
    }
}

static bool gc_next_step(void *impl, struct wl_step *out)
{
    struct gc *c = impl;
    struct gk_base *b = &c->b;
    const struct graph *g = b->g;
    switch (b->pc) {
    case 0:
        gk_kernel_step(b, out, K_INIT, "initialize", g->nv, 0);
        GK_YIELD(b);
        if (c->dtc) {
            for (uint64_t v = 0; v < g->nv; v++) c->wl[0][v] = (uint32_t)v;
            c->wln[0] = g->nv;
            gk_memcpy_step(b, out, A_END1, 0, 4, WL_TO_GPU);
            GK_YIELD(b);
            gk_memcpy_step(b, out, A_ITEMS1, 0, g->nv * 8, WL_TO_GPU);
            GK_YIELD(b);
        }
        gk_memcpy_step(b, out, A_RAND, 0, g->nv * 4, WL_TO_GPU);
        GK_YIELD(b);
        for (c->curr = 0;; c->curr++) {
            if (!c->dtc) {
                gk_memcpy_step(b, out, A_OVER, 0, 1, WL_TO_GPU);
                GK_YIELD(b);
                gk_kernel_step(b, out, K_TTC, "gc_ttc", g->nv, c->curr);
                run_round(c);
                GK_YIELD(b);
                gk_memcpy_step(b, out, A_OVER, 0, 1, WL_TO_HOST);
                GK_YIELD(b);
            } else {
                gk_kernel_step(b, out, K_DTC, "gc_dtc", c->wln[c->curr & 1], c->curr);
                run_round(c);
                GK_YIELD(b);
                gk_memcpy_step(b, out, (c->curr & 1) ? A_END1 : A_END2, 0, 4, WL_TO_HOST);
                GK_YIELD(b);
                gk_memcpy_step(b, out, (c->curr & 1) ? A_END2 : A_END1, 0, 4, WL_TO_GPU);
                GK_YIELD(b);
            }
            if (!c->more) break;
        }
        b->pc = -1;
        /* fall through */
    default:
        return false;
    }
}

static void *gc_create(struct workload *wl, const struct config *cfg)
{
    struct gk_base base;
    gk_base_init(&base, cfg);
    struct gc *c = xcalloc(1, sizeof *c);
    c->b = base;
    c->dtc = !strcmp(wl->ops->name, "gc_dtc");
    uint64_t nv = base.g->nv;
    gk_alloc_csr(wl, &c->b);
    gk_alloc(wl, &c->b, A_VP, "vproplist", nv * 4, WL_PLACE_DEFAULT);
    gk_alloc(wl, &c->b, A_RAND, "randlist", nv * 4, WL_PLACE_DEFAULT);
    if (c->dtc) {
        gk_alloc(wl, &c->b, A_ITEMS1, "worklist1.items", nv * 8, WL_PLACE_DEFAULT);
        gk_alloc(wl, &c->b, A_END1, "worklist1.end", 4, WL_PLACE_DEFAULT);
        gk_alloc(wl, &c->b, A_ITEMS2, "worklist2.items", nv * 8, WL_PLACE_DEFAULT);
        gk_alloc(wl, &c->b, A_END2, "worklist2.end", 4, WL_PLACE_DEFAULT);
        c->wl[0] = xmalloc(nv * sizeof *c->wl[0]);
        c->wl[1] = xmalloc(nv * sizeof *c->wl[1]);
    } else {
        gk_alloc(wl, &c->b, A_OVER, "device_over", 1, WL_PLACE_DEFAULT);
    }
    c->obase = xmalloc((nv + 1) * sizeof *c->obase);
    c->color = xmalloc(nv * sizeof *c->color);
    c->rnd = xmalloc(nv * sizeof *c->rnd);
    struct rng r;
    rng_seed(&r, 123);
    for (uint64_t v = 0; v < nv; v++) { c->color[v] = INF; c->rnd[v] = (uint32_t)(rng_next(&r) >> 33); }
    return c;
}

static void gc_warp_start(void *impl, struct warp_ctx *w)
{
    struct gc *c = impl;
    gk_warp_start(&c->b.slab, c, thread, w);
}

static void gc_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *out)
{
    struct gc *c = impl;
    gk_next_inst(&c->b.slab, c, thread, w, out);
}

static void gc_destroy(void *impl)
{
    struct gc *c = impl;
    gk_base_free(&c->b);
    free(c->color); free(c->rnd); free(c->wl[0]); free(c->wl[1]); free(c->obase);
    free(c);
}

const uint32_t *gc_colors(const struct workload *wl)
{
    return ((const struct gc *)wl->impl)->color;
}

static const struct workload_ops ops[] = {
    { .name = "gc_dtc", .create = gc_create, .next_step = gc_next_step,
      .warp_start = gc_warp_start, .next_inst = gc_next_inst, .destroy = gc_destroy },
    { .name = "gc_ttc", .create = gc_create, .next_step = gc_next_step,
      .warp_start = gc_warp_start, .next_inst = gc_next_inst, .destroy = gc_destroy },
};

extern const struct cfg_key graph_config_keys[];
const struct wl_info gc_dtc_info = { &ops[0], graph_config_keys,
    "GraphBIG gpu_GraphColoring gc_data_thread_centric.cu (kernel), batch-aware paper GC-DTC",
    "8(V+1) + 8E + 4V + 4V + 2(8V + 4) bytes (V vertices, E directed edges; worklists sized V)" };
const struct wl_info gc_ttc_info = { &ops[1], graph_config_keys,
    "GraphBIG gpu_GraphColoring gc_topo_thread_centric.cu (kernel), batch-aware paper GC-TTC",
    "8(V+1) + 8E + 4V + 4V + 1 bytes (V vertices, E directed edges)" };

/* Breadth-first search, GraphBIG's five GPU variants (gpu_bench/gpu_BFS), as
 * run by the batch-aware paper (Kim et al. ASPLOS'20 Sec. 5: BFS-DWC, -TA,
 * -TF, -TTC, -TWC):
 *   bfs_ttc  topological thread-centric: one vertex per thread, a kernel per
 *            level, threads of frontier vertices scan their edges;
 *   bfs_twc  topological warp-centric: a warp takes 32 vertices, its lanes
 *            split each frontier vertex's edges;
 *   bfs_ta   topological atomic: every vertex relaxes its edges with
 *            atomicMin until nothing changes (Bellman-Ford style);
 *   bfs_tf   topological frontier (Harish & Narayanan): frontier / updating
 *            / visited flag arrays, two kernels per level;
 *   bfs_dwc  data-driven warp-centric: in/out worklists, a warp takes 32
 *            worklist items, lanes split edges, atomicAdd reserves output.
 * Device arrays and element sizes are GraphBIG's: vertex list of V+1 uint64
 * offsets (get_firstedge_index / get_edge_index_end), edge list of uint64
 * destinations, uint32 levels (MY_INFINITY 0xffffff00), bool flags; the
 * worklists hold uint64 items and a uint32 end counter, sized to V (GraphBIG
 * allocates a fixed 16 Mi items; a deduplicated worklist never exceeds V).
 *
 * Functional execution.  The kernels race (several threads may find the
 * same unvisited vertex), so a result must be chosen: each kernel is
 * executed, at its launch, as one legal serialisation -- threads in
 * ascending global id, each running its loops in program order -- and the
 * outcome of every racy branch is recorded (claim[v]: the edge whose thread
 * set v's level; for bfs_ta, the bitsets of edges whose atomicMin lowered
 * the level and of vertices that set the flag).  Warps, generated later in
 * any order and interleaving, then replay their threads against the level
 * array and the records, which stay fixed until the next launch: a
 * vertex's level is written once and only to curr+1, so "unvisited when
 * the kernel started" is level > curr.  The host loop (launch again while
 * the flag is set / the worklist is non-empty) sees the real outcome. */
#include <stdlib.h>
#include <string.h>
#include "graph.h"
#include "catalog.h"
#include "config/config.h"

#define INF 0xffffff00u
#define LOCAL_SIZE 128          /* GraphBIG bfs_data_warp_centric LOCAL_SIZE */

enum variant { V_TTC, V_TWC, V_TA, V_TF, V_DWC };
enum kid { K_INIT, K_TTC, K_TWC, K_TA, K_TF1, K_TF2, K_DWC };
enum { A_VL, A_EL, A_VP, A_OVER, A_FRONT, A_UPD, A_VIS,
       A_ITEMS1, A_END1, A_ITEMS2, A_END2, A_N };

struct bfs {
    enum variant var;
    struct graph *g;
    uint32_t maxb;
    uint64_t root;
    uint32_t *level;
    uint64_t *claim;
    uint8_t *fired, *vchg;      /* bfs_ta */
    uint32_t *wl[2];            /* bfs_dwc worklists (host copy) */
    uint64_t wln[2];
    uint64_t *obase;            /* bfs_dwc: each thread's first output slot */
    uint64_t a[A_N];            /* device addresses */
    uint32_t ai[A_N];           /* allocation indices */
    uint32_t curr;
    bool changed;
    int pc;                     /* host program resume point */
    struct wl_kernel k;         /* the kernel running */
    struct gk_slab slab;
};

static inline uint64_t deg(const struct graph *g, uint64_t v) { return g->row[v + 1] - g->row[v]; }
static inline bool bit(const uint8_t *b, uint64_t i) { return b[i >> 3] >> (i & 7) & 1; }
static inline void set_bit(uint8_t *b, uint64_t i) { b[i >> 3] |= (uint8_t)(1u << (i & 7)); }

/* Did the thread scanning edge E (in this kernel) set its destination? */
static inline bool claimed(const struct bfs *b, uint64_t e)
{
    uint32_t v = b->g->col[e];
    return b->level[v] == b->curr + 1 && b->claim[v] == e;
}

static void discover(struct bfs *b, uint64_t e)
{
    uint32_t v = b->g->col[e];
    if (b->level[v] != INF) return;
    b->level[v] = b->curr + 1;
    b->claim[v] = e;
    b->changed = true;
}

/* ---- functional passes, run at launch ---- */

static void run_ttc(struct bfs *b)
{
    const struct graph *g = b->g;
    for (uint64_t v = 0; v < g->nv; v++)
        if (b->level[v] == b->curr)
            for (uint64_t e = g->row[v]; e < g->row[v + 1]; e++) discover(b, e);
}

/* Thread (warp w, lane l) scans edges l, l+32, ... of vertices 32w..32w+31. */
static void run_twc(struct bfs *b)
{
    const struct graph *g = b->g;
    for (uint64_t v1 = 0; v1 < g->nv; v1 += WARP_SIZE)
        for (uint64_t l = 0; l < WARP_SIZE; l++)
            for (uint64_t v = v1; v < v1 + WARP_SIZE && v < g->nv; v++)
                if (b->level[v] == b->curr)
                    for (uint64_t i = l; i < deg(g, v); i += WARP_SIZE)
                        discover(b, g->row[v] + i);
}

static void run_ta(struct bfs *b)
{
    const struct graph *g = b->g;
    memset(b->fired, 0, (g->ne + 7) / 8);
    memset(b->vchg, 0, (g->nv + 7) / 8);
    for (uint64_t v = 0; v < g->nv; v++)
        for (uint64_t e = g->row[v]; e < g->row[v + 1]; e++) {
            uint32_t d = g->col[e], nl = b->level[v] + 1;
            if (nl < b->level[d]) {
                b->level[d] = nl;
                set_bit(b->fired, e);
                set_bit(b->vchg, v);
                b->changed = true;
            }
        }
}

static void run_tf(struct bfs *b)
{
    run_ttc(b);                 /* kernel 1's outcome: no thread reads a
                                   flag another thread of it writes */
}

static void run_dwc(struct bfs *b)
{
    const struct graph *g = b->g;
    const uint32_t *in = b->wl[b->curr & 1];
    uint32_t *out = b->wl[(b->curr + 1) & 1];
    uint64_t n = b->wln[b->curr & 1], on = 0;
    uint64_t nthreads = (n + WARP_SIZE - 1) / WARP_SIZE * WARP_SIZE;
    for (uint64_t t = 0; t < nthreads; t++) {
        b->obase[t] = on;
        uint64_t ts = t / WARP_SIZE * WARP_SIZE, l = t % WARP_SIZE;
        for (uint64_t id = ts; id < ts + WARP_SIZE && id < n; id++)
            for (uint64_t i = l; i < deg(g, in[id]); i += WARP_SIZE) {
                uint64_t e = g->row[in[id]] + i;
                bool was = b->changed;
                b->changed = false;
                discover(b, e);
                if (b->changed) out[on++] = g->col[e];
                b->changed |= was;
            }
    }
    b->wln[(b->curr + 1) & 1] = on;
}

/* ---- threads ---- */

#define GK_EXIT(L) do { (L)->pc = GK_DONE; return; } while (0)

static void thread(void *impl, struct gk_lane *L)
{
    struct bfs *b = impl;
    const struct graph *g = b->g;
    const uint64_t *a = b->a;
    uint64_t t = L->tid, nv = g->nv;
    switch (b->k.id) {
    case K_INIT:
        GK_BEGIN(L);
        if (t >= nv) GK_EXIT(L);
        if (b->var == V_TF) {
            GK_OP(L, INST_STORE, a[A_FRONT] + t, 1);
            GK_OP(L, INST_STORE, a[A_UPD] + t, 1);
            GK_OP(L, INST_STORE, a[A_VIS] + t, 1);
        }
        GK_OP(L, INST_STORE, a[A_VP] + t * 4, 4);
        GK_END(L);
    case K_TTC:
        GK_BEGIN(L);
        if (t >= nv) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_VP] + t * 4, 4);
        if (b->level[t] != b->curr) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_VL] + t * 8, 8);
        GK_OP(L, INST_LOAD, a[A_VL] + (t + 1) * 8, 8);
        for (L->v[0] = g->row[t]; L->v[0] < g->row[t + 1]; L->v[0]++) {
            GK_OP(L, INST_LOAD, a[A_EL] + L->v[0] * 8, 8);
            GK_OP(L, INST_LOAD, a[A_VP] + g->col[L->v[0]] * 4ULL, 4);
            GK_OP_IF(L, claimed(b, L->v[0]), INST_STORE, a[A_OVER], 1);
            GK_OP_IF(L, claimed(b, L->v[0]), INST_STORE, a[A_VP] + g->col[L->v[0]] * 4ULL, 4);
        }
        GK_END(L);
    case K_TWC:
        GK_BEGIN(L);
        if (t / WARP_SIZE * WARP_SIZE >= nv) GK_EXIT(L);
        for (L->v[0] = t / WARP_SIZE * WARP_SIZE;
             L->v[0] < t / WARP_SIZE * WARP_SIZE + WARP_SIZE && L->v[0] < nv; L->v[0]++) {
            GK_OP(L, INST_LOAD, a[A_VP] + L->v[0] * 4, 4);
            if (b->level[L->v[0]] == b->curr) {
                GK_OP(L, INST_LOAD, a[A_VL] + L->v[0] * 8, 8);
                GK_OP(L, INST_LOAD, a[A_VL] + (L->v[0] + 1) * 8, 8);
                for (L->v[1] = g->row[L->v[0]] + t % WARP_SIZE; L->v[1] < g->row[L->v[0] + 1];
                     L->v[1] += WARP_SIZE) {
                    GK_OP(L, INST_LOAD, a[A_EL] + L->v[1] * 8, 8);
                    GK_OP(L, INST_LOAD, a[A_VP] + g->col[L->v[1]] * 4ULL, 4);
                    GK_OP_IF(L, claimed(b, L->v[1]), INST_STORE, a[A_VP] + g->col[L->v[1]] * 4ULL, 4);
                    GK_OP_IF(L, claimed(b, L->v[1]), INST_STORE, a[A_OVER], 1);
                }
                GK_SYNC(L);
            }
        }
        GK_END(L);
    case K_TA:
        GK_BEGIN(L);
        if (t >= nv) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_VL] + t * 8, 8);
        GK_OP(L, INST_LOAD, a[A_VL] + (t + 1) * 8, 8);
        for (L->v[0] = g->row[t]; L->v[0] < g->row[t + 1]; L->v[0]++) {
            GK_OP(L, INST_LOAD, a[A_EL] + L->v[0] * 8, 8);
            GK_OP(L, INST_LOAD, a[A_VP] + t * 4, 4);
            GK_OP(L, INST_LOAD, a[A_VP] + g->col[L->v[0]] * 4ULL, 4);
            GK_OP_IF(L, bit(b->fired, L->v[0]), INST_ATOMIC, a[A_VP] + g->col[L->v[0]] * 4ULL, 4);
        }
        GK_OP_IF(L, bit(b->vchg, t), INST_STORE, a[A_OVER], 1);
        GK_END(L);
    case K_TF1:
        GK_BEGIN(L);
        if (t >= nv) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_FRONT] + t, 1);
        if (b->level[t] != b->curr) GK_EXIT(L);
        GK_OP(L, INST_STORE, a[A_FRONT] + t, 1);
        GK_OP(L, INST_LOAD, a[A_VL] + t * 8, 8);
        GK_OP(L, INST_LOAD, a[A_VL] + (t + 1) * 8, 8);
        for (L->v[0] = g->row[t]; L->v[0] < g->row[t + 1]; L->v[0]++) {
            GK_OP(L, INST_LOAD, a[A_EL] + L->v[0] * 8, 8);
            GK_OP(L, INST_LOAD, a[A_VIS] + g->col[L->v[0]], 1);
            GK_OP_IF(L, b->level[g->col[L->v[0]]] > b->curr, INST_LOAD, a[A_VP] + t * 4, 4);
            GK_OP_IF(L, b->level[g->col[L->v[0]]] > b->curr, INST_STORE,
                     a[A_VP] + g->col[L->v[0]] * 4ULL, 4);
            GK_OP_IF(L, b->level[g->col[L->v[0]]] > b->curr, INST_STORE,
                     a[A_UPD] + g->col[L->v[0]], 1);
        }
        GK_END(L);
    case K_TF2:
        GK_BEGIN(L);
        if (t >= nv) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_UPD] + t, 1);
        if (b->level[t] != b->curr + 1) GK_EXIT(L);
        GK_OP(L, INST_STORE, a[A_FRONT] + t, 1);
        GK_OP(L, INST_STORE, a[A_VIS] + t, 1);
        GK_OP(L, INST_STORE, a[A_UPD] + t, 1);
        GK_OP(L, INST_STORE, a[A_OVER], 1);
        GK_END(L);
    case K_DWC: {
        unsigned in = b->curr & 1, out = in ^ 1;
        uint64_t in_items = a[in ? A_ITEMS2 : A_ITEMS1], out_items = a[out ? A_ITEMS2 : A_ITEMS1];
        uint64_t n = b->wln[in], ts = t / WARP_SIZE * WARP_SIZE;
        const uint32_t *inl = b->wl[in];
        /* v[0] item, v[1] edge, v[2] push index, v[4] local count, v[5] pushed */
        GK_BEGIN(L);
        GK_OP(L, INST_LOAD, a[in ? A_END2 : A_END1], 4);
        if (ts >= n) GK_EXIT(L);
        for (L->v[0] = ts; L->v[0] < ts + WARP_SIZE && L->v[0] < n; L->v[0]++) {
            GK_OP(L, INST_LOAD, in_items + L->v[0] * 8, 8);
            GK_OP(L, INST_LOAD, a[A_VL] + inl[L->v[0]] * 8ULL, 8);
            GK_OP(L, INST_LOAD, a[A_VL] + (inl[L->v[0]] + 1ULL) * 8, 8);
            for (L->v[1] = g->row[inl[L->v[0]]] + t % WARP_SIZE; L->v[1] < g->row[inl[L->v[0]] + 1];
                 L->v[1] += WARP_SIZE) {
                GK_OP(L, INST_LOAD, a[A_EL] + L->v[1] * 8, 8);
                GK_OP(L, INST_LOAD, a[A_VP] + g->col[L->v[1]] * 4ULL, 4);
                GK_OP_IF(L, claimed(b, L->v[1]), INST_STORE, a[A_VP] + g->col[L->v[1]] * 4ULL, 4);
                if (claimed(b, L->v[1]) && ++L->v[4] == LOCAL_SIZE) {
                    GK_OP(L, INST_ATOMIC, a[out ? A_END2 : A_END1], 4);
                    for (L->v[2] = 0; L->v[2] < LOCAL_SIZE; L->v[2]++)
                        GK_OP(L, INST_STORE, out_items + (b->obase[t] + L->v[5] + L->v[2]) * 8, 8);
                    L->v[5] += LOCAL_SIZE;
                    L->v[4] = 0;
                }
                GK_SYNC(L);
            }
            GK_SYNC(L);
        }
        GK_OP(L, INST_ATOMIC, a[out ? A_END2 : A_END1], 4);
        for (L->v[2] = 0; L->v[2] < L->v[4]; L->v[2]++)
            GK_OP(L, INST_STORE, out_items + (b->obase[t] + L->v[5] + L->v[2]) * 8, 8);
        GK_END(L);
    }
    default:
        sim_panic("workload", 0, "bfs: no kernel %u", b->k.id);
    }
}

/* ---- host program ---- */

static void kernel(struct bfs *b, struct wl_step *out, enum kid id, const char *name,
                   uint64_t threads)
{
    out->kind = WL_STEP_KERNEL;
    struct wl_kernel *k = &out->kernel;
    snprintf(k->name, sizeof k->name, "%s", name);
    gk_shape(k, threads, b->maxb);
    k->id = id;
    k->arg = b->curr;
    k->regs_per_thread = 16;
    b->k = *k;
}

static void memcpy_step(struct bfs *b, struct wl_step *out, int alloc, uint64_t off,
                        uint64_t bytes, enum wl_dir dir)
{
    out->kind = WL_STEP_MEMCPY;
    out->host = (struct wl_host_step){ .alloc = b->ai[alloc], .offset = off,
                                       .bytes = bytes, .dir = dir };
}

#define YIELD do { b->pc = __LINE__; return true; case __LINE__:; } while (0)

/* GraphBIG's cuda_BFS host loops: initialise, copy the root in, then launch
 * while the changed flag comes back set (worklist non-empty for DWC). */
static bool bfs_next_step(void *impl, struct wl_step *out)
{
    struct bfs *b = impl;
    const struct graph *g = b->g;
    switch (b->pc) {
    case 0:
        kernel(b, out, K_INIT, "initialize", g->nv);
        YIELD;
        if (b->var == V_DWC) {
            b->wl[0][0] = (uint32_t)b->root;
            b->wln[0] = 1;
            memcpy_step(b, out, A_END1, 0, 4, WL_TO_GPU);
            YIELD;
            memcpy_step(b, out, A_ITEMS1, 0, 8, WL_TO_GPU);
            YIELD;
        }
        if (b->var == V_TF) {
            memcpy_step(b, out, A_FRONT, b->root, 1, WL_TO_GPU);
            YIELD;
            memcpy_step(b, out, A_VIS, b->root, 1, WL_TO_GPU);
            YIELD;
        }
        b->level[b->root] = 0;
        memcpy_step(b, out, A_VP, b->root * 4, 4, WL_TO_GPU);
        YIELD;
        for (b->curr = 0;; b->curr++) {
            b->changed = false;
            if (b->var == V_DWC) {
                {
                    uint64_t n = b->wln[b->curr & 1];
                    uint64_t tpb = n < b->maxb ? n : b->maxb;
                    uint64_t blocks = (n + tpb - 1) / tpb;
                    blocks = (blocks + WARP_SIZE - 1) / WARP_SIZE * WARP_SIZE;
                    kernel(b, out, K_DWC, "bfs_dwc", n);
                    out->kernel.grid.x = (uint32_t)blocks;
                    b->k = out->kernel;
                }
                run_dwc(b);
                YIELD;
                memcpy_step(b, out, (b->curr & 1) ? A_END1 : A_END2, 0, 4, WL_TO_HOST);
                YIELD;
                memcpy_step(b, out, (b->curr & 1) ? A_END2 : A_END1, 0, 4, WL_TO_GPU);
                YIELD;
                if (!b->wln[(b->curr + 1) & 1]) break;
                continue;
            }
            memcpy_step(b, out, A_OVER, 0, 1, WL_TO_GPU);
            YIELD;
            switch (b->var) {
            case V_TTC: kernel(b, out, K_TTC, "bfs_ttc", g->nv); run_ttc(b); break;
            case V_TA: kernel(b, out, K_TA, "bfs_ta", g->nv); run_ta(b); break;
            case V_TF: kernel(b, out, K_TF1, "bfs_tf_1", g->nv); run_tf(b); break;
            default: {
                /* GraphBIG: ceil(blocks / CHUNK_SZ) * WARP_SZ blocks, 32
                 * vertices per warp (surplus warps return at once) */
                kernel(b, out, K_TWC, "bfs_twc", g->nv);
                uint64_t bl = out->kernel.grid.x;
                out->kernel.grid.x = (uint32_t)((bl + WARP_SIZE - 1) / WARP_SIZE * WARP_SIZE);
                b->k = out->kernel;
                run_twc(b);
            }
            }
            YIELD;
            if (b->var == V_TF) {
                kernel(b, out, K_TF2, "bfs_tf_2", g->nv);
                YIELD;
            }
            memcpy_step(b, out, A_OVER, 0, 1, WL_TO_HOST);
            YIELD;
            if (!b->changed) break;
        }
        b->pc = -1;
        /* fall through */
    default:
        return false;
    }
}

static void *bfs_create(struct workload *wl, const struct config *cfg)
{
    struct graph *g = graph_load(cfg);       /* user errors before allocating */
    uint64_t root = graph_root(cfg, g);
    struct bfs *b = xcalloc(1, sizeof *b);
    const char *name = wl->ops->name;
    b->var = !strcmp(name, "bfs_ttc") ? V_TTC : !strcmp(name, "bfs_twc") ? V_TWC
           : !strcmp(name, "bfs_ta") ? V_TA : !strcmp(name, "bfs_tf") ? V_TF : V_DWC;
    b->g = g;
    b->root = root;
    b->maxb = (uint32_t)cfg_u64(cfg, "workload.graph.block");
    uint64_t nv = b->g->nv, ne = b->g->ne;
    b->level = xmalloc(nv * sizeof *b->level);
    for (uint64_t v = 0; v < nv; v++) b->level[v] = INF;
    b->claim = xcalloc(nv, sizeof *b->claim);
#define ALLOC(i, nm, sz) (b->ai[i] = (uint32_t)wl->nallocs, \
                          b->a[i] = wl_add_alloc_hint(wl, nm, sz, WL_PLACE_DEFAULT, 0))
    /* The host builds the graph before the kernels: its pages start there. */
    b->ai[A_VL] = (uint32_t)wl->nallocs;
    b->a[A_VL] = wl_add_alloc_hint(wl, "vertexlist", (nv + 1) * 8, WL_PLACE_HOST, 0);
    b->ai[A_EL] = (uint32_t)wl->nallocs;
    b->a[A_EL] = wl_add_alloc_hint(wl, "edgelist", (ne ? ne : 1) * 8, WL_PLACE_HOST, 0);
    ALLOC(A_VP, "vproplist", nv * 4);
    if (b->var == V_DWC) {
        ALLOC(A_ITEMS1, "worklist1.items", nv * 8);
        ALLOC(A_END1, "worklist1.end", 4);
        ALLOC(A_ITEMS2, "worklist2.items", nv * 8);
        ALLOC(A_END2, "worklist2.end", 4);
        b->wl[0] = xmalloc(nv * sizeof *b->wl[0]);
        b->wl[1] = xmalloc(nv * sizeof *b->wl[1]);
        b->obase = xmalloc((nv + WARP_SIZE) * sizeof *b->obase);
    } else {
        ALLOC(A_OVER, "device_over", 1);
    }
    if (b->var == V_TF) {
        ALLOC(A_FRONT, "graph_frontier", nv);
        ALLOC(A_UPD, "updating_graph_frontier", nv);
        ALLOC(A_VIS, "graph_visited", nv);
    }
    if (b->var == V_TA) {
        b->fired = xcalloc((ne + 7) / 8 + 1, 1);
        b->vchg = xcalloc((nv + 7) / 8 + 1, 1);
    }
#undef ALLOC
    return b;
}

static void bfs_warp_start(void *impl, struct warp_ctx *w)
{
    struct bfs *b = impl;
    gk_warp_start(&b->slab, b, thread, w);
}

static void bfs_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *out)
{
    struct bfs *b = impl;
    gk_next_inst(&b->slab, b, thread, w, out);
}

static void bfs_destroy(void *impl)
{
    struct bfs *b = impl;
    graph_free(b->g);
    free(b->level); free(b->claim); free(b->fired); free(b->vchg);
    free(b->wl[0]); free(b->wl[1]); free(b->obase);
    gk_slab_free(&b->slab);
    free(b);
}

/* Level of every vertex after the program (tests). */
const uint32_t *bfs_levels(const struct workload *wl)
{
    return ((const struct bfs *)wl->impl)->level;
}

#define BFS_OPS(n) { .name = n, .create = bfs_create, .next_step = bfs_next_step, \
    .warp_start = bfs_warp_start, .next_inst = bfs_next_inst, .destroy = bfs_destroy }
static const struct workload_ops ops[] = {
    BFS_OPS("bfs_dwc"), BFS_OPS("bfs_ta"), BFS_OPS("bfs_tf"), BFS_OPS("bfs_ttc"), BFS_OPS("bfs_twc"),
};

extern const struct cfg_key graph_config_keys[];
#define FP_GRAPH "8(V+1) + 8E + 4V"
const struct wl_info bfs_dwc_info = { &ops[0], graph_config_keys,
    "GraphBIG gpu_BFS bfs_data_warp_centric.cu (kernel), batch-aware paper BFS-DWC",
    FP_GRAPH " + 2(8V + 4) bytes (V vertices, E directed edges; worklists sized V)" };
const struct wl_info bfs_ta_info = { &ops[1], graph_config_keys,
    "GraphBIG gpu_BFS bfs_topo_atomic.cu (kernel), batch-aware paper BFS-TA",
    FP_GRAPH " + 1 bytes" };
const struct wl_info bfs_tf_info = { &ops[2], graph_config_keys,
    "GraphBIG gpu_BFS bfs_topo_frontier.cu (BFS_kernel_1/2), batch-aware paper BFS-TF",
    FP_GRAPH " + 3V + 1 bytes" };
const struct wl_info bfs_ttc_info = { &ops[3], graph_config_keys,
    "GraphBIG gpu_BFS bfs_topo_thread_centric.cu (kernel), batch-aware paper BFS-TTC",
    FP_GRAPH " + 1 bytes" };
const struct wl_info bfs_twc_info = { &ops[4], graph_config_keys,
    "GraphBIG gpu_BFS bfs_topo_warp_centric.cu (kernel), batch-aware paper BFS-TWC",
    FP_GRAPH " + 1 bytes" };

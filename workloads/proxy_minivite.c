/* miniVite: one phase of Louvain community detection (ECP proxy app).
 * Source: miniVite (ECP-ExaGraph/miniVite) dspl.hpp distLouvainMethod on
 * one rank (every vertex and community local), graph.hpp GenerateRGG;
 * run by Li & Chapman SC19 (Sec. 2.3, 5.1) as an OpenMP-offload port.
 * Defaults: 2^14 vertices (a default run in seconds), threshold 1e-6 and
 * lower -1 (miniVite's main), unit edge weights (miniVite's default),
 * 128 threads per team (LLVM libomptarget's CUDA plugin,
 * RTLDeviceInfoTy::DefaultNumThreads).
 *
 * Graph: GenerateRGG's random geometric graph: nv points uniform in the
 * unit square (seeded from sim.seed), an edge both ways between points at
 * Euclidean distance <= rn = (sqrt(ln nv / (pi nv)) + sqrt(2.0736 / nv)) /
 * 2; CSR sorted by (vertex, tail).  Vertex ids are unrelated to position,
 * so neighbours' ids are scattered.  miniVite's types: GraphElem int64,
 * GraphWeight double, Edge {tail_, weight_} 16 B, Comm {size, degree}
 * 16 B.
 *
 * Program (each omp parallel for one target region, one thread per vertex):
 *   sum_vertex_degree   load edge_indices[i], [i+1]; per edge load
 *                       edge_list[k].weight_; store vDegree[i],
 *                       localCinfo[i].degree, .size
 *   calc_constant       load vDegree[i]; the team's reduction: thread 0
 *                       of each block adds it to red[0] (atomic)
 *   init_comm           store pastComm[i], currComm[i]
 *   loop until the modularity gain < threshold (data-dependent) {
 *     clean_cw_cu       store clusterWeight[i], localCupdate[i].degree, .size
 *     louvain_iteration (distExecuteLouvainIteration) load currComm[i] =
 *                       cc, localCinfo[cc].degree, .size, edge_indices[i],
 *                       [i+1]; if the vertex has edges: per edge load
 *                       edge_list[j].tail_, .weight_, currComm[tail];
 *                       load + store clusterWeight[i]; load vDegree[i];
 *                       per distinct neighbour community c != cc (in
 *                       order of first appearance, the thread-private map
 *                       of the port): load localCinfo[c].degree, .size;
 *                       if the target t != cc: atomics on
 *                       localCupdate[t].degree, .size, localCupdate[cc]
 *                       .degree, .size; store targetComm[i]
 *     update_cinfo      load localCinfo[i].size, localCupdate[i].size,
 *                       store localCinfo[i].size; the same for .degree
 *     modularity        load clusterWeight[i], localCinfo[i].degree; thread
 *                       0 of each block adds both sums to red[0], red[1]
 *     if not converged: swap_comm  load pastComm[i], currComm[i],
 *                       targetComm[i]; store pastComm[i], currComm[i],
 *                       targetComm[i] (the rotation loop)
 *   }
 * The Louvain phase runs functionally at create time on the generated
 * graph (the loop's real iteration count) and again, lazily, when a
 * louvain_iteration kernel's warps start (the communities it reads); the
 * other kernels' addresses do not depend on the data. */
#include <math.h>
#include <stdlib.h>
#include "gen.h"
#include "graph.h"

#define MV_THREADS 128
#define MV_LOWER (-1.0)

enum { K_SUMDEG, K_CONST, K_INIT, K_CLEAN, K_LOUVAIN, K_UPDATE, K_MOD, K_SWAP };
enum { A_EIDX, A_EDGES, A_VDEG, A_PAST, A_CURR, A_TARGET, A_CW, A_CINFO, A_CUPD, A_RED, A_N };

struct minivite {
    struct wl_simple g;         /* the program; npos/lane unused (gk lanes) */
    struct graph *gr;
    uint64_t nv;
    double thresh;
    uint64_t iters;             /* Louvain iterations of the phase */
    uint64_t a[A_N];
    struct gk_slab slab;
    const struct wl_kernel *k;  /* the kernel whose warps run */
    /* Functional state: the inputs of iteration `at` and its outcome. */
    uint64_t at;
    uint32_t *comm, *target;    /* currComm, targetComm */
    int64_t *csize, *usize;     /* localCinfo / localCupdate .size */
    double *cdeg, *udeg;        /* .degree */
    double constant;            /* constantForSecondTerm */
    uint32_t *dlist, *ndist;    /* distinct neighbour communities (row-aligned) */
};

const struct cfg_key minivite_config_keys[] = {
    {"workload.minivite.vertices", CFG_INT, "16384", 2, 1e9, NULL,
     "vertices of the random geometric graph (miniVite -n)"},
    {"workload.minivite.threshold", CFG_FLOAT, "1e-6", 0, 1, NULL,
     "modularity gain below which the phase stops (miniVite -t, default 1e-6)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* ---- graph: GenerateRGG with a cell grid instead of the O(n^2) scan ---- */

static struct graph *mv_rgg(uint64_t nv, uint64_t seed)
{
    const double pi = 3.14159265358979323846;         /* miniVite's PI */
    double rc = sqrt(log((double)nv) / (pi * (double)nv)), rt = sqrt(2.0736 / (double)nv);
    double rn = (rc + rt) / 2;
    double *x = xmalloc(nv * sizeof *x), *y = xmalloc(nv * sizeof *y);
    struct rng r;
    rng_seed(&r, seed);
    for (uint64_t i = 0; i < nv; i++) { x[i] = rng_unit(&r); y[i] = rng_unit(&r); }
    uint64_t cells = (uint64_t)(1.0 / rn);
    if (cells < 1) cells = 1;
    if (cells > 65536) cells = 65536;
    uint64_t nc = cells * cells;
    uint64_t *head = xcalloc(nc + 1, sizeof *head);
    uint32_t *cell = xmalloc(nv * sizeof *cell), *order = xmalloc(nv * sizeof *order);
    for (uint64_t i = 0; i < nv; i++) {
        uint64_t cx = (uint64_t)(x[i] * (double)cells), cy = (uint64_t)(y[i] * (double)cells);
        if (cx >= cells) cx = cells - 1;
        if (cy >= cells) cy = cells - 1;
        cell[i] = (uint32_t)(cy * cells + cx);
        head[cell[i] + 1]++;
    }
    for (uint64_t c = 0; c < nc; c++) head[c + 1] += head[c];
    uint64_t *fill = xmalloc(nc * sizeof *fill);
    for (uint64_t c = 0; c < nc; c++) fill[c] = head[c];
    for (uint64_t i = 0; i < nv; i++) order[fill[cell[i]]++] = (uint32_t)i;
    free(fill);
    uint64_t ne = 0, cap = nv * 8 + 16;
    struct edge *e = xmalloc(cap * sizeof *e);
    for (uint64_t i = 0; i < nv; i++) {
        int64_t cx = (int64_t)(cell[i] % cells), cy = (int64_t)(cell[i] / cells);
        for (int64_t dy = -1; dy <= 1; dy++)
            for (int64_t dx = -1; dx <= 1; dx++) {
                int64_t qx = cx + dx, qy = cy + dy;
                if (qx < 0 || qy < 0 || qx >= (int64_t)cells || qy >= (int64_t)cells) continue;
                uint64_t c = (uint64_t)qy * cells + (uint64_t)qx;
                for (uint64_t p = head[c]; p < head[c + 1]; p++) {
                    uint32_t j = order[p];
                    if (j <= i) continue;
                    double ddx = x[i] - x[j], ddy = y[i] - y[j];
                    if (sqrt(ddx * ddx + ddy * ddy) > rn) continue;
                    if (ne == cap) { cap *= 2; e = xrealloc(e, cap * sizeof *e); }
                    e[ne++] = (struct edge){ (uint32_t)i, j };
                }
            }
    }
    struct graph *g = graph_from_edges(nv, e, ne, true);
    free(e); free(head); free(cell); free(order); free(x); free(y);
    return g;
}

/* ---- the Louvain phase, functionally (dspl.hpp on one rank) ---- */

static double mv_vdeg(const struct minivite *m, uint64_t i)
{ return (double)(m->gr->row[i + 1] - m->gr->row[i]); }     /* unit weights */

/* distInitLouvain: every vertex its own community. */
static void mv_reset(struct minivite *m)
{
    for (uint64_t i = 0; i < m->nv; i++) {
        m->comm[i] = (uint32_t)i;
        m->csize[i] = 1;
        m->cdeg[i] = mv_vdeg(m, i);
    }
    m->at = 0;
}

/* distExecuteLouvainIteration for every vertex on the current state:
 * targets, the updates, the distinct-community lists; returns le_xx (the
 * sum of clusterWeight). */
static double mv_iterate(struct minivite *m)
{
    const struct graph *g = m->gr;
    double le_xx = 0;
    for (uint64_t i = 0; i < m->nv; i++) { m->usize[i] = 0; m->udeg[i] = 0; }
    for (uint64_t i = 0; i < m->nv; i++) {
        uint32_t cc = m->comm[i], tgt = cc;
        uint64_t e0 = g->row[i], e1 = g->row[i + 1], nd = 0;
        double vd = mv_vdeg(m, i);
        if (e0 != e1) {
            double ccval = 0;
            for (uint64_t j = e0; j < e1; j++) {
                uint32_t tc = m->comm[g->col[j]];
                if (tc == cc) { ccval += 1.0; continue; }
                uint64_t q = 0;
                while (q < nd && m->dlist[e0 + q] != tc) q++;
                if (q == nd) m->dlist[e0 + nd++] = tc;
            }
            le_xx += ccval;
            /* distGetMaxIndex (selfLoop 0: the graph has no self-loops) */
            double eix = ccval, ax = m->cdeg[cc] - vd, maxgain = 0;
            int64_t maxsize = m->csize[cc];
            for (uint64_t q = 0; q < nd; q++) {
                uint32_t tc = m->dlist[e0 + q];
                double eiy = 0;
                for (uint64_t j = e0; j < e1; j++) if (m->comm[g->col[j]] == tc) eiy += 1.0;
                double ay = m->cdeg[tc];
                double gain = 2.0 * (eiy - eix) - 2.0 * vd * (ay - ax) * m->constant;
                if (gain > maxgain || (gain == maxgain && gain != 0.0 && tc < tgt)) {
                    maxgain = gain;
                    tgt = tc;
                    maxsize = m->csize[tc];
                }
            }
            if (maxsize == 1 && m->csize[cc] == 1 && tgt > cc) tgt = cc;
        }
        m->ndist[i] = (uint32_t)nd;
        m->target[i] = tgt;
        if (tgt != cc) {
            m->udeg[tgt] += vd; m->usize[tgt]++;
            m->udeg[cc] -= vd; m->usize[cc]--;
        }
    }
    return le_xx;
}

/* distUpdateLocalCinfo; returns la2_x (the sum of degree^2 after it). */
static double mv_update(struct minivite *m)
{
    double la2 = 0;
    for (uint64_t i = 0; i < m->nv; i++) {
        m->csize[i] += m->usize[i];
        m->cdeg[i] += m->udeg[i];
        la2 += m->cdeg[i] * m->cdeg[i];
    }
    return la2;
}

/* distLouvainMethod's loop: the number of iterations (the last one stops
 * before the rotation). */
static uint64_t mv_count(struct minivite *m)
{
    double prev = MV_LOWER;
    mv_reset(m);
    for (uint64_t n = 1;; n++) {
        double le = mv_iterate(m), la2 = mv_update(m);
        double mod = fabs(le * m->constant - la2 * m->constant * m->constant);
        if (mod - prev < m->thresh) return n;
        prev = mod < MV_LOWER ? MV_LOWER : mod;
        uint32_t *t = m->comm; m->comm = m->target; m->target = t;
    }
}

/* The state of iteration T's louvain_iteration (replayed from the start
 * when asked for an earlier one). */
static void mv_seek(struct minivite *m, uint64_t t)
{
    if (m->at == t && m->at != UINT64_MAX) return;
    if (m->at == UINT64_MAX || m->at > t) { mv_reset(m); mv_iterate(m); }
    while (m->at < t) {
        mv_update(m);
        uint32_t *x = m->comm; m->comm = m->target; m->target = x;
        m->at++;
        mv_iterate(m);
    }
}

/* ---- kernels (gk coroutines, graph.h) ---- */

/* v[0] edge j / list index q, v[1] row end, v[2] cc, v[3] row start,
 * v[4] distinct count, v[5] target.  One coroutine per kernel (the
 * coroutine's switch must be the innermost, graph.h). */
#define GK_EXIT(L) do { (L)->pc = GK_DONE; return; } while (0)
static void mv_thread(void *impl, struct gk_lane *L)
{
    struct minivite *m = impl;
    const struct graph *g = m->gr;
    const uint64_t *a = m->a;
    const uint64_t i = L->tid;
    const bool lead = i % MV_THREADS == 0;     /* thread 0 of its team */
    switch (m->k->id) {
    case K_SUMDEG:
        GK_BEGIN(L);
        if (i >= m->nv) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_EIDX] + i * 8, 8);
        GK_OP(L, INST_LOAD, a[A_EIDX] + (i + 1) * 8, 8);
        for (L->v[0] = g->row[i]; L->v[0] < g->row[i + 1]; L->v[0]++)
            GK_OP(L, INST_LOAD, a[A_EDGES] + L->v[0] * 16 + 8, 8);
        GK_OP(L, INST_STORE, a[A_VDEG] + i * 8, 8);
        GK_OP(L, INST_STORE, a[A_CINFO] + i * 16 + 8, 8);
        GK_OP(L, INST_STORE, a[A_CINFO] + i * 16, 8);
        GK_END(L);
    case K_CONST:
        GK_BEGIN(L);
        if (i >= m->nv) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_VDEG] + i * 8, 8);
        GK_OP_IF(L, lead, INST_ATOMIC, a[A_RED], 8);
        GK_END(L);
    case K_INIT:
        GK_BEGIN(L);
        if (i >= m->nv) GK_EXIT(L);
        GK_OP(L, INST_STORE, a[A_PAST] + i * 8, 8);
        GK_OP(L, INST_STORE, a[A_CURR] + i * 8, 8);
        GK_END(L);
    case K_CLEAN:
        GK_BEGIN(L);
        if (i >= m->nv) GK_EXIT(L);
        GK_OP(L, INST_STORE, a[A_CW] + i * 8, 8);
        GK_OP(L, INST_STORE, a[A_CUPD] + i * 16 + 8, 8);
        GK_OP(L, INST_STORE, a[A_CUPD] + i * 16, 8);
        GK_END(L);
    case K_LOUVAIN:
        GK_BEGIN(L);
        if (i >= m->nv) GK_EXIT(L);
        L->v[2] = m->comm[i];
        L->v[3] = g->row[i];
        L->v[1] = g->row[i + 1];
        L->v[4] = m->ndist[i];
        L->v[5] = m->target[i];
        GK_OP(L, INST_LOAD, a[A_CURR] + i * 8, 8);
        GK_OP(L, INST_LOAD, a[A_CINFO] + L->v[2] * 16 + 8, 8);
        GK_OP(L, INST_LOAD, a[A_CINFO] + L->v[2] * 16, 8);
        GK_OP(L, INST_LOAD, a[A_EIDX] + i * 8, 8);
        GK_OP(L, INST_LOAD, a[A_EIDX] + (i + 1) * 8, 8);
        if (L->v[3] != L->v[1]) {
            for (L->v[0] = L->v[3]; L->v[0] < L->v[1]; L->v[0]++) {
                GK_OP(L, INST_LOAD, a[A_EDGES] + L->v[0] * 16, 8);
                GK_OP(L, INST_LOAD, a[A_EDGES] + L->v[0] * 16 + 8, 8);
                GK_OP(L, INST_LOAD, a[A_CURR] + (uint64_t)g->col[L->v[0]] * 8, 8);
            }
            GK_OP(L, INST_LOAD, a[A_CW] + i * 8, 8);
            GK_OP(L, INST_STORE, a[A_CW] + i * 8, 8);
            GK_OP(L, INST_LOAD, a[A_VDEG] + i * 8, 8);
            for (L->v[0] = 0; L->v[0] < L->v[4]; L->v[0]++) {
                GK_OP(L, INST_LOAD, a[A_CINFO] + (uint64_t)m->dlist[L->v[3] + L->v[0]] * 16 + 8, 8);
                GK_OP(L, INST_LOAD, a[A_CINFO] + (uint64_t)m->dlist[L->v[3] + L->v[0]] * 16, 8);
            }
        }
        if (L->v[5] != L->v[2]) {
            GK_OP(L, INST_ATOMIC, a[A_CUPD] + L->v[5] * 16 + 8, 8);
            GK_OP(L, INST_ATOMIC, a[A_CUPD] + L->v[5] * 16, 8);
            GK_OP(L, INST_ATOMIC, a[A_CUPD] + L->v[2] * 16 + 8, 8);
            GK_OP(L, INST_ATOMIC, a[A_CUPD] + L->v[2] * 16, 8);
        }
        GK_OP(L, INST_STORE, a[A_TARGET] + i * 8, 8);
        GK_END(L);
    case K_UPDATE:
        GK_BEGIN(L);
        if (i >= m->nv) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_CINFO] + i * 16, 8);
        GK_OP(L, INST_LOAD, a[A_CUPD] + i * 16, 8);
        GK_OP(L, INST_STORE, a[A_CINFO] + i * 16, 8);
        GK_OP(L, INST_LOAD, a[A_CINFO] + i * 16 + 8, 8);
        GK_OP(L, INST_LOAD, a[A_CUPD] + i * 16 + 8, 8);
        GK_OP(L, INST_STORE, a[A_CINFO] + i * 16 + 8, 8);
        GK_END(L);
    case K_MOD:
        GK_BEGIN(L);
        if (i >= m->nv) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_CW] + i * 8, 8);
        GK_OP(L, INST_LOAD, a[A_CINFO] + i * 16 + 8, 8);
        GK_OP_IF(L, lead, INST_ATOMIC, a[A_RED], 8);
        GK_OP_IF(L, lead, INST_ATOMIC, a[A_RED] + 8, 8);
        GK_END(L);
    default:
        GK_BEGIN(L);
        if (i >= m->nv) GK_EXIT(L);
        GK_OP(L, INST_LOAD, a[A_PAST] + i * 8, 8);
        GK_OP(L, INST_LOAD, a[A_CURR] + i * 8, 8);
        GK_OP(L, INST_LOAD, a[A_TARGET] + i * 8, 8);
        GK_OP(L, INST_STORE, a[A_PAST] + i * 8, 8);
        GK_OP(L, INST_STORE, a[A_CURR] + i * 8, 8);
        GK_OP(L, INST_STORE, a[A_TARGET] + i * 8, 8);
        GK_END(L);
    }
}

static void mv_warp_start(void *impl, struct warp_ctx *w)
{
    struct minivite *m = impl;
    m->k = w->k;
    if (w->k->id == K_LOUVAIN) mv_seek(m, w->k->arg);
    gk_warp_start(&m->slab, m, mv_thread, w);
}

static void mv_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *out)
{
    struct minivite *m = impl;
    m->k = w->k;
    if (w->k->id == K_LOUVAIN) mv_seek(m, w->k->arg);
    gk_next_inst(&m->slab, m, mv_thread, w, out);
}

/* ---- SC19 description ---- */

/* Spec B.3.4 item 1 (straight line 1, guarded 0.5, data-dependent loop
 * 32), per thread; S = 8 B (int64 / double fields):
 *   sum_vertex_degree: edge_indices R 2 (16 B); edge_list R edge loop 32
 *     (256 B); vDegree W 1 (8 B); localCinfo W 2 (16 B)
 *   calc_constant: vDegree R 1 (8 B); red RW guard tid % 128 == 0: 0.5 (4 B)
 *   init_comm: pastComm W 1, currComm W 1 (8 B each)
 *   clean_cw_cu: clusterWeight W 1 (8 B); localCupdate W 2 (16 B)
 *   louvain_iteration: currComm R 1 + guard e0 != e1 (0.5) x edge loop 32
 *     x 1 = 17 (136 B); localCinfo R 2 + 0.5 x map loop 32 x 2 = 34
 *     (272 B); edge_indices R 2 (16 B); edge_list R 0.5 x 32 x 2 = 32
 *     (256 B); clusterWeight RW 0.5 x 2 = 1 (8 B); vDegree R 0.5 (4 B);
 *     localCupdate RW guard t != cc 0.5 x 4 = 2 (16 B); targetComm W 1
 *   update_cinfo: localCinfo RW 4 (32 B); localCupdate R 2 (16 B)
 *   modularity: clusterWeight R 1 (8 B); localCinfo R 1 (8 B); red RW
 *     0.5 x 2 = 1 (8 B)
 *   swap_comm: pastComm, currComm, targetComm RW 2 each (16 B) */
static size_t mv_uses(const void *impl, const struct wl_kernel *k,
                      struct wl_use *out, size_t max)
{
    (void)impl;
    struct wl_use u[8];
    size_t n = 0;
    const unsigned R = WL_USE_R, W = WL_USE_W, RW = WL_USE_R | WL_USE_W;
#define USE(al, md, f) (u[n++] = (struct wl_use){ (al), (md), (f), (f) * 8 })
    switch (k->id) {
    case K_SUMDEG: USE(A_EIDX, R, 2); USE(A_EDGES, R, 32); USE(A_VDEG, W, 1);
                   USE(A_CINFO, W, 2); break;
    case K_CONST:  USE(A_VDEG, R, 1); USE(A_RED, RW, 0.5); break;
    case K_INIT:   USE(A_PAST, W, 1); USE(A_CURR, W, 1); break;
    case K_CLEAN:  USE(A_CW, W, 1); USE(A_CUPD, W, 2); break;
    case K_LOUVAIN:
        USE(A_CURR, R, 1 + 0.5 * 32); USE(A_CINFO, R, 2 + 0.5 * 32 * 2);
        USE(A_EIDX, R, 2); USE(A_EDGES, R, 0.5 * 32 * 2); USE(A_CW, RW, 0.5 * 2);
        USE(A_VDEG, R, 0.5); USE(A_CUPD, RW, 0.5 * 4); USE(A_TARGET, W, 1);
        break;
    case K_UPDATE: USE(A_CINFO, RW, 4); USE(A_CUPD, R, 2); break;
    case K_MOD:    USE(A_CW, R, 1); USE(A_CINFO, R, 1); USE(A_RED, RW, 0.5 * 2); break;
    default:       USE(A_PAST, RW, 2); USE(A_CURR, RW, 2); USE(A_TARGET, RW, 2); break;
    }
#undef USE
    for (size_t i = 0; i < n && i < max; i++) out[i] = u[i];
    return n;
}

/* LC (SC19 Sec. 4.2) for runtime.density_lc iterations: every kernel is an
 * `omp parallel for` over the nv vertices; the grid rounds it up to 128. */
static uint64_t mv_iters(const void *impl, const struct wl_kernel *k)
{ (void)k; return ((const struct minivite *)impl)->nv; }

/* The rotation runs in every iteration but the last (the loop breaks
 * before it). */
static bool mv_next_step(void *impl, struct wl_step *out)
{
    struct minivite *m = impl;
    if (!wl_prog_next(&m->g.prog, out)) return false;
    if (out->kind == WL_STEP_KERNEL && out->kernel.id == K_SWAP && out->kernel.arg + 1 == m->iters)
        return wl_prog_next(&m->g.prog, out);
    return true;
}

static void *mv_create(struct workload *wl, const struct config *cfg)
{
    struct minivite *m = xcalloc(1, sizeof *m);
    m->nv = cfg_u64(cfg, "workload.minivite.vertices");
    m->thresh = cfg_f64(cfg, "workload.minivite.threshold");
    m->gr = mv_rgg(m->nv, wl_seed(cfg, 0x6d696e6956697465ULL));
    uint64_t nv = m->nv, ne = m->gr->ne;
    if (ne == 0) {                      /* distCalcConstantForSecondTerm: 1 / 0 */
        graph_free(m->gr);
        free(m);
        user_error("workload.minivite.vertices (%llu): the random geometric graph has no "
                   "edge", (unsigned long long)nv);
    }
    m->comm = xmalloc(nv * sizeof *m->comm);
    m->target = xmalloc(nv * sizeof *m->target);
    m->csize = xmalloc(nv * sizeof *m->csize);
    m->usize = xmalloc(nv * sizeof *m->usize);
    m->cdeg = xmalloc(nv * sizeof *m->cdeg);
    m->udeg = xmalloc(nv * sizeof *m->udeg);
    m->ndist = xmalloc(nv * sizeof *m->ndist);
    m->dlist = xmalloc((ne ? ne : 1) * sizeof *m->dlist);
    double tw = 0;                      /* distCalcConstantForSecondTerm */
    for (uint64_t i = 0; i < nv; i++) tw += mv_vdeg(m, i);
    m->constant = 1.0 / tw;
    m->iters = mv_count(m);
    m->at = UINT64_MAX;
    /* The host builds the graph (WL_PLACE_HOST); SC19's unified-memory
     * port copies nothing: the runtime decides movement. */
    m->a[A_EIDX] = wl_add_alloc_hint(wl, "edge_indices", (nv + 1) * 8, WL_PLACE_HOST, 0);
    m->a[A_EDGES] = wl_add_alloc_hint(wl, "edge_list", (ne ? ne : 1) * 16, WL_PLACE_HOST, 0);
    m->a[A_VDEG] = wl_add_alloc(wl, "vDegree", nv * 8);
    m->a[A_PAST] = wl_add_alloc(wl, "pastComm", nv * 8);
    m->a[A_CURR] = wl_add_alloc(wl, "currComm", nv * 8);
    m->a[A_TARGET] = wl_add_alloc(wl, "targetComm", nv * 8);
    m->a[A_CW] = wl_add_alloc(wl, "clusterWeight", nv * 8);
    m->a[A_CINFO] = wl_add_alloc(wl, "localCinfo", nv * 16);
    m->a[A_CUPD] = wl_add_alloc(wl, "localCupdate", nv * 16);
    m->a[A_RED] = wl_add_alloc(wl, "reduction", 16);
    struct wl_prog *p = &m->g.prog;
    struct dim3 grid = { wl_div_up(nv, MV_THREADS), 1, 1 }, blk = { MV_THREADS, 1, 1 };
    /* Registers: estimates (no ptxas output of SC19's build). */
    wl_prog_kernel(p, "sum_vertex_degree", K_SUMDEG, grid, blk, 16, 0);
    wl_prog_kernel(p, "calc_constant", K_CONST, grid, blk, 16, 0);
    wl_prog_kernel(p, "init_comm", K_INIT, grid, blk, 8, 0);
    /* while (true) { ...; if converged break; rotation }: the rotation of
     * the last iteration is skipped by mv_next_step. */
    wl_prog_kernel(p, "clean_cw_cu", K_CLEAN, grid, blk, 8, 0);
    wl_prog_kernel(p, "louvain_iteration", K_LOUVAIN, grid, blk, 40, 0);
    wl_prog_kernel(p, "update_cinfo", K_UPDATE, grid, blk, 12, 0);
    wl_prog_kernel(p, "modularity", K_MOD, grid, blk, 16, 0);
    wl_prog_kernel(p, "swap_comm", K_SWAP, grid, blk, 12, 0);
    wl_prog_loop(p, 3, m->iters);
    /* Its own next_step (the last rotation skipped) hides the program from
     * workload_create's wl_simple default: describe it here. */
    wl->program = wl_prog_program(p);
    wl->kernel_uses = mv_uses;
    wl->kernel_iters = mv_iters;
    return m;
}

static void mv_destroy(void *impl)
{
    struct minivite *m = impl;
    graph_free(m->gr);
    gk_slab_free(&m->slab);
    free(m->comm); free(m->target); free(m->csize); free(m->usize);
    free(m->cdeg); free(m->udeg); free(m->ndist); free(m->dlist);
    free(m);
}

static const struct workload_ops mv_ops = {
    "minivite", mv_create, mv_next_step, mv_warp_start, mv_next_inst, mv_destroy,
};

const struct wl_info minivite_info = {
    &mv_ops, minivite_config_keys,
    "miniVite dspl.hpp distLouvainMethod on one rank (one Louvain phase until the "
    "modularity gain < threshold) over GenerateRGG's random geometric graph; SC19 "
    "(Li & Chapman) Sec. 2.3, 5.1.",
    "8*(vertices+1) + 16*edges (CSR, edges counted both ways) + 5 x 8*vertices (vDegree, "
    "pastComm, currComm, targetComm, clusterWeight) + 2 x 16*vertices (localCinfo, "
    "localCupdate) + 16 bytes (reduction), all touched",
};

/* Rodinia bfs: level-synchronous breadth-first search over a generated
 * graph.  Source: Rodinia 3.1 bfs/bfs.cu, Kernel and Kernel2 (kernel.cu,
 * kernel2.cu), host loop { memcpy over H2D; Kernel; Kernel2; memcpy over
 * D2H } while over; HPE (Yu et al. 2020) Table II type IV (BFS).
 * Defaults: 1M nodes, 6 out-edges each (Rodinia's graph1MW_6 input size),
 * MAX_THREADS_PER_BLOCK 512.
 *
 * Graph (uniform random, built here, never stored): node v has `degree`
 * edges starting at v*degree; edge 0 goes to (v+1) mod n (a ring, so every
 * node is reached), edge j > 0 to mix(seed + v*degree + j) mod n (mix: the
 * splitmix64 finaliser, seed = mix(sim.seed)).  The search runs
 * functionally at create time (one level per node, 4 bytes of host memory
 * per node), so frontiers and the number of launches are the real ones.
 *
 * Kernel, launch L, tid < n: load mask[tid]; if tid is in frontier L:
 *   store mask[tid]; load nodes[tid].starting, .no_of_edges (loop bound
 *   kept in a register); per edge i: load edges[i] (= id), load visited[id];
 *   if !visited[id] (level(id) > L): load cost[tid], store cost[id],
 *   store updating[id].
 * Kernel2, launch L, tid < n: load updating[tid]; if tid is in level L+1:
 *   store mask[tid], visited[tid], *over, updating[tid]. */
#include <stdlib.h>
#include "gen.h"

#define BFS_THREADS 512

struct bfs {
    struct wl_simple g;
    uint64_t n, deg, seed, src;
    uint32_t *level;
    uint32_t levels;
    uint64_t nodes, edges, mask, upd, visited, cost, over;
};

const struct cfg_key bfs_config_keys[] = {
    {"workload.bfs.nodes", CFG_INT, "1000000", 2, 4e9, NULL, "graph nodes (graph1MW_6: 1M)"},
    {"workload.bfs.degree", CFG_INT, "6", 1, 1024, NULL, "out-edges per node (graph1MW_6: 6)"},
    {"workload.bfs.source", CFG_INT, "0", 0, 4e9, NULL, "source node"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t neighbour(const struct bfs *m, uint64_t v, uint64_t j)
{
    return j == 0 ? (v + 1) % m->n : wl_mix(m->seed + v * m->deg + j) % m->n;
}

static void search(struct bfs *m)
{
    uint32_t *q = xmalloc(m->n * sizeof *q);
    m->level = xmalloc(m->n * sizeof *m->level);
    for (uint64_t v = 0; v < m->n; v++) m->level[v] = UINT32_MAX;
    uint64_t head = 0, tail = 0;
    m->level[m->src] = 0;
    q[tail++] = (uint32_t)m->src;
    while (head < tail) {
        uint32_t v = q[head++];
        for (uint64_t j = 0; j < m->deg; j++) {
            uint64_t u = neighbour(m, v, j);
            if (m->level[u] != UINT32_MAX) continue;
            m->level[u] = m->level[v] + 1;
            q[tail++] = (uint32_t)u;
        }
    }
    m->levels = m->level[q[tail - 1]] + 1;
    free(q);
}

static uint64_t bfs_npos(const void *impl, const struct warp_ctx *w)
{
    const struct bfs *m = impl;
    return w->k->id == 0 ? 4 + 5 * m->deg : 5;
}

static bool bfs_lane(const void *impl, const struct warp_ctx *w,
                     const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct bfs *m = impl;
    uint64_t tid = (uint64_t)t->bx * BFS_THREADS + t->tx, L = w->k->arg;
    /* Guards that hold for every later position end the lane (done). */
    if (tid >= m->n) return op->done = true, false;
    op->size = 1;
    op->compute = 0;
    if (w->k->id == 1) {
        if (pos == 0) { op->op = INST_LOAD; op->addr = m->upd + tid; return true; }
        if (m->level[tid] != L + 1) return op->done = true, false;
        op->op = INST_STORE;
        op->addr = pos == 1 ? m->mask + tid : pos == 2 ? m->visited + tid
                 : pos == 3 ? m->over : m->upd + tid;
        return true;
    }
    if (pos == 0) { op->op = INST_LOAD; op->addr = m->mask + tid; return true; }
    if (m->level[tid] != L) return op->done = true, false;
    if (pos == 1) { op->op = INST_STORE; op->addr = m->mask + tid; return true; }
    if (pos < 4) {
        op->op = INST_LOAD;
        op->size = 4;
        op->addr = m->nodes + tid * 8 + (pos - 2) * 4;
        return true;
    }
    uint64_t e = (pos - 4) / 5, r = (pos - 4) % 5, id = neighbour(m, tid, e);
    if (r >= 2 && m->level[id] <= L) return false;
    op->op = r < 3 ? INST_LOAD : INST_STORE;
    op->compute = r == 0 ? 2 : 0;
    switch (r) {
    case 0: op->size = 4; op->addr = m->edges + (tid * m->deg + e) * 4; break;
    case 1: op->addr = m->visited + id; break;
    case 2: op->size = 4; op->addr = m->cost + tid * 4; break;
    case 3: op->size = 4; op->addr = m->cost + id * 4; op->compute = 1; break;
    default: op->addr = m->upd + id; break;
    }
    return true;
}

/* Allocation indices, in bfs_create's order. */
enum { BFS_NODES, BFS_EDGES, BFS_MASK, BFS_UPD, BFS_VISITED, BFS_COST, BFS_OVER };

/* SC19 Sec. 4.1-4.2 as spec B.3.4 item 1 applies them (straight line 1,
 * unknown guard x 0.5, data-dependent loop x 32), per thread.  tid <
 * no_of_nodes is the OpenMP port's parallel loop bound, not a guard; the
 * frontier tests (g_graph_mask[tid], g_updating_graph_mask[tid],
 * !g_graph_visited[id]) are data the compiler cannot know: 0.5 each.  The
 * edge loop runs no_of_edges times, a value read from memory: 32.
 *   Kernel: mask R 1 (the test) + W 0.5 (cleared in the frontier) = 1.5,
 *     1 B -> 1.5 B; nodes .starting and .no_of_edges once each in the
 *     frontier (the loop bound kept in a register, as the generator does):
 *     2 x 0.5 = 1, 4 B -> 4 B; per edge (0.5 x 32 = 16): edges R 16, 4 B
 *     -> 64 B (spec B.3.4's example: density 64 n / (4 n deg) = 16/deg);
 *     visited R 16, 1 B -> 16 B; under !visited (x 0.5 = 8): cost R 8
 *     (cost[tid]) + W 8 (cost[id]) = 16, 4 B -> 64 B; updating W 8, 1 B
 *     -> 8 B
 *   Kernel2: updating R 1 (the test) + W 0.5 (cleared) = 1.5, 1 B ->
 *     1.5 B; in the new frontier (0.5): mask, visited, over W 0.5 each,
 *     1 B -> 0.5 B */
static size_t bfs_uses(const void *impl, const struct wl_kernel *k,
                       struct wl_use *out, size_t max)
{
    (void)impl;
    struct wl_use u[6];
    size_t n = 0;
    const unsigned R = WL_USE_R, W = WL_USE_W, RW = WL_USE_R | WL_USE_W;
    const double front = 0.5, edge = front * 32, unvisited = edge * 0.5;
#define USE(al, md, f, s) (u[n++] = (struct wl_use){ (al), (md), (f), (f) * (s) })
    if (k->id == 0) {
        USE(BFS_MASK, RW, 1 + front, 1); USE(BFS_NODES, R, 2 * front, 4);
        USE(BFS_EDGES, R, edge, 4); USE(BFS_VISITED, R, edge, 1);
        USE(BFS_COST, RW, 2 * unvisited, 4); USE(BFS_UPD, W, unvisited, 1);
    } else {
        USE(BFS_UPD, RW, 1 + front, 1); USE(BFS_MASK, W, front, 1);
        USE(BFS_VISITED, W, front, 1); USE(BFS_OVER, W, front, 1);
    }
#undef USE
    for (size_t i = 0; i < n && i < max; i++) out[i] = u[i];
    return n;
}

/* LC (SC19 Sec. 4.2) for runtime.density_lc iterations: both kernels'
 * parallel loop is tid < no_of_nodes; the grid rounds it up to 512. */
static uint64_t bfs_iters(const void *impl, const struct wl_kernel *k)
{ (void)k; return ((const struct bfs *)impl)->n; }

static void *bfs_create(struct workload *wl, const struct config *cfg)
{
    struct bfs *m = xcalloc(1, sizeof *m);
    m->n = cfg_u64(cfg, "workload.bfs.nodes");
    m->deg = cfg_u64(cfg, "workload.bfs.degree");
    m->src = cfg_u64(cfg, "workload.bfs.source");
    if (m->src >= m->n)
        user_error("workload.bfs.source (%llu) is not a node (workload.bfs.nodes = %llu)",
                   (unsigned long long)m->src, (unsigned long long)m->n);
    m->seed = wl_mix(cfg_u64(cfg, "sim.seed"));
    search(m);
    m->nodes = wl_add_alloc(wl, "d_graph_nodes", m->n * 8);
    m->edges = wl_add_alloc(wl, "d_graph_edges", m->n * m->deg * 4);
    m->mask = wl_add_alloc(wl, "d_graph_mask", m->n);
    m->upd = wl_add_alloc(wl, "d_updating_graph_mask", m->n);
    m->visited = wl_add_alloc(wl, "d_graph_visited", m->n);
    m->cost = wl_add_alloc(wl, "d_cost", m->n * 4);
    m->over = wl_add_alloc(wl, "d_over", 1);
    m->g.npos = bfs_npos;
    m->g.lane = bfs_lane;
    /* The host copies every array in, loops, and copies the costs out. */
    struct wl_prog *p = &m->g.prog;
    for (uint32_t a = 0; a < 6; a++)
        wl_prog_host(p, WL_STEP_MEMCPY, a, 0, wl->allocs[a].size, WL_TO_GPU, WL_ADV_NONE);
    uint32_t body = p->n;
    struct dim3 grid = { wl_div_up(m->n, BFS_THREADS), 1, 1 };
    struct dim3 blk = { (uint32_t)(m->n < BFS_THREADS ? m->n : BFS_THREADS), 1, 1 };
    wl_prog_host(p, WL_STEP_MEMCPY, 6, 0, 1, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_kernel(p, "Kernel", 0, grid, blk, 16, 0);
    wl_prog_kernel(p, "Kernel2", 1, grid, blk, 8, 0);
    wl_prog_host(p, WL_STEP_MEMCPY, 6, 0, 1, WL_TO_HOST, WL_ADV_NONE);
    wl_prog_loop(p, body, m->levels);
    wl_prog_host(p, WL_STEP_MEMCPY, 5, 0, m->n * 4, WL_TO_HOST, WL_ADV_NONE);
    wl->kernel_uses = bfs_uses;
    wl->kernel_iters = bfs_iters;
    return m;
}

static void bfs_destroy(void *impl)
{
    struct bfs *m = impl;
    free(m->level);
    free(m);
}

static const struct workload_ops bfs_ops = {
    "bfs", bfs_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, bfs_destroy,
};

const struct wl_info bfs_info = {
    &bfs_ops, bfs_config_keys,
    "Rodinia 3.1 bfs.cu, Kernel + Kernel2 per level (with the host's memcpy of the over "
    "flag) over a seeded uniform random graph with a ring; HPE Table II type IV (BFS).",
    "8*nodes + 4*nodes*degree + 3*nodes + 4*nodes + 1 bytes (nodes, edges, mask, "
    "updating mask, visited, cost, over), all touched",
};

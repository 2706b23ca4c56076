/* Inside workloads/: graph inputs in CSR form and the SIMT lane machinery the
 * graph kernels (GraphBIG GPU benchmarks, as run by the batch-aware paper,
 * Kim et al. ASPLOS'20 Sec. 5) share. */
#ifndef UVMSIM_WL_GRAPH_H
#define UVMSIM_WL_GRAPH_H

#include <stdio.h>
#include "workload.h"

struct config;

/* Compressed sparse rows, in host memory (sized by the graph).  Edges of a
 * vertex are sorted by destination, without duplicates or self-loops, so any
 * two inputs with the same edge set give the same CSR. */
struct graph {
    uint64_t nv, ne;
    uint64_t *row;        /* nv + 1 offsets into col */
    uint32_t *col;        /* ne destinations */
};

struct edge { uint32_t src, dst; };

/* Builds the CSR of NV vertices from N edges (the array is sorted in place);
 * UNDIRECTED adds every edge's reverse. */
struct graph *graph_from_edges(uint64_t nv, struct edge *e, uint64_t n,
                               bool undirected);
void graph_free(struct graph *g);

/* Seeded generators (deterministic per seed).  R-MAT: 2^scale vertices,
 * edge_factor * 2^scale edges, quadrant probabilities a, b, c (d = 1-a-b-c);
 * uniform: the same counts with uniformly random endpoints (Erdos-Renyi). */
struct graph *graph_rmat(unsigned scale, uint64_t edge_factor, double a,
                         double b, double c, uint64_t seed, bool undirected,
                         bool permute);
struct graph *graph_uniform(unsigned scale, uint64_t edge_factor,
                            uint64_t seed, bool undirected);
/* An upper bound on the host bytes the generators above hold at their peak
 * for SCALE and EDGE_FACTOR (saturating): checked before generating, so a
 * graph the host cannot hold is a user error naming the key, not an
 * allocation failure half-way. */
uint64_t graph_gen_host_bytes(unsigned scale, uint64_t edge_factor, bool undirected);

/* Readers: Matrix Market coordinate (pattern/real/integer, general or
 * symmetric) and plain edge lists ("SRC DST" per line, '#' or '%' comments,
 * 0-based).  A malformed file is a user error "FILE:LINE: ..." (exit 2);
 * an unreadable one names KEY. */
struct graph *graph_read_mtx(const char *path, const char *key, bool undirected);
struct graph *graph_read_edgelist(const char *path, const char *key,
                                  bool undirected);
/* Matrix Market coordinate pattern general, 1-based. */
void graph_write_mtx(const struct graph *g, FILE *out);

/* The input graph named by workload.graph.* keys. */
struct graph *graph_load(const struct config *cfg);
/* workload.graph.root resolved against G (-1: the vertex of largest degree). */
uint64_t graph_root(const struct config *cfg, const struct graph *g);

/* BFS kernels: every vertex's level after the program so far (tests);
 * 0xffffff00 (GraphBIG's MY_INFINITY) for unreached vertices. */
const uint32_t *bfs_levels(const struct workload *wl);
#define GRAPH_INF 0xffffff00u
/* SSSP: every vertex's distance after the program so far (tests). */
const uint32_t *sssp_dist(const struct workload *wl);
/* Graph colouring: every vertex's colour (tests). */
const uint32_t *gc_colors(const struct workload *wl);
/* k-core: bitset of the vertices peeled off (tests). */
const uint8_t *kcore_removed(const struct workload *wl);

/* xoshiro256** seeded by splitmix64 (Blackman & Vigna). */
struct rng { uint64_t s[4]; };
void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
static inline double rng_unit(struct rng *r)
{ return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

/* ---- SIMT lanes ----
 * A graph kernel's thread is written as a coroutine (gk_thread) that runs
 * until its next memory instruction and yields it with GK_OP / GK_OP_IF; the
 * program counter is the source line, so it grows in program order.  A warp
 * issues, each time, the lanes waiting at the smallest pc ("min-PC"
 * reconvergence, the lowest-PC-first priority of Diamos et al., "SIMD
 * re-convergence at thread frontiers", MICRO'11): lanes that leave a loop
 * early wait at the loop's exit for the others, as under the
 * immediate-post-dominator stack of real SIMT hardware (GPGPU-Sim).  A conditional access inside a loop uses GK_OP_IF (predicated:
 * every lane stops at the pc, only those with COND access) so the lanes of
 * one iteration stay together; GK_SYNC is a predicated-off stop used after
 * an inner loop for the same reason. */
struct gk_lane {
    uint32_t pc;          /* resume point; GK_DONE when exited */
    uint8_t op;           /* enum inst_op of the pending access */
    bool on;              /* predicate of the pending access */
    uint8_t size;
    uint64_t addr;
    uint64_t tid;
    uint64_t v[6];        /* the thread's live variables */
};
#define GK_DONE UINT32_MAX

#define GK_BEGIN(L) switch ((L)->pc) { case 0:
#define GK_OP_IF(L, COND, OP, ADDR, SZ) do { (L)->pc = __LINE__;               \
        (L)->on = (COND); (L)->op = (OP); (L)->addr = (ADDR); (L)->size = (SZ); \
        return; case __LINE__:; } while (0)
#define GK_OP(L, OP, ADDR, SZ) GK_OP_IF(L, true, OP, ADDR, SZ)
#define GK_SYNC(L) GK_OP_IF(L, false, INST_COMPUTE, 0, 0)
#define GK_END(L) } (L)->pc = GK_DONE; return

/* pc[] mirrors the lanes' resume points in one place, and min_pc / at_min
 * (the lanes waiting there) are kept after every step, so an instruction
 * visits only the lanes it issues (issue 13: two scans of all 32 lanes per
 * instruction, finished lanes included, were a tenth of BFS-TTC's time). */
struct gk_warp {
    struct gk_lane lane[WARP_SIZE];
    uint32_t pc[WARP_SIZE];
    uint32_t min_pc, at_min;
    uint32_t next_free;
};

/* Resident-warp states, recycled when a warp exits (host memory bounded by
 * the warps alive at once, not by the grid). */
struct gk_slab { struct gk_warp *w; uint32_t n, cap, free; };

typedef void (*gk_thread_fn)(void *impl, struct gk_lane *L);

/* warp_start / next_inst of a graph kernel whose threads run FN. */
void gk_warp_start(struct gk_slab *s, void *impl, gk_thread_fn fn,
                   struct warp_ctx *w);
void gk_next_inst(struct gk_slab *s, void *impl, gk_thread_fn fn,
                  struct warp_ctx *w, struct warp_inst *out);
void gk_slab_free(struct gk_slab *s);

/* GraphBIG's launch shape: min(n, max_block) threads per block, enough
 * blocks for n threads. */
void gk_shape(struct wl_kernel *k, uint64_t n, uint32_t max_block);

/* ---- host programs of the graph kernels ----
 * State common to GraphBIG-style programs: the input, its device arrays
 * (A-slots chosen by each algorithm), and the program's resume point (the
 * host loop is a coroutine too: GK_YIELD hands out one step). */
#define GK_SLOTS 16
struct gk_base {
    struct graph *g;
    uint32_t maxb;            /* workload.graph.block */
    uint64_t root;
    uint64_t a[GK_SLOTS];     /* device addresses */
    uint32_t ai[GK_SLOTS];    /* allocation indices */
    int pc;
    struct wl_kernel k;       /* the kernel running */
    struct gk_slab slab;
};
#define GK_YIELD(B) do { (B)->pc = __LINE__; return true; case __LINE__:; } while (0)

/* Loads the input (user errors before anything is allocated). */
void gk_base_init(struct gk_base *b, const struct config *cfg);
void gk_base_free(struct gk_base *b);
void gk_alloc(struct workload *wl, struct gk_base *b, int slot, const char *name,
              uint64_t bytes, enum wl_place place);
/* The graph's vertex list (V+1 uint64) and edge list (E uint64) in SLOTs 0
 * and 1, populated by the host. */
void gk_alloc_csr(struct workload *wl, struct gk_base *b);
#define GK_VL 0
#define GK_EL 1
void gk_kernel_step(struct gk_base *b, struct wl_step *out, uint32_t id,
                    const char *name, uint64_t threads, uint64_t arg);
void gk_memcpy_step(struct gk_base *b, struct wl_step *out, int slot, uint64_t off,
                    uint64_t bytes, enum wl_dir dir);
/* Edge weight of u-v for weighted kernels: 1..100, symmetric, from a hash
 * of the endpoints (inputs carry no weights; MM values are ignored). */
static inline uint32_t gk_weight(uint64_t u, uint64_t v)
{
    uint64_t x = (u < v ? u : v) * 0x9e3779b97f4a7c15ULL ^ (u < v ? v : u);
    x ^= x >> 31; x *= 0xbf58476d1ce4e5b9ULL; x ^= x >> 29;
    return (uint32_t)(1 + x % 100);
}

#endif

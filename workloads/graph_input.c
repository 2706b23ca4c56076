/* workload.graph.*: which input graph the graph kernels run on. */
#include <string.h>
#include "graph.h"
#include "config/config.h"

/* Defaults: Graph500 R-MAT (a, b, c = 0.57, 0.19, 0.19; edge factor 16).
 * Scale 18 gives 2^18 vertices and ~8.4 M undirected edges, ~70 MB of
 * device arrays for BFS: the batch-aware paper's GraphBIG footprints are
 * 26-349 MB, 74 MB on average (Kim et al. ASPLOS'20 Sec. 5).  Blocks of
 * 1024 threads: GraphBIG launches maxThreadsPerBlock threads per block. */
const struct cfg_key graph_config_keys[] = {
    {"workload.graph.input", CFG_ENUM, "rmat", 0, -1, "rmat|uniform|mtx|edgelist",
     "input graph: R-MAT/Kronecker, uniform random, or a file"},
    {"workload.graph.scale", CFG_INT, "18", 1, 31, NULL,
     "generated graphs: 2^scale vertices"},
    {"workload.graph.edge_factor", CFG_INT, "16", 1, 1024, NULL,
     "generated graphs: edges per vertex before symmetrising (Graph500: 16)"},
    {"workload.graph.a", CFG_FLOAT, "0.57", 0, 1, NULL, "R-MAT quadrant probability a (Graph500: 0.57)"},
    {"workload.graph.b", CFG_FLOAT, "0.19", 0, 1, NULL, "R-MAT quadrant probability b (Graph500: 0.19)"},
    {"workload.graph.c", CFG_FLOAT, "0.19", 0, 1, NULL, "R-MAT quadrant probability c (Graph500: 0.19; d = 1-a-b-c)"},
    {"workload.graph.permute", CFG_BOOL, "true", 0, -1, NULL,
     "R-MAT: randomly relabel vertices (Graph500 kernel 0)"},
    {"workload.graph.seed", CFG_INT, "0", 0, 9.2e18, NULL,
     "generator seed (0: derived from sim.seed)"},
    {"workload.graph.file", CFG_STRING, "", 0, -1, NULL,
     "mtx / edgelist: the input file"},
    {"workload.graph.undirected", CFG_BOOL, "true", 0, -1, NULL,
     "add the reverse of every edge (Graph500 graphs are undirected)"},
    {"workload.graph.root", CFG_INT, "-1", -1, 4294967294.0, NULL,
     "traversal source vertex (-1: the vertex of largest degree, lowest id on ties)"},
    {"workload.graph.block", CFG_INT, "1024", 32, 1024, NULL,
     "maximum threads per block (GraphBIG: maxThreadsPerBlock, 1024)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

struct graph *graph_load(const struct config *cfg)
{
    const char *key = "workload.graph.input", *in = cfg_str(cfg, key);
    bool und = cfg_bool(cfg, "workload.graph.undirected");
    if (cfg_is(cfg, key, "mtx") || cfg_is(cfg, key, "edgelist")) {
        const char *f = cfg_str(cfg, "workload.graph.file");
        if (!f[0])
            user_error("key 'workload.graph.file': needed by workload.graph.input=%s", in);
        return cfg_is(cfg, key, "mtx") ? graph_read_mtx(f, "key 'workload.graph.file'", und)
                            : graph_read_edgelist(f, "key 'workload.graph.file'", und);
    }
    unsigned scale = (unsigned)cfg_u64(cfg, "workload.graph.scale");
    uint64_t ef = cfg_u64(cfg, "workload.graph.edge_factor");
    uint64_t seed = cfg_u64(cfg, "workload.graph.seed");
    /* A stream of its own: sim.seed mixed with a constant for "graph". */
    if (!seed) seed = cfg_u64(cfg, "sim.seed") ^ 0x67726170685f696eULL;
    uint64_t need = graph_gen_host_bytes(scale, ef, und), lim = host_memory_limit();
    if (need > lim)
        user_error("key 'workload.graph.scale': 2^%u vertices with %llu edges each "
                   "(workload.graph.edge_factor) need about %.1f GiB of host memory to "
                   "generate, more than this machine allows (%.1f GiB)", scale,
                   (unsigned long long)ef, (double)need / (1 << 30), (double)lim / (1 << 30));
    if (!strcmp(in, "uniform")) return graph_uniform(scale, ef, seed, und);
    double a = cfg_f64(cfg, "workload.graph.a"), b = cfg_f64(cfg, "workload.graph.b"),
           c = cfg_f64(cfg, "workload.graph.c");
    if (a + b + c > 1 + 1e-12)
        user_error("keys 'workload.graph.a' + 'workload.graph.b' + 'workload.graph.c' "
                   "= %g: must not exceed 1 (d = 1-a-b-c)", a + b + c);
    return graph_rmat(scale, ef, a, b, c, seed, und, cfg_bool(cfg, "workload.graph.permute"));
}

uint64_t graph_root(const struct config *cfg, const struct graph *g)
{
    int64_t r = cfg_i64(cfg, "workload.graph.root");
    if (r >= 0) {
        if ((uint64_t)r >= g->nv)
            user_error("key 'workload.graph.root': vertex %lld, the graph has %llu vertices",
                       (long long)r, (unsigned long long)g->nv);
        return (uint64_t)r;
    }
    uint64_t best = 0;
    for (uint64_t v = 1; v < g->nv; v++)
        if (g->row[v + 1] - g->row[v] > g->row[best + 1] - g->row[best]) best = v;
    return best;
}

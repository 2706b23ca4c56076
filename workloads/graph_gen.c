/* Synthetic graph inputs.
 * R-MAT (Chakrabarti et al., SDM'04) as specified by Graph500 kernel 0:
 * each edge picks one quadrant of the adjacency matrix per bit of the vertex
 * id with probabilities a, b, c, d (Graph500 defaults 0.57, 0.19, 0.19,
 * 0.05), then vertex ids are permuted so that degree does not follow the id
 * (Graph500 spec Sec. 3: "the vertex numbers are randomly permuted").
 * Uniform: Erdos-Renyi G(n, m) with the same counts. */
#include <stdlib.h>
#include "graph.h"

static void permute(struct edge *e, uint64_t n, uint64_t nv, struct rng *r)
{
    uint32_t *p = xmalloc(nv * sizeof *p);
    for (uint64_t i = 0; i < nv; i++) p[i] = (uint32_t)i;
    for (uint64_t i = nv - 1; i > 0; i--) {
        uint64_t j = rng_next(r) % (i + 1);
        uint32_t t = p[i]; p[i] = p[j]; p[j] = t;
    }
    for (uint64_t i = 0; i < n; i++) { e[i].src = p[e[i].src]; e[i].dst = p[e[i].dst]; }
    free(p);
}

/* The least k with k 2^-53 >= t (t 2^53 is exact: a power-of-two scaling). */
static uint64_t unit_threshold(double t)
{
    if (!(t > 0)) return 0;
    if (t >= 1) return 1ULL << 53;
    double k = t * 0x1.0p53;
    uint64_t u = (uint64_t)k;
    return (double)u < k ? u + 1 : u;
}

struct graph *graph_rmat(unsigned scale, uint64_t edge_factor, double a,
                         double b, double c, uint64_t seed, bool undirected,
                         bool perm)
{
    uint64_t nv = 1ULL << scale, n = edge_factor * nv;
    struct edge *e = xmalloc((n ? n : 1) * sizeof *e);
    struct rng r;
    rng_seed(&r, seed);
    /* x = rng_unit = k 2^-53 exactly (k = the top 53 bits), so x >= T is
     * k >= ceil(T 2^53): the same quadrants, compared as integers. */
    uint64_t ka = unit_threshold(a), kab = unit_threshold(a + b),
             kabc = unit_threshold(a + b + c);
    for (uint64_t i = 0; i < n; i++) {
        uint32_t s = 0, d = 0;
        for (unsigned bit = 0; bit < scale; bit++) {
            uint64_t k = rng_next(&r) >> 11;
            /* quadrants: a (0,0), b (0,1), c (1,0), d (1,1) */
            unsigned row = k >= kab, colb = (k >= ka && k < kab) || k >= kabc;
            s |= row << bit;
            d |= colb << bit;
        }
        e[i] = (struct edge){ s, d };
    }
    if (perm) permute(e, n, nv, &r);
    struct graph *g = graph_from_edges(nv, e, n, undirected);
    free(e);
    return g;
}

/* The peak is inside graph_from_edges (graph_csr.c): the edge list (8 B an
 * edge) is still held while the CSR's destinations (4 B per stored edge,
 * twice for undirected graphs), its row-sort buffer (at most as large) and
 * two (nv + 1)-entry offset arrays of 8 B (the counts, then the cursor or
 * the row offsets) are live.  The R-MAT permutation's 4 B per vertex is
 * freed before that. */
uint64_t graph_gen_host_bytes(unsigned scale, uint64_t edge_factor, bool undirected)
{
    uint64_t nv = 1ULL << scale, n = mul_sat(edge_factor, nv);
    uint64_t stored = mul_sat(n, undirected ? 2 : 1);
    uint64_t b = mul_sat(n, sizeof(struct edge));
    b = add_sat(b, mul_sat(stored, 2 * sizeof(uint32_t)));
    return add_sat(b, mul_sat(nv + 1, 2 * sizeof(uint64_t)));
}

struct graph *graph_uniform(unsigned scale, uint64_t edge_factor,
                            uint64_t seed, bool undirected)
{
    uint64_t nv = 1ULL << scale, n = edge_factor * nv;
    struct edge *e = xmalloc((n ? n : 1) * sizeof *e);
    struct rng r;
    rng_seed(&r, seed);
    for (uint64_t i = 0; i < n; i++)
        e[i] = (struct edge){ (uint32_t)(rng_next(&r) % nv),
                              (uint32_t)(rng_next(&r) % nv) };
    struct graph *g = graph_from_edges(nv, e, n, undirected);
    free(e);
    return g;
}

/* CSR construction and the seeded generator every graph input uses. */
#include <stdlib.h>
#include <string.h>
#include "graph.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(struct rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t; s[3] = rotl(s[3], 45);
    return out;
}

/* Ascending sort of one row's columns (issue 13: qsort through a compare
 * callback was 4 % of a scale-18 BFS run).  Short rows by insertion; long
 * ones by an LSD radix sort over 8-bit digits into `tmp` (O(n) whatever
 * the input: graph files are untrusted).  Equal values are
 * indistinguishable, so any correct sort gives the same CSR. */
static void sort_row(uint32_t *a, uint64_t n, uint32_t *tmp)
{
    if (n <= 32) {
        for (uint64_t i = 1; i < n; i++) {
            uint32_t x = a[i];
            uint64_t j = i;
            for (; j > 0 && a[j - 1] > x; j--) a[j] = a[j - 1];
            a[j] = x;
        }
        return;
    }
    uint32_t *src = a, *dst = tmp;
    for (unsigned sh = 0; sh < 32; sh += 8) {
        uint64_t cnt[257] = { 0 };
        for (uint64_t i = 0; i < n; i++) cnt[((src[i] >> sh) & 0xff) + 1]++;
        for (unsigned d = 0; d < 256; d++) cnt[d + 1] += cnt[d];
        for (uint64_t i = 0; i < n; i++) dst[cnt[(src[i] >> sh) & 0xff]++] = src[i];
        uint32_t *t = src; src = dst; dst = t;
    }
    /* Four passes: the sorted data is back in `a`. */
}

/* Counting sort by source, then each row sorted and deduplicated: O(E log d)
 * and no dependence on the input order. */
struct graph *graph_from_edges(uint64_t nv, struct edge *e, uint64_t n,
                               bool undirected)
{
    struct graph *g = xcalloc(1, sizeof *g);
    g->nv = nv;
    uint64_t *cnt = xcalloc(nv + 1, sizeof *cnt);
    for (uint64_t i = 0; i < n; i++) {
        if (e[i].src == e[i].dst) continue;
        cnt[e[i].src + 1]++;
        if (undirected) cnt[e[i].dst + 1]++;
    }
    for (uint64_t v = 0; v < nv; v++) cnt[v + 1] += cnt[v];
    uint32_t *col = xmalloc((cnt[nv] ? cnt[nv] : 1) * sizeof *col);
    uint64_t *pos = xmalloc((nv + 1) * sizeof *pos);
    memcpy(pos, cnt, (nv + 1) * sizeof *pos);
    for (uint64_t i = 0; i < n; i++) {
        if (e[i].src == e[i].dst) continue;
        col[pos[e[i].src]++] = e[i].dst;
        if (undirected) col[pos[e[i].dst]++] = e[i].src;
    }
    free(pos);
    g->row = xmalloc((nv + 1) * sizeof *g->row);
    uint64_t maxlen = 1;
    for (uint64_t v = 0; v < nv; v++)
        if (cnt[v + 1] - cnt[v] > maxlen) maxlen = cnt[v + 1] - cnt[v];
    uint32_t *tmp = xmalloc(maxlen * sizeof *tmp);
    uint64_t out = 0;
    for (uint64_t v = 0; v < nv; v++) {
        g->row[v] = out;
        uint64_t b = cnt[v], len = cnt[v + 1] - b;
        sort_row(col + b, len, tmp);
        for (uint64_t i = 0; i < len; i++)
            if (i == 0 || col[b + i] != col[b + i - 1]) col[out++] = col[b + i];
    }
    free(tmp);
    g->row[nv] = out;
    g->ne = out;
    g->col = xrealloc(col, (out ? out : 1) * sizeof *col);
    free(cnt);
    return g;
}

void graph_free(struct graph *g)
{
    if (!g) return;
    free(g->row);
    free(g->col);
    free(g);
}

/* GraphBIG's kernels use min(n, maxThreadsPerBlock) threads per block and
 * ceil(n / that) blocks (gpu_bench/gpu_BFS, every variant, cuda_BFS). */
void gk_shape(struct wl_kernel *k, uint64_t n, uint32_t max_block)
{
    uint64_t tpb = n < max_block ? n : max_block;
    if (tpb == 0) tpb = 1;
    k->block = (struct dim3){ (uint32_t)tpb, 1, 1 };
    k->grid = (struct dim3){ (uint32_t)((n + tpb - 1) / tpb), 1, 1 };
    if (k->grid.x == 0) k->grid.x = 1;
}

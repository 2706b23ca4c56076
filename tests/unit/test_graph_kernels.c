/* GraphBIG-style kernels besides BFS: SSSP against Dijkstra, colouring
 * against an independent Jones-Plassmann, k-core against peeling, launch
 * counts against each program's loop, pages touched against the footprint
 * formulas, warp streams independent of generation order. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "wl_drive.h"
#include "workloads/graph.h"

/* The connected ring-with-chords graph of test_graph_bfs.c. */
#define NV 3000
static char ring_path[64];

static void write_ring(void)
{
    strcpy(ring_path, "/tmp/uvmsim-ringkXXXXXX");
    int fd = mkstemp(ring_path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    for (int i = 0; i < NV; i++) fprintf(f, "%d %d\n", i, (i + 1) % NV);
    for (int i = 0; i < NV; i += 3) fprintf(f, "%d %d\n", i, (i * 7 + 13) % NV);
    fclose(f);
}

static const char *kinds[] = { "sssp_twc", "pagerank", "bc", "gc_dtc", "gc_ttc", "kcore" };
#define NKINDS 6

/* Runs KIND on the ring; the CSR it used comes back in *G (same config). */
static struct workload *run(struct drive *d, const char *kind, enum drive_order o,
                            struct graph **g, const char *extra)
{
    write_ring();
    char k[64], f[128];
    snprintf(k, sizeof k, "workload.kind=%s", kind);
    snprintf(f, sizeof f, "workload.graph.file=%s", ring_path);
    const char *sets[] = { k, "workload.graph.input=edgelist", f, "workload.graph.root=0",
                           "workload.graph.block=256", extra ? extra : "workload.bc.sources=1" };
    struct workload *wl = drive_run(d, sets, 6, o);
    if (g) {
        struct config *c = drive_config(sets, 6);
        *g = graph_load(c);
        config_free(c);
    }
    unlink(ring_path);
    return wl;
}

static uint64_t pages(uint64_t bytes) { return (bytes + 4095) / 4096; }

static size_t alloc_named(const struct workload *wl, const char *name)
{
    for (size_t i = 0; i < wl->nallocs; i++) if (!strcmp(wl->allocs[i].name, name)) return i;
    ck_abort_msg("no allocation %s", name);
    return 0;
}

/* Pages of an 8-byte-element array touched at the given element indices. */
static uint64_t pages_of(const uint8_t *want, uint64_t n, uint64_t elem)
{
    uint64_t cnt = 0, last = UINT64_MAX;
    for (uint64_t i = 0; i < n; i++)
        if (want[i] && i * elem / 4096 != last) { last = i * elem / 4096; cnt++; }
    return cnt;
}

static void levels(const struct graph *g, uint64_t root, uint32_t *lev, uint32_t *depth)
{
    uint64_t *q = malloc(g->nv * sizeof *q), h = 0, t = 0;
    for (uint64_t v = 0; v < g->nv; v++) lev[v] = GRAPH_INF;
    lev[root] = 0;
    q[t++] = root;
    *depth = 0;
    while (h < t) {
        uint64_t v = q[h++];
        for (uint64_t e = g->row[v]; e < g->row[v + 1]; e++)
            if (lev[g->col[e]] == GRAPH_INF) {
                lev[g->col[e]] = lev[v] + 1;
                if (lev[v] + 1 > *depth) *depth = lev[v] + 1;
                q[t++] = g->col[e];
            }
    }
    free(q);
}

/* Dijkstra with an O(V^2) scan: distances with gk_weight. */
START_TEST(sssp_equals_dijkstra)
{
    struct drive d;
    struct graph *g;
    struct workload *wl = run(&d, "sssp_twc", ORDER_INTERLEAVED, &g, NULL);
    uint32_t *dist = malloc(g->nv * sizeof *dist);
    bool *done = calloc(g->nv, 1);
    for (uint64_t v = 0; v < g->nv; v++) dist[v] = GRAPH_INF;
    dist[0] = 0;
    for (;;) {
        uint64_t u = UINT64_MAX;
        for (uint64_t v = 0; v < g->nv; v++)
            if (!done[v] && dist[v] != GRAPH_INF && (u == UINT64_MAX || dist[v] < dist[u])) u = v;
        if (u == UINT64_MAX) break;
        done[u] = true;
        for (uint64_t e = g->row[u]; e < g->row[u + 1]; e++) {
            uint32_t nd = dist[u] + gk_weight(u, g->col[e]);
            if (nd < dist[g->col[e]]) dist[g->col[e]] = nd;
        }
    }
    const uint32_t *got = sssp_dist(wl);
    for (uint64_t v = 0; v < g->nv; v++)
        if (got[v] != dist[v]) ck_abort_msg("vertex %llu: %u, Dijkstra %u", (unsigned long long)v, got[v], dist[v]);
    /* rounds: kernel + kernel2 each; at least as many as the hop depth of
     * the shortest-path tree plus the final round that changes nothing */
    uint64_t r = drive_count(&d, "sssp_twc");
    ck_assert_uint_eq(drive_count(&d, "sssp_twc_2"), r);
    ck_assert_uint_eq(d.nkernels, 1 + 2 * r);
    uint32_t *lev = malloc(g->nv * sizeof *lev), depth;
    levels(g, 0, lev, &depth);
    ck_assert_uint_ge(r, depth + 1);
    /* every array whole: the graph is connected, every vertex relaxes */
    const char *names[] = { "vertexlist", "edgelist", "vproplist", "eproplist", "update", "mask", "device_over" };
    uint64_t sizes[] = { 8 * (g->nv + 1), 8 * g->ne, 4 * g->nv, 4 * g->ne, 4 * g->nv, g->nv, 1 };
    for (int i = 0; i < 7; i++)
        ck_assert_uint_eq(drive_pages(&d, alloc_named(wl, names[i]), sizes[i]), pages(sizes[i]));
    ck_assert_uint_eq(wl->nallocs, 7);
    free(dist); free(done); free(lev);
    graph_free(g);
    drive_free(&d, wl);
}
END_TEST

/* Jones-Plassmann rounds written from the definition: in round c an
 * uncoloured vertex takes c when no neighbour uncoloured before the round
 * beats it (larger random value, ties to the smaller id); random values
 * are xoshiro256** seeded 123, top 31 bits. */
static uint32_t jp(const struct graph *g, uint32_t *color, uint64_t *insize)
{
    uint32_t *r = malloc(g->nv * sizeof *r), *next = malloc(g->nv * sizeof *next);
    struct rng rg;
    rng_seed(&rg, 123);
    for (uint64_t v = 0; v < g->nv; v++) { r[v] = (uint32_t)(rng_next(&rg) >> 33); color[v] = GRAPH_INF; }
    uint32_t c = 0;
    for (;; c++) {
        uint64_t left = 0;
        for (uint64_t v = 0; v < g->nv; v++) left += color[v] == GRAPH_INF;
        insize[c] = left;
        if (!left) break;
        for (uint64_t v = 0; v < g->nv; v++) {
            next[v] = color[v];
            if (color[v] != GRAPH_INF) continue;
            bool beaten = false;
            for (uint64_t e = g->row[v]; e < g->row[v + 1]; e++) {
                uint32_t u = g->col[e];
                if (color[u] == GRAPH_INF && (r[u] > r[v] || (r[u] == r[v] && u < v))) beaten = true;
            }
            if (!beaten) next[v] = c;
        }
        memcpy(color, next, g->nv * sizeof *color);
    }
    free(r); free(next);
    return c;   /* rounds that coloured something */
}

START_TEST(colouring_equals_jones_plassmann)
{
    for (int dtc = 0; dtc < 2; dtc++) {
        struct drive d;
        struct graph *g;
        struct workload *wl = run(&d, dtc ? "gc_dtc" : "gc_ttc", ORDER_REVERSE, &g, NULL);
        uint32_t *want = malloc(g->nv * sizeof *want);
        uint64_t insize[NV + 1];
        uint32_t rounds = jp(g, want, insize);
        const uint32_t *got = gc_colors(wl);
        for (uint64_t v = 0; v < g->nv; v++) {
            if (got[v] != want[v]) ck_abort_msg("vertex %llu colour %u, JP %u", (unsigned long long)v, got[v], want[v]);
            for (uint64_t e = g->row[v]; e < g->row[v + 1]; e++)
                if (got[g->col[e]] == got[v]) ck_abort_msg("edge with one colour at both ends");
        }
        ck_assert_uint_eq(drive_count(&d, dtc ? "gc_dtc" : "gc_ttc"), rounds);
        ck_assert_uint_gt(rounds, 2);
        if (dtc) {
            uint64_t m[2] = { 0, 0 };
            for (uint32_t c = 0; c < rounds; c++) if (insize[c] > m[c & 1]) m[c & 1] = insize[c];
            ck_assert_uint_eq(m[0], NV);
            ck_assert_uint_eq(drive_pages(&d, alloc_named(wl, "worklist1.items"), 8 * NV), pages(8 * m[0]));
            ck_assert_uint_eq(drive_pages(&d, alloc_named(wl, "worklist2.items"), 8 * NV), pages(8 * m[1]));
        }
        uint64_t sizes[] = { 8 * (g->nv + 1), 8 * g->ne, 4 * g->nv, 4 * g->nv };
        const char *names[] = { "vertexlist", "edgelist", "vproplist", "randlist" };
        for (int i = 0; i < 4; i++)
            ck_assert_uint_eq(drive_pages(&d, alloc_named(wl, names[i]), sizes[i]), pages(sizes[i]));
        free(want);
        graph_free(g);
        drive_free(&d, wl);
    }
}
END_TEST

/* Synchronous peeling: each round removes every remaining vertex of
 * remaining-degree < k; only removed vertices scan their edges. */
START_TEST(kcore_equals_peeling)
{
    struct drive d;
    struct graph *g;
    /* an R-MAT graph has both: a dense core and a sparse fringe (on the
     * ring every k peels everything or nothing) */
    const char *sets[] = { "workload.kind=kcore", "workload.graph.scale=11",
                           "workload.graph.edge_factor=4", "workload.graph.seed=7",
                           "workload.kcore.k=4", "workload.graph.block=256" };
    struct workload *wl = drive_run(&d, sets, 6, ORDER_INTERLEAVED);
    struct config *cf = drive_config(sets, 6);
    g = graph_load(cf);
    config_free(cf);
    uint8_t *rm = calloc(g->nv, 1), *now = calloc(g->nv, 1);
    uint32_t *deg = malloc(g->nv * sizeof *deg);
    for (uint64_t v = 0; v < g->nv; v++) deg[v] = (uint32_t)(g->row[v + 1] - g->row[v]);
    uint64_t rounds = 0, removed = 0;
    for (;;) {
        uint64_t n = 0;
        for (uint64_t v = 0; v < g->nv; v++) { now[v] = !rm[v] && deg[v] < 4; n += now[v]; }
        rounds++;
        if (!n) break;
        for (uint64_t v = 0; v < g->nv; v++)
            if (now[v]) {
                rm[v] = 1;
                removed++;
                for (uint64_t e = g->row[v]; e < g->row[v + 1]; e++) deg[g->col[e]]--;
            }
    }
    const uint8_t *got = kcore_removed(wl);
    for (uint64_t v = 0; v < g->nv; v++)
        if ((got[v >> 3] >> (v & 7) & 1) != rm[v]) ck_abort_msg("vertex %llu", (unsigned long long)v);
    ck_assert_uint_gt(removed, 0);
    ck_assert_uint_lt(removed, g->nv);       /* a non-trivial core remains */
    ck_assert_uint_eq(drive_count(&d, "kcore"), rounds);
    ck_assert_uint_eq(drive_count(&d, "kcore_2"), rounds);
    /* edges scanned: those of removed vertices; vertex-list entries v, v+1 */
    uint8_t *ev = calloc(g->ne, 1), *vv = calloc(g->nv + 1, 1);
    for (uint64_t v = 0; v < g->nv; v++)
        if (rm[v]) {
            vv[v] = vv[v + 1] = 1;
            for (uint64_t e = g->row[v]; e < g->row[v + 1]; e++) ev[e] = 1;
        }
    ck_assert_uint_eq(drive_pages(&d, alloc_named(wl, "edgelist"), 8 * g->ne), pages_of(ev, g->ne, 8));
    ck_assert_uint_eq(drive_pages(&d, alloc_named(wl, "vertexlist"), 8 * (g->nv + 1)), pages_of(vv, g->nv + 1, 8));
    ck_assert_uint_eq(drive_pages(&d, alloc_named(wl, "degreelist"), 8 * g->nv), pages(8 * g->nv));
    ck_assert_uint_eq(drive_pages(&d, alloc_named(wl, "rmlist"), g->nv), pages(g->nv));
    free(rm); free(now); free(deg); free(ev); free(vv);
    graph_free(g);
    drive_free(&d, wl);
}
END_TEST

/* Per source: init, D+1 forward kernels (the last finds nothing), D
 * backward kernels (levels D..1), one backsum; sigma's atomicAdd fires once
 * per edge u->w with level(w) = level(u)+1. */
START_TEST(bc_follows_brandes_structure)
{
    struct drive d;
    struct graph *g;
    struct workload *wl = run(&d, "bc", ORDER_INTERLEAVED, &g, "workload.bc.sources=2");
    uint32_t *lev = malloc(g->nv * sizeof *lev), D[2];
    uint64_t tree = 0;
    for (int s = 0; s < 2; s++) {
        levels(g, (uint64_t)s, lev, &D[s]);
        for (uint64_t u = 0; u < g->nv; u++)
            for (uint64_t e = g->row[u]; e < g->row[u + 1]; e++) tree += lev[g->col[e]] == lev[u] + 1;
    }
    ck_assert_uint_eq(drive_count(&d, "bc_init"), 2);
    ck_assert_uint_eq(drive_count(&d, "bc_forward"), D[0] + 1 + D[1] + 1);
    ck_assert_uint_eq(drive_count(&d, "bc_backward"), D[0] + D[1]);
    ck_assert_uint_eq(drive_count(&d, "bc_backsum"), 2);
    ck_assert_uint_eq(d.lanes[alloc_named(wl, "sigma")][INST_ATOMIC], tree);
    const char *names[] = { "vertexlist", "edgelist", "BC", "delta", "dist", "sigma" };
    uint64_t sizes[] = { 8 * (g->nv + 1), 8 * g->ne, 4 * g->nv, 4 * g->nv, 4 * g->nv, 4 * g->nv };
    for (int i = 0; i < 6; i++)
        ck_assert_uint_eq(drive_pages(&d, alloc_named(wl, names[i]), sizes[i]), pages(sizes[i]));
    free(lev);
    graph_free(g);
    drive_free(&d, wl);
}
END_TEST

/* init + one kernel per iteration; each iteration loads E neighbour ranks
 * and 2E neighbour degree bounds, stores V ranks. */
START_TEST(pagerank_structure_and_footprint)
{
    struct drive d;
    struct graph *g;
    struct workload *wl = run(&d, "pagerank", ORDER_FORWARD, &g, "workload.pagerank.iterations=3");
    ck_assert_uint_eq(d.nkernels, 4);
    ck_assert_uint_eq(drive_count(&d, "pagerank"), 3);
    size_t r0 = alloc_named(wl, "rank"), r1 = alloc_named(wl, "rank_next");
    ck_assert_uint_eq(d.lanes[r0][INST_LOAD] + d.lanes[r1][INST_LOAD], 3 * g->ne);
    ck_assert_uint_eq(d.lanes[r0][INST_STORE] + d.lanes[r1][INST_STORE], 4 * g->nv);
    ck_assert_uint_eq(d.lanes[alloc_named(wl, "vertexlist")][INST_LOAD], 3 * (2 * g->nv + 2 * g->ne));
    uint64_t sizes[] = { 8 * (g->nv + 1), 8 * g->ne, 4 * g->nv, 4 * g->nv };
    for (size_t i = 0; i < 4; i++) ck_assert_uint_eq(drive_pages(&d, i, sizes[i]), pages(sizes[i]));
    graph_free(g);
    drive_free(&d, wl);
}
END_TEST

START_TEST(streams_independent_of_order)
{
    struct drive a, b, c;
    struct workload *wa = run(&a, kinds[_i], ORDER_FORWARD, NULL, NULL);
    struct workload *wb = run(&b, kinds[_i], ORDER_REVERSE, NULL, NULL);
    struct workload *wc = run(&c, kinds[_i], ORDER_INTERLEAVED, NULL, NULL);
    ck_assert_uint_eq(a.nhash, b.nhash);
    ck_assert_uint_eq(a.nhash, c.nhash);
    for (uint64_t i = 0; i < a.nhash; i++)
        if (a.hash[i] != b.hash[i] || a.hash[i] != c.hash[i])
            ck_abort_msg("%s: warp %llu depends on the order", kinds[_i], (unsigned long long)i);
    drive_free(&a, wa); drive_free(&b, wb); drive_free(&c, wc);
}
END_TEST

static Suite *graph_kernels_suite(void)
{
    Suite *s = suite_create("graph_kernels");
    TCase *t = tcase_create("kernels");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, sssp_equals_dijkstra);
    tcase_add_test(t, colouring_equals_jones_plassmann);
    tcase_add_test(t, kcore_equals_peeling);
    tcase_add_test(t, bc_follows_brandes_structure);
    tcase_add_test(t, pagerank_structure_and_footprint);
    tcase_add_loop_test(t, streams_independent_of_order, 0, NKINDS);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(graph_kernels_suite()); }

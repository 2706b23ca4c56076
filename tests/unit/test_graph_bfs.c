/* GraphBIG BFS variants: levels against an independent queue BFS, kernel
 * launches against each variant's loop structure, pages touched against the
 * footprint formula, and warp streams independent of generation order. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "wl_drive.h"
#include "workloads/graph.h"

static const char *const variants[] = { "bfs_ttc", "bfs_twc", "bfs_ta", "bfs_tf", "bfs_dwc" };
#define NVAR 5

/* A connected undirected graph written by hand: a ring over NV vertices
 * plus chords i -> (i * 7 + 13) % NV, so the BFS has many levels and every
 * vertex and every edge is reached. */
#define NV 3000
static char ring_path[64];

static void write_ring(void)
{
    strcpy(ring_path, "/tmp/uvmsim-ringXXXXXX");
    int fd = mkstemp(ring_path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "# ring with chords\n");
    for (int i = 0; i < NV; i++) fprintf(f, "%d %d\n", i, (i + 1) % NV);
    for (int i = 0; i < NV; i += 3) fprintf(f, "%d %d\n", i, (i * 7 + 13) % NV);
    fclose(f);
}

/* Independent BFS: adjacency from the same edge rules, plain FIFO queue. */
static int adj[NV][8];
static int nadj[NV];

static int ring_levels(uint32_t *lev, uint64_t *ne)
{
    memset(nadj, 0, sizeof nadj);
    for (int i = 0; i < NV; i++) {
        int e[2][2] = { { i, (i + 1) % NV }, { i, (i * 7 + 13) % NV } };
        for (int k = 0; k < (i % 3 == 0 ? 2 : 1); k++) {
            int s = e[k][0], d = e[k][1];
            if (s == d) continue;
            bool dup = false;
            for (int j = 0; j < nadj[s]; j++) dup |= adj[s][j] == d;
            if (dup) continue;
            adj[s][nadj[s]++] = d;
            adj[d][nadj[d]++] = s;
        }
    }
    *ne = 0;
    for (int v = 0; v < NV; v++) *ne += (uint64_t)nadj[v];
    static int q[NV];
    for (int v = 0; v < NV; v++) lev[v] = GRAPH_INF;
    int h = 0, t = 0, depth = 0;
    lev[0] = 0;
    q[t++] = 0;
    while (h < t) {
        int v = q[h++];
        for (int j = 0; j < nadj[v]; j++)
            if (lev[adj[v][j]] == GRAPH_INF) {
                lev[adj[v][j]] = lev[v] + 1;
                if ((int)lev[v] + 1 > depth) depth = (int)lev[v] + 1;
                q[t++] = adj[v][j];
            }
    }
    return depth;
}

static struct workload *run_ring(struct drive *d, const char *kind, enum drive_order o)
{
    char k[64], f[128];
    snprintf(k, sizeof k, "workload.kind=%s", kind);
    snprintf(f, sizeof f, "workload.graph.file=%s", ring_path);
    const char *sets[] = { k, "workload.graph.input=edgelist", f, "workload.graph.root=0",
                           "workload.graph.block=256" };
    return drive_run(d, sets, 5, o);
}

/* The racy stores: with one claimer per discovered vertex (TTC, TWC,
 * DWC), vproplist gets V initialising stores + one per reached vertex but
 * the root; TF stores once per edge u->v with level(v) = level(u)+1 (every
 * frontier thread that sees v unvisited writes it); TA's atomicMin fires at
 * least once per reached vertex but the root. */
START_TEST(level_stores_match_the_race_semantics)
{
    write_ring();
    static uint32_t want[NV];
    uint64_t ne;
    ring_levels(want, &ne);
    uint64_t reached = 0, tree = 0;
    for (int u = 0; u < NV; u++) {
        reached += want[u] != GRAPH_INF;
        for (int j = 0; j < nadj[u]; j++) tree += want[adj[u][j]] == want[u] + 1;
    }
    struct drive d;
    struct workload *wl = run_ring(&d, variants[_i], ORDER_INTERLEAVED);
    size_t vp = 0;
    while (strcmp(wl->allocs[vp].name, "vproplist")) vp++;
    const char *v = variants[_i];
    if (!strcmp(v, "bfs_tf")) {
        ck_assert_uint_gt(tree, reached - 1);     /* some vertices have 2 parents */
        ck_assert_uint_eq(d.lanes[vp][INST_STORE], NV + tree);
    } else if (!strcmp(v, "bfs_ta")) {
        ck_assert_uint_eq(d.lanes[vp][INST_STORE], NV);
        ck_assert_uint_ge(d.lanes[vp][INST_ATOMIC], reached - 1);
    } else {
        ck_assert_uint_eq(d.lanes[vp][INST_STORE], NV + reached - 1);
    }
    drive_free(&d, wl);
    unlink(ring_path);
}
END_TEST

static uint64_t pages(uint64_t bytes) { return (bytes + 4095) / 4096; }

START_TEST(levels_equal_independent_bfs)
{
    write_ring();
    static uint32_t want[NV];
    uint64_t ne;
    ring_levels(want, &ne);
    struct drive d;
    struct workload *wl = run_ring(&d, variants[_i], ORDER_FORWARD);
    const uint32_t *got = bfs_levels(wl);
    for (int v = 0; v < NV; v++)
        if (got[v] != want[v])
            ck_abort_msg("%s: vertex %d level %u, BFS says %u", variants[_i], v, got[v], want[v]);
    drive_free(&d, wl);
    unlink(ring_path);
}
END_TEST

/* TTC/TWC: one kernel per level 0..D (the last finds nothing new), TF two
 * per level, DWC one per non-empty worklist (levels 0..D), TA at most D+1
 * and at least 2 (the last one changes nothing); one initialize kernel. */
START_TEST(launches_follow_iteration_structure)
{
    write_ring();
    static uint32_t want[NV];
    uint64_t ne;
    uint64_t D = (uint64_t)ring_levels(want, &ne);
    ck_assert_uint_gt(D, 10);
    for (int i = 0; i < NVAR; i++) {
        struct drive d;
        struct workload *wl = run_ring(&d, variants[i], ORDER_FORWARD);
        ck_assert_uint_eq(drive_count(&d, "initialize"), 1);
        ck_assert_str_eq(d.names[0], "initialize");
        if (!strcmp(variants[i], "bfs_tf")) {
            ck_assert_uint_eq(drive_count(&d, "bfs_tf_1"), D + 1);
            ck_assert_uint_eq(drive_count(&d, "bfs_tf_2"), D + 1);
            for (uint64_t k = 1; k < d.nkernels; k++)
                ck_assert_str_eq(d.names[k], k % 2 ? "bfs_tf_1" : "bfs_tf_2");
        } else if (!strcmp(variants[i], "bfs_ta")) {
            ck_assert_uint_le(drive_count(&d, "bfs_ta"), D + 1);
            ck_assert_uint_ge(drive_count(&d, "bfs_ta"), 2);
        } else {
            ck_assert_uint_eq(drive_count(&d, variants[i]), D + 1);
        }
        ck_assert_uint_eq(d.nkernels, 1 + (!strcmp(variants[i], "bfs_tf") ? 2 : 1) *
                          drive_count(&d, !strcmp(variants[i], "bfs_tf") ? "bfs_tf_1" : variants[i]));
        /* Host steps: the flag goes in and out around every launch (TTC:
         * 1 root copy + 2 per launch). */
        if (!strcmp(variants[i], "bfs_ttc")) ck_assert_uint_eq(d.nhost, 1 + 2 * (D + 1));
        drive_free(&d, wl);
    }
    unlink(ring_path);
}
END_TEST

/* Every vertex and edge is reached, so each array is touched whole:
 * pages = ceil(bytes / 4 KiB) for vertexlist 8(V+1), edgelist 8E,
 * vproplist 4V, the flag 1 B (TF: three V-byte flag arrays); DWC's
 * worklists hold levels 0,2,4.. (worklist1) and 1,3,.. (worklist2), so
 * each is touched up to its largest level's 8-byte items. */
START_TEST(pages_touched_equal_footprint)
{
    write_ring();
    static uint32_t want[NV];
    uint64_t ne;
    int D = ring_levels(want, &ne);
    uint64_t maxw[2] = { 0, 0 };
    for (int k = 0; k <= D; k++) {
        uint64_t n = 0;
        for (int v = 0; v < NV; v++) n += want[v] == (uint32_t)k;
        if (n > maxw[k & 1]) maxw[k & 1] = n;
    }
    for (int i = 0; i < NVAR; i++) {
        struct drive d;
        struct workload *wl = run_ring(&d, variants[i], ORDER_FORWARD);
        for (size_t a = 0; a < wl->nallocs; a++) {
            const char *n = wl->allocs[a].name;
            uint64_t want_pages =
                !strcmp(n, "vertexlist") ? pages(8 * (NV + 1)) :
                !strcmp(n, "edgelist") ? pages(8 * ne) :
                !strcmp(n, "vproplist") ? pages(4 * NV) :
                !strcmp(n, "worklist1.items") ? pages(8 * maxw[0]) :
                !strcmp(n, "worklist2.items") ? pages(8 * maxw[1]) :
                !strncmp(n, "worklist", 8) || !strcmp(n, "device_over") ? 1 :
                pages(NV);   /* TF flag arrays */
            ck_assert_msg(drive_pages(&d, a, wl->allocs[a].size) == want_pages,
                          "%s: %s touched %llu pages, formula %llu", variants[i], n,
                          (unsigned long long)drive_pages(&d, a, wl->allocs[a].size),
                          (unsigned long long)want_pages);
        }
        uint64_t nall = !strcmp(variants[i], "bfs_dwc") ? 7 : !strcmp(variants[i], "bfs_tf") ? 7 : 4;
        ck_assert_uint_eq(wl->nallocs, nall);
        drive_free(&d, wl);
    }
    unlink(ring_path);
}
END_TEST

/* Warps may be generated in any order and interleaving (the timing model
 * decides): each warp's stream must not depend on it. */
START_TEST(warp_streams_independent_of_order)
{
    write_ring();
    struct drive a, b, c;
    struct workload *wa = run_ring(&a, variants[_i], ORDER_FORWARD);
    struct workload *wb = run_ring(&b, variants[_i], ORDER_REVERSE);
    struct workload *wc = run_ring(&c, variants[_i], ORDER_INTERLEAVED);
    ck_assert_uint_eq(a.nhash, b.nhash);
    ck_assert_uint_eq(a.nhash, c.nhash);
    ck_assert_uint_gt(a.insts, 1000);
    for (uint64_t i = 0; i < a.nhash; i++)
        if (a.hash[i] != b.hash[i] || a.hash[i] != c.hash[i])
            ck_abort_msg("%s: warp %llu differs with the generation order", variants[_i],
                         (unsigned long long)i);
    drive_free(&a, wa); drive_free(&b, wb); drive_free(&c, wc);
    unlink(ring_path);
}
END_TEST

/* A graph with unreachable vertices (R-MAT): levels still equal a queue
 * BFS over the same CSR, and the unreached stay at MY_INFINITY. */
START_TEST(rmat_levels_equal_queue_bfs)
{
    char k[64];
    snprintf(k, sizeof k, "workload.kind=%s", variants[_i]);
    const char *sets[] = { k, "workload.graph.scale=11", "workload.graph.edge_factor=4",
                           "workload.graph.seed=7" };
    struct config *c = drive_config(sets, 4);
    struct graph *g = graph_load(c);
    uint64_t root = graph_root(c, g);
    config_free(c);
    uint32_t *lev = malloc(g->nv * sizeof *lev);
    uint64_t *q = malloc(g->nv * sizeof *q), h = 0, t = 0, unreached = 0;
    for (uint64_t v = 0; v < g->nv; v++) lev[v] = GRAPH_INF;
    lev[root] = 0;
    q[t++] = root;
    while (h < t) {
        uint64_t v = q[h++];
        for (uint64_t e = g->row[v]; e < g->row[v + 1]; e++)
            if (lev[g->col[e]] == GRAPH_INF) { lev[g->col[e]] = lev[v] + 1; q[t++] = g->col[e]; }
    }
    struct drive d;
    struct workload *wl = drive_run(&d, sets, 4, ORDER_INTERLEAVED);
    const uint32_t *got = bfs_levels(wl);
    for (uint64_t v = 0; v < g->nv; v++) {
        if (got[v] != lev[v])
            ck_abort_msg("vertex %llu: level %u, BFS %u", (unsigned long long)v, got[v], lev[v]);
        unreached += lev[v] == GRAPH_INF;
    }
    ck_assert_uint_gt(unreached, 0);   /* the case this test is for */
    drive_free(&d, wl);
    graph_free(g);
    free(lev);
    free(q);
}
END_TEST

/* The same seed gives the same warp streams; another seed (explicit, or
 * through sim.seed when workload.graph.seed is 0) another graph. */
START_TEST(streams_deterministic_per_seed)
{
    const char *a[] = { "workload.kind=bfs_twc", "workload.graph.scale=10", "workload.graph.seed=5" };
    const char *b[] = { "workload.kind=bfs_twc", "workload.graph.scale=10", "workload.graph.seed=6" };
    const char *c[] = { "workload.kind=bfs_twc", "workload.graph.scale=10", "sim.seed=11" };
    const char *e[] = { "workload.kind=bfs_twc", "workload.graph.scale=10", "sim.seed=12" };
    struct drive d1, d2, d3, d4, d5;
    struct workload *w1 = drive_run(&d1, a, 3, ORDER_FORWARD), *w2 = drive_run(&d2, a, 3, ORDER_REVERSE);
    struct workload *w3 = drive_run(&d3, b, 3, ORDER_FORWARD);
    struct workload *w4 = drive_run(&d4, c, 3, ORDER_FORWARD), *w5 = drive_run(&d5, e, 3, ORDER_FORWARD);
    ck_assert_uint_eq(d1.nhash, d2.nhash);
    ck_assert(!memcmp(d1.hash, d2.hash, d1.nhash * sizeof *d1.hash));
    ck_assert(d1.nhash != d3.nhash || memcmp(d1.hash, d3.hash, d1.nhash * sizeof *d1.hash));
    ck_assert(d4.nhash != d5.nhash || memcmp(d4.hash, d5.hash, d4.nhash * sizeof *d4.hash));
    drive_free(&d1, w1); drive_free(&d2, w2); drive_free(&d3, w3); drive_free(&d4, w4); drive_free(&d5, w5);
}
END_TEST

static Suite *graph_bfs_suite(void)
{
    Suite *s = suite_create("graph_bfs");
    TCase *t = tcase_create("bfs");
    tcase_set_timeout(t, 60);
    tcase_add_loop_test(t, levels_equal_independent_bfs, 0, NVAR);
    tcase_add_test(t, launches_follow_iteration_structure);
    tcase_add_test(t, pages_touched_equal_footprint);
    tcase_add_loop_test(t, level_stores_match_the_race_semantics, 0, NVAR);
    tcase_add_loop_test(t, warp_streams_independent_of_order, 0, NVAR);
    tcase_add_loop_test(t, rmat_levels_equal_queue_bfs, 0, NVAR);
    tcase_add_test(t, streams_deterministic_per_seed);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(graph_bfs_suite()); }

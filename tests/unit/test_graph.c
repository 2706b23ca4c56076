/* Graph inputs: generators deterministic per seed, R-MAT's quadrant skew,
 * Matrix Market round trip, hand-written files parsed as written. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "workloads/graph.h"

static bool same(const struct graph *a, const struct graph *b)
{
    return a->nv == b->nv && a->ne == b->ne &&
           !memcmp(a->row, b->row, (a->nv + 1) * sizeof *a->row) &&
           !memcmp(a->col, b->col, a->ne * sizeof *a->col);
}

static char *write_tmp(const char *text)
{
    static char path[64];
    strcpy(path, "/tmp/uvmsim-graphXXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

START_TEST(generators_deterministic_per_seed)
{
    struct graph *a = graph_rmat(10, 8, 0.57, 0.19, 0.19, 42, true, true);
    struct graph *b = graph_rmat(10, 8, 0.57, 0.19, 0.19, 42, true, true);
    struct graph *c = graph_rmat(10, 8, 0.57, 0.19, 0.19, 43, true, true);
    ck_assert(same(a, b));
    ck_assert(!same(a, c));
    struct graph *u1 = graph_uniform(10, 8, 5, false), *u2 = graph_uniform(10, 8, 5, false);
    struct graph *u3 = graph_uniform(10, 8, 6, false);
    ck_assert(same(u1, u2));
    ck_assert(!same(u1, u3));
    graph_free(a); graph_free(b); graph_free(c);
    graph_free(u1); graph_free(u2); graph_free(u3);
}
END_TEST

/* Without relabelling, an R-MAT edge's source lies in the lower half iff its
 * top bit picked quadrant a or b: probability a + b = 0.76 per generated
 * edge (deduplication removes more of the denser lower half, so allow
 * 0.70..0.80); uniform endpoints give 1/2.  Every CSR row is sorted, with
 * no duplicate and no self-loop. */
START_TEST(rmat_skew_and_csr_shape)
{
    struct graph *g = graph_rmat(14, 16, 0.57, 0.19, 0.19, 1, false, false);
    uint64_t low = g->row[g->nv / 2];
    double f = (double)low / (double)g->ne;
    ck_assert_msg(f > 0.70 && f < 0.80, "lower-half share %.3f", f);
    for (uint64_t v = 0; v < g->nv; v++)
        for (uint64_t e = g->row[v]; e < g->row[v + 1]; e++)
            if (g->col[e] == v || (e > g->row[v] && g->col[e] <= g->col[e - 1]))
                ck_abort_msg("row %llu not sorted/unique/loop-free", (unsigned long long)v);
    struct graph *u = graph_uniform(14, 16, 1, false);
    double fu = (double)u->row[u->nv / 2] / (double)u->ne;
    ck_assert_msg(fu > 0.48 && fu < 0.52, "uniform lower-half share %.3f", fu);
    /* symmetrised: every edge has its reverse */
    struct graph *s = graph_rmat(10, 8, 0.57, 0.19, 0.19, 3, true, true);
    for (uint64_t v = 0; v < s->nv; v++)
        for (uint64_t e = s->row[v]; e < s->row[v + 1]; e++) {
            uint32_t w = s->col[e];
            bool back = false;
            for (uint64_t x = s->row[w]; x < s->row[w + 1]; x++) back |= s->col[x] == v;
            if (!back) ck_abort_msg("edge %llu->%u without reverse", (unsigned long long)v, w);
        }
    graph_free(g); graph_free(u); graph_free(s);
}
END_TEST

START_TEST(matrix_market_round_trip)
{
    struct graph *g = graph_rmat(9, 8, 0.57, 0.19, 0.19, 9, false, true);
    char *path = write_tmp("");
    FILE *f = fopen(path, "w");
    graph_write_mtx(g, f);
    fclose(f);
    struct graph *h = graph_read_mtx(path, "test", false);
    ck_assert(same(g, h));
    unlink(path);
    graph_free(g);
    graph_free(h);
}
END_TEST

/* 4x4 symmetric real: entries (2,1) (3,1) (4,3) and a diagonal (2,2), so
 * edges 0-1, 0-2, 2-3 both ways, the self-loop dropped:
 * row 0: 1 2 | row 1: 0 | row 2: 0 3 | row 3: 2. */
START_TEST(matrix_market_symmetric_by_hand)
{
    char *path = write_tmp("%%MatrixMarket matrix coordinate real symmetric\n"
                           "% comment\n\n4 4 4\n2 1 0.5\n3 1 -1e3\n2 2 7\n4 3 1\n");
    struct graph *g = graph_read_mtx(path, "test", false);
    uint64_t row[] = { 0, 2, 3, 5, 6 };
    uint32_t col[] = { 1, 2, 0, 0, 3, 2 };
    ck_assert_uint_eq(g->nv, 4);
    ck_assert_uint_eq(g->ne, 6);
    ck_assert(!memcmp(g->row, row, sizeof row));
    ck_assert(!memcmp(g->col, col, sizeof col));
    unlink(path);
    graph_free(g);
}
END_TEST

/* SNAP-style list: comments, a weight column, a duplicate edge; directed. */
START_TEST(edge_list_by_hand)
{
    char *path = write_tmp("# FromNodeId ToNodeId\n0 3\n3 1 2.5\n\n0 3\n1 0\n");
    struct graph *g = graph_read_edgelist(path, "test", false);
    uint64_t row[] = { 0, 1, 2, 2, 3 };
    uint32_t col[] = { 3, 0, 1 };
    ck_assert_uint_eq(g->nv, 4);
    ck_assert_uint_eq(g->ne, 3);
    ck_assert(!memcmp(g->row, row, sizeof row));
    ck_assert(!memcmp(g->col, col, sizeof col));
    unlink(path);
    graph_free(g);
}
END_TEST

/* The generators' peak, laid out by hand for 2^4 vertices x 2 edges,
 * undirected: the edge list 32 x 8 B, the stored edges (64) twice at 4 B
 * (CSR destinations, the row-sort buffer), two 17-entry offset arrays of
 * 8 B: 256 + 512 + 272. */
START_TEST(generator_host_bytes_by_hand)
{
    ck_assert_uint_eq(graph_gen_host_bytes(4, 2, true), 1040);
    ck_assert_uint_eq(graph_gen_host_bytes(4, 2, false), 256 + 256 + 272);
    /* The largest the keys allow still fits 64 bits: no saturation. */
    ck_assert_uint_lt(graph_gen_host_bytes(31, 1024, true), UINT64_MAX);
}
END_TEST

static Suite *graph_suite(void)
{
    Suite *s = suite_create("graph");
    TCase *t = tcase_create("inputs");
    tcase_add_test(t, generators_deterministic_per_seed);
    tcase_add_test(t, rmat_skew_and_csr_shape);
    tcase_add_test(t, matrix_market_round_trip);
    tcase_add_test(t, matrix_market_symmetric_by_hand);
    tcase_add_test(t, edge_list_by_hand);
    tcase_add_test(t, generator_host_bytes_by_hand);
    suite_add_tcase(s, t);
    return s;
}


int main(void) { return run_suite(graph_suite()); }

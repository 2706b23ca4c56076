/* Graph files: Matrix Market coordinate (NIST MM exchange format: banner
 * "%%MatrixMarket matrix coordinate FIELD SYMMETRY", '%' comments, a
 * "ROWS COLS ENTRIES" line, then 1-based "I J [VALUE]" entries) and plain
 * edge lists (SNAP style: "SRC DST" per line, 0-based, '#' comments).
 * Entry (i, j) is the edge i -> j; values are ignored (GraphBIG's kernels
 * traverse structure only).  Errors name FILE:LINE and exit 2. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "graph.h"

struct reader {
    FILE *f;
    const char *path;
    unsigned long line;
    char *buf;
    size_t cap;
    struct edge *e;             /* the edges read so far */
    uint64_t n, ecap;
};

/* Runs when a user error leaves the reader (user_error's cleanup stack). */
static void close_reader(void *ctx)
{
    struct reader *r = ctx;
    free(r->buf);
    free(r->e);
    fclose(r->f);
}

static void open_reader(struct reader *r, const char *path, const char *key)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->f = fopen(path, "r");
    if (!r->f) user_error("%s: cannot read '%s': %s", key, path, strerror(errno));
    user_error_push_cleanup(close_reader, r);
}

/* Next line, or NULL at end of file. */
static char *next_line(struct reader *r)
{
    ssize_t n = getline(&r->buf, &r->cap, r->f);
    if (n < 0) return NULL;
    r->line++;
    while (n > 0 && (r->buf[n - 1] == '\n' || r->buf[n - 1] == '\r')) r->buf[--n] = 0;
    return r->buf;
}

static char msgbuf[256];
#define BAD(r, ...) user_error("%s:%lu: %s", (r)->path, (r)->line, \
    (snprintf(msgbuf, sizeof msgbuf, __VA_ARGS__), msgbuf))

/* The edges grow as they are read, never to a size the input only claims
 * (a header's entry count is checked, not trusted). */
static void add_edge(struct reader *r, uint64_t s, uint64_t d)
{
    if (r->n == r->ecap) {
        uint64_t cap = r->ecap ? 2 * r->ecap : 1024;
        if (mul_sat(cap, sizeof *r->e) > host_memory_limit())
            BAD(r, "%llu edges need more host memory than this machine allows (%llu bytes)",
                (unsigned long long)cap, (unsigned long long)host_memory_limit());
        r->e = xrealloc(r->e, cap * sizeof *r->e);
        r->ecap = cap;
    }
    r->e[r->n++] = (struct edge){ (uint32_t)s, (uint32_t)d };
}

/* A graph of NV vertices and N edges must fit in host memory as CSR
 * (graph_from_edges: rows, counts and cursors of nv + 1 u64 each, the
 * edges, and the columns of up to 2n u32). */
static uint64_t csr_bytes(uint64_t nv, uint64_t n)
{
    return add_sat(mul_sat(add_sat(nv, 1), 24), add_sat(mul_sat(n, sizeof(struct edge)),
                                                        mul_sat(n, 8)));
}

static void check_size(struct reader *r, uint64_t nv, uint64_t n, unsigned long line)
{
    uint64_t need = csr_bytes(nv, n), lim = host_memory_limit();
    if (need > lim) {
        r->line = line;
        BAD(r, "%llu vertices and %llu edges need %llu bytes of host memory, more than "
            "this machine allows (%llu)", (unsigned long long)nv, (unsigned long long)n,
            (unsigned long long)need, (unsigned long long)lim);
    }
}

static struct graph *finish(struct reader *r, uint64_t nv, bool undirected)
{
    struct edge *e = r->e;
    uint64_t n = r->n;
    r->e = NULL;
    user_error_pop_cleanup();
    close_reader(r);
    struct graph *g = graph_from_edges(nv, e, n, undirected);
    free(e);
    return g;
}

static bool blank(const char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    return *s == 0;
}

/* Parses an unsigned decimal integer field; advances *p.  Out of range
 * (ERANGE) is not a number. */
static bool field_u64(const char **p, uint64_t *out)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t') s++;
    if (*s < '0' || *s > '9') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || (*end && *end != ' ' && *end != '\t')) return false;
    *out = v;
    *p = end;
    return true;
}

static bool field_number(const char **p)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t') s++;
    char *end;
    strtod(s, &end);
    if (end == s || (*end && *end != ' ' && *end != '\t')) return false;
    *p = end;
    return true;
}

struct graph *graph_read_mtx(const char *path, const char *key, bool undirected)
{
    struct reader r;
    open_reader(&r, path, key);
    char *l = next_line(&r);
    if (!l) { r.line = 1; BAD(&r, "empty file, expected a %%%%MatrixMarket banner"); }
    char obj[32], fmt[32], field[32], sym[32];
    if (sscanf(l, "%%%%MatrixMarket %31s %31s %31s %31s", obj, fmt, field, sym) != 4)
        BAD(&r, "expected '%%%%MatrixMarket matrix coordinate FIELD SYMMETRY'");
    if (strcasecmp(obj, "matrix") || strcasecmp(fmt, "coordinate"))
        BAD(&r, "only 'matrix coordinate' is a graph, got '%s %s'", obj, fmt);
    bool has_value;
    if (!strcasecmp(field, "pattern")) has_value = false;
    else if (!strcasecmp(field, "real") || !strcasecmp(field, "integer")) has_value = true;
    else BAD(&r, "field '%s': expected pattern, real or integer", field);
    bool symmetric;
    if (!strcasecmp(sym, "general")) symmetric = false;
    else if (!strcasecmp(sym, "symmetric")) symmetric = true;
    else BAD(&r, "symmetry '%s': expected general or symmetric", sym);

    uint64_t rows = 0, cols = 0, nnz = 0;
    for (;;) {
        l = next_line(&r);
        if (!l) BAD(&r, "missing the 'ROWS COLS ENTRIES' line");
        if (l[0] == '%' || blank(l)) continue;
        const char *p = l;
        if (!field_u64(&p, &rows) || !field_u64(&p, &cols) || !field_u64(&p, &nnz) ||
            !blank(p))
            BAD(&r, "expected 'ROWS COLS ENTRIES', got '%.60s'", l);
        break;
    }
    uint64_t nv = rows > cols ? rows : cols;
    if (nv > UINT32_MAX) BAD(&r, "%llu vertices: at most 2^32-1", (unsigned long long)nv);
    /* The declared count is checked against the machine, never used to
     * size anything: the edges grow as they are read (add_edge). */
    check_size(&r, nv, nnz, r.line);
    while ((l = next_line(&r))) {
        if (l[0] == '%' || blank(l)) continue;
        const char *p = l;
        uint64_t i, j;
        if (r.n == nnz) BAD(&r, "more than the %llu entries declared", (unsigned long long)nnz);
        if (!field_u64(&p, &i) || !field_u64(&p, &j))
            BAD(&r, "expected 'ROW COL%s', got '%.60s'", has_value ? " VALUE" : "", l);
        if (has_value && !field_number(&p)) BAD(&r, "missing or bad value in '%.60s'", l);
        if (!blank(p)) BAD(&r, "unexpected text after the entry: '%.40s'", p);
        if (i < 1 || i > rows || j < 1 || j > cols)
            BAD(&r, "entry (%llu, %llu) outside the %llux%llu matrix",
                (unsigned long long)i, (unsigned long long)j,
                (unsigned long long)rows, (unsigned long long)cols);
        add_edge(&r, i - 1, j - 1);
    }
    if (r.n != nnz)
        BAD(&r, "end of file after %llu of the %llu entries declared",
            (unsigned long long)r.n, (unsigned long long)nnz);
    return finish(&r, nv, undirected || symmetric);
}

struct graph *graph_read_edgelist(const char *path, const char *key, bool undirected)
{
    struct reader r;
    open_reader(&r, path, key);
    uint64_t nv = 0;
    unsigned long nv_line = 0;       /* where the largest vertex id is */
    char *l;
    while ((l = next_line(&r))) {
        if (l[0] == '#' || l[0] == '%' || blank(l)) continue;
        const char *p = l;
        uint64_t s, d;
        if (!field_u64(&p, &s) || !field_u64(&p, &d))
            BAD(&r, "expected 'SRC DST', got '%.60s'", l);
        if (!blank(p) && !field_number(&p)) BAD(&r, "bad weight in '%.60s'", l);
        if (!blank(p)) BAD(&r, "unexpected text after the edge: '%.40s'", p);
        if (s >= UINT32_MAX || d >= UINT32_MAX) BAD(&r, "vertex id above 2^32-2");
        uint64_t top = (s > d ? s : d) + 1;
        if (top > nv) {
            /* Vertex ids size the CSR (ids are not renumbered): one large
             * id is a graph of that many vertices. */
            check_size(&r, top, r.n + 1, r.line);
            nv = top;
            nv_line = r.line;
        }
        add_edge(&r, s, d);
    }
    if (r.n == 0) BAD(&r, "no edges");
    check_size(&r, nv, r.n, nv_line);
    return finish(&r, nv, undirected);
}

void graph_write_mtx(const struct graph *g, FILE *out)
{
    fprintf(out, "%%%%MatrixMarket matrix coordinate pattern general\n"
            "%% written by uvmsim\n%llu %llu %llu\n", (unsigned long long)g->nv,
            (unsigned long long)g->nv, (unsigned long long)g->ne);
    for (uint64_t v = 0; v < g->nv; v++)
        for (uint64_t i = g->row[v]; i < g->row[v + 1]; i++)
            fprintf(out, "%llu %u\n", (unsigned long long)v + 1, g->col[i] + 1);
}

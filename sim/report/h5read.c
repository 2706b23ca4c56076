/* Reading a result (docs/results.md) back for the report.  Everything is
 * read through HDF5's type conversion into doubles or C strings, so the
 * report does not depend on the exact integer types of a field. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "rpt_int.h"

/* ---- refusing what no result holds ----
 * The first reason a file is refused; later readers return "missing" at
 * once, so a damaged file is touched no further (report.c turns the
 * reason into "FILE: not a uvmsim result: ..." and exit 2). */

static char failure[512];

void rpt_fail(const char *fmt, ...)
{
    if (failure[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(failure, sizeof failure, fmt, ap);
    va_end(ap);
    if (!failure[0]) snprintf(failure, sizeof failure, "unreadable");
}

const char *rpt_failure(void) { return failure[0] ? failure : NULL; }
void rpt_fail_reset(void) { failure[0] = 0; }

uint64_t rpt_max_bytes(void)
{
    uint64_t m = host_memory_limit() / 2;
    return m < RPT_MAX_BYTES ? m : RPT_MAX_BYTES;
}

/* Deflate expands at most 1032:1 (RFC 1951: a 258-byte match per 2-bit
 * code at best), so a dataset's logical bytes cannot exceed 1032 times
 * what it stores, plus slack for fill values and small compact data
 * (the same rule as scripts/read_results.py).  Anything else (a chunked,
 * never-written 2^40 doubles in a few hundred bytes) is refused before
 * anything is allocated for it. */
bool rpt_dataset_fits(hid_t d, const char *what, uint64_t *bytes)
{
    hid_t sp = H5Dget_space(d), t = H5Dget_type(d);
    hssize_t np = sp < 0 ? -1 : H5Sget_simple_extent_npoints(sp);
    size_t es = t < 0 ? 0 : H5Tget_size(t);
    if (sp >= 0) H5Sclose(sp);
    if (t >= 0) H5Tclose(t);
    if (np < 0 || es == 0) {
        rpt_fail("%s: unreadable dataspace or type", what);
        return false;
    }
    uint64_t logical = mul_sat((uint64_t)np, es);
    uint64_t stored = H5Dget_storage_size(d);
    if (logical > add_sat(mul_sat(stored, 1032), 1u << 20)) {
        rpt_fail("%s: %llu bytes claimed in %llu stored (more than deflate can expand)", what,
                 (unsigned long long)logical, (unsigned long long)stored);
        return false;
    }
    if (logical > rpt_max_bytes() || (uint64_t)np > RPT_MAX_ROWS) {
        rpt_fail("%s: %llu elements of %zu bytes, more than a result holds here", what,
                 (unsigned long long)np, es);
        return false;
    }
    if (bytes) *bytes = logical;
    return true;
}

/* The attribute's space holds one element (scalar, or an array of one):
 * what a read into one value may write.  Else the file is refused. */
static bool one_element(hid_t a, const char *obj, const char *attr)
{
    hid_t sp = H5Aget_space(a);
    H5S_class_t c = sp < 0 ? H5S_NO_CLASS : H5Sget_simple_extent_type(sp);
    hssize_t n = sp < 0 ? -1 : H5Sget_simple_extent_npoints(sp);
    if (sp >= 0) H5Sclose(sp);
    if (c == H5S_SCALAR || (c == H5S_SIMPLE && n == 1)) return true;
    rpt_fail("attribute '%s' of %s is not a single value", attr, obj);
    return false;
}

static hid_t attr_open(hid_t loc, const char *obj, const char *attr)
{
    if (failure[0] || H5Aexists_by_name(loc, obj, attr, H5P_DEFAULT) <= 0) return -1;
    return H5Aopen_by_name(loc, obj, attr, H5P_DEFAULT, H5P_DEFAULT);
}

char *rpt_attr_str(hid_t loc, const char *obj, const char *attr)
{
    hid_t a = attr_open(loc, obj, attr);
    if (a < 0) return NULL;
    hid_t t = H5Aget_type(a);
    char *out = NULL;
    if (t >= 0 && H5Tget_class(t) == H5T_STRING && one_element(a, obj, attr)) {
        if (H5Tis_variable_str(t) > 0) {
            /* Results before issue 38 hold variable-length strings: read
             * through the global heap, which libhdf5 1.10 does not check
             * (docs/robustness.md).  Only the shape is checked above. */
            hid_t mt = H5Tcopy(H5T_C_S1);
            H5Tset_size(mt, H5T_VARIABLE);
            H5Tset_cset(mt, H5Tget_cset(t));   /* no conversion across sets */
            char *s = NULL;
            if (H5Aread(a, mt, &s) >= 0 && s) {
                if (strlen(s) <= RPT_MAX_ATTR_STR) out = xstrdup(s);
                else rpt_fail("attribute '%s' of %s: a string over %d bytes", attr, obj, RPT_MAX_ATTR_STR);
                H5free_memory(s);
            }
            H5Tclose(mt);
        } else {
            size_t n = H5Tget_size(t);
            if (n == 0 || n > RPT_MAX_ATTR_STR) {
                rpt_fail("attribute '%s' of %s: a string of %zu bytes", attr, obj, n);
            } else {
                out = xcalloc(n + 1, 1);
                hid_t mt = H5Tcopy(H5T_C_S1);
                H5Tset_size(mt, n + 1);
                H5Tset_cset(mt, H5Tget_cset(t));
                if (H5Aread(a, mt, out) < 0) { free(out); out = NULL; }
                else out[n] = 0;
                H5Tclose(mt);
            }
        }
    }
    if (t >= 0) H5Tclose(t);
    H5Aclose(a);
    return out;
}

bool rpt_attr_double(hid_t loc, const char *obj, const char *attr, double *v)
{
    hid_t a = attr_open(loc, obj, attr);
    if (a < 0) return false;
    hid_t t = H5Aget_type(a);
    H5T_class_t c = t < 0 ? H5T_NO_CLASS : H5Tget_class(t);
    double x;
    bool ok = (c == H5T_INTEGER || c == H5T_FLOAT) && one_element(a, obj, attr) &&
              H5Aread(a, H5T_NATIVE_DOUBLE, &x) >= 0;
    if (ok) *v = x;
    if (t >= 0) H5Tclose(t);
    H5Aclose(a);
    return ok;
}

/* A count the writer keeps in a uint64: anything else is refused (and a
 * NaN or 1e30 cast to an integer is undefined behaviour). */
static bool attr_u64(hid_t loc, const char *attr, uint64_t *v)
{
    double d;
    if (!rpt_attr_double(loc, ".", attr, &d)) return false;
    if (!(d >= 0 && d < 18446744073709551616.0)) {
        rpt_fail("attribute '%s' of / is %g, not a count", attr, d);
        return false;
    }
    *v = (uint64_t)d;
    return true;
}

/* ---- /stats ---- */

struct visit { hid_t stats; struct rpt_run *r; size_t cap; };

/* A histogram's figures as the writer keeps them (uint64 counts, a
 * finite sum): what bins.c and svg_bars.c may compute with. */
static bool hist_ok(const struct rpt_stat *s)
{
    const double u64 = 18446744073709551616.0;
    bool ok = s->bin_width >= 0 && s->bin_width < u64 && s->count >= 0 && s->count < u64 &&
              s->max >= 0 && s->max < u64 && s->sum >= 0 && s->sum < 1e300;
    for (size_t i = 0; ok && i < s->n; i++) ok = s->v[i] >= 0 && s->v[i] < u64;
    if (!ok) rpt_fail("histogram /stats/%s: a bin, its width, count, max or sum out of range", s->name);
    return ok;
}

static herr_t visit_stat(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
    (void)info;
    struct visit *v = data;
    if (failure[0]) return 1;                     /* stop: the file is refused */
    H5O_info_t oi;
    if (H5Oget_info_by_name(g, name, &oi, H5P_DEFAULT) < 0) return 0;
    if (oi.type != H5O_TYPE_DATASET) return 0;
    if (v->r->nstats >= RPT_MAX_STATS) {
        rpt_fail("more than %d statistics in /stats", RPT_MAX_STATS);
        return 1;
    }
    hid_t d = H5Dopen2(g, name, H5P_DEFAULT);
    if (d < 0) return 0;
    hid_t t = H5Dget_type(d);
    H5T_class_t c = t < 0 ? H5T_NO_CLASS : H5Tget_class(t);
    if (t >= 0) H5Tclose(t);
    char what[300];
    snprintf(what, sizeof what, "/stats/%s", name);
    if ((c != H5T_INTEGER && c != H5T_FLOAT) || !rpt_dataset_fits(d, what, NULL)) {
        H5Dclose(d);
        return 0;                                 /* not a statistic: left out */
    }
    hid_t sp = H5Dget_space(d);
    hssize_t n = H5Sget_simple_extent_npoints(sp);
    H5Sclose(sp);
    struct rpt_stat s = {0};
    s.n = n > 0 ? (size_t)n : 0;
    s.v = xcalloc(s.n ? s.n : 1, sizeof *s.v);
    if (s.n && H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, s.v) < 0)
        s.n = 0;
    H5Dclose(d);
    s.name = xstrdup(name);
    for (char *p = s.name; *p; p++) if (*p == '/') *p = '.';
    s.kind = rpt_attr_str(g, name, "kind");
    s.unit = rpt_attr_str(g, name, "unit");
    s.desc = rpt_attr_str(g, name, "description");
    if (!s.kind) s.kind = xstrdup("");
    if (!s.unit) s.unit = xstrdup("");
    if (!s.desc) s.desc = xstrdup("");
    if (!strcmp(s.kind, "histogram")) {
        rpt_attr_double(g, name, "bin_width", &s.bin_width);
        rpt_attr_double(g, name, "count", &s.count);
        rpt_attr_double(g, name, "max", &s.max);
        rpt_attr_double(g, name, "sum", &s.sum);
        hist_ok(&s);
    }
    if (v->r->nstats == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 64;
        v->r->stats = xrealloc(v->r->stats, v->cap * sizeof *v->r->stats);
    }
    v->r->stats[v->r->nstats++] = s;
    return failure[0] ? 1 : 0;
}

int rpt_run_read(hid_t loc, struct rpt_run *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->loc = loc;
    if (failure[0] || H5Lexists(loc, "stats", H5P_DEFAULT) <= 0 ||
        H5Lexists(loc, "config", H5P_DEFAULT) <= 0) {
        snprintf(err, errlen, "no /stats or /config: not a uvmsim result");
        return -1;
    }
    r->status = rpt_attr_str(loc, ".", "status");
    r->version = rpt_attr_str(loc, ".", "uvmsim_version");
    attr_u64(loc, "seed", &r->seed);
    attr_u64(loc, "sim_time_ps", &r->sim_time_ps);
    attr_u64(loc, "events", &r->events);
    r->yaml = rpt_attr_str(loc, "config", "yaml");
    if (!rpt_attr_double(loc, "config", "gpu.clock", &r->core_hz)) r->core_hz = 0;
    hid_t g = failure[0] ? -1 : H5Gopen2(loc, "stats", H5P_DEFAULT);
    struct visit v = { g, r, 0 };
    /* Name order: the file's own link order is by name too, so the page is
     * deterministic. */
    if (g >= 0) H5Lvisit(g, H5_INDEX_NAME, H5_ITER_INC, visit_stat, &v);
    if (g >= 0) H5Gclose(g);
    if (failure[0]) {
        snprintf(err, errlen, "%s", failure);
        rpt_run_free(r);                 /* callers free only what they got */
        return -1;
    }
    return 0;
}

void rpt_run_free(struct rpt_run *r)
{
    for (size_t i = 0; i < r->nstats; i++) {
        struct rpt_stat *s = &r->stats[i];
        free(s->name); free(s->kind); free(s->unit); free(s->desc); free(s->v);
    }
    free(r->stats);
    free(r->status); free(r->version); free(r->yaml);
    memset(r, 0, sizeof *r);
}

const struct rpt_stat *rpt_stat(const struct rpt_run *r, const char *name)
{
    for (size_t i = 0; i < r->nstats; i++)
        if (!strcmp(r->stats[i].name, name)) return &r->stats[i];
    return NULL;
}

double rpt_value(const struct rpt_run *r, const char *name)
{
    const struct rpt_stat *s = rpt_stat(r, name);
    return s && s->n == 1 ? s->v[0] : NAN;
}

/* ---- tables ---- */

/* The table's file type and rows, or -1 when absent / not a table. */
static hid_t open_table(hid_t loc, const char *table, hid_t *ftype, size_t *n)
{
    if (failure[0] || H5Lexists(loc, table, H5P_DEFAULT) <= 0) return -1;
    hid_t d = H5Dopen2(loc, table, H5P_DEFAULT);
    if (d < 0) return -1;
    *ftype = H5Dget_type(d);
    char what[300];
    snprintf(what, sizeof what, "/%s", table);
    if (*ftype < 0 || H5Tget_class(*ftype) != H5T_COMPOUND || !rpt_dataset_fits(d, what, NULL)) {
        if (*ftype >= 0) H5Tclose(*ftype);
        H5Dclose(d);
        return -1;
    }
    hid_t sp = H5Dget_space(d);
    hssize_t np = H5Sget_simple_extent_npoints(sp);
    H5Sclose(sp);
    *n = np > 0 ? (size_t)np : 0;
    return d;
}

double *rpt_column(hid_t loc, const char *table, const char *field, size_t *n)
{
    hid_t ft;
    hid_t d = open_table(loc, table, &ft, n);
    if (d < 0) return NULL;
    double *out = NULL;
    int idx = H5Tget_member_index(ft, field);
    if (idx >= 0) {
        H5T_class_t c = H5Tget_member_class(ft, (unsigned)idx);
        /* A double per row, whatever the row's own size. */
        if (*n > rpt_max_bytes() / sizeof(double))
            rpt_fail("/%s: %zu rows, more than a result holds here", table, *n);
        else if (c == H5T_INTEGER || c == H5T_FLOAT) {
            /* A memory type with the one field: HDF5 reads just that
             * column and converts it. */
            hid_t mt = H5Tcreate(H5T_COMPOUND, sizeof(double));
            H5Tinsert(mt, field, 0, H5T_NATIVE_DOUBLE);
            out = xcalloc(*n ? *n : 1, sizeof *out);
            if (*n && H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, out) < 0) {
                free(out);
                out = NULL;
            }
            H5Tclose(mt);
        }
    }
    H5Tclose(ft);
    H5Dclose(d);
    return out;
}

char **rpt_str_column(hid_t loc, const char *table, const char *field, size_t *n)
{
    hid_t ft;
    hid_t d = open_table(loc, table, &ft, n);
    if (d < 0) return NULL;
    char **out = NULL;
    int idx = H5Tget_member_index(ft, field);
    hid_t mft = idx >= 0 && H5Tget_member_class(ft, (unsigned)idx) == H5T_STRING
                ? H5Tget_member_type(ft, (unsigned)idx) : -1;
    /* Fixed-length members only (what uvmsim writes): a variable-length
     * one would be read through the global heap (docs/robustness.md). */
    size_t flen = mft >= 0 && H5Tis_variable_str(mft) == 0 ? H5Tget_size(mft) : 0;
    if (flen > RPT_MAX_FIELD_STR) {
        rpt_fail("/%s: field '%s' is a string of %zu bytes", table, field, flen);
        flen = 0;
    }
    if (flen == 0 && mft >= 0) H5Tclose(mft);
    if (flen > 0) {
        size_t len = flen + 1;
        hid_t st = H5Tcopy(H5T_C_S1);
        H5Tset_size(st, len);
        H5Tset_cset(st, H5Tget_cset(mft));
        H5Tclose(mft);
        hid_t mt = H5Tcreate(H5T_COMPOUND, len);
        H5Tinsert(mt, field, 0, st);
        char *buf = xcalloc(*n ? *n : 1, len);
        if (!*n || H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0) {
            out = xcalloc(*n ? *n : 1, sizeof *out);
            for (size_t i = 0; i < *n; i++) {
                buf[i * len + len - 1] = 0;
                out[i] = xstrdup(buf + i * len);
            }
        }
        free(buf);
        H5Tclose(mt);
        H5Tclose(st);
    }
    H5Tclose(ft);
    H5Dclose(d);
    return out;
}

void rpt_str_free(char **s, size_t n)
{
    if (!s) return;
    for (size_t i = 0; i < n; i++) free(s[i]);
    free(s);
}

char **rpt_fields(hid_t loc, const char *table, size_t *n)
{
    hid_t ft;
    size_t rows;
    hid_t d = open_table(loc, table, &ft, &rows);
    if (d < 0) return NULL;
    int m = H5Tget_nmembers(ft);
    *n = m > 0 ? (size_t)m : 0;
    char **out = xcalloc(*n ? *n : 1, sizeof *out);
    for (size_t i = 0; i < *n; i++) {
        char *name = H5Tget_member_name(ft, (unsigned)i);
        out[i] = xstrdup(name ? name : "");
        H5free_memory(name);
    }
    H5Tclose(ft);
    H5Dclose(d);
    return out;
}

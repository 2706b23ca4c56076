/* Reading a result (docs/results.md) back for the report.  Everything is
 * read through HDF5's type conversion into doubles or C strings, so the
 * report does not depend on the exact integer types of a field. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rpt_int.h"

char *rpt_attr_str(hid_t loc, const char *obj, const char *attr)
{
    if (!H5Aexists_by_name(loc, obj, attr, H5P_DEFAULT)) return NULL;
    hid_t a = H5Aopen_by_name(loc, obj, attr, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0) return NULL;
    hid_t t = H5Aget_type(a);
    char *out = NULL;
    if (H5Tget_class(t) == H5T_STRING) {
        if (H5Tis_variable_str(t) > 0) {
            hid_t mt = H5Tcopy(H5T_C_S1);
            H5Tset_size(mt, H5T_VARIABLE);
            H5Tset_cset(mt, H5Tget_cset(t));   /* no conversion across sets */
            char *s = NULL;
            if (H5Aread(a, mt, &s) >= 0 && s) {
                out = xstrdup(s);
                H5free_memory(s);
            }
            H5Tclose(mt);
        } else {
            size_t n = H5Tget_size(t);
            out = xcalloc(n + 1, 1);
            hid_t mt = H5Tcopy(H5T_C_S1);
            H5Tset_size(mt, n + 1);
            H5Tset_cset(mt, H5Tget_cset(t));
            if (H5Aread(a, mt, out) < 0) { free(out); out = NULL; }
            H5Tclose(mt);
        }
    }
    H5Tclose(t);
    H5Aclose(a);
    return out;
}

bool rpt_attr_double(hid_t loc, const char *obj, const char *attr, double *v)
{
    if (!H5Aexists_by_name(loc, obj, attr, H5P_DEFAULT)) return false;
    hid_t a = H5Aopen_by_name(loc, obj, attr, H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0) return false;
    hid_t t = H5Aget_type(a);
    H5T_class_t c = H5Tget_class(t);
    bool ok = (c == H5T_INTEGER || c == H5T_FLOAT) &&
              H5Aread(a, H5T_NATIVE_DOUBLE, v) >= 0;
    H5Tclose(t);
    H5Aclose(a);
    return ok;
}

static bool attr_u64(hid_t loc, const char *attr, uint64_t *v)
{
    double d;
    if (!rpt_attr_double(loc, ".", attr, &d)) return false;
    *v = (uint64_t)d;
    return true;
}

/* ---- /stats ---- */

struct visit { hid_t stats; struct rpt_run *r; size_t cap; };

static herr_t visit_stat(hid_t g, const char *name, const H5L_info_t *info, void *data)
{
    (void)info;
    struct visit *v = data;
    H5O_info_t oi;
    if (H5Oget_info_by_name(g, name, &oi, H5P_DEFAULT) < 0) return 0;
    if (oi.type != H5O_TYPE_DATASET) return 0;
    hid_t d = H5Dopen2(g, name, H5P_DEFAULT);
    if (d < 0) return 0;
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
    for (char *c = s.name; *c; c++) if (*c == '/') *c = '.';
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
    }
    if (v->r->nstats == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 64;
        v->r->stats = xrealloc(v->r->stats, v->cap * sizeof *v->r->stats);
    }
    v->r->stats[v->r->nstats++] = s;
    return 0;
}

int rpt_run_read(hid_t loc, struct rpt_run *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->loc = loc;
    if (H5Lexists(loc, "stats", H5P_DEFAULT) <= 0 ||
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
    hid_t g = H5Gopen2(loc, "stats", H5P_DEFAULT);
    struct visit v = { g, r, 0 };
    /* Name order: the file's own link order is by name too, so the page is
     * deterministic. */
    H5Lvisit(g, H5_INDEX_NAME, H5_ITER_INC, visit_stat, &v);
    H5Gclose(g);
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
    if (H5Lexists(loc, table, H5P_DEFAULT) <= 0) return -1;
    hid_t d = H5Dopen2(loc, table, H5P_DEFAULT);
    if (d < 0) return -1;
    *ftype = H5Dget_type(d);
    if (H5Tget_class(*ftype) != H5T_COMPOUND) {
        H5Tclose(*ftype);
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
        if (c == H5T_INTEGER || c == H5T_FLOAT) {
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
    if (idx >= 0 && H5Tget_member_class(ft, (unsigned)idx) == H5T_STRING) {
        hid_t mft = H5Tget_member_type(ft, (unsigned)idx);
        size_t len = H5Tis_variable_str(mft) > 0 ? 256 : H5Tget_size(mft) + 1;
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

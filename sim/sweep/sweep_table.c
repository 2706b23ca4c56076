/* The flat tables of a merged sweep (docs/results.md, "Sweep files"):
 * /points (one row per merged point: name, axes, run status, every scalar
 * statistic), /axes (every axis value as written) and /missing (planned
 * points without a valid result).  Compound rows like the run's tables;
 * strings fixed-length so that numpy and pandas take them as they are. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "sweep_int.h"
#include "out/h5attr.h"

#define CHUNK_MAX_ROWS 256
#define CHUNK_TARGET_BYTES 65536
#define DEFLATE_LEVEL 4

enum ctype { C_STR, C_U64, C_I64, C_F64, C_U8 };

struct tcol {
    char *name;
    enum ctype type;
    size_t width;           /* bytes (strings: the longest + 1, to 8) */
    size_t off;
    const char *unit;
};

struct table {
    const char *name, *desc;
    struct tcol *cols;
    size_t ncols, row_bytes, nrows;
    unsigned char *rows;
};

static void add_col(struct table *t, const char *name, enum ctype type,
                    const char *unit)
{
    t->cols = xrealloc(t->cols, (t->ncols + 1) * sizeof *t->cols);
    t->cols[t->ncols++] = (struct tcol){xstrdup(name), type,
                                        type == C_U8 ? 1 : 8, 0, unit};
}

static void str_width(struct tcol *c, const char *s)
{
    size_t w = (strlen(s) + 1 + 7) / 8 * 8;
    if (w > c->width) c->width = w;
}

/* Offsets once the widths are known; every field stays 8-byte aligned. */
static void layout(struct table *t)
{
    size_t off = 0;
    for (size_t i = 0; i < t->ncols; i++) {
        t->cols[i].off = off;
        off += (t->cols[i].width + 7) / 8 * 8;
    }
    t->row_bytes = off ? off : 8;
    t->rows = xcalloc(t->nrows ? t->nrows : 1, t->row_bytes);
}

static unsigned char *cell(struct table *t, size_t r, size_t c)
{
    return t->rows + r * t->row_bytes + t->cols[c].off;
}

static void put_str(struct table *t, size_t r, size_t c, const char *s)
{
    size_t n = strlen(s);
    if (n >= t->cols[c].width) n = t->cols[c].width - 1;
    memcpy(cell(t, r, c), s, n);
}

static void put_u64(struct table *t, size_t r, size_t c, uint64_t v)
{
    memcpy(cell(t, r, c), &v, 8);
}

static void put_f64(struct table *t, size_t r, size_t c, double v)
{
    memcpy(cell(t, r, c), &v, 8);
}

static void table_free(struct table *t)
{
    for (size_t i = 0; i < t->ncols; i++) free(t->cols[i].name);
    free(t->cols);
    free(t->rows);
}

static hid_t col_type(const struct tcol *c, bool file)
{
    switch (c->type) {
    case C_U64: return H5Tcopy(file ? H5T_STD_U64LE : H5T_NATIVE_UINT64);
    case C_I64: return H5Tcopy(file ? H5T_STD_I64LE : H5T_NATIVE_INT64);
    case C_F64: return H5Tcopy(file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE);
    case C_U8: return H5Tcopy(file ? H5T_STD_U8LE : H5T_NATIVE_UINT8);
    case C_STR: break;
    }
    hid_t s = H5Tcopy(H5T_C_S1);
    if (s >= 0 && (H5Tset_size(s, c->width) < 0 ||
                   H5Tset_strpad(s, H5T_STR_NULLTERM) < 0)) {
        H5Tclose(s);
        return -1;
    }
    return s;
}

static hid_t row_type(const struct table *t, bool file)
{
    hid_t rt = H5Tcreate(H5T_COMPOUND, t->row_bytes);
    for (size_t i = 0; rt >= 0 && i < t->ncols; i++) {
        hid_t ct = col_type(&t->cols[i], file);
        if (ct < 0 || H5Tinsert(rt, t->cols[i].name, t->cols[i].off, ct) < 0) {
            H5Tclose(rt);
            rt = -1;
        }
        if (ct >= 0) H5Tclose(ct);
    }
    return rt;
}

static hid_t table_dcpl(size_t row_bytes)
{
    hsize_t chunk = CHUNK_TARGET_BYTES / row_bytes;
    if (chunk > CHUNK_MAX_ROWS) chunk = CHUNK_MAX_ROWS;
    if (chunk < 1) chunk = 1;
    hid_t p = H5Pcreate(H5P_DATASET_CREATE);
    if (p < 0 || H5Pset_obj_track_times(p, 0) < 0 ||
        H5Pset_chunk(p, 1, &chunk) < 0 ||
        (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0 &&
         H5Pset_deflate(p, DEFLATE_LEVEL) < 0)) {
        if (p >= 0) H5Pclose(p);
        return -1;
    }
    return p;
}

static int str_attr(hid_t obj, const char *name, const char *val)
{
    hid_t t = sweep_str_of(strlen(val));
    int rc = h5_attr_scalar(obj, name, t, t, val);
    if (t >= 0) H5Tclose(t);
    return rc;
}

static int write_table(hid_t fid, const struct table *t, char *err,
                       size_t errlen)
{
    hsize_t dims = t->nrows, maxdims = H5S_UNLIMITED;
    hid_t ft = row_type(t, true), mt = row_type(t, false);
    hid_t dcpl = table_dcpl(t->row_bytes);
    hid_t sp = H5Screate_simple(1, &dims, &maxdims);
    hid_t d = ft < 0 || mt < 0 || dcpl < 0 || sp < 0 ? -1
            : H5Dcreate2(fid, t->name, ft, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    int rc = d < 0 ? -1 : 0;
    if (!rc && t->nrows &&
        H5Dwrite(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, t->rows) < 0)
        rc = -1;
    if (!rc) rc = str_attr(d, "description", t->desc);
    for (size_t i = 0; !rc && i < t->ncols; i++) {
        size_t n = strlen(t->cols[i].name) + sizeof "unit:";
        char *an = xmalloc(n);
        snprintf(an, n, "unit:%s", t->cols[i].name);
        rc = str_attr(d, an, t->cols[i].unit ? t->cols[i].unit : "");
        free(an);
    }
    if (d >= 0 && H5Dclose(d) < 0) rc = -1;
    if (sp >= 0) H5Sclose(sp);
    if (dcpl >= 0) H5Pclose(dcpl);
    if (mt >= 0) H5Tclose(mt);
    if (ft >= 0) H5Tclose(ft);
    /* HDF5 caps a compound type's description at 64 KiB. */
    if (rc)
        snprintf(err, errlen, "cannot write /%s (%zu columns)", t->name,
                 t->ncols);
    return rc;
}

/* ---- axis values ---- */

static enum ctype axis_ctype(const struct cfg_key *k)
{
    switch (k->type) {
    case CFG_INT: return C_I64;
    case CFG_TIME: case CFG_SIZE: return C_U64;
    case CFG_BOOL: return C_U8;
    case CFG_STRING: case CFG_ENUM: return C_STR;
    default: return C_F64;
    }
}

static const char *axis_unit(const struct cfg_key *k)
{
    switch (k->type) {
    case CFG_TIME: return "ps";
    case CFG_SIZE: return "bytes";
    case CFG_FREQ: return "Hz";
    case CFG_BW: return "bytes/s";
    default: return "";
    }
}

static struct cfg_value parse(const struct cfg_key *k, const char *text)
{
    struct cfg_value v = {0};
    char msg[256];
    /* The plan holds values the schema accepted when it was written. */
    if (!cfg_parse(k, text, &v, msg, sizeof msg))
        sim_panic("sweep", 0, "plan value of '%s' no longer valid: %s",
                  k->path, msg);
    return v;
}

static void put_axis(struct table *t, size_t r, size_t c,
                     const struct cfg_key *k, const char *text)
{
    struct cfg_value v = parse(k, text);
    uint8_t b = v.u != 0;
    switch (t->cols[c].type) {
    case C_STR: put_str(t, r, c, text); break;
    case C_U8: memcpy(cell(t, r, c), &b, 1); break;
    case C_F64: put_f64(t, r, c, v.f); break;
    default: put_u64(t, r, c, v.u); break;
    }
}

int sweep_axis_attr(hid_t obj, const char *name, const struct cfg_key *k,
                    const char *text)
{
    struct cfg_value v = parse(k, text);
    hid_t ft, mt;
    const void *buf = &v.u;
    uint8_t b = v.u != 0;
    int64_t i;
    memcpy(&i, &v.u, sizeof i);
    switch (axis_ctype(k)) {
    case C_STR: ft = mt = sweep_str_of(strlen(text)); buf = text; break;
    case C_I64: ft = H5Tcopy(H5T_STD_I64LE); mt = H5Tcopy(H5T_NATIVE_INT64);
                buf = &i; break;
    case C_U64: ft = H5Tcopy(H5T_STD_U64LE); mt = H5Tcopy(H5T_NATIVE_UINT64);
                break;
    case C_U8: ft = H5Tcopy(H5T_STD_U8LE); mt = H5Tcopy(H5T_NATIVE_UINT8);
               buf = &b; break;
    default: ft = H5Tcopy(H5T_IEEE_F64LE); mt = H5Tcopy(H5T_NATIVE_DOUBLE);
             buf = &v.f; break;
    }
    int rc = h5_attr_scalar(obj, name, ft, mt, buf);
    if (mt >= 0 && mt != ft) H5Tclose(mt);
    if (ft >= 0) H5Tclose(ft);
    return rc;
}

/* ---- the statistics of a merged point ---- */

struct sval { char *name, *unit; bool u64; uint64_t u; double f; };
struct svals { size_t n, cap; struct sval *v; };

static char *attr_text(hid_t obj, const char *name)
{
    char *out = sweep_attr_str(obj, name);
    return out ? out : xstrdup("");
}

struct visit { struct svals *sv; const char *prefix; };

static herr_t visit_stat(hid_t g, const char *name, const H5L_info_t *info,
                         void *op)
{
    (void)info;
    struct visit *vi = op;
    char *full = cfg_join_path(vi->prefix, name);
    hid_t o = H5Oopen(g, name, H5P_DEFAULT);
    int rc = o < 0 ? -1 : 0;
    if (!rc && H5Iget_type(o) == H5I_GROUP) {
        struct visit sub = {vi->sv, full};
        hsize_t idx = 0;
        rc = H5Literate(o, H5_INDEX_NAME, H5_ITER_INC, &idx, visit_stat,
                         &sub) < 0 ? -1 : 0;
    } else if (!rc && H5Iget_type(o) == H5I_DATASET) {
        hid_t sp = H5Dget_space(o), t = H5Dget_type(o);
        if (H5Sget_simple_extent_type(sp) == H5S_SCALAR) {
            struct svals *sv = vi->sv;
            if (sv->n == sv->cap) {
                sv->cap = sv->cap ? 2 * sv->cap : 64;
                sv->v = xrealloc(sv->v, sv->cap * sizeof *sv->v);
            }
            struct sval *s = &sv->v[sv->n++];
            memset(s, 0, sizeof *s);
            s->name = xstrdup(full);
            s->unit = attr_text(o, "unit");
            s->u64 = H5Tget_class(t) == H5T_INTEGER;
            if (H5Dread(o, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                        &s->u) < 0 ||
                H5Dread(o, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT,
                        &s->f) < 0)
                rc = -1;
        }
        H5Tclose(t);
        H5Sclose(sp);
    }
    if (o >= 0) H5Oclose(o);
    free(full);
    return rc;
}

static int cmp_sval(const void *a, const void *b)
{
    return strcmp(((const struct sval *)a)->name, ((const struct sval *)b)->name);
}

static int point_stats(hid_t run, struct svals *sv)
{
    hid_t g = H5Gopen2(run, "stats", H5P_DEFAULT);
    if (g < 0) return -1;
    struct visit v = {sv, ""};
    hsize_t idx = 0;
    int rc = H5Literate(g, H5_INDEX_NAME, H5_ITER_INC, &idx, visit_stat,
                         &v) < 0 ? -1 : 0;
    H5Gclose(g);
    qsort(sv->v, sv->n, sizeof *sv->v, cmp_sval);
    return rc;
}

static void svals_free(struct svals *sv)
{
    for (size_t i = 0; i < sv->n; i++) {
        free(sv->v[i].name);
        free(sv->v[i].unit);
    }
    free(sv->v);
}

/* ---- /points ---- */

struct scol { const char *name, *unit; bool u64; size_t count; };

static int cmp_scol(const void *a, const void *b)
{
    return strcmp(((const struct scol *)a)->name, ((const struct scol *)b)->name);
}

/* The union of the points' statistics, by name; a column stays uint64
 * only when every point has it as an integer. */
static struct scol *stat_columns(struct svals *sv, size_t nm, size_t *n)
{
    size_t total = 0;
    for (size_t p = 0; p < nm; p++) total += sv[p].n;
    struct scol *c = xcalloc(total ? total : 1, sizeof *c);
    size_t k = 0;
    for (size_t p = 0; p < nm; p++)
        for (size_t i = 0; i < sv[p].n; i++)
            c[k++] = (struct scol){sv[p].v[i].name, sv[p].v[i].unit,
                                   sv[p].v[i].u64, 1};
    qsort(c, k, sizeof *c, cmp_scol);
    size_t u = 0;
    for (size_t i = 0; i < k; i++) {
        if (u && !strcmp(c[u - 1].name, c[i].name)) {
            c[u - 1].u64 = c[u - 1].u64 && c[i].u64;
            c[u - 1].count++;
        } else {
            c[u++] = c[i];
        }
    }
    for (size_t i = 0; i < u; i++) c[i].u64 = c[i].u64 && c[i].count == nm;
    *n = u;
    return c;
}

static bool taken(const struct table *t, const char *name)
{
    for (size_t i = 0; i < t->ncols; i++)
        if (!strcmp(t->cols[i].name, name)) return true;
    return false;
}

static uint64_t attr_u64(hid_t obj, const char *name)
{
    uint64_t v = 0;
    hid_t a = H5Aexists(obj, name) > 0 ? H5Aopen(obj, name, H5P_DEFAULT) : -1;
    if (a >= 0) {
        if (H5Aread(a, H5T_NATIVE_UINT64, &v) < 0) v = 0;
        H5Aclose(a);
    }
    return v;
}

static int points_table(hid_t fid, const struct sweep_plan *p,
                        const struct sweep_merged *m, size_t nm,
                        char *err, size_t errlen)
{
    struct svals *sv = xcalloc(nm ? nm : 1, sizeof *sv);
    hid_t *run = xcalloc(nm ? nm : 1, sizeof *run);
    int rc = 0;
    for (size_t i = 0; i < nm && !rc; i++) {
        char path[512];
        snprintf(path, sizeof path, "runs/%s", p->names[m[i].plan_index]);
        run[i] = H5Gopen2(fid, path, H5P_DEFAULT);
        rc = run[i] < 0 || point_stats(run[i], &sv[i]) ? -1 : 0;
    }
    size_t ns = 0;
    struct scol *sc = rc ? NULL : stat_columns(sv, nm, &ns);
    struct table t = {
        .name = "points", .nrows = nm,
        .desc = "one row per merged point: its name, its axis values (base "
                "units), how the run ended, and every scalar statistic",
    };
    add_col(&t, "name", C_STR, "");
    for (size_t a = 0; a < p->naxes; a++)
        add_col(&t, p->keys[a], axis_ctype(p->ck[a]), axis_unit(p->ck[a]));
    add_col(&t, "status", C_STR, "");
    add_col(&t, "sim_time_ps", C_U64, "ps");
    add_col(&t, "events", C_U64, "events");
    size_t first_stat = t.ncols;
    for (size_t i = 0; i < ns; i++) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s%s", taken(&t, sc[i].name) ? "stats." : "",
                 sc[i].name);
        add_col(&t, buf, sc[i].u64 ? C_U64 : C_F64, sc[i].unit);
    }
    char **status = xcalloc(nm ? nm : 1, sizeof *status);
    for (size_t i = 0; !rc && i < nm; i++) {
        status[i] = attr_text(run[i], "status");
        str_width(&t.cols[0], p->names[m[i].plan_index]);
        str_width(&t.cols[1 + p->naxes], status[i]);
        for (size_t a = 0; a < p->naxes; a++)
            if (t.cols[1 + a].type == C_STR)
                str_width(&t.cols[1 + a], p->vals[a][p->vi[m[i].plan_index][a]]);
    }
    layout(&t);
    for (size_t r = 0; !rc && r < nm; r++) {
        size_t pi = m[r].plan_index;
        put_str(&t, r, 0, p->names[pi]);
        for (size_t a = 0; a < p->naxes; a++)
            put_axis(&t, r, 1 + a, p->ck[a], p->vals[a][p->vi[pi][a]]);
        put_str(&t, r, 1 + p->naxes, status[r]);
        put_u64(&t, r, 2 + p->naxes, attr_u64(run[r], "sim_time_ps"));
        put_u64(&t, r, 3 + p->naxes, attr_u64(run[r], "events"));
        for (size_t i = 0; i < ns; i++) {
            struct sval key = {.name = (char *)sc[i].name};
            const struct sval *v = bsearch(&key, sv[r].v, sv[r].n,
                                           sizeof *sv[r].v, cmp_sval);
            size_t c = first_stat + i;
            if (sc[i].u64) put_u64(&t, r, c, v->u);
            else put_f64(&t, r, c, v ? (v->u64 ? (double)v->u : v->f) : NAN);
        }
    }
    if (!rc) rc = write_table(fid, &t, err, errlen);
    else snprintf(err, errlen, "cannot read the merged statistics");
    for (size_t i = 0; i < nm; i++) {
        free(status[i]);
        svals_free(&sv[i]);
        if (run[i] >= 0) H5Gclose(run[i]);
    }
    free(status);
    free(sc);
    free(sv);
    free(run);
    table_free(&t);
    return rc;
}

/* ---- /axes and /missing ---- */

static int axes_table(hid_t fid, const struct sweep_plan *p, char *err,
                      size_t errlen)
{
    struct table t = {
        .name = "axes",
        .desc = "every axis value in sweep order: its text as written and, "
                "for numeric keys, its value in base units",
    };
    add_col(&t, "key", C_STR, "");
    add_col(&t, "position", C_U64, "");
    add_col(&t, "text", C_STR, "");
    add_col(&t, "value", C_F64, "");
    for (size_t a = 0; a < p->naxes; a++) {
        str_width(&t.cols[0], p->keys[a]);
        for (size_t v = 0; v < p->nvals[a]; v++) str_width(&t.cols[2], p->vals[a][v]);
        t.nrows += p->nvals[a];
    }
    layout(&t);
    size_t r = 0;
    for (size_t a = 0; a < p->naxes; a++)
        for (size_t v = 0; v < p->nvals[a]; v++, r++) {
            enum ctype ct = axis_ctype(p->ck[a]);
            struct cfg_value val = parse(p->ck[a], p->vals[a][v]);
            int64_t i;
            memcpy(&i, &val.u, sizeof i);
            double x = ct == C_STR ? NAN : ct == C_F64 ? val.f
                     : ct == C_I64 ? (double)i : (double)val.u;
            put_str(&t, r, 0, p->keys[a]);
            put_u64(&t, r, 1, v);
            put_str(&t, r, 2, p->vals[a][v]);
            put_f64(&t, r, 3, x);
        }
    int rc = write_table(fid, &t, err, errlen);
    table_free(&t);
    return rc;
}

static int missing_table(hid_t fid, const struct sweep_plan *p,
                         const size_t *missing, const enum sweep_state *st,
                         const int *code, size_t n, char *err, size_t errlen)
{
    struct table t = {
        .name = "missing", .nrows = n,
        .desc = "planned points without a valid result: failed (exit code "
                "recorded), not run, or stale (their result is of another "
                "config)",
    };
    add_col(&t, "name", C_STR, "");
    add_col(&t, "state", C_STR, "");
    add_col(&t, "exit_code", C_I64, "");
    for (size_t i = 0; i < n; i++) {
        str_width(&t.cols[0], p->names[missing[i]]);
        str_width(&t.cols[1], sweep_state_name(st[i]));
    }
    layout(&t);
    for (size_t i = 0; i < n; i++) {
        int64_t c = st[i] == PT_FAILED ? code[i] : -1;
        put_str(&t, i, 0, p->names[missing[i]]);
        put_str(&t, i, 1, sweep_state_name(st[i]));
        memcpy(cell(&t, i, 2), &c, 8);
    }
    int rc = write_table(fid, &t, err, errlen);
    table_free(&t);
    return rc;
}

int sweep_write_tables(hid_t fid, const struct sweep_plan *p,
                       const struct sweep_merged *m, size_t nm,
                       const size_t *missing, const enum sweep_state *mstate,
                       const int *mcode, size_t nmissing,
                       char *err, size_t errlen)
{
    if (points_table(fid, p, m, nm, err, errlen) ||
        axes_table(fid, p, err, errlen) ||
        missing_table(fid, p, missing, mstate, mcode, nmissing, err, errlen))
        return -1;
    return 0;
}

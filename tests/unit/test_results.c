/* HDF5 results: a file written from a small registry is read back with the
 * HDF5 API.  The list of paths comes from docs/results.md itself, so the
 * schema document and the writer cannot drift apart. */
#include <check.h>
#include "suite_main.h"
#include <dirent.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hdf5.h>
#include "config/config.h"
#include "out/results.h"
#include "core/stats.h"
#include "sweep/sweep.h"

#define DOC_NAME "docs/results.md"
/* Rows after this heading describe DIR/sweep.h5, not a run file. */
#define SWEEP_HEADING "## Sweep files"

/* ---- fixture: a registry and a config with known values ---- */

static const char *const sets[] = {
    "sim.seed=42", "sim.epoch=5us", "sim.max_events=1000",
};
#define NSETS (sizeof sets / sizeof sets[0])

static const struct rec_field kernel_fields[] = {
    {"id", REC_U64, ""},
    {"name", REC_STR32, ""},
    {"start", REC_U64, "ps"},
    {"ipc", REC_F64, "insts/cycle"},
};
static const struct rec_field batch_fields[] = {
    {"start", REC_U64, "ps"},
    {"faults", REC_U64, "faults"},
};

static void add_kernel(struct rec_table *t, uint64_t id, const char *name,
                       uint64_t start, double ipc)
{
    const void *vals[] = {&id, name, &start, &ipc};
    rec_append(t, vals);
}

/* EXTRA: one more counter, as a policy of one sweep point registers its
 * own statistics (extra.only_here = 7). */
static struct stats *build_stats_extra(bool extra)
{
    struct stats *s = stats_new();
    uint64_t *c = stat_counter(s, "sm.warp_insts", "insts",
                               "warp instructions retired");
    if (extra)
        *stat_counter(s, "extra.only_here", "pages", "a policy's own") = 7;
    uint64_t *v = stat_vector(s, "sm.insts_per_sm", 3, "insts",
                              "warp instructions per SM");
    struct stat_avg *a = stat_average(s, "gmmu.fault_latency", "ps",
                                      "fault latency");
    double *r = stat_real(s, "ipc", "", "instructions per cycle");
    struct stat_hist *h = stat_histogram(s, "gmmu.batch.size", "faults",
                                         "faults per batch", 4, 8);
    struct rec_table *k = stat_table(s, "kernels", "one row per kernel",
                                     kernel_fields, 4);
    stat_table(s, "batches", "one row per fault batch", batch_fields, 2);

    stats_sample(s, 0);
    *c = 100;
    v[0] = 10; v[1] = 20; v[2] = 70;
    stat_avg_add(a, 1000);
    stat_avg_add(a, 3000);
    stats_sample(s, 5000000);
    *c = 250;
    *r = 1.5;
    stat_hist_add(h, 3);
    stat_hist_add(h, 8);
    stat_hist_add(h, 100);
    stats_sample(s, 10000000);
    add_kernel(k, 1, "vecadd", 0, 1.25);
    add_kernel(k, 2, "saxpy", 7000000, 0.5);
    return s;
}

static struct stats *build_stats(void) { return build_stats_extra(false); }

static const struct run_info info = {
    .status = "completed", .seed = 42, .sim_time_ps = 12345678,
    .events = 999, .wall_seconds = 0.5, .peak_rss_bytes = 1 << 20,
    .gpu_cycles_per_second = 2e6, .events_per_second = 3e6,
    .cpu_seconds = 0.25, .warp_insts_per_cpu_second = 4e5,
    .events_per_warp_inst = 12.5, .ns_per_event = 250,
};

struct fixture {
    char dir[64];
    char path[128];
    struct config *cfg;
    struct stats *st;
};

static void fixture_init(struct fixture *f)
{
    snprintf(f->dir, sizeof f->dir, "/tmp/uvmsim_results_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/run.h5", f->dir);
    struct cfg_error err;
    f->cfg = config_load(NULL, sets, NSETS, &err);
    ck_assert_msg(f->cfg != NULL, "config_load: %s", err.msg);
    f->st = build_stats();
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    char p[512];
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        DIR *sub = opendir(p);
        if (sub) {
            closedir(sub);
            remove_tree(p);
        } else {
            remove(p);
        }
    }
    closedir(d);
    rmdir(dir);
}

static void fixture_free(struct fixture *f)
{
    stats_free(f->st);
    config_free(f->cfg);
    remove_tree(f->dir);
}

static void write_ok(const struct fixture *f, const char *path,
                     const struct run_info *ri)
{
    char err[512] = "x";
    int rc = results_write(path, f->cfg, f->st, ri, err, sizeof err);
    ck_assert_msg(rc == 0, "results_write: %s", err);
    ck_assert_str_eq(err, "");
}

static size_t dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static hid_t open_file(const char *path)
{
    hid_t fid = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_msg(fid >= 0, "cannot open %s", path);
    return fid;
}

/* Every handle the test opened must be closed again, like the writer's. */
static void close_file(hid_t fid)
{
    ck_assert_int_eq(H5Fget_obj_count(fid, H5F_OBJ_ALL), 1);
    ck_assert_int_ge(H5Fclose(fid), 0);
}

/* ---- readers ---- */

static hid_t attr_open(hid_t fid, const char *obj, const char *name)
{
    hid_t a = H5Aopen_by_name(fid, obj, name, H5P_DEFAULT, H5P_DEFAULT);
    ck_assert_msg(a >= 0, "no attribute %s@%s", obj, name);
    return a;
}

static void attr_read(hid_t fid, const char *obj, const char *name,
                      hid_t mtype, void *buf)
{
    hid_t a = attr_open(fid, obj, name);
    ck_assert_int_ge(H5Aread(a, mtype, buf), 0);
    H5Aclose(a);
}

static uint64_t attr_u64(hid_t fid, const char *obj, const char *name)
{
    uint64_t v;
    attr_read(fid, obj, name, H5T_NATIVE_UINT64, &v);
    return v;
}

static double attr_f64(hid_t fid, const char *obj, const char *name)
{
    double v;
    attr_read(fid, obj, name, H5T_NATIVE_DOUBLE, &v);
    return v;
}

/* Caller frees.  Fixed-length, sized to the value (issue 38 R5). */
static char *attr_str(hid_t fid, const char *obj, const char *name)
{
    hid_t a = attr_open(fid, obj, name);
    hid_t t = H5Aget_type(a);
    ck_assert(H5Tget_class(t) == H5T_STRING && H5Tis_variable_str(t) == 0);
    size_t n = H5Tget_size(t);
    char *r = calloc(n + 1, 1);
    ck_assert_int_ge(H5Aread(a, t, r), 0);
    ck_assert_uint_eq(strlen(r) + 1, n);    /* no padding, no truncation */
    H5Tclose(t);
    H5Aclose(a);
    return r;
}

static void check_attr_str(hid_t fid, const char *obj, const char *name,
                           const char *want)
{
    char *got = attr_str(fid, obj, name);
    ck_assert_msg(strcmp(got, want) == 0, "%s@%s: '%s' != '%s'", obj, name,
                  got, want);
    free(got);
}

/* Reads a whole dataset as MTYPE into a new buffer; *n gets the points. */
static void *dset_read(hid_t fid, const char *path, hid_t mtype, size_t *n)
{
    hid_t d = H5Dopen2(fid, path, H5P_DEFAULT);
    ck_assert_msg(d >= 0, "no dataset %s", path);
    hid_t sp = H5Dget_space(d);
    hssize_t np = H5Sget_simple_extent_npoints(sp);
    ck_assert_int_ge(np, 0);
    size_t bytes = (size_t)np * H5Tget_size(mtype);
    void *buf = calloc(1, bytes ? bytes : 1);
    if (np) ck_assert_int_ge(H5Dread(d, mtype, H5S_ALL, H5S_ALL,
                                     H5P_DEFAULT, buf), 0);
    H5Sclose(sp);
    H5Dclose(d);
    if (n) *n = (size_t)np;
    return buf;
}

static uint64_t dset_u64(hid_t fid, const char *path)
{
    uint64_t *p = dset_read(fid, path, H5T_NATIVE_UINT64, NULL), v = *p;
    free(p);
    return v;
}

static double dset_f64(hid_t fid, const char *path)
{
    double *p = dset_read(fid, path, H5T_NATIVE_DOUBLE, NULL), v = *p;
    free(p);
    return v;
}

/* ---- the documented paths ---- */

struct doc_row { char path[256], type[32], shape[32]; };

static FILE *open_doc(void)
{
    static const char *const where[] = {
        DOC_NAME, "../" DOC_NAME, "../../" DOC_NAME, "../../../" DOC_NAME,
    };
    const char *root = getenv("UVMSIM_SRC");
    if (root) {
        char p[512];
        snprintf(p, sizeof p, "%s/%s", root, DOC_NAME);
        return fopen(p, "r");
    }
    for (size_t i = 0; i < sizeof where / sizeof where[0]; i++) {
        FILE *fp = fopen(where[i], "r");
        if (fp) return fp;
    }
    return NULL;
}

/* Copies the n-th `quoted` token of line into out; false if absent. */
static bool backtick_token(const char *line, int n, char *out, size_t outsz)
{
    const char *p = line;
    for (int i = 0;; i++) {
        const char *a = strchr(p, '`');
        const char *b = a ? strchr(a + 1, '`') : NULL;
        if (!b) return false;
        if (i == n) {
            size_t len = (size_t)(b - a - 1);
            if (len >= outsz) return false;
            memcpy(out, a + 1, len);
            out[len] = '\0';
            return true;
        }
        p = b + 1;
    }
}

/* Rows of the path tables: "| `PATH` | `TYPE` | `SHAPE` | ...", those of
 * the run file or (SWEEP) those of the merged sweep file. */
static size_t load_doc(struct doc_row *rows, size_t max, bool sweep)
{
    FILE *fp = open_doc();
    ck_assert_msg(fp != NULL, "cannot find " DOC_NAME
                  " (run from the source tree or set UVMSIM_SRC)");
    char line[2048];
    size_t n = 0;
    bool in_sweep = false;
    while (fgets(line, sizeof line, fp)) {
        if (!strncmp(line, SWEEP_HEADING, strlen(SWEEP_HEADING)))
            in_sweep = true;
        if (in_sweep != sweep || strncmp(line, "| `/", 4) != 0) continue;
        ck_assert_uint_lt(n, max);
        struct doc_row *r = &rows[n++];
        ck_assert_msg(backtick_token(line, 0, r->path, sizeof r->path) &&
                      backtick_token(line, 1, r->type, sizeof r->type) &&
                      backtick_token(line, 2, r->shape, sizeof r->shape),
                      "malformed row in " DOC_NAME ": %s", line);
    }
    fclose(fp);
    return n;
}

/* What a placeholder stands for in the fixture.  `table` is the table that
 * an earlier <table> in the same path was replaced with. */
struct subst { const char *val; const struct rec_table *table; };

struct key_pick { enum cfg_type type; const char *path; };
static void pick_key(void *ctx, const struct cfg_value *v)
{
    struct key_pick *k = ctx;
    if (!k->path && v->key->type == k->type) k->path = v->key->path;
}

static const struct { const char *token; enum cfg_type type; } key_tokens[] = {
    {"<int key>", CFG_INT}, {"<float key>", CFG_FLOAT},
    {"<bool key>", CFG_BOOL}, {"<string key>", CFG_STRING},
    {"<enum key>", CFG_ENUM}, {"<freq key>", CFG_FREQ},
    {"<time key>", CFG_TIME}, {"<bw key>", CFG_BW},
    {"<size key>", CFG_SIZE}, {"<fraction key>", CFG_FRACTION},
};

static bool stat_token_matches(const char *token, const struct stat_entry *st)
{
    static const char *const kinds[] = {
        [STAT_COUNTER] = "<counter>", [STAT_VECTOR] = "<vector>",
        [STAT_AVERAGE] = "<average>", [STAT_REAL] = "<real>",
        [STAT_HISTOGRAM] = "<histogram>",
    };
    return !strcmp(token, "<stat>") || !strcmp(token, kinds[st->kind]);
}

static bool field_token_matches(const char *token, const struct rec_field *f)
{
    return !strcmp(token, "<field>") ||
           (!strcmp(token, "<u64 field>") && f->type == REC_U64) ||
           (!strcmp(token, "<f64 field>") && f->type == REC_F64) ||
           (!strcmp(token, "<str32 field>") && f->type == REC_STR32);
}

/* The merged sweep under test (NULL while checking the run file). */
struct sweep_fx {
    char file[256], dir[256], h5[300];
    char columns[64][128];      /* /points columns, read from the file */
    size_t ncolumns;
};
static const struct sweep_fx *sweep_fx;

/* Merged points of the fixture sweep, named by hand from the default
 * template (values joined by '_', seeds as seedN, '%' as pct); the third
 * planned point gets no result. */
static const char *const sweep_names[] = {
    "fifo_seed1_75pct_10ms_false", "lru_seed2_50pct_20ms_true",
    "random_seed3_25pct_30ms_false",
};
static const struct { const char *token, *key; } sweep_axes[] = {
    {"<string axis>", "driver.eviction"}, {"<int axis>", "sim.seed"},
    {"<real axis>", "gpu.memory.fraction"}, {"<u64 axis>", "sim.watchdog"},
    {"<bool axis>", "gpu.l1d.bypass"},
};

static size_t sweep_token_values(const struct fixture *fx, const char *token,
                                 struct subst *out, size_t max)
{
    size_t n = 0;
    const struct stats *s = fx->st;
    if (!strcmp(token, "<name>")) {
        out[n++] = (struct subst){sweep_names[0], NULL};
        out[n++] = (struct subst){sweep_names[1], NULL};
    } else if (!strcmp(token, "<points column>")) {
        for (size_t i = 0; i < sweep_fx->ncolumns && n < max; i++)
            out[n++] = (struct subst){sweep_fx->columns[i], NULL};
    } else if (!strcmp(token, "<u64 stat>") || !strcmp(token, "<f64 stat>")) {
        bool u64 = token[1] == 'u';
        for (size_t i = 0; i < stats_count(s) && n < max; i++) {
            enum stat_kind k = stats_at(s, i)->kind;
            if (u64 ? k == STAT_COUNTER : k == STAT_AVERAGE || k == STAT_REAL)
                out[n++] = (struct subst){stats_at(s, i)->name, NULL};
        }
        if (!u64) out[n++] = (struct subst){"extra.only_here", NULL};
    } else {
        for (size_t i = 0; i < sizeof sweep_axes / sizeof sweep_axes[0]; i++)
            if (!strcmp(token, sweep_axes[i].token))
                out[n++] = (struct subst){sweep_axes[i].key, NULL};
    }
    return n;
}

static size_t token_values(const struct fixture *fx, const char *token,
                           const struct rec_table *table, struct subst *out,
                           size_t max)
{
    size_t n = 0;
    const struct stats *s = fx->st;
    if (sweep_fx && (n = sweep_token_values(fx, token, out, max)) > 0)
        return n;
    for (size_t i = 0; i < sizeof key_tokens / sizeof key_tokens[0]; i++) {
        if (strcmp(token, key_tokens[i].token)) continue;
        struct key_pick k = {key_tokens[i].type, NULL};
        config_foreach(fx->cfg, pick_key, &k);
        if (k.path) out[n++] = (struct subst){k.path, table};
        return n;
    }
    if (!strcmp(token, "<group>")) {
        static const char *const groups[] = {"sm", "gmmu", "gmmu.batch"};
        for (size_t i = 0; i < 3; i++) out[n++] = (struct subst){groups[i], table};
    } else if (!strcmp(token, "<column>")) {
        for (size_t i = 0; i < stats_series_columns(s) && n < max; i++)
            out[n++] = (struct subst){stats_series_name(s, i), table};
    } else if (!strcmp(token, "<table>")) {
        for (size_t i = 0; i < stats_table_count(s) && n < max; i++) {
            const struct rec_table *t = stats_table_at(s, i);
            out[n++] = (struct subst){t->name, t};
        }
    } else if (strstr(token, "field>")) {
        ck_assert_msg(table != NULL, "%s outside a table path", token);
        for (size_t i = 0; i < table->nfields && n < max; i++)
            if (field_token_matches(token, &table->fields[i]))
                out[n++] = (struct subst){table->fields[i].name, table};
    } else {
        ck_assert_msg(!strcmp(token, "<stat>") || !strcmp(token, "<counter>") ||
                      !strcmp(token, "<vector>") || !strcmp(token, "<average>") ||
                      !strcmp(token, "<real>") || !strcmp(token, "<histogram>"),
                      "unknown placeholder %s in " DOC_NAME, token);
        for (size_t i = 0; i < stats_count(s) && n < max; i++)
            if (stat_token_matches(token, stats_at(s, i)))
                out[n++] = (struct subst){stats_at(s, i)->name, table};
    }
    return n;
}

static bool int_type_is(hid_t t, size_t size, H5T_sign_t sign)
{
    return H5Tget_class(t) == H5T_INTEGER && H5Tget_size(t) == size &&
           H5Tget_sign(t) == sign && H5Tget_order(t) == H5T_ORDER_LE;
}

static bool type_is(hid_t t, const char *want)
{
    H5T_class_t cls = H5Tget_class(t);
    size_t size = H5Tget_size(t);
    if (!strcmp(want, "uint64")) return int_type_is(t, 8, H5T_SGN_NONE);
    if (!strcmp(want, "int64")) return int_type_is(t, 8, H5T_SGN_2);
    if (!strcmp(want, "uint8")) return int_type_is(t, 1, H5T_SGN_NONE);
    if (!strcmp(want, "double"))
        return cls == H5T_FLOAT && size == 8 && H5Tget_order(t) == H5T_ORDER_LE;
    if (!strcmp(want, "string"))
        return cls == H5T_STRING && H5Tis_variable_str(t) == 0 &&
               H5Tget_strpad(t) == H5T_STR_NULLTERM && H5Tget_cset(t) == H5T_CSET_UTF8;
    if (!strcmp(want, "string32"))
        return cls == H5T_STRING && H5Tis_variable_str(t) == 0 && size == 32 &&
               H5Tget_strpad(t) == H5T_STR_NULLTERM;
    if (!strcmp(want, "stringN"))
        return cls == H5T_STRING && H5Tis_variable_str(t) == 0 &&
               size % 8 == 0 && size >= 8 &&
               H5Tget_strpad(t) == H5T_STR_NULLTERM;
    if (!strcmp(want, "compound")) return cls == H5T_COMPOUND;
    ck_abort_msg("unknown type '%s' in " DOC_NAME, want);
    return false;
}

static bool shape_is(hid_t sp, hid_t dcpl, const char *want)
{
    if (!strcmp(want, "scalar"))
        return H5Sget_simple_extent_type(sp) == H5S_SCALAR;
    ck_assert_msg(want[0] == '[', "unknown shape '%s' in " DOC_NAME, want);
    if (H5Sget_simple_extent_type(sp) != H5S_SIMPLE ||
        H5Sget_simple_extent_ndims(sp) != 1)
        return false;
    if (strcmp(want, "[rows]")) return true;
    hsize_t dims, maxdims, chunk;
    H5Sget_simple_extent_dims(sp, &dims, &maxdims);
    return maxdims == H5S_UNLIMITED && dcpl >= 0 &&
           H5Pget_layout(dcpl) == H5D_CHUNKED &&
           H5Pget_chunk(dcpl, 1, &chunk) == 1 && chunk >= 1 &&
           chunk <= 256;
}

static void verify_attr(hid_t obj, const char *path, const char *attr,
                        const struct doc_row *r)
{
    ck_assert_msg(H5Aexists(obj, attr) > 0, "missing attribute %s", path);
    hid_t a = H5Aopen(obj, attr, H5P_DEFAULT);
    hid_t t = H5Aget_type(a), sp = H5Aget_space(a);
    ck_assert_msg(type_is(t, r->type), "%s is not %s", path, r->type);
    ck_assert_msg(shape_is(sp, -1, r->shape), "%s is not %s", path, r->shape);
    H5Sclose(sp);
    H5Tclose(t);
    H5Aclose(a);
}

static void verify_field(hid_t obj, const char *path, const char *field,
                         const struct doc_row *r)
{
    ck_assert_int_eq(H5Iget_type(obj), H5I_DATASET);
    hid_t t = H5Dget_type(obj);
    ck_assert_int_eq(H5Tget_class(t), H5T_COMPOUND);
    int i = H5Tget_member_index(t, field);
    ck_assert_msg(i >= 0, "missing field %s", path);
    hid_t mt = H5Tget_member_type(t, (unsigned)i);
    ck_assert_msg(type_is(mt, r->type), "%s is not %s", path, r->type);
    H5Tclose(mt);
    H5Tclose(t);
}

static void verify_object(hid_t obj, const char *path, const struct doc_row *r)
{
    if (!strcmp(r->type, "group")) {
        ck_assert_msg(H5Iget_type(obj) == H5I_GROUP, "%s is not a group", path);
        return;
    }
    ck_assert_msg(H5Iget_type(obj) == H5I_DATASET, "%s is not a dataset", path);
    hid_t t = H5Dget_type(obj), sp = H5Dget_space(obj);
    hid_t dcpl = H5Dget_create_plist(obj);
    ck_assert_msg(type_is(t, r->type), "%s is not %s", path, r->type);
    ck_assert_msg(shape_is(sp, dcpl, r->shape), "%s is not %s", path, r->shape);
    H5Pclose(dcpl);
    H5Sclose(sp);
    H5Tclose(t);
}

/* PATH, PATH@ATTR or PATH{FIELD}; dots in PATH are stat-name dots. */
static void verify_path(hid_t fid, const char *concrete, const struct doc_row *r)
{
    char obj[256], *sel;
    snprintf(obj, sizeof obj, "%s", concrete);
    char kind = 0;
    if ((sel = strpbrk(obj, "@{"))) {
        kind = *sel;
        *sel++ = '\0';
        if (kind == '{') sel[strcspn(sel, "}")] = '\0';
    }
    for (char *p = obj; *p; p++) if (*p == '.') *p = '/';
    hid_t o = H5Oopen(fid, obj, H5P_DEFAULT);
    ck_assert_msg(o >= 0, "missing %s (for %s)", obj, concrete);
    if (kind == '@') verify_attr(o, concrete, sel, r);
    else if (kind == '{') verify_field(o, concrete, sel, r);
    else verify_object(o, concrete, r);
    H5Oclose(o);
}

/* Replaces the first <placeholder> in pat by each of its values in turn. */
static size_t expand_and_verify(const struct fixture *fx, hid_t fid,
                                const char *pat, const struct rec_table *t,
                                const struct doc_row *r)
{
    const char *lt = strchr(pat, '<'), *gt = lt ? strchr(lt, '>') : NULL;
    if (!gt) {
        verify_path(fid, pat, r);
        return 1;
    }
    char token[64];
    size_t tl = (size_t)(gt - lt + 1);
    ck_assert_uint_lt(tl, sizeof token);
    memcpy(token, lt, tl);
    token[tl] = '\0';
    struct subst vals[64];
    size_t nv = token_values(fx, token, t, vals, 64), done = 0;
    for (size_t i = 0; i < nv; i++) {
        char next[512];
        snprintf(next, sizeof next, "%.*s%s%s", (int)(lt - pat), pat,
                 vals[i].val, gt + 1);
        done += expand_and_verify(fx, fid, next, vals[i].table, r);
    }
    return done;
}

/* The docs must keep at least these rows (the writer produces them). */
static const char *const required[] = {
    "/@uvmsim_version", "/@model_revision", "/@status", "/@seed", "/@sim_time_ps", "/@events",
    "/config", "/config@yaml", "/config@<int key>", "/config@<float key>",
    "/config@<bool key>", "/config@<string key>", "/config@<enum key>",
    "/config@<freq key>", "/config@<time key>", "/config@<bw key>",
    "/config@<size key>", "/config@<fraction key>",
    "/stats", "/stats/<group>", "/stats/<stat>@kind", "/stats/<stat>@unit",
    "/stats/<stat>@description", "/stats/<counter>", "/stats/<vector>",
    "/stats/<average>", "/stats/<average>@sum", "/stats/<average>@count",
    "/stats/<real>", "/stats/<histogram>", "/stats/<histogram>@bin_width",
    "/stats/<histogram>@count", "/stats/<histogram>@max",
    "/stats/<histogram>@sum",
    "/timeseries", "/timeseries@description", "/timeseries@unit:<column>",
    "/timeseries{time_ps}", "/timeseries{<counter>}",
    "/timeseries{<average>}", "/timeseries{<real>}",
    "/<table>", "/<table>@description", "/<table>@unit:<field>",
    "/<table>{<u64 field>}", "/<table>{<f64 field>}",
    "/<table>{<str32 field>}",
    "/host", "/host@wall_seconds", "/host@peak_rss_bytes",
    "/host@gpu_cycles_per_second", "/host@events_per_second",
    "/host@cpu_seconds", "/host@warp_insts_per_cpu_second",
    "/host@events_per_warp_inst", "/host@ns_per_event",
};

START_TEST(every_documented_path)
{
    struct fixture fx;
    fixture_init(&fx);
    write_ok(&fx, fx.path, &info);
    static struct doc_row rows[256];
    size_t n = load_doc(rows, 256, false);
    ck_assert_uint_ge(n, sizeof required / sizeof required[0]);
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        bool found = false;
        for (size_t j = 0; j < n && !found; j++)
            found = !strcmp(rows[j].path, required[i]);
        ck_assert_msg(found, "%s does not document %s", DOC_NAME, required[i]);
    }
    hid_t fid = open_file(fx.path);
    for (size_t i = 0; i < n; i++) {
        size_t done = expand_and_verify(&fx, fid, rows[i].path, NULL, &rows[i]);
        /* Only config types without a key in the schema may match nothing. */
        ck_assert_msg(done > 0 || !strncmp(rows[i].path, "/config@<", 9),
                      "%s matched nothing in the test file", rows[i].path);
    }
    close_file(fid);
    fixture_free(&fx);
}
END_TEST

/* ---- values ---- */

START_TEST(root_and_host_values)
{
    struct fixture fx;
    fixture_init(&fx);
    write_ok(&fx, fx.path, &info);
    hid_t fid = open_file(fx.path);
    check_attr_str(fid, "/", "uvmsim_version", UVMSIM_VERSION);
    ck_assert_uint_eq(attr_u64(fid, "/", "model_revision"), UVMSIM_MODEL_REVISION);
    check_attr_str(fid, "/", "status", "completed");
    ck_assert_uint_eq(attr_u64(fid, "/", "seed"), 42);
    ck_assert_uint_eq(attr_u64(fid, "/", "sim_time_ps"), 12345678);
    ck_assert_uint_eq(attr_u64(fid, "/", "events"), 999);
    ck_assert_double_eq(attr_f64(fid, "/host", "wall_seconds"), 0.5);
    ck_assert_uint_eq(attr_u64(fid, "/host", "peak_rss_bytes"), 1 << 20);
    ck_assert_double_eq(attr_f64(fid, "/host", "gpu_cycles_per_second"), 2e6);
    ck_assert_double_eq(attr_f64(fid, "/host", "events_per_second"), 3e6);
    ck_assert_double_eq(attr_f64(fid, "/host", "cpu_seconds"), 0.25);
    ck_assert_double_eq(attr_f64(fid, "/host", "warp_insts_per_cpu_second"), 4e5);
    ck_assert_double_eq(attr_f64(fid, "/host", "events_per_warp_inst"), 12.5);
    ck_assert_double_eq(attr_f64(fid, "/host", "ns_per_event"), 250);
    close_file(fid);
    fixture_free(&fx);
}
END_TEST

struct config_check { hid_t fid; size_t n; };

static void check_key(void *ctx, const struct cfg_value *v)
{
    struct config_check *c = ctx;
    const char *k = v->key->path;
    int64_t i;
    uint8_t b;
    switch (v->key->type) {
    case CFG_INT:
        attr_read(c->fid, "/config", k, H5T_NATIVE_INT64, &i);
        ck_assert_int_eq(i, (int64_t)v->u);
        break;
    case CFG_TIME: case CFG_SIZE:
        ck_assert_uint_eq(attr_u64(c->fid, "/config", k), v->u);
        break;
    case CFG_BOOL:
        attr_read(c->fid, "/config", k, H5T_NATIVE_UINT8, &b);
        ck_assert_uint_eq(b, v->u != 0);
        break;
    case CFG_STRING: case CFG_ENUM:
        check_attr_str(c->fid, "/config", k, v->text ? v->text : "");
        break;
    default:
        ck_assert_double_eq(attr_f64(c->fid, "/config", k), v->f);
    }
    c->n++;
}

START_TEST(config_values)
{
    struct fixture fx;
    fixture_init(&fx);
    write_ok(&fx, fx.path, &info);
    hid_t fid = open_file(fx.path);
    char *yaml = config_to_yaml(fx.cfg);
    check_attr_str(fid, "/config", "yaml", yaml);
    free(yaml);
    struct config_check c = {fid, 0};
    config_foreach(fx.cfg, check_key, &c);
    /* One attribute per key plus the YAML and its hash. */
    H5O_info_t oi;
    ck_assert_int_ge(H5Oget_info_by_name(fid, "/config", &oi, H5P_DEFAULT), 0);
    ck_assert_uint_eq(oi.num_attrs, c.n + 2);
    yaml = config_to_yaml(fx.cfg);
    ck_assert_uint_eq(attr_u64(fid, "/config", "yaml_hash"),
                      results_yaml_hash(yaml));
    free(yaml);
    /* The -s overrides arrive in base units. */
    ck_assert_uint_eq(attr_u64(fid, "/config", "sim.epoch"), 5000000);
    int64_t seed;
    attr_read(fid, "/config", "sim.seed", H5T_NATIVE_INT64, &seed);
    ck_assert_int_eq(seed, 42);
    close_file(fid);
    fixture_free(&fx);
}
END_TEST

START_TEST(stats_values)
{
    struct fixture fx;
    fixture_init(&fx);
    write_ok(&fx, fx.path, &info);
    hid_t fid = open_file(fx.path);
    ck_assert_uint_eq(dset_u64(fid, "/stats/sm/warp_insts"), 250);
    check_attr_str(fid, "/stats/sm/warp_insts", "unit", "insts");
    check_attr_str(fid, "/stats/sm/warp_insts", "description",
                   "warp instructions retired");
    check_attr_str(fid, "/stats/sm/warp_insts", "kind", "counter");

    size_t n;
    uint64_t *v = dset_read(fid, "/stats/sm/insts_per_sm", H5T_NATIVE_UINT64, &n);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(v[0], 10);
    ck_assert_uint_eq(v[1], 20);
    ck_assert_uint_eq(v[2], 70);
    free(v);

    ck_assert_double_eq(dset_f64(fid, "/stats/gmmu/fault_latency"), 2000.0);
    ck_assert_double_eq(attr_f64(fid, "/stats/gmmu/fault_latency", "sum"), 4000.0);
    ck_assert_uint_eq(attr_u64(fid, "/stats/gmmu/fault_latency", "count"), 2);
    check_attr_str(fid, "/stats/gmmu/fault_latency", "unit", "ps");

    ck_assert_double_eq(dset_f64(fid, "/stats/ipc"), 1.5);
    check_attr_str(fid, "/stats/ipc", "unit", "");

    uint64_t *h = dset_read(fid, "/stats/gmmu/batch/size", H5T_NATIVE_UINT64, &n);
    ck_assert_uint_eq(n, 4);
    ck_assert_uint_eq(h[0], 1);  /* 3 */
    ck_assert_uint_eq(h[1], 1);  /* 8 */
    ck_assert_uint_eq(h[2], 0);
    ck_assert_uint_eq(h[3], 1);  /* 100: overflow */
    free(h);
    ck_assert_uint_eq(attr_u64(fid, "/stats/gmmu/batch/size", "bin_width"), 8);
    ck_assert_uint_eq(attr_u64(fid, "/stats/gmmu/batch/size", "count"), 3);
    ck_assert_uint_eq(attr_u64(fid, "/stats/gmmu/batch/size", "max"), 100);
    ck_assert_double_eq(attr_f64(fid, "/stats/gmmu/batch/size", "sum"), 111.0);
    close_file(fid);
    fixture_free(&fx);
}
END_TEST

struct series_row { uint64_t time_ps, insts; double lat, ipc; };

START_TEST(timeseries_values)
{
    struct fixture fx;
    fixture_init(&fx);
    write_ok(&fx, fx.path, &info);
    hid_t fid = open_file(fx.path);
    /* Read by field name into our own layout: proves the names and types. */
    hid_t mt = H5Tcreate(H5T_COMPOUND, sizeof(struct series_row));
    H5Tinsert(mt, "time_ps", offsetof(struct series_row, time_ps), H5T_NATIVE_UINT64);
    H5Tinsert(mt, "sm.warp_insts", offsetof(struct series_row, insts), H5T_NATIVE_UINT64);
    H5Tinsert(mt, "gmmu.fault_latency", offsetof(struct series_row, lat), H5T_NATIVE_DOUBLE);
    H5Tinsert(mt, "ipc", offsetof(struct series_row, ipc), H5T_NATIVE_DOUBLE);
    size_t n;
    struct series_row *r = dset_read(fid, "/timeseries", mt, &n);
    H5Tclose(mt);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(r[0].time_ps, 0);
    ck_assert_uint_eq(r[0].insts, 0);
    ck_assert_double_eq(r[0].lat, 0.0);
    ck_assert_uint_eq(r[1].time_ps, 5000000);
    ck_assert_uint_eq(r[1].insts, 100);
    ck_assert_double_eq(r[1].lat, 2000.0);
    ck_assert_double_eq(r[1].ipc, 0.0);
    ck_assert_uint_eq(r[2].time_ps, 10000000);
    ck_assert_uint_eq(r[2].insts, 250);
    ck_assert_double_eq(r[2].ipc, 1.5);
    free(r);

    hid_t d = H5Dopen2(fid, "/timeseries", H5P_DEFAULT);
    hid_t t = H5Dget_type(d);
    ck_assert_int_eq(H5Tget_nmembers(t), 4);
    char *name = H5Tget_member_name(t, 0);
    ck_assert_str_eq(name, "time_ps");
    H5free_memory(name);
    hid_t dcpl = H5Dget_create_plist(d);
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0)
        ck_assert_int_ge(H5Pget_filter_by_id2(dcpl, H5Z_FILTER_DEFLATE, NULL,
                                              NULL, NULL, 0, NULL, NULL), 0);
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0 && H5Zfilter_avail(H5Z_FILTER_SHUFFLE) > 0)
        ck_assert_int_ge(H5Pget_filter_by_id2(dcpl, H5Z_FILTER_SHUFFLE, NULL,
                                              NULL, NULL, 0, NULL, NULL), 0);
    H5Pclose(dcpl);
    H5Tclose(t);
    H5Dclose(d);
    check_attr_str(fid, "/timeseries", "unit:time_ps", "ps");
    check_attr_str(fid, "/timeseries", "unit:gmmu.fault_latency", "ps");
    close_file(fid);
    fixture_free(&fx);
}
END_TEST

struct kernel_row { uint64_t id; char name[32]; uint64_t start; double ipc; };

START_TEST(table_values)
{
    struct fixture fx;
    fixture_init(&fx);
    write_ok(&fx, fx.path, &info);
    hid_t fid = open_file(fx.path);
    hid_t st = H5Tcopy(H5T_C_S1);
    H5Tset_size(st, 32);
    hid_t mt = H5Tcreate(H5T_COMPOUND, sizeof(struct kernel_row));
    H5Tinsert(mt, "id", offsetof(struct kernel_row, id), H5T_NATIVE_UINT64);
    H5Tinsert(mt, "name", offsetof(struct kernel_row, name), st);
    H5Tinsert(mt, "start", offsetof(struct kernel_row, start), H5T_NATIVE_UINT64);
    H5Tinsert(mt, "ipc", offsetof(struct kernel_row, ipc), H5T_NATIVE_DOUBLE);
    size_t n;
    struct kernel_row *k = dset_read(fid, "/kernels", mt, &n);
    H5Tclose(mt);
    H5Tclose(st);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(k[0].id, 1);
    ck_assert_str_eq(k[0].name, "vecadd");
    ck_assert_uint_eq(k[0].start, 0);
    ck_assert_double_eq(k[0].ipc, 1.25);
    ck_assert_uint_eq(k[1].id, 2);
    ck_assert_str_eq(k[1].name, "saxpy");
    ck_assert_uint_eq(k[1].start, 7000000);
    ck_assert_double_eq(k[1].ipc, 0.5);
    free(k);
    check_attr_str(fid, "/kernels", "description", "one row per kernel");
    check_attr_str(fid, "/kernels", "unit:start", "ps");
    check_attr_str(fid, "/kernels", "unit:ipc", "insts/cycle");
    check_attr_str(fid, "/kernels", "unit:name", "");

    /* A table with no row is still there, with its fields. */
    hid_t d = H5Dopen2(fid, "/batches", H5P_DEFAULT);
    hid_t sp = H5Dget_space(d), t = H5Dget_type(d);
    ck_assert_int_eq(H5Sget_simple_extent_npoints(sp), 0);
    ck_assert_int_eq(H5Tget_nmembers(t), 2);
    ck_assert_int_ge(H5Tget_member_index(t, "faults"), 0);
    H5Tclose(t);
    H5Sclose(sp);
    H5Dclose(d);
    check_attr_str(fid, "/batches", "unit:faults", "faults");
    close_file(fid);
    fixture_free(&fx);
}
END_TEST

START_TEST(empty_registry)
{
    struct fixture fx;
    fixture_init(&fx);
    stats_free(fx.st);
    fx.st = stats_new();
    write_ok(&fx, fx.path, &info);
    hid_t fid = open_file(fx.path);
    hid_t d = H5Dopen2(fid, "/timeseries", H5P_DEFAULT);
    hid_t sp = H5Dget_space(d), t = H5Dget_type(d);
    ck_assert_int_eq(H5Sget_simple_extent_npoints(sp), 0);
    ck_assert_int_eq(H5Tget_nmembers(t), 1);
    H5Tclose(t);
    H5Sclose(sp);
    H5Dclose(d);
    H5G_info_t gi;
    ck_assert_int_ge(H5Gget_info_by_name(fid, "/stats", &gi, H5P_DEFAULT), 0);
    ck_assert_uint_eq(gi.nlinks, 0);
    close_file(fid);
    fixture_free(&fx);
}
END_TEST

START_TEST(zero_length_vector)
{
    struct fixture fx;
    fixture_init(&fx);
    stats_free(fx.st);
    fx.st = stats_new();
    stat_vector(fx.st, "none.per_unit", 0, "", "no units configured");
    write_ok(&fx, fx.path, &info);
    hid_t fid = open_file(fx.path);
    size_t n = 99;
    free(dset_read(fid, "/stats/none/per_unit", H5T_NATIVE_UINT64, &n));
    ck_assert_uint_eq(n, 0);
    close_file(fid);
    fixture_free(&fx);
}
END_TEST

/* Wide rows get short chunks; long tables and big vectors go through. */
START_TEST(large_shapes)
{
    struct fixture fx;
    fixture_init(&fx);
    stats_free(fx.st);
    fx.st = stats_new();
    char name[32];
    uint64_t *c[600];
    for (int i = 0; i < 600; i++) {
        snprintf(name, sizeof name, "wide.c%03d", i);
        c[i] = stat_counter(fx.st, name, "", "");
    }
    uint64_t *v = stat_vector(fx.st, "big.vector", 10000, "", "");
    for (int i = 0; i < 10000; i++) v[i] = (uint64_t)i * 7;
    for (uint64_t r = 0; r < 1000; r++) {
        for (int i = 0; i < 600; i++) *c[i] = r * 600 + (uint64_t)i;
        stats_sample(fx.st, r);
    }
    write_ok(&fx, fx.path, &info);
    hid_t fid = open_file(fx.path);
    size_t n;
    hid_t d = H5Dopen2(fid, "/timeseries", H5P_DEFAULT);
    hid_t dcpl = H5Dget_create_plist(d);
    hsize_t chunk;
    ck_assert_int_eq(H5Pget_chunk(dcpl, 1, &chunk), 1);
    ck_assert_uint_le(chunk * 601 * 8, 65536);
    H5Pclose(dcpl);
    /* Read the last row back as raw cells. */
    hid_t t = H5Dget_type(d);
    hid_t fsp = H5Dget_space(d);
    hsize_t start = 999, count = 1;
    H5Sselect_hyperslab(fsp, H5S_SELECT_SET, &start, NULL, &count, NULL);
    hid_t msp = H5Screate_simple(1, &count, NULL);
    uint64_t last[601];
    ck_assert_int_ge(H5Dread(d, t, msp, fsp, H5P_DEFAULT, last), 0);
    ck_assert_uint_eq(last[0], 999);
    ck_assert_uint_eq(last[1], 999 * 600);
    ck_assert_uint_eq(last[600], 999 * 600 + 599);
    H5Sclose(msp);
    H5Sclose(fsp);
    H5Tclose(t);
    H5Dclose(d);
    uint64_t *big = dset_read(fid, "/stats/big/vector", H5T_NATIVE_UINT64, &n);
    ck_assert_uint_eq(n, 10000);
    ck_assert_uint_eq(big[9999], 9999 * 7);
    free(big);
    close_file(fid);
    fixture_free(&fx);
}
END_TEST

/* ---- failures ---- */

START_TEST(missing_directory_fails_cleanly)
{
    struct fixture fx;
    fixture_init(&fx);
    char path[256], err[512] = "";
    snprintf(path, sizeof path, "%s/missing/run.h5", fx.dir);
    ck_assert_int_eq(results_write(path, fx.cfg, fx.st, &info, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "missing/run.h5") != NULL, "err: %s", err);
    ck_assert_uint_eq(dir_entries(fx.dir), 0);
    fixture_free(&fx);
}
END_TEST

START_TEST(failed_rename_leaves_no_temp)
{
    struct fixture fx;
    fixture_init(&fx);
    /* A non-empty directory at the destination: everything succeeds but the
     * final step (outfile_commit refuses to replace a directory, where the
     * rename itself would fail too). */
    char path[256], inner[300], err[512] = "";
    /* sys/stat.h's struct stat_entry clashes with stats.h: mkdtemp makes dirs. */
    snprintf(path, sizeof path, "%s/takenXXXXXX", fx.dir);
    ck_assert_ptr_nonnull(mkdtemp(path));
    snprintf(inner, sizeof inner, "%s/xXXXXXX", path);
    ck_assert_ptr_nonnull(mkdtemp(inner));
    ck_assert_int_eq(results_write(path, fx.cfg, fx.st, &info, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "is a directory") != NULL, "err: %s", err);
    ck_assert_uint_eq(dir_entries(fx.dir), 1);
    fixture_free(&fx);
}
END_TEST

START_TEST(overwrites_existing_file)
{
    struct fixture fx;
    fixture_init(&fx);
    FILE *fp = fopen(fx.path, "w");
    ck_assert_ptr_nonnull(fp);
    fputs("not hdf5", fp);
    fclose(fp);
    write_ok(&fx, fx.path, &info);
    hid_t fid = open_file(fx.path);
    ck_assert_uint_eq(attr_u64(fid, "/", "seed"), 42);
    close_file(fid);
    ck_assert_uint_eq(dir_entries(fx.dir), 1);
    fixture_free(&fx);
}
END_TEST

/* ---- determinism ---- */

struct dump { unsigned char *buf; size_t len, cap; };

static void dump_add(struct dump *d, const void *p, size_t n)
{
    if (d->len + n > d->cap) {
        d->cap = (d->len + n) * 2;
        d->buf = realloc(d->buf, d->cap);
        ck_assert_ptr_nonnull(d->buf);
    }
    memcpy(d->buf + d->len, p, n);
    d->len += n;
}

/* Appends each dataset's name and raw bytes, in name order. */
static herr_t dump_visit(hid_t g, const char *name, const H5L_info_t *li,
                         void *ctx)
{
    (void)li;
    hid_t o = H5Oopen(g, name, H5P_DEFAULT);
    if (H5Iget_type(o) == H5I_DATASET) {
        hid_t t = H5Dget_type(o), sp = H5Dget_space(o);
        size_t bytes = (size_t)H5Sget_simple_extent_npoints(sp) * H5Tget_size(t);
        unsigned char *buf = calloc(1, bytes + 1);
        if (bytes) ck_assert_int_ge(H5Dread(o, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf), 0);
        dump_add(ctx, name, strlen(name) + 1);
        dump_add(ctx, buf, bytes);
        free(buf);
        H5Sclose(sp);
        H5Tclose(t);
    }
    H5Oclose(o);
    return 0;
}

static struct dump dump_contents(const char *path)
{
    struct dump d = {0};
    hid_t fid = open_file(path);
    hid_t g = H5Gopen2(fid, "/stats", H5P_DEFAULT);
    ck_assert_int_ge(H5Lvisit(g, H5_INDEX_NAME, H5_ITER_INC, dump_visit, &d), 0);
    H5Gclose(g);
    dump_visit(fid, "timeseries", NULL, &d);
    dump_visit(fid, "kernels", NULL, &d);
    close_file(fid);
    return d;
}

static struct dump file_bytes(const char *path)
{
    struct dump d = {0};
    FILE *fp = fopen(path, "rb");
    ck_assert_ptr_nonnull(fp);
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, fp)) > 0;) dump_add(&d, buf, n);
    fclose(fp);
    return d;
}

static bool same(const struct dump *a, const struct dump *b)
{
    return a->len == b->len && memcmp(a->buf, b->buf, a->len) == 0;
}

START_TEST(same_inputs_same_contents)
{
    struct fixture fx;
    fixture_init(&fx);
    char a[256], b[256], c[256];
    snprintf(a, sizeof a, "%s/a.h5", fx.dir);
    snprintf(b, sizeof b, "%s/b.h5", fx.dir);
    snprintf(c, sizeof c, "%s/c.h5", fx.dir);
    write_ok(&fx, a, &info);
    sleep(1);   /* any time stamp left in the file would now differ */
    write_ok(&fx, b, &info);
    struct run_info other = info;
    other.wall_seconds = 99.0;
    other.events_per_second = 1.0;
    write_ok(&fx, c, &other);

    struct dump da = dump_contents(a), db = dump_contents(b), dc = dump_contents(c);
    ck_assert_uint_gt(da.len, 0);
    ck_assert(same(&da, &db));
    ck_assert(same(&da, &dc));
    free(da.buf); free(db.buf); free(dc.buf);

    /* Whole files: identical, and only /host values differ otherwise. */
    struct dump fa = file_bytes(a), fb = file_bytes(b), fc = file_bytes(c);
    ck_assert(same(&fa, &fb));
    ck_assert_uint_eq(fa.len, fc.len);
    size_t diff = 0;
    for (size_t i = 0; i < fa.len; i++) diff += fa.buf[i] != fc.buf[i];
    ck_assert_uint_le(diff, 16);    /* two doubles */
    free(fa.buf); free(fb.buf); free(fc.buf);
    fixture_free(&fx);
}
END_TEST

/* ---- merged sweeps (DIR/sweep.h5) ---- */

/* FNV-1a 64 test vectors from the algorithm's published reference. */
START_TEST(yaml_hash_is_fnv1a_64)
{
    ck_assert_uint_eq(results_yaml_hash(""), 0xcbf29ce484222325ULL);
    ck_assert_uint_eq(results_yaml_hash("a"), 0xaf63dc4c8601ec8cULL);
    ck_assert_uint_eq(results_yaml_hash("foobar"), 0x85944171f73967e8ULL);
}
END_TEST

static const char sweep_file_text[] =
    "set:\n"
    "  sim.epoch: 5us\n"
    "zip:\n"
    "  - driver.eviction: [fifo, lru, random]\n"
    "    sim.seed: [1, 2, 3]\n"
    "    gpu.memory.fraction: [75%, 50%, 25%]\n"
    "    sim.watchdog: [10ms, 20ms, 30ms]\n"
    "    gpu.l1d.bypass: [false, true, false]\n";

/* A three-point sweep whose first two points have results (the second
 * with one more statistic), merged. */
static void sweep_fixture(struct fixture *fx, struct sweep_fx *sf)
{
    fixture_init(fx);
    memset(sf, 0, sizeof *sf);
    snprintf(sf->file, sizeof sf->file, "%s/s.yaml", fx->dir);
    snprintf(sf->dir, sizeof sf->dir, "%s/sw", fx->dir);
    snprintf(sf->h5, sizeof sf->h5, "%s/sweep.h5", sf->dir);
    FILE *fp = fopen(sf->file, "w");
    ck_assert_ptr_nonnull(fp);
    fputs(sweep_file_text, fp);
    fclose(fp);
    struct cfg_error cerr;
    struct sweep *s = sweep_load(sf->file, NULL, 0, &cerr);
    ck_assert_msg(s != NULL, "sweep_load: %s", cerr.msg);
    ck_assert_uint_eq(s->npoints, 3);
    for (size_t i = 0; i < 3; i++) ck_assert_str_eq(s->points[i].name, sweep_names[i]);
    char err[1024];
    struct sweep_dir *d = sweep_dir_open(sf->dir, true, true, err, sizeof err);
    ck_assert_msg(d != NULL, "%s", err);
    ck_assert_msg(sweep_dir_write_plan(d, s, err, sizeof err) == 0, "%s", err);
    for (size_t i = 0; i < 2; i++) {
        char cp[512], rp[512];
        snprintf(cp, sizeof cp, "%s/configs/%s.yaml", sf->dir, sweep_names[i]);
        snprintf(rp, sizeof rp, "%s/points/%s.h5", sf->dir, sweep_names[i]);
        /* The point's config as `uvmsim run` loads it: its hash must be
         * the plan's for the merge to take the result. */
        struct config *c = config_load(cp, NULL, 0, &cerr);
        ck_assert_msg(c != NULL, "%s", cerr.msg);
        struct stats *st = build_stats_extra(i == 1);
        ck_assert_int_eq(results_write(rp, c, st, &info, err, sizeof err), 0);
        stats_free(st);
        config_free(c);
    }
    FILE *null = fopen("/dev/null", "w");
    ck_assert_int_eq(sweep_merge(d, null, err, sizeof err), SWEEP_EXIT_INCOMPLETE);
    fclose(null);
    sweep_dir_close(d);
    sweep_free(s);

    hid_t fid = open_file(sf->h5);
    hid_t dd = H5Dopen2(fid, "/points", H5P_DEFAULT), t = H5Dget_type(dd);
    int nm = H5Tget_nmembers(t);
    ck_assert_int_le(nm, 64);
    for (int i = 0; i < nm; i++) {
        char *name = H5Tget_member_name(t, (unsigned)i);
        snprintf(sf->columns[sf->ncolumns++], sizeof sf->columns[0], "%s", name);
        H5free_memory(name);
    }
    H5Tclose(t);
    H5Dclose(dd);
    close_file(fid);
}

START_TEST(every_documented_sweep_path)
{
    struct fixture fx;
    struct sweep_fx sf;
    sweep_fixture(&fx, &sf);
    static struct doc_row rows[256];
    size_t n = load_doc(rows, 256, true);
    static const char *const required[] = {
        "/@points_planned", "/@points_merged", "/@axes", "/points",
        "/points{name}", "/points{<string axis>}", "/points{<real axis>}",
        "/points{<u64 stat>}", "/points{<f64 stat>}", "/axes", "/axes{text}",
        "/missing", "/missing{exit_code}", "/runs/<name>",
        "/runs/<name>@<string axis>", "/runs/<name>/timeseries",
        "/host/<name>", "/host/<name>@wall_seconds",
    };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
        bool found = false;
        for (size_t j = 0; j < n && !found; j++)
            found = !strcmp(rows[j].path, required[i]);
        ck_assert_msg(found, "%s (sweep files) does not document %s",
                      DOC_NAME, required[i]);
    }
    sweep_fx = &sf;
    hid_t fid = open_file(sf.h5);
    for (size_t i = 0; i < n; i++)
        ck_assert_msg(expand_and_verify(&fx, fid, rows[i].path, NULL, &rows[i]) > 0,
                      "%s matched nothing in the merged file", rows[i].path);
    close_file(fid);
    sweep_fx = NULL;
    fixture_free(&fx);
}
END_TEST

struct point_row {
    char name[40], eviction[8];
    int64_t seed;
    double fraction;
    uint64_t watchdog;
    uint8_t bypass;
    uint64_t insts;
    double extra, ipc;
};

static hid_t point_row_type(void)
{
    hid_t s40 = H5Tcopy(H5T_C_S1), s8 = H5Tcopy(H5T_C_S1);
    H5Tset_size(s40, 40);
    H5Tset_size(s8, 8);
    hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(struct point_row));
    H5Tinsert(t, "name", offsetof(struct point_row, name), s40);
    H5Tinsert(t, "driver.eviction", offsetof(struct point_row, eviction), s8);
    H5Tinsert(t, "sim.seed", offsetof(struct point_row, seed), H5T_NATIVE_INT64);
    H5Tinsert(t, "gpu.memory.fraction", offsetof(struct point_row, fraction),
              H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "sim.watchdog", offsetof(struct point_row, watchdog),
              H5T_NATIVE_UINT64);
    H5Tinsert(t, "gpu.l1d.bypass", offsetof(struct point_row, bypass),
              H5T_NATIVE_UINT8);
    H5Tinsert(t, "sm.warp_insts", offsetof(struct point_row, insts),
              H5T_NATIVE_UINT64);
    H5Tinsert(t, "extra.only_here", offsetof(struct point_row, extra),
              H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "ipc", offsetof(struct point_row, ipc), H5T_NATIVE_DOUBLE);
    H5Tclose(s40);
    H5Tclose(s8);
    return t;
}

struct missing_row { char name[40], state[16]; int64_t code; };
struct axis_row { char key[32]; uint64_t pos; char text[16]; double value; };

START_TEST(sweep_values)
{
    struct fixture fx;
    struct sweep_fx sf;
    sweep_fixture(&fx, &sf);
    hid_t fid = open_file(sf.h5);
    ck_assert_uint_eq(attr_u64(fid, "/", "points_planned"), 3);
    ck_assert_uint_eq(attr_u64(fid, "/", "points_merged"), 2);

    /* /points: the values as written, in base units (75% = 0.75,
     * 10ms = 1e10 ps), and the fixture's statistics. */
    hid_t mt = point_row_type();
    size_t n;
    struct point_row *r = dset_read(fid, "/points", mt, &n);
    H5Tclose(mt);
    ck_assert_uint_eq(n, 2);
    ck_assert_str_eq(r[0].name, sweep_names[0]);
    ck_assert_str_eq(r[1].name, sweep_names[1]);
    ck_assert_str_eq(r[0].eviction, "fifo");
    ck_assert_str_eq(r[1].eviction, "lru");
    ck_assert_int_eq(r[0].seed, 1);
    ck_assert_int_eq(r[1].seed, 2);
    ck_assert_double_eq(r[0].fraction, 0.75);
    ck_assert_double_eq(r[1].fraction, 0.5);
    ck_assert_uint_eq(r[0].watchdog, 10000000000ULL);
    ck_assert_uint_eq(r[1].watchdog, 20000000000ULL);
    ck_assert_uint_eq(r[0].bypass, 0);
    ck_assert_uint_eq(r[1].bypass, 1);
    ck_assert_uint_eq(r[0].insts, 250);
    ck_assert_uint_eq(r[1].insts, 250);
    ck_assert(isnan(r[0].extra));           /* the first point lacks it */
    ck_assert_double_eq(r[1].extra, 7.0);
    ck_assert_double_eq(r[0].ipc, 1.5);
    free(r);

    /* /missing: the third point, never run. */
    hid_t s40 = H5Tcopy(H5T_C_S1), s16 = H5Tcopy(H5T_C_S1);
    H5Tset_size(s40, 40);
    H5Tset_size(s16, 16);
    mt = H5Tcreate(H5T_COMPOUND, sizeof(struct missing_row));
    H5Tinsert(mt, "name", offsetof(struct missing_row, name), s40);
    H5Tinsert(mt, "state", offsetof(struct missing_row, state), s16);
    H5Tinsert(mt, "exit_code", offsetof(struct missing_row, code), H5T_NATIVE_INT64);
    struct missing_row *m = dset_read(fid, "/missing", mt, &n);
    H5Tclose(mt);
    ck_assert_uint_eq(n, 1);
    ck_assert_str_eq(m[0].name, sweep_names[2]);
    ck_assert_str_eq(m[0].state, "not run");
    ck_assert_int_eq(m[0].code, -1);
    free(m);

    /* /axes: 5 axes x 3 values, in the order written. */
    hid_t s32 = H5Tcopy(H5T_C_S1);
    H5Tset_size(s32, 32);
    mt = H5Tcreate(H5T_COMPOUND, sizeof(struct axis_row));
    H5Tinsert(mt, "key", offsetof(struct axis_row, key), s32);
    H5Tinsert(mt, "position", offsetof(struct axis_row, pos), H5T_NATIVE_UINT64);
    H5Tinsert(mt, "text", offsetof(struct axis_row, text), s16);
    H5Tinsert(mt, "value", offsetof(struct axis_row, value), H5T_NATIVE_DOUBLE);
    struct axis_row *a = dset_read(fid, "/axes", mt, &n);
    H5Tclose(mt);
    ck_assert_uint_eq(n, 15);
    ck_assert_str_eq(a[0].key, "driver.eviction");
    ck_assert_str_eq(a[2].text, "random");
    ck_assert(isnan(a[2].value));
    ck_assert_str_eq(a[8].key, "gpu.memory.fraction");
    ck_assert_uint_eq(a[8].pos, 2);
    ck_assert_str_eq(a[8].text, "25%");
    ck_assert_double_eq(a[8].value, 0.25);
    free(a);
    H5Tclose(s40);
    H5Tclose(s32);
    H5Tclose(s16);

    /* The run, copied, with its axis values; its host figures apart. */
    char g[128];
    snprintf(g, sizeof g, "/runs/%s", sweep_names[1]);
    ck_assert_double_eq(attr_f64(fid, g, "gpu.memory.fraction"), 0.5);
    check_attr_str(fid, g, "driver.eviction", "lru");
    check_attr_str(fid, g, "status", "completed");
    snprintf(g, sizeof g, "/runs/%s/stats/extra/only_here", sweep_names[1]);
    ck_assert_uint_eq(dset_u64(fid, g), 7);
    snprintf(g, sizeof g, "/host/%s", sweep_names[0]);
    ck_assert_double_eq(attr_f64(fid, g, "wall_seconds"), 0.5);
    snprintf(g, sizeof g, "/runs/%s/host", sweep_names[0]);
    ck_assert_int_eq(H5Lexists(fid, g, H5P_DEFAULT), 0);
    close_file(fid);

    /* Merging again gives the same bytes: no time stamps anywhere. */
    struct dump before = file_bytes(sf.h5);
    char err[1024];
    struct sweep_dir *d = sweep_dir_open(sf.dir, false, true, err, sizeof err);
    ck_assert_msg(d != NULL, "%s", err);
    FILE *null = fopen("/dev/null", "w");
    sleep(1);
    ck_assert_int_eq(sweep_merge(d, null, err, sizeof err), SWEEP_EXIT_INCOMPLETE);
    fclose(null);
    sweep_dir_close(d);
    struct dump after = file_bytes(sf.h5);
    ck_assert(same(&before, &after));
    free(before.buf);
    free(after.buf);
    fixture_free(&fx);
}
END_TEST

static Suite *results_suite(void)
{
    Suite *su = suite_create("results");
    TCase *tc = tcase_create("hdf5");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, every_documented_path);
    tcase_add_test(tc, root_and_host_values);
    tcase_add_test(tc, config_values);
    tcase_add_test(tc, stats_values);
    tcase_add_test(tc, timeseries_values);
    tcase_add_test(tc, table_values);
    tcase_add_test(tc, empty_registry);
    tcase_add_test(tc, zero_length_vector);
    tcase_add_test(tc, large_shapes);
    tcase_add_test(tc, missing_directory_fails_cleanly);
    tcase_add_test(tc, failed_rename_leaves_no_temp);
    tcase_add_test(tc, overwrites_existing_file);
    tcase_add_test(tc, same_inputs_same_contents);
    tcase_add_test(tc, yaml_hash_is_fnv1a_64);
    tcase_add_test(tc, every_documented_sweep_path);
    tcase_add_test(tc, sweep_values);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    return run_suite(results_suite());
}

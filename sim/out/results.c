/* HDF5 result files (layout: docs/results.md).
 *
 * Every object is created without time stamps and with fixed format bounds,
 * so two runs with the same statistics give the same bytes except the /host
 * figures.  All errors come back through `err`; HDF5's own stack printing is
 * switched off while we write and its innermost message is appended. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hdf5.h>
#include "config/config.h"
#include "h5attr.h"
#include "outfile.h"
#include "results.h"
#include "core/stats.h"

/* Small datasets live in their object header (no separate allocation). */
#define COMPACT_MAX_BYTES 4096
#define CHUNK_MAX_ROWS 256
#define CHUNK_TARGET_BYTES 65536
/* Rows reach HDF5 16 chunks per H5Dwrite: each write looks up the
 * conversion path by comparing the compound types field by field (strcmp
 * of every name), a fixed cost that was a sixth of a long, fault-bound
 * run's host time (issue 13).  At most 1 MiB of rows per dataset. */
#define WRITE_CHUNKS 16
/* Byte shuffle then deflate level 1: the time series' 8-byte counters
 * compress better shuffled, and level 1 costs a third of level 4's CPU
 * (issue 13: compressing the per-epoch rows made host time grow with
 * simulated time; a 16 MiB stream at 200 us faults: file 1.54 -> 1.20 MB,
 * instructions 3.17 G -> 2.70 G). */
#define DEFLATE_LEVEL 1
/* Metadata cache bound.  Appends touch only the right edge of each
 * growing dataset's chunk index (a v1 B-tree path per dataset, a few KiB),
 * so 256 KiB holds them all.  Nodes take about 4x their counted size in
 * memory: at 2 MiB the process grew by ~8 MiB over 2.4 M rows before it
 * levelled off; at 256 KiB it stays flat (docs/performance.md). */
#define MDC_MAX_BYTES (256u << 10)

struct writer {
    hid_t fid;
    hid_t gcpl;          /* groups */
    hid_t dcpl_compact;  /* small fixed-size datasets */
    hid_t dcpl_contig;   /* larger fixed-size datasets */
    hid_t str;           /* fixed-length UTF-8 string (attr_str sizes a copy) */
    bool deflate, shuffle;
    unsigned writes;     /* rowset writes, for the periodic free-list collection */
    char *err;
    size_t errlen;
    bool failed;
};

/* ---- errors ---- */

static herr_t innermost_cb(unsigned n, const H5E_error2_t *e, void *data)
{
    if (n == 0 && e->desc)
        snprintf(data, 256, "%s", e->desc);
    return 0;
}

/* Records the first failure only: later ones are usually its consequences. */
static int fail(struct writer *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int fail(struct writer *w, const char *fmt, ...)
{
    if (w->failed) return -1;
    w->failed = true;
    if (!w->err || !w->errlen) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, w->errlen, fmt, ap);
    va_end(ap);
    char detail[256] = "";
    H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, innermost_cb, detail);
    H5Eclear2(H5E_DEFAULT);
    size_t len = strlen(w->err);
    if (detail[0] && len < w->errlen)
        snprintf(w->err + len, w->errlen - len, " (HDF5: %s)", detail);
    return -1;
}

/* ---- attributes ---- */

static int attr_write(struct writer *w, hid_t obj, const char *name,
                      hid_t ftype, hid_t mtype, const void *buf)
{
    return h5_attr_scalar(obj, name, ftype, mtype, buf) < 0
               ? fail(w, "cannot write attribute '%s'", name) : 0;
}

static int attr_str(struct writer *w, hid_t obj, const char *name,
                    const char *val)
{
    const char *v = val ? val : "";
    /* Fixed-length, sized to the value (issue 38 R5): no reader goes
     * through the global heap, which libhdf5 1.10 reads unchecked, so a
     * damaged file cannot crash it there. */
    hid_t t = H5Tcopy(w->str);
    if (t < 0 || H5Tset_size(t, strlen(v) + 1) < 0) {
        if (t >= 0) H5Tclose(t);
        return fail(w, "cannot write attribute '%s'", name);
    }
    int rc = attr_write(w, obj, name, t, t, v);
    H5Tclose(t);
    return rc;
}

static int attr_u64(struct writer *w, hid_t obj, const char *name,
                    uint64_t val)
{
    return attr_write(w, obj, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &val);
}

static int attr_i64(struct writer *w, hid_t obj, const char *name,
                    int64_t val)
{
    return attr_write(w, obj, name, H5T_STD_I64LE, H5T_NATIVE_INT64, &val);
}

static int attr_u8(struct writer *w, hid_t obj, const char *name,
                   uint8_t val)
{
    return attr_write(w, obj, name, H5T_STD_U8LE, H5T_NATIVE_UINT8, &val);
}

static int attr_f64(struct writer *w, hid_t obj, const char *name,
                    double val)
{
    return attr_write(w, obj, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &val);
}

/* ---- groups ---- */

static hid_t group_create(struct writer *w, hid_t loc, const char *name)
{
    hid_t g = H5Gcreate2(loc, name, H5P_DEFAULT, w->gcpl, H5P_DEFAULT);
    if (g < 0) fail(w, "cannot create group '%s'", name);
    return g;
}

static int group_close(struct writer *w, hid_t g)
{
    return H5Gclose(g) < 0 ? fail(w, "cannot close a group") : 0;
}

/* ---- root and /host ---- */

static int write_root(struct writer *w, const struct run_info *info)
{
    int rc = 0;
    rc |= attr_str(w, w->fid, "uvmsim_version", UVMSIM_VERSION);
    rc |= attr_u64(w, w->fid, "model_revision", UVMSIM_MODEL_REVISION);
    rc |= attr_str(w, w->fid, "status", info->status);
    rc |= attr_u64(w, w->fid, "seed", info->seed);
    rc |= attr_u64(w, w->fid, "sim_time_ps", info->sim_time_ps);
    rc |= attr_u64(w, w->fid, "events", info->events);
    return rc ? -1 : 0;
}

static int write_host(struct writer *w, const struct run_info *info)
{
    hid_t g = group_create(w, w->fid, "host");
    if (g < 0) return -1;
    int rc = 0;
    rc |= attr_f64(w, g, "wall_seconds", info->wall_seconds);
    rc |= attr_u64(w, g, "peak_rss_bytes", info->peak_rss_bytes);
    rc |= attr_f64(w, g, "gpu_cycles_per_second", info->gpu_cycles_per_second);
    rc |= attr_f64(w, g, "events_per_second", info->events_per_second);
    rc |= attr_f64(w, g, "cpu_seconds", info->cpu_seconds);
    rc |= attr_f64(w, g, "warp_insts_per_cpu_second", info->warp_insts_per_cpu_second);
    rc |= attr_f64(w, g, "events_per_warp_inst", info->events_per_warp_inst);
    rc |= attr_f64(w, g, "ns_per_event", info->ns_per_event);
    rc |= group_close(w, g);
    return rc ? -1 : 0;
}

/* ---- /config ---- */

struct config_ctx { struct writer *w; hid_t g; int rc; };

static int config_attr(struct writer *w, hid_t g, const struct cfg_value *v)
{
    const char *name = v->key->path;
    int64_t i;
    switch (v->key->type) {
    case CFG_INT:
        memcpy(&i, &v->u, sizeof i);
        return attr_i64(w, g, name, i);
    case CFG_TIME: case CFG_SIZE:
        return attr_u64(w, g, name, v->u);
    case CFG_FLOAT: case CFG_FRACTION: case CFG_BW: case CFG_FREQ:
        return attr_f64(w, g, name, v->f);
    case CFG_BOOL:
        return attr_u8(w, g, name, v->u != 0);
    case CFG_STRING: case CFG_ENUM:
        return attr_str(w, g, name, v->text);
    }
    return fail(w, "config key '%s' has an unknown type", name);
}

static void config_visit(void *ctx, const struct cfg_value *v)
{
    struct config_ctx *c = ctx;
    if (!c->rc) c->rc = config_attr(c->w, c->g, v);
}

/* FNV-1a, 64-bit (Fowler, Noll, Vo; offset basis and prime from the
 * published parameters): cheap, stable, and enough to tell two configs of
 * one sweep apart. */
uint64_t results_yaml_hash(const char *yaml)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const unsigned char *p = (const unsigned char *)yaml; *p; p++) {
        h ^= *p;
        h *= 0x100000001b3ULL;
    }
    return h;
}

static int write_config(struct writer *w, const struct config *cfg)
{
    hid_t g = group_create(w, w->fid, "config");
    if (g < 0) return -1;
    char *yaml = config_to_yaml(cfg);
    int rc = yaml ? attr_str(w, g, "yaml", yaml)
                  : fail(w, "cannot render the config as YAML");
    if (!rc) rc = attr_u64(w, g, "yaml_hash", results_yaml_hash(yaml));
    free(yaml);
    struct config_ctx c = {w, g, rc};
    if (!rc) config_foreach(cfg, config_visit, &c);
    rc = c.rc | group_close(w, g);
    return rc ? -1 : 0;
}

/* ---- /stats ---- */

/* Opens (creating as needed) the group holding stat `name` under `stats`
 * and points *leaf at the last component inside `buf` (a copy of name). */
static hid_t stat_parent(struct writer *w, hid_t stats, char *buf,
                         const char **leaf)
{
    hid_t g = H5Gopen2(stats, ".", H5P_DEFAULT);
    char *comp = buf;
    for (char *dot; g >= 0 && (dot = strchr(comp, '.')); comp = dot + 1) {
        *dot = '\0';
        htri_t ex = H5Lexists(g, comp, H5P_DEFAULT);
        hid_t next = ex > 0 ? H5Gopen2(g, comp, H5P_DEFAULT)
                   : ex == 0 ? group_create(w, g, comp) : -1;
        if (next < 0)
            fail(w, "cannot open or create stat group '%s' (is a stat both "
                 "a leaf and a prefix of another?)", buf);
        H5Gclose(g);
        g = next;
        *dot = '.';
    }
    *leaf = comp;
    return g;
}

/* A fixed-size dataset: scalar, or 1-D [n]. */
static hid_t small_dataset(struct writer *w, hid_t loc, const char *name,
                           hid_t ftype, bool scalar, hsize_t n)
{
    hid_t sp = scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, NULL);
    size_t bytes = (scalar ? 1 : (size_t)n) * H5Tget_size(ftype);
    hid_t dcpl = bytes > 0 && bytes <= COMPACT_MAX_BYTES ? w->dcpl_compact
                                                         : w->dcpl_contig;
    hid_t d = sp < 0 ? -1 : H5Dcreate2(loc, name, ftype, sp, H5P_DEFAULT,
                                       dcpl, H5P_DEFAULT);
    if (sp >= 0) H5Sclose(sp);
    if (d < 0) fail(w, "cannot create dataset '%s'", name);
    return d;
}

static const char *kind_name(enum stat_kind k)
{
    switch (k) {
    case STAT_COUNTER: return "counter";
    case STAT_VECTOR: return "vector";
    case STAT_AVERAGE: return "average";
    case STAT_REAL: return "real";
    case STAT_HISTOGRAM: return "histogram";
    }
    return "unknown";
}

static hid_t stat_dataset(struct writer *w, hid_t loc, const char *leaf,
                          const struct stat_entry *st)
{
    bool u64 = st->kind == STAT_COUNTER || st->kind == STAT_VECTOR ||
               st->kind == STAT_HISTOGRAM;
    hid_t ftype = u64 ? H5T_STD_U64LE : H5T_IEEE_F64LE;
    hid_t mtype = u64 ? H5T_NATIVE_UINT64 : H5T_NATIVE_DOUBLE;
    bool scalar = st->kind != STAT_VECTOR && st->kind != STAT_HISTOGRAM;
    hsize_t n = st->kind == STAT_VECTOR ? st->n
              : st->kind == STAT_HISTOGRAM ? st->p.hist->nbins : 1;
    double mean = 0;
    const void *buf = NULL;
    switch (st->kind) {
    case STAT_COUNTER: case STAT_VECTOR: buf = st->p.u; break;
    case STAT_AVERAGE: mean = stat_avg_value(st->p.avg); buf = &mean; break;
    case STAT_REAL: buf = st->p.real; break;
    case STAT_HISTOGRAM: buf = st->p.hist->bins; break;
    }
    hid_t d = small_dataset(w, loc, leaf, ftype, scalar, n);
    if (d >= 0 && (scalar || n > 0) &&
        H5Dwrite(d, mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
        fail(w, "cannot write stat '%s'", st->name);
        H5Dclose(d);
        return -1;
    }
    return d;
}

static int stat_attrs(struct writer *w, hid_t d, const struct stat_entry *st)
{
    int rc = 0;
    rc |= attr_str(w, d, "kind", kind_name(st->kind));
    rc |= attr_str(w, d, "unit", st->unit);
    rc |= attr_str(w, d, "description", st->desc);
    if (st->kind == STAT_AVERAGE) {
        rc |= attr_f64(w, d, "sum", st->p.avg->sum);
        rc |= attr_u64(w, d, "count", st->p.avg->count);
    } else if (st->kind == STAT_HISTOGRAM) {
        const struct stat_hist *h = st->p.hist;
        rc |= attr_u64(w, d, "bin_width", h->bin_width);
        rc |= attr_u64(w, d, "count", h->count);
        rc |= attr_u64(w, d, "max", h->max);
        rc |= attr_f64(w, d, "sum", h->sum);
    }
    return rc ? -1 : 0;
}

static int write_stat(struct writer *w, hid_t stats, const struct stat_entry *st)
{
    char *buf = xstrdup(st->name);
    const char *leaf;
    hid_t g = stat_parent(w, stats, buf, &leaf);
    int rc = g < 0 ? -1 : 0;
    if (!rc && H5Lexists(g, leaf, H5P_DEFAULT) != 0)
        rc = fail(w, "stat '%s' is both a leaf and a prefix of another stat "
                  "(or a duplicate)", st->name);
    hid_t d = rc ? -1 : stat_dataset(w, g, leaf, st);
    if (!rc && d < 0) rc = -1;
    if (d >= 0) {
        rc |= stat_attrs(w, d, st);
        if (H5Dclose(d) < 0) rc = fail(w, "cannot close '%s'", st->name);
    }
    if (g >= 0) rc |= group_close(w, g);
    free(buf);
    return rc ? -1 : 0;
}

static int write_stats(struct writer *w, const struct stats *s)
{
    hid_t g = group_create(w, w->fid, "stats");
    if (g < 0) return -1;
    int rc = 0;
    for (size_t i = 0; i < stats_count(s) && !rc; i++)
        rc = write_stat(w, g, stats_at(s, i));
    rc |= group_close(w, g);
    return rc ? -1 : 0;
}

/* ---- record datasets (time series and tables) ---- */

/* What a row dataset holds: its name, description and fields. */
struct rows {
    const char *name, *desc;
    const struct rec_field *fields;
    size_t nfields, row_bytes;
};

/* A row dataset open for the run: created empty when the file is opened
 * and extended as blocks of rows arrive (stats.h's sink), so the rows of
 * a long run never sit in memory at once.  key: the rec_table it holds
 * (NULL: the time series). */
struct rowset {
    const void *key;
    char *name;
    hid_t d, mtype;
    size_t row_bytes;
};

static hid_t field_type(enum rec_type t, bool file)
{
    if (t == REC_U64) return H5Tcopy(file ? H5T_STD_U64LE : H5T_NATIVE_UINT64);
    if (t == REC_F64) return H5Tcopy(file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE);
    hid_t s = H5Tcopy(H5T_C_S1);
    if (s >= 0 && (H5Tset_size(s, 32) < 0 ||
                   H5Tset_strpad(s, H5T_STR_NULLTERM) < 0)) {
        H5Tclose(s);
        return -1;
    }
    return s;
}

/* The packed row layout of stats.h: 8 bytes per number, 32 per string. */
static hid_t row_type(struct writer *w, const struct rows *r, bool file)
{
    hid_t t = H5Tcreate(H5T_COMPOUND, r->row_bytes);
    size_t off = 0;
    for (size_t i = 0; t >= 0 && i < r->nfields; i++) {
        hid_t ft = field_type(r->fields[i].type, file);
        herr_t rc = ft < 0 ? -1 : H5Tinsert(t, r->fields[i].name, off, ft);
        if (ft >= 0) H5Tclose(ft);
        if (rc < 0) {
            H5Tclose(t);
            t = -1;
        }
        off += r->fields[i].type == REC_STR32 ? 32 : 8;
    }
    if (t < 0) fail(w, "cannot build the row type of '%s'", r->name);
    return t;
}

/* Rows per chunk.  The block of rows the stats registry hands over at a
 * time (stats_sink.rows) is WRITE_CHUNKS of them, so every block but a
 * run's last is whole chunks. */
static hsize_t chunk_rows(size_t row_bytes)
{
    size_t n = CHUNK_TARGET_BYTES / (row_bytes ? row_bytes : 1);
    if (n > CHUNK_MAX_ROWS) n = CHUNK_MAX_ROWS;
    return n ? n : 1;
}

static hid_t rows_dcpl(struct writer *w, hsize_t chunk)
{
    hid_t p = H5Pcreate(H5P_DATASET_CREATE);
    if (p < 0 || H5Pset_obj_track_times(p, 0) < 0 ||
        H5Pset_chunk(p, 1, &chunk) < 0 ||
        (w->deflate && ((w->shuffle && H5Pset_shuffle(p) < 0) ||
                        H5Pset_deflate(p, DEFLATE_LEVEL) < 0))) {
        if (p >= 0) H5Pclose(p);
        fail(w, "cannot set up a chunked dataset");
        return -1;
    }
    return p;
}

static int rows_attrs(struct writer *w, hid_t d, const struct rows *r)
{
    int rc = attr_str(w, d, "description", r->desc);
    for (size_t i = 0; i < r->nfields && !rc; i++) {
        size_t len = strlen(r->fields[i].name) + sizeof "unit:";
        char *name = xmalloc(len);
        snprintf(name, len, "unit:%s", r->fields[i].name);
        rc = attr_str(w, d, name, r->fields[i].unit);
        free(name);
    }
    return rc;
}

/* Creates the empty, extendible dataset with its attributes. */
static int rowset_create(struct writer *w, struct rowset *rs, const void *key,
                         const struct rows *r)
{
    *rs = (struct rowset){ .key = key, .name = xstrdup(r->name), .d = -1, .mtype = -1,
                           .row_bytes = r->row_bytes };
    hsize_t dims = 0, maxdims = H5S_UNLIMITED;
    hsize_t chunk = chunk_rows(r->row_bytes);
    hid_t ftype = row_type(w, r, true);
    rs->mtype = ftype < 0 ? -1 : row_type(w, r, false);
    hid_t dcpl = rs->mtype < 0 ? -1 : rows_dcpl(w, chunk);
    hid_t sp = dcpl < 0 ? -1 : H5Screate_simple(1, &dims, &maxdims);
    /* No chunk cache: rows arrive in whole chunks, written once. */
    hid_t dapl = sp < 0 ? -1 : H5Pcreate(H5P_DATASET_ACCESS);
    if (dapl >= 0 && H5Pset_chunk_cache(dapl, 0, 0, H5D_CHUNK_CACHE_W0_DEFAULT) < 0) {
        H5Pclose(dapl);
        dapl = -1;
    }
    rs->d = dapl < 0 ? -1 : H5Dcreate2(w->fid, r->name, ftype, sp, H5P_DEFAULT, dcpl, dapl);
    /* HDF5 caps a compound type's description at 64 KiB: roughly a
     * thousand fields, hence the field count in the message. */
    int rc = rs->d < 0 ? fail(w, "cannot create dataset '/%s' (%zu fields)",
                              r->name, r->nfields) : 0;
    if (!rc) rc = rows_attrs(w, rs->d, r);
    if (dapl >= 0) H5Pclose(dapl);
    if (sp >= 0) H5Sclose(sp);
    if (dcpl >= 0) H5Pclose(dcpl);
    if (ftype >= 0) H5Tclose(ftype);
    return rc;
}

/* Rows [first, first + n) of the dataset from buf (packed rows). */
static int rowset_write(struct writer *w, struct rowset *rs, const void *buf,
                        size_t first, size_t n)
{
    if (w->failed || rs->d < 0) return -1;
    if (!n) return 0;
    hsize_t off = first, cnt = n, end = first + n;
    int rc = H5Dset_extent(rs->d, &end) < 0 ? -1 : 0;
    hid_t fsp = rc ? -1 : H5Dget_space(rs->d);
    hid_t msp = fsp < 0 ? -1 : H5Screate_simple(1, &cnt, NULL);
    if (msp < 0 ||
        H5Sselect_hyperslab(fsp, H5S_SELECT_SET, &off, NULL, &cnt, NULL) < 0 ||
        H5Dwrite(rs->d, rs->mtype, msp, fsp, H5P_DEFAULT, buf) < 0)
        rc = -1;
    if (msp >= 0) H5Sclose(msp);
    if (fsp >= 0) H5Sclose(fsp);
    /* HDF5 keeps freed hyperslab and dataspace blocks on its own free
     * lists, which only grow over a long run of small appends; returning
     * them every 64 writes keeps the writer's memory flat. */
    if (++w->writes % 64 == 0) H5garbage_collect();
    return rc ? fail(w, "cannot write the rows of '/%s'", rs->name) : 0;
}

static int rowset_close(struct writer *w, struct rowset *rs)
{
    int rc = 0;
    if (rs->d >= 0 && H5Dclose(rs->d) < 0) rc = fail(w, "cannot close '/%s'", rs->name);
    if (rs->mtype >= 0) H5Tclose(rs->mtype);
    free(rs->name);
    *rs = (struct rowset){ .d = -1, .mtype = -1 };
    return rc;
}

static int series_create(struct writer *w, struct rowset *rs, const struct stats *s)
{
    size_t ncol = stats_series_columns(s);
    struct rec_field *f = xcalloc(ncol, sizeof *f);
    for (size_t i = 0; i < ncol; i++) {
        const struct stat_entry *st = i ? stats_find(s, stats_series_name(s, i))
                                  : NULL;
        f[i].name = stats_series_name(s, i);
        f[i].type = stats_series_is_real(s, i) ? REC_F64 : REC_U64;
        f[i].unit = st ? st->unit : "ps";
    }
    struct rows r = {
        .name = "timeseries",
        .desc = "statistics sampled every sim.epoch (cumulative values; "
                "averages as the mean so far; with sim.epoch_rows=changed an epoch "
                "in which only time_ps, gpu.cycles and gpu.ipc moved is left out "
                "unless the next one differs)",
        .fields = f, .nfields = ncol, .row_bytes = 8 * ncol,
    };
    int rc = rowset_create(w, rs, NULL, &r);
    free(f);
    return rc;
}

static int table_create(struct writer *w, struct rowset *rs, const struct rec_table *t)
{
    struct rows r = {
        .name = t->name, .desc = t->desc, .fields = t->fields,
        .nfields = t->nfields, .row_bytes = t->row_bytes,
    };
    return rowset_create(w, rs, t, &r);
}

/* ---- file ---- */

static int plists_setup(struct writer *w, hid_t fcpl, hid_t fapl)
{
    if (fcpl < 0 || fapl < 0 || w->gcpl < 0 || w->dcpl_compact < 0 ||
        w->dcpl_contig < 0 || w->str < 0)
        return -1;
    /* No time stamps anywhere: they are the only thing that would differ
     * between two otherwise identical runs. */
    if (H5Pset_obj_track_times(fcpl, 0) < 0 ||
        H5Pset_obj_track_times(w->gcpl, 0) < 0 ||
        H5Pset_obj_track_times(w->dcpl_compact, 0) < 0 ||
        H5Pset_obj_track_times(w->dcpl_contig, 0) < 0)
        return -1;
    /* Links in the group's object header, whose checksum catches a
     * damaged byte, never in dense storage (a fractal heap without one,
     * where libhdf5 1.10 frees garbage on iteration: issue 38 R5). */
    if (H5Pset_link_phase_change(w->gcpl, RESULTS_MAX_COMPACT_LINKS, RESULTS_MAX_COMPACT_LINKS - 1) < 0 ||
        H5Pset_link_phase_change(fcpl, RESULTS_MAX_COMPACT_LINKS, RESULTS_MAX_COMPACT_LINKS - 1) < 0)
        return -1;
    /* 1.8 format: readable by every current reader, and the same format
     * whichever library version writes it.  Closing the file closes
     * anything an error path left open. */
    if (H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18) < 0 ||
        H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0)
        return -1;
    /* The metadata cache (chunk indexes of the growing datasets) is
     * bounded at MDC_MAX_BYTES instead of HDF5's adaptive 32 MiB, so a long
     * run's memory does not grow with its rows. */
    H5AC_cache_config_t mdc = { .version = H5AC__CURR_CACHE_CONFIG_VERSION };
    if (H5Pget_mdc_config(fapl, &mdc) < 0) return -1;
    mdc.set_initial_size = 1;
    mdc.initial_size = MDC_MAX_BYTES / 2;
    mdc.min_size = MDC_MAX_BYTES / 2;
    mdc.max_size = MDC_MAX_BYTES;
    if (H5Pset_mdc_config(fapl, &mdc) < 0) return -1;
    if (H5Pset_layout(w->dcpl_compact, H5D_COMPACT) < 0 ||
        H5Tset_strpad(w->str, H5T_STR_NULLTERM) < 0 ||
        H5Tset_cset(w->str, H5T_CSET_UTF8) < 0)
        return -1;
    return 0;
}

static int writer_open(struct writer *w, const char *tmp)
{
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    w->gcpl = H5Pcreate(H5P_GROUP_CREATE);
    w->dcpl_compact = H5Pcreate(H5P_DATASET_CREATE);
    w->dcpl_contig = H5Pcreate(H5P_DATASET_CREATE);
    w->str = H5Tcopy(H5T_C_S1);
    w->deflate = H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0;
    w->shuffle = H5Zfilter_avail(H5Z_FILTER_SHUFFLE) > 0;
    int rc = plists_setup(w, fcpl, fapl) < 0
             ? fail(w, "cannot set up HDF5 property lists") : 0;
    if (!rc) {
        w->fid = H5Fcreate(tmp, H5F_ACC_TRUNC, fcpl, fapl);
        if (w->fid < 0) rc = fail(w, "cannot create '%s'", tmp);
    }
    if (fcpl >= 0) H5Pclose(fcpl);
    if (fapl >= 0) H5Pclose(fapl);
    return rc;
}

/* Closes everything; returns -1 if any handle was leaked or closing failed. */
static int writer_close(struct writer *w)
{
    int rc = 0;
    if (w->fid >= 0) {
        ssize_t open = H5Fget_obj_count(w->fid, H5F_OBJ_ALL);
        if (open != 1 && !w->failed)
            rc = fail(w, "internal error: %zd HDF5 objects left open",
                      open - 1);
        if (H5Fclose(w->fid) < 0) rc = fail(w, "cannot close the file");
    }
    if (w->gcpl >= 0) H5Pclose(w->gcpl);
    if (w->dcpl_compact >= 0) H5Pclose(w->dcpl_compact);
    if (w->dcpl_contig >= 0) H5Pclose(w->dcpl_contig);
    if (w->str >= 0) H5Tclose(w->str);
    return rc;
}

/* ---- an open result file ---- */

struct results {
    struct writer w;
    char err[512];
    char *path, *tmp;
    struct stats *streamed;       /* the registry whose rows stream here */
    struct rowset series;
    struct rowset *tabs;
    size_t ntabs;
    struct results *next_open;    /* open_files */
};

/* Temporary files of the results still open: removed if the process
 * exits (a panic, a user error mid-run) or is interrupted before they
 * are finished, so only a killed run (SIGKILL) leaves one behind, as
 * docs/results.md says and `uvmsim sweep` cleans up. */
static struct results *open_files;
static bool cleanup_registered;

static void remove_open_temps(void)
{
    for (struct results *r = open_files; r; r = r->next_open) unlink(r->tmp);
}

static void unlist(struct results *r)
{
    for (struct results **p = &open_files; *p; p = &(*p)->next_open)
        if (*p == r) { *p = r->next_open; break; }
}

static struct rowset *table_rowset(struct results *r, const struct rec_table *t)
{
    for (size_t i = 0; i < r->ntabs; i++)
        if (r->tabs[i].key == t) return &r->tabs[i];
    /* A table registered after the file was opened. */
    r->tabs = xrealloc(r->tabs, (r->ntabs + 1) * sizeof *r->tabs);
    struct rowset *rs = &r->tabs[r->ntabs++];
    table_create(&r->w, rs, t);
    return rs;
}

static size_t sink_rows(void *ctx, size_t row_bytes)
{
    (void)ctx;
    return (size_t)chunk_rows(row_bytes) * WRITE_CHUNKS;
}

static void sink_series(void *ctx, const uint64_t *rows, size_t first, size_t n)
{
    struct results *r = ctx;
    rowset_write(&r->w, &r->series, rows, first, n);
}

static void sink_table(void *ctx, const struct rec_table *t, const unsigned char *rows,
                       size_t first, size_t n)
{
    struct results *r = ctx;
    rowset_write(&r->w, table_rowset(r, t), rows, first, n);
}

static void results_free(struct results *r)
{
    free(r->tabs);
    free(r->path);
    free(r->tmp);
    free(r);
}

static void copy_err(const struct results *r, char *err, size_t errlen)
{
    if (err && errlen) snprintf(err, errlen, "%s", r->err);
}

/* Everything open is closed, the temporary removed. */
static void discard(struct results *r)
{
    rowset_close(&r->w, &r->series);
    for (size_t i = 0; i < r->ntabs; i++) rowset_close(&r->w, &r->tabs[i]);
    writer_close(&r->w);
    remove(r->tmp);
    outfile_watch(NULL);
    unlist(r);
}

static struct results *open_file(const char *path, const struct config *cfg,
                                 const struct stats *st, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    struct results *r = xcalloc(1, sizeof *r);
    r->w = (struct writer){
        .fid = -1, .gcpl = -1, .dcpl_compact = -1, .dcpl_contig = -1,
        .str = -1, .err = r->err, .errlen = sizeof r->err,
    };
    r->series = (struct rowset){ .d = -1, .mtype = -1 };
    if (!path || !cfg || !st) {
        fail(&r->w, "results: missing path, config or stats");
        copy_err(r, err, errlen);
        results_free(r);
        return NULL;
    }
    r->path = xstrdup(path);
    /* Left-overs of killed runs to the same path go first (outfile.h). */
    outfile_remove_stale(path);
    r->tmp = outfile_tmp_name(path);
    /* A second SIGINT/SIGTERM mid-run exits at once: it removes this. */
    outfile_watch(r->tmp);
    if (!cleanup_registered) {
        atexit(remove_open_temps);
        cleanup_registered = true;
    }
    r->next_open = open_files;
    open_files = r;

    H5E_auto2_t old_fn;
    void *old_data;
    H5Eget_auto2(H5E_DEFAULT, &old_fn, &old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    int rc = writer_open(&r->w, r->tmp);
    if (!rc) rc = write_config(&r->w, cfg);
    if (!rc) rc = series_create(&r->w, &r->series, st);
    size_t nt = stats_table_count(st);
    r->tabs = xcalloc(nt ? nt : 1, sizeof *r->tabs);
    for (size_t i = 0; !rc && i < nt; i++) {
        rc = table_create(&r->w, &r->tabs[i], stats_table_at(st, i));
        r->ntabs++;
    }
    H5Eclear2(H5E_DEFAULT);
    H5Eset_auto2(H5E_DEFAULT, old_fn, old_data);
    if (rc) {
        discard(r);
        copy_err(r, err, errlen);
        results_free(r);
        return NULL;
    }
    return r;
}

struct results *results_open(const char *path, const struct config *cfg,
                             struct stats *st, char *err, size_t errlen)
{
    struct results *r = open_file(path, cfg, st, err, errlen);
    if (!r) return NULL;
    struct stats_sink sink = { sink_rows, sink_series, sink_table, r };
    stats_set_sink(st, &sink);
    r->streamed = st;
    return r;
}

/* The rows still in memory (all of them when nothing streamed). */
static void write_memory_rows(struct results *r, const struct stats *st)
{
    size_t total = stats_series_rows(st), first = total;
    while (first > 0 && stats_series_row(st, first - 1)) first--;
    if (first < total) rowset_write(&r->w, &r->series, stats_series_row(st, first), first,
                                    total - first);
    for (size_t i = 0; i < stats_table_count(st); i++) {
        const struct rec_table *t = stats_table_at(st, i);
        rowset_write(&r->w, table_rowset(r, t), t->rows, t->nflushed, t->nrows);
    }
}

int results_finish(struct results *r, const struct stats *st,
                   const struct run_info *info, char *err, size_t errlen)
{
    H5E_auto2_t old_fn;
    void *old_data;
    H5Eget_auto2(H5E_DEFAULT, &old_fn, &old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    if (r->streamed) {
        stats_flush(r->streamed);
        stats_set_sink(r->streamed, NULL);
    } else {
        write_memory_rows(r, st);
    }
    /* Every table has its dataset, rows or not. */
    for (size_t i = 0; i < stats_table_count(st); i++) table_rowset(r, stats_table_at(st, i));
    /* From here a signal removes the file and exits at once (outfile.h). */
    outfile_guard(r->tmp);
    int rc = r->w.failed ? -1 : 0;
    rc |= rowset_close(&r->w, &r->series);
    for (size_t i = 0; i < r->ntabs; i++) rc |= rowset_close(&r->w, &r->tabs[i]);
    /* /host last: its (non-deterministic) values then shift nothing. */
    if (!rc && !info) rc = fail(&r->w, "results: missing run info");
    if (!rc && (write_root(&r->w, info) || write_stats(&r->w, st) ||
                (!info->no_host && write_host(&r->w, info))))
        rc = -1;
    rc |= writer_close(&r->w);
    char why[512];
    if (!rc && outfile_commit(r->tmp, r->path, why, sizeof why) != 0)
        rc = fail(&r->w, "%s", why);
    if (rc) remove(r->tmp);
    outfile_guard(NULL);
    outfile_watch(NULL);
    unlist(r);
    H5Eclear2(H5E_DEFAULT);
    H5Eset_auto2(H5E_DEFAULT, old_fn, old_data);
    copy_err(r, err, errlen);
    results_free(r);
    return rc ? -1 : 0;
}

void results_abort(struct results *r)
{
    if (!r) return;
    if (r->streamed) stats_set_sink(r->streamed, NULL);
    H5E_auto2_t old_fn;
    void *old_data;
    H5Eget_auto2(H5E_DEFAULT, &old_fn, &old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    discard(r);
    H5Eclear2(H5E_DEFAULT);
    H5Eset_auto2(H5E_DEFAULT, old_fn, old_data);
    results_free(r);
}

int results_write(const char *path, const struct config *cfg,
                  const struct stats *st, const struct run_info *info,
                  char *err, size_t errlen)
{
    struct results *r = open_file(path, cfg, st, err, errlen);
    if (!r) return -1;
    if (!info) {
        results_abort(r);
        if (err && errlen) snprintf(err, errlen, "results_write: missing run info");
        return -1;
    }
    return results_finish(r, st, info, err, errlen);
}

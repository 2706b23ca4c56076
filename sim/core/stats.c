/* Statistics registry.  Each stat's storage is its own allocation so that the
 * pointers handed to components survive later registrations; only the index
 * arrays (which nobody outside holds) are ever reallocated. */
#include <string.h>
#include <stdlib.h>
#include "stats.h"

/* Names live in one hash set.  Interior entries (leaf == NULL) record every
 * dotted prefix so that a name which is both a leaf and a prefix ("a" and
 * "a.b"), impossible to lay out as HDF5 groups, is caught at registration. */
struct name_slot {
    char *name;
    const struct stat_entry *leaf;
};

struct stats {
    struct stat_entry **stat;
    size_t nstat, capstat;
    struct rec_table **table;
    size_t ntable, captable;

    struct name_slot *slot;
    size_t nslot, capslot;       /* capslot: power of two */

    const struct stat_entry **col;     /* series columns 1.. (column 0 is time) */
    size_t ncol, capcol;
    uint64_t *series;            /* nrows * (ncol + 1) cells */
    size_t nrows, caprows;       /* rows in memory */
    size_t nflushed;             /* rows handed to the sink before them */
    /* prev: the last sampled row (kept or held; its cell 0 is its time),
     * NULL before the first sample. */
    bool skip_unchanged, held;
    uint64_t *prev, *cur;        /* cur: scratch for the row being sampled */

    struct stats_sink sink;
    bool has_sink;
    size_t block;                /* series rows per sink block */
};

#define SERIES_TIME_NAME "time_ps"

/* Object names at the root of a result file that a table must not take. */
static const char *const reserved_roots[] = {
    "config", "stats", "timeseries", "host", NULL,
};

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return p;
    size_t c = *cap ? *cap : 16;
    while (c < need) c *= 2;
    *cap = c;
    return xrealloc(p, c * elem);
}

/* ---- name set ---- */

static uint64_t hash_name(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ULL;          /* FNV-1a */
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static struct name_slot *slot_find(const struct stats *s, const char *name,
                                   size_t len)
{
    if (!s->capslot) return NULL;
    size_t mask = s->capslot - 1;
    for (size_t i = hash_name(name, len) & mask;; i = (i + 1) & mask) {
        struct name_slot *sl = &s->slot[i];
        if (!sl->name) return sl;
        if (strncmp(sl->name, name, len) == 0 && sl->name[len] == '\0')
            return sl;
    }
}

static void slots_rehash(struct stats *s)
{
    struct name_slot *old = s->slot;
    size_t oldcap = s->capslot;
    s->capslot = oldcap ? oldcap * 2 : 64;
    s->slot = xcalloc(s->capslot, sizeof *s->slot);
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i].name) continue;
        *slot_find(s, old[i].name, strlen(old[i].name)) = old[i];
    }
    free(old);
}

/* Insert name[0..len) if absent; returns its slot either way and whether
 * it was created. */
static struct name_slot *slot_get(struct stats *s, const char *name,
                                  size_t len, bool *created)
{
    if (2 * (s->nslot + 1) > s->capslot) slots_rehash(s);
    struct name_slot *sl = slot_find(s, name, len);
    *created = !sl->name;
    if (*created) {
        sl->name = xmalloc(len + 1);
        memcpy(sl->name, name, len);
        sl->name[len] = '\0';
        s->nslot++;
    }
    return sl;
}

/* ---- registration ---- */

static void check_name(const char *name)
{
    if (!name || !*name)
        sim_panic("stats", 0, "empty stat name");
    const char *p = name;
    for (;;) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        if (len == 0)
            sim_panic("stats", 0, "stat name '%s' has an empty component",
                      name);
        if (memchr(p, '/', len))
            sim_panic("stats", 0, "stat name '%s' contains '/'", name);
        if (!dot) break;
        p = dot + 1;
    }
    if (strcmp(name, SERIES_TIME_NAME) == 0)
        sim_panic("stats", 0, "stat name '%s' is reserved for the time "
                  "series", name);
}

static void claim_name(struct stats *s, const struct stat_entry *st)
{
    const char *name = st->name;
    bool created;
    for (const char *dot = strchr(name, '.'); dot; dot = strchr(dot + 1, '.')) {
        struct name_slot *sl = slot_get(s, name, (size_t)(dot - name),
                                        &created);
        if (sl->leaf)
            sim_panic("stats", 0, "stat '%s' is also a prefix of '%s'",
                      sl->name, name);
    }
    struct name_slot *sl = slot_get(s, name, strlen(name), &created);
    if (sl->leaf)
        sim_panic("stats", 0, "duplicate stat '%s'", name);
    if (!created)
        sim_panic("stats", 0, "stat '%s' is also a prefix of another stat",
                  name);
    sl->leaf = st;
}

static struct stat_entry *add_stat(struct stats *s, enum stat_kind kind,
                             const char *name, const char *unit,
                             const char *desc, size_t n)
{
    if (s->prev || s->has_sink)
        sim_panic("stats", 0, "stat '%s' registered after the first sample",
                  name ? name : "(null)");
    check_name(name);
    struct stat_entry *st = xcalloc(1, sizeof *st);
    st->kind = kind;
    st->name = xstrdup(name);
    st->unit = xstrdup(unit ? unit : "");
    st->desc = xstrdup(desc ? desc : "");
    st->n = n;
    s->stat = grow(s->stat, &s->capstat, s->nstat + 1, sizeof *s->stat);
    s->stat[s->nstat++] = st;
    return st;
}

static void add_column(struct stats *s, const struct stat_entry *st)
{
    s->col = grow(s->col, &s->capcol, s->ncol + 1, sizeof *s->col);
    s->col[s->ncol++] = st;
}

/* Called once the storage is attached, so the name set and the series see
 * a complete stat. */
static void finish_stat(struct stats *s, struct stat_entry *st)
{
    claim_name(s, st);
    if (st->kind == STAT_COUNTER || st->kind == STAT_AVERAGE ||
        st->kind == STAT_REAL)
        add_column(s, st);
}

uint64_t *stat_counter(struct stats *s, const char *name, const char *unit,
                       const char *desc)
{
    struct stat_entry *st = add_stat(s, STAT_COUNTER, name, unit, desc, 1);
    st->p.u = xcalloc(1, sizeof *st->p.u);
    finish_stat(s, st);
    return st->p.u;
}

uint64_t *stat_vector(struct stats *s, const char *name, size_t n,
                      const char *unit, const char *desc)
{
    struct stat_entry *st = add_stat(s, STAT_VECTOR, name, unit, desc, n);
    st->p.u = xcalloc(n ? n : 1, sizeof *st->p.u);
    finish_stat(s, st);
    return st->p.u;
}

struct stat_avg *stat_average(struct stats *s, const char *name,
                              const char *unit, const char *desc)
{
    struct stat_entry *st = add_stat(s, STAT_AVERAGE, name, unit, desc, 1);
    st->p.avg = xcalloc(1, sizeof *st->p.avg);
    finish_stat(s, st);
    return st->p.avg;
}

double *stat_real(struct stats *s, const char *name, const char *unit,
                  const char *desc)
{
    struct stat_entry *st = add_stat(s, STAT_REAL, name, unit, desc, 1);
    st->p.real = xcalloc(1, sizeof *st->p.real);
    finish_stat(s, st);
    return st->p.real;
}

struct stat_hist *stat_histogram(struct stats *s, const char *name,
                                 const char *unit, const char *desc,
                                 size_t nbins, uint64_t bin_width)
{
    /* stat_hist_add divides by the width and always needs an overflow bin. */
    if (nbins == 0 || bin_width == 0)
        sim_panic("stats", 0, "histogram '%s' needs nbins >= 1 and "
                  "bin_width >= 1", name ? name : "(null)");
    struct stat_entry *st = add_stat(s, STAT_HISTOGRAM, name, unit, desc, 1);
    struct stat_hist *h = xcalloc(1, sizeof *h);
    h->bin_width = bin_width;
    h->nbins = nbins;
    h->bins = xcalloc(nbins, sizeof *h->bins);
    st->p.hist = h;
    finish_stat(s, st);
    return h;
}

struct stat_hist *stat_histogram_ranging(struct stats *s, const char *name,
                                         const char *unit, const char *desc,
                                         size_t nbins, uint64_t bin_width)
{
    if (nbins < 2)
        sim_panic("stats", 0, "ranging histogram '%s' needs nbins >= 2", name ? name : "(null)");
    struct stat_hist *h = stat_histogram(s, name, unit, desc, nbins, bin_width);
    h->widen = true;
    return h;
}

/* A doubling merges bins 2i and 2i+1 into bin i: the counts stay exact
 * for the coarser bins.  At most 64 doublings in a run, each O(nbins), so
 * a sample costs O(1) amortised (the hot path scans nothing per sample). */
void stat_hist_widen(struct stat_hist *h, uint64_t v)
{
    while (v / h->bin_width >= h->nbins && h->bin_width <= UINT64_MAX / 2) {
        for (size_t i = 0; i < h->nbins; i++) {
            uint64_t c = h->bins[i];
            h->bins[i] = 0;
            h->bins[i / 2] += c;
        }
        h->bin_width *= 2;
    }
}

/* ---- record tables ---- */

static void check_table(const struct stats *s, const char *name,
                        const struct rec_field *fields, size_t nfields)
{
    if (!name || !*name || strchr(name, '/') || strchr(name, '.'))
        sim_panic("stats", 0, "bad table name '%s'", name ? name : "(null)");
    for (const char *const *r = reserved_roots; *r; r++)
        if (strcmp(name, *r) == 0)
            sim_panic("stats", 0, "table name '%s' is reserved", name);
    for (size_t i = 0; i < s->ntable; i++)
        if (strcmp(s->table[i]->name, name) == 0)
            sim_panic("stats", 0, "duplicate table '%s'", name);
    if (nfields == 0)
        sim_panic("stats", 0, "table '%s' has no fields", name);
    for (size_t i = 0; i < nfields; i++) {
        if (!fields[i].name || !*fields[i].name)
            sim_panic("stats", 0, "table '%s': field %zu has no name",
                      name, i);
        if (fields[i].type != REC_U64 && fields[i].type != REC_F64 &&
            fields[i].type != REC_STR32)
            sim_panic("stats", 0, "table '%s': field '%s' has a bad type",
                      name, fields[i].name);
        for (size_t j = 0; j < i; j++)
            if (strcmp(fields[i].name, fields[j].name) == 0)
                sim_panic("stats", 0, "table '%s': duplicate field '%s'",
                          name, fields[i].name);
    }
}

static size_t field_bytes(enum rec_type t)
{
    return t == REC_STR32 ? 32 : 8;
}

static void table_attach(struct stats *s, struct rec_table *t)
{
    t->sink = &s->sink;
    t->block = s->sink.rows(s->sink.ctx, t->row_bytes);
    if (!t->block) t->block = 1;
}

struct rec_table *stat_table(struct stats *s, const char *name,
                             const char *desc, const struct rec_field *fields,
                             size_t nfields)
{
    check_table(s, name, fields, nfields);
    struct rec_table *t = xcalloc(1, sizeof *t);
    t->name = xstrdup(name);
    t->desc = xstrdup(desc ? desc : "");
    t->nfields = nfields;
    t->fields = xcalloc(nfields, sizeof *t->fields);
    for (size_t i = 0; i < nfields; i++) {
        t->fields[i].name = xstrdup(fields[i].name);
        t->fields[i].type = fields[i].type;
        t->fields[i].unit = xstrdup(fields[i].unit ? fields[i].unit : "");
        t->row_bytes += field_bytes(fields[i].type);
    }
    s->table = grow(s->table, &s->captable, s->ntable + 1, sizeof *s->table);
    s->table[s->ntable++] = t;
    if (s->has_sink) table_attach(s, t);
    return t;
}

static void table_flush(struct rec_table *t)
{
    const struct stats_sink *k = t->sink;
    if (!k || !t->nrows) return;
    k->table(k->ctx, t, t->rows, t->nflushed, t->nrows);
    t->nflushed += t->nrows;
    t->nrows = 0;
}

void rec_append(struct rec_table *t, const void *const *vals)
{
    t->rows = grow(t->rows, &t->cap, t->nrows + 1, t->row_bytes);
    unsigned char *row = t->rows + t->nrows * t->row_bytes;
    for (size_t i = 0; i < t->nfields; i++) {
        size_t w = field_bytes(t->fields[i].type);
        if (t->fields[i].type == REC_STR32) {
            /* Zero the tail: the bytes go to the file, which must not
             * depend on whatever the allocator left there. */
            const char *str = vals[i] ? (const char *)vals[i] : "";
            size_t len = strnlen(str, 31);
            memset(row, 0, w);
            memcpy(row, str, len);
        } else {
            memcpy(row, vals[i], w);
        }
        row += w;
    }
    t->nrows++;
    if (t->block && t->nrows >= t->block) table_flush(t);
}

/* ---- lifetime and iteration ---- */

struct stats *stats_new(void)
{
    return xcalloc(1, sizeof(struct stats));
}

static void free_stat(struct stat_entry *st)
{
    switch (st->kind) {
    case STAT_COUNTER: case STAT_VECTOR: free(st->p.u); break;
    case STAT_AVERAGE: free(st->p.avg); break;
    case STAT_REAL: free(st->p.real); break;
    case STAT_HISTOGRAM: free(st->p.hist->bins); free(st->p.hist); break;
    }
    free(st->name);
    free(st->unit);
    free(st->desc);
    free(st);
}

static void free_table(struct rec_table *t)
{
    for (size_t i = 0; i < t->nfields; i++) {
        free((char *)t->fields[i].name);
        free((char *)t->fields[i].unit);
    }
    free(t->fields);
    free(t->rows);
    free(t->name);
    free(t->desc);
    free(t);
}

void stats_free(struct stats *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->nstat; i++) free_stat(s->stat[i]);
    for (size_t i = 0; i < s->ntable; i++) free_table(s->table[i]);
    for (size_t i = 0; i < s->capslot; i++) free(s->slot[i].name);
    free(s->slot);
    free(s->stat);
    free(s->table);
    free(s->col);
    free(s->series);
    free(s->prev);
    free(s->cur);
    free(s);
}

size_t stats_count(const struct stats *s) { return s->nstat; }

const struct stat_entry *stats_at(const struct stats *s, size_t i)
{
    return i < s->nstat ? s->stat[i] : NULL;
}

size_t stats_table_count(const struct stats *s) { return s->ntable; }

const struct rec_table *stats_table_at(const struct stats *s, size_t i)
{
    return i < s->ntable ? s->table[i] : NULL;
}

const struct stat_entry *stats_find(const struct stats *s, const char *name)
{
    if (!name) return NULL;
    const struct name_slot *sl = slot_find(s, name, strlen(name));
    return sl && sl->name ? sl->leaf : NULL;
}

/* ---- time series ---- */

static uint64_t column_cell(const struct stat_entry *st)
{
    double d;
    switch (st->kind) {
    case STAT_COUNTER: return *st->p.u;
    case STAT_AVERAGE: d = stat_avg_value(st->p.avg); break;
    case STAT_REAL: d = *st->p.real; break;
    default: sim_panic("stats", 0, "stat '%s' is not a series column",
                       st->name);
    }
    uint64_t cell;
    memcpy(&cell, &d, sizeof cell);
    return cell;
}

static void series_flush(struct stats *s)
{
    if (!s->has_sink || !s->nrows) return;
    s->sink.series(s->sink.ctx, s->series, s->nflushed, s->nrows);
    s->nflushed += s->nrows;
    s->nrows = 0;
}

/* Append one row (w cells) to the rows in memory. */
static void series_keep(struct stats *s, const uint64_t *cells)
{
    size_t w = s->ncol + 1;
    s->series = grow(s->series, &s->caprows, s->nrows + 1,
                     w * sizeof *s->series);
    memcpy(s->series + s->nrows * w, cells, w * sizeof *cells);
    s->nrows++;
    if (s->has_sink && s->nrows >= s->block) series_flush(s);
}

/* Whether row differs from prev in a column that is not time or a clock. */
static bool series_changed(const struct stats *s, const uint64_t *row)
{
    for (size_t i = 0; i < s->ncol; i++)
        if (row[i + 1] != s->prev[i + 1] && !s->col[i]->clock) return true;
    return false;
}

void stats_sample(struct stats *s, sim_time now)
{
    size_t w = s->ncol + 1;
    bool first = !s->prev;
    if (first) {
        s->prev = xcalloc(w, sizeof *s->prev);
        s->cur = xcalloc(w, sizeof *s->cur);
    }
    uint64_t *cur = s->cur;
    cur[0] = now;
    for (size_t i = 0; i < s->ncol; i++) cur[i + 1] = column_cell(s->col[i]);
    if (!first && s->skip_unchanged && !series_changed(s, cur)) {
        s->held = true;
    } else {
        if (s->held) series_keep(s, s->prev);
        s->held = false;
        series_keep(s, cur);
    }
    s->cur = s->prev;           /* cur becomes the last sampled row */
    s->prev = cur;
}

void stats_mark_clock(struct stats *s, const char *name)
{
    /* The registry owns its entries: the const is the readers'. */
    struct stat_entry *st = (struct stat_entry *)stats_find(s, name);
    if (!st)
        sim_panic("stats", 0, "no stat '%s' to mark as a clock", name ? name : "(null)");
    if (s->prev || s->has_sink)
        sim_panic("stats", 0, "stat '%s' marked as a clock after the first sample", name);
    st->clock = true;
}

void stats_series_skip_unchanged(struct stats *s, bool on)
{
    if (s->prev || s->has_sink)
        sim_panic("stats", 0, "time-series row skipping set after the first sample");
    s->skip_unchanged = on;
}

void stats_series_end(struct stats *s)
{
    if (!s->held) return;
    s->held = false;
    series_keep(s, s->prev);
}

void stats_set_sink(struct stats *s, const struct stats_sink *sink)
{
    s->has_sink = sink != NULL;
    if (sink) {
        s->sink = *sink;
        s->block = sink->rows(sink->ctx, (s->ncol + 1) * sizeof *s->series);
        if (!s->block) s->block = 1;
    }
    for (size_t i = 0; i < s->ntable; i++) {
        if (sink) {
            table_attach(s, s->table[i]);
        } else {
            s->table[i]->sink = NULL;
            s->table[i]->block = 0;
        }
    }
}

void stats_flush(struct stats *s)
{
    stats_series_end(s);
    series_flush(s);
    for (size_t i = 0; i < s->ntable; i++) table_flush(s->table[i]);
}

size_t stats_row_bytes(const struct stats *s)
{
    size_t b = s->caprows * (s->ncol + 1) * sizeof *s->series;
    if (s->prev) b += 2 * (s->ncol + 1) * sizeof *s->prev;
    for (size_t i = 0; i < s->ntable; i++) b += s->table[i]->cap * s->table[i]->row_bytes;
    return b;
}

size_t stats_series_columns(const struct stats *s) { return s->ncol + 1; }

const char *stats_series_name(const struct stats *s, size_t col)
{
    if (col == 0) return SERIES_TIME_NAME;
    return col <= s->ncol ? s->col[col - 1]->name : NULL;
}

bool stats_series_is_real(const struct stats *s, size_t col)
{
    return col > 0 && col <= s->ncol && s->col[col - 1]->kind != STAT_COUNTER;
}

size_t stats_series_rows(const struct stats *s) { return s->nflushed + s->nrows; }

const uint64_t *stats_series_row(const struct stats *s, size_t r)
{
    if (r < s->nflushed || r >= s->nflushed + s->nrows) return NULL;
    return s->series + (r - s->nflushed) * (s->ncol + 1);
}

bool stats_series_last_time(const struct stats *s, sim_time *t)
{
    if (!s->prev) return false;
    *t = s->prev[0];
    return true;
}

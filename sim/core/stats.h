/* Statistics registry: named counters, vectors, averages, reals, histograms
 * and record tables, registered by components when they are built.  The hot
 * path increments through the returned pointers: no lookup, no allocation.
 * Every `sim.epoch` the scalar stats are sampled into a time series (cost
 * proportional to the number of stats, never to simulated cycles).
 *
 * The time series and the record tables grow with simulated time.  With a
 * sink attached (stats_set_sink: the result file of a run, results.c) each
 * of them holds at most one block of rows in memory and hands every full
 * block to the sink, so a run's memory does not grow with its length;
 * without one (unit tests, tools that read the rows back) every row stays
 * in memory. */
#ifndef UVMSIM_STATS_H
#define UVMSIM_STATS_H

#include <stdio.h>
#include "base.h"

enum stat_kind {
    STAT_COUNTER,   /* uint64 */
    STAT_VECTOR,    /* uint64[n], e.g. one per SM; not in the time series */
    STAT_AVERAGE,   /* sum / count */
    STAT_REAL,      /* double set by its owner (e.g. IPC at the end) */
    STAT_HISTOGRAM, /* fixed-width bins plus overflow bin */
};

struct stat_avg { double sum; uint64_t count; };

struct stat_hist {
    uint64_t bin_width;   /* bin i holds [i*w, (i+1)*w); last bin: overflow */
    size_t nbins;
    uint64_t *bins;
    uint64_t count, max;
    double sum;
    bool widen;           /* stat_histogram_ranging: no overflow, the width doubles */
};
/* Doubles h's bin width (merging bin pairs) until v falls in range. */
void stat_hist_widen(struct stat_hist *h, uint64_t v);

static inline void stat_avg_add(struct stat_avg *a, double v)
{ a->sum += v; a->count++; }
static inline double stat_avg_value(const struct stat_avg *a)
{ return a->count ? a->sum / (double)a->count : 0.0; }
static inline void stat_hist_add(struct stat_hist *h, uint64_t v)
{
    size_t i = (size_t)(v / h->bin_width);
    if (i >= h->nbins && h->widen) {
        stat_hist_widen(h, v);
        i = (size_t)(v / h->bin_width);
    }
    if (i >= h->nbins) i = h->nbins - 1;
    h->bins[i]++; h->count++; h->sum += (double)v;
    if (v > h->max) h->max = v;
}

struct stat_entry {
    enum stat_kind kind;
    char *name;           /* dotted: "sm.warp_insts" -> /stats/sm/warp_insts */
    char *unit;           /* "", "ps", "bytes", "faults", ... */
    char *desc;
    size_t n;             /* vector length (1 otherwise) */
    bool clock;           /* changes with simulated time alone (stats_mark_clock) */
    union {
        uint64_t *u;      /* COUNTER (1) and VECTOR (n) */
        struct stat_avg *avg;
        double *real;
        struct stat_hist *hist;
    } p;
};

struct stats_sink;

/* Record tables: one row per kernel, per batch, ... (HDF5 compound). */
enum rec_type { REC_U64, REC_F64, REC_STR32 };
struct rec_field { const char *name; enum rec_type type; const char *unit; };
struct rec_table {
    char *name;           /* "kernels" -> /kernels */
    char *desc;
    size_t nfields;
    struct rec_field *fields;  /* copied */
    size_t row_bytes;     /* 8 per number, 32 per string */
    size_t nrows, cap;    /* rows in memory */
    unsigned char *rows;  /* nrows * row_bytes, packed in field order */
    size_t nflushed;      /* rows handed to the sink before these */
    size_t block;         /* rows per sink block (0: no sink) */
    const struct stats_sink *sink;  /* the registry's, while attached */
};

struct stats;

struct stats *stats_new(void);
void stats_free(struct stats *s);

/* Registration.  Names are unique; a duplicate is a programming error. */
uint64_t *stat_counter(struct stats *s, const char *name, const char *unit,
                       const char *desc);
uint64_t *stat_vector(struct stats *s, const char *name, size_t n,
                      const char *unit, const char *desc);
struct stat_avg *stat_average(struct stats *s, const char *name,
                              const char *unit, const char *desc);
double *stat_real(struct stats *s, const char *name, const char *unit,
                  const char *desc);
struct stat_hist *stat_histogram(struct stats *s, const char *name,
                                 const char *unit, const char *desc,
                                 size_t nbins, uint64_t bin_width);
/* A histogram whose range follows its data: it starts at bin_width and
 * doubles the width whenever a sample lies past the last bin, so its
 * nbins always cover [0, max] with the finest width that does (no
 * overflow).  For quantities without a natural bound (residency). */
struct stat_hist *stat_histogram_ranging(struct stats *s, const char *name,
                                         const char *unit, const char *desc,
                                         size_t nbins, uint64_t bin_width);
struct rec_table *stat_table(struct stats *s, const char *name,
                             const char *desc, const struct rec_field *fields,
                             size_t nfields);
/* Append one row: `vals` holds one entry per field in order: uint64_t for
 * REC_U64, double for REC_F64, const char * for REC_STR32 (truncated to 31). */
void rec_append(struct rec_table *t, const void *const *vals);

/* Iteration (registration order, which is deterministic). */
size_t stats_count(const struct stats *s);
const struct stat_entry *stats_at(const struct stats *s, size_t i);
size_t stats_table_count(const struct stats *s);
const struct rec_table *stats_table_at(const struct stats *s, size_t i);
const struct stat_entry *stats_find(const struct stats *s, const char *name);

/* Time series.  Columns: "time_ps" then every COUNTER, AVERAGE (as the
 * mean so far) and REAL in registration order; registration must be over
 * before the first sample.  Rows hold cumulative values. */
void stats_sample(struct stats *s, sim_time now);
size_t stats_series_columns(const struct stats *s);      /* incl. time_ps */
const char *stats_series_name(const struct stats *s, size_t col);
bool stats_series_is_real(const struct stats *s, size_t col); /* double vs uint64 */
size_t stats_series_rows(const struct stats *s);         /* every row sampled */
/* Row r as 8-byte cells: uint64_t or double per stats_series_is_real;
 * NULL once the row has gone to the sink. */
const uint64_t *stats_series_row(const struct stats *s, size_t r);
/* The time of the last row sampled (kept or held), false when there is none. */
bool stats_series_last_time(const struct stats *s, sim_time *t);

/* Rows where only the clock moved.  A stat marked as a clock column
 * (gpu.cycles, gpu.ipc: functions of the time and of counters) changes
 * in every epoch, even one in which nothing happened.  With
 * skip_unchanged on, a row that differs from the last sampled one only in
 * time_ps and clock columns is held back instead of kept; a held row is
 * kept when the next sample differs, or at stats_series_end, so every
 * unchanged stretch keeps its first and last row and the difference of
 * two kept rows over their time is still the exact rate between them.
 * Both before the first sample; a run turns skipping on by `sim.epoch_rows`
 * (docs/results.md).  An idle stretch then costs two rows, not one per
 * epoch: host time follows the events, not the simulated time (issue 13). */
void stats_mark_clock(struct stats *s, const char *name);
void stats_series_skip_unchanged(struct stats *s, bool on);
/* Keep a held row (the end of the run's samples).  stats_flush does it too. */
void stats_series_end(struct stats *s);

/* The receiver of full blocks of rows.  `rows` returns the block size (in
 * rows) for rows of row_bytes bytes: the sink's own chunking (results.c
 * writes whole HDF5 chunks).  `series` takes n time-series rows starting
 * at row `first`, stats_series_columns() cells each; `table` n packed rows
 * of t starting at row `first`.  Errors are the sink's to keep: the rows
 * are dropped either way. */
struct stats_sink {
    size_t (*rows)(void *ctx, size_t row_bytes);
    void (*series)(void *ctx, const uint64_t *rows, size_t first, size_t n);
    void (*table)(void *ctx, const struct rec_table *t, const unsigned char *rows,
                  size_t first, size_t n);
    void *ctx;
};
/* Attach a sink (registration must be over: the series' row size is
 * known) or detach it (NULL).  Rows already in memory stay there until
 * a block fills or stats_flush. */
void stats_set_sink(struct stats *s, const struct stats_sink *sink);
/* Hand every row in memory to the sink (a last, partial block). */
void stats_flush(struct stats *s);
/* Bytes of rows the registry holds now (the time series and the tables;
 * with a sink, at most one block each). */
size_t stats_row_bytes(const struct stats *s);

#endif

/* Internals of the report: reading result files (h5read.c), drawing SVG
 * (svg.c), the run page (page_run.c) and the sweep page (page_sweep.c). */
#ifndef UVMSIM_RPT_INT_H
#define UVMSIM_RPT_INT_H

#include <stdio.h>
#include <hdf5.h>
#include "core/base.h"
#include "report.h"
#include "core/base.h"

/* ---- reading (h5read.c) ---- */

/* What a result may hold before it is refused as none (issue 38 R3): the
 * bytes of one dataset (also at most half the host's memory), its rows,
 * the statistics, a string attribute (a resolved config), a string field
 * of a table (an axis value). */
#define RPT_MAX_BYTES (4ULL << 30)
#define RPT_MAX_ROWS (1ULL << 29)
#define RPT_MAX_STATS (1 << 20)
#define RPT_MAX_ATTR_STR (16 << 20)
#define RPT_MAX_FIELD_STR (1 << 20)

/* A file that cannot be a uvmsim result: the first reason is kept (and
 * readers then return "missing" at once); report.c refuses the file with
 * it. */
void rpt_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *rpt_failure(void);
void rpt_fail_reset(void);
uint64_t rpt_max_bytes(void);
/* False (and rpt_fail) when dataset d claims more bytes than its stored
 * ones can expand to, or more than RPT_MAX_*; *bytes: its logical size. */
bool rpt_dataset_fits(hid_t d, const char *what, uint64_t *bytes);

/* One statistic of /stats: a scalar (n = 1), a vector, or a histogram. */
struct rpt_stat {
    char *name;           /* dotted: gpu.warp_insts */
    char *kind, *unit, *desc;
    size_t n;
    double *v;
    double bin_width, count, max, sum;   /* histograms */
};

/* A run: a result file's root, or one /runs/<name> group of a sweep. */
struct rpt_run {
    hid_t loc;            /* open while the page is written */
    char *status, *version;
    uint64_t seed, sim_time_ps, events;
    char *yaml;           /* /config@yaml */
    double core_hz;       /* /config@gpu.clock */
    size_t nstats;
    struct rpt_stat *stats;
};

/* Fills r from loc (not closed by rpt_run_free).  -1 with err when loc is
 * no uvmsim result. */
int rpt_run_read(hid_t loc, struct rpt_run *r, char *err, size_t errlen);
void rpt_run_free(struct rpt_run *r);
const struct rpt_stat *rpt_stat(const struct rpt_run *r, const char *name);
/* The scalar's value, or NAN when the run has no such statistic. */
double rpt_value(const struct rpt_run *r, const char *name);

/* A numeric column of a compound table (/timeseries, /batches, /points) as
 * doubles, or NULL when the table or the field is missing.  *n: rows. */
double *rpt_column(hid_t loc, const char *table, const char *field, size_t *n);
/* A fixed-length string column: an array of n malloc'd strings. */
char **rpt_str_column(hid_t loc, const char *table, const char *field, size_t *n);
void rpt_str_free(char **s, size_t n);
/* Field names of a compound table (NULL when missing). */
char **rpt_fields(hid_t loc, const char *table, size_t *n);
/* A string attribute of an object (NULL when missing). */
char *rpt_attr_str(hid_t loc, const char *obj, const char *attr);
bool rpt_attr_double(hid_t loc, const char *obj, const char *attr, double *v);

/* ---- drawing (svg.c) ---- */

struct svg_plot {
    const char *title, *xlabel, *ylabel;
    const char *id;       /* element id, for tests and links */
};

struct svg_series {
    const char *label;
    const double *y;
    const double *x;      /* NULL: the shared x of svg_lines */
    size_t n;             /* with x: its points */
};

/* Lines over a shared x, or each series over its own (NaN y values break
 * a line). */
void svg_lines(FILE *f, const struct svg_plot *p, const double *x, size_t n,
               const struct svg_series *s, size_t ns);
/* Histogram over bins of their own: bin i covers [edges[i], edges[i+1])
 * (nbins + 1 edges), on a log10 x axis with `logx`; with `overflow` the
 * last bin holds samples past the source histogram's range (drawn red). */
void svg_hist(FILE *f, const struct svg_plot *p, const double *edges,
              const double *counts, size_t nbins, bool logx, bool overflow);
/* One stacked bar per item in order (a fault batch: its handling time a[i]
 * under its migration time b[i]); more items than bars: each bar is the
 * mean of consecutive items, with a tick at their largest total. */
void svg_stack(FILE *f, const struct svg_plot *p, const double *a, const double *b,
               size_t n, const char *la, const char *lb);
/* Grouped bars as the papers draw them: ng groups along x (labels
 * groups[]), in each one bar per series (series[], one colour each, with a
 * legend); v[g * ns + s]; NaN: no bar.  ref: a dashed line (1 when
 * normalised), NaN for none. */
void svg_groups(FILE *f, const struct svg_plot *p, char *const *groups, size_t ng,
                char *const *series, size_t ns, const double *v, double ref);

/* The frame every plot shares (svg.c, for svg_bars.c): a W x H viewBox
 * with margins; px/py map data to it. */
#define W 760
#define H 290
#define ML 78      /* left margin: y tick labels and the y label */
#define MR 16
#define MT 34      /* title and legend */
#define MB 48      /* x tick labels and the x label */
#define PW (W - ML - MR)
#define PH (H - MT - MB)
#define NPAL 10
extern const char *const svg_palette[NPAL];
struct axis { double lo, hi, step; };
double svg_nice_step(double range, int n);
struct axis svg_axis_of(double lo, double hi, bool from_zero);
double svg_px(const struct axis *a, double v);
double svg_py(const struct axis *a, double v);
void svg_tick(FILE *f, double v, double step);
void svg_open(FILE *f, const struct svg_plot *p);
void svg_axes(FILE *f, const struct svg_plot *p, const struct axis *x, const struct axis *y,
              bool xticks);
void svg_legend(FILE *f, const char *const *labels, const char *const *colors, size_t n);
void svg_no_data(FILE *f);

/* ---- bins from the data (bins.c) ---- */

/* Bins for raw samples: from their minimum to their maximum in about
 * `target` bins of a 1-2-5 width (integers with `integral`), or of equal
 * ratio when the samples are positive and span two decades or more
 * (*logx).  Returns nbins; *edges (nbins + 1) and *counts malloc'd. */
size_t bins_values(const double *v, size_t n, bool integral, size_t target,
                   double **edges, double **counts, bool *logx);
/* The same for a /stats histogram (fixed-width bins, the last one an
 * overflow): bars cover the bins that hold samples, up to the maximum
 * sample, merged to about `target`; *overflow when samples lie past the
 * histogram's range (then the last bar runs from its start to the max). */
size_t bins_hist(const struct rpt_stat *s, size_t target, double **edges,
                 double **counts, bool *logx, bool *overflow);

/* ---- text pieces (html.c, used by the pages and the plots) ---- */

/* S with <, >, & and " escaped (NULL: nothing). */
void html_escape(FILE *f, const char *s);
/* "WHAT: not recorded in this result." (page_run.c) */
void html_missing(FILE *f, const char *what);
/* A number as the page shows it: integers exactly, others to 4 digits. */
void html_num(FILE *f, double v);

/* ---- page pieces (page_run.c, used by page_sweep.c and report.c) ---- */

void html_head(FILE *f, const char *title);
void html_tail(FILE *f);

/* The body of one run's report (config, headline, plots). */
/* IPC over time (x in us; smoothed as on the run page): the number of
 * points. */
size_t run_ipc(const struct rpt_run *r, double **x, double **y);
void page_run(FILE *f, const struct rpt_run *r, const char *title);
/* The run's "Over time" section (page_ts.c). */
void page_ts(FILE *f, const struct rpt_run *r);
/* -1 with err when an option names no axis or value of the sweep. */
int page_sweep(FILE *f, hid_t fid, const char *title, const struct report_opts *o,
               char *err, size_t errlen);

/* The page of the open file fid (named `name` in messages) into f
 * (report.c; the fuzz target's entry): 0, or 2 with err when the file is
 * no uvmsim result or an option names nothing in it. */
int report_page(hid_t fid, const char *name, const struct report_opts *o, FILE *f,
                char *err, size_t errlen);

#endif

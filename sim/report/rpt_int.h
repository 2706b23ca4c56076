/* Internals of the report: reading result files (h5read.c), drawing SVG
 * (svg.c), the run page (page_run.c) and the sweep page (page_sweep.c). */
#ifndef UVMSIM_RPT_INT_H
#define UVMSIM_RPT_INT_H

#include <stdio.h>
#include <hdf5.h>
#include "core/base.h"

/* ---- reading (h5read.c) ---- */

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
/* Histogram: bin i covers [lo + i*width, lo + (i+1)*width); with
 * `overflow` the last bin also holds every larger sample (drawn hatched). */
void svg_hist(FILE *f, const struct svg_plot *p, double lo, double width,
              const double *counts, size_t nbins, bool overflow);
/* Intervals on one time axis, each split at mid into two phases
 * (handling, then migration); the y of an interval is its `height`
 * (e.g. faults), so the plot is a timeline of batch sizes. */
void svg_timeline(FILE *f, const struct svg_plot *p, const double *start,
                  const double *mid, const double *end, const double *height,
                  size_t n, const char *phase1, const char *phase2);
/* One bar per category (sweep comparisons). */
void svg_bars(FILE *f, const struct svg_plot *p, char *const *labels,
              const double *v, size_t n);

/* ---- text pieces (html.c, used by the pages and the plots) ---- */

/* S with <, >, & and " escaped (NULL: nothing). */
void html_escape(FILE *f, const char *s);
/* A number as the page shows it: integers exactly, others to 4 digits. */
void html_num(FILE *f, double v);

/* ---- page pieces (page_run.c, used by page_sweep.c and report.c) ---- */

void html_head(FILE *f, const char *title);
void html_tail(FILE *f);

/* The body of one run's report (config, headline, plots). */
/* IPC per point over time (x in us): the number of points. */
size_t run_ipc(const struct rpt_run *r, double **x, double **y);
void page_run(FILE *f, const struct rpt_run *r, const char *title);
void page_sweep(FILE *f, hid_t fid, const char *title);

#endif

/* A run's "Over time" section: rates and levels from /timeseries.  Rates
 * are differences of the cumulative columns over their time
 * (docs/results.md), so every average below is exact.
 *
 * Epochs and fault batches run on two unrelated clocks: an epoch holds one
 * batch's stall or two, and the per-epoch rates alias into solid bands.
 * The plots shown therefore draw a centred moving average over a window of
 * many batches (docs/report.md, docs/decisions.md); the per-epoch series
 * stay on the page, folded, under "per-epoch (raw) series". */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rpt_int.h"

/* At most this many points per line: longer series are read every k-th
 * row, and a raw rate is then the average over those k epochs. */
#define MAX_POINTS 1000
/* The window: this many mean batch intervals, at least this share of the
 * run, at most RUN_MAX of it; narrower than two epochs: no smoothing. */
#define WIN_BATCHES 16
#define RUN_MIN 100
#define RUN_MAX 10

struct series {
    size_t n;          /* rows */
    double *t;         /* time_ps */
    size_t k, m;       /* stride, points */
    double *x;         /* point times in us */
    double win;        /* moving-average window (ps); 0: raw */
};

static double *col(const struct rpt_run *r, const char *name)
{
    size_t n;
    return rpt_column(r->loc, "timeseries", name, &n);
}

/* The row of point j. */
static size_t at(const struct series *s, size_t j)
{
    size_t i = (j + 1) * s->k - 1;
    return i < s->n ? i : s->n - 1;
}

/* Rows [lo, hi] of the window around row i: lo the last row at or before
 * t - win/2 (lo == SIZE_MAX: the origin t = 0, value 0), hi the first at or
 * after t + win/2 (or the last row).  Both only move forward with i. */
static void window(const struct series *s, size_t i, size_t *lo, size_t *hi)
{
    double a = s->t[i] - s->win / 2, b = s->t[i] + s->win / 2;
    while (*lo + 1 < s->n && (*lo == SIZE_MAX ? s->t[0] : s->t[*lo + 1]) <= a) (*lo)++;
    if (*hi < i) *hi = i;
    while (*hi + 1 < s->n && s->t[*hi] < b) (*hi)++;
}

/* Per-point rate of a cumulative column, d(col) / d(t) * scale: over the
 * point's epochs (raw; the first point's predecessor is t = 0, col = 0) or
 * over its window. */
static double *rate(const struct series *s, const double *c, double scale)
{
    double *y = xcalloc(s->m ? s->m : 1, sizeof *y);
    double pt = 0, pc = 0;
    size_t lo = SIZE_MAX, hi = 0;
    for (size_t j = 0; j < s->m; j++) {
        size_t i = at(s, j);
        if (s->win > 0) {
            window(s, i, &lo, &hi);
            pt = lo == SIZE_MAX ? 0 : s->t[lo];
            pc = lo == SIZE_MAX ? 0 : c[lo];
            i = hi;
        }
        double dt = s->t[i] - pt;
        y[j] = dt > 0 ? (c[i] - pc) / dt * scale : NAN;
        pt = s->t[i];
        pc = c[i];
    }
    return y;
}

/* A level sampled each epoch: as sampled (raw) or the mean of the samples
 * in the point's window. */
static double *level(const struct series *s, const double *c)
{
    double *y = xcalloc(s->m ? s->m : 1, sizeof *y);
    double *sum = NULL;   /* sum[q]: c[0] + ... + c[q - 1] */
    if (s->win > 0) {
        sum = xcalloc(s->n + 1, sizeof *sum);
        for (size_t q = 0; q < s->n; q++) sum[q + 1] = sum[q] + c[q];
    }
    size_t lo = SIZE_MAX, hi = 0;
    for (size_t j = 0; j < s->m; j++) {
        size_t i = at(s, j);
        if (!sum) { y[j] = c[i]; continue; }
        window(s, i, &lo, &hi);
        size_t from = lo == SIZE_MAX ? 0 : lo + 1;
        y[j] = (sum[hi + 1] - sum[from]) / (double)(hi - from + 1);
    }
    free(sum);
    return y;
}

static void series_init(struct series *s)
{
    s->k = (s->n + MAX_POINTS - 1) / MAX_POINTS;
    s->m = (s->n + s->k - 1) / s->k;
    s->x = xcalloc(s->m, sizeof *s->x);
    for (size_t j = 0; j < s->m; j++) s->x[j] = s->t[at(s, j)] / 1e6;
}

/* The window for this run (ps): WIN_BATCHES mean intervals between batch
 * starts, at least 1/RUN_MIN of the run, at most 1/RUN_MAX of it; 0 when
 * that is under two epochs (nothing to smooth). */
static double window_ps(const struct rpt_run *r, const struct series *s, double epoch)
{
    double run = (double)r->sim_time_ps;
    if (!(run > 0)) run = s->t[s->n - 1];
    size_t nb = 0;
    double *start = rpt_column(r->loc, "batches", "start_ps", &nb);
    double w = run / RUN_MIN;
    if (start && nb > 1) {
        double iv = (start[nb - 1] - start[0]) / (double)(nb - 1);
        if (WIN_BATCHES * iv > w) w = WIN_BATCHES * iv;
    }
    free(start);
    if (w > run / RUN_MAX) w = run / RUN_MAX;
    return w >= 2 * epoch ? w : 0;
}

size_t run_ipc(const struct rpt_run *r, double **x, double **y)
{
    struct series s = {0};
    *x = *y = NULL;
    s.t = rpt_column(r->loc, "timeseries", "time_ps", &s.n);
    double *insts = col(r, "gpu.warp_insts");
    if (!s.t || !s.n || !insts || !(r->core_hz > 0)) {
        free(s.t);
        free(insts);
        return 0;
    }
    series_init(&s);
    double epoch = s.t[0];
    rpt_attr_double(r->loc, "config", "sim.epoch", &epoch);
    s.win = window_ps(r, &s, epoch);
    *x = s.x;
    *y = rate(&s, insts, 1e12 / r->core_hz);
    free(s.t);
    free(insts);
    return s.m;
}

/* One set of plots: smoothed (ids ts-*) or raw (ids ts-*-raw). */
static void plots(FILE *f, const struct rpt_run *r, const struct series *s, bool raw)
{
    char id[64], title[160];
    const char *sfx = raw ? "-raw" : "", *per = raw || !(s->win > 0) ? "per epoch" : "moving average";
#define PLOT(var, ttl, xl, yl, name) \
    snprintf(id, sizeof id, "%s%s", name, sfx); \
    snprintf(title, sizeof title, "%s (%s)", ttl, per); \
    struct svg_plot var = { title, xl, yl, id }

    double *insts = col(r, "gpu.warp_insts");
    if (insts && r->core_hz > 0) {
        /* ps -> cycles: cycles = ps * hz / 1e12. */
        double *y = rate(s, insts, 1e12 / r->core_hz);
        struct svg_series ser = { "", y, NULL, 0 };
        PLOT(p, "IPC", "simulated time (us)", "warp insts / core cycle", "ts-ipc");
        svg_lines(f, &p, s->x, s->m, &ser, 1);
        free(y);
    } else if (!raw) html_missing(f, "IPC (gpu.warp_insts, gpu.clock)");
    free(insts);

    double *fa = col(r, "gmmu.faults"), *fe = col(r, "driver.faults");
    if (fa) {
        double *y1 = rate(s, fa, 1e6), *y2 = fe ? rate(s, fe, 1e6) : NULL;
        struct svg_series ser[2] = { { "logged (GMMU)", y1, NULL, 0 }, { "fetched (driver)", y2, NULL, 0 } };
        PLOT(p, "Far faults", "simulated time (us)", "faults per us", "ts-faults");
        svg_lines(f, &p, s->x, s->m, ser, y2 ? 2 : 1);
        free(y1);
        free(y2);
    } else if (!raw) html_missing(f, "faults (gmmu.faults)");
    free(fa);
    free(fe);

    /* A level that moves slowly: drawn as sampled, in the raw set only
     * when smoothing is off. */
    double *res = raw ? NULL : col(r, "driver.resident_pages");
    if (res) {
        struct series one = *s;
        one.win = 0;
        double *y = level(&one, res), cap = rpt_value(r, "driver.capacity_pages");
        double *c = xcalloc(s->m, sizeof *c);
        for (size_t j = 0; j < s->m; j++) c[j] = cap;
        struct svg_series ser[2] = { { "resident", y, NULL, 0 }, { "capacity", c, NULL, 0 } };
        struct svg_plot p = { "Resident pages (GPU frames in use, at each sample)", "simulated time (us)",
                              "driver pages", "ts-resident" };
        svg_lines(f, &p, s->x, s->m, ser, isnan(cap) ? 1 : 2);
        free(y);
        free(c);
    } else if (!raw) html_missing(f, "resident pages (driver.resident_pages)");
    free(res);

    double *h2d = col(r, "link.h2d.bytes"), *d2h = col(r, "link.d2h.bytes");
    if (h2d && d2h) {
        /* bytes/ps -> GB/s (1e9 bytes): * 1e12 / 1e9. */
        double *y1 = rate(s, h2d, 1e3), *y2 = rate(s, d2h, 1e3);
        struct svg_series ser[2] = { { "host to GPU", y1, NULL, 0 }, { "GPU to host", y2, NULL, 0 } };
        PLOT(p, "Link bandwidth per direction", "simulated time (us)", "GB/s", "ts-link");
        svg_lines(f, &p, s->x, s->m, ser, 2);
        free(y1);
        free(y2);
    } else if (!raw) html_missing(f, "link bytes (link.h2d.bytes, link.d2h.bytes)");
    free(h2d);
    free(d2h);

    double *occ = col(r, "gmmu.fault_buffer.occupancy");
    if (occ) {
        double *y = level(s, occ);
        struct svg_series ser = { "", y, NULL, 0 };
        PLOT(p, "Fault-buffer occupancy", "simulated time (us)", "entries", "ts-faultbuf");
        svg_lines(f, &p, s->x, s->m, &ser, 1);
        free(y);
    }
    free(occ);

    double *ev = col(r, "driver.evictions");
    if (ev) {
        double *y = rate(s, ev, 1e6);
        struct svg_series ser = { "", y, NULL, 0 };
        PLOT(p, "Evictions", "simulated time (us)", "4 KiB pages per us", "ts-evict");
        svg_lines(f, &p, s->x, s->m, &ser, 1);
        free(y);
    }
    free(ev);
#undef PLOT
}

void page_ts(FILE *f, const struct rpt_run *r)
{
    struct series s = {0};
    s.t = rpt_column(r->loc, "timeseries", "time_ps", &s.n);
    fputs("<h2 id=\"timeseries\">Over time</h2>\n", f);
    if (!s.t || !s.n) {
        free(s.t);
        html_missing(f, "time series");
        return;
    }
    series_init(&s);
    double epoch = s.t[0];
    rpt_attr_double(r->loc, "config", "sim.epoch", &epoch);
    s.win = window_ps(r, &s, epoch);
    fprintf(f, "<p class=\"note\">%zu samples, epoch %.4g us", s.n, epoch / 1e6);
    char *rows = rpt_attr_str(r->loc, "config", "sim.epoch_rows");
    if (rows && !strcmp(rows, "changed"))
        fputs(" (epochs in which only the clock moved are left out but the last of each stretch)", f);
    free(rows);
    if (s.win > 0)
        fprintf(f, ".  Rates are moving averages over a centred window of <span id=\"ts-window\">%.4g</span> us "
                   "(%d mean batch intervals, at least 1/%d and at most 1/%d of the run); levels are the mean "
                   "of the samples in it.  The per-epoch series are folded below the plots",
                s.win / 1e6, WIN_BATCHES, RUN_MIN, RUN_MAX);
    if (s.k > 1) fprintf(f, "; per-epoch rates are averaged over %zu samples per point", s.k);
    fputs(".</p>\n<div class=\"plots\">\n", f);
    plots(f, r, &s, false);
    fputs("</div>\n", f);
    if (s.win > 0) {
        fputs("<details class=\"raw\"><summary>per-epoch (raw) series</summary>\n<div class=\"plots\">\n", f);
        struct series raw = s;
        raw.win = 0;
        plots(f, r, &raw, true);
        fputs("</div>\n</details>\n", f);
    }
    free(s.t);
    free(s.x);
}

/* The report of one run: what ran (status, config), the headline figures,
 * time series per epoch, the fault batches, eviction and residency, the
 * kernels, and every statistic.  Rates come from the cumulative time
 * series (docs/results.md): the difference of two rows over their time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rpt_int.h"

/* At most this many points per line: longer series are read every k-th
 * row, and a rate is then the average over those k epochs (exact: the
 * columns are cumulative). */
#define MAX_POINTS 1000

void html_head(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    html_escape(f, title);
    fputs("</title>\n<style>\n"
          "body{font-family:sans-serif;margin:1.5em auto;max-width:1580px;padding:0 1em;color:#222}\n"
          "h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.6em}\n"
          "table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ddd;padding:2px 8px;text-align:left}\n"
          "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
          ".plots{display:flex;flex-wrap:wrap;gap:10px}.plots svg{border:1px solid #eee}\n"
          "pre{background:#f7f7f7;padding:.6em;max-height:28em;overflow:auto;font-size:.85em}\n"
          ".note{color:#666;font-size:.9em}\n"
          "</style>\n</head>\n<body>\n", f);
}

void html_tail(FILE *f)
{
    fputs("</body>\n</html>\n", f);
}

/* ---- headline ---- */

struct headline { const char *stat, *label, *unit; double scale; };

static const struct headline heads[] = {
    { "gpu.warp_insts", "warp instructions", "", 1 },
    { "gpu.ipc", "IPC (warp instructions per core cycle)", "", 1 },
    { "gpu.cycles", "core cycles", "", 1 },
    { "gpu.kernels", "kernels", "", 1 },
    { "gmmu.faults", "far faults logged", "", 1 },
    { "driver.faults", "fault-buffer entries fetched", "", 1 },
    { "driver.batches", "fault batches", "", 1 },
    { "driver.pages_migrated", "4 KiB pages migrated to the GPU", "", 1 },
    { "driver.pages_prefetched", "pages prefetched", "", 1 },
    { "driver.evictions", "4 KiB pages evicted", "", 1 },
    { "driver.writebacks", "pages written back", "", 1 },
    { "tlb.shootdowns", "TLB shootdowns", "", 1 },
    { "link.h2d.bytes", "link host-to-GPU", "MiB", 1.0 / 1048576 },
    { "link.d2h.bytes", "link GPU-to-host", "MiB", 1.0 / 1048576 },
    { "gpu.stall.fault", "warp cycles stalled on faults", "", 1 },
};

static void row(FILE *f, const char *label, double v, const char *unit)
{
    fputs("<tr><td>", f);
    html_escape(f, label);
    fputs("</td><td class=\"n\">", f);
    html_num(f, v);
    fputs("</td><td>", f);
    html_escape(f, unit);
    fputs("</td></tr>\n", f);
}

static double ratio(const struct rpt_run *r, const char *a, const char *b)
{
    double x = rpt_value(r, a), y = rpt_value(r, b);
    return x + y > 0 ? x / (x + y) : NAN;
}

static void headline(FILE *f, const struct rpt_run *r)
{
    fputs("<h2 id=\"headline\">Headline</h2>\n<table class=\"headline\">\n", f);
    row(f, "simulated time", (double)r->sim_time_ps / 1e6, "us");
    row(f, "engine events", (double)r->events, "");
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        double v = rpt_value(r, heads[i].stat);
        if (!isnan(v)) row(f, heads[i].label, v * heads[i].scale, heads[i].unit);
    }
    double l1 = ratio(r, "tlb.l1.hits", "tlb.l1.misses"), l2 = ratio(r, "tlb.l2.hits", "tlb.l2.misses");
    if (!isnan(l1)) row(f, "L1 TLB hit rate", l1, "");
    if (!isnan(l2)) row(f, "L2 TLB hit rate", l2, "");
    fputs("</table>\n", f);
}

/* ---- time series ---- */

struct series {
    size_t n;          /* rows */
    double *t;         /* time_ps */
    size_t k, m;       /* stride, points */
    double *x;         /* point times in us */
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

/* Per-point rate of a cumulative column: d(col) / d(t) * scale, where the
 * first point's predecessor is (t=0, col=0). */
static double *rate(const struct series *s, const double *c, double scale)
{
    double *y = xcalloc(s->m ? s->m : 1, sizeof *y);
    double pt = 0, pc = 0;
    for (size_t j = 0; j < s->m; j++) {
        size_t i = at(s, j);
        double dt = s->t[i] - pt;
        y[j] = dt > 0 ? (c[i] - pc) / dt * scale : NAN;
        pt = s->t[i];
        pc = c[i];
    }
    return y;
}

static double *level(const struct series *s, const double *c)
{
    double *y = xcalloc(s->m ? s->m : 1, sizeof *y);
    for (size_t j = 0; j < s->m; j++) y[j] = c[at(s, j)];
    return y;
}

static void missing(FILE *f, const char *what)
{
    fputs("<p class=\"note\">", f);
    html_escape(f, what);
    fputs(": not recorded in this result.</p>\n", f);
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
    s.k = (s.n + MAX_POINTS - 1) / MAX_POINTS;
    s.m = (s.n + s.k - 1) / s.k;
    *x = xcalloc(s.m, sizeof **x);
    for (size_t j = 0; j < s.m; j++) (*x)[j] = s.t[at(&s, j)] / 1e6;
    *y = rate(&s, insts, 1e12 / r->core_hz);
    free(s.t);
    free(insts);
    return s.m;
}

static void ts_plots(FILE *f, const struct rpt_run *r)
{
    struct series s = {0};
    s.t = rpt_column(r->loc, "timeseries", "time_ps", &s.n);
    fputs("<h2 id=\"timeseries\">Over time</h2>\n", f);
    if (!s.t || !s.n) {
        free(s.t);
        missing(f, "time series");
        return;
    }
    s.k = (s.n + MAX_POINTS - 1) / MAX_POINTS;
    s.m = (s.n + s.k - 1) / s.k;
    s.x = xcalloc(s.m, sizeof *s.x);
    for (size_t j = 0; j < s.m; j++) s.x[j] = s.t[at(&s, j)] / 1e6;
    double epoch = s.n ? s.t[0] : 0.0;
    rpt_attr_double(r->loc, "config", "sim.epoch", &epoch);
    fprintf(f, "<p class=\"note\">%zu samples, epoch %.4g us", s.n, epoch / 1e6);
    char *rows = rpt_attr_str(r->loc, "config", "sim.epoch_rows");
    if (rows && !strcmp(rows, "changed"))
        fputs(" (epochs in which only the clock moved are left out but the last of each stretch)", f);
    free(rows);
    if (s.k > 1) fprintf(f, "; rates averaged over %zu samples per point", s.k);
    fputs(".</p>\n<div class=\"plots\">\n", f);

    double *insts = col(r, "gpu.warp_insts");
    if (insts && r->core_hz > 0) {
        /* ps -> cycles: cycles = ps * hz / 1e12. */
        double *y = rate(&s, insts, 1e12 / r->core_hz);
        struct svg_series ser = { "", y, NULL, 0 };
        struct svg_plot p = { "IPC per epoch", "simulated time (us)", "warp insts / core cycle", "ts-ipc" };
        svg_lines(f, &p, s.x, s.m, &ser, 1);
        free(y);
    } else missing(f, "IPC (gpu.warp_insts, gpu.clock)");
    free(insts);

    double *fa = col(r, "gmmu.faults"), *fe = col(r, "driver.faults");
    if (fa) {
        double *y1 = rate(&s, fa, 1e6), *y2 = fe ? rate(&s, fe, 1e6) : NULL;
        struct svg_series ser[2] = { { "logged (GMMU)", y1, NULL, 0 }, { "fetched (driver)", y2, NULL, 0 } };
        struct svg_plot p = { "Far faults", "simulated time (us)", "faults per us", "ts-faults" };
        svg_lines(f, &p, s.x, s.m, ser, y2 ? 2 : 1);
        free(y1);
        free(y2);
    } else missing(f, "faults (gmmu.faults)");
    free(fa);
    free(fe);

    double *res = col(r, "driver.resident_pages");
    if (res) {
        double *y = level(&s, res), cap = rpt_value(r, "driver.capacity_pages");
        double *c = xcalloc(s.m, sizeof *c);
        for (size_t j = 0; j < s.m; j++) c[j] = cap;
        struct svg_series ser[2] = { { "resident", y, NULL, 0 }, { "capacity", c, NULL, 0 } };
        struct svg_plot p = { "Resident pages (GPU frames in use)", "simulated time (us)",
                              "driver pages", "ts-resident" };
        svg_lines(f, &p, s.x, s.m, ser, isnan(cap) ? 1 : 2);
        free(y);
        free(c);
    } else missing(f, "resident pages (driver.resident_pages)");
    free(res);

    double *h2d = col(r, "link.h2d.bytes"), *d2h = col(r, "link.d2h.bytes");
    if (h2d && d2h) {
        /* bytes/ps -> GB/s (1e9 bytes): * 1e12 / 1e9. */
        double *y1 = rate(&s, h2d, 1e3), *y2 = rate(&s, d2h, 1e3);
        struct svg_series ser[2] = { { "host to GPU", y1, NULL, 0 }, { "GPU to host", y2, NULL, 0 } };
        struct svg_plot p = { "Link bandwidth per direction", "simulated time (us)", "GB/s", "ts-link" };
        svg_lines(f, &p, s.x, s.m, ser, 2);
        free(y1);
        free(y2);
    } else missing(f, "link bytes (link.h2d.bytes, link.d2h.bytes)");
    free(h2d);
    free(d2h);

    double *occ = col(r, "gmmu.fault_buffer.occupancy");
    if (occ) {
        double *y = level(&s, occ);
        struct svg_series ser = { "", y, NULL, 0 };
        struct svg_plot p = { "Fault-buffer occupancy (at each sample)", "simulated time (us)",
                              "entries", "ts-faultbuf" };
        svg_lines(f, &p, s.x, s.m, &ser, 1);
        free(y);
    }
    free(occ);

    double *ev = col(r, "driver.evictions");
    if (ev) {
        double *y = rate(&s, ev, 1e6);
        struct svg_series ser = { "", y, NULL, 0 };
        struct svg_plot p = { "Evictions", "simulated time (us)", "4 KiB pages per us", "ts-evict" };
        svg_lines(f, &p, s.x, s.m, &ser, 1);
        free(y);
    }
    free(ev);
    fputs("</div>\n", f);
    free(s.t);
    free(s.x);
}

/* ---- batches ---- */

/* A histogram of values into about `bins` bins of a 1-2-5 width (integer
 * widths when integral is set). */
static void value_hist(FILE *f, const struct svg_plot *p, const double *v, size_t n,
                       size_t bins, bool integral)
{
    double hi = 0;
    for (size_t i = 0; i < n; i++) if (v[i] > hi) hi = v[i];
    double w = hi > 0 ? hi / (double)bins : 1;
    double mag = pow(10, floor(log10(w))), norm = w / mag;
    w = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * mag;
    if (integral && w < 1) w = 1;
    size_t nb = (size_t)floor(hi / w) + 1;
    double *c = xcalloc(nb, sizeof *c);
    for (size_t i = 0; i < n; i++) {
        size_t b = (size_t)floor(v[i] / w);
        c[b < nb ? b : nb - 1] += 1;
    }
    svg_hist(f, p, 0, w, c, nb, false);
    free(c);
}

static void batch_plots(FILE *f, const struct rpt_run *r)
{
    fputs("<h2 id=\"batches\">Fault batches</h2>\n", f);
    size_t n = 0;
    double *start = rpt_column(r->loc, "batches", "start_ps", &n);
    double *end = rpt_column(r->loc, "batches", "end_ps", &n);
    double *faults = rpt_column(r->loc, "batches", "faults", &n);
    double *handling = rpt_column(r->loc, "batches", "handling_ps", &n);
    double *evict = rpt_column(r->loc, "batches", "evictions", &n);
    double *pages = rpt_column(r->loc, "batches", "pages", &n);
    if (!start || !end || !faults || !handling) {
        missing(f, "batch table (/batches)");
    } else {
        double *mid = xcalloc(n ? n : 1, sizeof *mid), *dur = xcalloc(n ? n : 1, sizeof *dur);
        double sum = 0;
        for (size_t i = 0; i < n; i++) {
            start[i] /= 1e6;
            end[i] /= 1e6;
            mid[i] = start[i] + handling[i] / 1e6;
            if (mid[i] > end[i]) mid[i] = end[i];
            dur[i] = end[i] - start[i];
            sum += dur[i];
        }
        fprintf(f, "<p class=\"note\">%zu batches; mean time %.4g us.  A batch runs from its "
                   "fetch to its last page landing: the fault-handling part (fetch, preprocess, "
                   "per-block service) then the migration part (copies until the last landing).</p>\n",
                n, n ? sum / (double)n : 0.0);
        fputs("<div class=\"plots\">\n", f);
        struct svg_plot p = { "Batch timeline (height: faults fetched)", "simulated time (us)",
                              "faults", "batch-timeline" };
        svg_timeline(f, &p, start, mid, end, faults, n, "handling", "migration");
        struct svg_plot p2 = { "Batch size", "faults per batch", "batches", "batch-size" };
        value_hist(f, &p2, faults, n, 40, true);
        struct svg_plot p3 = { "Batch time", "fetch to last landing (us)", "batches", "batch-time" };
        value_hist(f, &p3, dur, n, 40, false);
        if (pages) {
            struct svg_plot p4 = { "Pages per batch", "unique driver pages per batch", "batches",
                                   "batch-pages" };
            value_hist(f, &p4, pages, n, 40, true);
        }
        if (evict) {
            struct svg_plot p5 = { "Evictions per batch", "4 KiB pages evicted by the batch", "batches",
                                   "batch-evictions" };
            value_hist(f, &p5, evict, n, 40, true);
        }
        fputs("</div>\n", f);
        free(mid);
        free(dur);
    }
    free(start); free(end); free(faults); free(handling); free(evict); free(pages);
}

static void stat_hist_plot(FILE *f, const struct rpt_run *r, const char *name,
                           const char *title, const char *xlabel, const char *id)
{
    const struct rpt_stat *s = rpt_stat(r, name);
    if (!s || strcmp(s->kind, "histogram") || !s->n) return;
    struct svg_plot p = { title, xlabel, "samples", id };
    svg_hist(f, &p, 0, s->bin_width, s->v, s->n, true);
}

static void residency(FILE *f, const struct rpt_run *r)
{
    fputs("<h2 id=\"eviction\">Eviction and residency</h2>\n", f);
    const struct rpt_stat *s = rpt_stat(r, "driver.residency_us");
    if (!s) { missing(f, "residency histogram (driver.residency_us)"); return; }
    fprintf(f, "<p class=\"note\">%.0f evicted pages; mean residency %.4g us, longest %.0f us.</p>\n",
            s->count, s->count > 0 ? s->sum / s->count : 0.0, s->max);
    fputs("<div class=\"plots\">\n", f);
    stat_hist_plot(f, r, "driver.residency_us", "Residency of evicted pages (mapping to eviction)",
                   "us", "hist-residency");
    stat_hist_plot(f, r, "driver.batch_faults", "Fault-buffer entries per batch (driver histogram)",
                   "faults", "hist-batch-faults");
    stat_hist_plot(f, r, "gmmu.walk_latency", "Page-walk latency", "core cycles", "hist-walk");
    fputs("</div>\n", f);
}

/* ---- tables ---- */

static void kernels(FILE *f, const struct rpt_run *r)
{
    size_t n = 0, m = 0;
    char **name = rpt_str_column(r->loc, "kernels", "name", &n);
    double *s = rpt_column(r->loc, "kernels", "start_ps", &m);
    double *e = rpt_column(r->loc, "kernels", "end_ps", &m);
    double *wi = rpt_column(r->loc, "kernels", "warp_insts", &m);
    double *occ = rpt_column(r->loc, "kernels", "occupancy", &m);
    if (name && s && e && wi && n) {
        fputs("<h2 id=\"kernels\">Kernels</h2>\n<table>\n<tr><th>kernel</th><th>start (us)</th>"
              "<th>end (us)</th><th>warp instructions</th><th>occupancy</th></tr>\n", f);
        for (size_t i = 0; i < n; i++) {
            fputs("<tr><td>", f);
            html_escape(f, name[i]);
            fprintf(f, "</td><td class=\"n\">%.3f</td><td class=\"n\">%.3f</td><td class=\"n\">",
                    s[i] / 1e6, e[i] / 1e6);
            html_num(f, wi[i]);
            fputs("</td><td class=\"n\">", f);
            html_num(f, occ ? occ[i] : NAN);
            fputs("</td></tr>\n", f);
        }
        fputs("</table>\n", f);
    }
    rpt_str_free(name, n);
    free(s); free(e); free(wi); free(occ);
}

static void all_stats(FILE *f, const struct rpt_run *r)
{
    fputs("<h2 id=\"stats\">Every statistic</h2>\n<details><summary>", f);
    fprintf(f, "%zu statistics (scalars, vectors and histograms: count / mean)</summary>\n", r->nstats);
    fputs("<table>\n<tr><th>name</th><th>value</th><th>unit</th><th>description</th></tr>\n", f);
    for (size_t i = 0; i < r->nstats; i++) {
        const struct rpt_stat *s = &r->stats[i];
        fputs("<tr><td>", f);
        html_escape(f, s->name);
        fputs("</td><td class=\"n\">", f);
        if (!strcmp(s->kind, "histogram")) {
            html_num(f, s->count);
            fputs(" / ", f);
            html_num(f, s->count > 0 ? s->sum / s->count : NAN);
        } else if (s->n == 1) {
            html_num(f, s->v[0]);
        } else {
            for (size_t k = 0; k < s->n && k < 32; k++) {
                if (k) fputs(" ", f);
                html_num(f, s->v[k]);
            }
            if (s->n > 32) fputs(" &hellip;", f);
        }
        fputs("</td><td>", f);
        html_escape(f, s->unit);
        fputs("</td><td>", f);
        html_escape(f, s->desc);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n</details>\n", f);
}

void page_run(FILE *f, const struct rpt_run *r, const char *title)
{
    fputs("<h1>", f);
    html_escape(f, title);
    fputs("</h1>\n<p>", f);
    fputs("status <b>", f);
    html_escape(f, r->status ? r->status : "?");
    fprintf(f, "</b>, seed %llu, %.3f us simulated, uvmsim ", (unsigned long long)r->seed,
            (double)r->sim_time_ps / 1e6);
    html_escape(f, r->version ? r->version : "?");
    fputs("</p>\n<p class=\"note\"><a href=\"#headline\">headline</a> &middot; "
          "<a href=\"#timeseries\">over time</a> &middot; <a href=\"#batches\">batches</a> &middot; "
          "<a href=\"#eviction\">eviction and residency</a> &middot; <a href=\"#config\">config</a> "
          "&middot; <a href=\"#stats\">every statistic</a></p>\n", f);
    headline(f, r);
    ts_plots(f, r);
    batch_plots(f, r);
    residency(f, r);
    kernels(f, r);
    fputs("<h2 id=\"config\">Configuration</h2>\n<details open><summary>the resolved config "
          "(saved as a .yaml file, it runs the same configuration again)</summary>\n<pre>", f);
    html_escape(f, r->yaml ? r->yaml : "(none)");
    fputs("</pre>\n</details>\n", f);
    all_stats(f, r);
}

/* The report of one run: what ran (status, config), the headline figures,
 * time series per epoch, the fault batches, eviction and residency, the
 * kernels, and every statistic.  Rates come from the cumulative time
 * series (docs/results.md): the difference of two rows over their time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rpt_int.h"


void html_head(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    html_escape(f, title);
    fputs("</title>\n<style>\n"
          "body{font-family:sans-serif;margin:1.5em auto;max-width:2400px;padding:0 1em;color:#222}\n"
          "h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;margin-top:1.6em}\n"
          "table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #ddd;padding:2px 8px;text-align:left}\n"
          "td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
          /* Plots share the page's width: as many columns of at least
           * 540 px as fit, each plot scaled to its column (svg.c). */
          ".plots{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(540px,100%),1fr));gap:10px}\n"
          ".plots svg{border:1px solid #eee;width:100%;height:auto;display:block}\n"
          ".scroll{max-height:30em;overflow:auto;border:1px solid #ddd}\n"
          ".scroll th{position:sticky;top:0;background:#f3f3f3}\n"
          "details.raw>summary{cursor:pointer;color:#444;margin:.5em 0}\n"
          "pre{background:#f7f7f7;padding:.6em;max-height:28em;overflow:auto;font-size:.85em}\n"
          ".note{color:#666;font-size:.9em}\n"
          "</style>\n</head>\n<body>\n", f);
}

void html_missing(FILE *f, const char *what)
{
    fputs("<p class=\"note\">", f);
    html_escape(f, what);
    fputs(": not recorded in this result.</p>\n", f);
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

/* ---- batches ---- */

/* A histogram of raw values (a /batches column) over bins from their own
 * range (bins.c). */
static void value_hist(FILE *f, const struct svg_plot *p, const double *v, size_t n,
                       size_t bins, bool integral)
{
    double *e, *c;
    bool logx;
    size_t nb = bins_values(v, n, integral, bins, &e, &c, &logx);
    svg_hist(f, p, e, c, nb, logx, false);
    free(e);
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
        html_missing(f, "batch table (/batches)");
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
        double *mig = xcalloc(n ? n : 1, sizeof *mig);
        for (size_t i = 0; i < n; i++) {
            mid[i] -= start[i];           /* handling time */
            mig[i] = dur[i] - mid[i];
        }
        struct svg_plot p = { "Batch timeline: each batch's time, in batch order", "batch (in order of fetch)",
                              "us", "batch-timeline" };
        svg_stack(f, &p, mid, mig, n, "handling", "migration");
        free(mig);
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
    double *e, *c;
    bool logx, over;
    size_t nb = bins_hist(s, 40, &e, &c, &logx, &over);
    svg_hist(f, &p, e, c, nb, logx, over);
    free(e);
    free(c);
}

static void residency(FILE *f, const struct rpt_run *r)
{
    fputs("<h2 id=\"eviction\">Eviction and residency</h2>\n", f);
    const struct rpt_stat *s = rpt_stat(r, "driver.residency_us");
    if (!s) { html_missing(f, "residency histogram (driver.residency_us)"); return; }
    fprintf(f, "<p class=\"note\">%.0f evicted pages; mean residency %.4g us, longest %.0f us.",
            s->count, s->count > 0 ? s->sum / s->count : 0.0, s->max);
    const struct rpt_stat *wl = rpt_stat(r, "gmmu.walk_latency");
    if (wl && wl->count > 0) {
        fprintf(f, "  %.0f page walks; mean %.4g cycles, longest %.0f", wl->count, wl->sum / wl->count,
                wl->max);
        if (fabs(wl->sum - wl->count * wl->max) < 0.5) fputs(": every walk took as long (a fixed latency)", f);
        fputs(".", f);
    }
    fputs("  Bins span each distribution's own range.</p>\n", f);
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
    page_ts(f, r);
    batch_plots(f, r);
    residency(f, r);
    kernels(f, r);
    fputs("<h2 id=\"config\">Configuration</h2>\n<details open><summary>the resolved config "
          "(saved as a .yaml file, it runs the same configuration again)</summary>\n<pre>", f);
    html_escape(f, r->yaml ? r->yaml : "(none)");
    fputs("</pre>\n</details>\n", f);
    all_stats(f, r);
}

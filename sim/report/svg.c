/* Inline SVG plots for the report: line charts, histograms, a timeline of
 * intervals and category bars.  Plain SVG 1.1 (no script, no CSS beyond
 * presentation attributes), so any browser draws them offline.  Element
 * counts are bounded by the plot's pixel width, not by the data's length:
 * a run with a million batches gives a page of the same size as one with a
 * thousand. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rpt_int.h"

#define W 760
#define H 290
#define ML 78      /* left margin: y tick labels and the y label */
#define MR 16
#define MT 34      /* title and legend */
#define MB 48      /* x tick labels and the x label */
#define PW (W - ML - MR)
#define PH (H - MT - MB)
#define MAX_BINS 120

static const char *const palette[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NPAL (sizeof palette / sizeof palette[0])

/* 1, 2 or 5 times a power of ten: about n ticks over range. */
static double nice_step(double range, int n)
{
    if (!(range > 0)) return 1;
    double raw = range / n, mag = pow(10, floor(log10(raw))), norm = raw / mag;
    return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

struct axis { double lo, hi, step; };

static struct axis axis_of(double lo, double hi, bool from_zero)
{
    if (from_zero && lo > 0) lo = 0;
    if (!(hi > lo)) hi = lo + 1;
    struct axis a;
    a.step = nice_step(hi - lo, 5);
    a.lo = floor(lo / a.step) * a.step;
    a.hi = ceil(hi / a.step) * a.step;
    if (a.hi <= a.lo) a.hi = a.lo + a.step;
    return a;
}

static double px(const struct axis *a, double v) { return ML + (v - a->lo) / (a->hi - a->lo) * PW; }
static double py(const struct axis *a, double v) { return MT + PH - (v - a->lo) / (a->hi - a->lo) * PH; }

static void tick_label(FILE *f, double v, double step)
{
    if (fabs(v) < step * 1e-9) v = 0;
    double a = fabs(v);
    if (a >= 1e6 || (a > 0 && a < 1e-3)) fprintf(f, "%.3g", v);
    else fprintf(f, "%.10g", round(v / step * 1e6) / 1e6 * step);
}

static void open_svg(FILE *f, const struct svg_plot *p)
{
    fprintf(f, "<svg class=\"plot\" id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" "
               "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
               "font-family=\"sans-serif\" font-size=\"11\">\n", p->id, W, H, W, H);
    fputs("<title>", f);
    html_escape(f, p->title);
    fputs("</title>\n", f);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, H);
    fprintf(f, "<text x=\"%d\" y=\"18\" font-size=\"13\" font-weight=\"bold\">", ML);
    html_escape(f, p->title);
    fputs("</text>\n", f);
}

static void axes(FILE *f, const struct svg_plot *p, const struct axis *x, const struct axis *y,
                 bool xticks)
{
    fprintf(f, "<g stroke=\"#ddd\">\n");
    for (double v = y->lo; v <= y->hi + y->step * 1e-6; v += y->step)
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n", ML, ML + PW, py(y, v), py(y, v));
    fputs("</g>\n", f);
    fprintf(f, "<g text-anchor=\"end\">\n");
    for (double v = y->lo; v <= y->hi + y->step * 1e-6; v += y->step) {
        fprintf(f, "<text x=\"%d\" y=\"%.1f\">", ML - 4, py(y, v) + 4);
        tick_label(f, v, y->step);
        fputs("</text>\n", f);
    }
    fputs("</g>\n", f);
    if (xticks) {
        fprintf(f, "<g text-anchor=\"middle\">\n");
        for (double v = x->lo; v <= x->hi + x->step * 1e-6; v += x->step) {
            fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#888\"/>",
                    px(x, v), px(x, v), MT + PH, MT + PH + 4);
            fprintf(f, "<text x=\"%.1f\" y=\"%d\">", px(x, v), MT + PH + 16);
            tick_label(f, v, x->step);
            fputs("</text>\n", f);
        }
        fputs("</g>\n", f);
    }
    fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>\n",
            ML, MT, PW, PH);
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", ML + PW / 2, H - 8);
    html_escape(f, p->xlabel);
    fputs("</text>\n", f);
    fprintf(f, "<text transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">", MT + PH / 2);
    html_escape(f, p->ylabel);
    fputs("</text>\n", f);
}

static void legend(FILE *f, const char *const *labels, const char *const *colors, size_t n)
{
    double x = W - MR;
    for (size_t i = n; i-- > 0;) {
        double w = 7.0 * (double)strlen(labels[i]) + 22;
        x -= w;
        fprintf(f, "<rect x=\"%.1f\" y=\"9\" width=\"12\" height=\"10\" fill=\"%s\"/>", x, colors[i]);
        fprintf(f, "<text x=\"%.1f\" y=\"18\">", x + 16);
        html_escape(f, labels[i]);
        fputs("</text>\n", f);
    }
}

static void no_data(FILE *f)
{
    fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#888\">no data in this run</text>\n",
            ML + PW / 2, MT + PH / 2);
}

void svg_lines(FILE *f, const struct svg_plot *p, const double *x, size_t n,
               const struct svg_series *s, size_t ns)
{
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (size_t k = 0; k < ns; k++) {
        const double *sx = s[k].x ? s[k].x : x;
        size_t sn = s[k].x ? s[k].n : n;
        for (size_t i = 0; i < sn; i++) {
            double v = s[k].y[i];
            if (isnan(v)) continue;
            if (sx[i] < xlo) xlo = sx[i];
            if (sx[i] > xhi) xhi = sx[i];
            if (v < ylo) ylo = v;
            if (v > yhi) yhi = v;
        }
    }
    open_svg(f, p);
    bool any = ylo <= yhi;
    /* x from 0 when all x are positive: simulated time starts at 0. */
    struct axis ax = axis_of(any ? xlo : 0, any ? xhi : 1, true);
    struct axis ay = axis_of(any ? ylo : 0, any ? yhi : 1, true);
    axes(f, p, &ax, &ay, true);
    if (!any) { no_data(f); fputs("</svg>\n", f); return; }
    const char *labels[NPAL], *colors[NPAL];
    for (size_t k = 0; k < ns; k++) {
        const char *c = palette[k % NPAL];
        if (k < NPAL) { labels[k] = s[k].label; colors[k] = c; }
        bool open = false;
        const double *sx = s[k].x ? s[k].x : x;
        size_t sn = s[k].x ? s[k].n : n;
        for (size_t i = 0; i < sn; i++) {
            double v = s[k].y[i];
            if (isnan(v)) {
                if (open) fputs("\"/>\n", f);
                open = false;
                continue;
            }
            if (!open) {
                /* data-x/data-y: the values drawn (what tests and scrapers read). */
                fputs("<polyline data-x=\"", f);
                for (size_t j = i; j < sn && !isnan(s[k].y[j]); j++) fprintf(f, "%s%.6g", j > i ? " " : "", sx[j]);
                fputs("\" data-y=\"", f);
                for (size_t j = i; j < sn && !isnan(s[k].y[j]); j++) fprintf(f, "%s%.6g", j > i ? " " : "", s[k].y[j]);
                fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", c);
            }
            fprintf(f, "%s%.1f,%.1f", open ? " " : "", px(&ax, sx[i]), py(&ay, v));
            open = true;
        }
        if (open) fputs("\"/>\n", f);
    }
    if (ns > 1 || (ns == 1 && s[0].label && s[0].label[0]))
        legend(f, labels, colors, ns < NPAL ? ns : NPAL);
    fputs("</svg>\n", f);
}

void svg_hist(FILE *f, const struct svg_plot *p, double lo, double width,
              const double *counts, size_t nbins, bool overflow)
{
    /* Drop the empty tail (kept: the overflow bin when it holds samples),
     * then merge neighbours down to MAX_BINS bars. */
    size_t last = 0;
    bool any = false;
    for (size_t i = 0; i < nbins; i++) if (counts[i] > 0) { last = i; any = true; }
    size_t body = overflow && nbins ? nbins - 1 : nbins;
    bool show_over = overflow && nbins && counts[nbins - 1] > 0;
    size_t nb = any ? (last < body ? last + 1 : body) : 0;
    size_t k = nb > MAX_BINS ? (nb + MAX_BINS - 1) / MAX_BINS : 1;
    size_t nbars = (nb + k - 1) / k;
    double *bar = xcalloc(nbars + 1, sizeof *bar);
    for (size_t i = 0; i < nb; i++) bar[i / k] += counts[i];
    double over = show_over ? counts[nbins - 1] : 0;
    double ymax = over;
    for (size_t i = 0; i < nbars; i++) if (bar[i] > ymax) ymax = bar[i];
    open_svg(f, p);
    double bw = width * (double)k;
    double xhi = lo + bw * (double)(nbars + (show_over ? 1 : 0));
    struct axis ax = axis_of(lo, any ? xhi : lo + width, false);
    ax.lo = lo;
    ax.hi = any ? xhi : lo + width;
    ax.step = nice_step(ax.hi - ax.lo, 6);
    struct axis ay = axis_of(0, any ? ymax : 1, true);
    axes(f, p, &ax, &ay, true);
    if (!any) no_data(f);
    for (size_t i = 0; i < nbars; i++) {
        if (bar[i] <= 0) continue;
        double x0 = px(&ax, lo + bw * (double)i), x1 = px(&ax, lo + bw * (double)(i + 1));
        double w = x1 - x0 > 1.5 ? x1 - x0 - 0.5 : 1;
        fprintf(f, "<rect data-bin=\"%g\" data-n=\"%.0f\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
                   "height=\"%.1f\" fill=\"%s\"><title>[%g, %g): %.0f</title></rect>\n",
                lo + bw * (double)i, bar[i], x0, py(&ay, bar[i]), w, py(&ay, 0) - py(&ay, bar[i]), palette[0],
                lo + bw * (double)i, lo + bw * (double)(i + 1), bar[i]);
    }
    if (show_over) {
        double from = lo + width * (double)body;
        double x0 = px(&ax, lo + bw * (double)nbars), x1 = px(&ax, xhi);
        fprintf(f, "<rect data-bin=\"%g\" data-n=\"%.0f\" data-overflow=\"1\" x=\"%.1f\" y=\"%.1f\" "
                   "width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>&gt;= %g (overflow): %.0f</title></rect>\n",
                from, over, x0, py(&ay, over), x1 - x0 > 1.5 ? x1 - x0 - 0.5 : 1,
                py(&ay, 0) - py(&ay, over), palette[1], from, over);
        const char *l[] = { "overflow" }, *c[] = { palette[1] };
        legend(f, l, c, 1);
    }
    free(bar);
    fputs("</svg>\n", f);
}

/* Many intervals: per pixel column, the tallest interval in each phase. */
static void timeline_columns(FILE *f, const struct axis *ax, const struct axis *ay,
                             const double *start, const double *mid, const double *end,
                             const double *height, size_t n)
{
    double *h1 = xcalloc(PW, sizeof *h1), *h2 = xcalloc(PW, sizeof *h2);
    for (size_t i = 0; i < n; i++) {
        const double *from[2] = { &start[i], &mid[i] }, *to[2] = { &mid[i], &end[i] };
        double *col[2] = { h1, h2 };
        for (int ph = 0; ph < 2; ph++) {
            long a = (long)floor(px(ax, *from[ph]) - ML), b = (long)floor(px(ax, *to[ph]) - ML);
            if (a < 0) a = 0;
            if (b >= PW) b = PW - 1;
            for (long c = a; c <= b; c++) if (height[i] > col[ph][c]) col[ph][c] = height[i];
        }
    }
    for (int ph = 1; ph >= 0; ph--) {
        double *col = ph ? h2 : h1;
        for (int c = 0; c < PW; c++) {
            if (col[c] <= 0) continue;
            int e = c;
            while (e + 1 < PW && col[e + 1] == col[c]) e++;
            fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"/>\n",
                    ML + c, py(ay, col[c]), e - c + 1, py(ay, 0) - py(ay, col[c]), palette[ph ? 2 : 3]);
            c = e;
        }
    }
    free(h1);
    free(h2);
}

void svg_timeline(FILE *f, const struct svg_plot *p, const double *start,
                  const double *mid, const double *end, const double *height,
                  size_t n, const char *phase1, const char *phase2)
{
    double xlo = INFINITY, xhi = -INFINITY, ymax = 0;
    for (size_t i = 0; i < n; i++) {
        if (start[i] < xlo) xlo = start[i];
        if (end[i] > xhi) xhi = end[i];
        if (height[i] > ymax) ymax = height[i];
    }
    open_svg(f, p);
    struct axis ax = axis_of(n ? xlo : 0, n ? xhi : 1, false);
    struct axis ay = axis_of(0, n ? ymax : 1, true);
    axes(f, p, &ax, &ay, true);
    if (!n) no_data(f);
    if (n > PW / 3) {
        timeline_columns(f, &ax, &ay, start, mid, end, height, n);
    } else {
        for (size_t i = 0; i < n; i++) {
            double y = py(&ay, height[i]), hgt = py(&ay, 0) - y;
            double a = px(&ax, start[i]), b = px(&ax, mid[i]), c = px(&ax, end[i]);
            fprintf(f, "<g><title>batch %zu: %.3f-%.3f us, %s %.3f us, %g</title>", i,
                    start[i], end[i], phase1, mid[i] - start[i], height[i]);
            fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>",
                    a, y, b - a > 0.6 ? b - a : 0.6, hgt, palette[3]);
            if (c > b)
                fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>",
                        b, y, c - b > 0.6 ? c - b : 0.6, hgt, palette[2]);
            fputs("</g>\n", f);
        }
    }
    const char *l[] = { phase1, phase2 }, *c[] = { palette[3], palette[2] };
    legend(f, l, c, 2);
    fputs("</svg>\n", f);
}

void svg_bars(FILE *f, const struct svg_plot *p, char *const *labels,
              const double *v, size_t n)
{
    double ymax = 0, ymin = 0;
    for (size_t i = 0; i < n; i++) {
        if (isnan(v[i])) continue;
        if (v[i] > ymax) ymax = v[i];
        if (v[i] < ymin) ymin = v[i];
    }
    open_svg(f, p);
    struct axis ax = { 0, (double)(n ? n : 1), 1 };
    struct axis ay = axis_of(ymin, ymax > ymin ? ymax : ymin + 1, true);
    axes(f, p, &ax, &ay, false);
    if (!n) no_data(f);
    double slot = (double)PW / (double)(n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        double x = ML + slot * (double)i + slot * 0.15;
        if (!isnan(v[i])) {
            double y0 = py(&ay, 0), y1 = py(&ay, v[i]);
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                       "<title>", x, y1 < y0 ? y1 : y0, slot * 0.7, fabs(y0 - y1), palette[i % NPAL]);
            html_escape(f, labels[i]);
            fprintf(f, ": %g</title></rect>\n", v[i]);
        }
        /* Labels under the bars, slanted when the slots are narrow. */
        double cx = ML + slot * ((double)i + 0.5);
        if (slot >= 90) {
            fprintf(f, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", cx, MT + PH + 14);
        } else {
            fprintf(f, "<text transform=\"translate(%.1f %d) rotate(-25)\" text-anchor=\"end\" "
                       "font-size=\"9\">", cx, MT + PH + 12);
        }
        html_escape(f, labels[i]);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
}

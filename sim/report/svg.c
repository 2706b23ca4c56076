/* Inline SVG plots for the report: line charts, histograms, a timeline of
 * intervals and category bars.  Plain SVG 1.1 (no script, no CSS beyond
 * presentation attributes), so any browser draws them offline.  Element
 * counts are bounded by the plot's pixel width, not by the data's length:
 * a run with a million batches gives a page of the same size as one with a
 * thousand.  This file: the frame every plot shares and line charts;
 * svg_bars.c: histograms and bar charts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rpt_int.h"

const char *const svg_palette[NPAL] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define palette svg_palette

/* 1, 2 or 5 times a power of ten: about n ticks over range. */
double svg_nice_step(double range, int n)
{
    if (!(range > 0)) return 1;
    double raw = range / n, mag = pow(10, floor(log10(raw))), norm = raw / mag;
    return (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
}

/* Non-finite bounds or a span that overflows never reach here from the
 * readers (h5read.c refuses them; svg_lines and bins.c leave such values
 * out); 0..1 is drawn if they do.  hi == lo gets a span of its own size:
 * at -1e23, lo + 1 == lo. */
struct axis svg_axis_of(double lo, double hi, bool from_zero)
{
    if (!isfinite(lo) || !isfinite(hi) || !isfinite(hi - lo)) lo = 0, hi = 1;
    if (from_zero && lo > 0) lo = 0;
    if (!(hi > lo)) hi = lo + fmax(1, fabs(lo) * 0.01);
    struct axis a;
    a.step = svg_nice_step(hi - lo, 5);
    a.lo = floor(lo / a.step) * a.step;
    a.hi = ceil(hi / a.step) * a.step;
    if (a.hi <= a.lo) a.hi = a.lo + a.step;
    if (!(a.hi > a.lo) || !isfinite(a.hi - a.lo)) a = (struct axis){ 0, 1, 0.2 };
    return a;
}

/* Ticks at lo, lo + step, ... up to hi, counted before the first is drawn:
 * a step that does not move v (lo + step == lo) or an infinite one can
 * then not loop (issue 38 R1).  0: none. */
#define MAX_TICKS 64
static size_t tick_count(const struct axis *a)
{
    if (!isfinite(a->lo) || !isfinite(a->hi) || !(a->step > 0) || !isfinite(a->step)) return 0;
    double k = floor((a->hi - a->lo) / a->step + 1e-6);
    if (!(k >= 0 && k < MAX_TICKS)) return 0;
    if (a->lo + a->step == a->lo) return 1;
    return (size_t)k + 1;
}

double svg_px(const struct axis *a, double v) { return ML + (v - a->lo) / (a->hi - a->lo) * PW; }
double svg_py(const struct axis *a, double v) { return MT + PH - (v - a->lo) / (a->hi - a->lo) * PH; }

void svg_tick(FILE *f, double v, double step)
{
    if (fabs(v) < step * 1e-9) v = 0;
    double a = fabs(v);
    if (a >= 1e6 || (a > 0 && a < 1e-3)) fprintf(f, "%.3g", v);
    else fprintf(f, "%.10g", round(v / step * 1e6) / 1e6 * step);
}

/* The width of the open plot's title (px, estimated), where a legend's
 * first row must stop. */
static double title_w;

/* width 100% with a viewBox: the plot scales to its column of the page's
 * grid (html_head), keeping its aspect ratio and its text legible. */
void svg_open(FILE *f, const struct svg_plot *p)
{
    fprintf(f, "<svg class=\"plot\" id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" "
               "width=\"100%%\" viewBox=\"0 0 %d %d\" preserveAspectRatio=\"xMidYMid meet\" "
               "role=\"img\" font-family=\"sans-serif\" font-size=\"11\">\n", p->id, W, H);
    fputs("<title>", f);
    html_escape(f, p->title);
    fputs("</title>\n", f);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, H);
    title_w = 7.6 * (double)strlen(p->title ? p->title : "");
    fprintf(f, "<text x=\"%d\" y=\"18\" font-size=\"13\" font-weight=\"bold\">", ML);
    html_escape(f, p->title);
    fputs("</text>\n", f);
}

void svg_axes(FILE *f, const struct svg_plot *p, const struct axis *x, const struct axis *y,
                 bool xticks)
{
    size_t ny = tick_count(y), nx = tick_count(x);
    fprintf(f, "<g stroke=\"#ddd\">\n");
    for (size_t i = 0; i < ny; i++) {
        double v = y->lo + y->step * (double)i;
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/>\n", ML, ML + PW, svg_py(y, v), svg_py(y, v));
    }
    fputs("</g>\n", f);
    fprintf(f, "<g text-anchor=\"end\">\n");
    for (size_t i = 0; i < ny; i++) {
        double v = y->lo + y->step * (double)i;
        fprintf(f, "<text x=\"%d\" y=\"%.1f\">", ML - 4, svg_py(y, v) + 4);
        svg_tick(f, v, y->step);
        fputs("</text>\n", f);
    }
    fputs("</g>\n", f);
    if (xticks) {
        fprintf(f, "<g text-anchor=\"middle\">\n");
        for (size_t i = 0; i < nx; i++) {
            double v = x->lo + x->step * (double)i;
            fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#888\"/>",
                    svg_px(x, v), svg_px(x, v), MT + PH, MT + PH + 4);
            fprintf(f, "<text x=\"%.1f\" y=\"%d\">", svg_px(x, v), MT + PH + 16);
            svg_tick(f, v, x->step);
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

/* Entries right-aligned: on the title's row when they fit beside it, else
 * in rows under it (the first inside the top margin). */
void svg_legend(FILE *f, const char *const *labels, const char *const *colors, size_t n)
{
    double total = 0;
    for (size_t i = 0; i < n; i++) total += 5.6 * (double)strlen(labels[i]) + 19;
    bool beside = total <= W - MR - ML - title_w - 12;
    double x = W - MR, y = beside ? 9 : 22;
    double *ex = xcalloc(n ? n : 1, sizeof *ex), *ey = xcalloc(n ? n : 1, sizeof *ey);
    for (size_t i = n; i-- > 0;) {
        double w = 5.6 * (double)strlen(labels[i]) + 19;
        if (x - w < ML && x < W - MR) { x = W - MR; y += 12; }
        x -= w;
        ex[i] = x;
        ey[i] = y;
    }
    /* Written in the labels' order (what a reader of the page sees first). */
    fputs("<g class=\"legend\">", f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"9\" fill=\"%s\"/>", ex[i], ey[i],
                colors[i]);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\">", ex[i] + 13, ey[i] + 8.5);
        html_escape(f, labels[i]);
        fputs("</text>\n", f);
    }
    fputs("</g>\n", f);
    free(ex);
    free(ey);
}

void svg_no_data(FILE *f)
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
            if (!isfinite(v) || !isfinite(sx[i])) continue;
            if (sx[i] < xlo) xlo = sx[i];
            if (sx[i] > xhi) xhi = sx[i];
            if (v < ylo) ylo = v;
            if (v > yhi) yhi = v;
        }
    }
    svg_open(f, p);
    /* A span past the largest double (values near +-1e308) cannot be
     * drawn: "no data", as for none. */
    bool any = ylo <= yhi && isfinite(xhi - xlo) && isfinite(yhi - ylo);
    /* x from 0 when all x are positive: simulated time starts at 0. */
    struct axis ax = svg_axis_of(any ? xlo : 0, any ? xhi : 1, true);
    struct axis ay = svg_axis_of(any ? ylo : 0, any ? yhi : 1, true);
    svg_axes(f, p, &ax, &ay, true);
    if (!any) { svg_no_data(f); fputs("</svg>\n", f); return; }
    const char *labels[NPAL], *colors[NPAL];
    for (size_t k = 0; k < ns; k++) {
        const char *c = palette[k % NPAL];
        if (k < NPAL) { labels[k] = s[k].label; colors[k] = c; }
        bool open = false;
        const double *sx = s[k].x ? s[k].x : x;
        size_t sn = s[k].x ? s[k].n : n;
        for (size_t i = 0; i < sn; i++) {
            double v = s[k].y[i];
            if (!isfinite(v) || !isfinite(sx[i])) {      /* a gap, as NaN */
                if (open) fputs("\"/>\n", f);
                open = false;
                continue;
            }
            if (!open) {
                /* data-x/data-y: the values drawn (what tests and scrapers read). */
                fputs("<polyline data-x=\"", f);
                for (size_t j = i; j < sn && isfinite(s[k].y[j]) && isfinite(sx[j]); j++)
                    fprintf(f, "%s%.6g", j > i ? " " : "", sx[j]);
                fputs("\" data-y=\"", f);
                for (size_t j = i; j < sn && isfinite(s[k].y[j]) && isfinite(sx[j]); j++)
                    fprintf(f, "%s%.6g", j > i ? " " : "", s[k].y[j]);
                fprintf(f, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", c);
            }
            fprintf(f, "%s%.1f,%.1f", open ? " " : "", svg_px(&ax, sx[i]), svg_py(&ay, v));
            open = true;
        }
        if (open) fputs("\"/>\n", f);
    }
    if (ns > 1 || (ns == 1 && s[0].label && s[0].label[0]))
        svg_legend(f, labels, colors, ns < NPAL ? ns : NPAL);
    fputs("</svg>\n", f);
}

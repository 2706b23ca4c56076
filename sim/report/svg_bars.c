/* Bars for the report: histograms over bins of their own (linear or log x),
 * per-item stacked bars (the batch timeline) and grouped bars (sweep
 * comparisons).  The frame (margins, axes, legend) is svg.c's.  Element
 * counts stay bounded: at most MAX_STACK stacked bars, whatever n. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rpt_int.h"

#define MAX_STACK 200

/* x ticks of a log10 axis: 1, 2 and 5 times each power of ten in range
 * (only the powers when the range spans more than three decades). */
static void log_ticks(FILE *f, const struct axis *ax)
{
    static const double mult[] = { 1, 2, 5 };
    bool sparse = ax->hi - ax->lo > 3;
    fputs("<g text-anchor=\"middle\">\n", f);
    /* Decades counted up front (a finite double spans at most 633). */
    double d0 = floor(ax->lo), nd = floor(ax->hi) - d0 + 1;
    if (!(nd >= 1 && nd <= 700)) nd = 0;
    for (size_t k = 0; k < (size_t)nd; k++) {
        double d = d0 + (double)k;
        for (size_t m = 0; m < (sparse ? 1 : 3); m++) {
            double v = mult[m] * pow(10, d), lv = log10(v);
            if (lv < ax->lo - 1e-9 || lv > ax->hi + 1e-9) continue;
            double x = svg_px(ax, lv);
            fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#888\"/>",
                    x, x, MT + PH, MT + PH + 4);
            fprintf(f, "<text x=\"%.1f\" y=\"%d\">%g</text>\n", x, MT + PH + 16, v);
        }
    }
    fputs("</g>\n", f);
}

void svg_hist(FILE *f, const struct svg_plot *p, const double *edges,
              const double *counts, size_t nbins, bool logx, bool overflow)
{
    double ymax = 0;
    for (size_t i = 0; i < nbins; i++) if (counts[i] > ymax) ymax = counts[i];
    bool any = nbins > 0 && ymax > 0 && isfinite(ymax) && isfinite(edges[0]) &&
               isfinite(edges[nbins]) && isfinite(edges[nbins] - edges[0]);
    logx = logx && any && edges[0] > 0;
    svg_open(f, p);
    struct axis ax;
    if (!any) {
        ax = svg_axis_of(0, 1, true);
    } else if (logx) {
        ax.lo = log10(edges[0]);
        ax.hi = log10(edges[nbins]);
        ax.step = 1;
    } else {
        /* Round ticks around the data's own range; one bar (every sample
         * the same) gets room on either side. */
        double lo = edges[0], hi = edges[nbins], d = hi - lo;
        if (nbins == 1) {
            lo = lo >= 0 && lo - 4 * d < 0 ? 0 : lo - 4 * d;
            hi += 4 * d;
        }
        if (!isfinite(hi - lo) || !(hi > lo)) {
            ax = svg_axis_of(lo, hi, false);
        } else {
            ax.step = svg_nice_step(hi - lo, 6);
            ax.lo = floor(lo / ax.step) * ax.step;
            ax.hi = ceil(hi / ax.step) * ax.step;
            if (ax.hi <= ax.lo) ax = svg_axis_of(lo, hi, false);
        }
    }
    struct axis ay = svg_axis_of(0, any ? ymax : 1, true);
    svg_axes(f, p, &ax, &ay, !logx);
    if (logx) log_ticks(f, &ax);
    if (!any) svg_no_data(f);
    for (size_t i = 0; any && i < nbins; i++) {
        if (counts[i] <= 0) continue;
        double a = edges[i], b = edges[i + 1];
        double x0 = svg_px(&ax, logx ? log10(a) : a), x1 = svg_px(&ax, logx ? log10(b) : b);
        bool over = overflow && i + 1 == nbins;
        fprintf(f, "<rect data-bin=\"%.6g\" data-hi=\"%.6g\" data-n=\"%.0f\"%s x=\"%.1f\" y=\"%.1f\" "
                   "width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>[%.6g, %.6g)%s: %.0f</title></rect>\n",
                a, b, counts[i], over ? " data-overflow=\"1\"" : "", x0, svg_py(&ay, counts[i]),
                x1 - x0 > 1.5 ? x1 - x0 - 0.5 : 1, svg_py(&ay, 0) - svg_py(&ay, counts[i]),
                svg_palette[over ? 1 : 0], a, b, over ? " past the histogram's range" : "", counts[i]);
    }
    if (logx) {
        fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#666\">log scale</text>\n",
                W - MR, H - 8);
    }
    if (overflow && any) {
        const char *l[] = { "past the histogram's range (to the max)" }, *c[] = { svg_palette[1] };
        svg_legend(f, l, c, 1);
    }
    fputs("</svg>\n", f);
}

void svg_stack(FILE *f, const struct svg_plot *p, const double *a, const double *b,
               size_t n, const char *la, const char *lb)
{
    size_t k = n > MAX_STACK ? (n + MAX_STACK - 1) / MAX_STACK : 1;
    size_t nbars = (n + k - 1) / k;
    double *ma = xcalloc(nbars ? nbars : 1, sizeof *ma), *mb = xcalloc(nbars ? nbars : 1, sizeof *mb);
    double *mx = xcalloc(nbars ? nbars : 1, sizeof *mx);
    double ymax = 0;
    for (size_t j = 0; j < nbars; j++) {
        size_t lo = j * k, hi = lo + k < n ? lo + k : n, used = 0;
        for (size_t i = lo; i < hi; i++) {
            /* Non-finite items (none from uvmsim) are left out; running
             * means cannot overflow where a sum of 1e308s would. */
            if (!isfinite(a[i]) || !isfinite(b[i]) || !isfinite(a[i] + b[i])) continue;
            used++;
            ma[j] += (a[i] - ma[j]) / (double)used;
            mb[j] += (b[i] - mb[j]) / (double)used;
            if (a[i] + b[i] > mx[j]) mx[j] = a[i] + b[i];
        }
        if (!isfinite(ma[j] + mb[j])) ma[j] = mb[j] = 0;
        if (mx[j] > ymax) ymax = mx[j];
    }
    svg_open(f, p);
    /* x: the batch index, so hundreds of batches get equal room whatever
     * the gaps between them. */
    struct axis ax = svg_axis_of(0, n ? (double)n : 1, true);
    ax.hi = n ? (double)n : 1;
    struct axis ay = svg_axis_of(0, ymax > 0 ? ymax : 1, true);
    svg_axes(f, p, &ax, &ay, true);
    if (!n) svg_no_data(f);
    for (size_t j = 0; j < nbars; j++) {
        size_t lo = j * k, hi = lo + k < n ? lo + k : n;
        double x0 = svg_px(&ax, (double)lo), x1 = svg_px(&ax, (double)hi);
        double w = x1 - x0 > 1.2 ? x1 - x0 - 0.3 : x1 - x0;
        double y0 = svg_py(&ay, 0), ya = svg_py(&ay, ma[j]), yb = svg_py(&ay, ma[j] + mb[j]);
        fprintf(f, "<g class=\"bin\" data-first=\"%zu\" data-last=\"%zu\" data-a=\"%.6g\" data-b=\"%.6g\" "
                   "data-max=\"%.6g\"><title>batch%s %zu%s", lo, hi - 1, ma[j], mb[j], mx[j],
                k > 1 ? "es" : "", lo, "");
        if (k > 1) fprintf(f, "-%zu (mean)", hi - 1);
        fprintf(f, ": %s %.4g, %s %.4g, longest %.4g</title>", la, ma[j], lb, mb[j], mx[j]);
        fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>",
                x0, ya, w, y0 - ya, svg_palette[3]);
        fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\"/>",
                x0, yb, w, ya - yb, svg_palette[2]);
        if (k > 1 && mx[j] > ma[j] + mb[j]) {
            double ym = svg_py(&ay, mx[j]), cx = (x0 + x1) / 2;
            fprintf(f, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#444\" "
                       "stroke-width=\"0.8\"/>", cx, cx, ym, yb);
        }
        fputs("</g>\n", f);
    }
    const char *l[] = { la, lb, k > 1 ? "longest" : NULL }, *c[] = { svg_palette[3], svg_palette[2], "#444" };
    svg_legend(f, l, c, k > 1 ? 3 : 2);
    free(ma);
    free(mb);
    free(mx);
    fputs("</svg>\n", f);
}

/* A category label under its slot: one line when it fits, else two lines
 * split at the '-', '_' or ' ' nearest its middle, else smaller. */
static void slot_label(FILE *f, const char *s, double cx, double slot)
{
    size_t n = strlen(s);
    double cw = 6.2;   /* px per character at font-size 11 */
    if ((double)n * cw <= slot) {
        fprintf(f, "<text class=\"glabel\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", cx, MT + PH + 14);
        html_escape(f, s);
        fputs("</text>\n", f);
        return;
    }
    size_t cut = 0;
    for (size_t i = 1; i + 1 < n; i++)
        if (strchr("-_ ,", s[i]) && (!cut || labs((long)i - (long)n / 2) < labs((long)cut - (long)n / 2)))
            cut = i;
    size_t first = cut ? cut + 1 : n, longest = cut ? (first > n - first ? first : n - first) : n;
    double fs = (double)longest * cw <= slot ? 11 : slot / ((double)longest * cw) * 11;
    if (fs < 7) fs = 7;
    fprintf(f, "<text class=\"glabel\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" font-size=\"%.1f\">",
            cx, MT + PH + 13, fs);
    fprintf(f, "<tspan x=\"%.1f\">", cx);
    for (size_t i = 0; i < first; i++) {
        char one[2] = { s[i], 0 };
        html_escape(f, one);
    }
    fputs("</tspan>", f);
    if (cut) {
        fprintf(f, "<tspan x=\"%.1f\" dy=\"%.1f\">", cx, fs + 1);
        html_escape(f, s + first);
        fputs("</tspan>", f);
    }
    fputs("</text>\n", f);
}

void svg_groups(FILE *f, const struct svg_plot *p, char *const *groups, size_t ng,
                char *const *series, size_t ns, const double *v, double ref)
{
    double ymax = isnan(ref) ? 0 : ref;
    bool any = false;
    for (size_t i = 0; i < ng * ns; i++) {
        if (isnan(v[i]) || isinf(v[i])) continue;
        any = true;
        if (v[i] > ymax) ymax = v[i];
    }
    svg_open(f, p);
    struct axis ax = { 0, 1, 1 };
    struct axis ay = svg_axis_of(0, ymax > 0 ? ymax : 1, true);
    svg_axes(f, p, &ax, &ay, false);
    if (!any) svg_no_data(f);
    double slot = (double)PW / (double)(ng ? ng : 1), bw = slot * 0.8 / (double)(ns ? ns : 1);
    for (size_t g = 0; g < ng; g++) {
        fputs("<g class=\"group\" data-group=\"", f);
        html_escape(f, groups[g]);
        fputs("\">\n", f);
        double gx = ML + slot * (double)g + slot * 0.1;
        for (size_t s = 0; s < ns; s++) {
            double y = v[g * ns + s];
            if (isnan(y) || isinf(y)) continue;
            double y0 = svg_py(&ay, 0), y1 = svg_py(&ay, y);
            fprintf(f, "<rect class=\"bar\" data-series=\"");
            html_escape(f, series[s]);
            fprintf(f, "\" data-v=\"%.6g\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" fill=\"%s\">"
                       "<title>", y, gx + bw * (double)s, y1 < y0 ? y1 : y0, bw > 1.5 ? bw - 0.5 : bw,
                    fabs(y0 - y1), svg_palette[s % NPAL]);
            html_escape(f, groups[g]);
            fputs(", ", f);
            html_escape(f, series[s]);
            fprintf(f, ": %.4g</title></rect>\n", y);
        }
        slot_label(f, groups[g], ML + slot * ((double)g + 0.5), slot);
        fputs("</g>\n", f);
    }
    if (!isnan(ref) && any) {
        fprintf(f, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#333\" "
                   "stroke-dasharray=\"4 3\"/>\n", ML, ML + PW, svg_py(&ay, ref), svg_py(&ay, ref));
    }
    /* The legend: one entry per series, in the bars' colours. */
    const char **col = xcalloc(ns ? ns : 1, sizeof *col);
    for (size_t s = 0; s < ns; s++) col[s] = svg_palette[s % NPAL];
    svg_legend(f, (const char *const *)series, col, ns);
    free(col);
    fputs("</svg>\n", f);
}

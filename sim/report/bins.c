/* Histogram bins from the data (issue 36): the bars span the samples' own
 * range, from the smallest to the largest, not a fixed [0, N) that leaves
 * the data in one bar or in the overflow.  Widths are 1, 2 or 5 times a
 * power of ten (the ticks read as round numbers); positive data spanning
 * two decades or more gets bins of equal ratio on a log axis (a long
 * latency tail would otherwise squeeze the body into one bar). */
#include <math.h>
#include <stdlib.h>
#include "rpt_int.h"

/* max / min at which the axis turns logarithmic: two decades. */
#define LOG_SPAN 100.0

/* The smallest 1-2-5 multiple of a power of ten that is >= w (> 0). */
static double nice_ceil(double w)
{
    double mag = pow(10, floor(log10(w))), norm = w / mag;
    return (norm <= 1 + 1e-9 ? 1 : norm <= 2 + 1e-9 ? 2 : norm <= 5 + 1e-9 ? 5 : 10) * mag;
}

size_t bins_values(const double *v, size_t n, bool integral, size_t target,
                   double **edges, double **counts, bool *logx)
{
    double lo = INFINITY, hi = -INFINITY;
    /* Infinities are left out as NaN is: no bin holds them (issue 38 R4;
     * uvmsim writes none), and a span past the largest double is no data. */
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i])) continue;
        if (v[i] < lo) lo = v[i];
        if (v[i] > hi) hi = v[i];
    }
    *logx = false;
    if (!(lo <= hi) || !isfinite(hi - lo) || target == 0) {
        *edges = xcalloc(1, sizeof **edges);
        *counts = xcalloc(1, sizeof **counts);
        return 0;
    }
    size_t nb;
    double *e, start = lo, w = 1, r = 0;
    if (lo > 0 && hi / lo >= LOG_SPAN && isfinite(hi / lo) && isfinite(hi * (1 + 1e-9))) {
        *logx = true;
        nb = target;
        r = log(hi / lo) / (double)nb;
        e = xcalloc(nb + 1, sizeof *e);
        for (size_t j = 0; j <= nb; j++) e[j] = lo * exp(r * (double)j);
        e[nb] = integral ? hi + 1 : hi * (1 + 1e-9);
    } else {
        if (hi > lo) w = nice_ceil((hi - lo) / (double)target);
        else w = integral || lo == 0 ? 1 : nice_ceil(fabs(lo) / 100);
        if (integral && w < 1) w = 1;
        if (!(w > 0) || !isfinite(w)) w = 1;          /* denormal lo: |lo| / 100 == 0 */
        start = floor(lo / w) * w;
        /* Counted before the cast: about target bins, never more than
         * 4 target + 4 (w >= (hi - lo) / target, rounded up). */
        double nbd = floor((hi - start) / w) + 1;
        if (!(nbd >= 1 && nbd <= 4.0 * (double)target + 4)) {
            *edges = xcalloc(1, sizeof **edges);
            *counts = xcalloc(1, sizeof **counts);
            return 0;
        }
        nb = (size_t)nbd;
        e = xcalloc(nb + 1, sizeof *e);
        for (size_t j = 0; j <= nb; j++) e[j] = start + w * (double)j;
    }
    double *c = xcalloc(nb, sizeof *c);
    for (size_t i = 0; i < n; i++) {
        if (!isfinite(v[i])) continue;
        double b = *logx ? log(v[i] / lo) / r : (v[i] - start) / w;
        size_t j = b >= (double)nb ? nb - 1 : b > 0 ? (size_t)floor(b + 1e-9) : 0;
        c[j < nb ? j : nb - 1] += 1;
    }
    *edges = e;
    *counts = c;
    return nb;
}

size_t bins_hist(const struct rpt_stat *s, size_t target, double **edges,
                 double **counts, bool *logx, bool *overflow)
{
    size_t n = s->n;
    double w = s->bin_width >= 1 ? s->bin_width : 1;
    size_t a = n, b = 0;
    for (size_t i = 0; i < n; i++) {
        if (s->v[i] <= 0) continue;
        if (a == n) a = i;
        b = i;
    }
    *logx = *overflow = false;
    *edges = xcalloc(target * 2 + 4, sizeof **edges);
    *counts = xcalloc(target * 2 + 4, sizeof **counts);
    double *e = *edges, *c = *counts;
    if (a == n || target == 0) return 0;
    /* Samples are integers <= max: the data end at max + 1. */
    double top = s->max + 1;
    if (s->count > 0 && fabs(s->sum - s->count * s->max) < 0.5) {
        /* Every sample equals the maximum (mean == max). */
        e[0] = s->max;
        e[1] = s->max + 1;
        c[0] = s->count;
        return 1;
    }
    /* The last bin also holds every larger sample: an overflow only when
     * the maximum lies past its range. */
    bool over = s->v[n - 1] > 0 && s->max >= (double)n * w;
    size_t breg = b;
    if (over) {
        breg = n;
        for (size_t i = n - 1; i-- > a;) if (s->v[i] > 0) { breg = i; break; }
        if (a == n - 1) breg = n;
    }
    size_t nb = 0;
    if (breg < n) {
        double lo = (double)a * w, end = over ? (double)(breg + 1) * w : fmin(top, (double)(breg + 1) * w);
        if (lo > 0 && end / lo >= LOG_SPAN) {
            /* Equal-ratio edges, on the source's bin edges. */
            *logx = true;
            e[0] = lo;
            nb = 0;
            for (size_t j = 1; j <= target; j++) {
                double x = ceil(lo * pow(end / lo, (double)j / (double)target) / w) * w;
                if (j == target || x >= end) x = end;
                if (x > e[nb]) e[++nb] = x;
                if (x >= end) break;
            }
        } else {
            size_t m = breg - a + 1, k = (m + target - 1) / target, start = a / k * k;
            nb = (breg - start) / k + 1;
            for (size_t j = 0; j <= nb; j++) e[j] = (double)((start + j * k)) * w;
            if (e[nb] > end) e[nb] = end;
        }
        for (size_t i = a; i <= breg; i++) {
            double x = (double)i * w;
            size_t j = 0;
            while (j + 1 < nb && e[j + 1] <= x) j++;
            c[j] += s->v[i];
        }
    }
    if (over) {
        double from = (double)(n - 1) * w;
        if (nb == 0) e[0] = from;
        else if (e[nb] < from) { c[nb] = 0; e[++nb] = from; }   /* an empty stretch */
        e[nb + 1] = top;
        c[nb] = s->v[n - 1];
        nb++;
        *overflow = true;
    }
    return nb;
}

/* The report of a merged sweep (DIR/sweep.h5, docs/results.md "Sweeps"):
 * the comparison table of /points (axes, status, headline statistics),
 * one bar chart per headline statistic across the points, IPC over time of
 * every point on one plot, and the planned points that have no result. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rpt_int.h"

/* Headline columns of /points, when the sweep has them. */
static const struct { const char *col, *label; double scale; } cols[] = {
    { "sim_time_ps", "simulated time (us)", 1e-6 },
    { "gpu.ipc", "IPC", 1 },
    { "gpu.warp_insts", "warp instructions", 1 },
    { "gmmu.faults", "far faults", 1 },
    { "driver.batches", "batches", 1 },
    { "driver.pages_migrated", "pages migrated", 1 },
    { "driver.evictions", "pages evicted", 1 },
    { "link.h2d.bytes", "H2D MiB", 1.0 / 1048576 },
    { "link.d2h.bytes", "D2H MiB", 1.0 / 1048576 },
};
#define NCOLS (sizeof cols / sizeof cols[0])
/* At most this many points share the IPC plot (a legend stays legible). */
#define MAX_OVERLAY 10

struct axis_col { char *key; char **text; double *num; };

static bool in_list(char **l, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++) if (!strcmp(l[i], s)) return true;
    return false;
}

static void missing_points(FILE *f, hid_t fid)
{
    size_t n = 0, m = 0;
    char **name = rpt_str_column(fid, "missing", "name", &n);
    char **state = rpt_str_column(fid, "missing", "state", &m);
    if (!name || !n) { rpt_str_free(name, n); rpt_str_free(state, m); return; }
    fprintf(f, "<h2 id=\"missing\">Points without a result</h2>\n<table>\n<tr><th>point</th><th>state</th></tr>\n");
    for (size_t i = 0; i < n; i++) {
        fputs("<tr><td>", f);
        html_escape(f, name[i]);
        fputs("</td><td>", f);
        html_escape(f, state && i < m ? state[i] : "");
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
    rpt_str_free(name, n);
    rpt_str_free(state, m);
}

static void ipc_overlay(FILE *f, hid_t fid, char **names, char **labels, size_t n)
{
    size_t k = n < MAX_OVERLAY ? n : MAX_OVERLAY;
    struct svg_series *ser = xcalloc(k ? k : 1, sizeof *ser);
    double **xs = xcalloc(k ? k : 1, sizeof *xs), **ys = xcalloc(k ? k : 1, sizeof *ys);
    size_t used = 0;
    for (size_t i = 0; i < k; i++) {
        char path[600];
        snprintf(path, sizeof path, "runs/%s", names[i]);
        if (H5Lexists(fid, "runs", H5P_DEFAULT) <= 0 || H5Lexists(fid, path, H5P_DEFAULT) <= 0)
            continue;
        hid_t g = H5Gopen2(fid, path, H5P_DEFAULT);
        if (g < 0) continue;
        struct rpt_run r;
        char err[256];
        if (rpt_run_read(g, &r, err, sizeof err) == 0) {
            size_t m = run_ipc(&r, &xs[used], &ys[used]);
            if (m) {
                ser[used] = (struct svg_series){ labels[i], ys[used], xs[used], m };
                used++;
            } else {
                free(xs[used]);
                free(ys[used]);
            }
            rpt_run_free(&r);
        }
        H5Gclose(g);
    }
    struct svg_plot p = { "IPC per epoch, every point", "simulated time (us)",
                          "warp insts / core cycle", "sweep-ipc" };
    svg_lines(f, &p, NULL, 0, ser, used);
    if (n > k) fprintf(f, "<p class=\"note\">the first %d of %zu points</p>\n", MAX_OVERLAY, n);
    for (size_t i = 0; i < used; i++) { free(xs[i]); free(ys[i]); }
    free(xs); free(ys); free(ser);
}

void page_sweep(FILE *f, hid_t fid, const char *title)
{
    size_t n = 0, nf = 0, na = 0;
    char **names = rpt_str_column(fid, "points", "name", &n);
    char **fields = rpt_fields(fid, "points", &nf);
    char **keys = rpt_str_column(fid, "axes", "key", &na);
    fputs("<h1>", f);
    html_escape(f, title);
    fputs("</h1>\n", f);
    double merged = NAN;
    rpt_attr_double(fid, ".", "points_merged", &merged);
    fprintf(f, "<p>%zu points merged.</p>\n", names ? n : 0);

    /* Distinct axis keys that /points has as columns, in sweep order. */
    size_t nax = 0;
    struct axis_col *ax = xcalloc(na ? na : 1, sizeof *ax);
    for (size_t i = 0; keys && i < na; i++) {
        bool dup = false;
        for (size_t j = 0; j < nax; j++) if (!strcmp(ax[j].key, keys[i])) dup = true;
        if (dup || !fields || !in_list(fields, nf, keys[i])) continue;
        size_t m;
        ax[nax].key = keys[i];
        ax[nax].text = rpt_str_column(fid, "points", keys[i], &m);
        if (!ax[nax].text) ax[nax].num = rpt_column(fid, "points", keys[i], &m);
        nax++;
    }
    double *cv[NCOLS] = {0};
    for (size_t c = 0; c < NCOLS; c++) {
        size_t m;
        if (fields && in_list(fields, nf, cols[c].col)) cv[c] = rpt_column(fid, "points", cols[c].col, &m);
    }
    size_t ms;
    char **status = rpt_str_column(fid, "points", "status", &ms);

    /* Plots name the points by their number in this table when the names
     * are too long for the bars. */
    size_t longest = 0;
    for (size_t i = 0; names && i < n; i++) if (strlen(names[i]) > longest) longest = strlen(names[i]);
    bool numbered = longest > 12 || n > 6;
    char **labels = xcalloc(n ? n : 1, sizeof *labels);
    for (size_t i = 0; names && i < n; i++) {
        labels[i] = xmalloc(strlen(names[i]) + 24);
        if (numbered) sprintf(labels[i], "#%zu", i + 1);
        else strcpy(labels[i], names[i]);
    }
    fputs("<h2 id=\"points\">Points</h2>\n<table class=\"points\">\n<tr><th>#</th><th>point</th>", f);
    for (size_t j = 0; j < nax; j++) { fputs("<th>", f); html_escape(f, ax[j].key); fputs("</th>", f); }
    if (status) fputs("<th>status</th>", f);
    for (size_t c = 0; c < NCOLS; c++)
        if (cv[c]) { fputs("<th>", f); html_escape(f, cols[c].label); fputs("</th>", f); }
    fputs("</tr>\n", f);
    for (size_t i = 0; names && i < n; i++) {
        fprintf(f, "<tr><td class=\"n\">%zu</td><td>", i + 1);
        html_escape(f, names[i]);
        fputs("</td>", f);
        for (size_t j = 0; j < nax; j++) {
            fputs("<td>", f);
            if (ax[j].text) html_escape(f, ax[j].text[i]);
            else if (ax[j].num) html_num(f, ax[j].num[i]);
            fputs("</td>", f);
        }
        if (status) { fputs("<td>", f); html_escape(f, status[i]); fputs("</td>", f); }
        for (size_t c = 0; c < NCOLS; c++) {
            if (!cv[c]) continue;
            fputs("<td class=\"n\">", f);
            html_num(f, cv[c][i] * cols[c].scale);
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);

    fputs("<h2 id=\"compare\">Comparison</h2>\n<div class=\"plots\">\n", f);
    for (size_t c = 0; c < NCOLS; c++) {
        if (!cv[c] || !names) continue;
        double *v = xcalloc(n ? n : 1, sizeof *v);
        for (size_t i = 0; i < n; i++) v[i] = cv[c][i] * cols[c].scale;
        char id[64];
        snprintf(id, sizeof id, "sweep-bar-%zu", c);
        struct svg_plot p = { cols[c].label, "", cols[c].label, id };
        svg_bars(f, &p, labels, v, n);
        free(v);
    }
    if (names) ipc_overlay(f, fid, names, labels, n);
    fputs("</div>\n", f);
    missing_points(f, fid);

    for (size_t j = 0; j < nax; j++) { rpt_str_free(ax[j].text, n); free(ax[j].num); }
    free(ax);
    for (size_t c = 0; c < NCOLS; c++) free(cv[c]);
    rpt_str_free(labels, names ? n : 0);
    rpt_str_free(status, ms);
    rpt_str_free(names, n);
    rpt_str_free(fields, nf);
    rpt_str_free(keys, na);
}

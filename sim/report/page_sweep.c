/* The report of a merged sweep (DIR/sweep.h5, docs/results.md "Sweeps"):
 * comparisons drawn as the papers draw them (HPE, Yu et al. TCAD 2020,
 * Figs. 10 and 12; scripts/plot_sweep.py): one axis along x in groups,
 * another as one coloured bar per value inside each group, normalised to
 * a baseline value of that axis, a geometric-mean group at the end, and
 * one panel per value of the remaining axes.  Then the points table
 * (scrolling), IPC over time of the first points, and the planned points
 * without a result.  Axis choice and defaults: docs/report.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rpt_int.h"

/* Headline columns of /points, when the sweep has them. */
static const struct { const char *col, *label; double scale; } cols[] = {
    { "sim_time_ps", "simulated time", 1e-6 },
    { "gpu.ipc", "IPC", 1 },
    { "gmmu.faults", "far faults", 1 },
    { "driver.batches", "fault batches", 1 },
    { "driver.pages_migrated", "pages migrated", 1 },
    { "driver.evictions", "pages evicted", 1 },
    { "link.h2d.bytes", "host-to-GPU bytes", 1 },
    { "link.d2h.bytes", "GPU-to-host bytes", 1 },
    { "gpu.warp_insts", "warp instructions", 1 },
};
#define NCOLS (sizeof cols / sizeof cols[0])
/* At most this many points share the IPC plot (a legend stays legible). */
#define MAX_OVERLAY 10
/* At most this many panels per statistic. */
#define MAX_PANELS 16
#define GM "GM"

/* One axis: its values in sweep order, and each point's value index. */
struct sax {
    char *key;
    size_t nv;
    char **text;       /* as written: "75%", "lru" */
    double *val;       /* as a number (NaN: text) */
    size_t *of;        /* of[point]: value index, SIZE_MAX when unmatched */
};

static bool in_list(char **l, size_t n, const char *s)
{
    for (size_t i = 0; l && i < n; i++) if (!strcmp(l[i], s)) return true;
    return false;
}

static size_t find_axis(const struct sax *ax, size_t nax, const char *key)
{
    for (size_t j = 0; j < nax; j++) if (!strcmp(ax[j].key, key)) return j;
    return SIZE_MAX;
}

/* A value written as in the sweep file ("75%") or as a number (0.75). */
static size_t find_value(const struct sax *a, const char *s)
{
    for (size_t v = 0; v < a->nv; v++) if (!strcmp(a->text[v], s)) return v;
    char *end;
    double x = strtod(s, &end);
    if (end != s && !*end)
        for (size_t v = 0; v < a->nv; v++)
            if (!isnan(a->val[v]) && fabs(a->val[v] - x) <= 1e-9 * fmax(1, fabs(x))) return v;
    return SIZE_MAX;
}

static void list_values(const struct sax *a, char *buf, size_t len)
{
    buf[0] = 0;
    for (size_t v = 0; v < a->nv; v++) {
        size_t u = strlen(buf);
        snprintf(buf + u, len - u, "%s%s", v ? ", " : "", a->text[v]);
    }
}

/* Distinct axes of /axes that /points has as columns, in sweep order. */
static size_t read_axes(hid_t fid, size_t npts, struct sax **out)
{
    size_t na = 0, nt = 0, nv = 0, m = 0, nf = 0;
    char **keys = rpt_str_column(fid, "axes", "key", &na);
    char **text = rpt_str_column(fid, "axes", "text", &nt);
    double *val = rpt_column(fid, "axes", "value", &nv);
    if (nt != na) { rpt_str_free(text, nt); text = NULL; nt = 0; }
    if (nv != na) { free(val); val = NULL; }
    char **fields = rpt_fields(fid, "points", &nf);
    struct sax *ax = xcalloc(na ? na : 1, sizeof *ax);
    size_t nax = 0;
    for (size_t i = 0; keys && text && i < na; i++) {
        if (!in_list(fields, nf, keys[i])) continue;
        size_t j = find_axis(ax, nax, keys[i]);
        if (j == SIZE_MAX) {
            j = nax++;
            ax[j].key = xstrdup(keys[i]);
            ax[j].text = xcalloc(na, sizeof *ax[j].text);
            ax[j].val = xcalloc(na, sizeof *ax[j].val);
        }
        ax[j].text[ax[j].nv] = xstrdup(text[i]);
        ax[j].val[ax[j].nv++] = val ? val[i] : NAN;
    }
    for (size_t j = 0; j < nax; j++) {
        ax[j].of = xcalloc(npts ? npts : 1, sizeof *ax[j].of);
        char **t = rpt_str_column(fid, "points", ax[j].key, &m);
        size_t mn = 0;
        double *num = t ? NULL : rpt_column(fid, "points", ax[j].key, &mn);
        if (t && m < npts) { rpt_str_free(t, m); t = NULL; }
        if (num && mn < npts) { free(num); num = NULL; }
        for (size_t p = 0; p < npts; p++) {
            ax[j].of[p] = SIZE_MAX;
            for (size_t v = 0; v < ax[j].nv; v++) {
                bool hit = t ? !strcmp(t[p], ax[j].text[v])
                             : num && !isnan(ax[j].val[v]) && fabs(num[p] - ax[j].val[v]) <= 1e-9 * fmax(1, fabs(num[p]));
                if (hit) { ax[j].of[p] = v; break; }
            }
        }
        rpt_str_free(t, m);
        free(num);
    }
    rpt_str_free(keys, na);
    rpt_str_free(text, nt);
    free(val);
    rpt_str_free(fields, nf);
    *out = ax;
    return nax;
}

/* Axis q is fixed by axis x across the points (a zipped partner): it
 * makes no panels of its own. */
static bool follows(const struct sax *q, const struct sax *x, size_t npts)
{
    size_t *seen = xcalloc(x->nv, sizeof *seen);
    bool ok = true;
    for (size_t v = 0; v < x->nv; v++) seen[v] = SIZE_MAX;
    for (size_t p = 0; p < npts && ok; p++) {
        size_t a = x->of[p], b = q->of[p];
        if (a == SIZE_MAX || b == SIZE_MAX) continue;
        if (seen[a] == SIZE_MAX) seen[a] = b;
        else if (seen[a] != b) ok = false;
    }
    free(seen);
    return ok;
}

struct layout {
    size_t bars, base, groups;      /* axis indices; base: a value of bars, SIZE_MAX: none */
    size_t nfacet, facet[16];
};

static int choose(const struct sax *ax, size_t nax, size_t npts, const struct report_opts *o,
                  struct layout *L, char *err, size_t errlen)
{
    char vals[512];
    memset(L, 0, sizeof *L);
    L->groups = SIZE_MAX;
    const char *norm = o ? o->normalize_to : NULL;
    if (norm && strcmp(norm, "none")) {
        const char *eq = strchr(norm, '=');
        char key[256];
        size_t kl = eq ? (size_t)(eq - norm) : strlen(norm);
        snprintf(key, sizeof key, "%.*s", (int)(kl < 255 ? kl : 255), norm);
        L->bars = find_axis(ax, nax, key);
        if (!eq || L->bars == SIZE_MAX) {
            vals[0] = 0;
            for (size_t j = 0; j < nax; j++) {
                size_t u = strlen(vals);
                snprintf(vals + u, sizeof vals - u, "%s%s", j ? ", " : "", ax[j].key);
            }
            snprintf(err, errlen, "--normalize-to %s: %s (axes of this sweep: %s)", norm,
                     eq ? "no such axis" : "expected AXIS=VALUE", vals);
            return -1;
        }
        L->base = find_value(&ax[L->bars], eq + 1);
        if (L->base == SIZE_MAX) {
            list_values(&ax[L->bars], vals, sizeof vals);
            snprintf(err, errlen, "--normalize-to %s: '%s' is not a value of %s (values: %s)", norm, eq + 1,
                     key, vals);
            return -1;
        }
    } else {
        /* Default: the eviction policy as bars, normalised to lru as in
         * the HPE paper; else the first axis, to its first value. */
        L->bars = find_axis(ax, nax, "driver.eviction");
        if (L->bars == SIZE_MAX) L->bars = 0;
        L->base = nax ? find_value(&ax[L->bars], "lru") : SIZE_MAX;
        if (L->base == SIZE_MAX || strcmp(ax[L->bars].key, "driver.eviction")) L->base = 0;
        if (norm) L->base = SIZE_MAX;
    }
    if (o && o->x) {
        L->groups = find_axis(ax, nax, o->x);
        if (L->groups == SIZE_MAX || L->groups == L->bars) {
            snprintf(err, errlen, "--x %s: %s", o->x,
                     L->groups == SIZE_MAX ? "not an axis of this sweep" : "is the axis of the bars");
            return -1;
        }
    } else {
        /* Default: the first workload axis, else the one with most values. */
        for (size_t j = 0; j < nax && L->groups == SIZE_MAX; j++)
            if (j != L->bars && !strncmp(ax[j].key, "workload.", 9) && !follows(&ax[j], &ax[L->bars], npts))
                L->groups = j;
        if (L->groups == SIZE_MAX)
            for (size_t j = 0; j < nax; j++)
                if (j != L->bars && (L->groups == SIZE_MAX || ax[j].nv > ax[L->groups].nv)) L->groups = j;
    }
    for (size_t j = 0; j < nax; j++) {
        if (j == L->bars || j == L->groups || L->nfacet == 16) continue;
        if (L->groups != SIZE_MAX && follows(&ax[j], &ax[L->groups], npts)) continue;
        if (follows(&ax[j], &ax[L->bars], npts)) continue;
        L->facet[L->nfacet++] = j;
    }
    return 0;
}

/* cell[(panel * ng + g) * ns + b]: the point at bar value b, group value g
 * in a drawn panel (facet values mixed-radix, the last fastest), or
 * SIZE_MAX: one pass over the points, whatever the sweep's size. */
static size_t *cells(const struct sax *ax, const struct layout *L, size_t npts, size_t npanel,
                     size_t ng, size_t ns)
{
    size_t n = npanel * ng * ns;
    size_t *cell = xcalloc(n ? n : 1, sizeof *cell);
    for (size_t i = 0; i < n; i++) cell[i] = SIZE_MAX;
    for (size_t p = 0; p < npts; p++) {
        size_t b = ax[L->bars].of[p], g = L->groups != SIZE_MAX ? ax[L->groups].of[p] : 0, pi = 0;
        bool ok = b != SIZE_MAX && g != SIZE_MAX;
        for (size_t k = 0; k < L->nfacet && ok; k++) {
            size_t v = ax[L->facet[k]].of[p];
            ok = v != SIZE_MAX;
            pi = pi * ax[L->facet[k]].nv + v;
        }
        if (ok && pi < npanel && cell[(pi * ng + g) * ns + b] == SIZE_MAX) cell[(pi * ng + g) * ns + b] = p;
    }
    return cell;
}

static void compare(FILE *f, const struct sax *ax, const struct layout *L, size_t npts, double *const *cv)
{
    const struct sax *B = &ax[L->bars], *G = L->groups != SIZE_MAX ? &ax[L->groups] : NULL;
    size_t ng = G ? G->nv : 1, ns = B->nv;
    bool norm = L->base != SIZE_MAX, gm = norm && ng > 1;
    size_t npanel = 1;
    for (size_t k = 0; k < L->nfacet; k++) npanel *= ax[L->facet[k]].nv;
    char **glabels = xcalloc(ng + 1, sizeof *glabels);
    for (size_t g = 0; g < ng; g++) glabels[g] = G ? G->text[g] : (char *)"all points";
    glabels[ng] = (char *)GM;
    fputs("<h2 id=\"compare\">Comparison</h2>\n<p class=\"note\">Groups along x: <b>", f);
    html_escape(f, G ? G->key : "(one group)");
    fputs("</b>; bars: <b>", f);
    html_escape(f, B->key);
    fputs("</b>", f);
    if (norm) {
        fputs(", each divided by the bar of <b>", f);
        html_escape(f, B->text[L->base]);
        fputs("</b> in its group (the dashed line at 1)", f);
        if (gm) fputs("; GM: the geometric mean over the groups", f);
    }
    if (L->nfacet) {
        fputs("; one panel per value of ", f);
        for (size_t k = 0; k < L->nfacet; k++) {
            if (k) fputs(" &times; ", f);
            html_escape(f, ax[L->facet[k]].key);
        }
    }
    fputs(".  Change with <code>--normalize-to AXIS=VALUE</code> (or <code>none</code>) and "
          "<code>--x AXIS</code>.</p>\n<div class=\"plots\">\n", f);
    double *v = xcalloc((ng + 1) * ns, sizeof *v);
    size_t *fv = xcalloc(L->nfacet + 1, sizeof *fv);
    size_t drawn = npanel < MAX_PANELS ? npanel : MAX_PANELS;
    size_t *cell = cells(ax, L, npts, drawn, ng, ns);
    for (size_t c = 0; c < NCOLS; c++) {
        if (!cv[c]) continue;
        for (size_t pi = 0; pi < drawn; pi++) {
            /* Facet values of panel pi, the last facet fastest. */
            size_t rest = pi;
            for (size_t k = L->nfacet; k-- > 0;) {
                fv[k] = rest % ax[L->facet[k]].nv;
                rest /= ax[L->facet[k]].nv;
            }
            bool any = false;
            for (size_t g = 0; g < ng; g++) {
                const size_t *row = &cell[(pi * ng + g) * ns];
                size_t bp = norm ? row[L->base] : SIZE_MAX;
                double base = bp == SIZE_MAX ? NAN : cv[c][bp];
                for (size_t s = 0; s < ns; s++) {
                    size_t p = row[s];
                    double x = p == SIZE_MAX ? NAN : cv[c][p] * cols[c].scale;
                    if (p != SIZE_MAX) any = true;
                    v[g * ns + s] = norm ? (base > 0 ? cv[c][p == SIZE_MAX ? 0 : p] / base : NAN) : x;
                    if (p == SIZE_MAX) v[g * ns + s] = NAN;
                }
            }
            if (!any) continue;
            for (size_t s = 0; gm && s < ns; s++) {
                /* Geometric mean of the groups' finite positive ratios. */
                double lsum = 0;
                size_t k = 0;
                for (size_t g = 0; g < ng; g++) {
                    double x = v[g * ns + s];
                    if (x > 0 && isfinite(x)) { lsum += log(x); k++; }
                }
                v[ng * ns + s] = k ? exp(lsum / (double)k) : NAN;
            }
            char title[512], id[64], ylabel[128];
            size_t u = (size_t)snprintf(title, sizeof title, "%s", cols[c].label);
            if (norm) u += (size_t)snprintf(title + u, sizeof title - u, " relative to %s", B->text[L->base]);
            for (size_t k = 0; k < L->nfacet && u < sizeof title; k++)
                u += (size_t)snprintf(title + u, sizeof title - u, "%s%s=%s", k ? ", " : " (",
                                      ax[L->facet[k]].key, ax[L->facet[k]].text[fv[k]]);
            if (L->nfacet && u < sizeof title) snprintf(title + u, sizeof title - u, ")");
            snprintf(id, sizeof id, "cmp-%zu-%zu", c, pi);
            snprintf(ylabel, sizeof ylabel, norm ? "relative to %s" : "%s", norm ? B->text[L->base] : cols[c].label);
            struct svg_plot p = { title, G ? G->key : "", ylabel, id };
            svg_groups(f, &p, glabels, gm ? ng + 1 : ng, B->text, ns, v, norm ? 1.0 : NAN);
        }
    }
    fputs("</div>\n", f);
    if (npanel > MAX_PANELS)
        fprintf(f, "<p class=\"note\">the first %d of %zu panels per statistic</p>\n", MAX_PANELS, npanel);
    free(v);
    free(fv);
    free(cell);
    free(glabels);
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
    fputs("<h2 id=\"ipc\">IPC over time</h2>\n<div class=\"plots\">\n", f);
    struct svg_plot p = { "IPC over time (moving average as on a run's page)", "simulated time (us)",
                          "warp insts / core cycle", "sweep-ipc" };
    svg_lines(f, &p, NULL, 0, ser, used);
    fputs("</div>\n", f);
    if (n > k) fprintf(f, "<p class=\"note\">the first %d of %zu points</p>\n", MAX_OVERLAY, n);
    for (size_t i = 0; i < used; i++) { free(xs[i]); free(ys[i]); }
    free(xs); free(ys); free(ser);
}

int page_sweep(FILE *f, hid_t fid, const char *title, const struct report_opts *o,
               char *err, size_t errlen)
{
    size_t n = 0, nf = 0, ms = 0;
    char **names = rpt_str_column(fid, "points", "name", &n);
    if (!names) n = 0;
    char **fields = rpt_fields(fid, "points", &nf);
    struct sax *ax = NULL;
    size_t nax = read_axes(fid, n, &ax);
    struct layout L;
    int rc = 0;
    if (nax && choose(ax, nax, n, o, &L, err, errlen) != 0) { rc = -1; goto done; }
    if (!nax && o && (o->normalize_to || o->x)) {
        snprintf(err, errlen, "this sweep has no axes to normalise or group by");
        rc = -1;
        goto done;
    }
    fputs("<h1>", f);
    html_escape(f, title);
    fputs("</h1>\n", f);
    fprintf(f, "<p>%zu points merged.  <a href=\"#compare\">comparison</a> &middot; "
               "<a href=\"#points\">points</a> &middot; <a href=\"#ipc\">IPC over time</a></p>\n", n);
    double *cv[NCOLS] = {0};
    for (size_t c = 0; c < NCOLS; c++) {
        size_t m;
        if (in_list(fields, nf, cols[c].col)) cv[c] = rpt_column(fid, "points", cols[c].col, &m);
    }
    char **status = rpt_str_column(fid, "points", "status", &ms);
    if (nax && n) compare(f, ax, &L, n, cv);

    /* Points are named by their axis values wherever a label is short. */
    char **labels = xcalloc(n ? n : 1, sizeof *labels);
    for (size_t i = 0; i < n; i++) {
        size_t len = 1;
        for (size_t j = 0; j < nax; j++) len += ax[j].of[i] == SIZE_MAX ? 2 : strlen(ax[j].text[ax[j].of[i]]) + 1;
        labels[i] = xcalloc(len + strlen(names[i]) + 1, 1);
        for (size_t j = 0; j < nax; j++)
            if (ax[j].of[i] != SIZE_MAX) {
                if (labels[i][0]) strcat(labels[i], " ");
                strcat(labels[i], ax[j].text[ax[j].of[i]]);
            }
        if (!labels[i][0]) strcpy(labels[i], names[i]);
    }
    fputs("<h2 id=\"points\">Points</h2>\n<div class=\"scroll\"><table class=\"points\">\n<tr><th>point</th>", f);
    for (size_t j = 0; j < nax; j++) { fputs("<th>", f); html_escape(f, ax[j].key); fputs("</th>", f); }
    if (status) fputs("<th>status</th>", f);
    for (size_t c = 0; c < NCOLS; c++)
        if (cv[c]) {
            fputs("<th>", f);
            html_escape(f, cols[c].label);
            fputs(c == 0 ? " (us)</th>" : "</th>", f);
        }
    fputs("</tr>\n", f);
    for (size_t i = 0; i < n; i++) {
        fputs("<tr><td>", f);
        html_escape(f, names[i]);
        fputs("</td>", f);
        for (size_t j = 0; j < nax; j++) {
            fputs("<td>", f);
            if (ax[j].of[i] != SIZE_MAX) html_escape(f, ax[j].text[ax[j].of[i]]);
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
    fputs("</table></div>\n", f);
    if (n) ipc_overlay(f, fid, names, labels, n);
    missing_points(f, fid);
    for (size_t c = 0; c < NCOLS; c++) free(cv[c]);
    rpt_str_free(labels, n);
    rpt_str_free(status, ms);
done:
    for (size_t j = 0; j < nax; j++) {
        free(ax[j].key);
        rpt_str_free(ax[j].text, ax[j].nv);
        free(ax[j].val);
        free(ax[j].of);
    }
    free(ax);
    rpt_str_free(names, n);
    rpt_str_free(fields, nf);
    return rc;
}

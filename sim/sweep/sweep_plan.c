/* Expanding a sweep: the cartesian product of its factors (an axis, a zip
 * group, the seeds), minus the excluded combinations, each resolved into a
 * full config and named from its axis values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "out/results.h"
#include "sweep_int.h"

/* A guard against a typo multiplying the sweep, not a design limit. */
#define MAX_POINTS 100000

void sweep_token(const char *text, char *out, size_t outsz)
{
    size_t j = 0;
    for (const char *p = text; *p && j + 1 < outsz; p++) {
        char c = *p;
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                    c == '-' || c == '+';
        if (c == '%') {
            for (const char *q = "pct"; *q && j + 1 < outsz; q++)
                out[j++] = *q;
        } else {
            out[j++] = keep ? c : '-';
        }
    }
    out[j] = '\0';
}

/* ---- names ---- */

bool sweep_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ||
           c == '+';
}

bool sweep_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (!n || n > SWEEP_MAX_NAME || name[0] == '-' || name[0] == '.') return false;
    for (size_t i = 0; i < n; i++)
        if (!sweep_name_char(name[i])) return false;
    return true;
}

static void append(char **buf, size_t *len, const char *s)
{
    size_t n = strlen(s);
    *buf = xrealloc(*buf, *len + n + 1);
    memcpy(*buf + *len, s, n + 1);
    *len += n;
}

/* The default template: every axis value in axis order, joined by '_';
 * the seed as "seed<N>". */
static char *point_name(const struct sweep *s, const struct sweep_spec *sp,
                        const size_t *vi)
{
    char *buf = xstrdup("");
    size_t len = 0;
    char tok[4 * SWEEP_MAX_NAME];
    if (!sp->has_name) {
        for (size_t a = 0; a < s->naxes; a++) {
            if (a) append(&buf, &len, "_");
            if (!strcmp(s->axes[a].key, "sim.seed")) append(&buf, &len, "seed");
            sweep_token(s->axes[a].text[vi[a]], tok, sizeof tok);
            append(&buf, &len, tok);
        }
    } else {
        for (size_t i = 0; i < sp->nsegs; i++) {
            const struct sweep_seg *g = &sp->segs[i];
            if (g->lit) {
                append(&buf, &len, g->lit);
            } else {
                sweep_token(s->axes[g->axis].text[vi[g->axis]], tok, sizeof tok);
                append(&buf, &len, tok);
            }
        }
    }
    /* A leading '-' reads as an option, a leading '.' hides the file. */
    if (buf[0] == '-' || buf[0] == '.' || !buf[0]) {
        char *p = xmalloc(len + 2);
        p[0] = '_';
        memcpy(p + 1, buf, len + 1);
        free(buf);
        buf = p;
    }
    return buf;
}

static bool template_has(const struct sweep_spec *sp, size_t axis)
{
    if (!sp->has_name) return true;
    for (size_t i = 0; i < sp->nsegs; i++)
        if (!sp->segs[i].lit && sp->segs[i].axis == axis) return true;
    return false;
}

/* By name, then in plan order: a clash reports the later point. */
static int cmp_name(const void *a, const void *b)
{
    const struct sweep_point *const *x = a, *const *y = b;
    int c = strcmp((*x)->name, (*y)->name);
    return c ? c : (*x < *y ? -1 : *x > *y);
}

/* Two points with one name would share a result file: refuse, naming the
 * value that should have told them apart. */
static bool names_unique(const struct sweep *s, const struct sweep_spec *sp,
                         struct cfg_error *err)
{
    if (s->npoints < 2) return true;
    const struct sweep_point **v = xmalloc(s->npoints * sizeof *v);
    for (size_t i = 0; i < s->npoints; i++) v[i] = &s->points[i];
    qsort(v, s->npoints, sizeof *v, cmp_name);
    bool ok = true;
    for (size_t i = 1; i < s->npoints && ok; i++) {
        const struct sweep_point *p = v[i - 1], *q = v[i];
        if (strcmp(p->name, q->name)) continue;
        size_t a = 0;
        while (a < s->naxes && p->vi[a] == q->vi[a]) a++;
        const struct sweep_axis *ax = &s->axes[a];
        struct sweep_loc l = {ax->line[q->vi[a]], ax->col[q->vi[a]]};
        if (!template_has(sp, a))
            ok = sweep_fail_at(err, s->file, l, "key '%s': points differing "
                               "only here are both named '%s': the name: "
                               "template (at %d:%d) needs {%s}", ax->key,
                               p->name, sp->name_loc.line, sp->name_loc.col,
                               ax->key);
        else
            ok = sweep_fail_at(err, s->file, l, "key '%s': value '%s' gives "
                               "the same point name '%s' as '%s' (at %d:%d); "
                               "use name: to tell them apart", ax->key,
                               ax->text[q->vi[a]], p->name,
                               ax->text[p->vi[a]], ax->line[p->vi[a]],
                               ax->col[p->vi[a]]);
    }
    free(v);
    return ok;
}

/* ---- expansion ---- */

static bool excluded(const struct sweep_spec *sp, const size_t *vi)
{
    for (size_t r = 0; r < sp->nrules; r++) {
        bool all = true;
        for (size_t t = 0; t < sp->rules[r].nterms && all; t++) {
            const struct sweep_term *term = &sp->rules[r].terms[t];
            bool any = false;
            for (size_t k = 0; k < term->nvi && !any; k++)
                any = term->vi[k] == vi[term->axis];
            all = any;
        }
        if (all) return true;
    }
    return false;
}

static bool apply_fixed(struct config *c, const struct sweep *s,
                        const struct sweep_spec *sp, struct cfg_error *err)
{
    for (size_t i = 0; i < sp->nfixed; i++) {
        const struct sweep_fixed *f = &sp->fixed[i];
        bool ok = f->cli ? config_set(c, f->key, f->val, "-s", 0, 0, err)
                         : config_set(c, f->key, f->val, s->file, f->vloc.line,
                                      f->vloc.col, err);
        /* sweep_file.c validated every value against the schema. */
        SIM_ASSERT(ok, "sweep", 0, "fixed key rejected late: %s", err->msg);
    }
    return true;
}

/* Sets the point's axis values (every axis: what an earlier point set is
 * overwritten) and runs the cross-key checks. */
static bool resolve(struct config *c, const struct sweep *s,
                    const struct sweep_point *p, struct cfg_error *err)
{
    for (size_t a = 0; a < s->naxes; a++) {
        const struct sweep_axis *ax = &s->axes[a];
        size_t v = p->vi[a];
        bool ok = config_set(c, ax->key, ax->text[v], s->file, ax->line[v],
                             ax->col[v], err);
        SIM_ASSERT(ok, "sweep", 0, "axis value rejected late: %s", err->msg);
    }
    for (size_t i = 0; config_checks[i]; i++)
        if (!config_checks[i](c, err)) {
            size_t n = strlen(err->msg);
            snprintf(err->msg + n, sizeof err->msg - n, " (point '%s')",
                     p->name);
            return false;
        }
    return true;
}

/* The YAML is made again when asked for, never kept: config_to_yaml is
 * nine tenths of a plan's time and each point's text some KiB (100000
 * seeds took 812 MB and 90 s when every point kept it). */
char *sweep_point_yaml(const struct sweep *s, size_t i)
{
    struct sweep_point *p = &s->points[i];
    struct cfg_error err;
    bool ok = resolve(s->cfg, s, p, &err);
    SIM_ASSERT(ok, "sweep", 0, "point rejected late: %s", err.msg);
    char *yaml = config_to_yaml(s->cfg);
    p->hash = results_yaml_hash(yaml);
    p->hashed = true;
    return yaml;
}

uint64_t sweep_point_hash(const struct sweep *s, size_t i)
{
    if (!s->points[i].hashed) free(sweep_point_yaml(s, i));
    return s->points[i].hash;
}

/* The first key of factor F, where the count went over. */
static struct sweep_loc factor_loc(const struct sweep *s,
                                   const struct sweep_spec *sp, size_t f)
{
    for (size_t a = 0; a < s->naxes; a++)
        if (s->axes[a].factor == f) return sp->key_loc[a];
    return (struct sweep_loc){1, 1};
}

static bool count_combos(struct sweep *s, const struct sweep_spec *sp,
                         struct cfg_error *err)
{
    size_t n = 1;
    for (size_t f = 0; f < s->nfactors; f++) {
        if (n > MAX_POINTS / s->factor_len[f]) {
            const struct sweep_axis *ax = NULL;
            for (size_t a = 0; a < s->naxes && !ax; a++)
                if (s->axes[a].factor == f) ax = &s->axes[a];
            return sweep_fail_at(err, s->file, factor_loc(s, sp, f),
                                 "key '%s': with its %zu values the sweep has "
                                 "more than %d points; split the sweep",
                                 ax ? ax->key : "axes", s->factor_len[f],
                                 MAX_POINTS);
        }
        n *= s->factor_len[f];
    }
    s->ncombos = n;
    return true;
}

static bool expand(struct sweep *s, const struct sweep_spec *sp,
                   struct config *c, struct cfg_error *err)
{
    size_t *digit = xcalloc(s->nfactors, sizeof *digit);
    s->points = xcalloc(s->ncombos, sizeof *s->points);
    bool ok = true;
    for (size_t k = 0; k < s->ncombos && ok; k++) {
        size_t *vi = xmalloc(s->naxes * sizeof *vi);
        for (size_t a = 0; a < s->naxes; a++) vi[a] = digit[s->axes[a].factor];
        if (excluded(sp, vi)) {
            s->nexcluded++;
            free(vi);
        } else {
            struct sweep_point *p = &s->points[s->npoints++];
            p->vi = vi;
            p->name = point_name(s, sp, vi);
            if (strlen(p->name) > SWEEP_MAX_NAME) {
                const struct sweep_axis *ax = &s->axes[0];
                struct sweep_loc l = sp->has_name ? sp->name_loc
                    : (struct sweep_loc){ax->line[vi[0]], ax->col[vi[0]]};
                ok = sweep_fail_at(err, s->file, l, "point name '%.40s...' is "
                                   "longer than %d characters; use name: to "
                                   "shorten it", p->name, SWEEP_MAX_NAME);
            } else {
                ok = resolve(c, s, p, err);
            }
        }
        /* Next combination: the last factor varies fastest. */
        for (size_t f = s->nfactors; f-- > 0;) {
            if (++digit[f] < s->factor_len[f]) break;
            digit[f] = 0;
        }
    }
    free(digit);
    return ok;
}

static void keep_fixed_text(struct sweep *s, const struct sweep_spec *sp)
{
    s->nfixed = sp->nfixed;
    s->fixed = xcalloc(sp->nfixed, sizeof *s->fixed);
    for (size_t i = 0; i < sp->nfixed; i++) {
        size_t n = strlen(sp->fixed[i].key) + strlen(sp->fixed[i].val) + 2;
        s->fixed[i] = xmalloc(n);
        snprintf(s->fixed[i], n, "%s=%s", sp->fixed[i].key, sp->fixed[i].val);
    }
}

struct sweep *sweep_load(const char *path, const char *const *sets,
                         size_t nsets, struct cfg_error *err)
{
    struct sweep *s = xcalloc(1, sizeof *s);
    struct sweep_spec sp = {0};
    struct config *c = NULL;
    bool ok = sweep_read_file(path, sets, nsets, s, &sp, err) &&
              count_combos(s, &sp, err);
    if (ok) {
        s->base = sp.base ? xstrdup(sp.base) : NULL;
        s->nsets = nsets;
        s->sets = xcalloc(nsets ? nsets : 1, sizeof *s->sets);
        for (size_t i = 0; i < nsets; i++) s->sets[i] = xstrdup(sets[i]);
        keep_fixed_text(s, &sp);
        c = s->cfg = config_load(s->base, NULL, 0, err);
        ok = c && apply_fixed(c, s, &sp, err) && expand(s, &sp, c, err);
    }
    if (ok && s->npoints == 0) {
        snprintf(err->msg, sizeof err->msg, "%s: exclude: removes every one "
                 "of the %zu points", path, s->ncombos);
        ok = false;
    }
    ok = ok && names_unique(s, &sp, err);
    sweep_spec_free(&sp);
    if (!ok) {
        sweep_free(s);
        return NULL;
    }
    return s;
}

void sweep_free(struct sweep *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->naxes; i++) {
        struct sweep_axis *a = &s->axes[i];
        for (size_t v = 0; v < a->nvals; v++) free(a->text[v]);
        free(a->text);
        free(a->line);
        free(a->col);
        free(a->key);
    }
    free(s->axes);
    for (size_t i = 0; i < s->npoints; i++) {
        free(s->points[i].name);
        free(s->points[i].vi);
    }
    free(s->points);
    config_free(s->cfg);
    for (size_t i = 0; i < s->nfixed; i++) free(s->fixed[i]);
    free(s->fixed);
    for (size_t i = 0; i < s->nsets; i++) free(s->sets[i]);
    free(s->sets);
    free(s->factor_len);
    free(s->base);
    free(s->text);
    free(s->file);
    free(s);
}

/* The varying part of a sweep file: axes:, zip: groups, seeds:, exclude:
 * rules and the name: template (the rest: sweep_file.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "sweep_read.h"

/* More points than this is a typo in seeds: or an axis, not a sweep. */
#define MAX_SEEDS 100000

/* ---- axes:, zip:, seeds: ---- */

static bool axis_seen(struct rd *r, const char *path, yaml_node_t *k)
{
    for (size_t i = 0; i < r->s->naxes; i++)
        if (!strcmp(r->s->axes[i].key, path)) {
            struct sweep_loc f = r->sp->key_loc[i];
            return sweep_fail_at(r->err, r->file, rd_loc(k),
                                 "key '%s': already an axis (at %d:%d)", path,
                                 f.line, f.col);
        }
    return true;
}

static struct sweep_axis *new_axis(struct rd *r, const char *path,
                                   struct sweep_loc kloc, size_t factor)
{
    struct sweep *s = r->s;
    if (s->naxes == r->cap_axes) {
        r->cap_axes = r->cap_axes ? 2 * r->cap_axes : 8;
        s->axes = xrealloc(s->axes, r->cap_axes * sizeof *s->axes);
        r->sp->key_loc = xrealloc(r->sp->key_loc,
                                  r->cap_axes * sizeof *r->sp->key_loc);
    }
    r->sp->key_loc[s->naxes] = kloc;
    struct sweep_axis *a = &s->axes[s->naxes++];
    memset(a, 0, sizeof *a);
    a->key = xstrdup(path);
    a->ck = cfg_get(r->scratch, path)->key;
    a->factor = factor;
    return a;
}

static void axis_add_value(struct sweep_axis *a, const char *text,
                           struct sweep_loc l)
{
    /* Doubling: `seeds: 100000` adds one value at a time, and growing by
     * one made that quadratic (the fuzzer's sweepfile target ran out of
     * its 2 GiB under ASan, which keeps every freed block a while). */
    if (a->nvals == a->cap) {
        a->cap = a->cap ? 2 * a->cap : 4;
        a->text = xrealloc(a->text, a->cap * sizeof *a->text);
        a->line = xrealloc(a->line, a->cap * sizeof *a->line);
        a->col = xrealloc(a->col, a->cap * sizeof *a->col);
    }
    a->text[a->nvals] = xstrdup(text);
    a->line[a->nvals] = l.line;
    a->col[a->nvals] = l.col;
    a->nvals++;
}

/* A value the axis already has (0.75 and 75% are one value). */
static bool axis_dup(struct rd *r, const struct sweep_axis *a, yaml_node_t *v)
{
    for (size_t i = 0; i < a->nvals; i++)
        if (sweep_same_value(a->ck, a->text[i], rd_scalar(v)))
            return sweep_fail_at(r->err, r->file, rd_loc(v),
                                 "key '%s': value '%s' is already on the axis "
                                 "(as '%s' at %d:%d)", a->key, rd_scalar(v),
                                 a->text[i], a->line[i], a->col[i]);
    return true;
}

/* Values of an axis; DUPS: a zip group's lists may repeat a value (two
 * workloads of one kind), only whole rows must differ. */
static bool axis_values(struct rd *r, struct sweep_axis *a, yaml_node_t *seq,
                        yaml_node_t *k, bool dups)
{
    if (seq->type != YAML_SEQUENCE_NODE)
        return sweep_fail_at(r->err, r->file, rd_loc(seq),
                             "key '%s': expected a list of values, got %s "
                             "(a value for every point goes in set:)", a->key,
                             rd_kind(seq));
    yaml_node_item_t *it = seq->data.sequence.items.start;
    if (it == seq->data.sequence.items.top)
        return sweep_fail_at(r->err, r->file, rd_loc(k),
                             "key '%s': expected at least one value", a->key);
    for (; it < seq->data.sequence.items.top; it++) {
        yaml_node_t *v = rd_node(r, *it);
        if (!rd_check_value(r, a->key, v) || (!dups && !axis_dup(r, a, v)))
            return false;
        axis_add_value(a, rd_scalar(v), rd_loc(v));
    }
    return true;
}

static size_t new_factor(struct sweep *s, size_t len)
{
    s->factor_len = xrealloc(s->factor_len,
                             (s->nfactors + 1) * sizeof *s->factor_len);
    s->factor_len[s->nfactors] = len;
    return s->nfactors++;
}

bool rd_axes_leaf(struct rd *r, const char *path, yaml_node_t *k,
                      yaml_node_t *v, void *ctx)
{
    (void)ctx;
    if (!axis_seen(r, path, k)) return false;
    struct sweep_axis *a = new_axis(r, path, rd_loc(k), r->s->nfactors);
    if (!axis_values(r, a, v, k, false)) return false;
    new_factor(r->s, a->nvals);
    return true;
}

/* A zip group: its keys share one factor; every list has the first's
 * length. */
struct zip_ctx { size_t factor, len, first; };

static bool zip_leaf(struct rd *r, const char *path, yaml_node_t *k,
                     yaml_node_t *v, void *ctx)
{
    struct zip_ctx *z = ctx;
    if (!axis_seen(r, path, k)) return false;
    struct sweep_axis *a = new_axis(r, path, rd_loc(k), z->factor);
    if (!axis_values(r, a, v, k, true)) return false;
    if (z->len == 0) {
        z->len = a->nvals;
        z->first = r->s->naxes - 1;
    } else if (a->nvals != z->len) {
        return sweep_fail_at(r->err, r->file, rd_loc(v),
                             "key '%s': zip group lists must have equal "
                             "lengths: %zu values here, %zu for '%s'", path,
                             a->nvals, z->len, r->s->axes[z->first].key);
    }
    return true;
}

/* Two equal rows of a zip group would be two points of one config. */
static bool zip_rows_differ(struct rd *r, size_t first)
{
    const struct sweep *s = r->s;
    size_t len = s->axes[first].nvals;
    for (size_t i = 1; i < len; i++)
        for (size_t j = 0; j < i; j++) {
            bool same = true;
            for (size_t a = first; a < s->naxes && same; a++)
                same = sweep_same_value(s->axes[a].ck, s->axes[a].text[i],
                                        s->axes[a].text[j]);
            if (same) {
                const struct sweep_axis *a = &s->axes[first];
                struct sweep_loc l = {a->line[i], a->col[i]};
                return sweep_fail_at(r->err, r->file, l, "key '%s': zip row "
                                     "%zu repeats row %zu (at %d:%d) in every "
                                     "key", a->key, i + 1, j + 1, a->line[j],
                                     a->col[j]);
            }
        }
    return true;
}

bool rd_zip(struct rd *r, yaml_node_t *n)
{
    if (n->type != YAML_SEQUENCE_NODE)
        return sweep_fail_at(r->err, r->file, rd_loc(n), "zip: expected a "
                             "list of groups (mappings of key to values), got "
                             "%s", rd_kind(n));
    for (yaml_node_item_t *it = n->data.sequence.items.start;
         it < n->data.sequence.items.top; it++) {
        yaml_node_t *g = rd_node(r, *it);
        if (!rd_expect_mapping(r, g, "zip group")) return false;
        struct zip_ctx z = {new_factor(r->s, 0), 0, 0};
        if (!rd_walk(r, g, "", zip_leaf, &z)) return false;
        if (z.len == 0)
            return sweep_fail_at(r->err, r->file, rd_loc(g),
                                 "zip group: expected at least one key");
        r->s->factor_len[z.factor] = z.len;
        if (!zip_rows_differ(r, z.first)) return false;
    }
    return true;
}

/* seeds: N (sim.seed = 1..N; 1 is the configs' default seed) or a list. */
bool rd_seeds(struct rd *r, yaml_node_t *k, yaml_node_t *n)
{
    if (!axis_seen(r, "sim.seed", k)) return false;
    struct sweep_axis *a = new_axis(r, "sim.seed", rd_loc(k), r->s->nfactors);
    if (n->type == YAML_SEQUENCE_NODE) {
        if (!axis_values(r, a, n, k, false)) return false;
    } else if (n->type == YAML_SCALAR_NODE) {
        char *end;
        errno = 0;
        long long c = strtoll(rd_scalar(n), &end, 10);
        if (errno || *end || end == rd_scalar(n) || c < 1 || c > MAX_SEEDS)
            return sweep_fail_at(r->err, r->file, rd_loc(n), "key 'seeds': "
                                 "expected a count in [1, %d] or a list of "
                                 "seeds, got '%s'", MAX_SEEDS, rd_scalar(n));
        char buf[32];
        for (long long i = 1; i <= c; i++) {
            snprintf(buf, sizeof buf, "%lld", i);
            axis_add_value(a, buf, rd_loc(n));
        }
    } else {
        return sweep_fail_at(r->err, r->file, rd_loc(n), "key 'seeds': "
                             "expected a count or a list, got %s", rd_kind(n));
    }
    new_factor(r->s, a->nvals);
    return true;
}

/* ---- exclude: ---- */

size_t rd_axis_index(const struct sweep *s, const char *key)
{
    for (size_t i = 0; i < s->naxes; i++)
        if (!strcmp(s->axes[i].key, key)) return i;
    return SIZE_MAX;
}

static bool term_value(struct rd *r, struct sweep_term *t, yaml_node_t *v)
{
    const struct sweep_axis *a = &r->s->axes[t->axis];
    if (!rd_check_value(r, a->key, v)) return false;
    size_t before = t->nvi;
    /* Every index with that value: a zip key may repeat one. */
    for (size_t i = 0; i < a->nvals; i++)
        if (sweep_same_value(a->ck, a->text[i], rd_scalar(v))) {
            t->vi = xrealloc(t->vi, (t->nvi + 1) * sizeof *t->vi);
            t->vi[t->nvi++] = i;
        }
    if (t->nvi > before) return true;
    return sweep_fail_at(r->err, r->file, rd_loc(v), "key '%s': '%s' is not "
                         "a value of the axis, so the rule would exclude "
                         "nothing", a->key, rd_scalar(v));
}

static bool rule_leaf(struct rd *r, const char *path, yaml_node_t *k,
                      yaml_node_t *v, void *ctx)
{
    struct sweep_rule *rule = ctx;
    size_t ax = rd_axis_index(r->s, path);
    if (ax == SIZE_MAX)
        return sweep_fail_at(r->err, r->file, rd_loc(k), "key '%s': exclude "
                             "names a key that is not an axis", path);
    for (size_t i = 0; i < rule->nterms; i++)
        if (rule->terms[i].axis == ax)
            return sweep_fail_at(r->err, r->file, rd_loc(k), "key '%s': "
                                 "duplicate key in one exclude rule", path);
    rule->terms = xrealloc(rule->terms,
                           (rule->nterms + 1) * sizeof *rule->terms);
    struct sweep_term *t = &rule->terms[rule->nterms++];
    *t = (struct sweep_term){ax, 0, NULL};
    if (v->type != YAML_SEQUENCE_NODE) return term_value(r, t, v);
    for (yaml_node_item_t *it = v->data.sequence.items.start;
         it < v->data.sequence.items.top; it++)
        if (!term_value(r, t, rd_node(r, *it))) return false;
    if (t->nvi == 0)
        return sweep_fail_at(r->err, r->file, rd_loc(v), "key '%s': expected "
                             "at least one value", path);
    return true;
}

bool rd_exclude(struct rd *r, yaml_node_t *n)
{
    if (n->type != YAML_SEQUENCE_NODE)
        return sweep_fail_at(r->err, r->file, rd_loc(n), "exclude: expected a "
                             "list of rules (mappings of axis to values), got "
                             "%s", rd_kind(n));
    struct sweep_spec *sp = r->sp;
    for (yaml_node_item_t *it = n->data.sequence.items.start;
         it < n->data.sequence.items.top; it++) {
        yaml_node_t *m = rd_node(r, *it);
        if (!rd_expect_mapping(r, m, "exclude rule")) return false;
        sp->rules = xrealloc(sp->rules, (sp->nrules + 1) * sizeof *sp->rules);
        struct sweep_rule *rule = &sp->rules[sp->nrules++];
        *rule = (struct sweep_rule){0, NULL};
        if (!rd_walk(r, m, "", rule_leaf, rule)) return false;
        if (rule->nterms == 0)
            return sweep_fail_at(r->err, r->file, rd_loc(m), "exclude rule: "
                                 "expected at least one axis");
    }
    return true;
}

/* ---- name: ---- */

static void add_seg(struct sweep_spec *sp, char *lit, size_t axis)
{
    sp->segs = xrealloc(sp->segs, (sp->nsegs + 1) * sizeof *sp->segs);
    sp->segs[sp->nsegs++] = (struct sweep_seg){lit, axis};
}

/* "{driver.eviction}-{gpu.memory.fraction}": axis keys in braces, the
 * rest literal file-name characters. */
bool rd_name(struct rd *r, yaml_node_t *n)
{
    struct sweep_spec *sp = r->sp;
    struct sweep_loc l = rd_loc(n);
    if (n->type != YAML_SCALAR_NODE || !rd_scalar(n)[0])
        return sweep_fail_at(r->err, r->file, l, "key 'name': expected a "
                             "template such as \"{driver.eviction}-{seed}\"");
    sp->has_name = true;
    sp->name_loc = l;
    const char *p = rd_scalar(n);
    while (*p) {
        if (*p == '{') {
            const char *e = strchr(p, '}');
            if (!e)
                return sweep_fail_at(r->err, r->file, l, "key 'name': '{' "
                                     "without '}'");
            size_t len = (size_t)(e - p - 1);
            char *key = xmalloc(len + 1);
            memcpy(key, p + 1, len);
            key[len] = '\0';
            size_t ax = rd_axis_index(r->s, !strcmp(key, "seed") ? "sim.seed"
                                                              : key);
            if (ax == SIZE_MAX) {
                sweep_fail_at(r->err, r->file, l, "key 'name': '{%s}' is not "
                              "an axis", key);
                free(key);
                return false;
            }
            free(key);
            add_seg(sp, NULL, ax);
            p = e + 1;
        } else {
            size_t len = 0;
            while (p[len] && p[len] != '{') {
                if (!sweep_name_char(p[len]))
                    return sweep_fail_at(r->err, r->file, l, "key 'name': "
                                         "'%c' is not allowed in a point name "
                                         "(letters, digits, . _ - +)", p[len]);
                len++;
            }
            char *lit = xmalloc(len + 1);
            memcpy(lit, p, len);
            lit[len] = '\0';
            add_seg(sp, lit, 0);
            p += len;
        }
    }
    return true;
}


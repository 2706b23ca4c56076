/* Reading a sweep file (docs/sweeps.md) with libyaml's document API, which
 * keeps every node's start mark: each error names FILE:LINE:COL.  Values
 * are checked against the config schema here, before any point exists. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "config.h"
#include "sweep_int.h"

/* More points than this is a typo in seeds: or an axis, not a sweep. */
#define MAX_SEEDS 100000

struct rd {
    const char *file;
    yaml_document_t *doc;
    struct cfg_error *err;
    struct config *scratch;         /* validates values, knows the keys */
    struct sweep *s;
    struct sweep_spec *sp;
    size_t cap_axes;
};

bool sweep_fail_at(struct cfg_error *err, const char *file, struct sweep_loc l,
                   const char *fmt, ...)
{
    int n = snprintf(err->msg, sizeof err->msg, "%s:%d:%d: ", file, l.line,
                     l.col);
    if (n < 0 || (size_t)n >= sizeof err->msg) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
    va_end(ap);
    return false;
}

static struct sweep_loc loc_of(const yaml_node_t *n)
{
    return (struct sweep_loc){(int)n->start_mark.line + 1,
                              (int)n->start_mark.column + 1};
}

static const char *scalar(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

static const char *kind(const yaml_node_t *n)
{
    return n->type == YAML_MAPPING_NODE ? "a mapping"
         : n->type == YAML_SEQUENCE_NODE ? "a sequence" : "a scalar";
}

static yaml_node_t *node(struct rd *r, yaml_node_item_t i)
{
    return yaml_document_get_node(r->doc, i);
}

/* Puts PRE in front of the message already in err. */
static bool prepend(struct cfg_error *err, const char *pre)
{
    size_t lp = strlen(pre), lm = strlen(err->msg);
    if (lp >= sizeof err->msg) lp = sizeof err->msg - 1;
    if (lp + lm >= sizeof err->msg) lm = sizeof err->msg - 1 - lp;
    memmove(err->msg + lp, err->msg, lm);
    memcpy(err->msg, pre, lp);
    err->msg[lp + lm] = '\0';
    return false;
}

/* The config loader's message ("key 'K': ...") behind our location. */
static bool relocate(struct rd *r, struct sweep_loc l)
{
    char pre[512];
    snprintf(pre, sizeof pre, "%.400s:%d:%d: ", r->file, l.line, l.col);
    return prepend(r->err, pre);
}

/* A value of KEY: a scalar the schema accepts, and one line of text (the
 * plan is a tab-separated file). */
static bool check_value(struct rd *r, const char *key, yaml_node_t *v)
{
    if (v->type != YAML_SCALAR_NODE)
        return sweep_fail_at(r->err, r->file, loc_of(v),
                             "key '%s': expected a value, got %s", key, kind(v));
    const char *t = scalar(v);
    if (strpbrk(t, "\t\n\r"))
        return sweep_fail_at(r->err, r->file, loc_of(v),
                             "key '%s': a value may not hold a tab or a line "
                             "break", key);
    struct sweep_loc l = loc_of(v);
    if (!config_set(r->scratch, key, t, r->file, l.line, l.col, r->err))
        return relocate(r, l);
    return true;
}

static bool unknown_key(struct rd *r, const char *path, yaml_node_t *k)
{
    /* config_set words it (with "did you mean"); the key is unknown, so
     * nothing is set. */
    config_set(r->scratch, path, "", NULL, 0, 0, r->err);
    return relocate(r, loc_of(k));
}

static char *join(const char *prefix, const char *key)
{
    if (!prefix[0]) return xstrdup(key);
    size_t lp = strlen(prefix), lk = strlen(key);
    char *p = xmalloc(lp + lk + 2);
    memcpy(p, prefix, lp);
    p[lp] = '.';
    memcpy(p + lp + 1, key, lk + 1);
    return p;
}

/* Nested mappings flatten to dotted keys, as in config files; LEAF gets
 * every known key with its value node. */
typedef bool (*leaf_fn)(struct rd *r, const char *path, yaml_node_t *k,
                        yaml_node_t *v, void *ctx);

static bool walk(struct rd *r, yaml_node_t *map, const char *prefix,
                 leaf_fn leaf, void *ctx)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
         p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node(r, p->key), *v = node(r, p->value);
        if (k->type != YAML_SCALAR_NODE)
            return sweep_fail_at(r->err, r->file, loc_of(k),
                                 "expected a key name, got %s", kind(k));
        char *path = join(prefix, scalar(k));
        bool known = cfg_get(r->scratch, path) != NULL, ok;
        if (!known && v->type == YAML_MAPPING_NODE)
            ok = walk(r, v, path, leaf, ctx);
        else if (!known)
            ok = unknown_key(r, path, k);
        else
            ok = leaf(r, path, k, v, ctx);
        free(path);
        if (!ok) return false;
    }
    return true;
}

static bool expect_mapping(struct rd *r, yaml_node_t *n, const char *what)
{
    if (n->type == YAML_MAPPING_NODE) return true;
    return sweep_fail_at(r->err, r->file, loc_of(n), "%s: expected a mapping, "
                         "got %s", what, kind(n));
}

/* ---- set: and -s ---- */

static bool fixed_seen(struct rd *r, const char *path, yaml_node_t *k)
{
    for (size_t i = 0; i < r->sp->nfixed; i++) {
        const struct sweep_fixed *f = &r->sp->fixed[i];
        if (!f->cli && !strcmp(f->key, path))
            return sweep_fail_at(r->err, r->file, loc_of(k),
                                 "key '%s': duplicate key (first set at %d:%d)",
                                 path, f->kloc.line, f->kloc.col);
    }
    return true;
}

static void add_fixed(struct sweep_spec *sp, const char *key, const char *val,
                      bool cli, struct sweep_loc kl, struct sweep_loc vl)
{
    sp->fixed = xrealloc(sp->fixed, (sp->nfixed + 1) * sizeof *sp->fixed);
    sp->fixed[sp->nfixed++] = (struct sweep_fixed){
        xstrdup(key), xstrdup(val), cli, kl, vl};
}

static bool set_leaf(struct rd *r, const char *path, yaml_node_t *k,
                     yaml_node_t *v, void *ctx)
{
    (void)ctx;
    if (!fixed_seen(r, path, k) || !check_value(r, path, v)) return false;
    add_fixed(r->sp, path, scalar(v), false, loc_of(k), loc_of(v));
    return true;
}

static bool read_cli_sets(struct rd *r, const char *const *sets, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(sets[i], '=');
        if (!eq) {
            snprintf(r->err->msg, sizeof r->err->msg, "-s '%.400s': key "
                     "'%.400s': expected KEY=VALUE, got no '='", sets[i],
                     sets[i]);
            return false;
        }
        char *key = xstrdup(sets[i]);
        key[eq - sets[i]] = '\0';
        bool ok = !strpbrk(eq + 1, "\t\n\r") &&
                  config_set(r->scratch, key, eq + 1, "-s", 0, 0, r->err);
        if (!ok) {
            if (strpbrk(eq + 1, "\t\n\r"))
                snprintf(r->err->msg, sizeof r->err->msg, "key '%s': a value "
                         "may not hold a tab or a line break", key);
            char pre[512];
            snprintf(pre, sizeof pre, "-s '%.400s': ", sets[i]);
            prepend(r->err, pre);
        } else {
            struct sweep_loc none = {0, 0};
            add_fixed(r->sp, key, eq + 1, true, none, none);
        }
        free(key);
        if (!ok) return false;
    }
    return true;
}

/* ---- axes:, zip:, seeds: ---- */

static bool axis_seen(struct rd *r, const char *path, yaml_node_t *k)
{
    for (size_t i = 0; i < r->s->naxes; i++)
        if (!strcmp(r->s->axes[i].key, path)) {
            struct sweep_loc f = r->sp->key_loc[i];
            return sweep_fail_at(r->err, r->file, loc_of(k),
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
    a->text = xrealloc(a->text, (a->nvals + 1) * sizeof *a->text);
    a->line = xrealloc(a->line, (a->nvals + 1) * sizeof *a->line);
    a->col = xrealloc(a->col, (a->nvals + 1) * sizeof *a->col);
    a->text[a->nvals] = xstrdup(text);
    a->line[a->nvals] = l.line;
    a->col[a->nvals] = l.col;
    a->nvals++;
}

/* A value the axis already has (0.75 and 75% are one value). */
static bool axis_dup(struct rd *r, const struct sweep_axis *a, yaml_node_t *v)
{
    for (size_t i = 0; i < a->nvals; i++)
        if (sweep_same_value(a->ck, a->text[i], scalar(v)))
            return sweep_fail_at(r->err, r->file, loc_of(v),
                                 "key '%s': value '%s' is already on the axis "
                                 "(as '%s' at %d:%d)", a->key, scalar(v),
                                 a->text[i], a->line[i], a->col[i]);
    return true;
}

/* Values of an axis; DUPS: a zip group's lists may repeat a value (two
 * workloads of one kind), only whole rows must differ. */
static bool axis_values(struct rd *r, struct sweep_axis *a, yaml_node_t *seq,
                        yaml_node_t *k, bool dups)
{
    if (seq->type != YAML_SEQUENCE_NODE)
        return sweep_fail_at(r->err, r->file, loc_of(seq),
                             "key '%s': expected a list of values, got %s "
                             "(a value for every point goes in set:)", a->key,
                             kind(seq));
    yaml_node_item_t *it = seq->data.sequence.items.start;
    if (it == seq->data.sequence.items.top)
        return sweep_fail_at(r->err, r->file, loc_of(k),
                             "key '%s': expected at least one value", a->key);
    for (; it < seq->data.sequence.items.top; it++) {
        yaml_node_t *v = node(r, *it);
        if (!check_value(r, a->key, v) || (!dups && !axis_dup(r, a, v)))
            return false;
        axis_add_value(a, scalar(v), loc_of(v));
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

static bool axes_leaf(struct rd *r, const char *path, yaml_node_t *k,
                      yaml_node_t *v, void *ctx)
{
    (void)ctx;
    if (!axis_seen(r, path, k)) return false;
    struct sweep_axis *a = new_axis(r, path, loc_of(k), r->s->nfactors);
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
    struct sweep_axis *a = new_axis(r, path, loc_of(k), z->factor);
    if (!axis_values(r, a, v, k, true)) return false;
    if (z->len == 0) {
        z->len = a->nvals;
        z->first = r->s->naxes - 1;
    } else if (a->nvals != z->len) {
        return sweep_fail_at(r->err, r->file, loc_of(v),
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

static bool read_zip(struct rd *r, yaml_node_t *n)
{
    if (n->type != YAML_SEQUENCE_NODE)
        return sweep_fail_at(r->err, r->file, loc_of(n), "zip: expected a "
                             "list of groups (mappings of key to values), got "
                             "%s", kind(n));
    for (yaml_node_item_t *it = n->data.sequence.items.start;
         it < n->data.sequence.items.top; it++) {
        yaml_node_t *g = node(r, *it);
        if (!expect_mapping(r, g, "zip group")) return false;
        struct zip_ctx z = {new_factor(r->s, 0), 0, 0};
        if (!walk(r, g, "", zip_leaf, &z)) return false;
        if (z.len == 0)
            return sweep_fail_at(r->err, r->file, loc_of(g),
                                 "zip group: expected at least one key");
        r->s->factor_len[z.factor] = z.len;
        if (!zip_rows_differ(r, z.first)) return false;
    }
    return true;
}

/* seeds: N (sim.seed = 1..N; 1 is the configs' default seed) or a list. */
static bool read_seeds(struct rd *r, yaml_node_t *k, yaml_node_t *n)
{
    if (!axis_seen(r, "sim.seed", k)) return false;
    struct sweep_axis *a = new_axis(r, "sim.seed", loc_of(k), r->s->nfactors);
    if (n->type == YAML_SEQUENCE_NODE) {
        if (!axis_values(r, a, n, k, false)) return false;
    } else if (n->type == YAML_SCALAR_NODE) {
        char *end;
        errno = 0;
        long long c = strtoll(scalar(n), &end, 10);
        if (errno || *end || end == scalar(n) || c < 1 || c > MAX_SEEDS)
            return sweep_fail_at(r->err, r->file, loc_of(n), "key 'seeds': "
                                 "expected a count in [1, %d] or a list of "
                                 "seeds, got '%s'", MAX_SEEDS, scalar(n));
        char buf[32];
        for (long long i = 1; i <= c; i++) {
            snprintf(buf, sizeof buf, "%lld", i);
            axis_add_value(a, buf, loc_of(n));
        }
    } else {
        return sweep_fail_at(r->err, r->file, loc_of(n), "key 'seeds': "
                             "expected a count or a list, got %s", kind(n));
    }
    new_factor(r->s, a->nvals);
    return true;
}

/* ---- exclude: ---- */

static size_t axis_index(const struct sweep *s, const char *key)
{
    for (size_t i = 0; i < s->naxes; i++)
        if (!strcmp(s->axes[i].key, key)) return i;
    return SIZE_MAX;
}

static bool term_value(struct rd *r, struct sweep_term *t, yaml_node_t *v)
{
    const struct sweep_axis *a = &r->s->axes[t->axis];
    if (!check_value(r, a->key, v)) return false;
    size_t before = t->nvi;
    /* Every index with that value: a zip key may repeat one. */
    for (size_t i = 0; i < a->nvals; i++)
        if (sweep_same_value(a->ck, a->text[i], scalar(v))) {
            t->vi = xrealloc(t->vi, (t->nvi + 1) * sizeof *t->vi);
            t->vi[t->nvi++] = i;
        }
    if (t->nvi > before) return true;
    return sweep_fail_at(r->err, r->file, loc_of(v), "key '%s': '%s' is not "
                         "a value of the axis, so the rule would exclude "
                         "nothing", a->key, scalar(v));
}

static bool rule_leaf(struct rd *r, const char *path, yaml_node_t *k,
                      yaml_node_t *v, void *ctx)
{
    struct sweep_rule *rule = ctx;
    size_t ax = axis_index(r->s, path);
    if (ax == SIZE_MAX)
        return sweep_fail_at(r->err, r->file, loc_of(k), "key '%s': exclude "
                             "names a key that is not an axis", path);
    for (size_t i = 0; i < rule->nterms; i++)
        if (rule->terms[i].axis == ax)
            return sweep_fail_at(r->err, r->file, loc_of(k), "key '%s': "
                                 "duplicate key in one exclude rule", path);
    rule->terms = xrealloc(rule->terms,
                           (rule->nterms + 1) * sizeof *rule->terms);
    struct sweep_term *t = &rule->terms[rule->nterms++];
    *t = (struct sweep_term){ax, 0, NULL};
    if (v->type != YAML_SEQUENCE_NODE) return term_value(r, t, v);
    for (yaml_node_item_t *it = v->data.sequence.items.start;
         it < v->data.sequence.items.top; it++)
        if (!term_value(r, t, node(r, *it))) return false;
    if (t->nvi == 0)
        return sweep_fail_at(r->err, r->file, loc_of(v), "key '%s': expected "
                             "at least one value", path);
    return true;
}

static bool read_exclude(struct rd *r, yaml_node_t *n)
{
    if (n->type != YAML_SEQUENCE_NODE)
        return sweep_fail_at(r->err, r->file, loc_of(n), "exclude: expected a "
                             "list of rules (mappings of axis to values), got "
                             "%s", kind(n));
    struct sweep_spec *sp = r->sp;
    for (yaml_node_item_t *it = n->data.sequence.items.start;
         it < n->data.sequence.items.top; it++) {
        yaml_node_t *m = node(r, *it);
        if (!expect_mapping(r, m, "exclude rule")) return false;
        sp->rules = xrealloc(sp->rules, (sp->nrules + 1) * sizeof *sp->rules);
        struct sweep_rule *rule = &sp->rules[sp->nrules++];
        *rule = (struct sweep_rule){0, NULL};
        if (!walk(r, m, "", rule_leaf, rule)) return false;
        if (rule->nterms == 0)
            return sweep_fail_at(r->err, r->file, loc_of(m), "exclude rule: "
                                 "expected at least one axis");
    }
    return true;
}

/* ---- name: ---- */

static bool name_char_ok(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-' ||
           c == '+';
}

static void add_seg(struct sweep_spec *sp, char *lit, size_t axis)
{
    sp->segs = xrealloc(sp->segs, (sp->nsegs + 1) * sizeof *sp->segs);
    sp->segs[sp->nsegs++] = (struct sweep_seg){lit, axis};
}

/* "{driver.eviction}-{gpu.memory.fraction}": axis keys in braces, the
 * rest literal file-name characters. */
static bool read_name(struct rd *r, yaml_node_t *n)
{
    struct sweep_spec *sp = r->sp;
    struct sweep_loc l = loc_of(n);
    if (n->type != YAML_SCALAR_NODE || !scalar(n)[0])
        return sweep_fail_at(r->err, r->file, l, "key 'name': expected a "
                             "template such as \"{driver.eviction}-{seed}\"");
    sp->has_name = true;
    sp->name_loc = l;
    const char *p = scalar(n);
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
            size_t ax = axis_index(r->s, !strcmp(key, "seed") ? "sim.seed"
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
                if (!name_char_ok(p[len]))
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

/* ---- base: ---- */

/* Relative to the sweep file's directory, as a config's own base:. */
static bool read_base(struct rd *r, yaml_node_t *n)
{
    struct sweep_loc l = loc_of(n);
    if (n->type != YAML_SCALAR_NODE || !scalar(n)[0])
        return sweep_fail_at(r->err, r->file, l, "key 'base': expected a "
                             "config file name, got %s",
                             n->type == YAML_SCALAR_NODE ? "''" : kind(n));
    const char *b = scalar(n), *slash = strrchr(r->file, '/');
    char *path;
    if (b[0] == '/' || !slash) {
        path = xstrdup(b);
    } else {
        size_t ld = (size_t)(slash - r->file) + 1, lb = strlen(b);
        path = xmalloc(ld + lb + 1);
        memcpy(path, r->file, ld);
        memcpy(path + ld, b, lb + 1);
    }
    FILE *fp = fopen(path, "r");
    if (!fp) {
        int e = errno;
        sweep_fail_at(r->err, r->file, l, "key 'base': cannot open '%s': %s",
                      path, strerror(e));
        free(path);
        return false;
    }
    fclose(fp);
    r->sp->base = path;
    r->sp->base_loc = l;
    return true;
}

/* ---- the document ---- */

enum { S_BASE, S_SET, S_AXES, S_ZIP, S_SEEDS, S_EXCLUDE, S_NAME, NSECTIONS };
static const char *const sections[NSECTIONS] = {
    "base", "set", "axes", "zip", "seeds", "exclude", "name",
};

static bool fixed_not_axis(struct rd *r)
{
    for (size_t i = 0; i < r->sp->nfixed; i++) {
        const struct sweep_fixed *f = &r->sp->fixed[i];
        size_t ax = axis_index(r->s, f->key);
        if (ax == SIZE_MAX) continue;
        struct sweep_loc al = r->sp->key_loc[ax];
        if (f->cli) {
            snprintf(r->err->msg, sizeof r->err->msg, "-s '%s=%s': key '%s': "
                     "is an axis of %s (at %d:%d); -s fixes keys for every "
                     "point", f->key, f->val, f->key, r->file, al.line, al.col);
            return false;
        }
        return sweep_fail_at(r->err, r->file, f->kloc, "key '%s': set: fixes "
                             "it for every point, but it is also an axis (at "
                             "%d:%d)", f->key, al.line, al.col);
    }
    return true;
}

static bool read_root(struct rd *r, yaml_node_t *root, const char *const *sets,
                      size_t nsets)
{
    yaml_node_t *sec[NSECTIONS] = {0}, *key[NSECTIONS] = {0};
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
         p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = node(r, p->key);
        size_t i = 0;
        while (i < NSECTIONS && (k->type != YAML_SCALAR_NODE ||
                                 strcmp(scalar(k), sections[i])))
            i++;
        if (i == NSECTIONS)
            return sweep_fail_at(r->err, r->file, loc_of(k), "key '%s': "
                                 "unknown sweep key (expected base, set, axes, "
                                 "zip, seeds, exclude or name)",
                                 k->type == YAML_SCALAR_NODE ? scalar(k) : "?");
        if (sec[i])
            return sweep_fail_at(r->err, r->file, loc_of(k), "key '%s': "
                                 "duplicate key (first set at %d:%d)",
                                 sections[i], loc_of(key[i]).line,
                                 loc_of(key[i]).col);
        sec[i] = node(r, p->value);
        key[i] = k;
    }
    /* A mapping or list section written empty (a YAML null) is absent. */
    static const int maybe_empty[] = {S_SET, S_AXES, S_ZIP, S_EXCLUDE};
    for (size_t j = 0; j < sizeof maybe_empty / sizeof maybe_empty[0]; j++) {
        yaml_node_t *n = sec[maybe_empty[j]];
        if (n && n->type == YAML_SCALAR_NODE && !scalar(n)[0])
            sec[maybe_empty[j]] = NULL;
    }
    if (sec[S_BASE] && !read_base(r, sec[S_BASE])) return false;
    if (sec[S_SET] && !(expect_mapping(r, sec[S_SET], "set") &&
                        walk(r, sec[S_SET], "", set_leaf, NULL)))
        return false;
    if (!read_cli_sets(r, sets, nsets)) return false;
    if (sec[S_AXES] && !(expect_mapping(r, sec[S_AXES], "axes") &&
                         walk(r, sec[S_AXES], "", axes_leaf, NULL)))
        return false;
    if (sec[S_ZIP] && !read_zip(r, sec[S_ZIP])) return false;
    if (sec[S_SEEDS] && !read_seeds(r, key[S_SEEDS], sec[S_SEEDS]))
        return false;
    if (r->s->naxes == 0)
        return sweep_fail_at(r->err, r->file, loc_of(root), "a sweep needs "
                             "at least one of axes:, zip: or seeds:");
    if (!fixed_not_axis(r)) return false;
    if (sec[S_EXCLUDE] && !read_exclude(r, sec[S_EXCLUDE])) return false;
    if (sec[S_NAME] && !read_name(r, sec[S_NAME])) return false;
    return true;
}

static bool parse(struct rd *r, const char *text, size_t len,
                  yaml_document_t *doc)
{
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
    bool ok = yaml_parser_load(&p, doc);
    if (ok) {
        yaml_document_t extra;
        if (!yaml_parser_load(&p, &extra)) {
            ok = false;
        } else {
            if (yaml_document_get_root_node(&extra)) {
                struct sweep_loc l = {(int)extra.start_mark.line + 1,
                                      (int)extra.start_mark.column + 1};
                sweep_fail_at(r->err, r->file, l, "expected one YAML "
                              "document, found another");
                yaml_document_delete(&extra);
                yaml_document_delete(doc);
                yaml_parser_delete(&p);
                return false;
            }
            yaml_document_delete(&extra);
        }
        if (!ok) yaml_document_delete(doc);
    }
    if (!ok) {
        struct sweep_loc l = {(int)p.problem_mark.line + 1,
                              (int)p.problem_mark.column + 1};
        sweep_fail_at(r->err, r->file, l, "YAML syntax error: %s",
                      p.problem ? p.problem : "out of memory");
    }
    yaml_parser_delete(&p);
    return ok;
}

bool sweep_read_file(const char *path, const char *const *sets, size_t nsets,
                     struct sweep *s, struct sweep_spec *sp,
                     struct cfg_error *err)
{
    size_t len;
    s->file = xstrdup(path);
    s->text = sweep_read_text(path, &len);
    if (!s->text) {
        snprintf(err->msg, sizeof err->msg, "%s: cannot open: %s", path,
                 strerror(errno));
        return false;
    }
    yaml_document_t doc;
    struct rd r = {path, &doc, err, config_new(), s, sp, 0};
    bool ok = parse(&r, s->text, len, &doc);
    if (ok) {
        yaml_node_t *root = yaml_document_get_root_node(&doc);
        if (!root || root->type != YAML_MAPPING_NODE) {
            struct sweep_loc l = root ? loc_of(root) : (struct sweep_loc){1, 1};
            ok = sweep_fail_at(err, path, l, "expected a mapping with axes:, "
                               "got %s", root ? kind(root) : "an empty file");
        } else {
            ok = read_root(&r, root, sets, nsets);
        }
        yaml_document_delete(&doc);
    }
    config_free(r.scratch);
    return ok;
}

void sweep_spec_free(struct sweep_spec *sp)
{
    free(sp->base);
    for (size_t i = 0; i < sp->nfixed; i++) {
        free(sp->fixed[i].key);
        free(sp->fixed[i].val);
    }
    free(sp->fixed);
    for (size_t i = 0; i < sp->nrules; i++) {
        for (size_t j = 0; j < sp->rules[i].nterms; j++)
            free(sp->rules[i].terms[j].vi);
        free(sp->rules[i].terms);
    }
    free(sp->rules);
    for (size_t i = 0; i < sp->nsegs; i++) free(sp->segs[i].lit);
    free(sp->segs);
    free(sp->key_loc);
    memset(sp, 0, sizeof *sp);
}

bool sweep_same_value(const struct cfg_key *k, const char *a, const char *b)
{
    if (k->type == CFG_STRING) return !strcmp(a, b);
    struct cfg_value va = {0}, vb = {0};
    char msg[256];
    if (!cfg_parse(k, a, &va, msg, sizeof msg) ||
        !cfg_parse(k, b, &vb, msg, sizeof msg))
        return !strcmp(a, b);
    switch (k->type) {
    case CFG_FLOAT: case CFG_FREQ: case CFG_BW: case CFG_FRACTION:
        return va.f == vb.f;
    default:
        return va.u == vb.u;
    }
}

/* Reading a sweep file (docs/sweeps.md) with libyaml's document API, which
 * keeps every node's start mark: each error names FILE:LINE:COL.  Values
 * are checked against the config schema here, before any point exists.
 * This file: the document, its sections, base:, set: and -s; the axes,
 * zip groups, seeds, exclude rules and name template: sweep_axes.c. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "config/config.h"
#include "sweep_read.h"

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

struct sweep_loc rd_loc(const yaml_node_t *n)
{
    return (struct sweep_loc){(int)n->start_mark.line + 1,
                              (int)n->start_mark.column + 1};
}

const char *rd_scalar(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

const char *rd_kind(const yaml_node_t *n)
{
    return n->type == YAML_MAPPING_NODE ? "a mapping"
         : n->type == YAML_SEQUENCE_NODE ? "a sequence" : "a scalar";
}

yaml_node_t *rd_node(struct rd *r, yaml_node_item_t i)
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
bool rd_check_value(struct rd *r, const char *key, yaml_node_t *v)
{
    if (v->type != YAML_SCALAR_NODE)
        return sweep_fail_at(r->err, r->file, rd_loc(v),
                             "key '%s': expected a value, got %s", key, rd_kind(v));
    const char *t = rd_scalar(v);
    if (strpbrk(t, "\t\n\r"))
        return sweep_fail_at(r->err, r->file, rd_loc(v),
                             "key '%s': a value may not hold a tab or a line "
                             "break", key);
    struct sweep_loc l = rd_loc(v);
    if (!config_set(r->scratch, key, t, r->file, l.line, l.col, r->err))
        return relocate(r, l);
    return true;
}

static bool unknown_key(struct rd *r, const char *path, yaml_node_t *k)
{
    /* config_set words it (with "did you mean"); the key is unknown, so
     * nothing is set. */
    config_set(r->scratch, path, "", NULL, 0, 0, r->err);
    return relocate(r, rd_loc(k));
}

/* Nested mappings flatten to dotted keys, as in config files; LEAF gets
 * every known key with its value node. */
bool rd_walk(struct rd *r, yaml_node_t *map, const char *prefix,
                 leaf_fn leaf, void *ctx)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
         p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = rd_node(r, p->key), *v = rd_node(r, p->value);
        if (k->type != YAML_SCALAR_NODE)
            return sweep_fail_at(r->err, r->file, rd_loc(k),
                                 "expected a key name, got %s", rd_kind(k));
        char *path = cfg_join_path(prefix, rd_scalar(k));
        bool known = cfg_get(r->scratch, path) != NULL, ok;
        if (!known && v->type == YAML_MAPPING_NODE)
            ok = rd_walk(r, v, path, leaf, ctx);
        else if (!known)
            ok = unknown_key(r, path, k);
        else
            ok = leaf(r, path, k, v, ctx);
        free(path);
        if (!ok) return false;
    }
    return true;
}

bool rd_expect_mapping(struct rd *r, yaml_node_t *n, const char *what)
{
    if (n->type == YAML_MAPPING_NODE) return true;
    return sweep_fail_at(r->err, r->file, rd_loc(n), "%s: expected a mapping, "
                         "got %s", what, rd_kind(n));
}

/* ---- set: and -s ---- */

static bool fixed_seen(struct rd *r, const char *path, yaml_node_t *k)
{
    for (size_t i = 0; i < r->sp->nfixed; i++) {
        const struct sweep_fixed *f = &r->sp->fixed[i];
        if (!f->cli && !strcmp(f->key, path))
            return sweep_fail_at(r->err, r->file, rd_loc(k),
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
    if (!fixed_seen(r, path, k) || !rd_check_value(r, path, v)) return false;
    add_fixed(r->sp, path, rd_scalar(v), false, rd_loc(k), rd_loc(v));
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

/* ---- base: ---- */

/* Relative to the sweep file's directory, as a config's own base:. */
static bool read_base(struct rd *r, yaml_node_t *n)
{
    struct sweep_loc l = rd_loc(n);
    if (n->type != YAML_SCALAR_NODE || !rd_scalar(n)[0])
        return sweep_fail_at(r->err, r->file, l, "key 'base': expected a "
                             "config file name, got %s",
                             n->type == YAML_SCALAR_NODE ? "''" : rd_kind(n));
    const char *b = rd_scalar(n), *slash = strrchr(r->file, '/');
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
        size_t ax = rd_axis_index(r->s, f->key);
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
        yaml_node_t *k = rd_node(r, p->key);
        size_t i = 0;
        while (i < NSECTIONS && (k->type != YAML_SCALAR_NODE ||
                                 strcmp(rd_scalar(k), sections[i])))
            i++;
        if (i == NSECTIONS)
            return sweep_fail_at(r->err, r->file, rd_loc(k), "key '%s': "
                                 "unknown sweep key (expected base, set, axes, "
                                 "zip, seeds, exclude or name)",
                                 k->type == YAML_SCALAR_NODE ? rd_scalar(k) : "?");
        if (sec[i])
            return sweep_fail_at(r->err, r->file, rd_loc(k), "key '%s': "
                                 "duplicate key (first set at %d:%d)",
                                 sections[i], rd_loc(key[i]).line,
                                 rd_loc(key[i]).col);
        sec[i] = rd_node(r, p->value);
        key[i] = k;
    }
    /* A mapping or list section written empty (a YAML null) is absent. */
    static const int maybe_empty[] = {S_SET, S_AXES, S_ZIP, S_EXCLUDE};
    for (size_t j = 0; j < sizeof maybe_empty / sizeof maybe_empty[0]; j++) {
        yaml_node_t *n = sec[maybe_empty[j]];
        if (n && n->type == YAML_SCALAR_NODE && !rd_scalar(n)[0])
            sec[maybe_empty[j]] = NULL;
    }
    if (sec[S_BASE] && !read_base(r, sec[S_BASE])) return false;
    if (sec[S_SET] && !(rd_expect_mapping(r, sec[S_SET], "set") &&
                        rd_walk(r, sec[S_SET], "", set_leaf, NULL)))
        return false;
    if (!read_cli_sets(r, sets, nsets)) return false;
    if (sec[S_AXES] && !(rd_expect_mapping(r, sec[S_AXES], "axes") &&
                         rd_walk(r, sec[S_AXES], "", rd_axes_leaf, NULL)))
        return false;
    if (sec[S_ZIP] && !rd_zip(r, sec[S_ZIP])) return false;
    if (sec[S_SEEDS] && !rd_seeds(r, key[S_SEEDS], sec[S_SEEDS]))
        return false;
    if (r->s->naxes == 0)
        return sweep_fail_at(r->err, r->file, rd_loc(root), "a sweep needs "
                             "at least one of axes:, zip: or seeds:");
    if (!fixed_not_axis(r)) return false;
    if (sec[S_EXCLUDE] && !rd_exclude(r, sec[S_EXCLUDE])) return false;
    if (sec[S_NAME] && !rd_name(r, sec[S_NAME])) return false;
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
            struct sweep_loc l = root ? rd_loc(root) : (struct sweep_loc){1, 1};
            ok = sweep_fail_at(err, path, l, "expected a mapping with axes:, "
                               "got %s", root ? rd_kind(root) : "an empty file");
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

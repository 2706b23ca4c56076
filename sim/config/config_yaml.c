/* Loading configs from YAML (libyaml's document API, which keeps every
 * node's start mark so errors can name FILE:LINE:COL).
 *
 * Nested mappings flatten to dotted paths; a top-level `base:` file is loaded
 * first and this file's keys override it; `-s key=value` overrides last. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

/* Deeper base chains than this are a cycle through differently named paths
 * that stat() could not see, or a mistake. */
#define MAX_BASE_DEPTH 32

struct frame { const char *name; dev_t dev; ino_t ino; };

struct loader {
    struct config *c;
    struct cfg_error *err;
    struct frame chain[MAX_BASE_DEPTH]; /* files being loaded, outermost first */
    size_t depth;
};

/* Where a value came from inside one file, for duplicate-key messages. */
struct seen { char *path; int line, col; };

struct file_ctx {
    struct loader *L;
    const char *name;
    yaml_document_t *doc;
    struct seen *seen;
    size_t nseen;
};

/* Prepend a location to the message already in err (from config_set). */
static bool prepend(struct cfg_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool prepend(struct cfg_error *err, const char *fmt, ...)
{
    char pre[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    size_t lp = strlen(pre), lm = strlen(err->msg);
    if (lp + lm >= sizeof err->msg)
        lm = sizeof err->msg - 1 - lp;
    memmove(err->msg + lp, err->msg, lm);
    err->msg[lp + lm] = '\0';
    memcpy(err->msg, pre, lp);
    return false;
}

static bool fail(struct cfg_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool fail(struct cfg_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return false;
}

/* libyaml marks are 0-based; messages are 1-based. */
static int line1(yaml_mark_t m) { return (int)m.line + 1; }
static int col1(yaml_mark_t m) { return (int)m.column + 1; }

static const char *node_kind(const yaml_node_t *n)
{
    switch (n->type) {
    case YAML_MAPPING_NODE: return "a mapping";
    case YAML_SEQUENCE_NODE: return "a sequence";
    default: return "a scalar";
    }
}

static const char *scalar(const yaml_node_t *n)
{
    return (const char *)n->data.scalar.value;
}

char *cfg_join_path(const char *prefix, const char *key)
{
    if (!prefix[0])
        return xstrdup(key);
    size_t lp = strlen(prefix), lk = strlen(key);
    char *p = xmalloc(lp + lk + 2);
    memcpy(p, prefix, lp);
    p[lp] = '.';
    memcpy(p + lp + 1, key, lk + 1);
    return p;
}

/* A base: name is relative to the directory of the file that names it. */
static char *resolve_base(const char *includer, const char *base)
{
    const char *slash = strrchr(includer, '/');
    if (base[0] == '/' || !slash)
        return xstrdup(base);
    size_t ld = (size_t)(slash - includer) + 1, lb = strlen(base);
    char *p = xmalloc(ld + lb + 1);
    memcpy(p, includer, ld);
    memcpy(p + ld, base, lb + 1);
    return p;
}

/* ---- one file's keys ---- */

static bool check_seen(struct file_ctx *f, const char *path, yaml_mark_t m)
{
    for (size_t i = 0; i < f->nseen; i++)
        if (strcmp(f->seen[i].path, path) == 0)
            return fail(f->L->err,
                        "%s:%d:%d: key '%s': duplicate key (first set at %d:%d)",
                        f->name, line1(m), col1(m), path, f->seen[i].line,
                        f->seen[i].col);
    f->seen = xrealloc(f->seen, (f->nseen + 1) * sizeof *f->seen);
    f->seen[f->nseen++] = (struct seen){xstrdup(path), line1(m), col1(m)};
    return true;
}

/* Keys repeated in one YAML mapping, even when both hold mappings. */
static bool check_dup_in_mapping(struct file_ctx *f, yaml_node_pair_t *pair,
                                 yaml_node_pair_t *first, const char *path)
{
    yaml_node_t *k = yaml_document_get_node(f->doc, pair->key);
    for (yaml_node_pair_t *p = first; p < pair; p++) {
        yaml_node_t *o = yaml_document_get_node(f->doc, p->key);
        if (o->type == YAML_SCALAR_NODE && strcmp(scalar(o), scalar(k)) == 0)
            return fail(f->L->err,
                        "%s:%d:%d: key '%s': duplicate key (first set at %d:%d)",
                        f->name, line1(k->start_mark), col1(k->start_mark),
                        path, line1(o->start_mark), col1(o->start_mark));
    }
    return true;
}

static bool set_scalar(struct file_ctx *f, const char *path, yaml_node_t *k,
                       yaml_node_t *v)
{
    struct config *c = f->L->c;
    /* Unknown keys point at the key, bad values at the value. */
    yaml_mark_t m = cfg_get(c, path) ? v->start_mark : k->start_mark;
    if (!config_set(c, path, scalar(v), f->name, line1(v->start_mark),
                    col1(v->start_mark), f->L->err))
        return prepend(f->L->err, "%s:%d:%d: ", f->name, line1(m), col1(m));
    return true;
}

static bool walk_mapping(struct file_ctx *f, yaml_node_t *map,
                         const char *prefix);

static bool walk_pair(struct file_ctx *f, yaml_node_pair_t *pair,
                      yaml_node_pair_t *first, const char *prefix)
{
    yaml_node_t *k = yaml_document_get_node(f->doc, pair->key);
    yaml_node_t *v = yaml_document_get_node(f->doc, pair->value);
    struct cfg_error *err = f->L->err;
    if (k->type != YAML_SCALAR_NODE)
        return fail(err, "%s:%d:%d: expected a key name, got %s", f->name,
                    line1(k->start_mark), col1(k->start_mark), node_kind(k));
    char *path = cfg_join_path(prefix, scalar(k));
    bool ok = check_dup_in_mapping(f, pair, first, path);
    if (ok && !prefix[0] && strcmp(path, "base") == 0) {
        /* Applied before this file's keys (load_file). */
    } else if (ok && v->type == YAML_SCALAR_NODE) {
        ok = check_seen(f, path, k->start_mark) && set_scalar(f, path, k, v);
    } else if (ok && v->type == YAML_MAPPING_NODE && !cfg_get(f->L->c, path)) {
        ok = walk_mapping(f, v, path);
    } else if (ok) {
        const struct cfg_value *cv = cfg_get(f->L->c, path);
        yaml_mark_t m = cv ? v->start_mark : k->start_mark;
        if (cv)
            ok = fail(err, "%s:%d:%d: key '%s': expected a scalar (%s), got %s",
                      f->name, line1(m), col1(m), path,
                      cfg_type_name(cv->key->type), node_kind(v));
        else
            ok = fail(err, "%s:%d:%d: key '%s': unknown key", f->name,
                      line1(m), col1(m), path);
    }
    free(path);
    return ok;
}

static bool walk_mapping(struct file_ctx *f, yaml_node_t *map,
                         const char *prefix)
{
    yaml_node_pair_t *first = map->data.mapping.pairs.start;
    for (yaml_node_pair_t *p = first; p < map->data.mapping.pairs.top; p++)
        if (!walk_pair(f, p, first, prefix))
            return false;
    return true;
}

/* ---- files and base chains ---- */

static bool load_file(struct loader *L, const char *name, const char *includer,
                      yaml_mark_t inc_mark);

/* Reader errors (bad encoding) carry a byte offset, not a mark. */
static yaml_mark_t offset_mark(FILE *fp, size_t offset)
{
    yaml_mark_t m = {offset, 0, 0};
    rewind(fp);
    for (size_t i = 0; i < offset; i++) {
        int ch = getc(fp);
        if (ch == EOF)
            break;
        if (ch == '\n') {
            m.line++;
            m.column = 0;
        } else {
            m.column++;
        }
    }
    return m;
}

static bool syntax_error(struct loader *L, const char *name, FILE *fp,
                         yaml_parser_t *p)
{
    yaml_mark_t m = p->error == YAML_READER_ERROR
                        ? offset_mark(fp, p->problem_offset) : p->problem_mark;
    return fail(L->err, "%s:%d:%d: YAML syntax error: %s", name, line1(m),
                col1(m), p->problem ? p->problem : "out of memory");
}

/* Parse NAME into DOC; a second document in the file is refused because
 * only the first would take effect. */
static bool parse_file(struct loader *L, const char *name, FILE *fp,
                       yaml_document_t *doc)
{
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_file(&p, fp);
    bool ok = yaml_parser_load(&p, doc);
    if (!ok) {
        syntax_error(L, name, fp, &p);
        yaml_parser_delete(&p);
        return false;
    }
    yaml_document_t extra;
    if (!yaml_parser_load(&p, &extra)) {
        ok = syntax_error(L, name, fp, &p);
    } else {
        if (yaml_document_get_root_node(&extra))
            ok = fail(L->err, "%s:%d:%d: expected one YAML document, found "
                      "another", name, line1(extra.start_mark),
                      col1(extra.start_mark));
        yaml_document_delete(&extra);
    }
    if (!ok)
        yaml_document_delete(doc);
    yaml_parser_delete(&p);
    return ok;
}

static void chain_text(struct loader *L, const char *last, char *buf,
                       size_t n)
{
    size_t j = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < L->depth && j < n; i++)
        j += (size_t)snprintf(buf + j, n - j, "%s -> ", L->chain[i].name);
    if (j < n)
        snprintf(buf + j, n - j, "%s", last);
}

/* Open NAME, refusing directories and files already in the base chain. */
static FILE *open_config(struct loader *L, const char *name,
                         const char *includer, yaml_mark_t im,
                         struct frame *fr)
{
    FILE *fp = fopen(name, "r");
    struct stat st;
    int e = errno;
    if (fp && fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(fp);
        fp = NULL;
        e = EISDIR;
    }
    if (!fp) {
        if (includer)
            fail(L->err, "%s:%d:%d: key 'base': cannot open '%s': %s",
                 includer, line1(im), col1(im), name, strerror(e));
        else
            fail(L->err, "%s: cannot open: %s", name, strerror(e));
        return NULL;
    }
    *fr = (struct frame){name, st.st_dev, st.st_ino};
    for (size_t i = 0; i < L->depth; i++) {
        if (L->chain[i].dev == st.st_dev && L->chain[i].ino == st.st_ino) {
            char chain[512];
            chain_text(L, name, chain, sizeof chain);
            fail(L->err, "%s:%d:%d: key 'base': cycle in base chain: %s",
                 includer, line1(im), col1(im), chain);
            fclose(fp);
            return NULL;
        }
    }
    if (L->depth == MAX_BASE_DEPTH) {
        fail(L->err, "%s:%d:%d: key 'base': more than %d nested base files",
             includer, line1(im), col1(im), MAX_BASE_DEPTH);
        fclose(fp);
        return NULL;
    }
    return fp;
}

static yaml_node_pair_t *find_base(yaml_document_t *doc, yaml_node_t *root)
{
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start;
         p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        if (k->type == YAML_SCALAR_NODE && strcmp(scalar(k), "base") == 0)
            return p;
    }
    return NULL;
}

/* Load one base file named by scalar node v (relative to this file). */
static bool load_one_base(struct file_ctx *f, yaml_node_t *v)
{
    yaml_mark_t m = v->start_mark;
    if (v->type != YAML_SCALAR_NODE || !scalar(v)[0])
        return fail(f->L->err, "%s:%d:%d: key 'base': expected a file name, "
                    "got %s", f->name, line1(m), col1(m),
                    v->type == YAML_SCALAR_NODE ? "''" : node_kind(v));
    char *path = resolve_base(f->name, scalar(v));
    bool ok = load_file(f->L, path, f->name, m);
    free(path);
    return ok;
}

/* Load the base: file(s) named by PAIR (if any) before this file's keys.
 * A list of files loads each in turn (with its own base chain): a later
 * one overrides an earlier one, and this file overrides them all. */
static bool load_base(struct file_ctx *f, yaml_node_t *root)
{
    yaml_node_pair_t *pair = find_base(f->doc, root);
    if (!pair)
        return true;
    yaml_node_t *v = yaml_document_get_node(f->doc, pair->value);
    if (v->type != YAML_SEQUENCE_NODE)
        return load_one_base(f, v);
    yaml_node_item_t *it = v->data.sequence.items.start;
    if (it == v->data.sequence.items.top)
        return fail(f->L->err, "%s:%d:%d: key 'base': expected a file name or a list of "
                    "file names, got an empty list", f->name, line1(v->start_mark),
                    col1(v->start_mark));
    for (; it < v->data.sequence.items.top; it++)
        if (!load_one_base(f, yaml_document_get_node(f->doc, *it)))
            return false;
    return true;
}

static bool apply_document(struct file_ctx *f)
{
    yaml_node_t *root = yaml_document_get_root_node(f->doc);
    if (!root)
        return true; /* an empty file sets nothing */
    if (root->type != YAML_MAPPING_NODE)
        return fail(f->L->err, "%s:%d:%d: expected a mapping of keys, got %s",
                    f->name, line1(root->start_mark),
                    col1(root->start_mark), node_kind(root));
    return load_base(f, root) && walk_mapping(f, root, "");
}

static bool load_file(struct loader *L, const char *name, const char *includer,
                      yaml_mark_t inc_mark)
{
    struct frame fr;
    FILE *fp = open_config(L, name, includer, inc_mark, &fr);
    if (!fp)
        return false;
    yaml_document_t doc;
    bool ok = parse_file(L, name, fp, &doc);
    fclose(fp);
    if (!ok)
        return false;
    L->chain[L->depth++] = fr;
    struct file_ctx f = {L, name, &doc, NULL, 0};
    ok = apply_document(&f);
    L->depth--;
    for (size_t i = 0; i < f.nseen; i++)
        free(f.seen[i].path);
    free(f.seen);
    yaml_document_delete(&doc);
    return ok;
}

/* ---- -s overrides ---- */

static bool apply_set(struct config *c, const char *set, struct cfg_error *err)
{
    const char *eq = strchr(set, '=');
    if (!eq)
        return fail(err, "-s '%s': key '%s': expected KEY=VALUE, got no '='",
                    set, set);
    size_t lk = (size_t)(eq - set);
    char *key = xmalloc(lk + 1);
    memcpy(key, set, lk);
    key[lk] = '\0';
    bool ok = config_set(c, key, eq + 1, "-s", 0, 0, err);
    free(key);
    if (!ok)
        return prepend(err, "-s '%s': ", set);
    return true;
}

struct config *config_load(const char *path, const char *const *sets,
                           size_t nsets, struct cfg_error *err)
{
    struct cfg_error local;
    if (!err)
        err = &local;
    err->msg[0] = '\0';
    struct config *c = config_new();
    struct loader L = {.c = c, .err = err, .depth = 0};
    yaml_mark_t none = {0, 0, 0};
    bool ok = !path || load_file(&L, path, NULL, none);
    for (size_t i = 0; ok && i < nsets; i++)
        ok = apply_set(c, sets[i], err);
    for (size_t i = 0; ok && config_checks[i]; i++)
        ok = config_checks[i](c, err);
    if (!ok) {
        config_free(c);
        return NULL;
    }
    return c;
}

/* The config object: one resolved value per schema key, typed getters.
 *
 * Values live in schema order (for show/doc); a second array sorted by path
 * serves lookups, which happen while components initialise, not per event. */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/text.h"

struct config {
    size_t n;
    struct cfg_value *vals;      /* schema order */
    struct cfg_value **by_path;  /* the same values sorted by key path */
    char **files;                /* interned names for cfg_value.file */
    size_t nfiles;
};

static int cmp_value_path(const void *a, const void *b)
{
    const struct cfg_value *const *x = a, *const *y = b;
    return strcmp((*x)->key->path, (*y)->key->path);
}

static int cmp_path_value(const void *key, const void *elem)
{
    const struct cfg_value *const *v = elem;
    return strcmp(key, (*v)->key->path);
}

static size_t schema_size(void)
{
    size_t n = 0;
    for (size_t t = 0; config_schema_tables[t]; t++)
        for (const struct cfg_key *k = config_schema_tables[t]; k->path; k++)
            n++;
    return n;
}

/* A default that does not parse is a bug in a component's key table. */
static void set_default(struct cfg_value *v, const struct cfg_key *k)
{
    char msg[512];
    memset(v, 0, sizeof *v);
    v->key = k;
    v->text = k->def;
    if (!k->def)
        sim_panic("config", 0, "key '%s' has no default", k->path);
    if (!cfg_parse(k, k->def, v, msg, sizeof msg))
        sim_panic("config", 0, "default of key '%s': %s", k->path, msg);
}

static void build_index(struct config *c)
{
    c->by_path = xcalloc(c->n ? c->n : 1, sizeof *c->by_path);
    for (size_t i = 0; i < c->n; i++)
        c->by_path[i] = &c->vals[i];
    qsort(c->by_path, c->n, sizeof *c->by_path, cmp_value_path);
    for (size_t i = 1; i < c->n; i++)
        if (strcmp(c->by_path[i - 1]->key->path, c->by_path[i]->key->path) == 0)
            sim_panic("config", 0, "key '%s' is declared twice",
                      c->by_path[i]->key->path);
}

struct config *config_new(void)
{
    struct config *c = xcalloc(1, sizeof *c);
    c->n = schema_size();
    c->vals = xcalloc(c->n ? c->n : 1, sizeof *c->vals);
    size_t i = 0;
    for (size_t t = 0; config_schema_tables[t]; t++)
        for (const struct cfg_key *k = config_schema_tables[t]; k->path; k++)
            set_default(&c->vals[i++], k);
    build_index(c);
    return c;
}

static bool owns_text(const struct cfg_value *v)
{
    return v->text && v->text != v->key->def;
}

void config_free(struct config *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        if (owns_text(&c->vals[i]))
            free((char *)c->vals[i].text);
    for (size_t i = 0; i < c->nfiles; i++)
        free(c->files[i]);
    free(c->files);
    free(c->by_path);
    free(c->vals);
    free(c);
}

static struct cfg_value *lookup(const struct config *c, const char *path)
{
    struct cfg_value **v = bsearch(path, c->by_path, c->n, sizeof *c->by_path,
                                   cmp_path_value);
    return v ? *v : NULL;
}

/* Many values share a file name: keep one copy of each. */
static const char *intern(struct config *c, const char *file)
{
    if (!file)
        return NULL;
    for (size_t i = 0; i < c->nfiles; i++)
        if (strcmp(c->files[i], file) == 0)
            return c->files[i];
    c->files = xrealloc(c->files, (c->nfiles + 1) * sizeof *c->files);
    c->files[c->nfiles] = xstrdup(file);
    return c->files[c->nfiles++];
}

/* Edit distance with adjacent transpositions, capped: only small distances
 * matter for "did you mean". */
static size_t edit_distance(const char *a, const char *b)
{
    enum { MAXLEN = 128 };
    size_t la = strlen(a), lb = strlen(b);
    if (la >= MAXLEN || lb >= MAXLEN)
        return SIZE_MAX;
    size_t d[3][MAXLEN + 1]; /* rows i-2, i-1, i (rotating) */
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t *cur = d[i % 3], *prev = d[(i - 1) % 3], *pp = d[(i - 2) % 3];
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] != b[j - 1];
            size_t best = prev[j - 1] + cost;
            if (prev[j] + 1 < best)
                best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]
                && pp[j - 2] + 1 < best)
                best = pp[j - 2] + 1;
            cur[j] = best;
        }
    }
    return d[la % 3][lb];
}

static const char *suggest(const struct config *c, const char *path)
{
    const char *best = NULL;
    size_t bestd = 3, lp = strlen(path);
    for (size_t i = 0; i < c->n; i++) {
        /* The distance is at least the difference in length. */
        size_t lk = strlen(c->vals[i].key->path);
        if ((lp > lk ? lp - lk : lk - lp) >= bestd)
            continue;
        size_t dist = edit_distance(path, c->vals[i].key->path);
        if (dist < bestd) {
            bestd = dist;
            best = c->vals[i].key->path;
        }
    }
    return best;
}

static bool set_error(struct cfg_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static bool set_error(struct cfg_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err)
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return false;
}

bool config_set(struct config *c, const char *path, const char *text,
                const char *file, int line, int col, struct cfg_error *err)
{
    struct cfg_value *v = lookup(c, path);
    if (!v) {
        const char *s = suggest(c, path);
        if (s)
            return set_error(err, "key '%s': unknown key (did you mean '%s'?)",
                             path, s);
        return set_error(err, "key '%s': unknown key", path);
    }
    /* Values are text: `config show` writes them back as YAML, which is
     * UTF-8 only (a file's bytes are checked by libyaml; -s ones here). */
    long bad = utf8_invalid_at(text);
    if (bad >= 0)
        return set_error(err, "key '%s': value is not UTF-8 text (byte %ld is 0x%02x)",
                         path, bad + 1, (unsigned char)text[bad]);
    struct cfg_value parsed = *v;
    char msg[sizeof err->msg - 64];
    if (!cfg_parse(v->key, text, &parsed, msg, sizeof msg))
        return set_error(err, "key '%s': %s", path, msg);
    if (owns_text(v))
        free((char *)v->text);
    v->f = parsed.f;
    v->u = parsed.u;
    v->text = xstrdup(text);
    v->file = intern(c, file);
    v->line = line;
    v->col = col;
    return true;
}

/* ---- getters ---- */

#define BIT(t) (1u << (t))

static const struct cfg_value *need(const struct config *c, const char *path,
                                    unsigned types, const char *want)
{
    const struct cfg_value *v = lookup(c, path);
    if (!v)
        sim_panic("config", 0, "unknown config key '%s'", path);
    if (!(types & BIT(v->key->type)))
        sim_panic("config", 0, "config key '%s' is a %s, read as %s", path,
                  cfg_type_name(v->key->type), want);
    return v;
}

uint64_t cfg_u64(const struct config *c, const char *path)
{
    const struct cfg_value *v =
        need(c, path, BIT(CFG_INT) | BIT(CFG_TIME) | BIT(CFG_SIZE), "u64");
    if (v->key->type == CFG_INT && (int64_t)v->u < 0)
        sim_panic("config", 0, "config key '%s' is negative, read as u64",
                  path);
    return v->u;
}

int64_t cfg_i64(const struct config *c, const char *path)
{
    const struct cfg_value *v =
        need(c, path, BIT(CFG_INT) | BIT(CFG_TIME) | BIT(CFG_SIZE), "i64");
    if (v->key->type != CFG_INT && v->u > (uint64_t)INT64_MAX)
        sim_panic("config", 0, "config key '%s' does not fit in i64", path);
    return (int64_t)v->u;
}

double cfg_f64(const struct config *c, const char *path)
{
    unsigned numeric = BIT(CFG_INT) | BIT(CFG_FLOAT) | BIT(CFG_FREQ) |
                       BIT(CFG_TIME) | BIT(CFG_BW) | BIT(CFG_SIZE) |
                       BIT(CFG_FRACTION);
    return need(c, path, numeric, "f64")->f;
}

bool cfg_bool(const struct config *c, const char *path)
{
    return need(c, path, BIT(CFG_BOOL), "bool")->u != 0;
}

const char *cfg_str(const struct config *c, const char *path)
{
    return need(c, path, BIT(CFG_STRING) | BIT(CFG_ENUM), "string")->text;
}

unsigned cfg_choice(const struct config *c, const char *path)
{
    return (unsigned)need(c, path, BIT(CFG_ENUM), "enum")->u;
}

/* The index of NAME among K's choices, or -1. */
static long choice_index(const struct cfg_key *k, const char *name)
{
    size_t len = strlen(name);
    const char *p = cfg_key_choices(k);
    for (long i = 0;; i++) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && memcmp(p, name, len) == 0) return i;
        if (!bar) return -1;
        p = bar + 1;
    }
}

bool cfg_is(const struct config *c, const char *path, const char *name)
{
    const struct cfg_value *v = need(c, path, BIT(CFG_ENUM), "enum");
    long i = choice_index(v->key, name);
    if (i < 0)
        sim_panic("config", 0, "key '%s' has no choice '%s'", path, name);
    return v->u == (uint64_t)i;
}

const char *cfg_key_choices(const struct cfg_key *k)
{
    /* Built once per registry; the schema is fixed for the process. */
    static char *built[64];
    if (k->type != CFG_ENUM) return "";
    if (k->choices) return k->choices;
    for (size_t r = 0; config_registries[r].key; r++) {
        const struct cfg_registry *g = &config_registries[r];
        if (strcmp(g->key, k->path)) continue;
        if (r >= sizeof built / sizeof built[0])
            sim_panic("config", 0, "more registries than %zu", sizeof built / sizeof built[0]);
        if (!built[r]) {
            size_t n = g->fixed ? strlen(g->fixed) : 0;
            for (size_t i = 0; g->name(i); i++) n += strlen(g->name(i)) + 1;
            char *s = xcalloc(n + 1, 1), *e = s;
            if (g->fixed) e += sprintf(e, "%s", g->fixed);
            for (size_t i = 0; g->name(i); i++)
                e += sprintf(e, "%s%s", e == s ? "" : "|", g->name(i));
            built[r] = s;
        }
        return built[r];
    }
    sim_panic("config", 0, "enum key '%s' has neither choices nor a registry", k->path);
}

sim_time cfg_period(const struct config *c, const char *path)
{
    double hz = need(c, path, BIT(CFG_FREQ), "frequency")->f;
    /* The parser rejects 0Hz; a period rounds to the nearest ps. */
    return (sim_time)(1e12 / hz + 0.5);
}

const struct cfg_value *cfg_get(const struct config *c, const char *path)
{
    return lookup(c, path);
}

void config_foreach(const struct config *c,
                    void (*fn)(void *ctx, const struct cfg_value *v), void *ctx)
{
    for (size_t i = 0; i < c->n; i++)
        fn(ctx, &c->vals[i]);
}

/* ---- errors across keys ---- */

void cfg_where(const struct cfg_value *v, char *buf, size_t n)
{
    if (v->file && v->line)
        snprintf(buf, n, "%s:%d:%d", v->file, v->line, v->col);
    else if (v->file)
        snprintf(buf, n, "%s '%s=%s'", v->file, v->key->path, v->text);
    else if (n)
        buf[0] = '\0';
}

#define MAX_INVOLVED 6

/* The message of cfg_fail_keys from the values involved (V[0..NV)). */
/* The key to name: the first the user set, else the first. */
static size_t primary(const struct cfg_value *const *v, size_t nv)
{
    for (size_t i = 0; i < nv; i++)
        if (v[i]->file) return i;
    return 0;
}

static void located(const struct cfg_value *const *v, size_t nv, const char *msg,
                    char *out, size_t n)
{
    size_t p = primary(v, nv);
    char where[512];
    cfg_where(v[p], where, sizeof where);
    int j;
    if (where[0])
        j = snprintf(out, n, "%s: key '%s': %s", where, v[p]->key->path, msg);
    else
        j = snprintf(out, n, "uvmsim: key '%s' (default %s): %s", v[p]->key->path,
                     v[p]->text, msg);
    bool first = true;
    for (size_t i = 0; i < nv && j >= 0 && (size_t)j < n; i++) {
        if (i == p) continue;
        if (v[i]->file && v[i]->line) cfg_where(v[i], where, sizeof where);
        else snprintf(where, sizeof where, "%s", v[i]->file ? v[i]->file : "default");
        j += snprintf(out + j, n - (size_t)j, "%s%s=%s: %s", first ? " (" : "; ",
                      v[i]->key->path, v[i]->text, where);
        first = false;
    }
    if (!first && j >= 0 && (size_t)j < n)
        snprintf(out + j, n - (size_t)j, ")");
}

bool cfg_fail_keys(const struct config *c, struct cfg_error *err,
                   const char *const *keys, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const struct cfg_value *v[MAX_INVOLVED];
    size_t nv = 0;
    for (size_t i = 0; keys[i] && nv < MAX_INVOLVED; i++) {
        const struct cfg_value *x = lookup(c, keys[i]);
        if (!x) sim_panic("config", 0, "check names unknown key '%s'", keys[i]);
        v[nv++] = x;
    }
    if (!nv) sim_panic("config", 0, "check names no key");
    /* The message is about keys[0]; when another key is named, it says so. */
    char body[900];
    if (primary(v, nv) != 0) {
        snprintf(body, sizeof body, "%s: %s", v[0]->key->path, msg);
        located(v, nv, body, err->msg, sizeof err->msg);
    } else {
        located(v, nv, msg, err->msg, sizeof err->msg);
    }
    return false;
}

static bool path_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' || ch == '-';
}

/* "FILE:LINE" at the start: the message is located already. */
static bool starts_located(const char *m)
{
    const char *colon = strchr(m, ':');
    if (!colon || colon == m || memchr(m, ' ', (size_t)(colon - m))) return false;
    return colon[1] >= '0' && colon[1] <= '9';
}

bool cfg_locate_message(void *config, const char *msg, char *out, size_t n)
{
    const struct config *c = config;
    if (!c || starts_located(msg)) return false;
    const struct cfg_value *v[MAX_INVOLVED];
    size_t nv = 0;
    for (const char *p = msg; *p && nv < MAX_INVOLVED;) {
        if (!path_char(*p)) { p++; continue; }
        const char *q = p;
        while (path_char(*q)) q++;
        size_t len = (size_t)(q - p);
        while (len && p[len - 1] == '.') len--;        /* end of a sentence */
        char tok[128];
        if (len && len < sizeof tok && memchr(p, '.', len)) {
            memcpy(tok, p, len);
            tok[len] = '\0';
            const struct cfg_value *x = lookup(c, tok);
            bool dup = false;
            for (size_t i = 0; x && i < nv; i++) dup |= v[i] == x;
            if (x && !dup) v[nv++] = x;
        }
        p = q;
    }
    if (!nv) return false;
    /* "key 'K': why" or "K: why" from a component: located() names the
     * key; K stays the subject ("K: why") when another key is to blame. */
    char pre[160], body[2048];
    const char *m = msg, *k0 = v[0]->key->path;
    size_t lk = strlen(k0);
    snprintf(pre, sizeof pre, "key '%s': ", k0);
    if (strncmp(msg, pre, strlen(pre)) == 0) m = msg + strlen(pre);
    else if (strncmp(msg, k0, lk) == 0 && msg[lk] == ':' && msg[lk + 1] == ' ') m = msg + lk + 2;
    if (m != msg && primary(v, nv) != 0) {
        snprintf(body, sizeof body, "%s: %s", k0, m);
        m = body;
    }
    located(v, nv, m, out, n);
    return true;
}

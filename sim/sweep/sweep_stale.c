/* Is a point's result still its result?  (docs/sweeps.md, "Resuming";
 * docs/decisions.md, "Sweep resumption across upgrades".)
 *
 * A result records the model revision that computed it (/@model_revision)
 * and the resolved config it ran (/config@yaml, every key this binary
 * knew).  It stays valid while the revision is this binary's and every key
 * means the same value in the recorded config and in the point's config
 * now.  A key one side lacks counts at this binary's default: a key that a
 * newer binary added at a default reproducing the old behaviour changes
 * nothing, while a changed default the point relies on is a changed value
 * (the recorded config holds the old default's value).  A key this binary
 * no longer knows is a difference: nothing says what it would now mean. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>
#include "config/config.h"
#include "sweep_int.h"

/* Results written before the revision was recorded. */
#define FIRST_REVISION 1
/* Long values (file names) are cut in a reason line. */
#define SHOW_VALUE 48

struct kv { char *key, *val; };
struct flat { size_t n, cap; struct kv *v; };

/* ---- the configs as flat key -> text lists ---- */

static void flat_free(struct flat *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->v[i].key);
        free(f->v[i].val);
    }
    free(f->v);
}

static bool walk(yaml_document_t *doc, yaml_node_t *map, const char *prefix,
                 struct flat *f)
{
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start;
         p < map->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        yaml_node_t *v = yaml_document_get_node(doc, p->value);
        if (!k || !v || k->type != YAML_SCALAR_NODE) return false;
        size_t n = strlen(prefix) + k->data.scalar.length + 2;
        char *path = xmalloc(n);
        snprintf(path, n, "%s%s%s", prefix, prefix[0] ? "." : "",
                 (const char *)k->data.scalar.value);
        bool ok = true;
        if (v->type == YAML_MAPPING_NODE) {
            ok = walk(doc, v, path, f);
            free(path);
        } else if (v->type == YAML_SCALAR_NODE) {
            if (f->n == f->cap) {
                f->cap = f->cap ? 2 * f->cap : 256;
                f->v = xrealloc(f->v, f->cap * sizeof *f->v);
            }
            f->v[f->n++] = (struct kv){path,
                                       xstrdup((const char *)v->data.scalar.value)};
        } else {
            free(path);
            ok = false;
        }
        if (!ok) return false;
    }
    return true;
}

static int cmp_kv(const void *a, const void *b)
{
    return strcmp(((const struct kv *)a)->key, ((const struct kv *)b)->key);
}

/* A resolved config's YAML (config_to_yaml: nested mappings of scalars)
 * as dotted keys in name order; false when it is not such a text. */
static bool flatten(const char *yaml, struct flat *f)
{
    *f = (struct flat){0};
    yaml_parser_t p;
    yaml_document_t doc;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_string(&p, (const unsigned char *)yaml, strlen(yaml));
    bool ok = yaml_parser_load(&p, &doc);
    yaml_parser_delete(&p);
    if (!ok) return false;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    ok = root && root->type == YAML_MAPPING_NODE && walk(&doc, root, "", f);
    yaml_document_delete(&doc);
    if (!ok) {
        flat_free(f);
        return false;
    }
    qsort(f->v, f->n, sizeof *f->v, cmp_kv);
    return true;
}

/* ---- comparing them ---- */

/* OLD and NOW (either NULL: that side lacks the key) mean one value. */
static bool same(const struct config *schema, const char *key, const char *old,
                 const char *now)
{
    const struct cfg_value *cv = cfg_get(schema, key);
    if (!cv) return old && now && !strcmp(old, now);
    const char *def = cv->key->def;
    return sweep_same_value(cv->key, old ? old : def, now ? now : def);
}

/* How many keys differ between the recorded config OLD and the point's
 * config NOW; the first (by name) goes to WHY as "key K OLD -> NOW", a
 * side lacking the key written "(none)". */
static size_t differences(const struct flat *old, const struct flat *now,
                          char *why, size_t whylen)
{
    struct config *schema = config_new();
    size_t ndiff = 0, i = 0, j = 0;
    while (i < old->n || j < now->n) {
        int c = i == old->n ? 1 : j == now->n ? -1
              : strcmp(old->v[i].key, now->v[j].key);
        const char *key = c <= 0 ? old->v[i].key : now->v[j].key;
        const char *a = c <= 0 ? old->v[i].val : NULL;
        const char *b = c >= 0 ? now->v[j].val : NULL;
        if (!same(schema, key, a, b) && ndiff++ == 0)
            snprintf(why, whylen, "key %s %.*s -> %.*s", key, SHOW_VALUE,
                     a ? a : "(none)", SHOW_VALUE, b ? b : "(none)");
        i += c <= 0;
        j += c >= 0;
    }
    config_free(schema);
    if (ndiff > 1) {
        size_t n = strlen(why);
        snprintf(why + n, whylen - n, " (and %zu more key%s)", ndiff - 1,
                 ndiff > 2 ? "s" : "");
    }
    return ndiff;
}

/* ---- the result file ---- */

struct recorded { uint64_t revision, hash; char *yaml; };

static bool read_u64(hid_t obj, const char *name, uint64_t *v)
{
    hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    bool ok = a >= 0 && H5Aread(a, H5T_NATIVE_UINT64, v) >= 0;
    if (a >= 0) H5Aclose(a);
    return ok;
}

char *sweep_attr_str(hid_t obj, const char *name)
{
    hid_t a = H5Aexists(obj, name) > 0 ? H5Aopen(obj, name, H5P_DEFAULT) : -1;
    hid_t t = a < 0 ? -1 : H5Aget_type(a);
    hid_t sp = a < 0 ? -1 : H5Aget_space(a);
    /* One value only: an array would overrun the buffer (issue 38 R2). */
    bool one = sp >= 0 && H5Sget_simple_extent_npoints(sp) == 1;
    if (sp >= 0) H5Sclose(sp);
    char *out = NULL;
    if (one && t >= 0 && H5Tget_class(t) == H5T_STRING) {
        if (H5Tis_variable_str(t) > 0) {
            char *v = NULL;
            hid_t mt = sweep_vlen_str();
            /* In the file's character set: h5py writes UTF-8. */
            if (mt >= 0 && H5Tset_cset(mt, H5Tget_cset(t)) < 0) {
                H5Tclose(mt);
                mt = -1;
            }
            if (mt >= 0 && H5Aread(a, mt, &v) >= 0 && v) {
                out = xstrdup(v);
                H5free_memory(v);
            }
            if (mt >= 0) H5Tclose(mt);
        } else {
            size_t n = H5Tget_size(t);
            out = xcalloc(n + 1, 1);
            if (H5Aread(a, t, out) < 0) {
                free(out);
                out = NULL;
            }
        }
    }
    if (t >= 0) H5Tclose(t);
    if (a >= 0) H5Aclose(a);
    return out;
}

/* False when PATH is no result (not HDF5, no /config@yaml or yaml_hash,
 * or some object of it unreadable: WHY says which). */
static bool read_result(const char *path, struct recorded *r, char *why,
                        size_t whylen)
{
    H5E_auto2_t fn;
    void *data;
    H5Eget_auto2(H5E_DEFAULT, &fn, &data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    *r = (struct recorded){FIRST_REVISION, 0, NULL};
    snprintf(why, whylen, "unreadable result");
    bool ok = false;
    /* Whole, in a child first: only then its strings are read here. */
    hid_t f = sweep_result_reads_isolated(path, why, whylen) ? sweep_open_ro(path) : -1;
    if (f >= 0) {
        if (H5Aexists(f, "model_revision") > 0 &&
            !read_u64(f, "model_revision", &r->revision))
            r->revision = 0;
        hid_t g = H5Gopen2(f, "config", H5P_DEFAULT);
        if (g >= 0) {
            ok = read_u64(g, "yaml_hash", &r->hash) &&
                 (r->yaml = sweep_attr_str(g, "yaml")) != NULL;
            H5Gclose(g);
        }
        H5Fclose(f);
    }
    H5Eclear2(H5E_DEFAULT);
    H5Eset_auto2(H5E_DEFAULT, fn, data);
    if (!ok) {
        free(r->yaml);
        r->yaml = NULL;
    }
    return ok;
}

/* The result at RP is point NAME's (config YAML, or DIR/configs/NAME.yaml
 * when NULL; HASH its results_yaml_hash); else why not in WHY. */
static bool result_valid(const struct sweep_dir *d, const char *name,
                         const char *rp, const char *yaml, uint64_t hash,
                         char *why, size_t whylen)
{
    struct recorded r;
    if (!read_result(rp, &r, why, whylen)) return false;
    bool ok = r.revision == UVMSIM_MODEL_REVISION;
    if (!ok)
        snprintf(why, whylen, "model revision %" PRIu64 " -> %d", r.revision,
                 UVMSIM_MODEL_REVISION);
    /* Byte-equal configs (as far as FNV-1a tells): no need to compare. */
    if (!ok || r.hash == hash) {
        free(r.yaml);
        return ok;
    }
    char *own = NULL;
    if (!yaml) {
        char *cp = sweep_path(d, "configs", name, ".yaml");
        yaml = own = sweep_read_text(cp, NULL);
        free(cp);
    }
    struct flat old, now;
    if (!flatten(r.yaml, &old)) {
        snprintf(why, whylen, "unreadable result (its /config@yaml)");
        ok = false;
    } else {
        if (!yaml || !flatten(yaml, &now)) {
            snprintf(why, whylen, "unreadable configs/%s.yaml", name);
            ok = false;
        } else {
            ok = differences(&old, &now, why, whylen) == 0;
            flat_free(&now);
        }
        flat_free(&old);
    }
    free(own);
    free(r.yaml);
    return ok;
}

enum sweep_state sweep_point_state(const struct sweep_dir *d, const char *name,
                                   const char *yaml, uint64_t hash, int *code,
                                   char *why, size_t whylen)
{
    char detail[512] = "", local[8];
    if (!why) {
        why = local;
        whylen = sizeof local;
    }
    char *rp = sweep_path(d, "points", name, ".h5");
    bool exists = access(rp, F_OK) == 0;
    bool done = exists && result_valid(d, name, rp, yaml, hash, detail,
                                       sizeof detail);
    free(rp);
    if (done) {
        snprintf(why, whylen, "done");
        return PT_DONE;
    }
    char *fp = sweep_path(d, "logs", name, ".failed");
    char *rec = sweep_read_text(fp, NULL);
    free(fp);
    if (rec) {
        int c = -1;
        if (sscanf(rec, "exit %d", &c) != 1) c = -1;
        if (code) *code = c;
        free(rec);
        if (c >= 0) snprintf(why, whylen, "failed (exit %d)", c);
        else snprintf(why, whylen, "failed");
        return PT_FAILED;
    }
    if (exists) snprintf(why, whylen, "stale: %s", detail);
    else snprintf(why, whylen, "not run");
    return exists ? PT_STALE : PT_MISSING;
}

size_t *sweep_todo(const struct sweep *s, const struct sweep_dir *d, bool force,
                   size_t *n, char **stale, size_t *nstale)
{
    size_t *todo = xmalloc((s->npoints ? s->npoints : 1) * sizeof *todo);
    *n = *nstale = 0;
    for (size_t i = 0; i < s->npoints; i++) {
        const struct sweep_point *p = &s->points[i];
        char why[640];
        /* The config in DIR is the point's (sweep_dir_write_plan). */
        enum sweep_state st = force ? PT_MISSING
            : sweep_point_state(d, p->name, NULL, sweep_point_hash(s, i), NULL,
                                why, sizeof why);
        if (st == PT_DONE) continue;
        todo[(*n)++] = i;
        if (st == PT_STALE && (*nstale)++ < SWEEP_SHOW_STALE) {
            size_t len = strlen(p->name) + strlen(why) + 3;
            stale[*nstale - 1] = xmalloc(len);
            snprintf(stale[*nstale - 1], len, "%s: %s", p->name, why);
        }
    }
    return todo;
}

void sweep_put_stale(FILE *out, const struct sweep_dir *d, char **stale,
                     size_t nstale)
{
    for (size_t i = 0; i < nstale && i < SWEEP_SHOW_STALE; i++) {
        fprintf(out, "  rerun %s\n", stale[i]);
        free(stale[i]);
    }
    if (nstale > SWEEP_SHOW_STALE)
        fprintf(out, "  rerun %zu more stale points (sweep plan %s lists "
                "them)\n", nstale - SWEEP_SHOW_STALE, sweep_dir_path(d));
}

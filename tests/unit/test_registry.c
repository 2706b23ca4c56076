/* Registries (issue 37 step 5): an enum key whose values name
 * implementations takes its choices from their ops table.  Each test lists
 * a table's entries through the table's own accessor (evict_policies[],
 * the *_find lookups, wl_catalog, sched_policy, chunk_evict_at) and checks
 * the key's choices name exactly those entries, in the table's order, after
 * the values that have no entry; that every choice loads and cfg_choice
 * gives its position; and that `uvmsim config doc` lists the choices. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "driver/driver.h"
#include "driver/drv_internal.h"
#include "driver/evict/evict.h"
#include "driver/migrate/migrate.h"
#include "driver/place/placement.h"
#include "driver/prefetch/prefetch.h"
#include "runtime/rt_internal.h"
#include "sm/sm_internal.h"
#include "workloads/workload.h"
#include "system.h"

#define MAXC 128

/* KEY's choices, split at '|'. */
struct choices { size_t n; char *v[MAXC]; char buf[4096]; };

static const struct cfg_key *key_of(const char *path)
{
    for (size_t t = 0; config_schema_tables[t]; t++)
        for (const struct cfg_key *k = config_schema_tables[t]; k->path; k++)
            if (!strcmp(k->path, path)) return k;
    ck_abort_msg("no key %s", path);
    return NULL;
}

static void split(const char *path, struct choices *c)
{
    const struct cfg_key *k = key_of(path);
    ck_assert_int_eq(k->type, CFG_ENUM);
    snprintf(c->buf, sizeof c->buf, "%s", cfg_key_choices(k));
    c->n = 0;
    for (char *p = c->buf, *bar; p; p = bar ? bar + 1 : NULL) {
        bar = strchr(p, '|');
        if (bar) *bar = 0;
        ck_assert_uint_lt(c->n, MAXC);
        c->v[c->n++] = p;
    }
}

/* Every choice of PATH loads, cfg_str gives it back and cfg_choice its
 * position; cfg_is is true for it alone. */
static void each_choice_loads(const char *path, const char *const *extra, size_t nextra)
{
    struct choices c;
    split(path, &c);
    for (size_t i = 0; i < c.n; i++) {
        char set[256];
        snprintf(set, sizeof set, "%s=%s", path, c.v[i]);
        const char *sets[4] = { set };
        for (size_t j = 0; j < nextra; j++) sets[1 + j] = extra[j];
        struct cfg_error err;
        struct config *cfg = config_load(NULL, sets, 1 + nextra, &err);
        ck_assert_msg(cfg != NULL, "%s: %s", set, cfg ? "" : err.msg);
        ck_assert_str_eq(cfg_str(cfg, path), c.v[i]);
        ck_assert_uint_eq(cfg_choice(cfg, path), i);
        for (size_t j = 0; j < c.n; j++) ck_assert(cfg_is(cfg, path, c.v[j]) == (i == j));
        config_free(cfg);
    }
}

/* The doc's row for PATH lists its choices as "a, b, c". */
static void doc_lists(const char *path)
{
    struct choices c;
    split(path, &c);
    char want[4096] = "";
    size_t n = 0;
    for (size_t i = 0; i < c.n; i++)
        n += (size_t)snprintf(want + n, sizeof want - n, "%s%s", i ? ", " : "", c.v[i]);
    char *doc = NULL;
    size_t len;
    FILE *f = open_memstream(&doc, &len);
    config_doc(f);
    fclose(f);
    char row[256];
    snprintf(row, sizeof row, "| `%s` | enum |", path);
    const char *r = strstr(doc, row);
    ck_assert_msg(r != NULL, "no doc row for %s", path);
    const char *end = strchr(r, '\n');
    const char *hit = strstr(r, want);
    ck_assert_msg(hit && hit < end, "doc row of %s does not list %s", path, want);
    free(doc);
}

/* No choice string of its own: the registry is the only list. */
static void from_registry(const char *path)
{
    ck_assert_ptr_null(key_of(path)->choices);
    size_t r = 0;
    while (config_registries[r].key && strcmp(config_registries[r].key, path)) r++;
    ck_assert_msg(config_registries[r].key != NULL, "%s has no registry", path);
}

START_TEST(eviction)
{
    struct choices c;
    split("driver.eviction", &c);
    size_t n = 0;
    while (evict_policies[n]) n++;
    ck_assert_uint_eq(c.n, n);
    for (size_t i = 0; i < n; i++) ck_assert_str_eq(c.v[i], evict_policies[i]->name);
    from_registry("driver.eviction");
    each_choice_loads("driver.eviction", NULL, 0);
    doc_lists("driver.eviction");
}
END_TEST

START_TEST(prefetch)
{
    /* Today's order (none, seq, tree), every ops the header declares. */
    const struct prefetch_ops *const all[] = { &prefetch_none_ops, &prefetch_seq_ops, &prefetch_tree_ops };
    struct choices c;
    split("driver.prefetch", &c);
    ck_assert_uint_eq(c.n, 3);
    for (size_t i = 0; i < 3; i++) {
        ck_assert_str_eq(c.v[i], all[i]->name);
        ck_assert_ptr_eq(prefetch_find(c.v[i]), all[i]);
    }
    from_registry("driver.prefetch");
    each_choice_loads("driver.prefetch", NULL, 0);
    doc_lists("driver.prefetch");
}
END_TEST

START_TEST(placement)
{
    const struct place_ops *const all[] = { &place_local_ops, &place_interleave_ops, &place_bwaware_ops,
                                            &place_annotated_ops, &place_oracle_ops, &place_host_ops };
    struct choices c;
    split("driver.placement", &c);
    ck_assert_uint_eq(c.n, 1 + 6);
    ck_assert_str_eq(c.v[0], "fault");            /* no entry: pages placed by faults */
    ck_assert_ptr_null(place_find("fault"));
    for (size_t i = 0; i < 6; i++) {
        ck_assert_str_eq(c.v[1 + i], all[i]->name);
        ck_assert_ptr_eq(place_find(c.v[1 + i]), all[i]);
    }
    from_registry("driver.placement");
    /* oracle needs a profile; the check reads only whether one is named. */
    const char *extra[] = { "driver.place.profile=p.prof" };
    each_choice_loads("driver.placement", extra, 1);
    doc_lists("driver.placement");
}
END_TEST

START_TEST(migration)
{
    const struct migr_ops *const all[] = { &migr_threshold_ops, &migr_memcpy_ops };
    struct choices c;
    split("driver.migration", &c);
    ck_assert_uint_eq(c.n, 1 + 2);
    ck_assert_str_eq(c.v[0], "none");
    ck_assert_ptr_null(migr_find("none"));
    for (size_t i = 0; i < 2; i++) {
        ck_assert_str_eq(c.v[1 + i], all[i]->name);
        ck_assert_ptr_eq(migr_find(c.v[1 + i]), all[i]);
    }
    from_registry("driver.migration");
    const char *extra[] = { "driver.placement=host" };
    each_choice_loads("driver.migration", extra, 1);
    doc_lists("driver.migration");
}
END_TEST

START_TEST(runtime_policy)
{
    const struct rt_ops *const all[] = { &rt_none_ops, &rt_um_ops, &rt_um_pf_ops, &rt_baseline_ops,
                                         &rt_host_ops, &rt_lru_ops, &rt_rlm_ops, &rt_glm_ops,
                                         &rt_rdm_ops, &rt_baseline_hoisted_ops };
    struct choices c;
    split("runtime.policy", &c);
    ck_assert_uint_eq(c.n, sizeof all / sizeof all[0]);
    for (size_t i = 0; i < c.n; i++) ck_assert_str_eq(c.v[i], all[i]->name);
    /* SC19's pinning and replacement policies place pages in host memory. */
    for (size_t i = 0; i < c.n; i++)
        ck_assert(all[i]->host_advice == (!strcmp(c.v[i], "host") || !strcmp(c.v[i], "lru") ||
                                          !strcmp(c.v[i], "rlm") || !strcmp(c.v[i], "glm") ||
                                          !strcmp(c.v[i], "rdm")));
    from_registry("runtime.policy");
    each_choice_loads("runtime.policy", NULL, 0);
    doc_lists("runtime.policy");
}
END_TEST

START_TEST(workload_kind)
{
    size_t n;
    const struct wl_info *const *cat = wl_catalog(&n);
    struct choices c;
    split("workload.kind", &c);
    ck_assert_uint_eq(c.n, n);
    for (size_t i = 0; i < n; i++) ck_assert_str_eq(c.v[i], cat[i]->ops->name);
    from_registry("workload.kind");
    each_choice_loads("workload.kind", NULL, 0);
    doc_lists("workload.kind");
}
END_TEST

/* sim.model (issue 41): cycle first (the default, the reference), then
 * fast, then the three diagnostics (cycle with one of fast's parts). */
START_TEST(timing_model)
{
    static const char *const names[] = { "cycle", "fast", "cycle-dram-server",
                                         "cycle-tlb-lookup", "cycle-host-server" };
    struct choices c;
    split("sim.model", &c);
    size_t n = 0;
    while (sim_model_name(n)) n++;
    ck_assert_uint_eq(n, sizeof names / sizeof names[0]);
    ck_assert_uint_eq(c.n, n);
    for (size_t i = 0; i < n; i++) ck_assert_str_eq(sim_model_name(i), names[i]);
    for (size_t i = 0; i < n; i++) ck_assert_str_eq(c.v[i], sim_model_name(i));
    from_registry("sim.model");
    each_choice_loads("sim.model", NULL, 0);
    doc_lists("sim.model");
    struct cfg_error err;
    struct config *cfg = config_load(NULL, NULL, 0, &err);
    ck_assert_ptr_nonnull(cfg);
    ck_assert(cfg_is(cfg, "sim.model", "cycle"));
    config_free(cfg);
}
END_TEST

START_TEST(scheduler)
{
    struct choices c;
    split("gpu.sm.scheduler", &c);
    size_t n = 0;
    while (sched_policy(n)) n++;
    ck_assert_uint_eq(c.n, n);
    ck_assert_uint_eq(n, 2);
    ck_assert_ptr_eq(sched_policy(0), &sched_lrr);
    ck_assert_ptr_eq(sched_policy(1), &sched_gto);
    for (size_t i = 0; i < n; i++) ck_assert_str_eq(c.v[i], sched_policy(i)->name);
    from_registry("gpu.sm.scheduler");
    each_choice_loads("gpu.sm.scheduler", NULL, 0);
    doc_lists("gpu.sm.scheduler");
}
END_TEST

/* Chunk-level eviction: each entry stands for a driver.eviction and works
 * over a driver.evict.cyclic.base choice; evict_unit chunk loads with
 * exactly the table's policies (cyclic over its base only). */
START_TEST(chunk_level)
{
    struct choices ev, base;
    split("driver.eviction", &ev);
    split("driver.evict.cyclic.base", &base);
    size_t n = 0;
    for (; chunk_evict_at(n); n++) {
        const struct chunk_evict_ops *o = chunk_evict_at(n);
        ck_assert_ptr_eq(chunk_evict_find(o->name), o);
        ck_assert_ptr_nonnull(o->victim);
        bool in = false;
        for (size_t i = 0; i < ev.n; i++) in |= !strcmp(ev.v[i], o->name);
        ck_assert_msg(in, "chunk policy %s is no driver.eviction", o->name);
        if (!o->over) continue;
        in = false;
        for (size_t i = 0; i < base.n; i++) in |= !strcmp(base.v[i], o->over);
        ck_assert_msg(in, "chunk policy %s works over %s, no cyclic.base", o->name, o->over);
    }
    ck_assert_uint_eq(n, 2);   /* the real driver's list, and cyclic over it */
    for (size_t i = 0; i < ev.n; i++)
        for (size_t b = 0; b < base.n; b++) {
            char s1[96], s2[96];
            snprintf(s1, sizeof s1, "driver.eviction=%s", ev.v[i]);
            snprintf(s2, sizeof s2, "driver.evict.cyclic.base=%s", base.v[b]);
            const char *sets[] = { "driver.evict_unit=chunk", s1, s2 };
            struct cfg_error err;
            struct config *cfg = config_load(NULL, sets, 3, &err);
            const struct chunk_evict_ops *o = chunk_evict_find(ev.v[i]);
            bool want = o && (!o->over || !strcmp(o->over, base.v[b]));
            ck_assert_msg((cfg != NULL) == want, "%s %s: %s", s1, s2, cfg ? "loads" : err.msg);
            if (!cfg) ck_assert_ptr_nonnull(strstr(err.msg, "driver.evict_unit"));
            config_free(cfg);
        }
}
END_TEST

/* Every registry names an enum key that has no choices of its own, once. */
START_TEST(registries_name_enum_keys)
{
    for (size_t r = 0; config_registries[r].key; r++) {
        const struct cfg_key *k = key_of(config_registries[r].key);
        ck_assert_int_eq(k->type, CFG_ENUM);
        ck_assert_ptr_null(k->choices);
        ck_assert_ptr_nonnull(config_registries[r].name(0));
        for (size_t q = 0; q < r; q++) ck_assert_str_ne(config_registries[q].key, k->path);
    }
}
END_TEST

/* A misspelt value in a comparison is a programming error, not false. */
/* The panic exits with the config still held: a static keeps it reachable,
 * so LeakSanitizer (make check-asan) does not turn the exit status into 1. */
static struct config *volatile panic_cfg;
START_TEST(cfg_is_refuses_unknown_names)
{
    panic_cfg = config_new();
    cfg_is(panic_cfg, "driver.eviction", "lur");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("registry");
    TCase *t = tcase_create("registry");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, eviction);
    tcase_add_test(t, prefetch);
    tcase_add_test(t, placement);
    tcase_add_test(t, migration);
    tcase_add_test(t, runtime_policy);
    tcase_add_test(t, workload_kind);
    tcase_add_test(t, scheduler);
    tcase_add_test(t, timing_model);
    tcase_add_test(t, chunk_level);
    tcase_add_test(t, registries_name_enum_keys);
    tcase_add_exit_test(t, cfg_is_refuses_unknown_names, EXIT_ABORT);
    suite_add_tcase(s, t);
    return run_suite(s);
}

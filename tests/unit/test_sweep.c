/* Sweeps through their API: value tokens in names, the structure of an
 * expansion (factors, value indices), the plan file read back, and the
 * states of a point's result.  The command-line behaviour is in
 * tests/e2e/sweep_*.sh. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/config.h"
#include "out/results.h"
#include "core/stats.h"
#include "sweep/sweep.h"

static char *token(const char *text)
{
    static char buf[128];
    sweep_token(text, buf, sizeof buf);
    return buf;
}

START_TEST(tokens_are_file_name_safe)
{
    ck_assert_str_eq(token("75%"), "75pct");
    ck_assert_str_eq(token("rrip-fp"), "rrip-fp");
    ck_assert_str_eq(token("batch_flush"), "batch_flush");
    ck_assert_str_eq(token("16GB/s"), "16GB-s");
    ck_assert_str_eq(token("a b:c"), "a-b-c");
    ck_assert_str_eq(token("1.4GHz"), "1.4GHz");
    ck_assert_str_eq(token("x+y"), "x+y");
    char small[4];
    sweep_token("75%", small, sizeof small);    /* truncated, terminated */
    ck_assert_str_eq(small, "75p");
}
END_TEST

struct tmp { char dir[64], file[128]; };

static void write_sweep(struct tmp *t, const char *text)
{
    snprintf(t->dir, sizeof t->dir, "/tmp/uvmsim_sweep_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(t->dir));
    snprintf(t->file, sizeof t->file, "%s/s.yaml", t->dir);
    FILE *fp = fopen(t->file, "w");
    ck_assert_ptr_nonnull(fp);
    fputs(text, fp);
    fclose(fp);
}

static void remove_all(struct tmp *t)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
    ck_assert_int_eq(system(cmd), 0);
}

static struct sweep *load(const struct tmp *t)
{
    struct cfg_error err;
    struct sweep *s = sweep_load(t->file, NULL, 0, &err);
    ck_assert_msg(s != NULL, "%s", err.msg);
    return s;
}

/* Two axes and a zip group of two keys: three factors (2 x 3 x 2), the
 * zip keys sharing one; the last factor varies fastest. */
START_TEST(expansion_structure)
{
    struct tmp t;
    write_sweep(&t, "axes:\n"
                    "  driver.eviction: [fifo, lru]\n"
                    "  gpu.sms: [1, 2, 4]\n"
                    "zip:\n"
                    "  - workload.kind: [stream, pattern]\n"
                    "    workload.stream.passes: [1, 3]\n");
    struct sweep *s = load(&t);
    ck_assert_uint_eq(s->naxes, 4);
    ck_assert_uint_eq(s->nfactors, 3);
    ck_assert_uint_eq(s->axes[2].factor, 2);
    ck_assert_uint_eq(s->axes[3].factor, 2);
    ck_assert_uint_eq(s->ncombos, 12);
    ck_assert_uint_eq(s->npoints, 12);
    for (size_t i = 0; i < 12; i++) {
        ck_assert_uint_eq(s->points[i].vi[0], i / 6);
        ck_assert_uint_eq(s->points[i].vi[1], i / 2 % 3);
        ck_assert_uint_eq(s->points[i].vi[2], i % 2);
        ck_assert_uint_eq(s->points[i].vi[3], i % 2);
    }
    ck_assert_str_eq(s->points[7].name, "lru_1_pattern_3");
    /* Each point's config is its own: the hash is that of its YAML, and
     * points differ. */
    char *y7 = sweep_point_yaml(s, 7);
    ck_assert_uint_eq(sweep_point_hash(s, 7), results_yaml_hash(y7));
    ck_assert(strstr(y7, "eviction: lru\n") != NULL);
    free(y7);
    ck_assert_uint_ne(sweep_point_hash(s, 6), sweep_point_hash(s, 7));
    sweep_free(s);
    remove_all(&t);
}
END_TEST

START_TEST(plan_file_reads_back)
{
    struct tmp t;
    write_sweep(&t, "axes:\n"
                    "  gpu.memory.fraction: [75%, 50%]\n"
                    "seeds: 3\n"
                    "exclude:\n"
                    "  - gpu.memory.fraction: 0.5\n"
                    "    sim.seed: [2, 3]\n");
    struct sweep *s = load(&t);
    ck_assert_uint_eq(s->npoints, 4);   /* 2 x 3 - 2 */
    ck_assert_uint_eq(s->nexcluded, 2);
    char dir[128], err[1024];
    snprintf(dir, sizeof dir, "%s/out", t.dir);
    struct sweep_dir *d = sweep_dir_open(dir, true, true, err, sizeof err);
    ck_assert_msg(d != NULL, "%s", err);
    ck_assert_int_eq(sweep_dir_write_plan(d, s, err, sizeof err), 0);
    struct sweep_plan *p = sweep_plan_read(d, err, sizeof err);
    ck_assert_msg(p != NULL, "%s", err);
    ck_assert_str_eq(p->sweep_file, t.file);
    ck_assert_uint_eq(p->naxes, 2);
    ck_assert_str_eq(p->keys[1], "sim.seed");
    ck_assert_uint_eq(p->nvals[1], 3);
    ck_assert_str_eq(p->vals[0][0], "75%");
    ck_assert_uint_eq(p->npoints, 4);
    for (size_t i = 0; i < 4; i++) {
        ck_assert_str_eq(p->names[i], s->points[i].name);
        ck_assert_uint_eq(p->hash[i], s->points[i].hash);
        ck_assert_uint_eq(p->vi[i][0], s->points[i].vi[0]);
        ck_assert_uint_eq(p->vi[i][1], s->points[i].vi[1]);
    }
    ck_assert_str_eq(p->names[3], "50pct_seed1");
    sweep_plan_free(p);
    sweep_dir_close(d);
    sweep_free(s);
    remove_all(&t);
}
END_TEST

/* Replaces the first FROM in TEXT with TO; caller frees. */
static char *replace(const char *text, const char *from, const char *to)
{
    const char *at = strstr(text, from);
    ck_assert_ptr_nonnull(at);
    size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
    char *out = malloc(n);
    snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return out;
}

/* missing -> done (a result of the point's config) -> stale (a value
 * changed) -> failed (a record, no valid result). */
START_TEST(point_states)
{
    struct tmp t;
    write_sweep(&t, "axes:\n  sim.epoch: [5us]\n");
    struct sweep *s = load(&t);
    char dir[128], err[1024], path[256], why[640];
    snprintf(dir, sizeof dir, "%s/out", t.dir);
    struct sweep_dir *d = sweep_dir_open(dir, true, false, err, sizeof err);
    ck_assert_msg(d != NULL, "%s", err);
    ck_assert_int_eq(sweep_dir_write_plan(d, s, err, sizeof err), 0);
    const struct sweep_point *pt = &s->points[0];
    ck_assert_str_eq(pt->name, "5us");
    char *pt_yaml = sweep_point_yaml(s, 0);
    ck_assert_int_eq(sweep_point_state(d, pt->name, pt_yaml, pt->hash, NULL,
                                       why, sizeof why), PT_MISSING);
    ck_assert_str_eq(why, "not run");

    struct stats *st = stats_new();
    struct run_info ri = {.status = "completed"};
    struct cfg_error cerr;
    snprintf(path, sizeof path, "%s/configs/5us.yaml", dir);
    struct config *c = config_load(path, NULL, 0, &cerr);
    ck_assert_msg(c != NULL, "%s", cerr.msg);
    snprintf(path, sizeof path, "%s/points/5us.h5", dir);
    ck_assert_int_eq(results_write(path, c, st, &ri, err, sizeof err), 0);
    ck_assert_int_eq(sweep_point_state(d, pt->name, pt_yaml, pt->hash, NULL,
                                       why, sizeof why), PT_DONE);
    ck_assert_str_eq(why, "done");
    /* Without the YAML: DIR/configs/NAME.yaml (merge, Slurm tasks). */
    ck_assert_int_eq(sweep_point_state(d, pt->name, NULL, pt->hash, NULL,
                                       NULL, 0), PT_DONE);

    /* Other bytes, the same values: 5000ns is 5us; a key the config now
     * lacks counts at its default (sim.max_events: 0). */
    char *same = replace(pt_yaml, "epoch: 5us", "epoch: 5000ns");
    char *lacks = replace(pt_yaml, "  max_events: 0\n", "");
    ck_assert_int_eq(sweep_point_state(d, pt->name, same, results_yaml_hash(same),
                                       NULL, why, sizeof why), PT_DONE);
    ck_assert_int_eq(sweep_point_state(d, pt->name, lacks,
                                       results_yaml_hash(lacks), NULL, why,
                                       sizeof why), PT_DONE);
    /* Another value: stale, naming the key and both values. */
    char *other = replace(pt_yaml, "epoch: 5us", "epoch: 10us");
    ck_assert_int_eq(sweep_point_state(d, pt->name, other,
                                       results_yaml_hash(other), NULL, why,
                                       sizeof why), PT_STALE);
    ck_assert_str_eq(why, "stale: key sim.epoch 5us -> 10us");
    /* A key this binary does not know: a difference. */
    char *unknown = replace(pt_yaml, "sim:\n", "sim:\n  nosuch: 1\n");
    ck_assert_int_eq(sweep_point_state(d, pt->name, unknown,
                                       results_yaml_hash(unknown), NULL, why,
                                       sizeof why), PT_STALE);
    ck_assert_str_eq(why, "stale: key sim.nosuch (none) -> 1");

    snprintf(path, sizeof path, "%s/logs/5us.failed", dir);
    FILE *fp = fopen(path, "w");
    fputs("exit 3\nlast lines\n", fp);
    fclose(fp);
    int code = 0;
    ck_assert_int_eq(sweep_point_state(d, pt->name, other,
                                       results_yaml_hash(other), &code, why,
                                       sizeof why), PT_FAILED);
    ck_assert_int_eq(code, 3);
    ck_assert_str_eq(why, "failed (exit 3)");
    /* A valid result wins over an older failure record. */
    ck_assert_int_eq(sweep_point_state(d, pt->name, pt_yaml, pt->hash, NULL,
                                       NULL, 0), PT_DONE);
    free(same);
    free(lacks);
    free(other);
    free(unknown);
    free(pt_yaml);

    /* A temporary of a process that no longer exists is removed; one of a
     * live process (this one) is left alone. */
    char dead[256], live[256];
    snprintf(dead, sizeof dead, "%s/points/5us.h5.tmp.999999999", dir);
    snprintf(live, sizeof live, "%s/points/5us.h5.tmp.%ld", dir, (long)getpid());
    fclose(fopen(dead, "w"));
    fclose(fopen(live, "w"));
    ck_assert_uint_eq(sweep_dir_clean_temps(d), 1);
    ck_assert_int_ne(access(dead, F_OK), 0);
    ck_assert_int_eq(access(live, F_OK), 0);

    config_free(c);
    stats_free(st);
    sweep_dir_close(d);
    sweep_free(s);
    remove_all(&t);
}
END_TEST

static Suite *sweep_suite(void)
{
    Suite *su = suite_create("sweep");
    TCase *tc = tcase_create("sweep");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, tokens_are_file_name_safe);
    tcase_add_test(tc, expansion_structure);
    tcase_add_test(tc, plan_file_reads_back);
    tcase_add_test(tc, point_states);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    return run_suite(sweep_suite());
}

/* uvmsim sweep plan|run|slurm|merge|point (docs/sweeps.md) */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <hdf5.h>
#include "cli.h"
#include "config/config.h"
#include "sweep/sweep.h"

static const char usage_sweep[] =
    "usage: uvmsim sweep plan SWEEP.yaml [-o DIR] [-s KEY=VALUE]...\n"
    "       uvmsim sweep plan DIR\n"
    "       uvmsim sweep run SWEEP.yaml -o DIR [-j N] [--force] [-s KEY=VALUE]...\n"
    "       uvmsim sweep slurm SWEEP.yaml -o DIR [--partition P] [--time T]\n"
    "                    [--mem M] [--max-parallel K] [--account A]\n"
    "                    [--setup CMD] [--dry-run] [--force] [-s KEY=VALUE]...\n"
    "       uvmsim sweep merge DIR\n"
    "       uvmsim sweep point DIR NAME [--force]\n"
    "\n"
    "One config over many points (docs/sweeps.md).  A sweep file names a\n"
    "base: config, set: keys, axes: (key -> values, cartesian product), zip:\n"
    "groups, seeds:, exclude: rules and a name: template.  Every value is\n"
    "checked before anything runs.\n"
    "\n"
    "plan   print the points (count, names, overrides); with -o DIR (or\n"
    "       given DIR alone: its sweep file and -s) also each one's state\n"
    "       there: done, not run, failed, or stale and why\n"
    "run    run the points without a valid result in DIR as separate\n"
    "       processes, N at a time (default: the number of cores), then\n"
    "       merge; rerunning resumes (a point reruns when a value of its\n"
    "       resolved config or the model revision changed; --force reruns all)\n"
    "slurm  write DIR/slurm/array.sh (a job array over the points without\n"
    "       a valid result) and DIR/slurm/merge.sh (afterok the array) and\n"
    "       submit both with sbatch (--dry-run: only write them)\n"
    "merge  write DIR/sweep.h5 from the valid results (docs/results.md)\n"
    "point  run one point of DIR's plan (what a Slurm array task runs)\n"
    "\n"
    "  -o DIR           the sweep directory (created when missing)\n"
    "  -j N             points at a time\n"
    "  -s KEY=VALUE     fix a key for every point (repeatable)\n"
    "  --force          ignore what DIR holds: rerun points that have a\n"
    "                   valid result, and use a non-empty DIR that is not\n"
    "                   a sweep (its sweep.yaml, plan.tsv, sweep.h5 replaced)\n"
    "  --setup CMD      shell line in the Slurm scripts before the run\n"
    "                   (e.g. 'module load hdf5')\n"
    "\n"
    "exit status: 0 every point has a valid result; 1 some point failed or\n"
    "is missing (listed, and in sweep.h5's /missing); 2 user error, nothing\n"
    "run; 130/143 interrupted\n";

struct sweep_args {
    const char *file, *dir, *name;
    const char *sets[MAX_SETS];
    size_t nsets;
    int jobs;
    struct sweep_slurm_opts slurm;
};

static long number(const char *opt, const char *v, long lo, long hi)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || *end || end == v || n < lo || n > hi) {
        char msg[128];
        snprintf(msg, sizeof msg, "%s needs a number in [%ld, %ld], got '%%s'",
                 opt, lo, hi);
        usage_error(usage_sweep, msg, v);
    }
    return n;
}

/* Options of the SUB command (which ones apply is checked by the caller). */
static void parse(const char *sub, int argc, char **argv, struct sweep_args *a)
{
    bool slurm = !strcmp(sub, "slurm"), run = !strcmp(sub, "run");
    bool point = !strcmp(sub, "point");
    for (int i = 0; i < argc; i++) {
        const char *o = argv[i];
        if (is_help(o)) { fputs(usage_sweep, stdout); exit(EXIT_OK); }
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = !strcmp(o, "-s") || !strcmp(o, "-o") ||
                     (run && !strcmp(o, "-j")) ||
                     (slurm && (!strcmp(o, "--partition") || !strcmp(o, "--time") ||
                                !strcmp(o, "--mem") || !strcmp(o, "--max-parallel") ||
                                !strcmp(o, "--account") || !strcmp(o, "--setup")));
        if (takes && !v) usage_error(usage_sweep, "%s needs a value", o);
        if (!strcmp(o, "-s")) {
            if (a->nsets == MAX_SETS) usage_error(usage_sweep, "too many %s", o);
            a->sets[a->nsets++] = v;
        } else if (!strcmp(o, "-o")) {
            a->dir = v;
        } else if (run && !strcmp(o, "-j")) {
            a->jobs = (int)number(o, v, 1, 1024);
        } else if (run && !strncmp(o, "-j", 2)) {       /* -jN, as make */
            a->jobs = (int)number("-j", o + 2, 1, 1024);
            continue;
        } else if (slurm && !strcmp(o, "--partition")) {
            a->slurm.partition = v;
        } else if (slurm && !strcmp(o, "--time")) {
            a->slurm.time = v;
        } else if (slurm && !strcmp(o, "--mem")) {
            a->slurm.mem = v;
        } else if (slurm && !strcmp(o, "--account")) {
            a->slurm.account = v;
        } else if (slurm && !strcmp(o, "--setup")) {
            a->slurm.setup = v;
        } else if (slurm && !strcmp(o, "--max-parallel")) {
            a->slurm.max_parallel = number(o, v, 1, 1000000);
        } else if (slurm && !strcmp(o, "--dry-run")) {
            a->slurm.dry_run = true;
            continue;
        } else if ((run || slurm || point) && !strcmp(o, "--force")) {
            a->slurm.force = true;
            continue;
        } else if (o[0] == '-' && o[1]) {
            usage_error(usage_sweep, "unknown option '%s'", o);
        } else if (!a->file) {
            a->file = o;
            continue;
        } else if (!a->name) {
            a->name = o;
            continue;
        } else {
            usage_error(usage_sweep, "unexpected argument '%s'", o);
        }
        i++;
    }
}

static bool slurm_value_ok(const char *v)
{
    return !v || (v[0] && !strpbrk(v, " \t\n\r'\"\\$`"));
}

static struct sweep *load(const struct sweep_args *a)
{
    struct cfg_error err;
    struct sweep *s = sweep_load(a->file, a->sets, a->nsets, &err);
    if (!s) {
        fprintf(stderr, "%s\n", err.msg);
        exit(EXIT_USER);
    }
    return s;
}

static struct sweep_dir *open_dir(const char *dir, bool create, bool lock)
{
    char err[1024];
    struct sweep_dir *d = sweep_dir_open(dir, create, lock, err, sizeof err);
    if (!d) user_error("%s", err);
    return d;
}

/* ---- plan ---- */

/* Each point's state in DIR as print_plan shows it; NULL without DIR.
 * COUNT[state] gets how many are in each. */
static char **plan_states(const struct sweep *s, const char *dir,
                          size_t count[4])
{
    if (!dir) return NULL;
    char err[1024];
    struct sweep_dir *d = sweep_dir_open(dir, false, false, err, sizeof err);
    char **why = xcalloc(s->npoints, sizeof *why);
    for (size_t i = 0; i < s->npoints; i++) {
        const struct sweep_point *p = &s->points[i];
        char buf[640] = "not run";
        char *yaml = d ? sweep_point_yaml(s, i) : NULL;
        enum sweep_state st = d ? sweep_point_state(d, p->name, yaml,
                                                    p->hash, NULL, buf,
                                                    sizeof buf)
                                : PT_MISSING;
        free(yaml);
        count[st]++;
        why[i] = xstrdup(buf);
    }
    sweep_dir_close(d);
    return why;
}

static void print_plan(const struct sweep *s, const char *dir)
{
    printf("sweep %s: %zu points (%zu combinations, %zu excluded)\n", s->file,
           s->npoints, s->ncombos, s->nexcluded);
    printf("base: %s\n", s->base ? s->base : "(built-in defaults)");
    for (size_t i = 0; i < s->nfixed; i++) printf("set: %s\n", s->fixed[i]);
    for (size_t f = 0; f < s->nfactors; f++) {
        printf("factor %zu (%zu values):", f, s->factor_len[f]);
        for (size_t a = 0; a < s->naxes; a++)
            if (s->axes[a].factor == f) printf(" %s", s->axes[a].key);
        putchar('\n');
    }
    size_t count[4] = {0};
    char **why = plan_states(s, dir, count);
    if (why)
        printf("in %s: %zu done, %zu stale, %zu failed, %zu not run\n", dir,
               count[PT_DONE], count[PT_STALE], count[PT_FAILED],
               count[PT_MISSING]);
    size_t w = 4, ws = 5;
    for (size_t i = 0; i < s->npoints; i++) {
        if (strlen(s->points[i].name) > w) w = strlen(s->points[i].name);
        if (why && strlen(why[i]) > ws) ws = strlen(why[i]);
    }
    printf("%5s  %-*s  ", "#", (int)w, "name");
    if (why) printf("%-*s  ", (int)ws, "state");
    printf("overrides\n");
    for (size_t i = 0; i < s->npoints; i++) {
        const struct sweep_point *p = &s->points[i];
        printf("%5zu  %-*s  ", i, (int)w, p->name);
        if (why) printf("%-*s  ", (int)ws, why[i]);
        for (size_t a = 0; a < s->naxes; a++)
            printf("%s%s=%s", a ? " " : "", s->axes[a].key,
                   s->axes[a].text[p->vi[a]]);
        putchar('\n');
    }
    for (size_t i = 0; why && i < s->npoints; i++) free(why[i]);
    free(why);
}

/* `sweep plan DIR`: the sweep file and -s the plan in DIR was made with. */
static struct sweep *load_from_dir(const char *dir)
{
    struct sweep_dir *d = open_dir(dir, false, false);
    char err[1024];
    struct sweep_plan *p = sweep_plan_read(d, err, sizeof err);
    sweep_dir_close(d);
    if (!p) user_error("%s", err);
    if (!p->sweep_file[0] || access(p->sweep_file, R_OK) != 0) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s/plan.tsv: its sweep file '%s' (named "
                 "from where the sweep ran) is not readable here: %s; run "
                 "`uvmsim sweep plan SWEEP.yaml -o %s`", dir, p->sweep_file,
                 p->sweep_file[0] ? strerror(errno) : "none recorded", dir);
        sweep_plan_free(p);
        user_error("%s", msg);
    }
    struct cfg_error cerr;
    struct sweep *s = sweep_load(p->sweep_file, (const char *const *)p->sets,
                                 p->nsets, &cerr);
    sweep_plan_free(p);
    if (!s) {
        fprintf(stderr, "%s\n", cerr.msg);
        exit(EXIT_USER);
    }
    return s;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int jobs_default(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

int cmd_sweep(int argc, char **argv)
{
    if (argc < 1 || is_help(argv[0])) {
        fputs(usage_sweep, argc < 1 ? stderr : stdout);
        return argc < 1 ? EXIT_USER : EXIT_OK;
    }
    /* No HDF5 shutdown at exit: every file and object is closed by then,
     * and after a damaged point libhdf5 1.10 fails to shut down and says
     * "infinite loop closing library" (issue 38 R7, docs/robustness.md). */
    H5dont_atexit();
    const char *sub = argv[0];
    struct sweep_args a = {0};
    if (strcmp(sub, "plan") && strcmp(sub, "run") && strcmp(sub, "slurm") &&
        strcmp(sub, "merge") && strcmp(sub, "point"))
        usage_error(usage_sweep, "unknown sweep command '%s'", sub);
    parse(sub, argc - 1, argv + 1, &a);
    bool dir_only = !strcmp(sub, "merge") || !strcmp(sub, "point");
    if (!a.file)
        usage_error(usage_sweep, "%s", dir_only ? "missing DIR" : "missing SWEEP.yaml");
    if (!strcmp(sub, "point") ? !a.name : a.name != NULL)
        usage_error(usage_sweep, "%s", a.name ? "unexpected argument" : "missing NAME");
    if (dir_only && (a.dir || a.nsets))
        usage_error(usage_sweep, "sweep %s takes DIR only", sub);

    if (!strcmp(sub, "merge")) {
        struct sweep_dir *d = open_dir(a.file, false, true);
        char err[1024];
        int rc = sweep_merge(d, stdout, err, sizeof err);
        if (rc == SWEEP_MERGE_BAD_PLAN) {
            sweep_dir_abandon(d);
            user_error("%s", err);
        }
        sweep_dir_close(d);
        if (rc < 0) fprintf(stderr, "uvmsim: merge: %s\n", err);
        return rc < 0 ? SWEEP_EXIT_INCOMPLETE : rc;
    }
    if (!strcmp(sub, "point")) {
        struct sweep_dir *d = open_dir(a.file, false, false);
        int rc = sweep_run_point(d, a.name, a.slurm.force);
        sweep_dir_close(d);
        return rc;
    }
    if (strcmp(sub, "plan") && !a.dir) usage_error(usage_sweep, "%s", "missing -o DIR");
    if (!slurm_value_ok(a.slurm.partition) || !slurm_value_ok(a.slurm.time) ||
        !slurm_value_ok(a.slurm.mem) || !slurm_value_ok(a.slurm.account))
        usage_error(usage_sweep, "%s", "--partition, --time, --mem and "
                    "--account take one word each");

    bool from_dir = !strcmp(sub, "plan") && is_dir(a.file);
    if (from_dir && (a.dir || a.nsets))
        usage_error(usage_sweep, "%s", "sweep plan DIR takes the sweep file "
                    "and -s from DIR/plan.tsv: no -o or -s");
    char err[1024];
    /* Before anything is created: a refused -o DIR leaves nothing. */
    if (!strcmp(sub, "slurm") && !sweep_slurm_paths_ok(a.dir, err, sizeof err))
        user_error("%s", err);
    if (!strcmp(sub, "plan") ? false
        : !a.slurm.force && !sweep_dir_takeover_ok(a.dir, err, sizeof err))
        user_error("%s", err);
    struct sweep *s = from_dir ? load_from_dir(a.file) : load(&a);
    int rc = EXIT_OK;
    if (!strcmp(sub, "plan")) {
        print_plan(s, from_dir ? a.file : a.dir);
    } else {
        struct sweep_dir *d = open_dir(a.dir, true, true);
        if (!strcmp(sub, "run"))
            rc = sweep_run_local(s, d, a.jobs ? a.jobs : jobs_default(),
                                 a.slurm.force, stdout);
        else
            rc = sweep_slurm(s, d, &a.slurm, stdout);
        sweep_dir_close(d);
    }
    sweep_free(s);
    return rc;
}

/* uvmsim command line: run, config show|check|doc. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include "base.h"
#include "config.h"
#include "engine.h"
#include "stats.h"
#include "results.h"
#include "summary.h"
#include "system.h"
#include "../workloads/workload.h"

#define MAX_SETS 256

static const char usage_main[] =
    "usage: uvmsim COMMAND [ARGS]\n"
    "\n"
    "commands:\n"
    "  run CONFIG [-o OUT.h5] [-s KEY=VALUE]... [--seed N] [--quiet]\n"
    "                       simulate and write an HDF5 result\n"
    "  config show CONFIG [-s KEY=VALUE]...   print the fully resolved config\n"
    "  config check CONFIG [-s KEY=VALUE]...  validate a config\n"
    "  config doc                             print the reference of every key\n"
    "  workloads              list every workload, its parameters and footprint\n"
    "  trace convert IN.txt OUT.bin           NVBit mem_trace text to uvmsim binary\n"
    "\n"
    "  uvmsim COMMAND --help   help on one command\n"
    "  uvmsim --version        print the version\n"
    "\n"
    "exit status: 0 success, 2 user error, 3 simulation aborted\n";

static const char usage_run[] =
    "usage: uvmsim run CONFIG [-o OUT.h5] [-s KEY=VALUE]... [--seed N] [--quiet]\n"
    "\n"
    "Simulate the machine and workload of CONFIG (YAML) and write one HDF5\n"
    "result (default: the config's name with .h5, in the current directory).\n"
    "The result appears only when the run succeeds.\n"
    "\n"
    "  -o OUT.h5        where to write the result\n"
    "  -s KEY=VALUE     override a config key (repeatable, applied in order)\n"
    "  --seed N         same as -s sim.seed=N\n"
    "  --quiet          no summary on stdout\n";

static const char usage_config[] =
    "usage: uvmsim config show CONFIG [-s KEY=VALUE]...\n"
    "       uvmsim config check CONFIG [-s KEY=VALUE]...\n"
    "       uvmsim config doc\n"
    "\n"
    "show: print the fully resolved config (every key, defaults included),\n"
    "      as YAML that loads back to the same config.\n"
    "check: validate; prints 'ok' or the first error (exit 2).\n"
    "doc: print the Markdown reference of every key (docs/config.md).\n";

static const char usage_workloads[] =
    "usage: uvmsim workloads\n"
    "\n"
    "List every workload generator (workload.kind) with its source kernel,\n"
    "footprint formula and parameters (workload.<kind>.<param>: default,\n"
    "range, meaning), as Markdown (docs/workloads.md is this output).\n";

static const char usage_trace[] =
    "usage: uvmsim trace convert IN.txt OUT.bin\n"
    "\n"
    "Convert an NVBit mem_trace text trace into uvmsim's binary trace format\n"
    "(docs/trace-format.md), replayed by workload.kind=trace.  OUT.bin appears\n"
    "only when the conversion succeeds.\n";

struct opts {
    const char *config, *out;
    const char *sets[MAX_SETS];
    size_t nsets;
    bool quiet;
    char seed_set[64];
};

static void usage_error(const char *usage, const char *fmt, const char *arg)
{
    fprintf(stderr, "uvmsim: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", usage);
    exit(EXIT_USER);
}

static bool is_help(const char *a) { return !strcmp(a, "--help") || !strcmp(a, "-h"); }

/* Parses CONFIG, -o, -s, --seed, --quiet; `allow` says which options apply. */
static void parse(int argc, char **argv, struct opts *o, const char *usage,
                  bool run_opts)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (is_help(a)) { fputs(usage, stdout); exit(EXIT_OK); }
        bool has_val = i + 1 < argc;
        if (!strcmp(a, "-s")) {
            if (!has_val) usage_error(usage, "%s needs KEY=VALUE", a);
            if (o->nsets == MAX_SETS) usage_error(usage, "too many %s options", a);
            o->sets[o->nsets++] = argv[++i];
        } else if (run_opts && !strcmp(a, "-o")) {
            if (!has_val) usage_error(usage, "%s needs a file name", a);
            o->out = argv[++i];
        } else if (run_opts && !strcmp(a, "--seed")) {
            if (!has_val) usage_error(usage, "%s needs a number", a);
            if (o->nsets == MAX_SETS) usage_error(usage, "too many %s options", a);
            snprintf(o->seed_set, sizeof o->seed_set, "sim.seed=%s", argv[++i]);
            o->sets[o->nsets++] = o->seed_set;
        } else if (run_opts && !strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (a[0] == '-' && a[1]) {
            usage_error(usage, "unknown option '%s'", a);
        } else if (!o->config) {
            o->config = a;
        } else {
            usage_error(usage, "unexpected argument '%s'", a);
        }
    }
    if (!o->config) usage_error(usage, "%s", "missing CONFIG");
}

/* `trace convert`: written to OUT.tmp, renamed on success. */
static int cmd_trace(int argc, char **argv)
{
    if (argc >= 1 && is_help(argv[0])) { fputs(usage_trace, stdout); return EXIT_OK; }
    if (argc != 3 || strcmp(argv[0], "convert"))
        usage_error(usage_trace, "%s", "expected: trace convert IN.txt OUT.bin");
    size_t n = strlen(argv[2]);
    char *tmp = xmalloc(n + 5);
    memcpy(tmp, argv[2], n);
    strcpy(tmp + n, ".tmp");
    wl_trace_convert(argv[1], tmp);
    if (rename(tmp, argv[2]) != 0) {
        fprintf(stderr, "uvmsim: cannot rename '%s' to '%s': %s\n", tmp, argv[2], strerror(errno));
        remove(tmp);
        free(tmp);
        return EXIT_USER;
    }
    free(tmp);
    return EXIT_OK;
}

static struct config *load_or_exit(const struct opts *o)
{
    struct cfg_error err;
    struct config *c = config_load(o->config, o->sets, o->nsets, &err);
    if (!c) {
        fprintf(stderr, "%s\n", err.msg);
        exit(EXIT_USER);
    }
    return c;
}

static int cmd_config(int argc, char **argv)
{
    if (argc < 1 || is_help(argv[0])) {
        fputs(usage_config, argc < 1 ? stderr : stdout);
        return argc < 1 ? EXIT_USER : EXIT_OK;
    }
    const char *sub = argv[0];
    if (!strcmp(sub, "doc")) {
        if (argc > 1 && is_help(argv[1])) { fputs(usage_config, stdout); return EXIT_OK; }
        config_doc(stdout);
        return EXIT_OK;
    }
    if (strcmp(sub, "show") && strcmp(sub, "check"))
        usage_error(usage_config, "unknown config command '%s'", sub);
    struct opts o = {0};
    parse(argc - 1, argv + 1, &o, usage_config, false);
    struct config *c = load_or_exit(&o);
    if (!strcmp(sub, "show")) {
        char *y = config_to_yaml(c);
        fputs(y, stdout);
        free(y);
    } else {
        printf("%s: ok\n", o.config);
    }
    config_free(c);
    return EXIT_OK;
}

/* Default result name: the config's file name with .h5 instead of .yaml. */
static char *default_out(const char *config)
{
    const char *base = strrchr(config, '/');
    base = base ? base + 1 : config;
    size_t n = strlen(base);
    const char *dot = strrchr(base, '.');
    if (dot && dot != base) n = (size_t)(dot - base);
    char *out = xmalloc(n + 4);
    memcpy(out, base, n);
    strcpy(out + n, ".h5");
    return out;
}

/* Fail before simulating, not after, when the result cannot be written. */
static void check_out_dir(const char *out)
{
    char *dir = xstrdup(out);
    char *slash = strrchr(dir, '/');
    if (slash) { if (slash == dir) slash[1] = 0; else *slash = 0; }
    else strcpy(dir, ".");
    if (access(dir, W_OK) != 0) {
        fprintf(stderr, "uvmsim: -o %s: cannot write in '%s': %s\n", out, dir,
                strerror(errno));
        free(dir);
        exit(EXIT_USER);
    }
    free(dir);
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct progress {
    struct system *sys;
    double start, last;
};

static void show_progress(void *ctx, sim_time now)
{
    struct progress *p = ctx;
    double t = now_seconds();
    if (t - p->last < 0.5) return;
    p->last = t;
    double cycles = (double)now / (double)system_core_period(p->sys);
    fprintf(stderr, "\r  t=%.3f us  kernels done %llu  %.3g cycles/s   ",
            (double)now / 1e6, (unsigned long long)system_kernels_done(p->sys),
            cycles / (t - p->start));
}

static const char *status_name(enum run_status st)
{
    return st == RUN_COMPLETED ? "completed" : st == RUN_TIME_LIMIT ? "time_limit"
                                                                    : "event_limit";
}

static int cmd_run(int argc, char **argv)
{
    struct opts o = {0};
    parse(argc, argv, &o, usage_run, true);
    struct config *cfg = load_or_exit(&o);
    char *out = o.out ? xstrdup(o.out) : default_out(o.config);
    check_out_dir(out);

    double t0 = now_seconds();
    struct system *sys = system_build(cfg);
    struct progress prog = { sys, t0, t0 };
    bool tty = isatty(STDERR_FILENO);
    if (tty) system_set_progress(sys, show_progress, &prog);
    enum run_status st = system_run(sys);
    if (tty) fputs("\r\033[K", stderr);
    double wall = now_seconds() - t0;

    struct engine *e = system_engine(sys);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    sim_time end = engine_end_time(e);
    double cycles = (double)(end / system_core_period(sys));
    struct run_info ri = {
        .status = status_name(st),
        .seed = cfg_u64(cfg, "sim.seed"),
        .sim_time_ps = end,
        .events = engine_events(e),
        .wall_seconds = wall,
        .peak_rss_bytes = (uint64_t)ru.ru_maxrss * 1024,
        .gpu_cycles_per_second = wall > 0 ? cycles / wall : 0,
        .events_per_second = wall > 0 ? (double)engine_events(e) / wall : 0,
    };
    if (st != RUN_COMPLETED)
        fprintf(stderr, "uvmsim: warning: run stopped by %s before the workload finished\n",
                st == RUN_TIME_LIMIT ? "sim.max_time" : "sim.max_events");
    char err[512];
    int rc = EXIT_OK;
    if (results_write(out, cfg, system_stats(sys), &ri, err, sizeof err) != 0) {
        fprintf(stderr, "uvmsim: cannot write result '%s': %s\n", out, err);
        rc = EXIT_INTERNAL;
    } else if (!o.quiet) {
        print_summary(stdout, system_stats(sys), &ri, out);
    }
    system_free(sys);
    config_free(cfg);
    free(out);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fputs(usage_main, stderr); return EXIT_USER; }
    const char *cmd = argv[1];
    if (is_help(cmd) || !strcmp(cmd, "help")) { fputs(usage_main, stdout); return EXIT_OK; }
    if (!strcmp(cmd, "--version")) { printf("uvmsim %s\n", UVMSIM_VERSION); return EXIT_OK; }
    if (!strcmp(cmd, "run")) return cmd_run(argc - 2, argv + 2);
    if (!strcmp(cmd, "config")) return cmd_config(argc - 2, argv + 2);
    if (!strcmp(cmd, "trace")) return cmd_trace(argc - 2, argv + 2);
    if (!strcmp(cmd, "workloads")) {
        if (argc > 2 && is_help(argv[2])) { fputs(usage_workloads, stdout); return EXIT_OK; }
        if (argc > 2) usage_error(usage_workloads, "unexpected argument '%s'", argv[2]);
        wl_list(stdout);
        return EXIT_OK;
    }
    fprintf(stderr, "uvmsim: unknown command '%s'\n%s", cmd, usage_main);
    return EXIT_USER;
}

/* uvmsim run: simulate, summarise, write the HDF5 result. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include "cli.h"
#include "config/config.h"
#include "core/engine.h"
#include "out/outfile.h"
#include "out/results.h"
#include "core/stats.h"
#include "summary.h"
#include "system.h"
#include "core/text.h"
#include "trace/trace.h"
#include "trace_opts.h"
#include "workloads/workload.h"

static const char usage_run[] =
    "usage: uvmsim run CONFIG [-o OUT.h5] [-s KEY=VALUE]... [--seed N] [--quiet]\n"
    "                  [--no-host-metrics] [--trace OUT.json [--trace-window T0:T1]\n"
    "                  [--trace-what LIST] [--trace-max SIZE]]\n"
    "\n"
    "Simulate the machine and workload of CONFIG (YAML) and write one HDF5\n"
    "result (default: the config's name with .h5, in the current directory).\n"
    "The result appears only when the run succeeds; SIGINT or SIGTERM stop the\n"
    "run, write nothing and exit 130 or 143.\n"
    "\n"
    "  -o OUT.h5        where to write the result (a new or a regular file); without\n"
    "                   -o, stderr names the file written and whether it replaced one\n"
    "  -s KEY=VALUE     override a config key (repeatable, applied in order)\n"
    "  --seed N         same as -s sim.seed=N\n"
    "  --quiet          no summary on stdout\n"
    "  --no-host-metrics  leave out /host (wall time, peak memory, host speed):\n"
    "                   the same config and seed then give byte-identical files\n"
    "  --trace OUT.json         write a Chrome/Perfetto trace of the run (docs/trace.md)\n"
    "  --trace-window T0:T1     only this window of simulated time (e.g. 10us:50us;\n"
    "                           T0: or :T1 open at one end); default: the whole run\n"
    "  --trace-what LIST        warps,faults,batches,dma,evictions,shootdowns,counters,\n"
    "                           kernels,walks,dram or all (default: all but walks, dram)\n"
    "  --trace-max SIZE         stop the trace (closed, valid, marked truncated) once it\n"
    "                           holds about SIZE (default " TRACE_MAX_DEFAULT "; 0: no cap)\n";

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
static void check_out(const char *out)
{
    char why[512];
    if (outfile_check_target(out, why, sizeof why) != 0)
        user_error("-o %s: %s", out, why);
    char *dir = xstrdup(out);
    char *slash = strrchr(dir, '/');
    if (slash) { if (slash == dir) slash[1] = 0; else *slash = 0; }
    else strcpy(dir, ".");
    if (access(dir, W_OK) != 0) {
        int e = errno;
        snprintf(why, sizeof why, "%s", dir);
        free(dir);
        user_error("-o %s: cannot write in '%s': %s", out, why, strerror(e));
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
    const struct config *cfg;
    double start, last;
    uint64_t kernels;          /* the program's kernels; 0 until counted */
};

/* The program's kernel launches, counted on a fresh instance of the
 * workload: its steps only, no instruction is generated (the generators
 * are deterministic, so it is the program the run executes). */
static uint64_t count_kernels(const struct config *cfg)
{
    struct workload *wl = workload_create(cfg);
    struct wl_step st;
    uint64_t n = 0;
    while (wl_next_step(wl, &st))
        if (st.kind == WL_STEP_KERNEL) n++;
    workload_free(wl);
    return n;
}

static void show_progress(void *ctx, sim_time now)
{
    struct progress *p = ctx;
    double t = now_seconds();
    if (t - p->last < 0.5) return;
    /* Counted at the first line: a run shorter than that pays nothing. */
    if (!p->kernels) p->kernels = count_kernels(p->cfg);
    p->last = now_seconds();
    double cycles = (double)now / (double)system_core_period(p->sys);
    fprintf(stderr, "\r  t=%.3f us  kernels %llu of %llu done  %.3g cycles/s   ",
            (double)now / 1e6, (unsigned long long)system_kernels_done(p->sys),
            (unsigned long long)p->kernels, cycles / (t - p->start));
}

/* One escaped line (a path may hold control characters). */
static void write_failed(const char *out, const char *err)
{
    char line[1200], esc[2400];
    snprintf(line, sizeof line, "cannot write result '%s': %s", out, err);
    text_escape(esc, sizeof esc, line);
    fprintf(stderr, "uvmsim: %s\n", esc);
}

static const char *status_name(enum run_status st)
{
    return st == RUN_COMPLETED ? "completed" : st == RUN_TIME_LIMIT ? "time_limit"
         : st == RUN_EVENT_LIMIT ? "event_limit" : "interrupted";
}

int cmd_run(int argc, char **argv)
{
    struct opts o = {0};
    struct trace_opts to;
    argc = trace_opts_take(argc, argv, &to, usage_run);
    parse_opts(argc, argv, &o, usage_run, true);
    struct config *cfg = load_or_exit(&o);
    char *out = o.out ? xstrdup(o.out) : default_out(o.config);
    check_out(out);
    trace_opts_check_out(&to, out, "the result -o");
    trace_opts_check_out(&to, o.config, "the config");
    bool existed = access(out, F_OK) == 0;

    outfile_handle_signals();
    double t0 = now_seconds();
    struct system *sys = system_build(cfg);
    if (to.path) {
        /* Opened once the machine is built: a config error writes nothing.
         * From here the file is valid JSON on every exit (trace_close, or
         * at exit after sim_panic / the watchdog). */
        if (trace_open(to.path, to.t0, to.t1, to.what) != 0) {
            fprintf(stderr, "uvmsim: --trace %s: %s\n", to.path, strerror(errno));
            exit(EXIT_USER);
        }
        trace_set_max(to.max_bytes);
        trace_machine(cfg, system_stats(sys));
    }
    char err[512];
    /* The file is opened now: the time series and tables stream into it. */
    struct results *res = results_open(out, cfg, system_stats(sys), err, sizeof err);
    if (!res) {
        write_failed(out, err);
        system_free(sys);
        config_free(cfg);
        free(out);
        return EXIT_INTERNAL;
    }
    struct progress prog = { sys, cfg, t0, t0, 0 };
    bool tty = isatty(STDERR_FILENO);
    if (tty) system_set_progress(sys, show_progress, &prog);
    engine_set_stop_flag(system_engine(sys), &outfile_signal);
    enum run_status st = system_run(sys);
    trace_close();
    if (tty) fputs("\r\033[K", stderr);
    double wall = now_seconds() - t0;
    if (st == RUN_INTERRUPTED || outfile_signal) {
        fprintf(stderr, "uvmsim: stopped by %s; no result written\n",
                outfile_signal == SIGINT ? "SIGINT" : "SIGTERM");
        if (to.path) unlink(to.path);   /* nothing of an interrupted run stays */
        results_abort(res);
        int code = outfile_signal_exit_code();
        system_free(sys);
        config_free(cfg);
        free(out);
        return code;
    }

    struct engine *e = system_engine(sys);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    sim_time end = engine_end_time(e);
    double cycles = (double)(end / system_core_period(sys));
    double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
                 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    const struct stat_entry *wi = stats_find(system_stats(sys), "gpu.warp_insts");
    double insts = wi ? (double)*wi->p.u : 0, events = (double)engine_events(e);
    struct run_info ri = {
        .status = status_name(st),
        .model = cfg_str(cfg, "sim.model"),
        .seed = cfg_u64(cfg, "sim.seed"),
        .sim_time_ps = end,
        .events = engine_events(e),
        .wall_seconds = wall,
        .peak_rss_bytes = (uint64_t)ru.ru_maxrss * 1024,
        .gpu_cycles_per_second = wall > 0 ? cycles / wall : 0,
        .events_per_second = wall > 0 ? events / wall : 0,
        .no_host = o.no_host,
        .cpu_seconds = cpu,
        .warp_insts_per_cpu_second = cpu > 0 ? insts / cpu : 0,
        .events_per_warp_inst = insts > 0 ? events / insts : 0,
        .ns_per_event = events > 0 ? cpu * 1e9 / events : 0,
    };
    if (st != RUN_COMPLETED)
        fprintf(stderr, "uvmsim: warning: run stopped by %s before the workload finished\n",
                st == RUN_TIME_LIMIT ? "sim.max_time" : "sim.max_events");
    int rc = EXIT_OK;
    if (results_finish(res, system_stats(sys), &ri, err, sizeof err) != 0) {
        write_failed(out, err);
        rc = EXIT_INTERNAL;
    } else {
        if (!o.quiet) print_summary(stdout, system_stats(sys), &ri, out);
        /* A name the user did not choose, maybe over an older result. */
        if (!o.out) {
            char esc[1200];
            text_escape(esc, sizeof esc, out);
            fprintf(stderr, "uvmsim: wrote %s (no -o: the config's name in the current directory%s)\n",
                    esc, existed ? "; it replaced the file of that name" : "");
        }
    }
    struct trace_summary ts;
    trace_get_summary(&ts);
    /* The trace's own line said why (trace.c write_failed). */
    if (to.path && ts.write_error) rc = EXIT_INTERNAL;
    else if (to.path) {
        bool mib = ts.bytes >= 1 << 20;
        fprintf(stderr, "uvmsim: trace %s: %llu events, %.1f %s%s; open it in https://ui.perfetto.dev "
                "(drag the file in) or chrome://tracing\n", to.path, (unsigned long long)ts.events,
                (double)ts.bytes / (mib ? 1 << 20 : 1 << 10), mib ? "MiB" : "KiB",
                ts.truncated ? ", truncated by --trace-max" : "");
    }
    system_free(sys);
    config_free(cfg);
    free(out);
    return rc;
}

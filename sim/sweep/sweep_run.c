/* The local runner: the points without a valid result run as separate
 * `uvmsim run` processes, N at a time; a failed point is recorded and the
 * others go on; the end merges.  On a terminal a progress bar, otherwise
 * one line per finished point (logs, CI). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "sweep_int.h"

#define BAR_WIDTH 24
/* How often the bar is redrawn while nothing finishes. */
#define TICK_NS 100000000L

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct job { pid_t pid; size_t point; double start; };

struct run {
    const struct sweep *s;
    struct sweep_dir *d;
    FILE *out;
    bool tty;
    size_t total, finished, failed, running;
    double t0;
    struct job *jobs;
    int njobs;
};

static void clock_text(double sec, char *buf, size_t n)
{
    long t = (long)(sec + 0.5);
    if (t >= 3600)
        snprintf(buf, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, n, "%ld:%02ld", t / 60, t % 60);
}

/* done/running/failed of total, elapsed, and the ETA from the rate of
 * the points finished so far. */
static void draw_bar(struct run *r)
{
    char bar[BAR_WIDTH + 1], el[32], eta[32] = "--";
    size_t fill = r->total ? r->finished * BAR_WIDTH / r->total : BAR_WIDTH;
    for (size_t i = 0; i < BAR_WIDTH; i++) bar[i] = i < fill ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    double t = now() - r->t0;
    clock_text(t, el, sizeof el);
    if (r->finished > 0)
        clock_text(t / (double)r->finished * (double)(r->total - r->finished),
                   eta, sizeof eta);
    fprintf(r->out, "\r[%s] %zu/%zu done, %zu running, %zu failed  "
            "elapsed %s  ETA %s\033[K", bar, r->finished - r->failed,
            r->total, r->running, r->failed, el, eta);
    fflush(r->out);
}

static void print_tail(FILE *out, const char *tail)
{
    const char *p = tail;
    while (*p) {
        size_t n = strcspn(p, "\n");
        fprintf(out, "    %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
}

static void finished(struct run *r, const struct job *j, int status)
{
    const char *name = r->s->points[j->point].name;
    char *tail;
    int code = sweep_record(r->d, name, status, &tail);
    r->finished++;
    if (r->tty) fputs("\r\033[K", r->out);
    if (code) {
        r->failed++;
        char *log = sweep_path(r->d, "logs", name, ".log");
        fprintf(r->out, "[%zu/%zu] FAILED %s (exit %d); last lines of %s:\n",
                r->finished, r->total, name, code, log);
        print_tail(r->out, tail);
        free(log);
        free(tail);
    } else if (!r->tty) {
        fprintf(r->out, "[%zu/%zu] done %s (%.1f s)\n", r->finished, r->total,
                name, now() - j->start);
    }
    fflush(r->out);
}

static struct job *job_of(struct run *r, pid_t pid)
{
    for (int i = 0; i < r->njobs; i++)
        if (r->jobs[i].pid == pid) return &r->jobs[i];
    return NULL;
}

static bool start(struct run *r, size_t point)
{
    struct job *j = job_of(r, 0);
    pid_t pid = sweep_spawn(r->d, r->s->points[point].name);
    if (pid < 0) {
        fprintf(stderr, "uvmsim: cannot start a process: %s\n",
                strerror(errno));
        return false;
    }
    *j = (struct job){pid, point, now()};
    r->running++;
    return true;
}

/* One child ended (or none yet, on a terminal tick). */
static void reap(struct run *r, bool interrupted)
{
    int status;
    pid_t pid = waitpid(-1, &status, r->tty ? WNOHANG : 0);
    if (pid == 0) {
        struct timespec ts = {0, TICK_NS};
        nanosleep(&ts, NULL);
        return;
    }
    if (pid < 0) {
        if (errno != EINTR) sim_panic("sweep", 0, "waitpid: %s", strerror(errno));
        return;
    }
    struct job *j = job_of(r, pid);
    if (!j) return;
    r->running--;
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (interrupted && !ok) {
        /* Stopped by us: not a failure of the point, and its half-written
         * result goes. */
        sweep_remove_temp(r->d, r->s->points[j->point].name, pid);
    } else {
        finished(r, j, status);
    }
    j->pid = 0;
}

static void stop_children(struct run *r)
{
    for (int i = 0; i < r->njobs; i++)
        if (r->jobs[i].pid > 0) kill(r->jobs[i].pid, SIGTERM);
}

int sweep_run_local(const struct sweep *s, struct sweep_dir *d, int jobs,
                    bool force, FILE *out)
{
    char err[1024];
    if (sweep_dir_write_plan(d, s, err, sizeof err)) {
        fprintf(stderr, "uvmsim: %s\n", err);
        return EXIT_USER;
    }
    sweep_dir_clean_temps(d);
    size_t ntodo, nstale;
    char *stale[SWEEP_SHOW_STALE];
    size_t *todo = sweep_todo(s, d, force, &ntodo, stale, &nstale);
    struct run r = {
        .s = s, .d = d, .out = out, .tty = isatty(fileno(out)),
        .total = ntodo, .t0 = now(), .njobs = jobs,
        .jobs = xcalloc((size_t)jobs, sizeof *r.jobs),
    };
    fprintf(out, "sweep %s: %zu points, %zu already done, %zu to run, "
            "%d at a time -> %s\n", s->file, s->npoints, s->npoints - ntodo,
            ntodo, jobs, sweep_dir_path(d));
    sweep_put_stale(out, d, stale, nstale);
    fflush(out);

    struct sigaction old_int, old_term;
    sweep_catch_signals(&old_int, &old_term);
    size_t next = 0;
    bool stopping = false;
    while ((next < ntodo && !sweep_stop_signal) || r.running > 0) {
        if (sweep_stop_signal && !stopping) {
            stopping = true;
            stop_children(&r);
        }
        while (!sweep_stop_signal && r.running < (size_t)jobs && next < ntodo)
            if (!start(&r, todo[next++])) sweep_stop_signal = SIGTERM;
        if (r.tty) draw_bar(&r);
        if (r.running) reap(&r, sweep_stop_signal != 0);
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (r.tty) {
        draw_bar(&r);
        fputc('\n', out);
    }
    free(r.jobs);
    free(todo);

    int rc = r.failed ? SWEEP_EXIT_INCOMPLETE : EXIT_OK;
    if (sweep_stop_signal) {
        fprintf(out, "sweep: interrupted; %zu of %zu points not run (the same "
                "command goes on where this one stopped)\n",
                ntodo - r.finished, ntodo);
        return 128 + sweep_stop_signal;
    }
    fprintf(out, "sweep: ran %zu points, %zu failed\n", r.finished, r.failed);
    /* Every child is reaped: what a killed one left is garbage now. */
    sweep_dir_clean_temps(d);
    int m = sweep_merge(d, out, err, sizeof err);
    if (m < 0) {
        fprintf(stderr, "uvmsim: merge: %s\n", err);
        return SWEEP_EXIT_INCOMPLETE;
    }
    return m ? SWEEP_EXIT_INCOMPLETE : rc;
}

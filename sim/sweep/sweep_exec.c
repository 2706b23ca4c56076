/* One point as a process: `uvmsim run` on the point's resolved config,
 * its output in the point's log, and a record of how it ended. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include "sweep_int.h"

/* Lines of a failed point's log kept in its record and shown. */
#define TAIL_LINES 5

const char *sweep_self_exe(void)
{
    static char path[PATH_MAX];
    if (path[0]) return path;
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    if (n <= 0)
        user_error("cannot find this program's own path (/proc/self/exe: %s); "
                   "sweeps need Linux", strerror(errno));
    path[n] = '\0';
    return path;
}

static void child(const char *exe, const char *cfg, const char *out,
                  const char *log, pid_t parent)
{
#ifdef __linux__
    /* A sweep killed outright (SIGKILL) takes its points with it: no
     * orphan finishes a result behind the next run's back. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(128 + SIGKILL);
#else
    (void)parent;
#endif
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        dprintf(fd, "# %s run %s -o %s --quiet\n", exe, cfg, out);
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        if (fd > STDERR_FILENO) close(fd);
    }
    int nul = open("/dev/null", O_RDONLY);
    if (nul >= 0 && nul != STDIN_FILENO) {
        dup2(nul, STDIN_FILENO);
        close(nul);
    }
    char *argv[] = {"uvmsim", "run", (char *)cfg, "-o", (char *)out,
                    "--quiet", NULL};
    execv(exe, argv);
    dprintf(STDERR_FILENO, "uvmsim: cannot run %s: %s\n", exe, strerror(errno));
    _exit(127);
}

pid_t sweep_spawn(const struct sweep_dir *d, const char *name)
{
    const char *exe = sweep_self_exe();
    char *cfg = sweep_path(d, "configs", name, ".yaml");
    char *out = sweep_path(d, "points", name, ".h5");
    char *log = sweep_path(d, "logs", name, ".log");
    pid_t parent = getpid();
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) child(exe, cfg, out, log, parent);
    free(cfg);
    free(out);
    free(log);
    return pid;
}

/* The first "uvmsim: " line of a log: the run's own error message, which
 * a long state dump (exit 3) pushes out of the last lines. */
static char *first_error(const char *log)
{
    FILE *fp = fopen(log, "r");
    char line[512];
    char *found = NULL;
    while (fp && !found && fgets(line, sizeof line, fp))
        if (!strncmp(line, "uvmsim: ", 8)) {
            line[strcspn(line, "\n")] = '\0';
            found = xstrdup(line);
        }
    if (fp) fclose(fp);
    return found;
}

/* The error line (when the tail lacks it) and the last lines. */
static char *failure_text(const char *log)
{
    char *tail = sweep_log_tail(log, TAIL_LINES);
    char *err = first_error(log);
    if (!err || strstr(tail, err)) {
        free(err);
        return tail;
    }
    size_t n = strlen(err) + strlen(tail) + 8;
    char *t = xmalloc(n);
    snprintf(t, n, "%s\n...\n%s", err, tail);
    free(err);
    free(tail);
    return t;
}

int sweep_record(const struct sweep_dir *d, const char *name, int status,
                 char **tail)
{
    int code = WIFEXITED(status) ? WEXITSTATUS(status)
             : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
    char *marker = sweep_path(d, "logs", name, ".failed");
    if (tail) *tail = NULL;
    if (code == 0) {
        unlink(marker);
    } else {
        char *log = sweep_path(d, "logs", name, ".log");
        char *t = failure_text(log);
        size_t n = strlen(t) + 32;
        char *rec = xmalloc(n);
        snprintf(rec, n, "exit %d\n%s\n", code, t);
        if (sweep_write_atomic(marker, rec, strlen(rec)) != 0)
            fprintf(stderr, "uvmsim: cannot write '%s': %s\n", marker,
                    strerror(errno));
        free(rec);
        free(log);
        if (tail) *tail = t;
        else free(t);
    }
    free(marker);
    return code;
}

void sweep_remove_temp(const struct sweep_dir *d, const char *name, pid_t pid)
{
    char ext[64];
    snprintf(ext, sizeof ext, ".h5.tmp.%ld", (long)pid);
    char *p = sweep_path(d, "points", name, ext);
    unlink(p);
    free(p);
}

volatile sig_atomic_t sweep_stop_signal;

static void on_stop_signal(int sig) { sweep_stop_signal = sig; }

void sweep_catch_signals(struct sigaction *old_int, struct sigaction *old_term)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sweep_stop_signal = 0;
    sigaction(SIGINT, &sa, old_int);    /* no SA_RESTART: waitpid returns */
    sigaction(SIGTERM, &sa, old_term);
}

/* `sweep point` under scancel or Ctrl-C: the signal reaches this process
 * and, as a rule, its child at once.  Dying on it would SIGKILL the child
 * (PR_SET_PDEATHSIG above) before the child removed its temporary result,
 * so the signal is passed on and the child waited for, as `sweep run` does. */
int sweep_run_point(struct sweep_dir *d, const char *name, bool force)
{
    char err[512];
    struct sweep_plan *p = sweep_plan_read(d, err, sizeof err);
    if (!p) user_error("%s", err);
    size_t i = 0;
    while (i < p->npoints && strcmp(p->names[i], name)) i++;
    if (i == p->npoints) {
        sweep_plan_free(p);
        user_error("%s: no point named '%s' in its plan", sweep_dir_path(d),
                   name);
    }
    uint64_t hash = p->hash[i];
    sweep_plan_free(p);
    /* A requeued task whose point finished has nothing to do. */
    if (!force && sweep_point_state(d, name, NULL, hash, NULL, NULL, 0) == PT_DONE) {
        printf("%s: already done\n", name);
        return EXIT_OK;
    }
    struct sigaction old_int, old_term;
    sweep_catch_signals(&old_int, &old_term);
    pid_t pid = sweep_spawn(d, name);
    if (pid < 0) user_error("cannot start a process: %s", strerror(errno));
    int status;
    bool passed_on = false;
    for (;;) {
        if (sweep_stop_signal && !passed_on) {
            kill(pid, SIGTERM);
            passed_on = true;
        }
        if (waitpid(pid, &status, 0) == pid) break;
        if (errno != EINTR) sim_panic("sweep", 0, "waitpid: %s", strerror(errno));
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (sweep_stop_signal && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        /* Stopped, not failed: no failure record, and no half result. */
        sweep_remove_temp(d, name, pid);
        printf("%s: stopped by %s\n", name,
               sweep_stop_signal == SIGINT ? "SIGINT" : "SIGTERM");
        return 128 + sweep_stop_signal;
    }
    char *tail;
    int code = sweep_record(d, name, status, &tail);
    if (code) {
        printf("%s: FAILED (exit %d); last lines of its log:\n%s\n", name, code,
               tail);
        free(tail);
    } else {
        printf("%s: done\n", name);
    }
    return code;
}

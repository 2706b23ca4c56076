/* Whole-or-nothing output files (outfile.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "core/base.h"
#include "outfile.h"

static const char *kind_of(mode_t m)
{
    if (S_ISLNK(m)) return "a symbolic link";
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

int outfile_check_target(const char *target, char *err, size_t n)
{
    struct stat st;
    if (lstat(target, &st) != 0) {
        if (errno == ENOENT) return 0;
        snprintf(err, n, "cannot inspect it: %s", strerror(errno));
        return -1;
    }
    if (S_ISREG(st.st_mode)) return 0;
    snprintf(err, n, "it is %s; the result replaces a regular file only (name a new "
             "file, or the link's target)", kind_of(st.st_mode));
    return -1;
}

char *outfile_tmp_name(const char *target)
{
    size_t len = strlen(target) + 32;
    char *tmp = xmalloc(len);
    snprintf(tmp, len, "%s.tmp.%ld", target, (long)getpid());
    return tmp;
}

/* Directory part and last component of PATH (both caller-freed). */
static void split_path(const char *path, char **dir, char **base)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        *dir = xstrdup(".");
        *base = xstrdup(path);
        return;
    }
    size_t ld = slash == path ? 1 : (size_t)(slash - path);
    *dir = xmalloc(ld + 1);
    memcpy(*dir, path, ld);
    (*dir)[ld] = 0;
    *base = xstrdup(slash + 1);
}

/* NAME is BASE.tmp.PID with PID all digits: the pid, else 0. */
static long stale_pid(const char *name, const char *base)
{
    size_t lb = strlen(base);
    if (strncmp(name, base, lb) || strncmp(name + lb, ".tmp.", 5)) return 0;
    const char *p = name + lb + 5;
    if (!*p) return 0;
    long pid = 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9' || pid > 100000000) return 0;
        pid = pid * 10 + (*p - '0');
    }
    return pid;
}

int outfile_remove_stale(const char *target)
{
    char *dir, *base;
    split_path(target, &dir, &base);
    int removed = 0;
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        long pid = stale_pid(e->d_name, base);
        if (pid <= 0 || pid == (long)getpid()) continue;
        /* kill(pid, 0): ESRCH when no such process; EPERM means it lives
         * (another user's), and then the file is not ours either. */
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = xmalloc(len);
        snprintf(path, len, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
            unlink(path) == 0)
            removed++;
        free(path);
    }
    if (d) closedir(d);
    free(dir);
    free(base);
    return removed;
}

int outfile_commit(const char *tmp, const char *target, char *err, size_t n)
{
    int fd = open(tmp, O_RDONLY);
    if (fd < 0 || fsync(fd) != 0) {
        snprintf(err, n, "cannot sync '%s': %s", tmp, strerror(errno));
        if (fd >= 0) close(fd);
        unlink(tmp);
        return -1;
    }
    close(fd);
    char why[256];
    if (outfile_check_target(target, why, sizeof why) != 0) {
        snprintf(err, n, "'%s': %s", target, why);
        unlink(tmp);
        return -1;
    }
    if (rename(tmp, target) != 0) {
        snprintf(err, n, "cannot rename '%s' to '%s': %s", tmp, target, strerror(errno));
        unlink(tmp);
        return -1;
    }
    /* The rename itself is durable once the directory is synced. */
    char *dir, *base;
    split_path(target, &dir, &base);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    free(dir);
    free(base);
    return 0;
}

/* ---- signals ---- */

volatile sig_atomic_t outfile_signal;
static char guarded[PATH_MAX];
static volatile sig_atomic_t have_guarded;
static char watched[PATH_MAX];
static volatile sig_atomic_t have_watched;

/* Async-signal-safe only: unlink and _exit (POSIX.1-2017, 2.4.3). */
static void on_signal(int sig)
{
    if (have_guarded || outfile_signal) {
        if (have_guarded) unlink(guarded);
        if (have_watched) unlink(watched);
        _exit(128 + sig);
    }
    outfile_signal = sig;
}

void outfile_handle_signals(void)
{
    static const int sigs[] = { SIGINT, SIGTERM };
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler == SIG_IGN) continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

void outfile_guard(const char *tmp)
{
    have_guarded = 0;
    if (!tmp) return;
    snprintf(guarded, sizeof guarded, "%s", tmp);
    atomic_signal_fence(memory_order_seq_cst);   /* the name before the flag */
    have_guarded = 1;
    /* A signal that came before the guard went up still removes it. */
    if (outfile_signal) {
        unlink(guarded);
        _exit(128 + outfile_signal);
    }
}

void outfile_watch(const char *tmp)
{
    have_watched = 0;
    if (!tmp) return;
    snprintf(watched, sizeof watched, "%s", tmp);
    atomic_signal_fence(memory_order_seq_cst);   /* the name before the flag */
    have_watched = 1;
}

int outfile_signal_exit_code(void) { return 128 + outfile_signal; }

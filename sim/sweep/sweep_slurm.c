/* `uvmsim sweep slurm`: the points without a valid result as one Slurm job
 * array (task i runs pending point i through `uvmsim sweep point`), and a
 * merge job that depends on the whole array succeeding (afterok).  Slurm
 * does the scheduling: sbatch submits, squeue tells whether an earlier
 * submission is still queued. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "sweep_int.h"

/* Runs ARGV (PATH lookup) and keeps the first bytes of its stdout and
 * stderr in OUT.  Returns the exit status, or -1 when it could not run. */
static int capture(char *const argv[], char *out, size_t outsz)
{
    int fd[2];
    if (pipe(fd) != 0) return -1;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        dup2(fd[1], STDOUT_FILENO);
        dup2(fd[1], STDERR_FILENO);
        close(fd[1]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(fd[1]);
    size_t n = 0;
    for (;;) {
        char buf[512];
        ssize_t r = read(fd[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        for (ssize_t i = 0; i < r && n + 1 < outsz; i++) out[n++] = buf[i];
    }
    out[n] = '\0';
    close(fd[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool plain(const char *s)
{
    return s && !strpbrk(s, " \t\n\r'\"\\$`");
}

static void sbatch_lines(FILE *f, const struct sweep_slurm_opts *o,
                         const char *cwd)
{
    fprintf(f, "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n"
            "#SBATCH --chdir=%s\n", cwd);
    if (o->partition) fprintf(f, "#SBATCH --partition=%s\n", o->partition);
    if (o->time) fprintf(f, "#SBATCH --time=%s\n", o->time);
    if (o->mem) fprintf(f, "#SBATCH --mem=%s\n", o->mem);
    if (o->account) fprintf(f, "#SBATCH --account=%s\n", o->account);
}

static char *array_script(const struct sweep *s, const size_t *todo, size_t n,
                          const struct sweep_slurm_opts *o, const char *dir,
                          const char *cwd)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) sim_panic("sweep", 0, "open_memstream failed");
    fprintf(f, "#!/bin/sh\n# Written by `uvmsim sweep slurm %s`: task i runs "
            "the i-th point\n# below (those without a valid result when it "
            "was written).\n#SBATCH --job-name=uvmsim-sweep\n"
            "#SBATCH --array=0-%zu", s->file, n - 1);
    if (o->max_parallel > 0) fprintf(f, "%%%ld", o->max_parallel);
    fprintf(f, "\n#SBATCH --output=%s/logs/slurm-%%A_%%a.out\n", dir);
    sbatch_lines(f, o, cwd);
    if (o->setup) fprintf(f, "%s\n", o->setup);
    fputs("set --", f);
    for (size_t i = 0; i < n; i++) fprintf(f, " \\\n    %s", s->points[todo[i]].name);
    fprintf(f, "\nshift \"$SLURM_ARRAY_TASK_ID\"\n"
            "exec '%s' sweep point '%s' \"$1\"%s\n", sweep_self_exe(), dir,
            o->force ? " --force" : "");
    fclose(f);
    return buf;
}

static char *merge_script(const struct sweep *s,
                          const struct sweep_slurm_opts *o, const char *dir,
                          const char *cwd)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) sim_panic("sweep", 0, "open_memstream failed");
    fprintf(f, "#!/bin/sh\n# Written by `uvmsim sweep slurm %s`: merges the "
            "points into sweep.h5.\n#SBATCH --job-name=uvmsim-merge\n"
            "#SBATCH --output=%s/logs/slurm-merge-%%j.out\n", s->file, dir);
    sbatch_lines(f, o, cwd);
    if (o->setup) fprintf(f, "%s\n", o->setup);
    fprintf(f, "exec '%s' sweep merge '%s'\n", sweep_self_exe(), dir);
    fclose(f);
    return buf;
}

/* An earlier submission for DIR still in the queue would run points
 * twice and merge too early. */
static bool earlier_jobs_queued(const char *jobs_path, char *ids, size_t n)
{
    char *text = sweep_read_text(jobs_path, NULL);
    if (!text) return false;
    char list[256] = "";
    for (char *save = NULL, *l = strtok_r(text, "\n", &save); l;
         l = strtok_r(NULL, "\n", &save)) {
        char *sp = strchr(l, ' ');
        if (sp && strlen(list) + strlen(sp + 1) + 2 < sizeof list) {
            if (list[0]) strcat(list, ",");
            strcat(list, sp + 1);
        }
    }
    free(text);
    if (!list[0]) return false;
    char *argv[] = {"squeue", "-h", "-o", "%i", "-j", list, NULL};
    char out[1024];
    int rc = capture(argv, out, sizeof out);
    snprintf(ids, n, "%s", list);
    /* squeue exits non-zero for ids it no longer knows: none queued. */
    return rc == 0 && strspn(out, " \n") != strlen(out);
}

/* sbatch --parsable prints "JOBID" or "JOBID;CLUSTER". */
static bool submit(char *const argv[], const char *script, char *id, size_t n)
{
    char buf[2048];
    int rc = capture(argv, buf, sizeof buf);
    long v = rc == 0 ? strtol(buf, NULL, 10) : 0;
    if (v <= 0) {
        fprintf(stderr, "uvmsim: sbatch %s failed (%s)%s%s", script,
                rc == 127 || rc < 0 ? "cannot run sbatch; is Slurm installed?"
                                    : "non-zero exit",
                buf[0] ? ":\n" : "\n", buf);
        return false;
    }
    snprintf(id, n, "%ld", v);
    return true;
}

bool sweep_slurm_paths_ok(const char *dir, char *err, size_t errlen)
{
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) {
        snprintf(err, errlen, "cannot read the current directory: %s",
                 strerror(errno));
        return false;
    }
    const char *bad = !plain(dir) ? dir
                    : dir[0] != '/' && !plain(cwd) ? cwd
                    : !plain(sweep_self_exe()) ? sweep_self_exe() : NULL;
    if (bad)
        snprintf(err, errlen, "-o %s: the Slurm scripts need paths without "
                 "spaces, quotes, '\\', '$' or '`': '%s'", dir, bad);
    return !bad;
}

struct paths { char dir[PATH_MAX], cwd[PATH_MAX]; char *sdir, *array, *merge, *jobs; };

static bool setup_paths(struct sweep_dir *d, struct paths *p)
{
    const char *dir = sweep_dir_path(d);
    if (!getcwd(p->cwd, sizeof p->cwd)) {
        fprintf(stderr, "uvmsim: cannot read the current directory: %s\n",
                strerror(errno));
        return false;
    }
    /* Tasks start in --chdir, but the scripts name DIR absolutely. */
    int n = dir[0] == '/' ? snprintf(p->dir, sizeof p->dir, "%s", dir)
                          : snprintf(p->dir, sizeof p->dir, "%s/%s", p->cwd, dir);
    if (n < 0 || (size_t)n >= sizeof p->dir) {
        fprintf(stderr, "uvmsim: %s: path too long\n", dir);
        return false;
    }
    if (!plain(p->dir) || !plain(p->cwd) || !plain(sweep_self_exe())) {
        fprintf(stderr, "uvmsim: the Slurm scripts need paths without spaces "
                "or quotes: %s, %s, %s\n", p->dir, p->cwd, sweep_self_exe());
        return false;
    }
    p->sdir = sweep_path(d, NULL, "slurm", NULL);
    p->array = sweep_path(d, "slurm", "array.sh", NULL);
    p->merge = sweep_path(d, "slurm", "merge.sh", NULL);
    p->jobs = sweep_path(d, "slurm", "jobs", NULL);
    if (mkdir(p->sdir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "uvmsim: cannot create %s: %s\n", p->sdir,
                strerror(errno));
        return false;
    }
    return true;
}

static void free_paths(struct paths *p)
{
    free(p->sdir);
    free(p->array);
    free(p->merge);
    free(p->jobs);
}

static bool write_script(const char *path, char *text)
{
    int rc = sweep_write_atomic(path, text, strlen(text));
    if (!rc) rc = chmod(path, 0755);
    if (rc) fprintf(stderr, "uvmsim: cannot write %s: %s\n", path,
                    strerror(errno));
    free(text);
    return rc == 0;
}

static int submit_all(const struct paths *p, size_t ntodo, FILE *out)
{
    char aid[32] = "", mid[32] = "", dep[64];
    bool ok;
    if (ntodo) {
        char *a[] = {"sbatch", "--parsable", p->array, NULL};
        if (!submit(a, p->array, aid, sizeof aid)) return EXIT_USER;
        snprintf(dep, sizeof dep, "--dependency=afterok:%s", aid);
        char *m[] = {"sbatch", "--parsable", dep, "--kill-on-invalid-dep=yes",
                     p->merge, NULL};
        ok = submit(m, p->merge, mid, sizeof mid);
    } else {
        char *m[] = {"sbatch", "--parsable", p->merge, NULL};
        ok = submit(m, p->merge, mid, sizeof mid);
    }
    char jobs[128];
    snprintf(jobs, sizeof jobs, "%s%s%s%s%s\n", aid[0] ? "array " : "", aid,
             aid[0] && ok ? "\n" : "", ok ? "merge " : "", ok ? mid : "");
    if (sweep_write_atomic(p->jobs, jobs, strlen(jobs)) != 0)
        fprintf(stderr, "uvmsim: cannot write %s: %s\n", p->jobs,
                strerror(errno));
    if (!ok && !ntodo) return EXIT_USER;
    if (!ok) {
        fprintf(stderr, "uvmsim: array job %s was submitted; merge by hand "
                "when it ends: uvmsim sweep merge %s\n", aid, p->dir);
        return SWEEP_EXIT_INCOMPLETE;
    }
    if (ntodo)
        fprintf(out, "submitted array job %s (%zu tasks) and merge job %s "
                "(runs when every task succeeded)\n", aid, ntodo, mid);
    else
        fprintf(out, "every point has its result; submitted merge job %s\n",
                mid);
    return EXIT_OK;
}

int sweep_slurm(const struct sweep *s, struct sweep_dir *d,
                const struct sweep_slurm_opts *o, FILE *out)
{
    char err[1024], ids[256];
    struct paths p = {0};
    if (!setup_paths(d, &p)) {
        free_paths(&p);
        return EXIT_USER;
    }
    if (!o->dry_run && earlier_jobs_queued(p.jobs, ids, sizeof ids)) {
        fprintf(stderr, "uvmsim: %s: jobs %s of an earlier submission are "
                "still queued or running; wait for them or scancel them\n",
                sweep_dir_path(d), ids);
        free_paths(&p);
        return EXIT_USER;
    }
    if (sweep_dir_write_plan(d, s, err, sizeof err)) {
        fprintf(stderr, "uvmsim: %s\n", err);
        free_paths(&p);
        return EXIT_USER;
    }
    size_t ntodo, nstale;
    char *stale[SWEEP_SHOW_STALE];
    size_t *todo = sweep_todo(s, d, o->force, &ntodo, stale, &nstale);
    fprintf(out, "sweep %s: %zu points, %zu already done, %zu to run -> %s\n",
            s->file, s->npoints, s->npoints - ntodo, ntodo, sweep_dir_path(d));
    sweep_put_stale(out, d, stale, nstale);
    /* With nothing to run, an array script of an earlier submission would
     * only mislead. */
    if (!ntodo) unlink(p.array);
    bool ok = (!ntodo || write_script(p.array, array_script(s, todo, ntodo, o,
                                                            p.dir, p.cwd))) &&
              write_script(p.merge, merge_script(s, o, p.dir, p.cwd));
    int rc = ok ? EXIT_OK : EXIT_USER;
    if (ok && o->dry_run) {
        fprintf(out, "dry run: wrote %s%s%s; would submit:\n", ntodo ? p.array : "",
                ntodo ? " and " : "", p.merge);
        if (ntodo)
            fprintf(out, "  sbatch --parsable %s\n  sbatch --parsable "
                    "--dependency=afterok:<array job> --kill-on-invalid-dep=yes "
                    "%s\n", p.array, p.merge);
        else
            fprintf(out, "  sbatch --parsable %s\n", p.merge);
    } else if (ok) {
        rc = submit_all(&p, ntodo, out);
    }
    free(todo);
    free_paths(&p);
    return rc;
}

/* The sweep directory: its layout (sweep.h), its lock, the plan file and
 * its temporaries (a point's state is sweep_stale.c's). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <hdf5.h>
#include "config/config.h"
#include "sweep_int.h"

#define PLAN_MAGIC "uvmsim-sweep-plan\t1"

struct sweep_dir {
    char *path;
    int lock_fd;
    bool lock_created;              /* DIR/.lock is this process's */
};

const char *sweep_state_name(enum sweep_state st)
{
    switch (st) {
    case PT_DONE: return "done";
    case PT_STALE: return "stale";
    case PT_FAILED: return "failed";
    case PT_MISSING: break;
    }
    return "not run";
}

/* ---- files ---- */

char *sweep_read_text(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 8192;
            buf = xrealloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, 4096, fp);
        n += got;
        if (got < 4096) break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(buf);
        errno = EIO;
        return NULL;
    }
    buf[n] = '\0';
    if (len) *len = n;
    return buf;
}

int sweep_write_atomic(const char *path, const char *data, size_t len)
{
    size_t n = strlen(path) + 32;
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int rc = fd < 0 ? -1 : 0;
    for (size_t off = 0; !rc && off < len;) {
        ssize_t w = write(fd, data + off, len - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) rc = -1;
        else off += (size_t)w;
    }
    if (fd >= 0 && close(fd) != 0) rc = -1;
    if (!rc && rename(tmp, path) != 0) rc = -1;
    if (rc) {
        int e = errno;
        unlink(tmp);
        errno = e;
    }
    free(tmp);
    return rc;
}

/* Unchanged files keep their time stamps (and nobody sees a rewrite). */
static int write_if_changed(const char *path, const char *data)
{
    char *old = sweep_read_text(path, NULL);
    bool same = old && !strcmp(old, data);
    free(old);
    return same ? 0 : sweep_write_atomic(path, data, strlen(data));
}

char *sweep_log_tail(const char *path, int nlines)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) return xstrdup("");
    char buf[4097];
    long start = 0;
    if (fseek(fp, 0, SEEK_END) == 0) {
        long end = ftell(fp);
        start = end > 4096 ? end - 4096 : 0;
    }
    fseek(fp, start, SEEK_SET);
    size_t n = fread(buf, 1, 4096, fp);
    fclose(fp);
    buf[n] = '\0';
    while (n > 0 && buf[n - 1] == '\n') buf[--n] = '\0';
    size_t i = n;
    for (int seen = 0; i > 0; i--)
        if (buf[i - 1] == '\n' && ++seen == nlines) break;
    return xstrdup(buf + i);
}

/* ---- the directory ---- */

char *sweep_path(const struct sweep_dir *d, const char *sub, const char *name,
                 const char *ext)
{
    size_t n = strlen(d->path) + (sub ? strlen(sub) : 0) + strlen(name) +
               (ext ? strlen(ext) : 0) + 3;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s%s%s%s", d->path, sub ? sub : "", sub ? "/" : "",
             name, ext ? ext : "");
    return p;
}

const char *sweep_dir_path(const struct sweep_dir *d) { return d->path; }

static int mkdir_p(const char *path)
{
    char *p = xstrdup(path);
    int rc = 0;
    for (char *s = p + 1; !rc; s++) {
        if (*s && *s != '/') continue;
        char c = *s;
        *s = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) rc = -1;
        *s = c;
        if (!c) break;
    }
    struct stat st;
    if (!rc && (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))) {
        errno = ENOTDIR;
        rc = -1;
    }
    free(p);
    return rc;
}

/* DIR/plan.tsv starts with the magic line: DIR is a sweep this program
 * made (plan.tsv is written last, after the configs). */
bool sweep_dir_is_sweep(const char *dir)
{
    size_t n = strlen(dir) + 16;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/plan.tsv", dir);
    FILE *f = fopen(p, "rb");
    free(p);
    char head[sizeof PLAN_MAGIC + 1] = "";
    size_t got = f ? fread(head, 1, sizeof PLAN_MAGIC, f) : 0;
    if (f) fclose(f);
    return got == sizeof PLAN_MAGIC &&
           !memcmp(head, PLAN_MAGIC "\n", sizeof PLAN_MAGIC);
}

/* What a sweep's first run leaves before its plan is written: the lock
 * and the empty sub-directories. */
static bool own_leftover(const char *dir, const char *name)
{
    if (!strcmp(name, ".lock")) return true;
    if (strcmp(name, "points") && strcmp(name, "configs") &&
        strcmp(name, "logs") && strcmp(name, "slurm"))
        return false;
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    DIR *d = opendir(p);
    free(p);
    bool empty = d != NULL;
    for (struct dirent *e; empty && (e = readdir(d));)
        empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    if (d) closedir(d);
    return empty;
}

bool sweep_dir_takeover_ok(const char *dir, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d) return true;            /* missing (created), or not a directory */
    const char *first = NULL;
    for (struct dirent *e; !first && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
            !own_leftover(dir, e->d_name))
            first = e->d_name;
    bool ok = !first || sweep_dir_is_sweep(dir);
    if (!ok)
        snprintf(err, errlen, "-o %s: the directory holds files (%s) and is "
                 "not a uvmsim sweep (no plan.tsv of one); name a new or "
                 "empty directory, or pass --force to take it over", dir,
                 first);
    closedir(d);
    return ok;
}

static bool take_lock(struct sweep_dir *d, char *err, size_t errlen)
{
    char *lp = sweep_path(d, NULL, ".lock", NULL);
    d->lock_fd = open(lp, O_RDWR | O_CREAT | O_EXCL, 0644);
    d->lock_created = d->lock_fd >= 0;
    if (d->lock_fd < 0 && errno == EEXIST) d->lock_fd = open(lp, O_RDWR, 0644);
    free(lp);
    if (d->lock_fd < 0) {
        snprintf(err, errlen, "%s: cannot create the lock file: %s", d->path,
                 strerror(errno));
        return false;
    }
    struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (fcntl(d->lock_fd, F_SETLK, &fl) == 0) return true;
    if (errno == ENOLCK) {
        /* A file system without locks (some NFS): go on unguarded. */
        fprintf(stderr, "uvmsim: warning: %s: no file locks here; do not run "
                "two sweeps in this directory at once\n", d->path);
        return true;
    }
    struct flock who = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    long pid = fcntl(d->lock_fd, F_GETLK, &who) == 0 ? (long)who.l_pid : 0;
    snprintf(err, errlen, "%s: in use by another uvmsim sweep (pid %ld); "
             "wait for it or stop it", d->path, pid);
    return false;
}

struct sweep_dir *sweep_dir_open(const char *dir, bool create, bool lock,
                                 char *err, size_t errlen)
{
    struct sweep_dir *d = xcalloc(1, sizeof *d);
    d->lock_fd = -1;
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    d->path = xmalloc(n + 1);
    memcpy(d->path, dir, n);
    d->path[n] = '\0';
    static const char *const subs[] = {"points", "configs", "logs"};
    bool ok = true;
    if (create) {
        ok = mkdir_p(d->path) == 0;
        for (size_t i = 0; ok && i < 3; i++) {
            char *p = sweep_path(d, NULL, subs[i], NULL);
            ok = mkdir(p, 0755) == 0 || errno == EEXIST;
            free(p);
        }
        if (!ok)
            snprintf(err, errlen, "-o %s: cannot create the sweep directory: "
                     "%s", dir, strerror(errno));
    } else {
        /* Before the lock: a directory that is no sweep gets no .lock. */
        char *p = sweep_path(d, NULL, "plan.tsv", NULL);
        ok = access(p, R_OK) == 0;
        if (!ok)
            snprintf(err, errlen, "%s: not a sweep directory (no readable "
                     "plan.tsv: %s)", dir, strerror(errno));
        else if (!(ok = sweep_dir_is_sweep(d->path)))
            snprintf(err, errlen, "%s: not a sweep directory (its plan.tsv "
                     "is not one uvmsim wrote)", dir);
        free(p);
    }
    if (ok && lock) ok = take_lock(d, err, errlen);
    if (!ok) {
        sweep_dir_close(d);
        return NULL;
    }
    return d;
}

void sweep_dir_abandon(struct sweep_dir *d)
{
    if (d && d->lock_created && d->lock_fd >= 0) {
        char *lp = sweep_path(d, NULL, ".lock", NULL);
        unlink(lp);
        free(lp);
    }
    sweep_dir_close(d);
}

void sweep_dir_close(struct sweep_dir *d)
{
    if (!d) return;
    if (d->lock_fd >= 0) close(d->lock_fd);
    free(d->path);
    free(d);
}

/* ---- the plan ---- */

static void put_plan(FILE *f, const struct sweep *s)
{
    fprintf(f, PLAN_MAGIC "\nsweep\t%s\nbase\t%s\n", s->file,
            s->base ? s->base : "");
    /* `sweep plan DIR` remakes the plan from the sweep file and these. */
    for (size_t i = 0; i < s->nsets; i++) fprintf(f, "set\t%s\n", s->sets[i]);
    for (size_t a = 0; a < s->naxes; a++) {
        fprintf(f, "axis\t%s", s->axes[a].key);
        for (size_t v = 0; v < s->axes[a].nvals; v++)
            fprintf(f, "\t%s", s->axes[a].text[v]);
        fputc('\n', f);
    }
    for (size_t i = 0; i < s->npoints; i++) {
        const struct sweep_point *p = &s->points[i];
        fprintf(f, "point\t%s\t%016" PRIx64, p->name, sweep_point_hash(s, i));
        for (size_t a = 0; a < s->naxes; a++)
            fprintf(f, "\t%s", s->axes[a].text[p->vi[a]]);
        fputc('\n', f);
    }
}

int sweep_dir_write_plan(struct sweep_dir *d, const struct sweep *s,
                         char *err, size_t errlen)
{
    char *cp = NULL;
    const char *bad = NULL;
    /* One point's YAML at a time; the configs before the plan that names
     * them (and the plan last: its magic line says DIR is a sweep). */
    for (size_t i = 0; !bad && i < s->npoints; i++) {
        cp = sweep_path(d, "configs", s->points[i].name, ".yaml");
        char *yaml = sweep_point_yaml(s, i);
        if (write_if_changed(cp, yaml)) bad = cp;
        else { free(cp); cp = NULL; }
        free(yaml);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) sim_panic("sweep", 0, "open_memstream failed");
    put_plan(f, s);
    fclose(f);
    char *sp = sweep_path(d, NULL, "sweep.yaml", NULL);
    char *pp = sweep_path(d, NULL, "plan.tsv", NULL);
    if (!bad)
        bad = write_if_changed(sp, s->text) ? sp
            : write_if_changed(pp, buf) ? pp : NULL;
    if (bad) snprintf(err, errlen, "cannot write '%s': %s", bad, strerror(errno));
    free(cp);
    free(buf);
    free(sp);
    free(pp);
    return bad ? -1 : 0;
}

/* Splits LINE at tabs in place; returns the field count (at most MAX). */
static size_t split_tabs(char *line, char **f, size_t max)
{
    size_t n = 0;
    for (char *p = line; n < max;) {
        f[n++] = p;
        p = strchr(p, '\t');
        if (!p) break;
        *p++ = '\0';
    }
    return n;
}

static bool plan_axis(struct sweep_plan *p, char **f, size_t nf,
                      struct config *scratch)
{
    const struct cfg_value *v = cfg_get(scratch, f[1]);
    if (!v || nf < 3) return false;
    for (size_t a = 0; a < p->naxes; a++)
        if (!strcmp(p->keys[a], f[1])) return false;    /* one axis a key */
    /* The merge types each value by its key (sweep_table.c). */
    for (size_t i = 2; i < nf; i++) {
        struct cfg_value val = {0};
        char msg[256];
        if (!cfg_parse(v->key, f[i], &val, msg, sizeof msg)) return false;
    }
    size_t a = p->naxes++;
    p->keys = xrealloc(p->keys, p->naxes * sizeof *p->keys);
    p->ck = xrealloc(p->ck, p->naxes * sizeof *p->ck);
    p->nvals = xrealloc(p->nvals, p->naxes * sizeof *p->nvals);
    p->vals = xrealloc(p->vals, p->naxes * sizeof *p->vals);
    p->keys[a] = xstrdup(f[1]);
    p->ck[a] = v->key;
    p->nvals[a] = nf - 2;
    p->vals[a] = xmalloc((nf - 2) * sizeof **p->vals);
    for (size_t i = 2; i < nf; i++) p->vals[a][i - 2] = xstrdup(f[i]);
    return true;
}

static bool plan_point(struct sweep_plan *p, char **f, size_t nf)
{
    /* Names become file names under DIR: the rule they were made by. */
    if (nf != 3 + p->naxes || !sweep_name_ok(f[1])) return false;
    char *end;
    uint64_t h = strtoull(f[2], &end, 16);
    if (*end || end == f[2]) return false;
    size_t *vi = xmalloc((p->naxes ? p->naxes : 1) * sizeof *vi);
    for (size_t a = 0; a < p->naxes; a++) {
        size_t v = 0;
        while (v < p->nvals[a] && strcmp(p->vals[a][v], f[3 + a])) v++;
        if (v == p->nvals[a]) {
            free(vi);
            return false;
        }
        vi[a] = v;
    }
    size_t i = p->npoints++;
    p->names = xrealloc(p->names, p->npoints * sizeof *p->names);
    p->hash = xrealloc(p->hash, p->npoints * sizeof *p->hash);
    p->vi = xrealloc(p->vi, p->npoints * sizeof *p->vi);
    p->names[i] = xstrdup(f[1]);
    p->hash[i] = h;
    p->vi[i] = vi;
    return true;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Two points of one name would share a result file. */
static bool names_distinct(const struct sweep_plan *p)
{
    if (p->npoints < 2) return true;
    char **v = xmalloc(p->npoints * sizeof *v);
    memcpy(v, p->names, p->npoints * sizeof *v);
    qsort(v, p->npoints, sizeof *v, cmp_str);
    bool ok = true;
    for (size_t i = 1; ok && i < p->npoints; i++) ok = strcmp(v[i - 1], v[i]) != 0;
    free(v);
    return ok;
}

struct sweep_plan *sweep_plan_read(const struct sweep_dir *d, char *err,
                                   size_t errlen)
{
    char *path = sweep_path(d, NULL, "plan.tsv", NULL);
    char *text = sweep_read_text(path, NULL);
    if (!text) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        free(path);
        return NULL;
    }
    struct sweep_plan *p = xcalloc(1, sizeof *p);
    struct config *scratch = config_new();
    bool ok = !strncmp(text, PLAN_MAGIC "\n", sizeof PLAN_MAGIC);
    int lineno = 1;
    char *save = NULL;
    strtok_r(text, "\n", &save);
    for (char *line; ok && (line = strtok_r(NULL, "\n", &save));) {
        lineno++;
        char *f[4096];
        size_t nf = split_tabs(line, f, 4096);
        if (!strcmp(f[0], "sweep") && nf == 2) {
            free(p->sweep_file);
            p->sweep_file = xstrdup(f[1]);
        } else if (!strcmp(f[0], "set") && nf == 2) {
            p->sets = xrealloc(p->sets, (p->nsets + 1) * sizeof *p->sets);
            p->sets[p->nsets++] = xstrdup(f[1]);
        } else if (!strcmp(f[0], "axis")) {
            /* Every point has a value on every axis: axes come first. */
            ok = !p->npoints && plan_axis(p, f, nf, scratch);
        } else if (!strcmp(f[0], "point")) {
            ok = plan_point(p, f, nf);
        } else {
            ok = !strcmp(f[0], "base");
        }
    }
    if (ok && !names_distinct(p)) {
        ok = false;
        lineno = 0;
    }
    if (ok && !p->npoints) {
        /* sweep_load refuses a sweep without points: none was written. */
        ok = false;
        lineno++;
    }
    if (!ok && lineno)
        snprintf(err, errlen, "%s:%d: not a plan this uvmsim wrote (rerun "
                 "`uvmsim sweep run` to write it again)", path, lineno);
    else if (!ok)
        snprintf(err, errlen, "%s: not a plan this uvmsim wrote (two points "
                 "of one name; rerun `uvmsim sweep run` to write it again)",
                 path);
    config_free(scratch);
    free(text);
    free(path);
    if (!ok) {
        sweep_plan_free(p);
        return NULL;
    }
    if (!p->sweep_file) p->sweep_file = xstrdup("");
    return p;
}

void sweep_plan_free(struct sweep_plan *p)
{
    if (!p) return;
    for (size_t a = 0; a < p->naxes; a++) {
        for (size_t v = 0; v < p->nvals[a]; v++) free(p->vals[a][v]);
        free(p->vals[a]);
        free(p->keys[a]);
    }
    for (size_t i = 0; i < p->npoints; i++) {
        free(p->names[i]);
        free(p->vi[i]);
    }
    free(p->keys);
    free(p->ck);
    free(p->nvals);
    free(p->vals);
    free(p->names);
    free(p->hash);
    free(p->vi);
    for (size_t i = 0; i < p->nsets; i++) free(p->sets[i]);
    free(p->sets);
    free(p->sweep_file);
    free(p);
}

/* ---- points ---- */

/* "NAME.tmp.PID": the PID, or 0 when NAME is not such a temporary. */
static long temp_pid(const char *name)
{
    const char *t = strstr(name, ".tmp.");
    while (t && strstr(t + 1, ".tmp.")) t = strstr(t + 1, ".tmp.");
    if (!t || !t[5]) return 0;
    char *end;
    long pid = strtol(t + 5, &end, 10);
    return *end || pid <= 0 ? 0 : pid;
}

/* PID is a process that may still write: a zombie (killed, not yet
 * reaped by its parent) answers kill(pid, 0) but writes nothing more
 * (proc(5): state 'Z', or 'X' while it goes). */
static bool pid_alive(long pid)
{
    if (kill((pid_t)pid, 0) != 0 && errno == ESRCH) return false;
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return true;                /* no /proc: trust kill() */
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    /* "PID (COMM) S ...": COMM may hold ')' itself; the last one ends it. */
    char *e = strrchr(buf, ')');
    return !(e && e[1] == ' ' && (e[2] == 'Z' || e[2] == 'X'));
}

static size_t clean_in(const struct sweep_dir *d, const char *sub)
{
    char *dp = sub ? sweep_path(d, NULL, sub, NULL) : xstrdup(d->path);
    DIR *dir = opendir(dp);
    size_t n = 0;
    for (struct dirent *e; dir && (e = readdir(dir));) {
        long pid = temp_pid(e->d_name);
        if (!pid || pid_alive(pid)) continue;
        char *p = sweep_path(d, sub, e->d_name, NULL);
        n += unlink(p) == 0;
        free(p);
    }
    if (dir) closedir(dir);
    free(dp);
    return n;
}

size_t sweep_dir_clean_temps(const struct sweep_dir *d)
{
    return clean_in(d, NULL) + clean_in(d, "points") + clean_in(d, "configs");
}

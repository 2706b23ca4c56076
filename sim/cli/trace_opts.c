/* The trace options of `uvmsim run` (--trace, --trace-window,
 * --trace-what, --trace-max), taken out of argv before the common options are parsed. */
/* realpath: glibc declares it for XSI (_XOPEN_SOURCE) only. */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "config/config.h"
#include "trace/trace.h"
#include "trace_opts.h"

static bool parse_time(const char *text, sim_time *out, char *why, size_t n)
{
    static const struct cfg_key k = { "--trace-window", CFG_TIME, "0s", 0, 1e18, NULL, "" };
    struct cfg_value v;
    memset(&v, 0, sizeof v);
    if (!cfg_parse(&k, text, &v, why, n)) return false;
    *out = v.u;
    return true;
}

static bool parse_size(const char *text, uint64_t *out, char *why, size_t n)
{
    static const struct cfg_key k = { "--trace-max", CFG_SIZE, TRACE_MAX_DEFAULT, 0, 1e18, NULL, "" };
    struct cfg_value v;
    memset(&v, 0, sizeof v);
    if (!cfg_parse(&k, text, &v, why, n)) return false;
    *out = v.u;
    return true;
}

/* realpath of PATH's directory, then its last component (caller frees);
 * NULL when the directory does not resolve. */
static char *canonical(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = slash ? xstrdup(path) : xstrdup(".");
    if (slash) dir[slash == path ? 1 : slash - path] = 0;
    char *real = realpath(dir, NULL);
    free(dir);
    if (!real) return NULL;
    size_t n = strlen(real) + strlen(base) + 2;
    char *c = xmalloc(n);
    snprintf(c, n, "%s/%s", real, base);
    free(real);
    return c;
}

/* Removes the trace options from argv; returns the new argc.  A bad value
 * is a user error (one line, exit 2) before anything is simulated. */
int trace_opts_take(int argc, char **argv, struct trace_opts *t, const char *usage)
{
    char why[256];
    *t = (struct trace_opts){ NULL, 0, TIME_NEVER, TW_ALL & ~(TW_WALKS | TW_DRAM), 0 };
    if (!parse_size(TRACE_MAX_DEFAULT, &t->max_bytes, why, sizeof why)) abort();
    int n = 0;
    const char *given = NULL;       /* the first option that needs --trace */
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (!strcmp(a, "--trace")) {
            if (!has) usage_error(usage, "%s needs a file name", a);
            t->path = argv[++i];
        } else if (!strcmp(a, "--trace-window")) {
            if (!has) usage_error(usage, "%s needs T0:T1 (e.g. 10us:50us)", a);
            char *w = xstrdup(argv[++i]), *colon = strchr(w, ':');
            if (!colon) { free(w); user_error("--trace-window '%s': expected T0:T1 (e.g. 10us:50us)", argv[i]); }
            *colon = 0;
            bool ok = (!*w || parse_time(w, &t->t0, why, sizeof why)) &&
                      (!colon[1] || parse_time(colon + 1, &t->t1, why, sizeof why));
            free(w);
            if (!ok) user_error("--trace-window '%s': %s", argv[i], why);
            if (t->t1 <= t->t0)
                user_error("--trace-window '%s': the end must come after the start", argv[i]);
            given = given ? given : a;
        } else if (!strcmp(a, "--trace-max")) {
            if (!has) usage_error(usage, "%s needs a size (e.g. 256MiB; 0 for no cap)", a);
            if (!parse_size(argv[++i], &t->max_bytes, why, sizeof why))
                user_error("--trace-max '%s': %s", argv[i], why);
            given = given ? given : a;
        } else if (!strcmp(a, "--trace-what")) {
            if (!has) usage_error(usage, "%s needs a list (e.g. faults,batches)", a);
            const char *bad;
            size_t blen;
            t->what = trace_parse_what(argv[++i], &bad, &blen);
            if (!t->what)
                user_error("--trace-what '%s': unknown '%.*s' (expected a list of "
                           "warps, faults, batches, dma, evictions, shootdowns, counters, kernels, walks, dram, all)",
                           argv[i], (int)blen, bad);
            given = given ? given : a;
        } else {
            argv[n++] = argv[i];
        }
    }
    /* Options of a trace that is not written would be dropped silently. */
    if (given && !t->path) user_error("%s applies to a trace: it needs --trace OUT.json", given);
    return n;
}

/* The identity of PATH: the file's when it exists (links, "./", ".."
 * resolved by the kernel), else the canonical directory and the name. */
static bool same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    bool ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea || eb) return false;
    char *ca = canonical(a), *cb = canonical(b);
    bool same = ca && cb && !strcmp(ca, cb);
    free(ca);
    free(cb);
    return same;
}

void trace_opts_check_out(const struct trace_opts *t, const char *path, const char *what)
{
    if (t->path && path && same_file(t->path, path))
        user_error("--trace %s is the same file as %s %s: one would overwrite the other; "
                   "name another file", t->path, what, path);
}

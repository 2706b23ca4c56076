/* The trace options of `uvmsim run` (--trace, --trace-window,
 * --trace-what, --trace-max), taken out of argv before the common options are parsed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Removes the trace options from argv; returns the new argc.  A bad value
 * is a user error (one line, exit 2) before anything is simulated. */
int trace_opts_take(int argc, char **argv, struct trace_opts *t, const char *usage)
{
    char why[256];
    *t = (struct trace_opts){ NULL, 0, TIME_NEVER, TW_ALL & ~(TW_WALKS | TW_DRAM), 0 };
    if (!parse_size(TRACE_MAX_DEFAULT, &t->max_bytes, why, sizeof why)) abort();
    int n = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool has = i + 1 < argc;
        if (!strcmp(a, "--trace")) {
            if (!has) usage_error(usage, "%s needs a file name", a);
            t->path = argv[++i];
        } else if (!strcmp(a, "--trace-window")) {
            if (!has) usage_error(usage, "%s needs T0:T1 (e.g. 10us:50us)", a);
            char *w = xstrdup(argv[++i]), *colon = strchr(w, ':');
            if (!colon) { free(w); usage_error(usage, "--trace-window '%s': expected T0:T1 (e.g. 10us:50us)", argv[i]); }
            *colon = 0;
            bool ok = (!*w || parse_time(w, &t->t0, why, sizeof why)) &&
                      (!colon[1] || parse_time(colon + 1, &t->t1, why, sizeof why));
            free(w);
            if (!ok) {
                fprintf(stderr, "uvmsim: --trace-window '%s': %s\n", argv[i], why);
                exit(EXIT_USER);
            }
            if (t->t1 <= t->t0) {
                fprintf(stderr, "uvmsim: --trace-window '%s': the end must come after the start\n", argv[i]);
                exit(EXIT_USER);
            }
        } else if (!strcmp(a, "--trace-max")) {
            if (!has) usage_error(usage, "%s needs a size (e.g. 256MiB; 0 for no cap)", a);
            if (!parse_size(argv[++i], &t->max_bytes, why, sizeof why)) {
                fprintf(stderr, "uvmsim: --trace-max '%s': %s\n", argv[i], why);
                exit(EXIT_USER);
            }
        } else if (!strcmp(a, "--trace-what")) {
            if (!has) usage_error(usage, "%s needs a list (e.g. faults,batches)", a);
            const char *bad;
            size_t blen;
            t->what = trace_parse_what(argv[++i], &bad, &blen);
            if (!t->what) {
                fprintf(stderr, "uvmsim: --trace-what '%s': unknown '%.*s' (expected a list of "
                        "warps, faults, batches, dma, evictions, shootdowns, counters, kernels, walks, dram, all)\n",
                        argv[i], (int)blen, bad);
                exit(EXIT_USER);
            }
        } else {
            argv[n++] = argv[i];
        }
    }
    return n;
}

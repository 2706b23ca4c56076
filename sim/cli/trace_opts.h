/* `uvmsim run` trace options (sim/cli/trace_opts.c). */
#ifndef UVMSIM_TRACE_OPTS_H
#define UVMSIM_TRACE_OPTS_H

#include "core/base.h"

/* A whole-run trace of configs/default.yaml is 289 MB (issue 36): past
 * 64 MiB a trace is more than a browser tab opens comfortably. */
#define TRACE_MAX_DEFAULT "64MiB"

struct trace_opts {
    const char *path;       /* --trace OUT.json, or NULL */
    sim_time t0, t1;        /* --trace-window (default: the whole run) */
    unsigned what;          /* --trace-what (default: all but every walk) */
    uint64_t max_bytes;     /* --trace-max (default TRACE_MAX_DEFAULT; 0: no cap) */
};

int trace_opts_take(int argc, char **argv, struct trace_opts *t, const char *usage);
/* A user error when the trace and PATH (WHAT: "the result -o", "the
 * config") name one file: by device and inode when both exist, else by
 * their canonical paths. */
void trace_opts_check_out(const struct trace_opts *t, const char *path, const char *what);

#endif

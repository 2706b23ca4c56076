/* `uvmsim run` trace options (sim/cli/trace_opts.c). */
#ifndef UVMSIM_TRACE_OPTS_H
#define UVMSIM_TRACE_OPTS_H

#include "core/base.h"

struct trace_opts {
    const char *path;       /* --trace OUT.json, or NULL */
    sim_time t0, t1;        /* --trace-window (default: the whole run) */
    unsigned what;          /* --trace-what (default: all but every walk) */
};

int trace_opts_take(int argc, char **argv, struct trace_opts *t, const char *usage);

#endif

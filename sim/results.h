/* HDF5 results: one file per run, written under "OUT.tmp.<pid>",
 * synced and renamed to OUT only when complete (outfile.h).  Layout in
 * docs/results.md. */
#ifndef UVMSIM_RESULTS_H
#define UVMSIM_RESULTS_H

#include "base.h"

struct config;
struct stats;

/* What the run was; host figures are not deterministic and live apart
 * (/host) from the statistics. */
struct run_info {
    const char *status;       /* "completed", "time_limit", "event_limit" */
    uint64_t seed;
    sim_time sim_time_ps;     /* simulated time at the end */
    uint64_t events;          /* engine events executed (deterministic) */
    double wall_seconds;      /* host */
    uint64_t peak_rss_bytes;  /* host */
    double gpu_cycles_per_second;   /* host speed */
    double events_per_second;       /* host speed */
    bool no_host;             /* leave /host out: two runs give the same bytes */
    /* Host speed per CPU second of the process (user + system), the
     * measure that holds on a loaded machine (issue 13's bench). */
    double cpu_seconds;
    double warp_insts_per_cpu_second;
    double events_per_warp_inst;    /* engine events per warp instruction */
    double ns_per_event;            /* CPU nanoseconds per engine event */
};

/* FNV-1a (64-bit) of the resolved config's YAML text, stored as
 * /config@yaml_hash: a sweep reruns a point only when it differs. */
uint64_t results_yaml_hash(const char *yaml);

/* Returns 0 on success; on failure fills err and leaves no file behind. */
int results_write(const char *path, const struct config *cfg,
                  const struct stats *st, const struct run_info *info,
                  char *err, size_t errlen);

#endif

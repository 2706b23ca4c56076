/* HDF5 results: one file per run, written under "OUT.tmp.<pid>", synced
 * and renamed to OUT only when complete (outfile.h).  Layout in docs/results.md.
 *
 * A run opens its file before it starts (results_open): the time series
 * and the record tables then stream into it a chunk at a time as the run
 * goes (stats.h's sink), so they never sit in memory whole; results_finish
 * adds the rest and renames.  results_write does it all at once from the
 * rows in memory (tools and tests that have no run). */
#ifndef UVMSIM_RESULTS_H
#define UVMSIM_RESULTS_H

/* Links a group keeps in its (checksummed) object header before HDF5
 * moves them to dense storage: HDF5's limit (H5Pset_link_phase_change). */
#define RESULTS_MAX_COMPACT_LINKS 65535

#include "core/base.h"

struct config;
struct stats;

/* What the run was; host figures are not deterministic and live apart
 * (/host) from the statistics. */
struct run_info {
    const char *status;       /* "completed", "time_limit", "event_limit" */
    const char *model;        /* sim.model (the summary; /config holds it too) */
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

struct results;
/* Create the temporary file with /config and the (empty) time series and
 * tables, and attach it to st as its sink; st's registration must be
 * over.  NULL (err filled, no file left) on failure. */
struct results *results_open(const char *path, const struct config *cfg,
                             struct stats *st, char *err, size_t errlen);
/* Write what is left, close, rename to the final name; frees r.  Returns
 * 0, or -1 with err filled and no file left (a row block that failed to
 * stream fails it here). */
int results_finish(struct results *r, const struct stats *st,
                   const struct run_info *info, char *err, size_t errlen);
/* Give up: close and remove the temporary file; frees r. */
void results_abort(struct results *r);

#endif

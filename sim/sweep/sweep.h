/* Sweeps: one config over many points (docs/sweeps.md).
 *
 * A sweep file names a base config, keys fixed for every point (set:),
 * axes (key -> list of values, cartesian product), zip groups (keys whose
 * lists vary together), seeds, exclude rules and a name template.  It
 * expands to points, each a resolved config with a file-system-safe name.
 * A sweep directory holds the plan, one resolved config, result and log
 * per point, and the merged sweep.h5:
 *
 *   DIR/sweep.yaml  DIR/plan.tsv  DIR/configs/NAME.yaml  DIR/points/NAME.h5
 *   DIR/logs/NAME.log  DIR/logs/NAME.failed  DIR/slurm/  DIR/sweep.h5
 *
 * Points run as `uvmsim run DIR/configs/NAME.yaml -o DIR/points/NAME.h5`
 * (locally N at a time, or as tasks of a Slurm job array); a result whose
 * model revision and recorded config still match the point's is done and
 * never run again. */
#ifndef UVMSIM_SWEEP_H
#define UVMSIM_SWEEP_H

#include <stdio.h>
#include "core/base.h"

struct cfg_key;
struct cfg_error;
struct config;

/* Exit status of `sweep run` / `sweep merge` when some point has no valid
 * result (2 stays "user error, nothing run"). */
#define SWEEP_EXIT_INCOMPLETE 1

/* One key that varies.  Axes of one zip group share a factor. */
struct sweep_axis {
    char *key;
    const struct cfg_key *ck;
    size_t factor;
    size_t nvals, cap;      /* cap: room in text/line/col (grown by doubling) */
    char **text;            /* values as written */
    int *line, *col;        /* where each value is in the sweep file */
};

struct sweep_point {
    char *name;
    size_t *vi;             /* value index on each axis */
    uint64_t hash;          /* of its YAML: sweep_point_hash() */
    bool hashed;
};

struct sweep {
    char *file;             /* the sweep file as named */
    char *text;             /* its bytes, copied into DIR and sweep.h5 */
    char *base;             /* base config path (relative to cwd), or NULL */
    size_t nfixed;
    char **fixed;           /* "key=value" of set: and -s, for display */
    size_t nsets;
    char **sets;            /* the -s "key=value" alone (DIR/plan.tsv) */
    size_t naxes;
    struct sweep_axis *axes;
    size_t nfactors;
    size_t *factor_len;
    size_t ncombos;         /* product of the factor lengths */
    size_t nexcluded;
    size_t npoints;
    struct sweep_point *points;     /* cartesian order, first factor slowest */
    struct config *cfg;     /* the base with set: and -s: points resolve here */
};

/* Reads and expands PATH; SETS are `-s key=value` fixed for every point.
 * Every value is validated and every point's config resolved (cross-key
 * checks included) before this returns.  NULL with a one-line
 * "FILE:LINE:COL: key 'K': ..." in err on any user error. */
struct sweep *sweep_load(const char *path, const char *const *sets,
                         size_t nsets, struct cfg_error *err);
void sweep_free(struct sweep *s);
/* Point I's resolved config as config_to_yaml writes it (caller frees),
 * made again on each call: a sweep keeps only names, value indices and
 * hashes in memory.  Sets the point's hash. */
char *sweep_point_yaml(const struct sweep *s, size_t i);
/* results_yaml_hash of point I's YAML (made once, when first asked). */
uint64_t sweep_point_hash(const struct sweep *s, size_t i);

/* ---- the sweep directory ---- */

enum sweep_state { PT_MISSING, PT_DONE, PT_STALE, PT_FAILED };
const char *sweep_state_name(enum sweep_state st);

struct sweep_dir;

/* Opens DIR (creating it and its sub-directories when CREATE) and, when
 * LOCK, takes DIR/.lock so that two sweeps never share a directory.
 * NULL with a message in err. */
struct sweep_dir *sweep_dir_open(const char *dir, bool create, bool lock,
                                 char *err, size_t errlen);
void sweep_dir_close(struct sweep_dir *d);
/* Closes after a user error: the .lock this process created goes too
 * (nothing is left behind). */
void sweep_dir_abandon(struct sweep_dir *d);
/* DIR/plan.tsv begins with the plan's magic line. */
bool sweep_dir_is_sweep(const char *dir);
/* `sweep run|slurm -o DIR` may use DIR without --force: DIR is missing,
 * empty (but for what a first run leaves before its plan), or a sweep.
 * Else false with a message in err. */
bool sweep_dir_takeover_ok(const char *dir, char *err, size_t errlen);
const char *sweep_dir_path(const struct sweep_dir *d);
/* DIR/SUB/NAME+EXT (SUB may be NULL); caller frees. */
char *sweep_path(const struct sweep_dir *d, const char *sub, const char *name,
                 const char *ext);

/* Writes DIR/sweep.yaml, DIR/plan.tsv and every DIR/configs/NAME.yaml
 * (each only when its content changed, always by temp-and-rename). */
int sweep_dir_write_plan(struct sweep_dir *d, const struct sweep *s,
                         char *err, size_t errlen);
/* Removes NAME.*.tmp.PID files of processes that no longer exist (a run
 * killed before its rename; a zombie counts as gone).  Returns how many
 * it removed. */
size_t sweep_dir_clean_temps(const struct sweep_dir *d);
/* DONE when DIR/points/NAME.h5 is the point's result: its model revision
 * is this binary's and its recorded config means the point's config YAML
 * (DIR/configs/NAME.yaml when NULL; HASH its results_yaml_hash), key by
 * key, a key one side lacks taken at its default (sweep_stale.c); STALE
 * when it holds another; FAILED when DIR/logs/NAME.failed records a
 * failure (its exit status in *code); MISSING otherwise.  WHY (may be
 * NULL) gets the state as `sweep plan` shows it: "done", "not run",
 * "failed (exit 3)", "stale: key K OLD -> NEW", "stale: model revision
 * 1 -> 2", "stale: unreadable result". */
enum sweep_state sweep_point_state(const struct sweep_dir *d, const char *name,
                                   const char *yaml, uint64_t hash, int *code,
                                   char *why, size_t whylen);

/* The plan as written to DIR/plan.tsv, read back by merge and by Slurm
 * tasks (which need no sweep file). */
struct sweep_plan {
    char *sweep_file;
    size_t nsets;
    char **sets;            /* the -s "key=value" the plan was made with */
    size_t naxes;
    char **keys;
    const struct cfg_key **ck;
    size_t *nvals;
    char ***vals;           /* [axis][value] texts as written */
    size_t npoints;
    char **names;
    uint64_t *hash;
    size_t **vi;            /* [point][axis] value index */
};
struct sweep_plan *sweep_plan_read(const struct sweep_dir *d, char *err,
                                   size_t errlen);
void sweep_plan_free(struct sweep_plan *p);

/* ---- running ---- */

/* Runs the points without a valid result (all with FORCE), JOBS at a time,
 * then merges.  Progress and one line per finished point on OUT.  Returns
 * 0, SWEEP_EXIT_INCOMPLETE, or 130/143 when interrupted. */
int sweep_run_local(const struct sweep *s, struct sweep_dir *d, int jobs,
                    bool force, FILE *out);

/* Runs point NAME of the plan in DIR in this process's place (a Slurm
 * array task): its log, its failure record; nothing when it has a valid
 * result, unless FORCE.  Returns the run's status. */
int sweep_run_point(struct sweep_dir *d, const char *name, bool force);

struct sweep_slurm_opts {
    const char *partition, *time, *mem, *setup, *account;
    long max_parallel;      /* 0: no %K limit */
    bool dry_run, force;
};
/* The Slurm scripts can name DIR (absolute), the current directory and
 * this executable without quoting: none holds a space, quote, '\\', '$'
 * or '`'.  Checked before DIR is created; false with a message in err. */
bool sweep_slurm_paths_ok(const char *dir, char *err, size_t errlen);
int sweep_slurm(const struct sweep *s, struct sweep_dir *d,
                const struct sweep_slurm_opts *o, FILE *out);

/* Writes DIR/sweep.h5 from the plan and the valid results (docs/results.md,
 * "Sweep files").  Returns 0 when every point was merged,
 * SWEEP_EXIT_INCOMPLETE when some are missing (the file is still written),
 * SWEEP_MERGE_BAD_PLAN when DIR/plan.tsv is not a plan (a user error),
 * -1 with err on another failure (no file written). */
#define SWEEP_MERGE_BAD_PLAN (-2)
int sweep_merge(const struct sweep_dir *d, FILE *out, char *err, size_t errlen);

/* The name a value gets inside a point name: [A-Za-z0-9._+-] kept, '%'
 * spelled "pct", anything else '-'.  Exposed for tests. */
void sweep_token(const char *text, char *out, size_t outsz);

#endif

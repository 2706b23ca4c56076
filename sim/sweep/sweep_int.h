/* Inside the sweep subsystem (sim/sweep/sweep_*.c); others include sweep.h. */
#ifndef UVMSIM_SWEEP_INT_H
#define UVMSIM_SWEEP_INT_H

#include <signal.h>
#include <sys/types.h>
#include "sweep.h"

struct config;

/* Where a node is in the sweep file (1-based). */
struct sweep_loc { int line, col; };

/* `set:` entries and `-s` overrides: fixed for every point. */
struct sweep_fixed {
    char *key, *val;
    bool cli;                       /* from -s (no location) */
    struct sweep_loc kloc, vloc;
};

/* One exclude condition: axis AXIS takes one of the value indices VI. */
struct sweep_term { size_t axis, nvi; size_t *vi; };
struct sweep_rule { size_t nterms; struct sweep_term *terms; };

/* Name template: literal text, or the value of an axis. */
struct sweep_seg { char *lit; size_t axis; };

/* What sweep_file.c reads and sweep_plan.c expands. */
struct sweep_spec {
    char *base;
    struct sweep_loc base_loc;
    size_t nfixed;
    struct sweep_fixed *fixed;
    size_t nrules;
    struct sweep_rule *rules;
    size_t nsegs;
    struct sweep_seg *segs;
    bool has_name;
    struct sweep_loc name_loc;
    struct sweep_loc *key_loc;      /* [axis] where its key is */
};

/* sweep_file.c: fills s->file, s->text, s->axes, s->factor_len and SP. */
bool sweep_read_file(const char *path, const char *const *sets, size_t nsets,
                     struct sweep *s, struct sweep_spec *sp,
                     struct cfg_error *err);
void sweep_spec_free(struct sweep_spec *sp);
/* "FILE:LINE:COL: " + fmt into err; returns false. */
bool sweep_fail_at(struct cfg_error *err, const char *file, struct sweep_loc l,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Two texts of key K mean the same value (units resolved). */
bool sweep_same_value(const struct cfg_key *k, const char *a, const char *b);

/* ---- point names (sweep_plan.c) ---- */

/* Point names are file names with suffixes (.h5.tmp.PID, .failed). */
#define SWEEP_MAX_NAME 200
/* [A-Za-z0-9._+-]: what a name template's literal text may hold. */
bool sweep_name_char(char c);
/* NAME is one a plan can hold: 1 to SWEEP_MAX_NAME name characters, not
 * starting with '-' or '.' (so no '/', no "..", no control byte): what
 * the expansion makes, and what plan.tsv must hold to be read back. */
bool sweep_name_ok(const char *name);

/* ---- files (sweep_dir.c) ---- */

/* Whole file into a NUL-terminated buffer (NULL on error, errno set). */
char *sweep_read_text(const char *path, size_t *len);
/* Writes PATH through PATH.tmp.PID and rename; 0 or -1 with errno. */
int sweep_write_atomic(const char *path, const char *data, size_t len);
/* The last N lines of PATH (at most 4 KiB), "" when unreadable; caller frees. */
char *sweep_log_tail(const char *path, int n);

/* ---- what to run (sweep_stale.c) ---- */

/* An upgrade that reruns points says which and why: this many stale
 * points are named before a run, the rest counted. */
#define SWEEP_SHOW_STALE 5
/* The points without a valid result (all with FORCE), in plan order, N of
 * them; the first SWEEP_SHOW_STALE stale ones as "NAME: stale: why" in
 * STALE, *NSTALE the number of stale points. */
size_t *sweep_todo(const struct sweep *s, const struct sweep_dir *d, bool force,
                   size_t *n, char **stale, size_t *nstale);
/* Prints "  rerun NAME: stale: why" for each (freeing it), then the count
 * of the others. */
void sweep_put_stale(FILE *out, const struct sweep_dir *d, char **stale,
                     size_t nstale);

/* ---- processes (sweep_exec.c) ---- */

/* Absolute path of this executable (for the children and Slurm scripts). */
const char *sweep_self_exe(void);
/* Starts `uvmsim run DIR/configs/NAME.yaml -o DIR/points/NAME.h5 --quiet`
 * with stdout and stderr in DIR/logs/NAME.log.  -1 when fork fails. */
pid_t sweep_spawn(const struct sweep_dir *d, const char *name);
/* Records how point NAME ended (waitpid STATUS): removes or writes
 * DIR/logs/NAME.failed.  Returns the exit code (128+signal when killed)
 * and, when it failed, puts the log's last lines in *tail (caller frees). */
int sweep_record(const struct sweep_dir *d, const char *name, int status,
                 char **tail);
/* Removes the temporary result a killed child PID left. */
void sweep_remove_temp(const struct sweep_dir *d, const char *name, pid_t pid);
/* SIGINT/SIGTERM while points run (sweep run, sweep point): the signal
 * number lands in sweep_stop_signal (reset to 0 here) and waitpid returns
 * (no SA_RESTART); the previous actions go to *old_int, *old_term. */
extern volatile sig_atomic_t sweep_stop_signal;
void sweep_catch_signals(struct sigaction *old_int, struct sigaction *old_term);

/* ---- merge (sweep_copy.c, sweep_table.c) ---- */

#include <hdf5.h>

/* Copies every attribute of SRC onto DST. */
int sweep_copy_attrs(hid_t src, hid_t dst);
/* Copies the members of group SRC into group DST (recursively), skipping
 * a member named SKIP (NULL: none).  Deterministic: name order, no time
 * stamps. */
int sweep_copy_members(hid_t src, hid_t dst, const char *skip);
/* Property lists shared by the merge's writers. */
hid_t sweep_gcpl(void);
hid_t sweep_vlen_str(void);
/* A point result opened read-only, closed strongly (sweep_copy.c). */
hid_t sweep_open_ro(const char *path);
/* Fixed-length, for a string of LEN bytes (what the writers use). */
hid_t sweep_str_of(size_t len);
/* A single-valued string attribute, fixed or variable length (results
 * before issue 38); NULL when missing or unreadable (sweep_stale.c). */
char *sweep_attr_str(hid_t obj, const char *name);

struct sweep_merged {               /* one merged point: /runs/NAME */
    size_t plan_index;
};
/* What one point's result may hold: larger is no result of this program
 * (the merge reads it whole into memory).  The time series grows with
 * simulated time, a row of about 1.2 KB per sim.epoch: cyclic-100mb's
 * FDTD-2D at 200 MB (11.9 s simulated, 229910 rows) holds 276 MB, which
 * the 256 MiB of before called unreadable; 1 GiB is four such runs. */
#define SWEEP_MAX_RESULT_BYTES ((hsize_t)1 << 30)
/* File F (a result) reads whole: every object opens, every dataset and
 * attribute reads, SWEEP_MAX_RESULT_BYTES in all.  Else false and WHY
 * "unreadable result (its /PATH)" (sweep_valid.c). */
bool sweep_result_reads(hid_t f, char *why, size_t whylen);
/* The same for the file at PATH, read in a child process first, so that
 * a crash inside libhdf5 on a damaged file is an unreadable result. */
bool sweep_result_reads_isolated(const char *path, char *why, size_t whylen);
/* Called in that child before it reads (the fuzz harness silences its
 * sanitizers there); NULL: nothing. */
extern void (*sweep_check_child_hook)(void);

/* Writes /points, /axes and /missing (MISSING: plan indices, their
 * states and exit codes). */
int sweep_write_tables(hid_t fid, const struct sweep_plan *p,
                       const struct sweep_merged *m, size_t nm,
                       const size_t *missing, const enum sweep_state *mstate,
                       const int *mcode, size_t nmissing,
                       char *err, size_t errlen);
/* Writes one typed attribute NAME = the axis value TEXT of key K. */
int sweep_axis_attr(hid_t obj, const char *name, const struct cfg_key *k,
                    const char *text);

#endif

/* Output files that appear whole or not at all (results, converted
 * traces): written under a temporary name beside the target, synced, and
 * renamed over it; removed when the process is interrupted; left-overs of
 * processes that are gone removed by the next writer of the same target.
 *
 * The temporary name is TARGET.tmp.<pid> (the sweep runner, sweep_dir.c,
 * reads the same pattern): the pid tells whether its writer is alive. */
#ifndef UVMSIM_OUTFILE_H
#define UVMSIM_OUTFILE_H

#include <signal.h>
#include <stddef.h>

/* 0 when TARGET may be written: it does not exist or is a regular file.
 * Anything else (a symbolic link, a device such as /dev/null, a FIFO, a
 * directory) is refused: renaming over it would replace the link or the
 * device node itself.  -1 with the reason in err. */
int outfile_check_target(const char *target, char *err, size_t n);

/* The temporary name of TARGET for this process (caller frees). */
char *outfile_tmp_name(const char *target);

/* Removes TARGET.tmp.<pid> files whose process no longer exists (regular
 * files owned by this user only); returns how many.  Only TARGET's own:
 * two machines of a shared file system writing the same TARGET at once is
 * a mistake either way. */
int outfile_remove_stale(const char *target);

/* fsyncs TMP, checks TARGET again (outfile_check_target), renames TMP over
 * it and fsyncs the directory.  On failure TMP is removed and err says why. */
int outfile_commit(const char *tmp, const char *target, char *err, size_t n);

/* ---- SIGINT / SIGTERM ----
 * Installs handlers (where the signal is not ignored, as under nohup or in
 * a background job) that set outfile_signal to the signal number; the
 * engine stops on it (engine_set_stop_flag).  While a temporary file is
 * guarded, or when a second signal arrives, the handler removes the file
 * and exits at once with 128 + the signal number (130, 143). */
extern volatile sig_atomic_t outfile_signal;
void outfile_handle_signals(void);
/* The temporary file the handler removes (NULL: none); the name is copied. */
void outfile_guard(const char *tmp);
/* A file written while the run goes on (a streamed result): the first
 * signal only stops the run (its owner removes the file), a second one
 * removes it on its way out.  NULL: none. */
void outfile_watch(const char *tmp);
/* 128 + outfile_signal. */
int outfile_signal_exit_code(void);

#endif

/* The fuzz targets (docs/robustness.md): one entry point per input parser,
 * shared by the libFuzzer harnesses (libfuzzer.c, clang) and the regression
 * replayer (replay.c, the normal build). */
#ifndef UVMSIM_FUZZ_TARGETS_H
#define UVMSIM_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>

/* NULL-terminated: config sets nvbit bintrace pagetrace dramtrace mtx edgelist
 * accelsim step traceopts report sweepfile sweepdir */
extern const char *const fuzz_target_names[];

/* Feeds DATA to TARGET's parser.  A user error (what exits 2) is a normal
 * outcome and returns 1; a clean parse returns 0.  Anything else -- a
 * crash, a sanitizer report, another exit, a broken property such as
 * "config show loads back" -- aborts.  An unknown TARGET returns -1. */
int fuzz_run(const char *target, const uint8_t *data, size_t size);

#endif

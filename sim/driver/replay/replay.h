/* The public face of sim/driver/replay/: the policy-only `uvmsim replay`
 * tool (sim/cli/cmd_replay.c) and the policy tests.  It runs an eviction
 * policy of evict/ over a page-reference trace with no timing and no
 * driver thread; hir_feed.h and replay_tlb.h are private to the room. */
#ifndef UVMSIM_DRIVER_REPLAY_H
#define UVMSIM_DRIVER_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct config;
struct stats;

/* Policy-only replay (`uvmsim replay`): the page-reference trace read from
 * `in` (named `name` in errors) through eviction policy `policy` with
 * `frames` GPU frames, no timing.  Returns 0, or -1 with err set
 * ("FILE:LINE: ..." for a malformed line). */
struct replay_result { uint64_t refs, faults, evictions, writebacks; };
int driver_replay(const struct config *cfg, const char *policy, uint64_t frames,
                  FILE *in, const char *name, struct replay_result *out,
                  char *err, size_t errlen);
/* The same, registering the policy's statistics ("evict.*": victims,
 * search length, wrong evictions, the policy's own) in `st`. */
int driver_replay_stats(const struct config *cfg, const char *policy, uint64_t frames,
                        FILE *in, const char *name, struct replay_result *out,
                        struct stats *st, char *err, size_t errlen);
void driver_replay_print_stats(FILE *out, FILE *events, const struct stats *st);

#endif

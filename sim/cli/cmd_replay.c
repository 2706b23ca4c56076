/* uvmsim replay: a page trace through an eviction policy, no timing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "config/config.h"
#include "core/stats.h"
#include "driver/replay/replay.h"

static const char usage_replay[] =
    "usage: uvmsim replay --pages FILE --frames N --policy NAME [-s KEY=VALUE]... [--verbose]\n"
    "\n"
    "Run a page-reference trace through an eviction policy with N GPU frames\n"
    "and no timing; print references, faults, evictions, write-backs and the\n"
    "policy's statistics (evict.*).\n"
    "FILE has one reference per line: a page number (decimal or 0x-hex),\n"
    "optionally followed by R or W; '#' starts a comment.  '-' reads stdin.\n"
    "Policy parameters are config keys (-s), e.g. -s sim.seed=3 for random.\n"
    "\n"
    "  --policy NAME    fifo, lru, random, srrip, brrip, rrip-fp, clock-pro,\n"
    "                   ideal, hpe, cyclic (docs/policies.md)\n"
    "  --verbose        also the policy's events (HPE's classification and strategy\n"
    "                   switches, cyclic pinning), one line each, on stderr\n";

int cmd_replay(int argc, char **argv)
{
    const char *pages = NULL, *policy = NULL, *frames_s = NULL;
    const char *sets[MAX_SETS];
    size_t nsets = 0;
    bool verbose = false;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (is_help(a)) { fputs(usage_replay, stdout); return EXIT_OK; }
        if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) { verbose = true; continue; }
        if (i + 1 >= argc) usage_error(usage_replay, "'%s' needs a value", a);
        if (!strcmp(a, "--pages")) pages = argv[++i];
        else if (!strcmp(a, "--frames")) frames_s = argv[++i];
        else if (!strcmp(a, "--policy")) policy = argv[++i];
        else if (!strcmp(a, "-s") && nsets < MAX_SETS) sets[nsets++] = argv[++i];
        else usage_error(usage_replay, "unexpected argument '%s'", a);
    }
    if (!pages || !policy || !frames_s)
        usage_error(usage_replay, "%s", "--pages, --frames and --policy are required");
    char *end;
    errno = 0;
    unsigned long long frames = strtoull(frames_s, &end, 10);
    if (errno || *end || !frames || frames > (1ULL << 31))
        usage_error(usage_replay, "--frames: expected a number of frames in [1, 2^31], got '%s'", frames_s);
    struct cfg_error cerr;
    struct config *cfg = config_load(NULL, sets, nsets, &cerr);
    if (!cfg) user_error_line(cerr.msg);
    FILE *in = strcmp(pages, "-") ? fopen(pages, "r") : stdin;
    if (!in) user_error("--pages %s: cannot open: %s", pages, strerror(errno));
    struct replay_result r;
    char err[512];
    struct stats *st = stats_new();
    int rc = driver_replay_stats(cfg, policy, frames, in, pages, &r, st, err, sizeof err);
    if (in != stdin) fclose(in);
    config_free(cfg);
    if (rc) user_error("%s", err);
    printf("policy      %s\nframes      %llu\nreferences  %llu\nfaults      %llu\n"
           "evictions   %llu\nwritebacks  %llu\n", policy, frames,
           (unsigned long long)r.refs, (unsigned long long)r.faults,
           (unsigned long long)r.evictions, (unsigned long long)r.writebacks);
    /* stdout is the result (a fixed set of lines); the events are a log. */
    driver_replay_print_stats(stdout, verbose ? stderr : NULL, st);
    stats_free(st);
    return EXIT_OK;
}

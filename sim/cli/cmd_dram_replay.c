/* uvmsim dram-replay: a request trace straight into the GPU memory model. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "config/config.h"
#include "dram/dram.h"

static const char usage_dram_replay[] =
    "usage: uvmsim dram-replay CONFIG TRACE [-s KEY=VALUE]...\n"
    "\n"
    "Feed TRACE straight into the GPU memory (dram.* keys) of CONFIG and print\n"
    "bandwidth, read latency (mean, p50/p95/p99, max) and row-buffer hit rate.\n"
    "TRACE: one request per line, TIME_NS ADDRESS R|W [BYTES] (default 128),\n"
    "'#' comments; see docs/dram-replay.md.  A bad line is an error naming\n"
    "its line number (exit 2).\n";

int cmd_dram_replay(int argc, char **argv)
{
    const char *trace = NULL;
    char *rest[MAX_SETS * 2 + 2];
    int nrest = 0, npos = 0;
    /* CONFIG and -s go to the common parser; the second positional is TRACE. */
    for (int i = 0; i < argc && nrest < MAX_SETS * 2; i++) {
        if (is_help(argv[i])) { fputs(usage_dram_replay, stdout); return EXIT_OK; }
        if (!strcmp(argv[i], "-s") && i + 1 < argc) {
            rest[nrest++] = argv[i++];
            rest[nrest++] = argv[i];
        } else if (argv[i][0] != '-' && ++npos == 2) {
            trace = argv[i];
        } else {
            rest[nrest++] = argv[i];
        }
    }
    struct opts o = {0};
    parse_opts(nrest, rest, &o, usage_dram_replay, false);
    if (!trace) usage_error(usage_dram_replay, "%s", "missing TRACE");
    struct config *cfg = load_or_exit(&o);
    FILE *in = fopen(trace, "r");
    if (!in) user_error("cannot read trace '%s': %s", trace, strerror(errno));
    struct dram_replay_req *reqs;
    size_t n;
    char err[512];
    bool ok = dram_replay_parse(in, trace, &reqs, &n, err, sizeof err);
    fclose(in);
    if (!ok) user_error("%s", err);
    struct dram_replay_result res;
    dram_replay_run(cfg, reqs, n, &res);
    dram_replay_print(stdout, &res);
    dram_replay_result_free(&res);
    free(reqs);
    config_free(cfg);
    return EXIT_OK;
}

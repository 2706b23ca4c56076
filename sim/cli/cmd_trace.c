/* uvmsim trace convert: NVBit mem_trace text to uvmsim's binary trace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "out/outfile.h"
#include "workloads/workload.h"

static const char usage_trace[] =
    "usage: uvmsim trace convert IN.txt OUT.bin\n"
    "       uvmsim trace export CONFIG -o DIR [-s KEY=VALUE]...   (an Accel-Sim trace)\n"
    "\n"
    "Convert an NVBit mem_trace text trace into uvmsim's binary trace format\n"
    "(docs/trace-format.md), replayed by workload.kind=trace.  OUT.bin appears\n"
    "only when the conversion succeeds.\n";

static void remove_tmp(void *tmp) { remove(tmp); }

/* Written to a temporary file beside OUT, renamed on success (outfile.h). */
int cmd_trace(int argc, char **argv)
{
    if (argc >= 1 && is_help(argv[0])) { fputs(usage_trace, stdout); return EXIT_OK; }
    if (argc >= 1 && !strcmp(argv[0], "export")) return cmd_trace_export(argc - 1, argv + 1);
    if (argc != 3 || strcmp(argv[0], "convert"))
        usage_error(usage_trace, "%s", "expected: trace convert IN.txt OUT.bin");
    const char *out = argv[2];
    char why[512];
    if (outfile_check_target(out, why, sizeof why) != 0)
        user_error("%s: %s", out, why);
    outfile_remove_stale(out);
    outfile_handle_signals();
    char *tmp = outfile_tmp_name(out);
    outfile_guard(tmp);
    user_error_push_cleanup(remove_tmp, tmp);
    wl_trace_convert(argv[1], tmp);
    user_error_pop_cleanup();
    int rc = outfile_commit(tmp, out, why, sizeof why);
    outfile_guard(NULL);
    free(tmp);
    if (rc) user_error("%s", why);
    return EXIT_OK;
}

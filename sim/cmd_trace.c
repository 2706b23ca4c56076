/* uvmsim trace convert: NVBit mem_trace text to uvmsim's binary trace. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "../workloads/workload.h"

static const char usage_trace[] =
    "usage: uvmsim trace convert IN.txt OUT.bin\n"
    "\n"
    "Convert an NVBit mem_trace text trace into uvmsim's binary trace format\n"
    "(docs/trace-format.md), replayed by workload.kind=trace.  OUT.bin appears\n"
    "only when the conversion succeeds.\n";

/* Written to OUT.tmp, renamed on success. */
int cmd_trace(int argc, char **argv)
{
    if (argc >= 1 && is_help(argv[0])) { fputs(usage_trace, stdout); return EXIT_OK; }
    if (argc != 3 || strcmp(argv[0], "convert"))
        usage_error(usage_trace, "%s", "expected: trace convert IN.txt OUT.bin");
    size_t n = strlen(argv[2]);
    char *tmp = xmalloc(n + 5);
    memcpy(tmp, argv[2], n);
    strcpy(tmp + n, ".tmp");
    wl_trace_convert(argv[1], tmp);
    if (rename(tmp, argv[2]) != 0) {
        fprintf(stderr, "uvmsim: cannot rename '%s' to '%s': %s\n", tmp, argv[2], strerror(errno));
        remove(tmp);
        free(tmp);
        return EXIT_USER;
    }
    free(tmp);
    return EXIT_OK;
}

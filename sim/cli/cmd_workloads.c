/* uvmsim workloads: the generator catalog (docs/workloads.md). */
#include <stdio.h>
#include "cli.h"
#include "workloads/workload.h"

static const char usage_workloads[] =
    "usage: uvmsim workloads\n"
    "\n"
    "List every workload generator (workload.kind) with its source kernel,\n"
    "footprint formula and parameters (workload.<kind>.<param>: default,\n"
    "range, meaning), as Markdown (docs/workloads.md is this output).\n";

int cmd_workloads(int argc, char **argv)
{
    if (argc > 0 && is_help(argv[0])) { fputs(usage_workloads, stdout); return EXIT_OK; }
    if (argc > 0) usage_error(usage_workloads, "unexpected argument '%s'", argv[0]);
    wl_list(stdout);
    return EXIT_OK;
}

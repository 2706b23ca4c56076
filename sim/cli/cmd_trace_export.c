/* uvmsim trace export: a workload written out as an Accel-Sim SASS trace
 * (workloads/accelsim_write.c, docs/accelsim.md). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "config/config.h"
#include "workloads/accelsim.h"

static const char usage_export[] =
    "usage: uvmsim trace export CONFIG -o DIR [-s KEY=VALUE]...\n"
    "\n"
    "Run CONFIG's workload functionally and write it as an Accel-Sim trace into\n"
    "the folder DIR (created if missing): kernelslist.g, kernel-N.traceg and\n"
    "allocs.txt, replayed by workload.kind=accelsim with\n"
    "workload.accelsim.file=DIR/kernelslist.g workload.accelsim.allocs=DIR/allocs.txt.\n";

int cmd_trace_export(int argc, char **argv)
{
    struct opts o = {0};
    parse_opts(argc, argv, &o, usage_export, true);
    if (!o.out) usage_error(usage_export, "%s", "missing -o DIR");
    struct config *cfg = load_or_exit(&o);
    if (mkdir(o.out, 0777) != 0 && errno != EEXIST)
        user_error("-o %s: cannot create the folder: %s", o.out, strerror(errno));
    struct workload *wl = workload_create(cfg);
    accelsim_export(wl, o.out);
    workload_free(wl);
    config_free(cfg);
    return EXIT_OK;
}

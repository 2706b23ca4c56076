/* uvmsim trace export: a workload written out as an Accel-Sim SASS trace
 * (workloads/accelsim_write.c, docs/accelsim.md). */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "config/config.h"
#include "core/text.h"
#include "workloads/accelsim.h"

/* A trace holds every lane address of every memory instruction as text,
 * tens of bytes per access: a whole default GUPS run is about 16 GB. */
#define EXPORT_MAX_DEFAULT "4GiB"

static const char usage_export[] =
    "usage: uvmsim trace export CONFIG -o DIR [--max-size SIZE] [-s KEY=VALUE]...\n"
    "\n"
    "Run CONFIG's workload functionally and write it as an Accel-Sim trace into\n"
    "the folder DIR (created if missing): kernelslist.g, kernel-N.traceg and\n"
    "allocs.txt, replayed by workload.kind=accelsim with\n"
    "workload.accelsim.file=DIR/kernelslist.g workload.accelsim.allocs=DIR/allocs.txt.\n"
    "\n"
    "  --max-size SIZE   refuse (keeping nothing) a trace larger than SIZE\n"
    "                    (default " EXPORT_MAX_DEFAULT "; 0: no limit)\n";


/* Takes --max-size SIZE out of argv; returns the new argc. */
static int take_max_size(int argc, char **argv, uint64_t *max)
{
    static const struct cfg_key k = { "--max-size", CFG_SIZE, EXPORT_MAX_DEFAULT, 0, 1.8e19,
                                      NULL, "" };
    char why[256];
    struct cfg_value v;
    memset(&v, 0, sizeof v);
    if (!cfg_parse(&k, EXPORT_MAX_DEFAULT, &v, why, sizeof why)) abort();
    *max = v.u;
    int n = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--max-size")) { argv[n++] = argv[i]; continue; }
        if (i + 1 >= argc) usage_error(usage_export, "%s", "--max-size needs a size (e.g. 1GiB; 0 for no limit)");
        memset(&v, 0, sizeof v);
        if (!cfg_parse(&k, argv[++i], &v, why, sizeof why)) {
            char esc[256];
            text_escape(esc, sizeof esc, argv[i]);
            user_error("--max-size '%s': %s", esc, why);
        }
        *max = v.u;
    }
    return n;
}

int cmd_trace_export(int argc, char **argv)
{
    struct opts o = {0};
    uint64_t max;
    argc = take_max_size(argc, argv, &max);
    parse_opts(argc, argv, &o, usage_export, true);
    if (!o.out) usage_error(usage_export, "%s", "missing -o DIR");
    struct config *cfg = load_or_exit(&o);
    if (mkdir(o.out, 0777) != 0 && errno != EEXIST)
        user_error("-o %s: cannot create the folder: %s", o.out, strerror(errno));
    struct workload *wl = workload_create(cfg);
    accelsim_export(wl, o.out, max);
    workload_free(wl);
    config_free(cfg);
    return EXIT_OK;
}

/* uvmsim report: a run's (or a sweep's) HTML page. */
#include <stdio.h>
#include <hdf5.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "core/text.h"
#include "report/report.h"

static const char usage_report[] =
    "usage: uvmsim report RESULT.h5|SWEEP_DIR|sweep.h5 [-o REPORT.html]\n"
    "                     [--normalize-to AXIS=VALUE|none] [--x AXIS]\n"
    "\n"
    "Write one self-contained HTML page (inline SVG plots, no script, viewable\n"
    "offline): for a run, its config, headline statistics, time series (IPC,\n"
    "faults, resident pages, link bandwidth per direction), the batch timeline\n"
    "and batch size/time distributions, eviction and residency histograms; for a\n"
    "sweep, grouped bar charts as the papers draw them, the table of its points\n"
    "and their plots (docs/report.md).  REPORT.html appears only when it is whole;\n"
    "stderr then names it (and says when it replaced a file of that name).\n"
    "\n"
    "  -o REPORT.html             where to write the page (default: report.html)\n"
    "  --normalize-to AXIS=VALUE  sweep: one bar per value of AXIS in each group,\n"
    "                             divided by the bar of VALUE, with a geometric-mean\n"
    "                             group (default: driver.eviction=lru when the sweep\n"
    "                             has it, else the first axis and its first value);\n"
    "                             none: the same bars, not normalised\n"
    "  --x AXIS                   sweep: the axis along x, one group per value\n"
    "                             (default: the first workload.* axis, else the\n"
    "                             axis with the most values)\n";

int cmd_report(int argc, char **argv)
{
    const char *in = NULL, *out = "report.html";
    struct report_opts o = { NULL, NULL };
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) { fputs(usage_report, stdout); return EXIT_OK; }
        if (!strcmp(argv[i], "-o")) {
            if (i + 1 >= argc) usage_error(usage_report, "%s needs a file name", "-o");
            out = argv[++i];
        } else if (!strcmp(argv[i], "--normalize-to") || !strcmp(argv[i], "--x")) {
            if (i + 1 >= argc) usage_error(usage_report, "%s needs a value", argv[i]);
            if (argv[i][2] == 'n') o.normalize_to = argv[i + 1];
            else o.x = argv[i + 1];
            i++;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            usage_error(usage_report, "unknown option '%s'", argv[i]);
        } else if (!in) {
            in = argv[i];
        } else {
            usage_error(usage_report, "unexpected argument '%s'", argv[i]);
        }
    }
    if (!in) usage_error(usage_report, "%s", "missing RESULT.h5 or SWEEP_DIR");
    char err[1024];
    H5dont_atexit();               /* as cmd_sweep.c: no shutdown noise */
    bool existed = access(out, F_OK) == 0;
    int rc = report_write(in, out, &o, err, sizeof err);
    if (rc) {
        char esc[4096];            /* a damaged file's names: one line, escaped */
        text_escape(esc, sizeof esc, err);
        fprintf(stderr, "uvmsim: report: %s\n", esc);
    } else {
        /* One line on stderr, as `run` names the result it wrote. */
        char eo[1200], ei[1200];
        text_escape(eo, sizeof eo, out);
        text_escape(ei, sizeof ei, in);
        fprintf(stderr, "uvmsim: wrote %s (the report of %s%s)\n", eo, ei,
                existed ? "; it replaced the file of that name" : "");
    }
    return rc == 2 ? EXIT_USER : rc ? EXIT_INTERNAL : EXIT_OK;
}

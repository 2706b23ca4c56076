/* uvmsim report: a run's (or a sweep's) HTML page. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "report/report.h"

static const char usage_report[] =
    "usage: uvmsim report RESULT.h5|SWEEP_DIR|sweep.h5 -o REPORT.html\n"
    "\n"
    "Write one self-contained HTML page (inline SVG plots, no script, viewable\n"
    "offline): for a run, its config, headline statistics, time series (IPC,\n"
    "faults, resident pages, link bandwidth per direction), the batch timeline\n"
    "and batch size/time distributions, eviction and residency histograms; for a\n"
    "sweep, the comparison table of its points and their plots (docs/report.md).\n"
    "REPORT.html appears only when it is whole.\n"
    "\n"
    "  -o REPORT.html   where to write the page (default: report.html)\n";

int cmd_report(int argc, char **argv)
{
    const char *in = NULL, *out = "report.html";
    for (int i = 0; i < argc; i++) {
        if (is_help(argv[i])) { fputs(usage_report, stdout); return EXIT_OK; }
        if (!strcmp(argv[i], "-o")) {
            if (i + 1 >= argc) usage_error(usage_report, "%s needs a file name", "-o");
            out = argv[++i];
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
    int rc = report_write(in, out, err, sizeof err);
    if (rc) fprintf(stderr, "uvmsim: report: %s\n", err);
    return rc == 2 ? EXIT_USER : rc ? EXIT_INTERNAL : EXIT_OK;
}

/* uvmsim command line: the table of commands.  Each command lives in its
 * own cmd_*.c; adding one is a file and a row here. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "core/text.h"

struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *synopsis;
};

static const struct command commands[] = {
    {"run", cmd_run,
     "run CONFIG [-o OUT.h5] [-s KEY=VALUE]... [--seed N] [--quiet] [--no-host-metrics]\n"
     "      [--trace OUT.json [--trace-window T0:T1] [--trace-what LIST] [--trace-max SIZE]]\n"
     "                       simulate and write an HDF5 result (and a Chrome/Perfetto trace)"},
    {"step", cmd_step,
     "step CONFIG [-s KEY=VALUE]... [< COMMANDS]\n"
     "                       step through the simulation: run until a fault, show any component"},
    {"config", cmd_config,
     "config show CONFIG [-s KEY=VALUE]...   print the fully resolved config\n"
     "  config check CONFIG [-s KEY=VALUE]...  validate a config\n"
     "  config doc                             print the reference of every key"},
    {"profile", cmd_profile,
     "profile CONFIG -o PROFILE [-s KEY=VALUE]...\n"
     "                       profiling pass of static placement: references per allocation,\n"
     "                       memory accesses per page (driver.place.profile)"},
    {"replay", cmd_replay,
     "replay --pages FILE --frames N --policy NAME [-s KEY=VALUE]...\n"
     "                       page-reference trace through an eviction policy, no timing"},
    {"dram-replay", cmd_dram_replay,
     "dram-replay CONFIG TRACE [-s KEY=VALUE]...\n"
     "                       replay a request trace into the configured GPU memory"},
    {"link-bench", cmd_link_bench,
     "link-bench CONFIG [-s KEY=VALUE]...\n"
     "                       time 4 KiB..32 MiB copies over the configured link"},
    {"workloads", cmd_workloads,
     "workloads              list every workload, its parameters and footprint"},
    {"report", cmd_report,
     "report RESULT.h5|SWEEP_DIR -o REPORT.html\n"
     "                       one self-contained HTML page with plots of a run or a sweep"},
    {"trace", cmd_trace,
     "trace convert IN.txt OUT.bin           NVBit mem_trace text to uvmsim binary"},
    {"sweep", cmd_sweep,
     "sweep plan|run|slurm|merge SWEEP.yaml -o DIR [-j N]\n"
     "                       run one config over many points (docs/sweeps.md)"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *out)
{
    fputs("usage: uvmsim COMMAND [ARGS]\n\ncommands:\n", out);
    for (size_t i = 0; i < NCOMMANDS; i++) fprintf(out, "  %s\n", commands[i].synopsis);
    fputs("\n  uvmsim COMMAND --help   help on one command\n"
          "  uvmsim --version        print the version and the model revision\n"
          "\nexit status: 0 success, 2 user error, 3 simulation aborted\n", out);
}

int main(int argc, char **argv)
{
    if (argc < 2) { usage(stderr); return EXIT_USER; }
    const char *cmd = argv[1];
    if (is_help(cmd) || !strcmp(cmd, "help")) { usage(stdout); return EXIT_OK; }
    if (!strcmp(cmd, "--version")) { printf("uvmsim %s (model revision %d)\n", UVMSIM_VERSION, UVMSIM_MODEL_REVISION); return EXIT_OK; }
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(cmd, commands[i].name)) return commands[i].fn(argc - 2, argv + 2);
    char esc[512];
    text_escape(esc, sizeof esc, cmd);
    fprintf(stderr, "uvmsim: unknown command '%s'\n", esc);
    usage(stderr);
    return EXIT_USER;
}

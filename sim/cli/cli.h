/* Shared pieces of the command line: option parsing, usage errors, and
 * the commands (one file each: cmd_*.c). */
#ifndef UVMSIM_CLI_H
#define UVMSIM_CLI_H

#include "core/base.h"

struct config;

#define MAX_SETS 256

struct opts {
    const char *config, *out;
    const char *sets[MAX_SETS];
    size_t nsets;
    bool quiet, no_host;
    char seed_set[64];
};

/* Prints "uvmsim: " fmt(arg), the usage, and exits 2. */
void usage_error(const char *usage, const char *fmt, const char *arg)
    __attribute__((noreturn));
bool is_help(const char *a);
/* CONFIG, -s KEY=VALUE, and with run_opts also -o, --seed, --quiet. */
void parse_opts(int argc, char **argv, struct opts *o, const char *usage,
                bool run_opts);
/* The config of o, or the loader's one-line error and exit 2. */
struct config *load_or_exit(const struct opts *o);

int cmd_run(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_dram_replay(int argc, char **argv);
int cmd_link_bench(int argc, char **argv);
int cmd_workloads(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_trace_export(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_step(int argc, char **argv);
/* The stepper (cmd_step.c) without a terminal, for the fuzz harness:
 * a machine of CFG at t=0 (CFG stays the caller's), then the commands of
 * IN, one a line, answered on OUT (tty: prompt and repeat as on a
 * terminal, else each line echoed). */
struct stepper;
struct stepper *stepper_new(struct config *cfg);
void stepper_session(struct stepper *s, FILE *in, FILE *out, bool tty);
void stepper_free(struct stepper *s);
int cmd_sweep(int argc, char **argv);
int cmd_profile(int argc, char **argv);

#endif

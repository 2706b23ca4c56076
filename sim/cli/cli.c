/* Option parsing shared by the commands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "config/config.h"
#include "core/text.h"

/* ARG is what the user typed: escaped like every other message. */
void usage_error(const char *usage, const char *fmt, const char *arg)
{
    char msg[1024], esc[2048];
    snprintf(msg, sizeof msg, fmt, arg);
    text_escape(esc, sizeof esc, msg);
    fprintf(stderr, "uvmsim: %s\n%s", esc, usage);
    exit(EXIT_USER);
}

bool is_help(const char *a) { return !strcmp(a, "--help") || !strcmp(a, "-h"); }

/* Parses CONFIG, -o, -s, --seed, --quiet, --no-host-metrics; run_opts says
 * whether the options of `run` apply. */
void parse_opts(int argc, char **argv, struct opts *o, const char *usage,
                  bool run_opts)
{
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (is_help(a)) { fputs(usage, stdout); exit(EXIT_OK); }
        bool has_val = i + 1 < argc;
        if (!strcmp(a, "-s")) {
            if (!has_val) usage_error(usage, "%s needs KEY=VALUE", a);
            if (o->nsets == MAX_SETS) usage_error(usage, "too many %s options", a);
            o->sets[o->nsets++] = argv[++i];
        } else if (run_opts && !strcmp(a, "-o")) {
            if (!has_val) usage_error(usage, "%s needs a file name", a);
            o->out = argv[++i];
        } else if (run_opts && !strcmp(a, "--seed")) {
            if (!has_val) usage_error(usage, "%s needs a number", a);
            if (o->nsets == MAX_SETS) usage_error(usage, "too many %s options", a);
            snprintf(o->seed_set, sizeof o->seed_set, "sim.seed=%s", argv[++i]);
            o->sets[o->nsets++] = o->seed_set;
        } else if (run_opts && !strcmp(a, "--quiet")) {
            o->quiet = true;
        } else if (run_opts && !strcmp(a, "--no-host-metrics")) {
            o->no_host = true;
        } else if (a[0] == '-' && a[1]) {
            usage_error(usage, "unknown option '%s'", a);
        } else if (!o->config) {
            o->config = a;
        } else {
            usage_error(usage, "unexpected argument '%s'", a);
        }
    }
    if (!o->config) usage_error(usage, "%s", "missing CONFIG");
}

struct config *load_or_exit(const struct opts *o)
{
    struct cfg_error err;
    struct config *c = config_load(o->config, o->sets, o->nsets, &err);
    if (!c) user_error_line(err.msg);
    return c;
}

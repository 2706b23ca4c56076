/* uvmsim config show|check|doc */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "config/config.h"
#include "system.h"

static const char usage_config[] =
    "usage: uvmsim config show CONFIG [-s KEY=VALUE]...\n"
    "       uvmsim config check CONFIG [-s KEY=VALUE]...\n"
    "       uvmsim config doc\n"
    "\n"
    "show: print the fully resolved config (every key, defaults included),\n"
    "      as YAML that loads back to the same config.\n"
    "check: validate; prints 'ok' or the first error (exit 2).  Runs every\n"
    "       check `run` makes before simulating: it builds the machine and\n"
    "       the workload (reading graph and trace files) and writes nothing.\n"
    "doc: print the Markdown reference of every key (docs/config.md).\n";

/* The checks `run` makes before simulating are those of building the
 * machine: build it, then throw it away.  The one file a build writes
 * (driver.evict.record, opened for writing) is checked for access instead
 * of being truncated. */
static void check_by_building(struct config *c)
{
    const struct cfg_value *rec = cfg_get(c, "driver.evict.record");
    user_error_set_locator(cfg_locate_message, c);
    if (rec->text[0]) {
        char *dir = xstrdup(rec->text);
        char *slash = strrchr(dir, '/');
        if (slash) slash[slash == dir] = '\0';
        const char *d = slash ? dir : ".";
        bool ok = access(rec->text, F_OK) == 0 ? access(rec->text, W_OK) == 0
                                                : access(d, W_OK) == 0;
        if (!ok) {
            int e = errno;
            free(dir);
            user_error("driver.evict.record: cannot write '%s': %s", rec->text, strerror(e));
        }
        free(dir);
        struct cfg_error err;
        if (!config_set(c, "driver.evict.record", "", NULL, 0, 0, &err))
            sim_panic("config", 0, "%s", err.msg);
    }
    system_free(system_build(c));
}

int cmd_config(int argc, char **argv)
{
    if (argc < 1 || is_help(argv[0])) {
        fputs(usage_config, argc < 1 ? stderr : stdout);
        return argc < 1 ? EXIT_USER : EXIT_OK;
    }
    const char *sub = argv[0];
    if (!strcmp(sub, "doc")) {
        if (argc > 1 && is_help(argv[1])) { fputs(usage_config, stdout); return EXIT_OK; }
        config_doc(stdout);
        return EXIT_OK;
    }
    if (strcmp(sub, "show") && strcmp(sub, "check"))
        usage_error(usage_config, "unknown config command '%s'", sub);
    struct opts o = {0};
    parse_opts(argc - 1, argv + 1, &o, usage_config, false);
    struct config *c = load_or_exit(&o);
    if (!strcmp(sub, "show")) {
        char *y = config_to_yaml(c);
        fputs(y, stdout);
        free(y);
    } else {
        check_by_building(c);
        printf("%s: ok\n", o.config);
    }
    config_free(c);
    return EXIT_OK;
}

/* uvmsim config show|check|doc */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "config.h"

static const char usage_config[] =
    "usage: uvmsim config show CONFIG [-s KEY=VALUE]...\n"
    "       uvmsim config check CONFIG [-s KEY=VALUE]...\n"
    "       uvmsim config doc\n"
    "\n"
    "show: print the fully resolved config (every key, defaults included),\n"
    "      as YAML that loads back to the same config.\n"
    "check: validate; prints 'ok' or the first error (exit 2).\n"
    "doc: print the Markdown reference of every key (docs/config.md).\n";

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
        printf("%s: ok\n", o.config);
    }
    config_free(c);
    return EXIT_OK;
}

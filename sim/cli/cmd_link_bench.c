/* uvmsim link-bench: copy times over the configured CPU-GPU link. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "config/config.h"
#include "link/link.h"

static const char usage_link_bench[] =
    "usage: uvmsim link-bench CONFIG [-s KEY=VALUE]...\n"
    "\n"
    "Time one host-to-device and one device-to-host copy of 4 KiB, 64 KiB,\n"
    "2 MiB and 32 MiB over the link of CONFIG (link.* keys, host memory\n"
    "host.dram.*), each alone, from issue to landing, as a pinned cudaMemcpy\n"
    "would see it; print the times and GB/s (10^9 B/s).  See docs/validation.md.\n";

int cmd_link_bench(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (is_help(argv[i])) { fputs(usage_link_bench, stdout); return EXIT_OK; }
    struct opts o = {0};
    parse_opts(argc, argv, &o, usage_link_bench, false);
    struct config *cfg = load_or_exit(&o);
    static const uint64_t sizes[] = { 4096, 65536, 2u << 20, 32u << 20 };
    enum { N = sizeof sizes / sizeof sizes[0] };
    struct link_bench_row rows[N];
    link_bench_run(cfg, sizes, N, rows);
    link_bench_print(stdout, cfg, rows, N);
    config_free(cfg);
    return EXIT_OK;
}

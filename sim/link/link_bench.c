/* link-bench: copies of a few sizes over the configured link, each alone
 * on a fresh link with host memory attached (the system's path: H2D data
 * read from host DDR4, D2H data written into it), timed from issue to
 * landing like a pinned cudaMemcpy: the figures of docs/validation.md. */
#include <stdlib.h>
#include "link_int.h"
#include "config/config.h"
#include "core/stats.h"
#include "core/mem_req.h"
#include "dram/dram.h"

static void landed(void *obj, uint64_t arg, sim_time now)
{
    (void)arg;
    *(sim_time *)obj = now;
}

static sim_time one_copy(const struct config *cfg, enum link_dir dir, uint64_t bytes)
{
    struct engine_limits lim = { 0, 0, 0 };
    struct engine *e = engine_new(&lim);
    struct stats *st = stats_new();
    struct req_pool pool;
    req_pool_init(&pool);
    /* Domain order as in system.c: link before host memory. */
    struct domain ldom = { "link", 1, 2 }, hdom = { "host", hostmem_period(cfg), 4 };
    /* The host memory of the run's model where only copies use it
     * (sim.model, system_model.c's copy_host_memory; the link room does
     * not see the models' table, as dram_replay.c does not). */
    struct dram *host = cfg_is(cfg, "sim.model", "fast") ? hostmem_fast_create(e, cfg, st, &hdom)
                                                       : hostmem_create(e, cfg, st, &hdom);
    struct link *l = link_create(e, cfg, st, &ldom);
    link_attach_host(l, host, &pool);
    sim_time t = 0;
    link_transfer(l, dir, bytes, 0, landed, &t, 0);
    engine_run(e);
    link_free(l);
    dram_free(host);
    req_pool_free(&pool);
    stats_free(st);
    engine_free(e);
    return t;
}

void link_bench_run(const struct config *cfg, const uint64_t *sizes, size_t n,
                    struct link_bench_row *rows)
{
    for (size_t i = 0; i < n; i++)
        rows[i] = (struct link_bench_row){ sizes[i], one_copy(cfg, LINK_H2D, sizes[i]),
                                           one_copy(cfg, LINK_D2H, sizes[i]) };
}

static void size_text(char *buf, size_t n, uint64_t b)
{
    if (b % 1048576 == 0) snprintf(buf, n, "%lluMiB", (unsigned long long)(b >> 20));
    else if (b % 1024 == 0) snprintf(buf, n, "%lluKiB", (unsigned long long)(b >> 10));
    else snprintf(buf, n, "%lluB", (unsigned long long)b);
}

void link_bench_print(FILE *out, const struct config *cfg, const struct link_bench_row *rows,
                      size_t n)
{
    struct engine_limits lim = { 0, 0, 0 };
    struct engine *e = engine_new(&lim);
    struct stats *st = stats_new();
    struct domain ldom = { "link", 1, 2 };
    struct link *l = link_create(e, cfg, st, &ldom);
    fprintf(out, "link        %.3f GB/s raw, encoding %s, DLLP interval %llu B: "
            "%.3f GB/s of packets each way\n", l->bw / 1e9, cfg_str(cfg, "link.encoding"),
            (unsigned long long)cfg_u64(cfg, "link.dllp_interval"), l->rate / 1e9);
    fprintf(out, "packets     4 KiB H2D %llu B on the wire (%.1f %%), D2H %llu B (%.1f %%); "
            "latency %.3f us\n",
            (unsigned long long)link_wire_bytes(l, LINK_H2D, 4096),
            100 * link_efficiency(l, LINK_H2D, 4096),
            (unsigned long long)link_wire_bytes(l, LINK_D2H, 4096),
            100 * link_efficiency(l, LINK_D2H, 4096), (double)l->latency / 1e6);
    fprintf(out, "%-10s  %12s %9s  %12s %9s\n", "copy", "H2D", "GB/s", "D2H", "GB/s");
    for (size_t i = 0; i < n; i++) {
        char sz[32];
        size_text(sz, sizeof sz, rows[i].bytes);
        fprintf(out, "%-10s  %9.3f us %9.3f  %9.3f us %9.3f\n", sz,
                (double)rows[i].h2d / 1e6, (double)rows[i].bytes / (double)rows[i].h2d * 1e3,
                (double)rows[i].d2h / 1e6, (double)rows[i].bytes / (double)rows[i].d2h * 1e3);
    }
    link_free(l);
    stats_free(st);
    engine_free(e);
}

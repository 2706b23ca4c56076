/* One L2 slice in front of one GDDR channel, host DDR4 and the link with
 * the remote path on, driven directly by a test (test_remote.c,
 * test_selcache.c): the machine the remote-path timelines are derived on.
 * `cpu` is the selective-caching CPU side when a test attaches one. */
#ifndef REMOTE_BENCH_H
#define REMOTE_BENCH_H
#include <check.h>
#include <string.h>
#include "config/config.h"
#include "core/stats.h"
#include "core/engine.h"
#include "core/mem_req.h"
#include "dram/dram.h"
#include "l2/l2.h"
#include "link/link.h"

struct bench {
    struct config *c;
    struct engine *e;
    struct stats *st;
    struct req_pool pool;
    struct domain core, dd, ld, hd;
    struct dram *d, *host;
    struct l2 *l;
    struct link *link;
    struct link_cpu *cpu;          /* NULL unless the test attaches one */
    struct mq reply;
};

static void bench_send_remote(void *ctx, struct mem_req *r, sim_time now)
{
    link_remote_send(ctx, r, now);
}

/* base[] then extra[] as -s settings (at most 32 in all). */
static void bench_setup(struct bench *b, const char *const *base, size_t nb,
                        const char *const *extra, size_t n)
{
    const char *sets[32];
    ck_assert_uint_le(nb + n, 32);
    memcpy(sets, base, nb * sizeof *base);
    if (n) memcpy(sets + nb, extra, n * sizeof *extra);
    struct cfg_error err;
    struct engine_limits lim = { 0, 0, 0 };
    memset(b, 0, sizeof *b);
    b->c = config_load(NULL, sets, nb + n, &err);
    if (!b->c) ck_abort_msg("config: %s", err.msg);
    b->e = engine_new(&lim);
    b->st = stats_new();
    req_pool_init(&b->pool);
    b->core = (struct domain){ "core", cfg_period(b->c, "gpu.clock"), 0 };
    b->dd = (struct domain){ "dram", cfg_period(b->c, "dram.clock"), 1 };
    b->ld = (struct domain){ "link", 1, 2 };
    b->hd = (struct domain){ "host", hostmem_period(b->c), 4 };
    b->d = dram_create(b->e, b->c, b->st, &b->dd);
    b->host = hostmem_create(b->e, b->c, b->st, &b->hd);
    b->l = l2_create(b->e, b->c, b->st, &b->pool, &b->core, b->d);
    b->link = link_create(b->e, b->c, b->st, &b->ld);
    link_attach_host(b->link, b->host, &b->pool);
    link_remote_enable(b->link);
    l2_set_remote(b->l, b->st, bench_send_remote, b->link);
    mq_init(&b->reply, "reply", 4096, 0, NULL);
}

static void bench_free(struct bench *b)
{
    mq_free(&b->reply);
    if (b->cpu) link_cpu_free(b->cpu);
    link_free(b->link);
    l2_free(b->l);
    dram_free(b->host);
    dram_free(b->d);
    ck_assert_uint_eq(b->pool.live, 0);
    req_pool_free(&b->pool);
    stats_free(b->st);
    engine_free(b->e);
    config_free(b->c);
}

static uint64_t bstat(struct bench *b, const char *name)
{
    const struct stat_entry *s = stats_find(b->st, name);
    ck_assert_msg(s != NULL, "no stat %s", name);
    return *s->p.u;
}
#endif

/* The timed driver on the translation rig (as test_driver.c): walks go
 * straight into the real walker (fixed 8-cycle walks at 1 GHz); the real
 * link carries the copies, pinned to a bare packet model in both
 * directions (no line code, no DLLPs, completions as large and with the
 * same header as writes): a 4 KiB page is 16 TLPs of 256 B + 24 B = 4480 B
 * on a 16 GB/s wire = 280 ns and lands 1 us (link.latency) later; an H2D
 * copy also puts one 24 B read request per 4 KiB (1.5 ns) on the D2H
 * wire.  The driver's clock domain has a 1 ps period, so its steps fall
 * exactly on the events that wake it. */
#ifndef UVMSIM_TEST_DRV_RIG_H
#define UVMSIM_TEST_DRV_RIG_H

#include <stdlib.h>
#include "xlate_rig.h"
#include "driver/driver.h"

#define US 1000000ULL
#define PAGE_WIRE_PS 280000ULL      /* 4480 B at 16 GB/s */
#define RREQ_PS 1500ULL             /* a 24 B read request at 16 GB/s */
#define FAULT_PS (20 * US)
#define LAT_PS (1 * US)

struct drig { struct rig *r; struct driver *d; struct domain dom; };

static inline struct drig *drig_new(const char *const *extra, size_t nextra)
{
    static const char *const base[] = {
        "gmmu.walker.mode=fixed", "gmmu.walk_latency=8", "gmmu.interrupt_latency=0ns",
        "driver.fault_latency=20us", "link.bandwidth=16GB/s", "link.latency=1us",
        "link.ce_setup=0ns", "link.encoding=none", "link.dllp_interval=0", "link.rcb=0",
        "link.completion_header=24B", "link.max_read_request=4KiB",
        "gmmu.access_counters.enabled=false",
        "gpu.memory.capacity=4MiB",
    };
    const char *sets[40];
    size_t n = 0;
    for (size_t i = 0; i < NSETS(base); i++) sets[n++] = base[i];
    for (size_t i = 0; i < nextra && n < 40; i++) sets[n++] = extra[i];
    struct drig *g = calloc(1, sizeof *g);
    g->r = rig_new(sets, n, 2, 1);
    g->dom = (struct domain){ "driver", 1, 3 };
    g->d = driver_create(g->r->e, g->r->cfg, g->r->st, &g->dom, g->r->gmmu, g->r->tlb,
                         g->r->link, 0);
    return g;
}

static inline void drig_free(struct drig *g)
{
    driver_free(g->d);
    rig_free(g->r);
    free(g);
}

/* Field f of row i of the record table `table` (every field 8 bytes). */
static inline uint64_t drig_row(const struct rig *r, const char *table, size_t i, const char *f)
{
    for (size_t t = 0; t < stats_table_count(r->st); t++) {
        const struct rec_table *tb = stats_table_at(r->st, t);
        if (strcmp(tb->name, table)) continue;
        ck_assert_uint_lt(i, tb->nrows);
        for (size_t k = 0; k < tb->nfields; k++)
            if (!strcmp(tb->fields[k].name, f)) {
                uint64_t v;
                memcpy(&v, tb->rows + i * tb->row_bytes + k * 8, 8);
                return v;
            }
    }
    ck_abort_msg("no %s.%s", table, f);
    return 0;
}

#endif

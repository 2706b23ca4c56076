/* FIFO by residency: the real driver's root-chunk list ordered by
 * allocation, which GPU accesses never refresh (what the HPE and
 * batch-aware papers call age-based LRU).  Skeleton: at page granularity. */
#include <stdlib.h>
#include "evict.h"

struct fifo {
    uint64_t *ring;
    uint64_t cap, head, n;
};

static void *fifo_create(const struct config *cfg, uint64_t capacity)
{
    (void)cfg;
    struct fifo *f = xcalloc(1, sizeof *f);
    f->cap = capacity;
    f->ring = xcalloc(capacity, sizeof *f->ring);
    return f;
}

static void fifo_on_resident(void *p, uint64_t vpn)
{
    struct fifo *f = p;
    if (f->n == f->cap) sim_panic("evict.fifo", 0, "more resident pages than frames");
    f->ring[(f->head + f->n++) % f->cap] = vpn;
}

static bool fifo_victim(void *p, uint64_t *vpn)
{
    struct fifo *f = p;
    if (!f->n) return false;
    *vpn = f->ring[f->head];
    f->head = (f->head + 1) % f->cap;
    f->n--;
    return true;
}

static void fifo_destroy(void *p)
{
    struct fifo *f = p;
    free(f->ring);
    free(f);
}

const struct evict_ops evict_fifo_ops = {
    .name = "fifo", .create = fifo_create, .on_resident = fifo_on_resident,
    .touch = NULL, .victim = fifo_victim, .destroy = fifo_destroy,
};

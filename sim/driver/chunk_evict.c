/* The chunk-level eviction table (driver.evict_unit chunk, drv_internal.h
 * struct chunk_evict_ops): adding a policy is one file and one line here.
 * fifo is the real driver's own: the root chunk at the head of the
 * age-ordered list (uvm_pmm_gpu.c pick_root_chunk_to_evict). */
#include <string.h>
#include "drv_internal.h"

static bool fifo_victim(struct driver *d, uint32_t *r)
{
    return pmm_root_victim(&d->mem.pmm, r);
}

static const struct chunk_evict_ops chunk_evict_fifo_ops = { "fifo", NULL, NULL, fifo_victim };

/* Park et al.'s pinning and shuffling (perf/drv_cyclic.c) modified the real
 * driver's root-chunk list, so it works over fifo's roots. */
static void cyclic_create(struct driver *d, const struct config *cfg, struct stats *st)
{
    d->pol.cyc = drv_cyclic_create(cfg, d->mem.capacity / VA_BLOCK_PAGES, st, &d->mem.pmm,
                               d->mem.resroot);
}

static bool cyclic_victim(struct driver *d, uint32_t *r)
{
    return drv_cyclic_victim(d->pol.cyc, &d->mem.pmm, r);
}

static const struct chunk_evict_ops chunk_evict_cyclic_ops = { "cyclic", "fifo", cyclic_create,
                                                               cyclic_victim };

static const struct chunk_evict_ops *const policies[] = {
    &chunk_evict_fifo_ops,
    &chunk_evict_cyclic_ops,
    NULL,
};

const struct chunk_evict_ops *chunk_evict_find(const char *name)
{
    for (size_t i = 0; policies[i]; i++)
        if (!strcmp(policies[i]->name, name)) return policies[i];
    return NULL;
}

const struct chunk_evict_ops *chunk_evict_at(size_t i)
{
    return i < sizeof policies / sizeof policies[0] ? policies[i] : NULL;
}

/* Private to sim/driver: the eviction policy ops table.  A policy sees
 * pages become resident and chooses victims among them; adding a policy is
 * one file and one entry in evict_policies[]. */
#ifndef UVMSIM_DRIVER_EVICT_H
#define UVMSIM_DRIVER_EVICT_H

#include "../base.h"

struct config;

struct evict_ops {
    const char *name;
    void *(*create)(const struct config *cfg, uint64_t capacity_pages);
    void (*on_resident)(void *p, uint64_t vpn);  /* page mapped on the GPU */
    /* A GPU access to a resident page; NULL for policies that ignore
     * accesses (FIFO: the real driver's list is not refreshed by them). */
    void (*touch)(void *p, uint64_t vpn);
    /* Choose and forget a victim; false when no page can be evicted. */
    bool (*victim)(void *p, uint64_t *vpn);
    void (*destroy)(void *p);
};

extern const struct evict_ops evict_fifo_ops;
extern const struct evict_ops evict_lru_ops;
extern const struct evict_ops evict_random_ops;

const struct evict_ops *evict_find(const char *name);

/* NULL-terminated, in the order of the driver.eviction choices. */
extern const struct evict_ops *const evict_policies[];

#endif

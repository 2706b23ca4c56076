/* Private to sim/driver: a growable map from page number to a count, for
 * per-page histories that span the footprint rather than the GPU memory
 * (the cyclic-thrashing detector's eviction counts).  Linear probing,
 * doubled when half full; only ever grows (entries are never erased). */
#ifndef UVMSIM_DRIVER_COUNT_MAP_H
#define UVMSIM_DRIVER_COUNT_MAP_H

#include "../base.h"

struct count_map {
    uint64_t *key;
    uint32_t *val;
    size_t mask, n;
};

void count_map_init(struct count_map *m);
void count_map_free(struct count_map *m);
uint32_t count_map_get(const struct count_map *m, uint64_t vpn);   /* 0 if absent */
uint32_t count_map_inc(struct count_map *m, uint64_t vpn);         /* the new count */

#endif

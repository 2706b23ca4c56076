/* Private to sim/driver: a map from virtual page number to a small slot
 * index, O(1) expected for find, insert and erase (linear probing with
 * backward-shift deletion, so no tombstones accumulate).  It is sized for
 * the entries its owner expects (the GPU's frame count for a policy that
 * maps every resident page, fewer for sparse uses) and doubles when half
 * full, so its memory follows what it holds, never the footprint. */
#ifndef UVMSIM_DRIVER_PAGE_MAP_H
#define UVMSIM_DRIVER_PAGE_MAP_H

#include "core/base.h"

#define PAGE_MAP_NONE UINT32_MAX

struct page_map {
    uint64_t *key;
    uint32_t *val;
    size_t mask, n;
};

void page_map_init(struct page_map *m, size_t max_entries);
void page_map_free(struct page_map *m);
/* Bytes held (docs/performance.md's accounting). */
size_t page_map_bytes(const struct page_map *m);
uint32_t page_map_get(const struct page_map *m, uint64_t vpn);
void page_map_put(struct page_map *m, uint64_t vpn, uint32_t v);
void page_map_erase(struct page_map *m, uint64_t vpn);

#endif

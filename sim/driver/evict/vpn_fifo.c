#include <stdlib.h>
#include "vpn_fifo.h"

void vpn_fifo_init(struct vpn_fifo *f, uint64_t depth)
{
    f->depth = depth;
    f->head = f->n = 0;
    f->ring = xcalloc(depth ? depth : 1, sizeof *f->ring);
    page_map_init(&f->map, depth);
}

void vpn_fifo_free(struct vpn_fifo *f)
{
    page_map_free(&f->map);
    free(f->ring);
}

void vpn_fifo_push(struct vpn_fifo *f, uint64_t vpn)
{
    if (!f->depth) return;
    uint64_t slot = f->head;
    if (f->n == f->depth) {
        uint64_t old = f->ring[slot];
        if (page_map_get(&f->map, old) == slot) page_map_erase(&f->map, old);
    } else {
        f->n++;
    }
    f->ring[slot] = vpn;
    page_map_put(&f->map, vpn, (uint32_t)slot);
    f->head = (slot + 1) % f->depth;
}

bool vpn_fifo_take(struct vpn_fifo *f, uint64_t vpn)
{
    if (page_map_get(&f->map, vpn) == PAGE_MAP_NONE) return false;
    page_map_erase(&f->map, vpn);
    return true;
}

/* Private to sim/driver: the last N evicted pages, with O(1) "was this page
 * among them" (wrong-eviction detection: the evictor's window and HPE's
 * per-strategy FIFO buffers, Sec. IV-E). */
#ifndef UVMSIM_DRIVER_VPN_FIFO_H
#define UVMSIM_DRIVER_VPN_FIFO_H

#include "driver/mem/mem.h"

struct vpn_fifo {
    uint64_t *ring;
    uint64_t depth, head, n;
    struct page_map map;          /* vpn -> ring slot */
};

void vpn_fifo_init(struct vpn_fifo *f, uint64_t depth);
void vpn_fifo_free(struct vpn_fifo *f);
void vpn_fifo_push(struct vpn_fifo *f, uint64_t vpn);   /* drops the oldest when full */
/* True (and forgets it) when vpn is among the remembered pages. */
bool vpn_fifo_take(struct vpn_fifo *f, uint64_t vpn);

#endif

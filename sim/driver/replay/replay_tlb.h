/* Private to sim/driver: the replay mode's TLB filter.  In the HPE paper
 * the policies see page faults and page-walk hits, i.e. references that
 * missed the TLBs (Sec. IV-A, V-B); a replay trace of raw references can
 * be put through a fully associative LRU TLB of driver.evict.replay_tlb
 * entries so that only its misses reach the policy as walk hits.  Built on
 * the page-LRU policy itself. */
#ifndef UVMSIM_DRIVER_REPLAY_TLB_H
#define UVMSIM_DRIVER_REPLAY_TLB_H

#include "driver/mem/mem.h"

struct config;

struct replay_tlb {
    void *lru;                    /* evict_lru_ops state over TLB entries */
    struct page_map in;           /* pages holding an entry */
    uint64_t entries;
};

void replay_tlb_init(struct replay_tlb *t, const struct config *cfg, uint64_t entries);
void replay_tlb_free(struct replay_tlb *t);
/* A reference: true when it misses (a walk), after which the page holds
 * an entry. */
bool replay_tlb_miss(struct replay_tlb *t, uint64_t vpn);

#endif

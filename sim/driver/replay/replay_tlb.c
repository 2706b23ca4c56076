#include "replay_tlb.h"
#include "driver/evict/evict.h"

void replay_tlb_init(struct replay_tlb *t, const struct config *cfg, uint64_t entries)
{
    t->entries = entries;
    t->lru = evict_lru_ops.create(cfg, entries);
    page_map_init(&t->in, entries);
}

void replay_tlb_free(struct replay_tlb *t)
{
    evict_lru_ops.destroy(t->lru);
    page_map_free(&t->in);
}

bool replay_tlb_miss(struct replay_tlb *t, uint64_t vpn)
{
    if (page_map_get(&t->in, vpn) != PAGE_MAP_NONE) {
        evict_lru_ops.touch(t->lru, vpn);
        return false;
    }
    if (t->in.n == t->entries) {
        uint64_t old;
        evict_lru_ops.victim(t->lru, &old);
        page_map_erase(&t->in, old);
    }
    evict_lru_ops.on_resident(t->lru, vpn);
    page_map_put(&t->in, vpn, 1);
    return true;
}

/* FIFO by residency: the real driver's root-chunk list ordered by
 * allocation, which GPU accesses never refresh (what the HPE and
 * batch-aware papers call age-based LRU).  Skeleton: at page granularity.
 * A page that leaves without being chosen (forget: a prefetch to the host)
 * stays in the ring with a tombstone count, skipped when it comes up and
 * compacted away when the ring is full, so forgetting is O(1) amortised. */
#include <stdlib.h>
#include "evict.h"
#include "driver/mem/mem.h"

struct fifo {
    uint64_t *ring;
    uint64_t cap, head, n;
    struct page_map tomb;         /* vpn -> ring entries of it to skip */
};

static void *fifo_create(const struct config *cfg, uint64_t capacity)
{
    (void)cfg;
    struct fifo *f = xcalloc(1, sizeof *f);
    f->cap = capacity;
    f->ring = xcalloc(capacity, sizeof *f->ring);
    /* Tombstones are rare (a page sent home by a prefetch while in the
     * ring): the map starts small and grows with them. */
    page_map_init(&f->tomb, 64);
    return f;
}

/* Consume one tombstone of vpn if it has one. */
static bool take_tomb(struct fifo *f, uint64_t vpn)
{
    uint32_t t = page_map_get(&f->tomb, vpn);
    if (t == PAGE_MAP_NONE) return false;
    if (t > 1) page_map_put(&f->tomb, vpn, t - 1);
    else page_map_erase(&f->tomb, vpn);
    return true;
}

/* Drop the tombstoned entries, keeping the order of the rest. */
static void compact(struct fifo *f)
{
    uint64_t k = 0;
    for (uint64_t i = 0; i < f->n; i++) {
        uint64_t v = f->ring[(f->head + i) % f->cap];
        if (!take_tomb(f, v)) f->ring[(f->head + k++) % f->cap] = v;
    }
    f->n = k;
}

static void fifo_on_resident(void *p, uint64_t vpn)
{
    struct fifo *f = p;
    if (f->n == f->cap) compact(f);
    if (f->n == f->cap) sim_panic("evict.fifo", 0, "more resident pages than frames");
    f->ring[(f->head + f->n++) % f->cap] = vpn;
}

static bool fifo_victim(void *p, uint64_t *vpn)
{
    struct fifo *f = p;
    while (f->n) {
        uint64_t v = f->ring[f->head];
        f->head = (f->head + 1) % f->cap;
        f->n--;
        if (take_tomb(f, v)) continue;
        *vpn = v;
        return true;
    }
    return false;
}

static void fifo_forget(void *p, uint64_t vpn)
{
    struct fifo *f = p;
    uint32_t t = page_map_get(&f->tomb, vpn);
    page_map_put(&f->tomb, vpn, t == PAGE_MAP_NONE ? 1 : t + 1);
}

static void fifo_destroy(void *p)
{
    struct fifo *f = p;
    page_map_free(&f->tomb);
    free(f->ring);
    free(f);
}

const struct evict_ops evict_fifo_ops = {
    .name = "fifo", .create = fifo_create, .on_resident = fifo_on_resident,
    .touch = NULL, .victim = fifo_victim, .destroy = fifo_destroy, .forget = fifo_forget,
};

/* Cyclic-thrashing detection with page pinning or eviction-order shuffling
 * (Park, Kim, Han, "Page Reuse in Cyclic Thrashing of GPU Under
 * Oversubscription", WIP), on top of a base policy (driver.evict.cyclic.
 * base, FIFO by default: the real driver's list the paper modified).
 *
 * Detector (Sec. II-A): every page's eviction count; pages with the same
 * count form a peer group.  Cyclic thrashing is declared when, on an
 * eviction that moves a page into group k, group k holds at least `ratio`
 * (75 %, Fig. 1) of group k - 1.  Groups smaller than min_group are the
 * paper's outliers "deviating from the mainstream peer groups" and never
 * serve as group k - 1 (the paper gives no size; uvmsim uses 5 % of GPU
 * memory).  The state lasts while detections keep coming; it ends after
 * `hold` evictions (2 x GPU memory, uvmsim's choice: two turnovers of
 * memory) without one.
 * Pinning (Sec. II-B): while thrashing, the base policy's victims are
 * pinned instead of evicted until `pin` (25 % of GPU memory, Fig. 1) pages
 * are pinned; pinned pages are never victims.  When the state ends they
 * are released to the base policy (in pinning order) as if just resident.
 * Shuffling (Sec. II-C): on entering the state, and again after every
 * memory's worth of evictions while it lasts, the base policy's eviction
 * order is shuffled (drained and re-inserted in a seeded random order). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "evict.h"
#include "driver/perf/perf.h"
#include "driver/mem/mem.h"
#include "config/config.h"
#include "core/rng.h"
#include "core/stats.h"

struct cyclic {
    const struct evict_ops *base;
    void *bp;
    bool shuffle, thrashing;
    uint64_t cap, budget, hold;
    struct cyc_detect det;
    uint64_t evictions, since_detect, since_shuffle, steps;
    uint64_t *pinned, n_pinned;
    struct page_map pinned_map;
    uint64_t *drain;
    struct rng rng;
    uint64_t *st_detect, *st_pinned, *st_state, *st_shuffles, own[4];
    struct rec_table *events;
};

static void *cyc_create(const struct config *cfg, uint64_t capacity)
{
    struct cyclic *c = xcalloc(1, sizeof *c);
    c->base = evict_find(cfg_str(cfg, "driver.evict.cyclic.base"));
    SIM_ASSERT(c->base && c->base != &evict_cyclic_ops, "evict.cyclic", 0, "bad base policy");
    c->bp = c->base->create(cfg, capacity);
    c->shuffle = cfg_is(cfg, "driver.evict.cyclic.mode", "shuffle");
    c->cap = capacity;
    c->budget = (uint64_t)floor(cfg_f64(cfg, "driver.evict.cyclic.pin") * (double)capacity);
    if (c->budget >= capacity) c->budget = capacity ? capacity - 1 : 0;   /* one frame must stay evictable */
    cyc_detect_init(&c->det, cfg_f64(cfg, "driver.evict.cyclic.ratio"),
                    (uint64_t)ceil(cfg_f64(cfg, "driver.evict.cyclic.min_group") * (double)capacity));
    c->hold = (uint64_t)ceil(cfg_f64(cfg, "driver.evict.cyclic.hold") * (double)capacity);
    c->pinned = xcalloc(c->budget ? c->budget : 1, sizeof *c->pinned);
    page_map_init(&c->pinned_map, c->budget);
    c->drain = xcalloc(capacity ? capacity : 1, sizeof *c->drain);
    rng_init(&c->rng, cfg_u64(cfg, "sim.seed"), "driver.evict.cyclic");
    c->st_detect = &c->own[0]; c->st_pinned = &c->own[1];
    c->st_state = &c->own[2]; c->st_shuffles = &c->own[3];
    return c;
}

static void event(struct cyclic *c, const char *what)
{
    if (!c->events) return;
    const void *row[] = { &c->evictions, what, &c->n_pinned };
    rec_append(c->events, row);
}

static void cyc_on_resident(void *p, uint64_t vpn)
{
    struct cyclic *c = p;
    c->base->on_resident(c->bp, vpn);
}

static void cyc_touch(void *p, uint64_t vpn)
{
    struct cyclic *c = p;
    if (c->base->touch && page_map_get(&c->pinned_map, vpn) == PAGE_MAP_NONE)
        c->base->touch(c->bp, vpn);
}

static void shuffle_order(struct cyclic *c)
{
    uint64_t n = 0, v;
    while (c->base->victim(c->bp, &v)) c->drain[n++] = v;
    for (uint64_t i = n; i > 1; i--) {
        uint64_t j = rng_below(&c->rng, i), t = c->drain[i - 1];
        c->drain[i - 1] = c->drain[j];
        c->drain[j] = t;
    }
    for (uint64_t i = 0; i < n; i++) c->base->on_resident(c->bp, c->drain[i]);
    c->since_shuffle = 0;
    *c->st_shuffles += 1;
    event(c, "shuffle");
}

static void release_pins(struct cyclic *c)
{
    for (uint64_t i = 0; i < c->n_pinned; i++) {
        page_map_erase(&c->pinned_map, c->pinned[i]);
        c->base->on_resident(c->bp, c->pinned[i]);
    }
    c->n_pinned = 0;
    *c->st_pinned = 0;
}

/* Counts the eviction of vpn; true when it declares cyclic thrashing. */
bool evict_cyclic_count(void *p, uint64_t vpn)
{
    return cyc_detect_count(&((struct cyclic *)p)->det, vpn);
}

static bool cyc_victim(void *p, uint64_t *vpn)
{
    struct cyclic *c = p;
    c->steps = 0;
    for (;;) {
        c->steps++;
        if (!c->base->victim(c->bp, vpn)) return false;
        if (c->shuffle || !c->thrashing || c->n_pinned >= c->budget) break;
        c->pinned[c->n_pinned++] = *vpn;           /* pin instead of evicting */
        page_map_put(&c->pinned_map, *vpn, 1);
        *c->st_pinned = c->n_pinned;
    }
    c->evictions++;
    c->since_shuffle++;
    if (evict_cyclic_count(c, *vpn)) {
        c->since_detect = 0;
        if (!c->thrashing) {
            c->thrashing = true;
            *c->st_detect += 1;
            *c->st_state = 1;
            event(c, "thrashing");
            if (c->shuffle) shuffle_order(c);
        } else if (c->shuffle && c->since_shuffle >= c->cap) {
            shuffle_order(c);
        }
    } else if (c->thrashing && ++c->since_detect >= c->hold) {
        c->thrashing = false;
        *c->st_state = 0;
        event(c, "released");
        release_pins(c);
    }
    return true;
}

static uint64_t cyc_last_search(void *p) { return ((struct cyclic *)p)->steps; }

static void cyc_register_stats(void *p, struct stats *st)
{
    static const struct rec_field f[] = {
        {"eviction", REC_U64, "pages"}, {"event", REC_STR32, ""}, {"pinned", REC_U64, "pages"},
    };
    struct cyclic *c = p;
    c->st_detect = stat_counter(st, "evict.cyclic.detections", "", "times cyclic thrashing was declared");
    c->st_pinned = stat_counter(st, "evict.cyclic.pinned", "pages", "pages pinned now (sampled: pinned over time)");
    c->st_state = stat_counter(st, "evict.cyclic.thrashing", "", "1 while cyclic thrashing is declared");
    c->st_shuffles = stat_counter(st, "evict.cyclic.shuffles", "", "eviction-order shuffles");
    c->events = stat_table(st, "evict_cyclic", "cyclic-thrashing state changes and shuffles "
                           "(eviction number, event, pages pinned)", f, 3);
}

static void cyc_destroy(void *p)
{
    struct cyclic *c = p;
    c->base->destroy(c->bp);
    cyc_detect_free(&c->det);
    page_map_free(&c->pinned_map);
    free(c->pinned);
    free(c->drain);
    free(c);
}

const struct evict_ops evict_cyclic_ops = {
    .name = "cyclic", .create = cyc_create, .on_resident = cyc_on_resident,
    .touch = cyc_touch, .victim = cyc_victim, .destroy = cyc_destroy,
    .last_search = cyc_last_search, .register_stats = cyc_register_stats,
};

/* Random replacement among resident pages (HPE Sec. VI's "Random"),
 * uniform, from the driver's own seeded stream ("driver.evict.random"). */
#include <stdlib.h>
#include "evict.h"
#include "driver/mem/mem.h"
#include "config/config.h"
#include "core/rng.h"

struct rnd {
    uint64_t *vpn;
    uint64_t n, cap;
    struct page_map map;
    struct rng rng;
};

static void *rnd_create(const struct config *cfg, uint64_t capacity)
{
    struct rnd *r = xcalloc(1, sizeof *r);
    r->vpn = xcalloc(capacity, sizeof *r->vpn);
    r->cap = capacity;
    page_map_init(&r->map, capacity);
    rng_init(&r->rng, cfg_u64(cfg, "sim.seed"), "driver.evict.random");
    return r;
}

static void rnd_on_resident(void *p, uint64_t vpn)
{
    struct rnd *r = p;
    if (r->n == r->cap) sim_panic("evict.random", 0, "more resident pages than frames");
    page_map_put(&r->map, vpn, (uint32_t)r->n);
    r->vpn[r->n++] = vpn;
}

static void rnd_remove_at(struct rnd *r, uint64_t i)
{
    page_map_erase(&r->map, r->vpn[i]);
    uint64_t last = r->vpn[--r->n];
    if (i != r->n) {
        r->vpn[i] = last;
        page_map_put(&r->map, last, (uint32_t)i);
    }
}

static void rnd_forget(void *p, uint64_t vpn)
{
    struct rnd *r = p;
    uint32_t i = page_map_get(&r->map, vpn);
    if (i != PAGE_MAP_NONE) rnd_remove_at(r, i);
}

static bool rnd_victim(void *p, uint64_t *vpn)
{
    struct rnd *r = p;
    if (!r->n) return false;
    uint64_t i = rng_below(&r->rng, r->n);
    *vpn = r->vpn[i];
    rnd_remove_at(r, i);
    return true;
}

static void rnd_destroy(void *p)
{
    struct rnd *r = p;
    page_map_free(&r->map);
    free(r->vpn);
    free(r);
}

const struct evict_ops evict_random_ops = {
    .name = "random", .create = rnd_create, .on_resident = rnd_on_resident,
    .touch = NULL, .victim = rnd_victim, .destroy = rnd_destroy, .forget = rnd_forget,
};

/* RRIP at page granularity (Jaleel et al., "High performance cache
 * replacement using re-reference interval prediction", ISCA 2010): every
 * page holds an M-bit re-reference prediction value (RRPV, M = 2); the
 * victim is a page predicted "distant" (2^M - 1), and when there is none
 * every RRPV ages by one.
 *   srrip:   insert "long" (2^M - 2); a hit predicts "near" (0): SRRIP-HP.
 *   brrip:   insert distant, long with probability 1/32; hits as SRRIP.
 *   rrip-fp: HPE Sec. V-B's variant: frequency priority (a hit decrements
 *            the RRPV) and a delay field holding the global fault number at
 *            insertion; a victim also needs (faults now - delay) >=
 *            driver.evict.rrip_fp.delay.  The paper inserts distant with
 *            delay 128 for thrashing (type II) workloads, long with 0
 *            otherwise (the defaults).  When every page is distant but none
 *            is old enough, the oldest insertion goes.
 * Search order: pages sit in frame slots and the search for a distant page
 * starts at slot 0 every time, as RRIP's starts at way 0; a newcomer takes
 * its victim's slot, so with distant insertion it is found first next time:
 * the "instant thrashing" HPE Sec. III-B saw, which the delay field stops.
 * Ageing costs no walk over the pages: a page stores base = RRPV - A for a
 * global age A, so its RRPV is min(max, base + A); unsaturated pages are in
 * slot set (base mod max), saturated ones in the distant set, and one ageing
 * step moves one set into the distant set and increments A. */
#include <stdlib.h>
#include <string.h>
#include "evict.h"
#include "driver/mem/mem.h"
#include "slot_bits.h"
#include "config/config.h"
#include "core/rng.h"

#define NIL UINT32_MAX
#define MAXLV 255

enum variant { SRRIP, BRRIP, RRIP_FP };

struct node { uint64_t vpn, delay; int64_t base; uint32_t next_free; };

struct rrip {
    enum variant v;
    int64_t max, age;
    struct node *n;
    struct slot_bits lv[MAXLV + 1];   /* [0, max): by base mod max; [max]: distant */
    uint64_t count[MAXLV + 1];
    uint32_t free_head;
    uint64_t cap, used, faults, delay, steps;
    int64_t insert;
    double long_chance;
    struct rng rng;
    struct page_map map;
};

static void *create(const struct config *cfg, uint64_t capacity, enum variant v)
{
    struct rrip *r = xcalloc(1, sizeof *r);
    r->v = v;
    r->max = (1LL << cfg_u64(cfg, "driver.evict.rrip.bits")) - 1;
    r->n = xcalloc(capacity ? capacity : 1, sizeof *r->n);
    r->cap = capacity;
    for (uint64_t i = 0; i < capacity; i++)
        r->n[i].next_free = i + 1 < capacity ? (uint32_t)(i + 1) : NIL;
    r->free_head = capacity ? 0 : NIL;
    for (int64_t i = 0; i <= r->max; i++) slot_bits_init(&r->lv[i], capacity);
    page_map_init(&r->map, capacity);
    r->long_chance = cfg_f64(cfg, "driver.evict.rrip.brrip_long");
    rng_init(&r->rng, cfg_u64(cfg, "sim.seed"), "driver.evict.brrip");
    r->insert = r->max - 1;
    if (v == RRIP_FP) {
        if (cfg_is(cfg, "driver.evict.rrip_fp.insert", "distant")) r->insert = r->max;
        r->delay = cfg_u64(cfg, "driver.evict.rrip_fp.delay");
    }
    return r;
}

static void *srrip_create(const struct config *c, uint64_t cap) { return create(c, cap, SRRIP); }
static void *brrip_create(const struct config *c, uint64_t cap) { return create(c, cap, BRRIP); }
static void *fp_create(const struct config *c, uint64_t cap) { return create(c, cap, RRIP_FP); }

static int64_t rrpv(const struct rrip *r, const struct node *x)
{
    int64_t v = x->base + r->age;
    return v > r->max ? r->max : v;
}

static int64_t set_of(const struct rrip *r, const struct node *x)
{
    if (rrpv(r, x) == r->max) return r->max;
    int64_t m = x->base % r->max;
    return m < 0 ? m + r->max : m;
}

static void leave(struct rrip *r, uint32_t i)
{
    int64_t k = set_of(r, &r->n[i]);
    slot_bits_clear(&r->lv[k], i);
    r->count[k]--;
}

static void set_rrpv(struct rrip *r, uint32_t i, int64_t v)
{
    r->n[i].base = v - r->age;
    int64_t k = set_of(r, &r->n[i]);
    slot_bits_set(&r->lv[k], i);
    r->count[k]++;
}

/* The RRPV of the page in vpn's slot, -1 when not resident (tests). */
int evict_rrip_prediction(void *p, uint64_t vpn)
{
    struct rrip *r = p;
    uint32_t i = page_map_get(&r->map, vpn);
    return i == PAGE_MAP_NONE ? -1 : (int)rrpv(r, &r->n[i]);
}

/* The delay field holds the fault number at insertion; a prefetched page
 * is no fault, so it takes the current number without advancing it. */
static void insert(struct rrip *r, uint64_t vpn, bool fault)
{
    uint32_t i = r->free_head;
    if (i == NIL) sim_panic("evict.rrip", 0, "more resident pages than frames");
    r->free_head = r->n[i].next_free;
    r->n[i].vpn = vpn;
    r->n[i].delay = fault ? r->faults++ : r->faults;
    int64_t v = r->insert;
    if (r->v == BRRIP) v = rng_below(&r->rng, 1u << 20) < r->long_chance * (1u << 20) ? r->max - 1 : r->max;
    set_rrpv(r, i, v);
    page_map_put(&r->map, vpn, i);
    r->used++;
}

static void rrip_on_resident(void *p, uint64_t vpn) { insert(p, vpn, true); }
static void rrip_prefetched(void *p, uint64_t vpn) { insert(p, vpn, false); }

static void rrip_touch(void *p, uint64_t vpn)
{
    struct rrip *r = p;
    uint32_t i = page_map_get(&r->map, vpn);
    if (i == PAGE_MAP_NONE) return;
    int64_t v = rrpv(r, &r->n[i]);
    int64_t nv = r->v == RRIP_FP ? (v > 0 ? v - 1 : 0) : 0;
    if (nv == v) return;
    leave(r, i);
    set_rrpv(r, i, nv);
}

/* Every RRPV + 1 (saturating): the set one below distant joins it. */
static void age_all(struct rrip *r)
{
    int64_t m = (r->max - 1 - r->age) % r->max;
    if (m < 0) m += r->max;
    slot_bits_move(&r->lv[r->max], &r->lv[m]);
    r->count[r->max] += r->count[m];
    r->count[m] = 0;
    r->age++;
}

static bool rrip_victim(void *p, uint64_t *vpn)
{
    struct rrip *r = p;
    r->steps = 0;
    if (!r->used) return false;
    struct slot_bits *d = &r->lv[r->max];
    size_t pick = SIZE_MAX;
    for (;;) {
        for (size_t i = slot_bits_next(d, 0); i != SIZE_MAX; i = slot_bits_next(d, i + 1)) {
            r->steps++;
            if (r->faults - r->n[i].delay >= r->delay) { pick = i; break; }
        }
        if (pick != SIZE_MAX) break;
        if (r->count[r->max] == r->used) {      /* all distant, none old enough */
            for (size_t i = slot_bits_next(d, 0); i != SIZE_MAX; i = slot_bits_next(d, i + 1))
                if (pick == SIZE_MAX || r->n[i].delay < r->n[pick].delay) pick = i;
            break;
        }
        age_all(r);
    }
    uint32_t s = (uint32_t)pick;
    leave(r, s);
    *vpn = r->n[s].vpn;
    page_map_erase(&r->map, *vpn);
    r->n[s].next_free = r->free_head;
    r->free_head = s;
    r->used--;
    return true;
}

static uint64_t rrip_last_search(void *p) { return ((struct rrip *)p)->steps; }

static void rrip_destroy(void *p)
{
    struct rrip *r = p;
    for (int64_t i = 0; i <= r->max; i++) slot_bits_free(&r->lv[i]);
    page_map_free(&r->map);
    free(r->n);
    free(r);
}

#define RRIP_OPS(sym, nm, cr)                                                 \
    const struct evict_ops sym = {                                            \
        .name = nm, .create = cr, .on_resident = rrip_on_resident,            \
        .touch = rrip_touch, .victim = rrip_victim, .destroy = rrip_destroy,  \
        .prefetched = rrip_prefetched, .last_search = rrip_last_search,       \
    }

RRIP_OPS(evict_srrip_ops, "srrip", srrip_create);
RRIP_OPS(evict_brrip_ops, "brrip", brrip_create);
RRIP_OPS(evict_rrip_fp_ops, "rrip-fp", fp_create);

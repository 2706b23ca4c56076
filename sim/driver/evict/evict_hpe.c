/* HPE, the hierarchical page eviction policy (Yu et al., TCAD 2020,
 * Sec. IV; defaults Sec. V-A).
 *
 * Page sets of 16 pages (tag = vpn >> 4) form a chain ordered by recency,
 * LRU at the head.  Each set has a counter of touches saturating at 64, a
 * bit vector of faulted pages, and a divided flag.  The chain has three
 * partitions: new (sets touched in the current interval), middle (touched
 * in the last one) and old; an interval is 64 faults.  A set touched from
 * the old or middle partition moves to the MRU end of the new partition,
 * once per interval (Sec. IV-C, Fig. 6).  Partition membership is the
 * interval stamp a set got when it was last placed into the new partition;
 * P1 and P2 are the first sets of the middle and new partitions, and the
 * end of an interval is P1 := P2, P2 := end (O(1)).
 *
 * Division: when a set's counter reaches 64 with pages untouched by faults,
 * the touched pages stay in the primary and later faults on the others go
 * to a secondary set (its own chain entry).  When a divided primary leaves
 * the chain its bit vector is kept in a history buffer, and the first
 * division is reused when the set comes back.
 *
 * Victims: a set is chosen by the current strategy (hpe_strategy.c:
 * classification at first fill, LRU or MRU-C, dynamic adjustment) and its
 * pages go in address order, one per victim (Sec. IV-A); pages evicted by
 * each strategy go to its FIFO buffer (128) and a fault on one is a wrong
 * eviction of that strategy, counted per interval (Sec. IV-E).
 *
 * Feed: faults always (pages brought by a prefetch are not faults: they
 * join their set's resident pages and nothing else); hit information from the HIR transfers (hits(),
 * every 16th fault), or every walk hit in order (touch(), the paper's ideal
 * model of Sec. V-A), or none (driver.evict.hpe.hit_feed).  Only faults
 * set bits in the bit vector; hits on pages evicted since they were recorded
 * are dropped. */
#include <stdlib.h>
#include <string.h>
#include "evict.h"
#include "hpe.h"
#include "config/config.h"
#include "core/stats.h"

static unsigned log2_exact(uint64_t v)
{
    unsigned s = 0;
    while ((1ULL << s) < v) s++;
    return s;
}

static void *hpe_create(const struct config *cfg, uint64_t capacity)
{
    struct hpe *h = xcalloc(1, sizeof *h);
    h->set_pages = cfg_u64(cfg, "driver.evict.hpe.set_pages");
    if (h->set_pages & (h->set_pages - 1))
        user_error("driver.evict.hpe.set_pages: must be a power of two, got %llu",
                   (unsigned long long)h->set_pages);
    h->shift = log2_exact(h->set_pages);
    h->full = h->set_pages == 64 ? UINT64_MAX : (1ULL << h->set_pages) - 1;
    h->counter_max = cfg_u64(cfg, "driver.evict.hpe.counter_max");
    h->interval = cfg_u64(cfg, "driver.evict.hpe.interval");
    h->fifo_depth = cfg_u64(cfg, "driver.evict.hpe.fifo_depth");
    h->wrong_thr = cfg_u64(cfg, "driver.evict.hpe.wrong_threshold");
    h->jump = cfg_u64(cfg, "driver.evict.hpe.jump");
    h->large_fp = cfg_u64(cfg, "driver.evict.hpe.large_footprint");
    h->ratio1_thr = cfg_f64(cfg, "driver.evict.hpe.ratio1");
    h->ratio2_thr = cfg_f64(cfg, "driver.evict.hpe.ratio2");
    const char *feed = "driver.evict.hpe.hit_feed";
    h->feed = cfg_is(cfg, feed, "hir") ? FEED_HIR : cfg_is(cfg, feed, "ideal") ? FEED_IDEAL : FEED_NONE;
    h->adjust = cfg_bool(cfg, "driver.evict.hpe.adjust");
    const char *strat = "driver.evict.hpe.strategy";
    h->fixed = !cfg_is(cfg, strat, "auto");
    h->fill_faults = cfg_is(cfg, "driver.evict.hpe.classify", "faulted_fill") ? capacity : 0;
    h->strategy = cfg_is(cfg, strat, "mru-c") ? MRUC : LRU;
    /* every set in the chain holds a resident page: at most `capacity` */
    h->s = xcalloc(capacity ? capacity : 1, sizeof *h->s);
    for (uint64_t i = 0; i < capacity; i++) h->s[i].next = i + 1 < capacity ? (uint32_t)(i + 1) : NIL;
    h->free_head = capacity ? 0 : NIL;
    h->head = h->tail = h->p1 = h->p2 = NIL;
    page_map_init(&h->by_tag, capacity);
    h->h_cap = cfg_u64(cfg, "driver.evict.hpe.history");
    h->h_tag = xcalloc(h->h_cap, sizeof *h->h_tag);
    h->h_mask = xcalloc(h->h_cap, sizeof *h->h_mask);
    page_map_init(&h->h_map, h->h_cap);
    for (int i = 0; i < 2; i++) vpn_fifo_init(&h->fifo[i], h->fifo_depth);
    h->cur = 2;                   /* stamps 0/1 never look "middle" */
    h->cur_set = NIL;
    h->st_class = &h->own[0]; h->st_strategy = &h->own[1]; h->st_switches = &h->own[2];
    h->st_jumps = &h->own[3]; h->st_divided = &h->own[4];
    h->st_r1 = &h->own_r[0]; h->st_r2 = &h->own_r[1];
    return h;
}

void hpe_event(struct hpe *h, const char *what, uint64_t value)
{
    if (!h->events) return;
    const void *row[] = { &h->faults, what, &value };
    rec_append(h->events, row);
}

/* --- the chain ------------------------------------------------------- */

static void chain_unlink(struct hpe *h, uint32_t i)
{
    struct pset *x = &h->s[i];
    if (h->p1 == i) h->p1 = x->next;
    if (h->p2 == i) h->p2 = x->next;
    if (x->prev != NIL) h->s[x->prev].next = x->next; else h->head = x->next;
    if (x->next != NIL) h->s[x->next].prev = x->prev; else h->tail = x->prev;
}

/* MRU end of the new partition. */
static void chain_append(struct hpe *h, uint32_t i)
{
    struct pset *x = &h->s[i];
    x->stamp = h->cur;
    x->prev = h->tail;
    x->next = NIL;
    if (h->tail != NIL) h->s[h->tail].next = i; else h->head = i;
    h->tail = i;
    if (h->p2 == NIL) h->p2 = i;
    if (h->p1 == NIL) h->p1 = i;
}

static void end_interval(struct hpe *h)
{
    h->cur++;
    h->p1 = h->p2;
    h->p2 = NIL;
    h->wrong[LRU] = h->wrong[MRUC] = 0;
    h->stint++;
}

int evict_hpe_partition(void *p, uint64_t vpn)
{
    struct hpe *h = p;
    for (int sec = 0; sec < 2; sec++) {
        uint32_t i = page_map_get(&h->by_tag, (vpn >> h->shift) << 1 | (uint64_t)sec);
        if (i == PAGE_MAP_NONE || !(h->s[i].resident >> (vpn & (h->set_pages - 1)) & 1)) continue;
        uint64_t st = h->s[i].stamp;
        return st == h->cur ? 2 : st + 1 == h->cur ? 1 : 0;
    }
    return -1;
}

/* --- history buffer ---------------------------------------------------- */

static void history_put(struct hpe *h, uint64_t base, uint64_t mask)
{
    if (page_map_get(&h->h_map, base) != PAGE_MAP_NONE) return;   /* first division wins */
    uint64_t slot = h->h_head;
    if (h->h_n == h->h_cap) {
        if (page_map_get(&h->h_map, h->h_tag[slot]) == slot) page_map_erase(&h->h_map, h->h_tag[slot]);
    } else {
        h->h_n++;
    }
    h->h_tag[slot] = base;
    h->h_mask[slot] = mask;
    page_map_put(&h->h_map, base, (uint32_t)slot);
    h->h_head = (slot + 1) % h->h_cap;
}

/* --- updates (Fig. 6) -------------------------------------------------- */

/* The chain entry page vpn belongs to (primary or secondary), NIL when
 * absent; *tag gets the tag it has or would have, *hist_mask the primary's
 * members when the set was divided before it left the chain. */
static uint32_t find_set(struct hpe *h, uint64_t vpn, uint64_t *tag, uint64_t *hist_mask)
{
    uint64_t base = vpn >> h->shift, off = vpn & (h->set_pages - 1);
    *hist_mask = 0;
    uint32_t i = page_map_get(&h->by_tag, base << 1);
    bool secondary = false;
    if (i != PAGE_MAP_NONE) {
        secondary = h->s[i].divided && !(h->s[i].mask >> off & 1);
    } else {
        uint32_t k = page_map_get(&h->h_map, base);
        if (k != PAGE_MAP_NONE) {
            *hist_mask = h->h_mask[k];
            secondary = !(*hist_mask >> off & 1);
        }
    }
    *tag = base << 1 | (secondary ? 1 : 0);
    if (secondary) i = page_map_get(&h->by_tag, *tag);
    return i == PAGE_MAP_NONE ? NIL : i;
}

/* A new chain entry for `tag` at the MRU end of the new partition. */
static uint32_t new_set(struct hpe *h, uint64_t tag, uint64_t hist_mask)
{
    uint32_t i = h->free_head;
    if (i == NIL) sim_panic("evict.hpe", 0, "more page sets than frames");
    h->free_head = h->s[i].next;
    h->s[i] = (struct pset){ .tag = tag, .mask = h->full };
    if (hist_mask && !(tag & 1)) { h->s[i].divided = true; h->s[i].mask = hist_mask; }
    page_map_put(&h->by_tag, tag, i);
    chain_append(h, i);
    h->nsets++;
    return i;
}

static void update(struct hpe *h, uint64_t vpn, bool fault, uint64_t count)
{
    uint64_t tag, hist_mask, off = vpn & (h->set_pages - 1);
    uint32_t i = find_set(h, vpn, &tag, &hist_mask);
    if (!fault && (i == NIL || !(h->s[i].resident >> off & 1))) return;
    if (i == NIL) {
        i = new_set(h, tag, hist_mask);
    } else if (h->s[i].stamp != h->cur) {
        chain_unlink(h, i);
        chain_append(h, i);
    }
    struct pset *x = &h->s[i];
    bool below = x->counter < h->counter_max;
    x->counter = (uint32_t)(x->counter + count < h->counter_max ? x->counter + count : h->counter_max);
    if (fault) { x->bits |= 1ULL << off; x->resident |= 1ULL << off; }
    if (below && x->counter == h->counter_max && !(tag & 1) && !x->divided && x->bits != h->full) {
        x->divided = true;
        x->mask = x->bits;
        *h->st_divided += 1;
    }
}

/* --- the ops ------------------------------------------------------------ */

static void hpe_on_resident(void *p, uint64_t vpn)
{
    struct hpe *h = p;
    for (int s = 0; s < 2; s++) {
        if (!vpn_fifo_take(&h->fifo[s], vpn)) continue;
        if (++h->wrong[s] == h->wrong_thr && s == h->strategy && h->cls) hpe_adjust(h);
    }
    update(h, vpn, true, 1);
    h->faults++;
    if (++h->in_interval == h->interval) {
        h->in_interval = 0;
        end_interval(h);
    }
}

/* A prefetched page only becomes evictable: no fault (interval, bit
 * vector), no reference (counter, recency), no wrong eviction; a set it
 * opens enters the chain at the MRU end, as any newcomer. */
static void hpe_prefetched(void *p, uint64_t vpn)
{
    struct hpe *h = p;
    for (int s = 0; s < 2; s++) vpn_fifo_take(&h->fifo[s], vpn);
    uint64_t tag, hist_mask;
    uint32_t i = find_set(h, vpn, &tag, &hist_mask);
    if (i == NIL) i = new_set(h, tag, hist_mask);
    h->s[i].resident |= 1ULL << (vpn & (h->set_pages - 1));
}

static void hpe_touch(void *p, uint64_t vpn)
{
    struct hpe *h = p;
    if (h->feed == FEED_IDEAL) update(h, vpn, false, 1);
}

static void hpe_hits(void *p, uint64_t vpn, uint32_t count)
{
    struct hpe *h = p;
    if (h->feed == FEED_HIR) update(h, vpn, false, count);
}

static bool hpe_victim(void *p, uint64_t *vpn)
{
    struct hpe *h = p;
    h->steps = 0;
    if (h->head == NIL) return false;
    if (!h->cls && h->faults >= h->fill_faults) hpe_classify(h);
    uint32_t i = h->cur_set;
    if (i == NIL || h->s[i].stamp != h->cur_set_stamp || !h->s[i].resident) {
        i = hpe_choose_set(h);
        h->cur_set = i;
        h->cur_set_stamp = h->s[i].stamp;
    }
    struct pset *x = &h->s[i];
    unsigned off = (unsigned)__builtin_ctzll(x->resident);    /* address order */
    x->resident &= x->resident - 1;
    *vpn = (x->tag >> 1) << h->shift | off;
    vpn_fifo_push(&h->fifo[h->strategy], *vpn);
    if (!x->resident) {
        chain_unlink(h, i);
        page_map_erase(&h->by_tag, x->tag);
        if (!(x->tag & 1) && x->divided) history_put(h, x->tag >> 1, x->mask);
        x->next = h->free_head;
        h->free_head = i;
        h->nsets--;
        h->cur_set = NIL;
    }
    return true;
}

static unsigned hpe_feeds(const void *p)
{
    const struct hpe *h = p;
    return h->feed == FEED_HIR ? EVICT_FEED_HITS : h->feed == FEED_IDEAL ? EVICT_FEED_TOUCH : 0;
}

static uint64_t hpe_last_search(void *p) { return ((struct hpe *)p)->steps; }

static void hpe_register_stats(void *p, struct stats *st)
{
    static const struct rec_field f[] = {
        {"fault", REC_U64, "faults"}, {"event", REC_STR32, ""}, {"value", REC_U64, ""},
    };
    struct hpe *h = p;
    h->st_class = stat_counter(st, "evict.hpe.class", "",
                               "classification at first fill: 0 none yet, 1 regular, 2 irregular#1, 3 irregular#2");
    h->st_strategy = stat_counter(st, "evict.hpe.strategy", "", "current strategy: 0 LRU, 1 MRU-C");
    h->st_switches = stat_counter(st, "evict.hpe.switches", "", "strategy switches by dynamic adjustment");
    h->st_jumps = stat_counter(st, "evict.hpe.jumps", "", "MRU-C search-point jumps by dynamic adjustment");
    h->st_divided = stat_counter(st, "evict.hpe.divided", "sets", "page sets divided into primary and secondary");
    h->st_r1 = stat_real(st, "evict.hpe.ratio1", "", "irregular / regular page-set counters at first fill");
    h->st_r2 = stat_real(st, "evict.hpe.ratio2", "", "large / small regular page-set counters at first fill");
    h->events = stat_table(st, "evict_hpe", "HPE classification, strategy switches and search-point jumps "
                           "(value: old-partition sets at fill, intervals of the stint, jump offset)", f, 3);
}

static void hpe_destroy(void *p)
{
    struct hpe *h = p;
    page_map_free(&h->by_tag);
    page_map_free(&h->h_map);
    for (int i = 0; i < 2; i++) vpn_fifo_free(&h->fifo[i]);
    free(h->h_tag);
    free(h->h_mask);
    free(h->s);
    free(h);
}

const struct evict_ops evict_hpe_ops = {
    .name = "hpe", .create = hpe_create, .on_resident = hpe_on_resident,
    .touch = hpe_touch, .victim = hpe_victim, .destroy = hpe_destroy,
    .hits = hpe_hits, .prefetched = hpe_prefetched, .feeds = hpe_feeds, .last_search = hpe_last_search, .register_stats = hpe_register_stats,
};

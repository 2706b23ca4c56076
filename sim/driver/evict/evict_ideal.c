/* Ideal: Belady's MIN at page granularity (the HPE paper's offline "Ideal",
 * Sec. III-B): the victim is the resident page whose next reference lies
 * furthest in the future; pages never referenced again go first.
 *
 * The future (evict_ideal_future.c) holds every page reference with its
 * place in a logical order.  A page's next use is its first reference not
 * yet made; a reference is marked made when it happens, found by its own
 * key, never by counting, so the references of a timed run may arrive in
 * any order without misaligning the others:
 *   replay: the trace; each on_resident/touch is the reference at the
 *     cursor (every reference, in order: exact MIN);
 *   timed: the program's references, run alone from the config before the
 *     simulation; the SM reports each one when its translation returns
 *     (reference()), so a faulted page's reference stays pending -- and
 *     the page the most wanted -- until its warp has it.  Timed Ideal is
 *     MIN over that logical order, not over the run's own interleaving,
 *     and not a timing optimum (docs/policies.md).
 * A prefetched page consumes no reference.  References the future does not
 * hold (a generator that is not deterministic per warp) are counted in
 * evict.ideal.unmatched and ignored. */
#include <stdlib.h>
#include "evict.h"
#include "evict_ideal.h"
#include "core/stats.h"

static const struct ideal_key NEVER = { UINT64_MAX, UINT64_MAX };

struct ideal {
    struct ideal_future f;
    bool have_future, timed;
    uint64_t *done;               /* a bit per reference: made */
    uint64_t *next;               /* per page id: its first reference not yet made */
    size_t cursor;                /* replay: the next reference's position */
    /* resident pages: a max-heap on next use */
    uint64_t cap, n;
    struct ideal_key *key;        /* per slot */
    uint64_t *vpn;
    uint32_t *heap, *where;       /* heap[i] = slot, where[slot] = i */
    uint32_t free_head;
    uint32_t *free_next;
    struct page_map slot_of;
    uint64_t *unmatched, *nrefs, own[2];
};

static void *ideal_create(const struct config *cfg, uint64_t capacity)
{
    (void)cfg;
    struct ideal *d = xcalloc(1, sizeof *d);
    d->cap = capacity;
    d->key = xcalloc(capacity ? capacity : 1, sizeof *d->key);
    d->vpn = xcalloc(capacity ? capacity : 1, sizeof *d->vpn);
    d->heap = xcalloc(capacity ? capacity : 1, sizeof *d->heap);
    d->where = xcalloc(capacity ? capacity : 1, sizeof *d->where);
    d->free_next = xcalloc(capacity ? capacity : 1, sizeof *d->free_next);
    for (uint64_t i = 0; i < capacity; i++) d->free_next[i] = (uint32_t)(i + 1);
    page_map_init(&d->slot_of, capacity);
    d->unmatched = &d->own[0];
    d->nrefs = &d->own[1];
    return d;
}

static void start(struct ideal *d)
{
    SIM_ASSERT(!d->have_future, "evict.ideal", 0, "future given twice");
    d->have_future = true;
    d->done = xcalloc(d->f.n / 64 + 1, sizeof *d->done);
    d->next = xmalloc((d->f.npages ? d->f.npages : 1) * sizeof *d->next);
    for (uint64_t i = 0; i < d->f.npages; i++) d->next[i] = d->f.first[i];
    *d->nrefs = d->f.n;
}

static void ideal_program(void *p, const struct config *cfg)
{
    struct ideal *d = p;
    ideal_future_program(&d->f, cfg);
    d->timed = true;
    start(d);
}

static void ideal_set_future(void *p, const uint64_t *refs, size_t n)
{
    struct ideal *d = p;
    ideal_future_trace(&d->f, refs, n);
    start(d);
}

static bool made(const struct ideal *d, uint64_t i) { return d->done[i / 64] >> (i % 64) & 1; }

/* The key of vpn's first reference not yet made. */
static struct ideal_key next_use(const struct ideal *d, uint64_t vpn)
{
    if (!d->have_future) return NEVER;
    uint32_t id = page_map_get(&d->f.page_id, vpn);
    if (id == PAGE_MAP_NONE || d->next[id] == d->f.first[id + 1]) return NEVER;
    return d->f.key[d->next[id]];
}

/* a above b in the heap: later next use, ties to the higher page number */
static bool above(const struct ideal *d, uint32_t a, uint32_t b)
{
    if (!ideal_key_eq(d->key[a], d->key[b])) return ideal_key_less(d->key[b], d->key[a]);
    return d->vpn[a] > d->vpn[b];
}

static void heap_swap(struct ideal *d, uint32_t i, uint32_t j)
{
    uint32_t t = d->heap[i];
    d->heap[i] = d->heap[j];
    d->heap[j] = t;
    d->where[d->heap[i]] = i;
    d->where[d->heap[j]] = j;
}

static void sift_up(struct ideal *d, uint32_t i)
{
    while (i && above(d, d->heap[i], d->heap[(i - 1) / 2])) {
        heap_swap(d, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void sift_down(struct ideal *d, uint32_t i)
{
    for (;;) {
        uint64_t l = 2 * (uint64_t)i + 1, r = l + 1, m = i;
        if (l < d->n && above(d, d->heap[l], d->heap[m])) m = l;
        if (r < d->n && above(d, d->heap[r], d->heap[m])) m = r;
        if (m == i) return;
        heap_swap(d, i, (uint32_t)m);
        i = (uint32_t)m;
    }
}

/* The reference of vpn at key k was made: vpn's next use moves on. */
static void make(struct ideal *d, uint64_t vpn, struct ideal_key k)
{
    if (!d->have_future) return;
    uint32_t id = page_map_get(&d->f.page_id, vpn);
    size_t at = id == PAGE_MAP_NONE ? SIZE_MAX : ideal_future_find(&d->f, id, k);
    if (at == SIZE_MAX || made(d, at)) { *d->unmatched += 1; return; }
    d->done[at / 64] |= 1ULL << (at % 64);
    if (at != d->next[id]) return;
    while (d->next[id] < d->f.first[id + 1] && made(d, d->next[id])) d->next[id]++;
    uint32_t s = page_map_get(&d->slot_of, vpn);
    if (s == PAGE_MAP_NONE) return;
    d->key[s] = next_use(d, vpn);        /* later than before: towards the top */
    sift_up(d, d->where[s]);
}

static void insert(struct ideal *d, uint64_t vpn)
{
    if (d->n == d->cap) sim_panic("evict.ideal", 0, "more resident pages than frames");
    uint32_t s = d->free_head;
    d->free_head = d->free_next[s];
    d->key[s] = next_use(d, vpn);
    d->vpn[s] = vpn;
    page_map_put(&d->slot_of, vpn, s);
    d->heap[d->n] = s;
    d->where[s] = (uint32_t)d->n;
    sift_up(d, (uint32_t)d->n++);
}

/* Replay: the reference at the cursor. */
static void replay_ref(struct ideal *d, uint64_t vpn)
{
    make(d, vpn, ideal_key_of(0, 0, d->cursor++, 0));
}

static void ideal_on_resident(void *p, uint64_t vpn)
{
    struct ideal *d = p;
    if (!d->timed) replay_ref(d, vpn);
    insert(d, vpn);
}

static void ideal_prefetched(void *p, uint64_t vpn) { insert(p, vpn); }

static void ideal_touch(void *p, uint64_t vpn)
{
    struct ideal *d = p;
    if (!d->timed) replay_ref(d, vpn);
}

static void ideal_reference(void *p, const struct evict_ref *r)
{
    make(p, r->vpn, ideal_key_of(r->kernel, r->block, r->inst, r->warp));
}

static unsigned ideal_feeds(const void *p)
{
    return ((const struct ideal *)p)->timed ? 0 : EVICT_FEED_TOUCH;
}

static bool ideal_victim(void *p, uint64_t *vpn)
{
    struct ideal *d = p;
    if (!d->n) return false;
    uint32_t s = d->heap[0];
    *vpn = d->vpn[s];
    heap_swap(d, 0, (uint32_t)--d->n);
    if (d->n) sift_down(d, 0);
    page_map_erase(&d->slot_of, *vpn);
    d->free_next[s] = d->free_head;
    d->free_head = s;
    return true;
}

static void ideal_register_stats(void *p, struct stats *st)
{
    struct ideal *d = p;
    d->nrefs = stat_counter(st, "evict.ideal.references", "references",
                            "page references in Ideal's future (the trace, or the program run alone)");
    d->unmatched = stat_counter(st, "evict.ideal.unmatched", "references",
                                "references the future does not hold (ignored)");
}

static void ideal_destroy(void *p)
{
    struct ideal *d = p;
    if (d->have_future) {
        ideal_future_free(&d->f);
        free(d->done);
        free(d->next);
    }
    page_map_free(&d->slot_of);
    free(d->key);
    free(d->vpn);
    free(d->heap);
    free(d->where);
    free(d->free_next);
    free(d);
}

const struct evict_ops evict_ideal_ops = {
    .name = "ideal", .create = ideal_create, .on_resident = ideal_on_resident,
    .touch = ideal_touch, .victim = ideal_victim, .destroy = ideal_destroy,
    .prefetched = ideal_prefetched, .feeds = ideal_feeds,
    .register_stats = ideal_register_stats, .set_future = ideal_set_future,
    .program = ideal_program, .reference = ideal_reference,
};

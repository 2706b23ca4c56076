/* Ideal: Belady's MIN at page granularity (the HPE paper's offline "Ideal",
 * Sec. III-B): the victim is the resident page whose next reference lies
 * furthest in the future; pages never referenced again go first.
 *
 * The future is a reference stream given before the run (set_future): in
 * replay the trace itself; in timed runs the stream a first run wrote with
 * driver.evict.record (driver.evict.ideal.future).  The stream holds what
 * the policy is fed, in order: one entry per on_resident (a fault) and per
 * touch.  A cursor advances by one per call; a page's next use is its first
 * occurrence after the cursor (binary search in its occurrence list).  A
 * second timed pass whose stream drifts from the recording resynchronises
 * (advance()) and still gets sensible, if no longer optimal, choices;
 * evict.ideal.misaligned counts the calls whose page was not the recorded
 * one.  docs/policies.md says which streams make the two passes agree. */
#include <stdlib.h>
#include "evict.h"
#include "page_map.h"
#include "../stats.h"

#define NEVER UINT64_MAX

struct ideal {
    /* the future: occurrence positions grouped by page (CSR) */
    const uint64_t *refs;
    size_t nrefs, cursor;
    struct page_map page_id;      /* vpn -> id */
    uint64_t *first, *pos;        /* positions of id: pos[first[id] .. first[id+1]) */
    bool have_future;
    /* resident pages: a max-heap on next use */
    uint64_t cap, n;
    uint64_t *key, *vpn;          /* per slot */
    uint32_t *heap, *where;       /* heap[i] = slot, where[slot] = i */
    uint32_t free_head;
    uint32_t *free_next;
    struct page_map slot_of;
    uint64_t *misaligned, own_misaligned;
};

static void *ideal_create(const struct config *cfg, uint64_t capacity)
{
    (void)cfg;
    struct ideal *d = xcalloc(1, sizeof *d);
    d->cap = capacity;
    d->key = xcalloc(capacity, sizeof *d->key);
    d->vpn = xcalloc(capacity, sizeof *d->vpn);
    d->heap = xcalloc(capacity, sizeof *d->heap);
    d->where = xcalloc(capacity, sizeof *d->where);
    d->free_next = xcalloc(capacity, sizeof *d->free_next);
    for (uint64_t i = 0; i < capacity; i++) d->free_next[i] = (uint32_t)(i + 1);
    page_map_init(&d->slot_of, capacity);
    d->misaligned = &d->own_misaligned;
    return d;
}


static void ideal_set_future(void *p, const uint64_t *refs, size_t n)
{
    struct ideal *d = p;
    SIM_ASSERT(!d->have_future, "evict.ideal", 0, "future given twice");
    d->have_future = true;
    d->refs = refs;
    d->nrefs = n;
    page_map_init(&d->page_id, n);
    uint64_t *id = xmalloc((n ? n : 1) * sizeof *id), ids = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t k = page_map_get(&d->page_id, refs[i]);
        if (k == PAGE_MAP_NONE) page_map_put(&d->page_id, refs[i], k = (uint32_t)ids++);
        id[i] = k;
    }
    d->first = xcalloc(ids + 1, sizeof *d->first);
    for (size_t i = 0; i < n; i++) d->first[id[i] + 1]++;
    for (uint64_t k = 0; k < ids; k++) d->first[k + 1] += d->first[k];
    uint64_t *fill = xmalloc((ids ? ids : 1) * sizeof *fill);
    for (uint64_t k = 0; k < ids; k++) fill[k] = d->first[k];
    d->pos = xmalloc((n ? n : 1) * sizeof *d->pos);
    for (size_t i = 0; i < n; i++) d->pos[fill[id[i]]++] = i;   /* ascending per page */
    free(fill);
    free(id);
}

/* First recorded reference to vpn after position c. */
static uint64_t next_use(const struct ideal *d, uint64_t vpn, uint64_t c)
{
    uint32_t k = page_map_get(&d->page_id, vpn);
    if (k == PAGE_MAP_NONE) return NEVER;
    uint64_t lo = d->first[k], hi = d->first[k + 1];
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (d->pos[mid] <= c) lo = mid + 1; else hi = mid;
    }
    return lo < d->first[k + 1] ? d->pos[lo] : NEVER;
}

/* a above b in the heap: later next use, ties to the higher page number */
static bool above(const struct ideal *d, uint32_t a, uint32_t b)
{
    return d->key[a] != d->key[b] ? d->key[a] > d->key[b] : d->vpn[a] > d->vpn[b];
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

/* Moves the cursor past this reference.  When the page is not the one
 * recorded at the cursor, the run has drifted from the recording (timing,
 * or a fault-only stream recorded under a policy that faulted more): the
 * cursor skips to the page's next recorded occurrence if that lies within
 * one memory's worth of references, else it just advances. */
static uint64_t advance(struct ideal *d, uint64_t vpn)
{
    if (!d->have_future)
        user_error("driver.eviction=ideal needs the future: set driver.evict.ideal.future to a "
                   "stream recorded with driver.evict.record (replay uses its trace)");
    uint64_t c = d->cursor;
    if (c >= d->nrefs || d->refs[c] != vpn) {
        *d->misaligned += 1;
        uint64_t at = c ? next_use(d, vpn, c - 1) : (d->nrefs && d->refs[0] == vpn ? 0 : next_use(d, vpn, 0));
        if (at != NEVER && at - c <= d->cap) c = at;
    }
    d->cursor = c + 1;
    return next_use(d, vpn, c);
}

static void ideal_on_resident(void *p, uint64_t vpn)
{
    struct ideal *d = p;
    uint64_t key = advance(d, vpn);
    if (d->n == d->cap) sim_panic("evict.ideal", 0, "more resident pages than frames");
    uint32_t s = d->free_head;
    d->free_head = d->free_next[s];
    d->key[s] = key;
    d->vpn[s] = vpn;
    page_map_put(&d->slot_of, vpn, s);
    d->heap[d->n] = s;
    d->where[s] = (uint32_t)d->n;
    sift_up(d, (uint32_t)d->n++);
}

static void ideal_touch(void *p, uint64_t vpn)
{
    struct ideal *d = p;
    uint64_t key = advance(d, vpn);
    uint32_t s = page_map_get(&d->slot_of, vpn);
    if (s == PAGE_MAP_NONE) return;
    uint64_t old = d->key[s];
    d->key[s] = key;
    if (key > old) sift_up(d, d->where[s]); else sift_down(d, d->where[s]);
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
    d->misaligned = stat_counter(st, "evict.ideal.misaligned", "references",
                                 "references that were not the recorded one at the cursor");
}

static void ideal_destroy(void *p)
{
    struct ideal *d = p;
    if (d->have_future) {
        page_map_free(&d->page_id);
        free(d->first);
        free(d->pos);
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
    .register_stats = ideal_register_stats, .set_future = ideal_set_future,
};

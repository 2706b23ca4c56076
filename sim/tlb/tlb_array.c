/* Entries of different page sizes share the array; a lookup probes, for
 * each size that currently has entries (at most three), the entry of the
 * address's tag (Mosaic, cited by HPE Sec. VI: a unified multi-size TLB).
 * Replacement is true LRU (HPE Table I and batch-aware Table 1: LRU in both
 * levels): a fill takes the set's first invalid way, else its least
 * recently used entry.  The map from tag to entry and the per-set recency
 * lists give the same choices as searching the ways and comparing use
 * stamps, without walking a fully associative array (issue 13). */
#include <stdlib.h>
#include "tlb_array.h"
#include "core/mem_req.h"

const uint8_t tlb_size_shift[TLB_NSIZES] = { 12, 16, 21 };

static int size_index(uint8_t shift)
{
    for (int i = 0; i < TLB_NSIZES; i++)
        if (tlb_size_shift[i] == shift) return i;
    return -1;
}

/* Map key: the tag with its size (tags of different sizes may be equal). */
static inline uint64_t key_of(uint64_t tag, int si) { return tag << 2 | (uint64_t)si; }

void tlb_array_init(struct tlb_array *a, uint32_t entries, uint32_t ways)
{
    a->ways = ways;
    a->sets = entries / ways;
    a->fwords = (ways + 63) / 64;
    a->e = xcalloc(entries, sizeof *a->e);
    a->lru = xmalloc(a->sets * sizeof *a->lru);
    a->mru = xmalloc(a->sets * sizeof *a->mru);
    a->free = xcalloc((size_t)a->sets * a->fwords, sizeof *a->free);
    for (uint32_t s = 0; s < a->sets; s++) {
        a->lru[s] = a->mru[s] = TLB_NIL;
        for (uint32_t w = 0; w < ways; w++)
            a->free[(size_t)s * a->fwords + w / 64] |= 1ULL << (w % 64);
    }
    for (uint32_t i = 0; i < entries; i++) a->e[i].set = i / ways;
    idxmap_init(&a->map, entries);
    for (int i = 0; i < TLB_NSIZES; i++) a->nvalid[i] = 0;
    a->stamp = 0;
}

void tlb_array_free(struct tlb_array *a)
{
    free(a->e);
    free(a->lru);
    free(a->mru);
    free(a->free);
    idxmap_free(&a->map);
    a->e = NULL;
}

static inline uint32_t set_of(const struct tlb_array *a, uint64_t tag)
{
    return a->sets == 1 ? 0 : (uint32_t)(tag % a->sets);
}

static void unlink_entry(struct tlb_array *a, struct tlb_entry *e)
{
    if (e->older != TLB_NIL) a->e[e->older].newer = e->newer;
    else a->lru[e->set] = e->newer;
    if (e->newer != TLB_NIL) a->e[e->newer].older = e->older;
    else a->mru[e->set] = e->older;
}

static void link_mru(struct tlb_array *a, struct tlb_entry *e)
{
    uint32_t i = (uint32_t)(e - a->e), m = a->mru[e->set];
    e->older = m;
    e->newer = TLB_NIL;
    if (m != TLB_NIL) a->e[m].newer = i;
    else a->lru[e->set] = i;
    a->mru[e->set] = i;
}

void tlb_array_touch(struct tlb_array *a, struct tlb_entry *e)
{
    e->stamp = ++a->stamp;
    if (a->mru[e->set] == (uint32_t)(e - a->e)) return;
    unlink_entry(a, e);
    link_mru(a, e);
}

static struct tlb_entry *probe(struct tlb_array *a, uint64_t tag, int si)
{
    uint32_t i = idxmap_get(&a->map, key_of(tag, si));
    return i == IDXMAP_NONE ? NULL : &a->e[i];
}

struct tlb_entry *tlb_array_find(struct tlb_array *a, uint64_t vaddr)
{
    for (int i = 0; i < TLB_NSIZES; i++) {
        if (!a->nvalid[i]) continue;
        struct tlb_entry *e = probe(a, vaddr >> tlb_size_shift[i], i);
        if (e) return e;
    }
    return NULL;
}

/* The set's lowest invalid way, or TLB_NIL. */
static uint32_t first_free(const struct tlb_array *a, uint32_t set)
{
    const uint64_t *f = &a->free[(size_t)set * a->fwords];
    for (uint32_t w = 0; w < a->fwords; w++)
        if (f[w]) return set * a->ways + w * 64 + (uint32_t)__builtin_ctzll(f[w]);
    return TLB_NIL;
}

static void drop(struct tlb_array *a, struct tlb_entry *e)
{
    uint32_t way = (uint32_t)(e - a->e) - e->set * a->ways;
    idxmap_del(&a->map, key_of(e->tag, size_index(e->shift)));
    unlink_entry(a, e);
    a->free[(size_t)e->set * a->fwords + way / 64] |= 1ULL << (way % 64);
    a->nvalid[size_index(e->shift)]--;
    e->valid = false;
}

bool tlb_array_insert(struct tlb_array *a, uint64_t vaddr, uint8_t shift,
                      uint64_t pbase, uint8_t flags)
{
    int si = size_index(shift);
    if (si < 0) sim_panic("tlb", 0, "page shift %u is not a TLB page size", shift);
    uint64_t tag = vaddr >> shift;
    struct tlb_entry *v = probe(a, tag, si);
    bool evicted = false;
    if (v) {                                  /* refresh in place */
        v->pbase = pbase;
        v->flags = flags;
        tlb_array_touch(a, v);
        return false;
    }
    uint32_t set = set_of(a, tag), i = first_free(a, set);
    if (i == TLB_NIL) {
        i = a->lru[set];
        drop(a, &a->e[i]);
        evicted = true;
    }
    v = &a->e[i];
    uint32_t way = i - set * a->ways;
    a->free[(size_t)set * a->fwords + way / 64] &= ~(1ULL << (way % 64));
    v->tag = tag;
    v->pbase = pbase;
    v->shift = shift;
    v->flags = flags;
    v->valid = true;
    v->stamp = ++a->stamp;
    link_mru(a, v);
    idxmap_put(&a->map, key_of(tag, si), i);
    a->nvalid[si]++;
    return evicted;
}

unsigned tlb_array_invalidate(struct tlb_array *a, uint64_t vpn)
{
    unsigned n = 0;
    uint64_t vaddr = vpn << PAGE_SHIFT;
    for (int i = 0; i < TLB_NSIZES; i++) {
        if (!a->nvalid[i]) continue;
        struct tlb_entry *e = probe(a, vaddr >> tlb_size_shift[i], i);
        if (e) { drop(a, e); n++; }
    }
    return n;
}

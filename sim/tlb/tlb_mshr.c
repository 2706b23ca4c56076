/* The register file is small (32 per L1, 128 in the L2 by default); the
 * map and the free bitset find what searching it in order would. */
#include <stdlib.h>
#include "tlb_mshr.h"
#include "core/mem_req.h"

static inline uint64_t key_of(uint64_t vpn, bool want_dirty) { return vpn << 1 | want_dirty; }

void tlb_mshrs_init(struct tlb_mshrs *t, uint32_t n)
{
    t->n = n;
    t->used = 0;
    t->m = xcalloc(n, sizeof *t->m);
    t->free = xcalloc((n + 63) / 64, sizeof *t->free);
    for (uint32_t i = 0; i < n; i++) t->free[i / 64] |= 1ULL << (i % 64);
    idxmap_init(&t->map, n);
}

void tlb_mshrs_free(struct tlb_mshrs *t)
{
    free(t->m);
    free(t->free);
    idxmap_free(&t->map);
    t->m = NULL;
}

struct tlb_mshr *tlb_mshr_find(struct tlb_mshrs *t, uint64_t vpn, bool want_dirty)
{
    if (!t->used) return NULL;
    uint32_t i = idxmap_get(&t->map, key_of(vpn, want_dirty));
    return i == IDXMAP_NONE ? NULL : &t->m[i];
}

struct tlb_mshr *tlb_mshr_alloc(struct tlb_mshrs *t, uint64_t vpn, bool want_dirty,
                                struct mem_req *r)
{
    if (t->used == t->n) return NULL;
    uint32_t w = 0;
    while (!t->free[w]) w++;
    uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(t->free[w]);
    t->free[w] &= t->free[w] - 1;
    r->next = NULL;
    t->m[i] = (struct tlb_mshr){ true, want_dirty, vpn, r, r };
    t->used++;
    idxmap_put(&t->map, key_of(vpn, want_dirty), i);
    return &t->m[i];
}

void tlb_mshr_merge(struct tlb_mshr *m, struct mem_req *r)
{
    r->next = NULL;
    m->tail->next = r;
    m->tail = r;
}

struct mem_req *tlb_mshr_release(struct tlb_mshrs *t, struct tlb_mshr *m)
{
    struct mem_req *w = m->waiters;
    uint32_t i = (uint32_t)(m - t->m);
    idxmap_del(&t->map, key_of(m->vpn, m->want_dirty));
    *m = (struct tlb_mshr){0};
    t->free[i / 64] |= 1ULL << (i % 64);
    t->used--;
    return w;
}

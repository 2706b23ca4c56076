#include <stdlib.h>
#include "page_table.h"

static size_t hash(uint64_t vpn, size_t cap)
{
    /* Fibonacci hashing spreads the consecutive VPNs of an array. */
    return (size_t)((vpn * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);
}

void pt_init(struct page_table *pt)
{
    pt->cap = 1024;
    pt->used = 0;
    pt->slot = xcalloc(pt->cap, sizeof *pt->slot);
}

void pt_free(struct page_table *pt)
{
    free(pt->slot);
    pt->slot = NULL;
}

struct pte *pt_find(const struct page_table *pt, uint64_t vpn)
{
    for (size_t i = hash(vpn, pt->cap);; i = (i + 1) & (pt->cap - 1)) {
        struct pte *p = &pt->slot[i];
        if (!p->used) return NULL;
        if (p->vpn == vpn) return p;
    }
}

static void grow(struct page_table *pt)
{
    struct pte *old = pt->slot;
    size_t oldcap = pt->cap;
    pt->cap *= 2;
    pt->slot = xcalloc(pt->cap, sizeof *pt->slot);
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i].used) continue;
        size_t j = hash(old[i].vpn, pt->cap);
        while (pt->slot[j].used) j = (j + 1) & (pt->cap - 1);
        pt->slot[j] = old[i];
    }
    free(old);
}

struct pte *pt_get(struct page_table *pt, uint64_t vpn)
{
    struct pte *p = pt_find(pt, vpn);
    if (p) return p;
    if (2 * (pt->used + 1) > pt->cap) grow(pt);
    size_t i = hash(vpn, pt->cap);
    while (pt->slot[i].used) i = (i + 1) & (pt->cap - 1);
    p = &pt->slot[i];
    *p = (struct pte){ .vpn = vpn, .used = true };
    pt->used++;
    return p;
}

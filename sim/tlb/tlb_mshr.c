/* The register file is small (32 per L1, 128 in the L2 by default), so a
 * linear search models the CAM; it never grows with the footprint. */
#include <stdlib.h>
#include "tlb_mshr.h"
#include "../mem_req.h"

void tlb_mshrs_init(struct tlb_mshrs *t, uint32_t n)
{
    t->n = n;
    t->used = 0;
    t->m = xcalloc(n, sizeof *t->m);
}

void tlb_mshrs_free(struct tlb_mshrs *t) { free(t->m); t->m = NULL; }

struct tlb_mshr *tlb_mshr_find(struct tlb_mshrs *t, uint64_t vpn, bool want_dirty)
{
    if (!t->used) return NULL;
    for (uint32_t i = 0; i < t->n; i++)
        if (t->m[i].valid && t->m[i].vpn == vpn && t->m[i].want_dirty == want_dirty)
            return &t->m[i];
    return NULL;
}

struct tlb_mshr *tlb_mshr_alloc(struct tlb_mshrs *t, uint64_t vpn, bool want_dirty,
                                struct mem_req *r)
{
    if (t->used == t->n) return NULL;
    for (uint32_t i = 0; i < t->n; i++) {
        if (t->m[i].valid) continue;
        r->next = NULL;
        t->m[i] = (struct tlb_mshr){ true, want_dirty, vpn, r, r };
        t->used++;
        return &t->m[i];
    }
    return NULL;
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
    *m = (struct tlb_mshr){0};
    t->used--;
    return w;
}

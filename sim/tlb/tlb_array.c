/* Entries of different page sizes share the array; a lookup probes the set
 * its address selects for each size that currently has entries (at most
 * three probes), the way a unified multi-size TLB does (Mosaic, cited by
 * HPE Sec. VI).  Replacement is true LRU by use stamp (HPE Table I and
 * batch-aware Table 1: LRU in both levels). */
#include <stdlib.h>
#include "tlb_array.h"
#include "../mem_req.h"

const uint8_t tlb_size_shift[TLB_NSIZES] = { 12, 16, 21 };

static int size_index(uint8_t shift)
{
    for (int i = 0; i < TLB_NSIZES; i++)
        if (tlb_size_shift[i] == shift) return i;
    return -1;
}

void tlb_array_init(struct tlb_array *a, uint32_t entries, uint32_t ways)
{
    a->ways = ways;
    a->sets = entries / ways;
    a->e = xcalloc(entries, sizeof *a->e);
    a->stamp = 0;
    for (int i = 0; i < TLB_NSIZES; i++) a->nvalid[i] = 0;
}

void tlb_array_free(struct tlb_array *a) { free(a->e); a->e = NULL; }

static struct tlb_entry *set_of(struct tlb_array *a, uint64_t tag)
{
    return &a->e[(tag % a->sets) * a->ways];
}

static struct tlb_entry *probe(struct tlb_array *a, uint64_t tag, uint8_t shift)
{
    struct tlb_entry *set = set_of(a, tag);
    for (uint32_t w = 0; w < a->ways; w++)
        if (set[w].valid && set[w].tag == tag && set[w].shift == shift) return &set[w];
    return NULL;
}

struct tlb_entry *tlb_array_find(struct tlb_array *a, uint64_t vaddr)
{
    for (int i = 0; i < TLB_NSIZES; i++) {
        if (!a->nvalid[i]) continue;
        struct tlb_entry *e = probe(a, vaddr >> tlb_size_shift[i], tlb_size_shift[i]);
        if (e) return e;
    }
    return NULL;
}

bool tlb_array_insert(struct tlb_array *a, uint64_t vaddr, uint8_t shift,
                      uint64_t pbase, uint8_t flags)
{
    int si = size_index(shift);
    if (si < 0) sim_panic("tlb", 0, "page shift %u is not a TLB page size", shift);
    uint64_t tag = vaddr >> shift;
    struct tlb_entry *set = set_of(a, tag), *v = probe(a, tag, shift);
    bool evicted = false;
    if (v) {
        a->nvalid[si]--;
    } else {
        for (uint32_t w = 0; !v && w < a->ways; w++)
            if (!set[w].valid) v = &set[w];
        if (!v) {
            v = &set[0];
            for (uint32_t w = 1; w < a->ways; w++)
                if (set[w].stamp < v->stamp) v = &set[w];
            a->nvalid[size_index(v->shift)]--;
            evicted = true;
        }
    }
    *v = (struct tlb_entry){ tag, pbase, ++a->stamp, shift, flags, true };
    a->nvalid[si]++;
    return evicted;
}

unsigned tlb_array_invalidate(struct tlb_array *a, uint64_t vpn)
{
    unsigned n = 0;
    uint64_t vaddr = vpn << PAGE_SHIFT;
    for (int i = 0; i < TLB_NSIZES; i++) {
        if (!a->nvalid[i]) continue;
        struct tlb_entry *e = probe(a, vaddr >> tlb_size_shift[i], tlb_size_shift[i]);
        if (e) { e->valid = false; a->nvalid[i]--; n++; }
    }
    return n;
}

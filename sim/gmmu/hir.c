/* HIR cache (HPE Sec. IV-B, V-A, V-C): beside the page walker, records
 * page-walk hits.  Tag = page-set address (vpn >> log2(16)), data = one
 * 2-bit saturating counter per page of the set; 8-way, 1024 entries.  A
 * vector keeps the order in which entries were first touched, and the
 * touched entries leave in that order.  A hit whose page set finds its
 * HIR set full of other page sets is lost (the paper's way conflict, e.g.
 * MVT): the record already held is kept, the new one dropped. */
#include <stdlib.h>
#include <string.h>
#include "hir.h"

void hir_init(struct hir *h, uint32_t entries, uint32_t ways, uint32_t set_pages,
              uint32_t counter_bits)
{
    h->ways = ways;
    h->sets = entries / ways;
    h->set_shift = (uint32_t)__builtin_ctz(set_pages);
    h->cmax = (1u << counter_bits) - 1;
    h->w = xcalloc(entries, sizeof *h->w);
    h->order = xcalloc(entries, sizeof *h->order);
    h->n = 0;
}

void hir_free(struct hir *h)
{
    free(h->w);
    free(h->order);
}

bool hir_touch(struct hir *h, uint64_t vpn)
{
    uint64_t tag = vpn >> h->set_shift;
    unsigned off = (unsigned)(vpn & ((1u << h->set_shift) - 1));
    struct hir_way *s = &h->w[(tag % h->sets) * h->ways], *free_way = NULL;
    for (uint32_t i = 0; i < h->ways; i++) {
        if (s[i].valid && s[i].tag == tag) {
            if (s[i].count[off] < h->cmax) s[i].count[off]++;
            return true;
        }
        if (!s[i].valid && !free_way) free_way = &s[i];
    }
    if (!free_way) return false;
    memset(free_way, 0, sizeof *free_way);
    free_way->valid = true;
    free_way->tag = tag;
    free_way->count[off] = 1;
    h->order[h->n++] = (uint32_t)(free_way - h->w);
    return true;
}

uint32_t hir_take(struct hir *h, struct hir_record *out)
{
    uint32_t n = h->n;
    for (uint32_t i = 0; i < n; i++) {
        struct hir_way *w = &h->w[h->order[i]];
        out[i].page_set = w->tag;
        out[i].first_vpn = w->tag << h->set_shift;
        memcpy(out[i].count, w->count, sizeof out[i].count);
        w->valid = false;
    }
    h->n = 0;
    return n;
}

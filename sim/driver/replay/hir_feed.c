#include <stdlib.h>
#include "hir_feed.h"
#include "driver/evict/evict.h"

void hir_feed_init(struct hir_feed *f, size_t max_pages, unsigned set_shift,
                   uint64_t interval)
{
    f->cap = max_pages ? max_pages : 1;
    f->rec = xcalloc(f->cap, sizeof *f->rec);
    page_map_init(&f->pages, f->cap);
    page_map_init(&f->sets, f->cap);
    f->n = 0;
    f->set_shift = set_shift;
    f->interval = interval;
    f->faults = 0;
}

void hir_feed_free(struct hir_feed *f)
{
    page_map_free(&f->pages);
    page_map_free(&f->sets);
    free(f->rec);
}

static int by_rank_then_vpn(const void *a, const void *b)
{
    const struct hir_rec *x = a, *y = b;
    if (x->rank != y->rank) return x->rank < y->rank ? -1 : 1;
    return x->vpn < y->vpn ? -1 : x->vpn > y->vpn;
}

void hir_feed_flush(struct hir_feed *f, struct evictor *ev)
{
    qsort(f->rec, f->n, sizeof *f->rec, by_rank_then_vpn);
    for (size_t i = 0; i < f->n; i++) {
        evictor_hits(ev, f->rec[i].vpn, f->rec[i].count);
        page_map_erase(&f->pages, f->rec[i].vpn);
        page_map_erase(&f->sets, f->rec[i].vpn >> f->set_shift);
    }
    f->n = 0;
}

void hir_feed_hit(struct hir_feed *f, struct evictor *ev, uint64_t vpn)
{
    uint32_t i = page_map_get(&f->pages, vpn);
    if (i != PAGE_MAP_NONE) { f->rec[i].count++; return; }
    if (f->n == f->cap) hir_feed_flush(f, ev);   /* full: transfer early */
    uint64_t tag = vpn >> f->set_shift;
    uint32_t rank = page_map_get(&f->sets, tag);
    if (rank == PAGE_MAP_NONE) {
        rank = (uint32_t)f->n;               /* first touch of the set */
        page_map_put(&f->sets, tag, rank);
    }
    f->rec[f->n] = (struct hir_rec){ rank, vpn, 1 };
    page_map_put(&f->pages, vpn, (uint32_t)f->n++);
}

void hir_feed_fault(struct hir_feed *f, struct evictor *ev)
{
    if (++f->faults % f->interval == 0) hir_feed_flush(f, ev);
}

/* Private to sim/driver: the replay mode's stand-in for the HIR transfer
 * (HPE Sec. IV-B).  Hits to resident pages are counted per page and handed
 * to the policy every `interval`-th fault, page sets in the order they were
 * first touched and pages of a set in address order: the "relaxed reference
 * order" the HIR keeps.  It has no ways, so no hit is lost to a conflict
 * (the paper's 1024-entry 8-way HIR avoided conflicts in most workloads). */
#ifndef UVMSIM_DRIVER_HIR_FEED_H
#define UVMSIM_DRIVER_HIR_FEED_H

#include "driver/mem/mem.h"

struct evictor;
struct hir_rec { uint64_t rank, vpn; uint32_t count; };

struct hir_feed {
    struct page_map pages, sets;   /* vpn -> record, set tag -> rank */
    struct hir_rec *rec;
    size_t n, cap;
    unsigned set_shift;
    uint64_t interval, faults;
};

void hir_feed_init(struct hir_feed *f, size_t max_pages, unsigned set_shift,
                   uint64_t interval);
void hir_feed_free(struct hir_feed *f);
void hir_feed_hit(struct hir_feed *f, struct evictor *ev, uint64_t vpn);
/* Counts a fault; on every interval-th one hands the records over. */
void hir_feed_fault(struct hir_feed *f, struct evictor *ev);
void hir_feed_flush(struct hir_feed *f, struct evictor *ev);

#endif

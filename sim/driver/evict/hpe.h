/* Private to sim/driver: HPE's state (evict_hpe.c: the page-set chain and
 * the ops; hpe_strategy.c: classification, victim-set choice, dynamic
 * adjustment). */
#ifndef UVMSIM_DRIVER_HPE_H
#define UVMSIM_DRIVER_HPE_H

#include "driver/mem/mem.h"
#include "vpn_fifo.h"

struct rec_table;

#define NIL UINT32_MAX
enum { LRU, MRUC };             /* strategies */
enum feed { FEED_HIR, FEED_IDEAL, FEED_NONE };

struct pset {
    uint64_t tag;                 /* (vpn >> shift) << 1 | secondary */
    uint64_t bits, resident, mask;
    uint64_t stamp;               /* interval it was last placed into new */
    uint32_t counter, prev, next;
    bool divided;
};

struct hpe {
    unsigned shift;
    uint64_t set_pages, full, counter_max, interval, fifo_depth, wrong_thr,
             jump, large_fp;
    double ratio1_thr, ratio2_thr;
    enum feed feed;
    bool adjust, fixed;
    /* chain */
    struct pset *s;
    uint32_t head, tail, p1, p2, free_head;
    uint64_t nsets;
    struct page_map by_tag;
    /* history buffer of divided primaries: base tag -> mask */
    uint64_t *h_tag, *h_mask, h_cap, h_head, h_n;
    struct page_map h_map;
    /* time */
    uint64_t faults, cur, in_interval;
    /* strategy */
    int cls;                      /* HPE_CLASS_* */
    /* driver.evict.hpe.classify=faulted_fill: classify only once faults
     * have brought in `fill_faults` pages (the frames); 0: at the first
     * victim (first_victim). */
    uint64_t fill_faults;
    int strategy;
    uint64_t jump_offset, old_at_fill, stint, last_stint[2];
    bool tried[2];
    uint64_t wrong[2];
    struct vpn_fifo fifo[2];
    uint32_t cur_set;
    uint64_t cur_set_stamp, steps;
    double ratio1, ratio2;
    /* stats */
    uint64_t *st_class, *st_strategy, *st_switches, *st_jumps, *st_divided;
    uint64_t own[5];
    double *st_r1, *st_r2, own_r[2];
    struct rec_table *events;
};

void hpe_event(struct hpe *h, const char *what, uint64_t value);
/* Table III at the first fill: sets h->cls and the starting strategy. */
void hpe_classify(struct hpe *h);
/* Algorithm 1 when the current strategy's wrong evictions reach the threshold. */
void hpe_adjust(struct hpe *h);
/* The chain entry to evict from (partition, then LRU or MRU-C). */
uint32_t hpe_choose_set(struct hpe *h);

#endif

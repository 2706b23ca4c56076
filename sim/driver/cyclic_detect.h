/* Private to sim/driver: the cyclic-thrashing detector of Park et al.
 * (WIP, Sec. II-A), shared by the page-level policy (evict_cyclic.c) and
 * the real driver's root-chunk list (drv_cyclic.c).  Every evicted unit
 * (a page, or a VA block whose root chunk goes) has an eviction count;
 * units with the same count form a peer group.  Thrashing is declared when
 * an eviction moves a unit into group k >= 2 and group k holds at least
 * `ratio` (75 %, Fig. 1) of group k - 1, provided group k - 1 holds at
 * least `min_group` units (smaller groups are the paper's outliers that
 * "deviate from the mainstream peer groups"). */
#ifndef UVMSIM_DRIVER_CYCLIC_DETECT_H
#define UVMSIM_DRIVER_CYCLIC_DETECT_H

#include "page_counts.h"

struct cyc_detect {
    struct page_counts counts;    /* one byte per unit (page_counts.h) */
    uint64_t *hist;               /* hist[k]: units evicted exactly k times */
    size_t hist_len;
    double ratio;
    uint64_t min_group;
};

void cyc_detect_init(struct cyc_detect *d, double ratio, uint64_t min_group);
void cyc_detect_free(struct cyc_detect *d);
/* Counts one eviction of `unit`; true when it declares cyclic thrashing. */
bool cyc_detect_count(struct cyc_detect *d, uint64_t unit);

#endif

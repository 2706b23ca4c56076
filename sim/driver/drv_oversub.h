/* Private to sim/driver: the runtime's control of thread oversubscription
 * from page lifetimes (batch-aware paper, Kim et al. ASPLOS 2020, Sec. 4.1,
 * Fig. 6 step 3, Sec. 5.1): every driver.oversub.period GPU cycles
 * (100k) the runtime takes the running average of the lifetimes of the
 * pages evicted so far (allocation -> eviction, driver.residency_us) as
 * its indicator of premature evictions; when it has fallen by
 * driver.oversub.threshold (20 %) it decrements the extra thread blocks
 * per SM (the number of concurrently runnable blocks) and, by default,
 * allows no more; otherwise one more extra block per SM, up to
 * driver.oversub.max_extra.
 *
 * The core (oversub_ctl_*) is a pure function of the lifetime sums and is
 * tested on crafted sequences; drv_oversub.c times it and tells the GPU. */
#ifndef UVMSIM_DRIVER_OVERSUB_H
#define UVMSIM_DRIVER_OVERSUB_H

#include "core/base.h"

struct oversub_ctl {
    unsigned extra, max_extra;  /* extra blocks per SM now; the cap */
    double threshold;           /* a fall of this share of the previous average decrements */
    bool freeze;                /* after a decrement, never increment again */
    bool per_period;            /* average of the period's evictions, not of all so far */
    bool frozen, have_prev;
    double prev;                /* the previous period's average (us) */
    double sum0;                /* per_period: the sums at the period's start */
    uint64_t n0;
};

void oversub_ctl_init(struct oversub_ctl *c, unsigned extra, unsigned max_extra,
                      double threshold, bool freeze, bool per_period);
/* One period, given the sum (us) and number of the lifetimes recorded so
 * far: the new number of extra blocks per SM.  *avg gets the average the
 * decision used (-1 when no page has been evicted: no average yet). */
unsigned oversub_ctl_step(struct oversub_ctl *c, double sum, uint64_t n, double *avg);

#endif

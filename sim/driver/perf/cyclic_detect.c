/* The cyclic-thrashing detector (Park et al., WIP, Sec. II-A); see
 * cyclic_detect.h. */
#include <string.h>
#include <stdlib.h>
#include "perf.h"

void cyc_detect_init(struct cyc_detect *d, double ratio, uint64_t min_group)
{
    page_counts_init(&d->counts);
    d->hist_len = 8;
    d->hist = xcalloc(d->hist_len, sizeof *d->hist);
    d->ratio = ratio;
    d->min_group = min_group ? min_group : 1;
}

void cyc_detect_free(struct cyc_detect *d)
{
    page_counts_free(&d->counts);
    free(d->hist);
}

bool cyc_detect_count(struct cyc_detect *d, uint64_t unit)
{
    uint32_t k = page_counts_inc(&d->counts, unit);
    if (k >= d->hist_len) {
        d->hist = xrealloc(d->hist, 2 * d->hist_len * sizeof *d->hist);
        memset(d->hist + d->hist_len, 0, d->hist_len * sizeof *d->hist);
        d->hist_len *= 2;
    }
    if (k > 1) d->hist[k - 1]--;
    d->hist[k]++;
    return k >= 2 && d->hist[k - 1] >= d->min_group &&
           (double)d->hist[k] >= d->ratio * (double)d->hist[k - 1];
}

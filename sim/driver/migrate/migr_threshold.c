/* threshold-N (thesis Sec. 5.2.2): "pages become candidates for software
 * controlled page migration only after they are touched N times by the
 * GPU"; threshold-1 migrates "the first time the GPU translates an address
 * for the page" and needs no counters.  The counter is the hardware's
 * (the thesis puts it "in on-chip SRAMs at the L2, memory controller, or
 * within the DRAM"): one per page, counting the touches of
 * driver.migrate.touch, and the GPU writes the page's hint into the ring
 * at the N-th (migr_engine.c).  A page hints once; a hint the full ring
 * dropped is written again at the next touch. */
#include "migrate.h"

static bool touch(struct migr *m, uint64_t i)
{
    if (m->count[i] >= m->threshold) return false;
    return ++m->count[i] == m->threshold;
}

const struct migr_ops migr_threshold_ops = { "threshold", touch, NULL };

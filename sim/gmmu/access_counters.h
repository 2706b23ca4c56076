/* Private to sim/gmmu: access counters over remote memory. */
#ifndef UVMSIM_GMMU_ACCESS_COUNTERS_H
#define UVMSIM_GMMU_ACCESS_COUNTERS_H

#include "core/base.h"

struct ac_slot { uint64_t region; uint32_t count; bool used; };

struct access_counters {
    struct ac_slot *slot;         /* open addressing, grows with regions touched */
    size_t cap, used;
    uint32_t shift, threshold;
};

void ac_init(struct access_counters *a, uint32_t region_shift, uint32_t threshold);
void ac_free(struct access_counters *a);
/* Count one access to vaddr; true when its region's counter reached the
 * threshold (the counter restarts from zero). */
bool ac_count(struct access_counters *a, uint64_t vaddr, uint64_t *region);

#endif

/* Volta-style access counters (NVIDIA's UVM driver: access-counter
 * notifications; default threshold 256): one counter per 64 KiB region of
 * remote (host) memory the GPU accesses; when a counter reaches the
 * threshold the hardware writes a notification for the driver and the
 * counter restarts.  Kept in a hash table sized by the regions touched. */
#include <stdlib.h>
#include "access_counters.h"

static size_t hash(uint64_t r, size_t cap)
{
    return (size_t)((r * 0x9e3779b97f4a7c15ULL) >> 17) & (cap - 1);
}

void ac_init(struct access_counters *a, uint32_t region_shift, uint32_t threshold)
{
    a->cap = 256;
    a->used = 0;
    a->slot = xcalloc(a->cap, sizeof *a->slot);
    a->shift = region_shift;
    a->threshold = threshold;
}

void ac_free(struct access_counters *a) { free(a->slot); a->slot = NULL; }

static void grow(struct access_counters *a)
{
    struct ac_slot *old = a->slot;
    size_t oldcap = a->cap;
    a->cap *= 2;
    a->slot = xcalloc(a->cap, sizeof *a->slot);
    for (size_t i = 0; i < oldcap; i++) {
        if (!old[i].used) continue;
        size_t j = hash(old[i].region, a->cap);
        while (a->slot[j].used) j = (j + 1) & (a->cap - 1);
        a->slot[j] = old[i];
    }
    free(old);
}

bool ac_count(struct access_counters *a, uint64_t vaddr, uint64_t *region)
{
    uint64_t r = vaddr >> a->shift;
    if (2 * (a->used + 1) > a->cap) grow(a);
    size_t i = hash(r, a->cap);
    while (a->slot[i].used && a->slot[i].region != r) i = (i + 1) & (a->cap - 1);
    struct ac_slot *s = &a->slot[i];
    if (!s->used) { *s = (struct ac_slot){ r, 0, true }; a->used++; }
    *region = r << a->shift;
    if (++s->count < a->threshold) return false;
    s->count = 0;
    return true;
}

/* Oracle placement (thesis Sec. 2.4, 4.3.2): a two-pass simulation.  Pass 1
 * (`uvmsim profile`) counts the accesses that reach memory -- after the
 * caches -- per 4 KiB page, in 32 B sectors (bytes, not requests: the
 * target is a share of bandwidth; drv_place.c driver_profile_dram); pass 2 puts "the minimum number of pages, when
 * sorted from hottest to coldest, such that the GDDR bandwidth is fully
 * subscribed" in GPU memory: the hottest pages until they carry the GPU's
 * bandwidth share y/100 of all accesses, or GPU memory is full; the rest
 * in the host's.  Among pages equally hot the choice is arbitrary (the
 * thesis sorts by count alone); it is a seeded random order, not address
 * order: address order sent the last 30 % of uniformly read arrays to the
 * host as one range, which a kernel that walks its arrays in time then
 * read from DDR4 alone (pathfinder 0.58x BW-AWARE unconstrained,
 * docs/decisions.md). */
#include <stdlib.h>
#include "placement.h"
#include "core/rng.h"

struct pc { uint64_t count, tie, page; };

static int hotter(const void *a, const void *b)
{
    const struct pc *x = a, *y = b;
    if (x->count != y->count) return x->count > y->count ? -1 : 1;
    if (x->tie != y->tie) return x->tie < y->tie ? -1 : 1;
    return x->page < y->page ? -1 : x->page > y->page;
}

static void place(const struct place_in *in, uint8_t *where)
{
    SIM_ASSERT(in->page_dram, "driver", 0, "oracle placement without a profile");
    struct pc *p = xmalloc((in->npages ? in->npages : 1) * sizeof *p);
    uint64_t total = 0;
    for (uint64_t i = 0; i < in->npages; i++) {
        uint64_t h = in->seed ^ (i * 0x9e3779b97f4a7c15ULL);
        p[i] = (struct pc){ in->page_dram[i], splitmix64(&h), i };
        total += in->page_dram[i];
        where[i] = PLACE_HOST;
    }
    qsort(p, in->npages, sizeof *p, hotter);
    /* Stop once the GPU's share of the accesses is reached. */
    double target = in->bo_share * (double)total;
    uint64_t cum = 0;
    for (uint64_t k = 0; k < in->npages && k < in->capacity; k++) {
        if ((double)cum >= target || !p[k].count) break;
        where[p[k].page] = PLACE_GPU;
        cum += p[k].count;
    }
    free(p);
}

const struct place_ops place_oracle_ops = { "oracle", place };

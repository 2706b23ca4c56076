/* BW-AWARE xC-yB (thesis Sec. 4.2.1-4.2.2.2): pages in the ratio of the
 * memories' bandwidths, f_B = b_B / (b_B + b_C) (the split that makes
 * N f_B / b_B = N (1 - f_B) / b_C), by a random draw per new page: "a
 * random number in the range [0, 99] is generated.  If this number is
 * >= 30, the page is allocated from the bandwidth-optimized memory;
 * otherwise ... capacity-optimized" -- here a draw in [0, 1) against
 * 1 - y/100, so x need not be a whole percent (the derived 28.6C-71.4B).
 * When GPU memory is full the rest goes to the host (Sec. 4.2.2.3: at 10 %
 * capacity BW-AWARE ends at 90C-10B).  No history, no access counts. */
#include "placement.h"
#include "core/rng.h"

void place_bw_draw(struct rng *r, double bo_share, uint64_t first, uint64_t n,
                   uint64_t *room, uint8_t *where)
{
    double x = 1.0 - bo_share;
    for (uint64_t i = first; i < first + n; i++) {
        double u = (double)(rng_next(r) >> 11) * 0x1p-53;
        bool gpu = u >= x && *room;
        where[i] = gpu ? PLACE_GPU : PLACE_HOST;
        if (gpu) --*room;
    }
}

static void place(const struct place_in *in, uint8_t *where)
{
    struct rng r;
    rng_init(&r, in->seed, "driver.placement.bw-aware");
    uint64_t room = in->capacity;
    place_bw_draw(&r, in->bo_share, 0, in->npages, &room, where);
}

const struct place_ops place_bwaware_ops = { "bw-aware", place };

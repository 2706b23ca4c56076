/* INTERLEAVE = 50C-50B (thesis Sec. 4.2.2.2): Linux's round robin over
 * the memory zones (MPOL_INTERLEAVE), page by page in allocation order,
 * starting with the host's (an assumption: the thesis gives no phase,
 * docs/decisions.md); a page whose turn is GPU memory goes to the host
 * once GPU memory is full. */
#include "placement.h"

static void place(const struct place_in *in, uint8_t *where)
{
    uint64_t room = in->capacity;
    for (uint64_t i = 0; i < in->npages; i++) {
        bool gpu = (i & 1) && room;
        where[i] = gpu ? PLACE_GPU : PLACE_HOST;
        if (gpu) room--;
    }
}

const struct place_ops place_interleave_ops = { "interleave", place };

/* LOCAL = 0C-100B (thesis Sec. 4.2.2.2): the Linux default for a GPU
 * process, every page in GPU memory until it is full, then the host's
 * (Sec. 4.2.2.3: "spills to CO only when BO is full"); pages in
 * allocation order. */
#include "placement.h"

static void place(const struct place_in *in, uint8_t *where)
{
    uint64_t room = in->capacity;
    for (uint64_t i = 0; i < in->npages; i++) {
        where[i] = room ? PLACE_GPU : PLACE_HOST;
        if (room) room--;
    }
}

const struct place_ops place_local_ops = { "local", place };

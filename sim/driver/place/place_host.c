/* CC-only (thesis Ch. V, Sec. 5.2.2: "performance 1.0"): every page in
 * host memory, reached by the GPU through cache coherence over the link;
 * the starting point of dynamic migration (driver.migration), where "pages
 * reside entirely in DDR memory" initially (Sec. 5.2). */
#include "placement.h"

static void place(const struct place_in *in, uint8_t *where)
{
    for (uint64_t i = 0; i < in->npages; i++) where[i] = PLACE_HOST;
}

const struct place_ops place_host_ops = { "host", place };

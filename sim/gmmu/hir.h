/* Private to sim/gmmu: the HIR cache (HPE Sec. IV-B). */
#ifndef UVMSIM_GMMU_HIR_H
#define UVMSIM_GMMU_HIR_H

#include "gmmu.h"

struct hir_way { uint64_t tag; uint8_t count[HIR_MAX_SET_PAGES]; bool valid; };

struct hir {
    uint32_t sets, ways, set_shift, cmax;
    struct hir_way *w;
    uint32_t *order;          /* first-touch order: indices into w */
    uint32_t n;               /* touched entries */
};

void hir_init(struct hir *h, uint32_t entries, uint32_t ways, uint32_t set_pages,
              uint32_t counter_bits);
void hir_free(struct hir *h);
/* A walk hit page vpn: false when a way conflict lost the record. */
bool hir_touch(struct hir *h, uint64_t vpn);
/* Copy the touched entries out in first-touch order (out holds the HIR's
 * entry count) and flush; returns how many. */
uint32_t hir_take(struct hir *h, struct hir_record *out);

#endif

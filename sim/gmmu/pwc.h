/* Private to sim/gmmu: the page-walk cache, holding upper-level entries
 * (levels 4, 3 and 2) so a walk can start below the root. */
#ifndef UVMSIM_GMMU_PWC_H
#define UVMSIM_GMMU_PWC_H

#include "core/base.h"

struct pwc_entry { uint64_t key, stamp; bool valid; };

struct pwc {
    uint32_t sets, ways;
    struct pwc_entry *e;
    uint64_t stamp;
};

void pwc_init(struct pwc *c, uint32_t entries, uint32_t ways);
void pwc_free(struct pwc *c);
/* Is the level-`level` entry covering vpn cached?  (Updates LRU.) */
bool pwc_lookup(struct pwc *c, uint64_t vpn, unsigned level);
void pwc_insert(struct pwc *c, uint64_t vpn, unsigned level);

#endif

/* The eviction policy table: adding a policy is one file and one line here
 * (driver.eviction's choices are these names, in this order). */
#include <string.h>
#include "evict.h"
#include "driver/driver.h"

const struct evict_ops *const evict_policies[] = {
    &evict_fifo_ops,
    &evict_lru_ops,
    &evict_random_ops,
    &evict_srrip_ops,
    &evict_brrip_ops,
    &evict_rrip_fp_ops,
    &evict_clock_pro_ops,
    &evict_ideal_ops,
    &evict_hpe_ops,
    &evict_cyclic_ops,
    NULL,
};

const struct evict_ops *evict_find(const char *name)
{
    for (size_t i = 0; evict_policies[i]; i++)
        if (!strcmp(evict_policies[i]->name, name)) return evict_policies[i];
    return NULL;
}

/* driver.eviction's registry (config_registries). */
const char *evict_policy_name(size_t i)
{
    return evict_policies[i] ? evict_policies[i]->name : NULL;
}

/* The list of every component's key table; a new component adds its table
 * here.  Order here is the order of `config show` and `config doc`. */
#include "config.h"

extern const struct cfg_key sim_config_keys[];
extern const struct cfg_key gpu_config_keys[];
extern const struct cfg_key tlb_config_keys[];
extern const struct cfg_key gmmu_config_keys[];
extern const struct cfg_key dram_config_keys[];
extern const struct cfg_key link_config_keys[];
extern const struct cfg_key driver_config_keys[];
extern const struct cfg_key workload_config_keys[];
extern const struct cfg_key stream_config_keys[];
extern const struct cfg_key gemm_config_keys[];

const struct cfg_key *const config_schema_tables[] = {
    sim_config_keys,
    gpu_config_keys,
    tlb_config_keys,
    gmmu_config_keys,
    dram_config_keys,
    link_config_keys,
    driver_config_keys,
    workload_config_keys,
    stream_config_keys,
    gemm_config_keys,
    NULL,
};

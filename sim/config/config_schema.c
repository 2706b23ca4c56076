/* The list of every component's key table; a new component adds its table
 * here.  Order here is the order of `config show` and `config doc`. */
#include "config.h"
#include "dram/dram.h"
#include "driver/driver.h"
#include "gmmu/gmmu.h"
#include "link/link.h"
#include "runtime/runtime.h"
#include "sm/sm.h"
#include "tlb/tlb.h"
#include "workloads/workload.h"
#include "system.h"

const struct cfg_key *const config_schema_tables[] = {
    sim_config_keys,
    gpu_config_keys,
    oversub_config_keys,
    selcache_config_keys,
    tlb_config_keys,
    gmmu_config_keys,
    l2_config_keys,
    l2_remote_config_keys,
    dram_config_keys,
    hostmem_config_keys,
    link_config_keys,
    cpu_config_keys,
    client_cache_config_keys,
    driver_config_keys,
    placement_config_keys,
    migration_config_keys,
    thrashing_config_keys,
    access_counters_config_keys,
    oversub_ctl_config_keys,
    throttle_config_keys,
    evict_config_keys,
    runtime_config_keys,
    workload_config_keys,
    stream_config_keys,
    compute_config_keys,
    gemm_config_keys,
    conv2d_config_keys,
    conv3d_config_keys,
    mm2_config_keys,
    mvt_config_keys,
    atax_config_keys,
    bicg_config_keys,
    gesummv_config_keys,
    fdtd_config_keys,
    vecadd_config_keys,
    gups_config_keys,
    ra_config_keys,
    cyclic_config_keys,
    uvmsmart_config_keys,
    uvmeval_config_keys,
    pattern_config_keys,
    pathfinder_config_keys,
    hotspot_config_keys,
    hotspot3d_config_keys,
    mriq_config_keys,
    bfs_config_keys,
    kmeans_config_keys,
    backprop_config_keys,
    sgemm_config_keys,
    stencil_config_keys,
    srad_config_keys,
    nw_config_keys,
    lud_config_keys,
    spmv_config_keys,
    cutcp_config_keys,
    btree_config_keys,
    histo_config_keys,
    sad_config_keys,
    srad_v1_config_keys,
    xsbench_config_keys,
    minife_config_keys,
    comd_config_keys,
    cns_config_keys,
    mummergpu_config_keys,
    nn_config_keys,
    cfd_config_keys,
    minivite_config_keys,
    graph_config_keys,
    pagerank_config_keys,
    bc_config_keys,
    kcore_config_keys,
    trace_config_keys,
    accelsim_config_keys,
    NULL,
};


/* Enum keys whose choices are an ops table's names (config.h). */
const struct cfg_registry config_registries[] = {
    {"sim.model", NULL, sim_model_name},
    {"gpu.sm.scheduler", NULL, sched_policy_name},
    {"driver.prefetch", NULL, prefetch_policy_name},
    {"driver.placement", "fault", place_policy_name},
    {"driver.migration", "none", migr_policy_name},
    {"driver.throttle", NULL, throttle_policy_name},
    {"driver.eviction", NULL, evict_policy_name},
    {"runtime.policy", NULL, rt_policy_name},
    {"workload.kind", NULL, wl_kind_name},
    {NULL, NULL, NULL},
};

const cfg_check_fn config_checks[] = {
    dram_config_check,
    sim_model_config_check,
    driver_config_check,
    link_config_check,
    evict_config_check,
    placement_config_check,
    tlb_config_check,
    migration_config_check,
    access_counters_config_check,
    NULL,
};

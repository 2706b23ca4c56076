/* The list of every component's key table; a new component adds its table
 * here.  Order here is the order of `config show` and `config doc`. */
#include "config.h"

extern const struct cfg_key sim_config_keys[];
extern const struct cfg_key gpu_config_keys[];
extern const struct cfg_key oversub_config_keys[];
extern const struct cfg_key selcache_config_keys[];
extern const struct cfg_key oversub_ctl_config_keys[];
extern const struct cfg_key tlb_config_keys[];
extern const struct cfg_key gmmu_config_keys[];
extern const struct cfg_key l2_config_keys[];
extern const struct cfg_key l2_remote_config_keys[];
extern const struct cfg_key dram_config_keys[];
extern const struct cfg_key hostmem_config_keys[];
extern const struct cfg_key link_config_keys[];
extern const struct cfg_key cpu_config_keys[];
extern const struct cfg_key client_cache_config_keys[];
extern const struct cfg_key thrashing_config_keys[];
extern const struct cfg_key access_counters_config_keys[];
extern const struct cfg_key driver_config_keys[];
extern const struct cfg_key placement_config_keys[];
extern const struct cfg_key migration_config_keys[];
extern const struct cfg_key evict_config_keys[];
extern const struct cfg_key runtime_config_keys[];
extern const struct cfg_key workload_config_keys[];
extern const struct cfg_key stream_config_keys[];
extern const struct cfg_key compute_config_keys[];
extern const struct cfg_key gemm_config_keys[];
extern const struct cfg_key conv2d_config_keys[];
extern const struct cfg_key conv3d_config_keys[];
extern const struct cfg_key mm2_config_keys[];
extern const struct cfg_key mvt_config_keys[];
extern const struct cfg_key atax_config_keys[];
extern const struct cfg_key bicg_config_keys[];
extern const struct cfg_key gesummv_config_keys[];
extern const struct cfg_key fdtd_config_keys[];
extern const struct cfg_key vecadd_config_keys[];
extern const struct cfg_key gups_config_keys[];
extern const struct cfg_key ra_config_keys[];
extern const struct cfg_key cyclic_config_keys[];
extern const struct cfg_key pattern_config_keys[];
extern const struct cfg_key pathfinder_config_keys[];
extern const struct cfg_key hotspot_config_keys[];
extern const struct cfg_key hotspot3d_config_keys[];
extern const struct cfg_key mriq_config_keys[];
extern const struct cfg_key bfs_config_keys[];
extern const struct cfg_key kmeans_config_keys[];
extern const struct cfg_key graph_config_keys[];
extern const struct cfg_key trace_config_keys[];
extern const struct cfg_key accelsim_config_keys[];
extern const struct cfg_key pagerank_config_keys[];
extern const struct cfg_key bc_config_keys[];
extern const struct cfg_key kcore_config_keys[];
extern const struct cfg_key backprop_config_keys[];
extern const struct cfg_key sgemm_config_keys[];
extern const struct cfg_key stencil_config_keys[];
extern const struct cfg_key srad_config_keys[];
extern const struct cfg_key nw_config_keys[];
extern const struct cfg_key lud_config_keys[];
extern const struct cfg_key spmv_config_keys[];
extern const struct cfg_key cutcp_config_keys[];
extern const struct cfg_key btree_config_keys[];
extern const struct cfg_key histo_config_keys[];
extern const struct cfg_key sad_config_keys[];
extern const struct cfg_key srad_v1_config_keys[];
extern const struct cfg_key xsbench_config_keys[];
extern const struct cfg_key minife_config_keys[];
extern const struct cfg_key comd_config_keys[];
extern const struct cfg_key cns_config_keys[];
extern const struct cfg_key mummergpu_config_keys[];
extern const struct cfg_key nn_config_keys[], cfd_config_keys[], minivite_config_keys[];

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

bool dram_config_check(const struct config *c, struct cfg_error *err);
bool driver_config_check(const struct config *c, struct cfg_error *err);
bool link_config_check(const struct config *c, struct cfg_error *err);
bool evict_config_check(const struct config *c, struct cfg_error *err);
bool placement_config_check(const struct config *c, struct cfg_error *err);
bool tlb_config_check(const struct config *c, struct cfg_error *err);
bool migration_config_check(const struct config *c, struct cfg_error *err);
bool access_counters_config_check(const struct config *c, struct cfg_error *err);

const cfg_check_fn config_checks[] = {
    dram_config_check,
    driver_config_check,
    link_config_check,
    evict_config_check,
    placement_config_check,
    tlb_config_check,
    migration_config_check,
    access_counters_config_check,
    NULL,
};

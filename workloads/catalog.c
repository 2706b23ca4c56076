/* The list of generators: `workload.kind` chooses among them by name; the
 * order here is the order of `uvmsim workloads` and docs/workloads.md. */
#include <string.h>
#include "catalog.h"
#include "config.h"

static const struct wl_info *const catalog[] = {
    &stream_info,
    &compute_info,
    &gemm_info,
    &conv2d_info,
    &conv3d_info,
    &mm2_info,
    &mvt_info,
    &atax_info,
    &bicg_info,
    &gesummv_info,
    &fdtd_info,
    &vecadd_info,
    &gups_info,
    &ra_info,
    &cyclic_info,
    &pattern_info,
    &pathfinder_info,
    &hotspot_info,
    &hotspot3d_info,
    &mriq_info,
    &bfs_info,
    &kmeans_info,
    &backprop_info,
    &sgemm_info,
    &stencil_info,
    &srad_info,
    &nw_info,
    &lud_info,
    &spmv_info,
    &cutcp_info,
    &btree_info,
    &histo_info,
    &sad_info,
    &srad_v1_info,
    &xsbench_info,
    &minife_info,
    &comd_info,
    &cns_info,
    &mummergpu_info,
    &nn_info,
    &cfd_info,
    &minivite_info,
    &bfs_dwc_info,
    &bfs_ta_info,
    &bfs_tf_info,
    &bfs_ttc_info,
    &bfs_twc_info,
    &sssp_twc_info,
    &pagerank_info,
    &bc_info,
    &gc_dtc_info,
    &gc_ttc_info,
    &kcore_info,
    &trace_info,
    &accelsim_info,
};
#define NCAT (sizeof catalog / sizeof catalog[0])

/* `workload.kind` choices: must name every generator above (a unit test
 * checks both lists agree). */
const struct cfg_key workload_config_keys[] = {
    {"workload.kind", CFG_ENUM, "stream", 0, -1,
     "stream|compute|gemm|2dconv|3dconv|2mm|mvt|atax|bicg|gesummv|fdtd2d|vecadd|gups|ra|cyclic|pattern|pathfinder|hotspot|hotspot3d|mriq|bfs|kmeans|backprop|sgemm|stencil|srad|nw|lud|spmv|cutcp|btree|histo|sad|srad_v1|xsbench|minife|comd|cns|mummergpu|nn|cfd|minivite|bfs_dwc|bfs_ta|bfs_tf|bfs_ttc|bfs_twc|sssp_twc|pagerank|bc|gc_dtc|gc_ttc|kcore|trace|accelsim",
     "which generator produces the warps' instructions (uvmsim workloads)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

const struct wl_info *const *wl_catalog(size_t *n)
{
    *n = NCAT;
    return catalog;
}

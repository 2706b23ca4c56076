/* The list of generators: `workload.kind` chooses among them by name; the
 * order here is the order of `uvmsim workloads` and docs/workloads.md. */
#include <string.h>
#include "catalog.h"
#include "config/config.h"

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
    &uvmsmart_info,
    &uvmeval_info,
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

/* `workload.kind` choices: the generators' names above, in order. */
const struct cfg_key workload_config_keys[] = {
    {"workload.kind", CFG_ENUM, "stream", 0, -1, NULL /* catalog[] */,
     "which generator produces the warps' instructions (uvmsim workloads)"},
    {"workload.copies", CFG_ENUM, "copy", 0, -1, "copy|managed",
     "the program's cudaMemcpy steps: copy (as the CUDA program makes them: H2D brings the range into "
     "GPU memory, D2H copies GPU-resident pages out) or managed (the program converted to demand-paged "
     "unified memory, HPE Sec. I's 'the GPU can begin execution before any data transfer has occurred': "
     "the host writes and reads its managed data in place, GPU pages fault in on first touch; the steps "
     "are not run and count in workload.host_steps_skipped; issue 42)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* workload.kind's registry (config_registries). */
const char *wl_kind_name(size_t i)
{
    return i < NCAT ? catalog[i]->ops->name : NULL;
}

const struct wl_info *const *wl_catalog(size_t *n)
{
    *n = NCAT;
    return catalog;
}

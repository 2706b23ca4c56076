/* The list of generators: `workload.kind` chooses among them by name; the
 * order here is the order of `uvmsim workloads` and docs/workloads.md. */
#include <string.h>
#include "catalog.h"
#include "../sim/config.h"

static const struct wl_info *const catalog[] = {
    &stream_info,
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
};
#define NCAT (sizeof catalog / sizeof catalog[0])

/* `workload.kind` choices: must name every generator above (a unit test
 * checks both lists agree). */
const struct cfg_key workload_config_keys[] = {
    {"workload.kind", CFG_ENUM, "stream", 0, -1,
     "stream|gemm|2dconv|3dconv|2mm|mvt|atax|bicg|gesummv|fdtd2d|vecadd|gups|cyclic|pattern|pathfinder|hotspot|hotspot3d|mriq|bfs|kmeans|backprop|sgemm|stencil|srad|nw|lud|spmv|cutcp",
     "which generator produces the warps' instructions (uvmsim workloads)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

const struct wl_info *const *wl_catalog(size_t *n)
{
    *n = NCAT;
    return catalog;
}

/* Inside workloads/: every generator's catalog entry (its ops, schema table,
 * source citation and footprint formula), listed in workloads/catalog.c. */
#ifndef UVMSIM_WL_CATALOG_H
#define UVMSIM_WL_CATALOG_H

#include "workload.h"

extern const struct wl_info stream_info;
extern const struct wl_info compute_info;
extern const struct wl_info gemm_info;
extern const struct wl_info conv2d_info;
extern const struct wl_info conv3d_info;
extern const struct wl_info mm2_info;
extern const struct wl_info mvt_info;
extern const struct wl_info atax_info;
extern const struct wl_info bicg_info;
extern const struct wl_info gesummv_info;
extern const struct wl_info fdtd_info;
extern const struct wl_info vecadd_info;
extern const struct wl_info gups_info;
extern const struct wl_info ra_info;
extern const struct wl_info cyclic_info;
extern const struct wl_info uvmsmart_info;
extern const struct wl_info uvmeval_info;
extern const struct wl_info pattern_info;
extern const struct wl_info pathfinder_info;
extern const struct wl_info hotspot_info;
extern const struct wl_info hotspot3d_info;
extern const struct wl_info mriq_info;
extern const struct wl_info bfs_info;
extern const struct wl_info kmeans_info;
extern const struct wl_info bfs_dwc_info, bfs_ta_info, bfs_tf_info, bfs_ttc_info,
    bfs_twc_info;
extern const struct wl_info trace_info;
extern const struct wl_info accelsim_info;
extern const struct wl_info sssp_twc_info, pagerank_info, bc_info, gc_dtc_info,
    gc_ttc_info, kcore_info;
extern const struct wl_info backprop_info;
extern const struct wl_info sgemm_info;
extern const struct wl_info stencil_info;
extern const struct wl_info srad_info;
extern const struct wl_info nw_info;
extern const struct wl_info lud_info;
extern const struct wl_info spmv_info;
extern const struct wl_info cutcp_info;
extern const struct wl_info btree_info;
extern const struct wl_info histo_info;
extern const struct wl_info sad_info;
extern const struct wl_info srad_v1_info;
extern const struct wl_info xsbench_info;
extern const struct wl_info minife_info;
extern const struct wl_info comd_info;
extern const struct wl_info cns_info;
extern const struct wl_info mummergpu_info;
extern const struct wl_info nn_info, cfd_info, minivite_info;

#endif

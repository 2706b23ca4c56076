/* Inside workloads/: every generator's catalog entry (its ops, schema table,
 * source citation and footprint formula), listed in workloads/catalog.c. */
#ifndef UVMSIM_WL_CATALOG_H
#define UVMSIM_WL_CATALOG_H

#include "workload.h"

extern const struct wl_info stream_info;
extern const struct wl_info bfs_dwc_info, bfs_ta_info, bfs_tf_info, bfs_ttc_info,
    bfs_twc_info;
extern const struct wl_info trace_info;
extern const struct wl_info sssp_twc_info, pagerank_info, bc_info, gc_dtc_info,
    gc_ttc_info, kcore_info;

#endif

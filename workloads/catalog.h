/* Inside workloads/: every generator's catalog entry (its ops, schema table,
 * source citation and footprint formula), listed in workloads/catalog.c. */
#ifndef UVMSIM_WL_CATALOG_H
#define UVMSIM_WL_CATALOG_H

#include "workload.h"

extern const struct wl_info stream_info;
extern const struct wl_info gemm_info;

#endif

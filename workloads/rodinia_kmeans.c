/* Rodinia kmeans: k-means clustering, GPU assignment step.  Source:
 * Rodinia 3.1 kmeans/kmeans_cuda_kernel.cu, invert_mapping (once) then
 * kmeansPoint once per iteration of the host loop; HPE (Yu et al. 2020)
 * Table II type III (KMN).  Defaults: the kdd_cup input, 494020 points,
 * 34 features, 5 clusters; 256-thread blocks on a square 2-D grid.  The
 * host's convergence test is not run (no data values): `iterations` sets
 * the launches of kmeansPoint.
 *
 * invert_mapping, point_id = bx*256 + tx < npoints: for i < nfeatures:
 *   load input[point_id*nfeatures + i], store output[point_id + npoints*i]
 * kmeansPoint, point_id = (gridDim.x*by + bx)*256 + tx < npoints:
 *   for i < nclusters: for j < nfeatures: load (texture) features_flipped
 *   [point_id + j*npoints] (the centres are in __constant__ memory);
 *   store membership[point_id]. */
#include "gen.h"

struct kmeans {
    struct wl_simple g;
    uint64_t np, nf, nc, iters, feat, flip, memb;
    uint32_t side;
};

const struct cfg_key kmeans_config_keys[] = {
    {"workload.kmeans.points", CFG_INT, "494020", 1, 1e10, NULL, "points (kdd_cup: 494020)"},
    {"workload.kmeans.features", CFG_INT, "34", 1, 1e4, NULL, "features per point (kdd_cup: 34)"},
    {"workload.kmeans.clusters", CFG_INT, "5", 1, 1e4, NULL, "clusters (Rodinia default: 5)"},
    {"workload.kmeans.iterations", CFG_INT, "10", 1, 1e6, NULL, "launches of kmeansPoint"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t km_npos(const void *impl, const struct warp_ctx *w)
{
    const struct kmeans *m = impl;
    return w->k->id == 0 ? 2 * m->nf : m->nc * m->nf + 1;
}

static bool km_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct kmeans *m = impl;
    op->size = 4;
    op->compute = 0;
    if (w->k->id == 0) {
        uint64_t p = (uint64_t)t->bx * 256 + t->tx, i = pos / 2;
        if (p >= m->np) return false;
        op->op = pos % 2 ? INST_STORE : INST_LOAD;
        op->addr = pos % 2 ? m->flip + (p + m->np * i) * 4 : m->feat + (p * m->nf + i) * 4;
        return true;
    }
    uint64_t p = ((uint64_t)w->k->grid.x * t->by + t->bx) * 256 + t->tx;
    if (p >= m->np) return false;
    if (pos == m->nc * m->nf) {
        op->op = INST_STORE;
        op->addr = m->memb + p * 4;
        return true;
    }
    op->op = INST_LOAD;
    op->compute = 3;                    /* constant load, subtract, FMA */
    op->addr = m->flip + (p + (pos % m->nf) * m->np) * 4;
    return true;
}

/* SC19 Sec. 4.1-4.2 as spec B.3.4 item 1 applies them (straight line 1,
 * data-dependent loop x 32), per thread, S = 4 B.  point_id < npoints is
 * the OpenMP port's parallel loop bound; nfeatures and nclusters are
 * kernel arguments, so each loop over them counts 32 (LLVM's heuristic),
 * whatever the input's 34 and 5.  The centres are __constant__ memory and
 * `dist < min_dist` only moves registers.  Allocation 0 is the row-major
 * input and 1 its column-major copy, whatever their names (kmeans_cuda.cu
 * calls them the other way round: feature_flipped_d is its input).
 *   invert_mapping: per i < nfeatures (32): alloc 0 R 32, 128 B; alloc 1
 *     W 32, 128 B
 *   kmeansPoint: per i < nclusters, j < nfeatures (32 x 32 = 1024): alloc
 *     1 (the t_features texture) R 1024, 4096 B; membership_d W 1, 4 B */
static size_t km_uses(const void *impl, const struct wl_kernel *k,
                      struct wl_use *out, size_t max)
{
    (void)impl;
    struct wl_use u[2];
    size_t n = 0;
#define USE(al, md, f) (u[n++] = (struct wl_use){ (al), (md), (f), (f) * 4 })
    if (k->id == 0) {
        USE(0, WL_USE_R, 32); USE(1, WL_USE_W, 32);
    } else {
        USE(1, WL_USE_R, 32 * 32); USE(2, WL_USE_W, 1);
    }
#undef USE
    for (size_t i = 0; i < n && i < max; i++) out[i] = u[i];
    return n;
}

/* LC (SC19 Sec. 4.2) for runtime.density_lc iterations: point_id <
 * npoints in both kernels; kmeansPoint's square grid rounds it up. */
static uint64_t km_iters(const void *impl, const struct wl_kernel *k)
{ (void)k; return ((const struct kmeans *)impl)->np; }

static void *km_create(struct workload *wl, const struct config *cfg)
{
    struct kmeans *m = xcalloc(1, sizeof *m);
    m->np = cfg_u64(cfg, "workload.kmeans.points");
    m->nf = cfg_u64(cfg, "workload.kmeans.features");
    m->nc = cfg_u64(cfg, "workload.kmeans.clusters");
    m->iters = cfg_u64(cfg, "workload.kmeans.iterations");
    m->feat = wl_add_alloc(wl, "feature_d", m->np * m->nf * 4);
    m->flip = wl_add_alloc(wl, "feature_flipped_d", m->np * m->nf * 4);
    m->memb = wl_add_alloc(wl, "membership_d", m->np * 4);
    m->g.npos = km_npos;
    m->g.lane = km_lane;
    uint64_t blocks = (m->np + 255) / 256, side = 1;
    while (side * side < blocks) side++;   /* num_blocks_perdim */
    wl_prog_kernel(&m->g.prog, "invert_mapping", 0, (struct dim3){ (uint32_t)blocks, 1, 1 },
                   (struct dim3){ 256, 1, 1 }, 12, 0);
    wl_prog_kernel(&m->g.prog, "kmeansPoint", 1, (struct dim3){ (uint32_t)side, (uint32_t)side, 1 },
                   (struct dim3){ 256, 1, 1 }, 20, 0);
    wl_prog_host(&m->g.prog, WL_STEP_MEMCPY, 2, 0, m->np * 4, WL_TO_HOST, WL_ADV_NONE);
    wl_prog_loop(&m->g.prog, 1, m->iters);
    wl->kernel_uses = km_uses;
    wl->kernel_iters = km_iters;
    return m;
}

static const struct workload_ops km_ops = {
    "kmeans", km_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info kmeans_info = {
    &km_ops, kmeans_config_keys,
    "Rodinia 3.1 kmeans_cuda_kernel.cu, invert_mapping then kmeansPoint per iteration "
    "(membership copied back each time); HPE Table II type III (KMN).",
    "4 x (2*points*features + points) bytes (feature_d, feature_flipped_d, membership_d), "
    "all touched",
};

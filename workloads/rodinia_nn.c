/* Rodinia nn: nearest neighbour over a database of hurricane records.
 * Source: Rodinia 3.1 nn/nn_cuda.cu, euclid; run by Li & Chapman SC19
 * (Sec. 5.1, an OpenMP-offload port of it).  Defaults: 2^20 records (the
 * paper generated "inputs of various sizes"; Rodinia's filelist_4 has
 * 42764), DEFAULT_THREADS_PER_BLOCK 256.
 *
 * One launch, threadsPerBlock 256, blocks = ceil(n / 256) folded into a
 * 2D grid (gridY = ceil(blocks / 65535), gridX = ceil(blocks / gridY)).
 * Thread (bx, by, tx): globalId = 256 * (gridX * by + bx) + tx; if
 * globalId < n: load locations[globalId].lat, .lng (float each), store
 * distances[globalId].  The host's top-k selection (findLowest) runs on
 * the CPU over the copied-back distances and is not simulated; the
 * record strings never reach the GPU.  The target's lat/lng are kernel
 * arguments (registers) and change no address, so they are not keys. */
#include "gen.h"

#define NN_THREADS 256
#define NN_MAX_GRID_X 65535     /* cudaDeviceProp.maxGridSize[0] (sm_30+) */

struct nn {
    struct wl_simple g;
    uint64_t n, loc, dist;
};

const struct cfg_key nn_config_keys[] = {
    {"workload.nn.records", CFG_INT, "1048576", 1, 2e9, NULL,
     "database records (Rodinia filelist_4: 42764; SC19 generated its sizes)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t nn_npos(const void *impl, const struct warp_ctx *w)
{ (void)impl; (void)w; return 3; }

static bool nn_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct nn *m = impl;
    uint64_t id = (uint64_t)NN_THREADS * ((uint64_t)w->k->grid.x * t->by + t->bx) + t->tx;
    if (id >= m->n) return op->done = true, false;
    op->compute = pos == 2 ? 8 : 0;     /* two sub, two fma, sqrt before the store */
    op->size = 4;
    op->op = pos < 2 ? INST_LOAD : INST_STORE;
    op->addr = pos < 2 ? m->loc + id * 8 + pos * 4 : m->dist + id * 4;
    return true;
}

/* SC19 Sec. 4.1-4.2, spec B.3.4 item 1: euclid's body is straight-line
 * code after the bounds check, which is the parallel loop's own bound in
 * the OpenMP port ("each loop iteration is executed by exactly one GPU
 * thread"), not a guard: every access has frequency 1.
 *   locations: lat + lng, 2 x 1 x 4 B  -> RL 2, B_iter 8
 *   distances: one store, 1 x 4 B      -> RL 1, B_iter 4 */
static size_t nn_uses(const void *impl, const struct wl_kernel *k,
                      struct wl_use *out, size_t max)
{
    (void)impl; (void)k;
    const struct wl_use u[] = {
        { 0, WL_USE_R, 2, 8 },
        { 1, WL_USE_W, 1, 4 },
    };
    size_t n = sizeof u / sizeof u[0];
    for (size_t i = 0; i < n && i < max; i++) out[i] = u[i];
    return n;
}

/* LC (SC19 Sec. 4.2) for runtime.density_lc iterations: globalId <
 * records; the 256-thread blocks (and the 2-D fold) round it up. */
static uint64_t nn_iters(const void *impl, const struct wl_kernel *k)
{ (void)k; return ((const struct nn *)impl)->n; }

static void *nn_create(struct workload *wl, const struct config *cfg)
{
    struct nn *m = xcalloc(1, sizeof *m);
    m->n = cfg_u64(cfg, "workload.nn.records");
    /* The host reads the database into locations (WL_PLACE_HOST); SC19's
     * unified-memory port has no copies: the runtime decides movement. */
    m->loc = wl_add_alloc_hint(wl, "d_locations", m->n * 8, WL_PLACE_HOST, 0);
    m->dist = wl_add_alloc(wl, "d_distances", m->n * 4);
    m->g.npos = nn_npos;
    m->g.lane = nn_lane;
    uint64_t blocks = (m->n + NN_THREADS - 1) / NN_THREADS;
    uint64_t gy = (blocks + NN_MAX_GRID_X - 1) / NN_MAX_GRID_X;
    uint64_t gx = (blocks + gy - 1) / gy;
    wl_prog_kernel(&m->g.prog, "euclid", 0, (struct dim3){ (uint32_t)gx, (uint32_t)gy, 1 },
                   (struct dim3){ NN_THREADS, 1, 1 }, 16, 0);
    wl->kernel_uses = nn_uses;
    wl->kernel_iters = nn_iters;
    return m;
}

static const struct workload_ops nn_ops = {
    "nn", nn_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info nn_info = {
    &nn_ops, nn_config_keys,
    "Rodinia 3.1 nn_cuda.cu, euclid, one launch (host top-k selection not simulated); "
    "SC19 (Li & Chapman) Sec. 5.1.",
    "8*records + 4*records bytes (d_locations, d_distances), all touched",
};

/* Polybench BICG: s = A^T r, q = A p.  Source: PolyBench/GPU 1.0 bicg.cu,
 * bicg_kernel1 and bicg_kernel2; HPE (Yu et al. 2020) Sec. III (elided
 * there).  Defaults: NX = NY = 4096 (suite standard), float, 256-thread
 * blocks.
 *
 * kernel1, thread j < NY: s[j] = 0; for i < NX: s[j] += A[i*NY+j] * r[i];
 * kernel2, thread i < NX: q[i] = 0; for j < NY: q[i] += A[i*NY+j] * p[j];
 * Store of the zero, then per iteration load, load, store. */
#include "gen.h"

struct bicg {
    struct wl_simple g;
    uint64_t nx, ny, a, r, s, p, q;
};

const struct cfg_key bicg_config_keys[] = {
    {"workload.bicg.nx", CFG_INT, "4096", 1, 1e6, NULL, "rows of A"},
    {"workload.bicg.ny", CFG_INT, "4096", 1, 1e6, NULL, "columns of A"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t bicg_npos(const void *impl, const struct warp_ctx *w)
{
    const struct bicg *m = impl;
    return 1 + 3 * (w->k->id == 0 ? m->nx : m->ny);
}

static bool bicg_lane(const void *impl, const struct warp_ctx *w,
                      const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct bicg *m = impl;
    bool first = w->k->id == 0;
    uint64_t me = (uint64_t)t->bx * 256 + t->tx;
    if (me >= (first ? m->ny : m->nx)) return false;
    uint64_t acc = first ? m->s : m->q, vec = first ? m->r : m->p;
    op->size = 4;
    op->compute = 0;
    if (pos == 0) { op->op = INST_STORE; op->addr = acc + me * 4; return true; }
    uint64_t it = (pos - 1) / 3, r = (pos - 1) % 3;
    if (r == 0) { op->op = INST_LOAD;
                  op->addr = m->a + (first ? it * m->ny + me : me * m->ny + it) * 4; }
    else if (r == 1) { op->op = INST_LOAD; op->addr = vec + it * 4; }
    else { op->op = INST_STORE; op->addr = acc + me * 4; op->compute = 2; }
    return true;
}

static void *bicg_create(struct workload *wl, const struct config *cfg)
{
    struct bicg *m = xcalloc(1, sizeof *m);
    m->nx = cfg_u64(cfg, "workload.bicg.nx");
    m->ny = cfg_u64(cfg, "workload.bicg.ny");
    m->a = wl_add_alloc(wl, "A", m->nx * m->ny * 4);
    m->r = wl_add_alloc(wl, "r", m->nx * 4);
    m->s = wl_add_alloc(wl, "s", m->ny * 4);
    m->p = wl_add_alloc(wl, "p", m->ny * 4);
    m->q = wl_add_alloc(wl, "q", m->nx * 4);
    m->g.npos = bicg_npos;
    m->g.lane = bicg_lane;
    struct dim3 blk = { 256, 1, 1 };
    wl_prog_kernel(&m->g.prog, "bicg_kernel1", 0, (struct dim3){ wl_div_up(m->ny, 256), 1, 1 },
                   blk, 12, 0);
    wl_prog_kernel(&m->g.prog, "bicg_kernel2", 1, (struct dim3){ wl_div_up(m->nx, 256), 1, 1 },
                   blk, 12, 0);
    return m;
}

static const struct workload_ops bicg_ops = {
    "bicg", bicg_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info bicg_info = {
    &bicg_ops, bicg_config_keys,
    "PolyBench/GPU 1.0 bicg.cu, bicg_kernel1 then bicg_kernel2; HPE Sec. III (elided there).",
    "4 x (nx*ny + 2*nx + 2*ny) bytes (A, r, s, p, q), all touched",
};

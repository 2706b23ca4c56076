/* Cyclic sweep: one kernel whose threads sweep the same array `sweeps`
 * times in the same order (grid-stride loop nested in a sweep loop), so
 * every page is referenced once per sweep in a fixed cycle -- the access
 * behind the cyclic thrashing of Park et al. (WIP, Sec. II: pages evicted
 * repeatedly in the same order under LRU).  Defaults: 1300 MB (their
 * Fig. 1b size), 10 sweeps, 1024 blocks of 256 threads.
 *
 * Thread g of G = grid*block, sweep s < sweeps, i = g + k*G < words:
 *   a[i] += 1   (load, store). */
#include "gen.h"

struct cyclic {
    struct wl_simple g;
    uint64_t words, sweeps, total, a;
};

const struct cfg_key cyclic_config_keys[] = {
    {"workload.cyclic.footprint", CFG_SIZE, "1300MB", 4, 1.1e15, NULL, "array bytes (4-byte words)"},
    {"workload.cyclic.sweeps", CFG_INT, "10", 1, 1e6, NULL, "sweeps over the array"},
    {"workload.cyclic.grid", CFG_INT, "1024", 1, 1e8, NULL, "blocks (256 threads each)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* Positions per sweep: 2 per grid-stride step. */
static uint64_t cyclic_steps(const struct cyclic *m) { return (m->words + m->total - 1) / m->total; }

static uint64_t cyclic_npos(const void *impl, const struct warp_ctx *w)
{
    (void)w;
    const struct cyclic *m = impl;
    return 2 * cyclic_steps(m) * m->sweeps;
}

static bool cyclic_lane(const void *impl, const struct warp_ctx *w,
                        const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct cyclic *m = impl;
    uint64_t g = (uint64_t)t->bx * w->k->block.x + t->tx;
    uint64_t step = (pos / 2) % cyclic_steps(m);
    uint64_t i = g + step * m->total;
    if (i >= m->words) return false;
    op->op = pos % 2 ? INST_STORE : INST_LOAD;
    op->size = 4;
    op->compute = pos % 2;
    op->addr = m->a + i * 4;
    return true;
}

static void *cyclic_create(struct workload *wl, const struct config *cfg)
{
    struct cyclic *m = xcalloc(1, sizeof *m);
    m->words = cfg_u64(cfg, "workload.cyclic.footprint") / 4;
    if (!m->words) user_error("workload.cyclic.footprint: smaller than one 4-byte word");
    m->sweeps = cfg_u64(cfg, "workload.cyclic.sweeps");
    uint32_t grid = (uint32_t)cfg_u64(cfg, "workload.cyclic.grid");
    m->total = (uint64_t)grid * 256;
    m->a = wl_add_alloc(wl, "a", m->words * 4);
    m->g.npos = cyclic_npos;
    m->g.lane = cyclic_lane;
    wl_prog_kernel(&m->g.prog, "cyclic_sweep", 0, (struct dim3){ grid, 1, 1 },
                   (struct dim3){ 256, 1, 1 }, 10, 0);
    return m;
}

static const struct workload_ops cyclic_ops = {
    "cyclic", cyclic_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info cyclic_info = {
    &cyclic_ops, cyclic_config_keys,
    "Cyclic sweep micro-kernel (one persistent launch, sweeps x grid-stride loop); "
    "thrashing paper (Park et al., WIP) cyclic thrashing.",
    "footprint rounded down to 4-byte words, all touched every sweep",
};

/* Random access (GUPS-like): a table of 64-bit words initialised by one
 * kernel (table[i] = i), then `updates` read-modify-write updates
 * table[r] ^= r spread over the threads.  Source: HPCC RandomAccess (GPU
 * port: one update loop per thread, non-atomic XOR as in the reference
 * code); the thrashing paper (Park et al., WIP) runs it as RA, 1300 MB on a
 * 1000 MB GPU (Fig. 1b) -- the default table size here.
 *
 * The update count is HPCC's NUPDATE: `updates` when set, else
 * updates_per_word per word (HPCC: 4).  Update number u (0 <= u < total)
 * goes to thread t, which does updates u0(t) .. u0(t) + n(t) - 1 in order:
 *   updates: n(t) = floor(U / T) + (t < U mod T), u0(t) = the n of the
 *            threads before it (exactly U updates);
 *   updates_per_word: n(t) = ceil(U / T) for every thread (U rounded up
 *            to a multiple of T, as it always was);
 *   r = mix(mix(seed) + u) mod words   (mix = splitmix64 finaliser,
 *   seed = sim.seed); load table[r], then store table[r]. */
#include "gen.h"

struct gups {
    struct wl_simple g;
    uint64_t words, threads, seed, table;
    uint64_t per, extra;      /* thread t does per + (t < extra) updates */
};

const struct cfg_key gups_config_keys[] = {
    {"workload.gups.footprint", CFG_SIZE, "1300MB", 8, 1.1e15, NULL,
     "table bytes (8-byte words; thrashing paper Fig. 1b: 1300 MB)"},
    {"workload.gups.updates_per_word", CFG_INT, "4", 1, 1e6, NULL,
     "updates per table word (HPCC: 4), rounded up to a multiple of the threads; "
     "used when workload.gups.updates is 0"},
    {"workload.gups.updates", CFG_INT, "0", 0, 1e15, NULL,
     "total updates of the update kernel, exactly (HPCC's NUPDATE; "
     "0: footprint / 8 x updates_per_word)"},
    {"workload.gups.threads", CFG_INT, "65536", 32, 1e9, NULL,
     "threads of the update kernel, sharing the updates equally (within one)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t gups_npos(const void *impl, const struct warp_ctx *w)
{
    const struct gups *m = impl;
    return w->k->id == 0 ? 2 : 2 * (m->per + (m->extra != 0));
}

static bool gups_lane(const void *impl, const struct warp_ctx *w,
                      const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct gups *m = impl;
    uint64_t gt = (uint64_t)t->bx * w->k->block.x + t->tx;
    op->size = 8;
    op->compute = 0;
    if (w->k->id == 0) {
        /* Init: thread i writes table[i]. */
        uint64_t i = gt;
        if (i >= m->words || pos) return op->done = true, false;   /* one store each */
        op->op = INST_STORE;
        op->addr = m->table + i * 8;
        return true;
    }
    if (gt >= m->threads) return op->done = true, false;
    uint64_t k = pos / 2;
    if (k >= m->per + (gt < m->extra)) return false;
    uint64_t u = gt * m->per + (gt < m->extra ? gt : m->extra) + k;
    uint64_t r = wl_mix(m->seed + u) % m->words;
    op->op = pos % 2 ? INST_STORE : INST_LOAD;
    op->compute = pos % 2 ? 1 : 6;          /* the generator, then the XOR */
    op->addr = m->table + r * 8;
    return true;
}

static void *gups_create(struct workload *wl, const struct config *cfg)
{
    struct gups *m = xcalloc(1, sizeof *m);
    uint64_t bytes = cfg_u64(cfg, "workload.gups.footprint");
    m->words = bytes / 8;
    if (!m->words) user_error("workload.gups.footprint: smaller than one 8-byte word");
    m->threads = cfg_u64(cfg, "workload.gups.threads");
    uint64_t total = cfg_u64(cfg, "workload.gups.updates");
    if (total) {
        m->per = total / m->threads;
        m->extra = total % m->threads;
    } else {
        uint64_t updates = m->words * cfg_u64(cfg, "workload.gups.updates_per_word");
        m->per = (updates + m->threads - 1) / m->threads;
    }
    m->seed = wl_mix(cfg_u64(cfg, "sim.seed"));
    m->table = wl_add_alloc(wl, "Table", m->words * 8);
    m->g.npos = gups_npos;
    m->g.lane = gups_lane;
    wl_prog_kernel(&m->g.prog, "RandomAccessInit", 0,
                   (struct dim3){ wl_div_up(m->words, 256), 1, 1 }, (struct dim3){ 256, 1, 1 }, 8, 0);
    wl_prog_kernel(&m->g.prog, "RandomAccessUpdate", 1,
                   (struct dim3){ wl_div_up(m->threads, 256), 1, 1 }, (struct dim3){ 256, 1, 1 },
                   16, 0);
    return m;
}

static const struct workload_ops gups_ops = {
    "gups", gups_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info gups_info = {
    &gups_ops, gups_config_keys,
    "HPCC RandomAccess (GUPS), init kernel then update kernel, seeded by sim.seed; "
    "thrashing paper (Park et al.) RA.",
    "footprint rounded down to 8-byte words, all touched by the init kernel",
};

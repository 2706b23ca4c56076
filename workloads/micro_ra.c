/* RA: the random-access kernel of the UVM benchmarks the thrashing paper
 * (Park et al., WIP) runs beside AddVector, FDTD-2D and NW -- the
 * UVMSmart suite's Managed/ra/main.cu (Ganguly et al., ISCA 2019, the
 * paper's ref. [1]), not HPCC GUPS (workload.kind gups): three managed
 * float arrays of n elements, allocated input, output, table; one kernel of
 * ceil(n/256) blocks of 256 threads where thread x with x % 100 == 0 reads
 * input[x], takes r = frac(input[x]) * n, reads table[r] and writes
 * output[r].  The host fills input with rand()/RAND_MAX, so r is uniform
 * over [0, n): the input is read once in order (one thread in a hundred,
 * so every page), table and output are each hit at n/100 random places.
 * That is what makes pinning matter: the input's pages are never reused,
 * the table's and output's are.  Here r = mix(seed + x) mod n (mix: the
 * splitmix64 finaliser, seed = sim.seed) stands for the host's rand().
 * Defaults: n = 2^20 (main.cu's N), every 100th thread (main.cu). */
#include "gen.h"

struct ra {
    struct wl_simple g;
    uint64_t n, every, seed, input, output, table;
};

const struct cfg_key ra_config_keys[] = {
    {"workload.ra.n", CFG_INT, "1048576", 1, 1e12, NULL,
     "elements of each float array (UVMSmart ra/main.cu: N = 2^20)"},
    {"workload.ra.every", CFG_INT, "100", 1, 1e9, NULL,
     "threads x with x % every == 0 do the access (main.cu: 100)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t ra_npos(const void *impl, const struct warp_ctx *w)
{ (void)impl; (void)w; return 3; }

static bool ra_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct ra *m = impl;
    uint64_t x = (uint64_t)t->bx * w->k->block.x + t->tx;
    if (x >= m->n || x % m->every) return false;
    uint64_t r = wl_mix(m->seed + x) % m->n;
    op->size = 4;
    switch (pos) {
    case 0: op->op = INST_LOAD;  op->compute = 0; op->addr = m->input + x * 4; break;
    case 1: op->op = INST_LOAD;  op->compute = 4; op->addr = m->table + r * 4; break;  /* floor, sub, mul, cvt */
    default: op->op = INST_STORE; op->compute = 1; op->addr = m->output + r * 4; break; /* t[0] * in_f */
    }
    return true;
}

static void *ra_create(struct workload *wl, const struct config *cfg)
{
    struct ra *m = xcalloc(1, sizeof *m);
    m->n = cfg_u64(cfg, "workload.ra.n");
    m->every = cfg_u64(cfg, "workload.ra.every");
    m->seed = wl_mix(cfg_u64(cfg, "sim.seed"));
    m->input = wl_add_alloc(wl, "input", m->n * 4);
    m->output = wl_add_alloc(wl, "output", m->n * 4);
    m->table = wl_add_alloc(wl, "table", m->n * 4);
    m->g.npos = ra_npos;
    m->g.lane = ra_lane;
    wl_prog_kernel(&m->g.prog, "kernel", 0, (struct dim3){ wl_div_up(m->n, 256), 1, 1 },
                   (struct dim3){ 256, 1, 1 }, 8, 0);
    return m;
}

static const struct workload_ops ra_ops = {
    "ra", ra_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info ra_info = {
    &ra_ops, ra_config_keys,
    "UVMSmart Managed/ra/main.cu, kernel (one launch), seeded by sim.seed; "
    "thrashing paper (Park et al.) RA.",
    "3 x 4*n bytes (input, output, table); input all touched, table and output "
    "at n/every random elements",
};

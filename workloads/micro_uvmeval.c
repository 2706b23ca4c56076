/* Allen and Ge's fault-batch benchmarks (SC'21, "In-Depth Analyses of
 * Unified Virtual Memory System for GPU Accelerated Computing";
 * tallendev/uvm-eval, archive/benchmarksv3/): the host zeroes a managed
 * array (and flushes it from its caches), then one launch touches it.
 *   linear  page.cu uvmer2: thread i < pages reads the first float of
 *           page i (a[i * 1024]), 64-thread blocks, 1 + pages/64 of them:
 *           every lane of a warp faults on its own 4 KiB page, in order;
 *   random  random/page.cu uvmer2: the same, page perm[i] of a shuffled
 *           permutation (std::random_shuffle there; here a keyed bijection
 *           of [0, pages) from sim.seed: the order, not its values, is
 *           what the driver sees).  The permutation lives in cudaMalloc'd
 *           GPU memory there, which faults nothing: its loads are left out;
 *   triad   stream/ (BabelStream, CUDAStream.cu triad_kernel, run
 *           --triad-only): a[i] = b[i] + s * c[i] over three managed arrays
 *           of doubles initialised by the host, 1024-thread blocks, `iters`
 *           launches.
 * The kernels' only other work is a compare on the loaded value (a branch
 * never taken: the array is zero). */
#include <string.h>
#include "gen.h"

enum { K_LINEAR, K_RANDOM, K_TRIAD };

struct uvmeval {
    struct wl_simple g;
    int kind;
    uint64_t pages, a, b, c, elems;
    unsigned bits;              /* random: the permutation's domain is 2^bits >= pages */
    uint64_t key[4];
};

const struct cfg_key uvmeval_config_keys[] = {
    {"workload.uvmeval.kernel", CFG_ENUM, "linear", 0, -1, "linear|random|triad",
     "linear/page.cu, random/page.cu or BabelStream's triad (stream/, --triad-only)"},
    {"workload.uvmeval.pages", CFG_INT, "32768", 1, 1e9, NULL,
     "linear, random: the array's 4 KiB pages (page.cu's PNUM; 32768 = 128 MiB)"},
    {"workload.uvmeval.elems", CFG_INT, "4194304", 1024, 1e11, NULL,
     "triad: doubles per array (a multiple of 1024, BabelStream's TBSIZE)"},
    {"workload.uvmeval.iters", CFG_INT, "1", 1, 1e6, NULL, "triad: launches (BabelStream -n)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* A 4-round Feistel network over 2^bits values, walked until it lands
 * inside [0, pages): a bijection of [0, pages). */
static uint64_t feistel(const struct uvmeval *m, uint64_t x)
{
    unsigned lo = m->bits / 2, hi = m->bits - lo;
    uint64_t lmask = (1ULL << lo) - 1, hmask = (1ULL << hi) - 1;
    uint64_t l = x & lmask, r = x >> lo;
    for (int k = 0; k < 4; k++) {
        if (k % 2 == 0) l = (l ^ wl_mix(r ^ m->key[k])) & lmask;
        else r = (r ^ wl_mix(l ^ m->key[k])) & hmask;
    }
    return l | r << lo;
}

static uint64_t perm(const struct uvmeval *m, uint64_t i)
{
    do i = feistel(m, i); while (i >= m->pages);
    return i;
}

static uint64_t uvmeval_npos(const void *impl, const struct warp_ctx *w)
{ (void)w; return ((const struct uvmeval *)impl)->kind == K_TRIAD ? 3 : 1; }

static bool uvmeval_lane(const void *impl, const struct warp_ctx *w,
                         const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct uvmeval *m = impl;
    uint64_t i = (uint64_t)t->bx * w->k->block.x + t->tx;
    if (m->kind == K_TRIAD) {
        if (i >= m->elems) return false;
        op->op = pos == 2 ? INST_STORE : INST_LOAD;
        op->size = 8;
        op->compute = pos == 2 ? 2 : 0;
        op->addr = (pos == 0 ? m->b : pos == 1 ? m->c : m->a) + i * 8;
        return true;
    }
    if (i >= m->pages) return false;                    /* if (idx < PNUM) */
    op->op = INST_LOAD;
    op->size = 4;
    op->compute = 0;
    op->addr = m->a + (m->kind == K_RANDOM ? perm(m, i) : i) * PAGE_4K;
    return true;
}

static void *uvmeval_create(struct workload *wl, const struct config *cfg)
{
    struct uvmeval *m = xcalloc(1, sizeof *m);
    m->kind = (int)cfg_choice(cfg, "workload.uvmeval.kernel");
    m->g.npos = uvmeval_npos;
    m->g.lane = uvmeval_lane;
    if (m->kind == K_TRIAD) {
        m->elems = cfg_u64(cfg, "workload.uvmeval.elems");
        if (m->elems % 1024)
            user_error("workload.uvmeval.elems: %llu is not a multiple of 1024 (BabelStream's TBSIZE)",
                       (unsigned long long)m->elems);
        m->a = wl_add_alloc_hint(wl, "d_a", m->elems * 8, WL_PLACE_HOST, 0);
        m->b = wl_add_alloc_hint(wl, "d_b", m->elems * 8, WL_PLACE_HOST, 0);
        m->c = wl_add_alloc_hint(wl, "d_c", m->elems * 8, WL_PLACE_HOST, 0);
        uint64_t iters = cfg_u64(cfg, "workload.uvmeval.iters");
        wl_prog_kernel(&m->g.prog, "triad_kernel", 0, (struct dim3){ (uint32_t)(m->elems / 1024), 1, 1 },
                       (struct dim3){ 1024, 1, 1 }, 16, 0);
        wl_prog_loop(&m->g.prog, 0, iters);
        return m;
    }
    m->pages = cfg_u64(cfg, "workload.uvmeval.pages");
    while ((1ULL << m->bits) < m->pages || m->bits < 2) m->bits++;
    uint64_t seed = wl_seed(cfg, 0x5c21);
    for (int k = 0; k < 4; k++) m->key[k] = seed = wl_mix(seed);
    m->a = wl_add_alloc_hint(wl, "array", m->pages * PAGE_4K, WL_PLACE_HOST, 0);
    wl_prog_kernel(&m->g.prog, "uvmer2", 0, (struct dim3){ (uint32_t)(1 + m->pages / 64), 1, 1 },
                   (struct dim3){ 64, 1, 1 }, 10, 0);
    return m;
}

static const struct workload_ops uvmeval_ops = {
    "uvmeval", uvmeval_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info uvmeval_info = {
    &uvmeval_ops, uvmeval_config_keys,
    "Allen and Ge (SC'21) fault-batch benchmarks (tallendev/uvm-eval archive/benchmarksv3: "
    "linear/page.cu and random/page.cu uvmer2, BabelStream triad_kernel), Titan V batch logs.",
    "linear, random: 4 KiB x pages, one float per page read once; triad: 3 x 8*elems bytes",
};

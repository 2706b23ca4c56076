/* The six access-pattern types of HPE (Yu et al., TCAD 2020, Fig. 2 and
 * Sec. III-A) as a synthetic kernel over k pages a_1..a_k:
 *   I    streaming             (a_1 .. a_k)                 one launch
 *   II   thrashing             (a_1 .. a_k)^N               N launches
 *   III  part-repetitive       a_i^{N_i} with probability eps, else a_i once
 *   IV   most-repetitive       (a_1^{N_1} .. a_k^{N_k}), N_i >= 2
 *   V    repetitive-thrashing  type IV repeated N times (N launches)
 *   VI   region-moving         `regions` launches, launch r covers region r
 *                              (pages [r*k/R, (r+1)*k/R)), each page N_i times
 * One warp per page: warp w of a launch takes page p = first + w, and
 * references it N_p times; reference j is a coalesced load of the 128 B line
 * j mod 32 of the page (lane l reads word 32*(j mod 32) + l).
 * N_p = 2 + mix(seed + p) mod (reps - 1) (types IV-VI); type III repeats a
 * page (N_p = reps) when (mix(seed + p) >> 11) / 2^53 < eps.  mix is the
 * splitmix64 finaliser, seed = mix(sim.seed).  Defaults: k = 8192 pages
 * (32 MiB, inside HPE's 3-130 MB range), N = 2, reps = 4, eps = 0.25,
 * 4 regions. */
#include <string.h>
#include "gen.h"

/* In the order of workload.pattern.type's choices (cfg_choice). */
enum ptype { P_STREAM, P_THRASH, P_PART, P_MOST, P_REPTHRASH, P_REGION };

struct pattern {
    struct wl_simple g;
    enum ptype type;
    uint64_t pages, passes, reps, regions, seed, a;
    double eps;
};

const struct cfg_key pattern_config_keys[] = {
    {"workload.pattern.type", CFG_ENUM, "thrashing", 0, -1,
     "streaming|thrashing|part-repetitive|most-repetitive|repetitive-thrashing|region-moving",
     "HPE Fig. 2 access-pattern type (I..VI)"},
    {"workload.pattern.pages", CFG_INT, "8192", 1, 1e9, NULL, "k: distinct 4 KiB pages"},
    {"workload.pattern.passes", CFG_INT, "2", 1, 1e6, NULL,
     "N: repetitions of the whole sequence (types II and V)"},
    {"workload.pattern.reps", CFG_INT, "4", 2, 32, NULL,
     "largest N_i: references to one page in a row (types III-VI)"},
    {"workload.pattern.fraction", CFG_FRACTION, "25%", 0, 1, NULL,
     "eps: probability that a page is repeated (type III)"},
    {"workload.pattern.regions", CFG_INT, "4", 1, 1e6, NULL, "address regions (type VI)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t refs_of(const struct pattern *m, uint64_t p)
{
    uint64_t h = wl_mix(m->seed + p);
    switch (m->type) {
    case P_STREAM: case P_THRASH: return 1;
    case P_PART: return (double)(h >> 11) * 0x1p-53 < m->eps ? m->reps : 1;
    default: return 2 + h % (m->reps - 1);
    }
}

/* First page of launch w->k->arg (region-moving: its region). */
static uint64_t first_page(const struct pattern *m, const struct wl_kernel *k)
{
    return m->type == P_REGION ? k->arg * m->pages / m->regions : 0;
}

static uint64_t page_of(const struct pattern *m, const struct warp_ctx *w, uint64_t *end)
{
    const struct wl_kernel *k = w->k;
    uint64_t first = first_page(m, k);
    *end = m->type == P_REGION ? (k->arg + 1) * m->pages / m->regions : m->pages;
    return first + w->block * (k->block.x / WARP_SIZE) + w->warp;
}

static uint64_t pattern_npos(const void *impl, const struct warp_ctx *w)
{
    const struct pattern *m = impl;
    uint64_t end, p = page_of(m, w, &end);
    return p < end ? refs_of(m, p) : 0;
}

static bool pattern_lane(const void *impl, const struct warp_ctx *w,
                         const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct pattern *m = impl;
    uint64_t end, p = page_of(m, w, &end);
    op->op = INST_LOAD;
    op->size = 4;
    op->compute = 2;
    op->addr = m->a + p * PAGE_4K + (pos % 32) * 128 + (t->tid % WARP_SIZE) * 4;
    return true;
}

static void *pattern_create(struct workload *wl, const struct config *cfg)
{
    struct pattern *m = xcalloc(1, sizeof *m);
    m->type = (enum ptype)cfg_choice(cfg, "workload.pattern.type");
    m->pages = cfg_u64(cfg, "workload.pattern.pages");
    m->passes = cfg_u64(cfg, "workload.pattern.passes");
    m->reps = cfg_u64(cfg, "workload.pattern.reps");
    m->eps = cfg_f64(cfg, "workload.pattern.fraction");
    m->regions = cfg_u64(cfg, "workload.pattern.regions");
    if (m->type == P_REGION && m->regions > m->pages)
        user_error("workload.pattern.regions (%llu) exceeds workload.pattern.pages (%llu)",
                   (unsigned long long)m->regions, (unsigned long long)m->pages);
    m->seed = wl_mix(cfg_u64(cfg, "sim.seed"));
    m->a = wl_add_alloc(wl, "pages", m->pages * PAGE_4K);
    m->g.npos = pattern_npos;
    m->g.lane = pattern_lane;
    /* 8 warps (pages) per 256-thread block. */
    uint64_t per_launch = m->type == P_REGION ? (m->pages + m->regions - 1) / m->regions
                                              : m->pages;
    wl_prog_kernel(&m->g.prog, cfg_str(cfg, "workload.pattern.type"), 0,
                   (struct dim3){ wl_div_up(per_launch, 8), 1, 1 }, (struct dim3){ 256, 1, 1 },
                   12, 0);
    uint64_t launches = m->type == P_THRASH || m->type == P_REPTHRASH ? m->passes
                      : m->type == P_REGION ? m->regions : 1;
    wl_prog_loop(&m->g.prog, 0, launches);
    return m;
}

static const struct workload_ops pattern_ops = {
    "pattern", pattern_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info pattern_info = {
    &pattern_ops, pattern_config_keys,
    "Synthetic kernel of the six access-pattern types of HPE (Yu et al. 2020) Fig. 2 "
    "(workload.pattern.type), seeded by sim.seed.",
    "4096*pages bytes, every page touched (region-moving: each region by its launch)",
};

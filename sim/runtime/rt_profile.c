/* runtime.analysis profile | touched: each kernel's uses counted from a
 * functional run of the whole program instead of estimated from its code
 * (spec B.3.4 item 1, "alternative sources"; the "functional
 * profiling pass ... as a labelled upper-bound mode").  SC19 Sec. 4.1-4.2
 * define RL as static access frequencies and B_iter from LLVM's block
 * frequencies; here both are the run's own mean per thread over every
 * launch of the target region, so branch guards and data-dependent trip
 * counts are exact: an oracle the compiler cannot have.
 *   profile: bytes accessed with reuse, the paper's density numerator;
 *   touched: distinct 4-byte words per launch, the "more accurate"
 *            density the paper asks for (Sec. 5.2, bfs edges).
 * The run is a private instance of the workload (workloads/walk.c), so
 * the timed run's generators are untouched. */
#include <stdlib.h>
#include <string.h>
#include "rt_internal.h"
#include "config/config.h"

#define WORD 4u     /* touched granularity: a 32-bit element */

struct site_prof {
    uint64_t threads;                   /* grid threads over its launches */
    double acc[WL_MAX_ALLOCS];          /* lane accesses */
    double bytes[WL_MAX_ALLOCS];        /* lane bytes, or touched bytes */
    unsigned mode[WL_MAX_ALLOCS];
};

struct rt_profile {
    const struct workload *wl;
    uint32_t nsites;
    struct site_prof *site;
    bool touched;
    uint64_t word0[WL_MAX_ALLOCS];      /* an allocation's first bitmap word */
    uint64_t *bits;                     /* words touched by this launch */
    uint64_t nwords;
    uint32_t cur;                       /* site of the launch being walked */
};

static uint32_t alloc_of(const struct workload *wl, uint64_t addr)
{
    for (uint32_t i = 0; i < wl->nallocs; i++)
        if (addr - wl->allocs[i].base < wl->allocs[i].size) return i;
    return UINT32_MAX;
}

static void prof_kernel(void *ctx, const struct wl_kernel *k)
{
    struct rt_profile *p = ctx;
    p->cur = k->site < p->nsites ? k->site : UINT32_MAX;
    if (p->cur == UINT32_MAX) return;
    p->site[p->cur].threads += (uint64_t)k->grid.x * k->grid.y * k->grid.z *
                               k->block.x * k->block.y * k->block.z;
    if (p->touched) memset(p->bits, 0, ((p->nwords + 63) / 64) * sizeof *p->bits);
}

static void prof_inst(void *ctx, const struct wl_kernel *k, uint64_t block, uint64_t round,
                      uint32_t warp, const struct warp_inst *in)
{
    (void)k; (void)block; (void)round; (void)warp;
    struct rt_profile *p = ctx;
    if (p->cur == UINT32_MAX) return;
    struct site_prof *s = &p->site[p->cur];
    unsigned mode = in->op == INST_LOAD ? WL_USE_R : in->op == INST_STORE ? WL_USE_W
                                                   : WL_USE_R | WL_USE_W;
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        if (!(in->active >> l & 1)) continue;
        uint32_t a = alloc_of(p->wl, in->addr[l]);
        if (a == UINT32_MAX) continue;      /* outside the program's data */
        s->acc[a] += 1;
        s->mode[a] |= mode;
        if (!p->touched) { s->bytes[a] += in->size; continue; }
        uint64_t off = in->addr[l] - p->wl->allocs[a].base;
        uint64_t last = off + (in->size ? in->size : 1) - 1;
        if (last >= p->wl->allocs[a].size) last = p->wl->allocs[a].size - 1;
        for (uint64_t w = p->word0[a] + off / WORD; w <= p->word0[a] + last / WORD; w++) {
            if (p->bits[w / 64] >> (w % 64) & 1) continue;
            p->bits[w / 64] |= 1ULL << (w % 64);
            s->bytes[a] += WORD;
        }
    }
}

struct rt_profile *rt_profile_run(const struct config *cfg, const struct workload *wl,
                                  bool touched)
{
    struct rt_profile *p = xcalloc(1, sizeof *p);
    p->wl = wl;
    p->nsites = wl->program->n;
    p->site = xcalloc(p->nsites ? p->nsites : 1, sizeof *p->site);
    p->touched = touched;
    if (touched) {
        for (uint32_t i = 0; i < wl->nallocs; i++) {
            p->word0[i] = p->nwords;
            p->nwords += (wl->allocs[i].size + WORD - 1) / WORD;
        }
        p->bits = xcalloc((p->nwords + 63) / 64 + 1, sizeof *p->bits);
    }
    static const struct wl_walk_ops ops = { prof_kernel, prof_inst };
    struct workload *run = workload_create(cfg);
    wl_walk_program(run, &ops, p);
    workload_free(run);
    free(p->bits);
    p->bits = NULL;
    return p;
}

size_t rt_profile_uses(void *ctx, const struct wl_kernel *k, struct wl_use *out, size_t max)
{
    const struct rt_profile *p = ctx;
    if (k->site >= p->nsites || !p->site[k->site].threads) return 0;
    const struct site_prof *s = &p->site[k->site];
    double t = (double)s->threads;
    size_t n = 0;
    for (uint32_t a = 0; a < p->wl->nallocs; a++) {
        if (!s->acc[a]) continue;
        if (n < max) out[n] = (struct wl_use){ a, s->mode[a], s->acc[a] / t, s->bytes[a] / t };
        n++;
    }
    return n;
}

void rt_profile_free(struct rt_profile *p)
{
    if (!p) return;
    free(p->site);
    free(p);
}

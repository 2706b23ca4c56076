/* Warp schedulers.  Each SM has gpu.sm.schedulers of them (Fermi: 2);
 * warp slot i belongs to scheduler i mod N (GPGPU-Sim assigns warps to
 * schedulers the same way).  Policies (GPGPU-Sim's names):
 *   lrr - loose round robin: the first issuable warp after the one that
 *         issued last;
 *   gto - greedy then oldest: keep issuing the last warp while it can,
 *         otherwise the oldest issuable warp (Rogers et al., MICRO 2012).
 *
 * Issuable warps are found in the scheduler's W_READY bitset (issue 13:
 * no scan of every slot per pick), W_PIPE warps whose latency is over
 * having been made W_READY first.  A W_PIPE warp past its ready time and
 * a W_READY warp are alike everywhere else (stall reason, next tick), so
 * making all of them ready at once picks exactly the warp that visiting
 * the slots in order did. */
#include "sm_internal.h"

void sched_pipe_due(struct sm *s, uint32_t k, sim_time now)
{
    if (s->pipe_min[k] > now) return;
    const struct gpu *g = s->gpu;
    sim_time min = TIME_NEVER;
    for (uint32_t wd = 0; wd < g->bwords; wd++) {
        for (uint64_t m = s->pip[(size_t)k * g->bwords + wd]; m; m &= m - 1) {
            uint32_t j = wd * 64 + (uint32_t)__builtin_ctzll(m);
            struct warp *w = &s->w[k + j * g->nsched];
            if (w->ready_at <= now) warp_set(s, w, W_READY);
            else if (w->ready_at < min) min = w->ready_at;
        }
    }
    s->pipe_min[k] = min;
}

/* First set bit of scheduler k's ready set at local index >= from, or -1. */
static int32_t ready_from(const struct sm *s, uint32_t k, uint32_t from)
{
    const struct gpu *g = s->gpu;
    const uint64_t *r = &s->rdy[(size_t)k * g->bwords];
    uint32_t wd = from / 64;
    if (wd >= g->bwords) return -1;
    uint64_t m = r[wd] & (~0ULL << (from % 64));
    for (;;) {
        if (m) return (int32_t)(wd * 64 + (uint32_t)__builtin_ctzll(m));
        if (++wd == g->bwords) return -1;
        m = r[wd];
    }
}

static struct warp *lrr_pick(struct sm *s, struct scheduler *k, sim_time now)
{
    uint32_t step = s->gpu->nsched;
    sched_pipe_due(s, k->idx, now);
    /* Slots after the last one issued, then from the first (the last
     * itself comes last). */
    int32_t j = ready_from(s, k->idx, (k->last - k->idx) / step + 1);
    if (j < 0) j = ready_from(s, k->idx, 0);
    if (j < 0) return NULL;
    k->last = k->idx + (uint32_t)j * step;
    return &s->w[k->last];
}

static struct warp *gto_pick(struct sm *s, struct scheduler *k, sim_time now)
{
    const struct gpu *g = s->gpu;
    sched_pipe_due(s, k->idx, now);
    struct warp *last = &s->w[k->last];
    if (last->st == W_READY) return last;
    struct warp *best = NULL;
    for (uint32_t wd = 0; wd < g->bwords; wd++) {
        for (uint64_t m = s->rdy[(size_t)k->idx * g->bwords + wd]; m; m &= m - 1) {
            uint32_t j = wd * 64 + (uint32_t)__builtin_ctzll(m);
            struct warp *w = &s->w[k->idx + j * g->nsched];
            if (!best || w->age < best->age) best = w;
        }
    }
    if (best) k->last = (uint32_t)(best - s->w);
    return best;
}

const struct sched_ops sched_lrr = { "lrr", lrr_pick };
const struct sched_ops sched_gto = { "gto", gto_pick };

/* Adding a scheduler is one file and one line here. */
static const struct sched_ops *const policies[] = { &sched_lrr, &sched_gto };

const struct sched_ops *sched_policy(size_t i)
{
    return i < sizeof policies / sizeof policies[0] ? policies[i] : NULL;
}

/* gpu.sm.scheduler's registry (config_registries). */
const char *sched_policy_name(size_t i)
{
    return sched_policy(i) ? sched_policy(i)->name : NULL;
}

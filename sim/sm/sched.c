/* Warp schedulers.  Each SM has gpu.sm.schedulers of them (Fermi: 2);
 * warp slot i belongs to scheduler i mod N (GPGPU-Sim assigns warps to
 * schedulers the same way).  Policies (GPGPU-Sim's names):
 *   lrr - loose round robin: the first issuable warp after the one that
 *         issued last;
 *   gto - greedy then oldest: keep issuing the last warp while it can,
 *         otherwise the oldest issuable warp (Rogers et al., MICRO 2012). */
#include "sm_internal.h"

/* Ready to issue now (a finished pipeline latency makes it ready). */
static bool issuable(struct warp *w, sim_time now)
{
    if (w->parked) return false;            /* inactive block (oversub.c) */
    if (w->st == W_PIPE && w->ready_at <= now) w->st = W_READY;
    return w->st == W_READY;
}

static struct warp *lrr_pick(struct sm *s, struct scheduler *k, sim_time now)
{
    uint32_t n = s->gpu->max_warps, step = s->gpu->nsched;
    uint32_t mine = (n - k->idx + step - 1) / step;     /* slots of this scheduler */
    uint32_t at = k->last;
    for (uint32_t j = 0; j < mine; j++) {
        at += step;
        if (at >= n) at = k->idx;
        struct warp *w = &s->w[at];
        if (issuable(w, now)) { k->last = at; return w; }
    }
    return NULL;
}

static struct warp *gto_pick(struct sm *s, struct scheduler *k, sim_time now)
{
    uint32_t n = s->gpu->max_warps, step = s->gpu->nsched;
    struct warp *last = &s->w[k->last];
    if (issuable(last, now)) return last;
    struct warp *best = NULL;
    for (uint32_t i = k->idx; i < n; i += step) {
        struct warp *w = &s->w[i];
        if (issuable(w, now) && (!best || w->age < best->age)) best = w;
    }
    if (best) k->last = (uint32_t)(best - s->w);
    return best;
}

const struct sched_ops sched_lrr = { "lrr", lrr_pick };
const struct sched_ops sched_gto = { "gto", gto_pick };

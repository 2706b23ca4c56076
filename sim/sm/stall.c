/* Stall accounting per SM (issue 3): every core cycle of an SM either
 * issues or is a stall cycle with one reason.  The SM ticks only when
 * something can change, and between two ticks its warps' states are
 * constant, so the cycles in between carry the reason decided at the
 * earlier tick.  When several reasons hold at once, the longest-latency
 * one is charged: shootdown block, then far fault, then memory, then
 * barrier, then pipeline (compute latency or a busy issue port); "idle"
 * means no live warp on the SM.  The four reasons the issue names are
 * fault, memory, barrier and fetch; this model has no instruction fetch,
 * so its place is taken by pipeline. */
#include "sm_internal.h"
#include "core/stats.h"

static void add_stall(struct sm *s, enum stall why, uint64_t cycles)
{
    if (why == ST_NREASONS) {                 /* issuing: the cycles are issue cycles */
        s->gpu->v.issue_cycles[s->id] += cycles;
        return;
    }
    s->gpu->v.stall[why][s->id] += cycles;
    *s->gpu->stall[why] += cycles;
}

void stall_account(struct sm *s, sim_time now)
{
    if (now <= s->acct_t) return;
    add_stall(s, s->acct_reason, (now - s->acct_t) / s->comp.dom->period);
    s->acct_t = now;
}

/* From the SM's per-state warp counts (sm_internal.h). */
static enum stall reason(const struct sm *s, sim_time now)
{
    if (s->throttled) return ST_IDLE;       /* switched off (throttle.c) */
    if (now < s->blocked_until) return ST_SHOOTDOWN;
    if (s->pf_blocked) return ST_FAULT;     /* protection faults (rofault.c) */
    if (s->nfault_mem) return ST_FAULT;
    if (s->nstate[W_MEM]) return ST_MEMORY;
    if (s->nstate[W_BARRIER]) return ST_BARRIER;
    if (s->nstate[W_READY] || s->nstate[W_PIPE]) return ST_PIPELINE;
    return ST_IDLE;
}

void stall_decide(struct sm *s, bool issued, sim_time now, sim_time next)
{
    sim_time p = s->comp.dom->period;
    add_stall(s, issued ? ST_NREASONS : reason(s, now), 1);
    s->acct_t = now + p;
    /* Only cycles skipped until the next tick need a reason now (a wake
     * before `next` accounts them with it just as well). */
    if (next > now + p) s->acct_reason = reason(s, now + p);
}

void fault_warps_change(struct sm *s, int delta, sim_time now)
{
    uint64_t cyc = s->nfault_warps * ((now - s->fw_t) / s->comp.dom->period);
    s->gpu->v.fault_warp_cycles[s->id] += cyc;
    *s->gpu->fault_warp_cycles += cyc;
    s->fw_t = now;
    s->nfault_warps = (uint32_t)((int)s->nfault_warps + delta);
}

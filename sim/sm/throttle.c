/* SM throttling: ETC's memory-aware throttling "disabling a subset of GPU
 * cores" (batch-aware paper Sec. 1 and footnote 8, after Li et al. ASPLOS
 * 2019; the decisions are the driver's, driver/perf/drv_throttle.c).  A
 * throttled SM issues no instruction and is given no new thread block;
 * what it has in flight (memory requests, translations, faults) completes,
 * and its blocks resume where they stopped when it runs again.  Its
 * cycles count as idle in the stall breakdown. */
#include "sm_internal.h"

void gpu_set_active_sms(void *gpu, unsigned active, sim_time now)
{
    struct gpu *g = gpu;
    bool released = false;
    for (unsigned i = 0; i < g->nsms; i++) {
        struct sm *s = &g->sm[i];
        bool off = i >= active;
        if (s->throttled == off) continue;
        stall_account(s, now);
        s->throttled = off;
        if (!off) { released = true; sm_issue_wake(s); }
        comp_wake(&s->comp, now);       /* its tick takes the new stall reason */
    }
    if (released && g->kernel_active) launch_dispatch(g, now);
}

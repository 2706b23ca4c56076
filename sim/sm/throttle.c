/* SM throttling: ETC's memory-aware throttling "disabling a subset of GPU
 * cores" (batch-aware paper Sec. 1 and footnote 8, after Li et al. ASPLOS
 * 2019; the decisions are the driver's, driver/perf/drv_throttle.c).  A
 * throttled SM issues no instruction and is given no new thread block;
 * what it has in flight (memory requests, translations, faults) completes,
 * and its blocks resume where they stopped when it runs again.  Its
 * cycles count as idle in the stall breakdown.
 *
 * The count is what the policy sets: more SMs throttled are taken from the
 * highest-numbered running ones, released ones from the lowest-numbered
 * throttled ones.  A running SM left with no block and none to take hands
 * its turn to a throttled SM holding blocks (the count stays; otherwise
 * the kernel could never end while throttled blocks wait). */
#include "sm_internal.h"

static void set_off(struct sm *s, bool off, sim_time now)
{
    stall_account(s, now);
    s->throttled = off;
    if (!off) sm_issue_wake(s);
    comp_wake(&s->comp, now);       /* its tick takes the new stall reason */
}

void gpu_set_active_sms(void *gpu, unsigned active, sim_time now)
{
    struct gpu *g = gpu;
    unsigned running = 0;
    for (unsigned i = 0; i < g->nsms; i++) running += !g->sm[i].throttled;
    if (active < 1) active = 1;
    bool released = false;
    for (unsigned i = g->nsms; i-- > 0 && running > active;)
        if (!g->sm[i].throttled) { set_off(&g->sm[i], true, now); running--; g->throttling = true; }
    for (unsigned i = 0; i < g->nsms && running < active; i++)
        if (g->sm[i].throttled) { set_off(&g->sm[i], false, now); running++; released = true; }
    if (released && g->kernel_active) launch_dispatch(g, now);
    /* A running SM may already be dry (a kernel's tail) while the count
     * just switched off one that holds blocks: it hands its turn over now,
     * since no block will retire on it to trigger the hand-off (without
     * this a gc_ttc ETC point ended in a deadlock, every block on a
     * throttled SM). */
    if (g->throttling && g->kernel_active)
        for (unsigned i = 0; i < g->nsms; i++)
            if (!g->sm[i].throttled && !g->sm[i].res_blocks) throttle_handoff(g, &g->sm[i], now);
}

void throttle_handoff(struct gpu *g, struct sm *s, sim_time now)
{
    for (unsigned i = 0; i < g->nsms; i++) {
        struct sm *t = &g->sm[i];
        if (t->throttled && t->res_blocks) {
            set_off(t, false, now);
            set_off(s, true, now);
            return;
        }
    }
}

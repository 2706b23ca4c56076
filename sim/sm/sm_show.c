/* Read-only views of the SMs for the stepper (uvmsim step: show sm, show
 * warp).  The SM view is the watchdog's dump (core.c sm_dump) under a
 * summary line. */
#include <stdio.h>
#include "sm_internal.h"

static const char *state_name(const struct warp *w)
{
    static const char *const n[] = {"free", "ready", "pipeline (computing)", "waiting on memory",
                                     "at a barrier", "done"};
    if (w->st == W_MEM && w->nfault) return "stalled on a far fault";
    if (w->st == W_MEM && w->held) return "waiting for its memory before a barrier or exit";
    return n[w->st];
}

void gpu_describe_sm(const struct gpu *g, unsigned sm, FILE *out)
{
    if (sm >= g->nsms) { fprintf(out, "  no SM %u (%u SMs)\n", sm, g->nsms); return; }
    const struct sm *s = &g->sm[sm];
    unsigned live = 0;
    for (uint32_t i = 0; i < g->max_warps; i++) live += s->w[i].st != W_FREE && s->w[i].st != W_DONE;
    fprintf(out, "  SM %u: %u live warps of %u slots, %u faulted pages its warps wait on%s\n", sm,
            live, g->max_warps, s->nfv, s->blocked_until > engine_now(g->eng) ? ", issue blocked (shootdown)" : "");
    sm_dump((struct component *)&s->comp, out);
}

void gpu_describe_warp(const struct gpu *g, unsigned sm, unsigned warp, FILE *out)
{
    if (sm >= g->nsms || warp >= g->max_warps) {
        fprintf(out, "  no warp %u on SM %u (%u SMs, %u warp slots)\n", warp, sm, g->nsms, g->max_warps);
        return;
    }
    const struct warp *w = &g->sm[sm].w[warp];
    fprintf(out, "  SM %u warp %u: %s%s", sm, warp, state_name(w),
            w->st != W_FREE && w->parked ? " in an inactive block (thread oversubscription)" : "");
    if (w->st != W_FREE)
        fprintf(out, " (block %llu, warp %u of it)", (unsigned long long)w->ctx.block, w->ctx.warp);
    char tb[TIME_STR_MAX];
    if (w->st == W_PIPE) fprintf(out, ", ready at %s", time_str(tb, w->ready_at));
    fprintf(out, "; %u memory instructions in flight, %u pages fault-stalled\n", w->outstanding, w->nfault);
    static const char *const ps[] = {"translating", "FAULTED", "translated"};
    for (uint32_t j = 0; j < g->max_outstanding; j++) {
        const struct minst *m = &w->mi[j];
        if (!m->used) continue;
        fprintf(out, "    %s of %u lines on %u pages, %u answers pending\n", req_kind_name(m->access),
                m->c.nlines, m->c.npages, m->pending);
        for (uint32_t p = 0; p < m->c.npages; p++)
            fprintf(out, "      page %#llx: %s\n", (unsigned long long)m->c.page_vpn[p], ps[m->page_state[p]]);
    }
}

/* Read-only view of the link for the stepper (uvmsim step: show link). */
#include <stdio.h>
#include "link_int.h"
#include "core/engine.h"

/* Bytes handed to the wire: those credited as their packets left, and
 * those of transfers still on it (a reserved copy's only as they leave:
 * link_h2d_reserve). */
static uint64_t handed(const struct link_dir_state *s)
{
    uint64_t b = *s->bytes;
    for (size_t i = 0; i < s->fn; i++) {
        const struct link_flight *f = &s->fl[(s->fhead + i) % s->fcap];
        if (f->end == TIME_NEVER) continue;
        uint64_t full = f->sent < f->n - 1 ? f->n - 1 - f->sent : 0;
        b += full * f->pf + (f->sent < f->n ? f->pl : 0);
    }
    return b;
}

void link_describe(const struct link *l, FILE *out)
{
    static const char *const dir[] = {"host-to-GPU (H2D)", "GPU-to-host (D2H)"};
    sim_time now = engine_now(l->eng);
    char tb[TIME_STR_MAX];
    fprintf(out, "  link: %.4g GB/s of packets per direction, latency %s, %u copy engine(s) each\n",
            l->rate / 1e9, time_str(tb, l->latency), l->nce);
    for (int d = 0; d < 2; d++) {
        const struct link_dir_state *s = &l->d[d];
        fprintf(out, "    %s: wire %s", dir[d], s->wire_free > now ? "busy until " : "idle");
        if (s->wire_free > now) fputs(time_str(tb, s->wire_free), out);
        fprintf(out, "; %llu transfers, %llu bytes so far\n", (unsigned long long)*s->transfers,
                (unsigned long long)handed(s));
    }
}

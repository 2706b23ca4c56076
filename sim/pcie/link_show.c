/* Read-only view of the link for the stepper (uvmsim step: show link). */
#include <stdio.h>
#include "link_int.h"
#include "../engine.h"

void link_describe(const struct link *l, FILE *out)
{
    static const char *const dir[] = {"host-to-GPU (H2D)", "GPU-to-host (D2H)"};
    sim_time now = engine_now(l->eng);
    fprintf(out, "  link: %.4g GB/s of packets per direction, latency %llu ps, %u copy engine(s) each\n",
            l->rate / 1e9, (unsigned long long)l->latency, l->nce);
    for (int d = 0; d < 2; d++) {
        const struct link_dir_state *s = &l->d[d];
        fprintf(out, "    %s: wire %s", dir[d], s->wire_free > now ? "busy until " : "idle");
        if (s->wire_free > now) fprintf(out, "%llu ps", (unsigned long long)s->wire_free);
        fprintf(out, "; %llu transfers, %llu bytes so far\n", (unsigned long long)*s->transfers,
                (unsigned long long)*s->bytes);
    }
}

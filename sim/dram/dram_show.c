/* Read-only view of one memory channel for the stepper (uvmsim step:
 * show dram CH): its queues and every bank's row buffer. */
#include <stdio.h>
#include "dram_int.h"

void dram_describe_channel(const struct dram *d, unsigned ch, FILE *out)
{
    if (ch >= d->p.nch) { fprintf(out, "  no channel %u (%u channels)\n", ch, d->p.nch); return; }
    const struct channel *c = &d->ch[ch];
    fprintf(out, "  %s: %u requests arriving, %u reads and %u writes queued%s\n", c->name, c->in.n,
            c->rq.n, c->wq.n, c->drain ? " (draining writes)" : "");
    /* Oldest first, as queued (dram_queue.c). */
    for (uint32_t i = c->rq.head; i != DQ_NONE; i = c->rq.e[i].next)
        fprintf(out, "    read  %#llx: bank %u row %llu%s\n", (unsigned long long)c->rq.e[i].addr,
                c->rq.e[i].bank, (unsigned long long)c->rq.e[i].row,
                c->rq.e[i].started ? " (started)" : "");
    for (uint32_t i = c->wq.head; i != DQ_NONE; i = c->wq.e[i].next)
        fprintf(out, "    write %#llx: bank %u row %llu\n", (unsigned long long)c->wq.e[i].addr,
                c->wq.e[i].bank, (unsigned long long)c->wq.e[i].row);
    for (unsigned b = 0; b < d->p.nbanks; b++) {
        const struct bank *k = &c->ts.banks[b];
        if (k->open) fprintf(out, "    bank %u: row %llu open\n", b, (unsigned long long)k->row);
    }
}

/* Read-only view of one memory channel for the stepper (uvmsim step:
 * show dram CH): its queues and every bank's row buffer. */
#include <stdio.h>
#include "dram_int.h"

void dram_describe_channel(const struct dram *d, unsigned ch, FILE *out)
{
    if (ch >= d->p.nch) { fprintf(out, "  no channel %u (%u channels)\n", ch, d->p.nch); return; }
    const struct channel *c = &d->ch[ch];
    fprintf(out, "  %s: %u requests arriving, %u reads and %u writes queued%s\n", c->name, c->in.n,
            c->nrq, c->nwq, c->drain ? " (draining writes)" : "");
    for (uint32_t i = 0; i < c->nrq; i++)
        fprintf(out, "    read  %#llx: bank %u row %llu%s\n", (unsigned long long)c->rq[i].addr,
                c->rq[i].bank, (unsigned long long)c->rq[i].row, c->rq[i].started ? " (started)" : "");
    for (uint32_t i = 0; i < c->nwq; i++)
        fprintf(out, "    write %#llx: bank %u row %llu\n", (unsigned long long)c->wq[i].addr,
                c->wq[i].bank, (unsigned long long)c->wq[i].row);
    for (unsigned b = 0; b < d->p.nbanks; b++) {
        const struct bank *k = &c->ts.banks[b];
        if (k->open) fprintf(out, "    bank %u: row %llu open\n", b, (unsigned long long)k->row);
    }
}

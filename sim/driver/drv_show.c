/* Read-only views of the driver for the stepper (uvmsim step: show driver,
 * show batch).  The driver view is the watchdog's dump (drv_loop.c
 * drv_dump) under the memory figures. */
#include <stdio.h>
#include "drv_internal.h"

void driver_describe(const struct driver *d, FILE *out)
{
    fprintf(out, "  driver: %llu of %llu frames free, %llu pages resident; batch %s\n",
            (unsigned long long)d->mem.pmm.free_frames, (unsigned long long)d->mem.capacity,
            (unsigned long long)*d->stat.n_resident, d->state == D_IDLE ? "none (idle)" : "in progress");
    d->comp.ops->dump((struct component *)&d->comp, out);
}

void driver_describe_batch(const struct driver *d, FILE *out)
{
    static const char *const phase[] = {"none (idle)", "fault handling", "servicing its VA blocks",
                                        "waiting for its copies to land", "a host step",
                                        "servicing access-counter notifications"};
    if (d->state == D_IDLE || d->state == D_STEP || d->state == D_ACCESS) {
        fprintf(out, "  no batch in progress (driver %s); %llu batches so far\n", phase[d->state],
                (unsigned long long)*d->stat.n_batches);
        return;
    }
    char tb[TIME_STR_MAX];
    fprintf(out, "  batch %llu: fetched at %s, %zu faults, %zu unique pages in %zu VA blocks; %s",
            (unsigned long long)*d->stat.n_batches + 1, time_str(tb, d->batch.batch_start),
            d->batch.nfaults, d->batch.npages, d->batch.nblocks, phase[d->state]);
    if (d->state == D_HANDLING) fprintf(out, " until %s", time_str(tb, d->busy_until));
    else fprintf(out, " since %s, block %zu, %zu copies in flight",
                 time_str(tb, d->batch.migr_start), d->batch.cur_block, d->batch.inflight);
    fputc('\n', out);
    for (size_t b = 0; b < d->batch.nblocks; b++) {
        fprintf(out, "    VA block %zu:", b);
        for (size_t i = d->batch.block_start[b]; i < d->batch.block_start[b + 1]; i++)
            fprintf(out, " %#llx (%s)", (unsigned long long)d->batch.pages[i].vpn, req_kind_name(d->batch.pages[i].access));
        fputc('\n', out);
    }
}

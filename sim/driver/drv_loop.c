/* The servicing loop, as the real driver's replayable-fault bottom half
 * (uvm_gpu_replayable_faults.c, uvm_gpu_service_replayable_faults):
 *   IDLE --interrupt--> fetch a batch (drv_batch.c) --> HANDLING for the
 *   batch's fault-handling time --> SERVICE the VA blocks in address order
 *   (drv_block.c: prefetch, frames, eviction, migration) --> WAIT until
 *   every copy of the batch has landed and its page is mapped --> the next
 *   batch while faults remain, at most driver.batches_per_wake (the real
 *   driver's uvm_perf_fault_max_batches_per_service = 20) per wake-up;
 *   then the thread yields and the still-pending interrupt wakes it again
 *   after gmmu.interrupt_latency.
 * Faults logged after a batch was fetched wait for the next batch. */
#include "drv_internal.h"

static const char *state_name(enum drv_state s)
{
    static const char *const n[] = {"idle", "handling", "service", "wait"};
    return n[s];
}

sim_time drv_tick(struct component *c, sim_time now)
{
    struct driver *d = (struct driver *)c;
    for (;;) {
        switch (d->state) {
        case D_IDLE:
            if (!gmmu_faults_pending(d->gmmu)) { d->wake_batches = 0; return TIME_NEVER; }
            if (d->wake_batches == d->batches_per_wake) {
                /* Yield: the interrupt is re-armed and fires again. */
                d->wake_batches = 0;
                if (d->irq_latency) return now + d->irq_latency;
            }
            if (d->wake_batches == 0) *d->n_wakeups += 1;
            d->wake_batches++;
            drv_fetch_batch(d, now);
            break;
        case D_HANDLING:
            if (now < d->busy_until) return d->busy_until;
            d->migr_start = now;
            d->state = D_SERVICE;
            break;
        case D_SERVICE:
            if (!drv_service(d, now)) return TIME_NEVER;   /* a landing wakes us */
            d->state = D_WAIT;
            break;
        case D_WAIT:
            if (d->inflight) return TIME_NEVER;
            drv_end_batch(d, now);
            d->state = D_IDLE;
            break;
        }
    }
}

void drv_dump(struct component *c, FILE *out)
{
    struct driver *d = (struct driver *)c;
    fprintf(out, "    state %s, batch of %zu faults / %zu pages in %zu blocks, block %zu, "
            "%zu pages migrating, %zu copies in flight, %zu write-backs pending, "
            "%llu of %llu frames ever used, %zu free\n",
            state_name(d->state), d->nfaults, d->npages, d->nblocks, d->cur_block,
            d->nmigr, d->inflight, d->pending_d2h,
            (unsigned long long)d->never_used, (unsigned long long)d->capacity, d->nfree);
}

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
 * Faults logged after a batch was fetched wait for the next batch.
 * Replay (driver.replay_policy, the real driver's
 * uvm_perf_fault_replay_policy): block replays when each block's last copy
 * lands (drv_block.c); batch after each batch; batch_flush (the real default)
 * after each batch, first discarding the entries left in the fault buffer
 * (stale duplicates of what was just serviced; the walks behind them fault
 * again at the replay if their page is still absent); once when the
 * wake-up's batches are done.  Every policy also replays at the end of a
 * wake-up if anything was mapped since the last replay.  page, the
 * batch-aware paper's model (Sec. 2.2: "every time a page is migrated ...
 * the threads waiting for that page resume"), sends no replay at all: the
 * GMMU answers a page's parked accesses when it is mapped
 * (gmmu_defer_replay off), and each driver page is its own copy.
 * Access-counter notifications (drv_access_counters.c, with
 * driver.access_counters.migrate) are serviced when the wake-up's fault
 * batches are done or it yields, as their bottom half follows the fault
 * one on the same queue (uvm_gpu_isr.c).
 * Host steps (drv_step.c) run when no fault is pending, after them. */
#include "drv_internal.h"

static const char *state_name(enum drv_state s)
{
    static const char *const n[] = {"idle", "handling", "service", "wait", "host step",
                                    "access counters"};
    return n[s];
}

sim_time drv_tick(struct component *c, sim_time now)
{
    struct driver *d = (struct driver *)c;
    for (;;) {
        switch (d->state) {
        case D_IDLE:
            if (!gmmu_faults_pending(d->gmmu) || d->wake_batches == d->cost.batches_per_wake) {
                /* The wake-up ends: replay what is still unreplayed (the
                 * re-raised faults, if any, are seen by the check above). */
                if (d->unreplayed && d->replay != RP_PAGE) { drv_replay(d, false, now); continue; }
            }
            if (!gmmu_faults_pending(d->gmmu)) {
                d->wake_batches = 0;
                if (drv_ac_ready(d)) { drv_ac_begin(d, now); continue; }
                if (d->step.active) { d->state = D_STEP; continue; }
                return TIME_NEVER;
            }
            if (d->wake_batches == d->cost.batches_per_wake) {
                /* Yield: the interrupt is re-armed and fires again. */
                d->wake_batches = 0;
                /* The notifications' bottom half runs meanwhile. */
                if (drv_ac_ready(d)) { drv_ac_begin(d, now); continue; }
                if (d->cost.irq_latency) return now + d->cost.irq_latency;
            }
            if (d->wake_batches == 0) *d->stat.n_wakeups += 1;
            d->wake_batches++;
            drv_fetch_batch(d, now);
            break;
        case D_HANDLING:
            if (now < d->busy_until) return d->busy_until;
            d->batch.migr_start = now;
            d->state = D_SERVICE;
            break;
        case D_SERVICE:
            /* a landing wakes us, or the block's CPU work ends */
            if (!drv_service(d, now)) return drv_service_wake(d, now);
            d->state = D_WAIT;
            break;
        case D_STEP:
            /* a landing wakes us, or a prefetched block's CPU work ends */
            if (!drv_step_service(d, now)) return drv_service_wake(d, now);
            d->step.active = false;
            d->state = D_IDLE;
            d->step.done(d->step.ctx, now);    /* may hand the next step */
            break;
        case D_ACCESS: {
            sim_time wake;
            if (!drv_ac_service(d, now, &wake)) return wake;
            d->state = D_IDLE;
            break;
        }
        case D_WAIT:
            if (d->batch.inflight) return TIME_NEVER;
            drv_end_batch(d, now);
            d->state = D_IDLE;
            if (d->replay == RP_BATCH || d->replay == RP_BATCH_FLUSH)
                drv_replay(d, d->replay == RP_BATCH_FLUSH, now);
            break;
        }
    }
}

void drv_dump(struct component *c, FILE *out)
{
    struct driver *d = (struct driver *)c;
    fprintf(out, "    state %s, batch of %zu faults / %zu pages in %zu blocks, block %zu, "
            "%zu pages migrating, %zu copies in flight, %zu write-backs pending, "
            "%llu of %llu frames free\n",
            state_name(d->state), d->batch.nfaults, d->batch.npages, d->batch.nblocks, d->batch.cur_block,
            d->batch.nmigr, d->batch.inflight, d->blk.pending_d2h,
            (unsigned long long)d->mem.pmm.free_frames, (unsigned long long)d->mem.capacity);
    if (d->ue_have)
        fprintf(out, "    unobtrusive eviction: frame %llu evicted ahead, write-back %s\n",
                (unsigned long long)d->ue_pfn, drv_wb_busy(d, d->ue_pfn) ? "in flight" : "landed");
    drv_ac_dump(d, out);
}

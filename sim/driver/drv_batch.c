/* One batch's preprocessing and closing, as the real driver
 * (uvm_gpu_replayable_faults.c: fetch_fault_buffer_entries,
 * preprocess_fault_batch): fetch up to driver.batch_size (256) entries,
 * coalesce duplicates of a driver page (driver.page_size: the entries of
 * one 64 KiB page are one fault, as on the batch-aware paper's 64 KB-page
 * machine) keeping the most intrusive access (atomic > write > read, the
 * access the page must be mapped for), sort by address and group the
 * pages by 2 MiB VA block (uvm_va_block_t).  The
 * thread then spends driver.fault_latency (HPE Sec. III: 20 us) plus
 * driver.fault_cost per entry and driver.block_cost per block, and the
 * run's first batch driver.first_fault_cost more (drv_block.c charges the
 * per-page and new-block costs as each block is serviced). */
#include <stdlib.h>
#include <string.h>
#include "drv_internal.h"
#include "core/stats.h"

static int by_vpn(const void *a, const void *b)
{
    uint64_t x = ((const struct batch_page *)a)->vpn;
    uint64_t y = ((const struct batch_page *)b)->vpn;
    return x < y ? -1 : x > y;
}

/* HIR records that have landed in the driver's buffer feed the eviction
 * policy (HPE Sec. IV-B: HPE updates its page-set chain from them). */
void driver_take_hir(struct driver *d, sim_time now)
{
    struct hir_record rec[32];
    size_t n;
    while ((n = gmmu_hir_fetch(d->gmmu, rec, 32, now)))
        for (size_t i = 0; i < n; i++)
            for (uint32_t p = 0; p < HIR_MAX_SET_PAGES; p++)
                if (rec[i].count[p]) driver_hit_info(d, rec[i].first_vpn + p, rec[i].count[p]);
}

void drv_fetch_batch(struct driver *d, sim_time now)
{
    driver_take_hir(d, now);
    d->batch.nfaults = gmmu_fetch_faults(d->gmmu, d->batch.fetched, d->cost.batch_size, now);
    for (size_t i = 0; i < d->batch.nfaults; i++)
        d->batch.pages[i] = (struct batch_page){ drv_unit_base(d, d->batch.fetched[i].vpn), d->batch.fetched[i].access };
    qsort(d->batch.pages, d->batch.nfaults, sizeof *d->batch.pages, by_vpn);
    size_t n = 0;
    d->batch.nblocks = 0;
    for (size_t i = 0; i < d->batch.nfaults; i++) {
        if (n && d->batch.pages[n - 1].vpn == d->batch.pages[i].vpn) {
            if (req_intrusiveness(d->batch.pages[i].access) > req_intrusiveness(d->batch.pages[n - 1].access))
                d->batch.pages[n - 1].access = d->batch.pages[i].access;
            continue;
        }
        if (!n || d->batch.pages[n - 1].vpn / VA_BLOCK_PAGES != d->batch.pages[i].vpn / VA_BLOCK_PAGES)
            d->batch.block_start[d->batch.nblocks++] = n;
        drv_post(d, DRV_EV_FAULT, d->batch.pages[i].vpn, now);
        d->batch.pages[n++] = d->batch.pages[i];
    }
    d->batch.block_start[d->batch.nblocks] = n;
    memset(d->batch.block_inflight, 0, (d->batch.nblocks + 1) * sizeof *d->batch.block_inflight);
    *d->stat.n_dup += d->batch.nfaults - n;
    *d->stat.n_faults += d->batch.nfaults;
    *d->stat.n_blocks += d->batch.nblocks;
    d->batch.npages = n;
    d->batch.cur_block = 0;
    d->blk.block_ready = false;
    d->batch.nmigr = d->batch.nruns = d->blk.chunk_first = 0;
    d->batch.batch_start = now;
    d->batch.batch_h2d = d->batch.batch_d2h = d->batch.batch_evictions = d->batch.batch_migrated = 0;
    d->batch.batch_resident = 0;
    d->batch.at_prefetched = *d->stat.n_prefetched;
    d->batch.at_transfers = *d->stat.n_transfers;
    d->batch.at_mapped = *d->stat.n_mapped;
    d->batch.at_roots = *d->stat.n_root_evictions;
    d->batch.handling = d->cost.fault_latency + d->cost.fault_cost * d->batch.nfaults + d->cost.block_cost * d->batch.nblocks;
    if (!d->batched) d->batch.handling += d->cost.first_fault_cost;
    d->batched = true;
    d->busy_until = now + d->batch.handling;
    if (TRACE_ON(TW_BATCHES | TW_FAULTS)) {
        trace_batch_begin(d->batch.nfaults, n, d->batch.nblocks, d->busy_until, now);
        for (size_t i = 0; i < d->batch.nfaults; i++) trace_batch_fault(d->batch.fetched[i].vpn, now);
    }
    d->state = D_HANDLING;
    /* The top half's pre-emptive eviction (batch-aware Sec. 4.2). */
    drv_ue_batch_start(d, now);
}

void drv_end_batch(struct driver *d, sim_time now)
{
    uint64_t start = d->batch.batch_start, end = now, faults = d->batch.nfaults,
             pages = d->batch.npages, handling = d->batch.handling,
             migration = now - d->batch.migr_start, blocks = d->batch.nblocks,
             prefetched = *d->stat.n_prefetched - d->batch.at_prefetched,
             transfers = *d->stat.n_transfers - d->batch.at_transfers,
             mapped = *d->stat.n_mapped - d->batch.at_mapped,
             roots = *d->stat.n_root_evictions - d->batch.at_roots;
    const void *row[] = { &start, &end, &faults, &pages, &d->batch.batch_migrated,
                          &d->batch.batch_h2d, &d->batch.batch_d2h, &handling, &migration,
                          &d->batch.batch_evictions, &blocks, &d->batch.batch_resident,
                          &prefetched, &transfers, &mapped, &roots };
    rec_append(d->stat.batches, row);
    if (TRACE_ON(TW_BATCHES))
        trace_batch_end(&(struct trace_batch){ start, start + handling, d->batch.migr_start, end, faults,
                        pages, d->batch.nblocks, d->batch.batch_migrated, d->batch.batch_h2d, d->batch.batch_d2h,
                        d->batch.batch_evictions });
    stat_hist_add(d->stat.batch_faults, faults);
    *d->stat.n_batches += 1;
    *d->stat.busy_ps += now - d->batch.batch_start;
}

void drv_stats_init(struct driver *d, struct stats *st)
{
    static const struct rec_field batch_fields[] = {
        {"start_ps", REC_U64, "ps"}, {"end_ps", REC_U64, "ps"},
        {"faults", REC_U64, "faults"}, {"pages", REC_U64, "pages"},
        {"migrated", REC_U64, "pages"},
        {"h2d_bytes", REC_U64, "bytes"}, {"d2h_bytes", REC_U64, "bytes"},
        {"handling_ps", REC_U64, "ps"}, {"migration_ps", REC_U64, "ps"},
        {"evictions", REC_U64, "pages"},
        /* What an instrumented real driver logs per batch (Allen and Ge,
         * tallendev/uvm-eval tools/plotv2/Batch.py; docs/results.md maps
         * each column to its field). */
        {"va_blocks", REC_U64, "blocks"}, {"resident", REC_U64, "pages"},
        {"prefetched", REC_U64, "pages"}, {"transfers", REC_U64, "transfers"},
        {"mapped", REC_U64, "pages"}, {"root_evictions", REC_U64, "chunks"},
    };
    d->stat.batches = stat_table(st, "batches", "one row per fault batch the driver serviced",
                            batch_fields, sizeof batch_fields / sizeof batch_fields[0]);
    d->stat.n_batches = stat_counter(st, "driver.batches", "batches", "fault batches serviced");
    d->stat.n_accessed_by = stat_counter(st, "driver.accessed_by_mapped", "pages",
                                    "pages mapped remote to keep accessed-by advice (at advice, at eviction)");
    d->stat.n_remote = stat_counter(st, "driver.remote_mapped", "pages",
                               "faulted pages mapped remotely (preferred location host)");
    d->stat.n_steps = stat_counter(st, "driver.host_steps", "steps",
                              "host steps run between kernels (prefetch, memcpy, advise)");
    d->stat.n_step_h2d = stat_counter(st, "driver.step_h2d_bytes", "bytes",
                                 "bytes host steps copied to the GPU");
    d->stat.n_step_d2h = stat_counter(st, "driver.step_d2h_bytes", "bytes",
                                 "bytes host steps copied to the host");
    d->stat.n_alloc64 = stat_counter(st, "driver.pmm.chunks_64k", "chunks",
                                "64 KiB chunks given whole to a big page being filled");
    d->stat.n_alloc2m = stat_counter(st, "driver.pmm.chunks_2m", "chunks",
                                "2 MiB root chunks given whole to a VA block being filled");
    d->stat.n_prefetch_dropped = stat_counter(st, "driver.prefetch_dropped", "blocks",
                                         "blocks whose prefetch exceeded GPU memory (faulted pages only)");
    d->stat.n_sent_home = stat_counter(st, "driver.pages_to_host", "pages",
                                  "resident pages a prefetch to the host moved out of GPU memory");
    d->stat.n_replays = stat_counter(st, "driver.replays", "signals", "replays issued to the GPU");
    d->stat.n_wakeups = stat_counter(st, "driver.wakeups", "wakeups",
                                "times the thread woke on the fault interrupt");
    d->stat.n_faults = stat_counter(st, "driver.faults", "faults", "fault-buffer entries fetched");
    d->stat.n_dup = stat_counter(st, "driver.duplicate_faults", "faults",
                            "entries coalesced into another entry of the same batch");
    d->stat.n_blocks = stat_counter(st, "driver.va_blocks", "blocks",
                               "2 MiB VA blocks serviced, summed over batches");
    d->stat.n_pages = stat_counter(st, "driver.pages_migrated", "pages", "4 KiB pages copied host to GPU");
    d->stat.n_root_evictions = stat_counter(st, "driver.pmm.root_evictions", "chunks",
                                       "2 MiB root chunks evicted whole (driver.evict_unit=chunk)");
    d->stat.n_evict_prefetched = stat_counter(st, "driver.evictions_prefetched", "pages",
                                         "evicted pages that had come without a fault (prefetch, host step)");
    d->stat.n_map64 = stat_counter(st, "driver.ptes_64k", "PTEs",
                              "64 KiB PTEs made (a big page resident whole in a 64 KiB of frames)");
    d->stat.n_map2m = stat_counter(st, "driver.ptes_2m", "PTEs",
                              "2 MiB PTEs made (a block resident whole in its root chunk)");
    d->stat.n_ue_preemptive = stat_counter(st, "driver.ue.preemptive_evictions", "pages",
                                      "driver pages evicted when a batch started with GPU memory full "
                                      "(eviction_timing unobtrusive, batch-aware Sec. 4.2)");
    d->stat.n_ue_ahead = stat_counter(st, "driver.ue.pipelined_evictions", "pages",
                                 "driver pages evicted beside a migration for the next one "
                                 "(eviction_timing unobtrusive)");
    d->stat.n_ue_demand = stat_counter(st, "driver.ue.demand_evictions", "pages",
                                  "driver pages evicted when a migration found no frame evicted ahead "
                                  "(eviction_timing unobtrusive)");
    d->stat.n_ue_waits = stat_counter(st, "driver.ue.frame_waits", "pages",
                                 "frames evicted ahead that a migration had to wait for "
                                 "(write-back not landed; eviction_timing unobtrusive)");
    d->stat.n_prefetched = stat_counter(st, "driver.pages_prefetched", "pages",
                                   "migrated pages no fault asked for (prefetcher)");
    d->stat.n_mapped = stat_counter(st, "driver.pages_mapped", "pages",
                               "pages mapped after their copy landed");
    d->stat.n_transfers = stat_counter(st, "driver.h2d_transfers", "transfers",
                                  "copy-engine transfers host to GPU (runs of contiguous pages)");
    d->stat.n_evictions = stat_counter(st, "driver.evictions", "pages", "4 KiB pages evicted from GPU memory");
    d->stat.n_writebacks = stat_counter(st, "driver.writebacks", "pages",
                                   "pages copied back to the host as they left GPU memory (all, or the written ones with drop_clean)");
    d->stat.n_clean = stat_counter(st, "driver.evictions_clean", "pages",
                              "evicted pages the GPU had not written");
    d->stat.n_premature = stat_counter(st, "driver.premature_evictions", "pages",
                                  "evictions whose page faulted again later");
    d->stat.busy_ps = stat_counter(st, "driver.batch_ps", "ps", "time from batch fetch to its last page landing, summed");
    /* 16-entry bins up to the real driver's 256-entry batch, then overflow. */
    d->stat.batch_faults = stat_histogram(st, "driver.batch_faults", "faults",
                                     "fault-buffer entries per batch", 17, 16);
    /* Residency has no bound a run knows in advance: 1024 bins from 1 us
     * that widen with the data (no overflow; the report bins its range). */
    d->stat.lifetime = stat_histogram_ranging(st, "driver.residency_us", "us",
                                              "time from a page's mapping to its eviction", 1024, 1);
    d->stat.n_resident = stat_counter(st, "driver.resident_pages", "pages",
                                 "frames holding a landed page now (a level, sampled each epoch)");
    uint64_t *cap = stat_counter(st, "driver.capacity_pages", "pages", "GPU memory frames available to migrated pages");
    *cap = d->mem.capacity;
}

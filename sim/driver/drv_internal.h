/* Private to sim/driver: the timed driver's state, shared by its files:
 *   driver.c     configuration, construction, the public entry points;
 *   drv_loop.c   the servicing state machine (wake, batches, wake limit);
 *   drv_batch.c  fetch, coalesce, sort, group by 2 MiB VA block, costs;
 *   drv_block.c  one VA block: prefetch, frames (evicting), migration runs;
 *   drv_thrash.c the driver's side of thrashing detection (perf/): unpinning,
 *                a fault's hint, the prefetch mask;
 *   drv_vablock.c the VA-block floor below the services: a block's extent
 *                and advice, where a page is mapped;
 *   drv_events.c the event subscriptions (drv_events.h);
 *   drv_chunks.c the real driver's GPU memory (driver.evict_unit=chunk):
 *                chunks by VA block geometry, root-chunk eviction;
 *   drv_evict.c  unmapping pages (eviction, prefetch to host), write-backs;
 *   drv_ue.c     eviction timing against migrations (driver.eviction_timing:
 *                serial, unobtrusive, ideal);
 *   drv_map.c    mapping landed pages with the largest PTEs they allow;
 *   drv_frames.c frames (pmm.c: 2 MiB / 64 KiB / 4 KiB chunks) and residency
 *                bookkeeping;
 *   drv_access_counters.c access-counter notifications: batches that
 *                migrate the notified regions' host-resident pages.
 * The wings below the thread, one public header each: mem/ (mem.h: PMM,
 * page maps, page counts), evict/ (evict.h), place/ (placement.h),
 * migrate/ (migrate.h), prefetch/ (prefetch.h), perf/ (perf.h: thrashing,
 * oversubscription control, cyclic detection) and replay/ (the
 * `uvmsim replay` tool, declared in driver.h). */
#ifndef UVMSIM_DRIVER_INTERNAL_H
#define UVMSIM_DRIVER_INTERNAL_H

#include "driver.h"
#include "driver/evict/evict.h"
#include "driver/prefetch/prefetch.h"
#include "driver/mem/mem.h"
#include "driver/perf/perf.h"
#include "drv_events.h"
#include "trace/trace.h"
#include "core/mem_req.h"
#include "gmmu/gmmu.h"

struct config;
struct stats;

enum drv_state { D_IDLE, D_HANDLING, D_SERVICE, D_WAIT, D_STEP, D_ACCESS };
/* When the GPU is told to replay (real driver: uvm_perf_fault_replay_policy);
 * in the order of driver.replay_policy's choices (cfg_choice). */
/* RP_PAGE: no replay signal; the GMMU answers a page's parked accesses
 * when it is mapped (batch-aware paper Sec. 2.2). */
enum drv_replay { RP_BLOCK, RP_BATCH, RP_BATCH_FLUSH, RP_ONCE, RP_PAGE };
/* driver.eviction_timing (drv_ue.c): how an eviction's write-back is
 * ordered against the migrations that need frames; in the order of its
 * choices (cfg_choice). */
enum drv_evict_timing { ET_BLOCK, ET_SERIAL, ET_UNOBTRUSIVE, ET_IDEAL };


/* A unique faulted page of the batch (duplicates coalesced). */
struct batch_page { uint64_t vpn; enum req_kind access; };
/* A page chosen for migration and the frame it goes to. */
/* prefetched: no fault asked for it (prefetcher, host step); policies do not
 * count it as a fault. */
struct migr_page { uint64_t vpn, pfn; bool readonly, prefetched; };
/* Contiguous pages copied by one copy-engine transfer. */
struct run { uint32_t first, n, block; };

/* One GPU frame, 16 bytes: the page it holds (NO_FRAME_PAGE when free)
 * with FRAME_PREFETCHED in its top bit when the page came without a
 * fault (page numbers are below 2^36), and since when (its landing). */
struct frame { uint64_t page; sim_time since; };

/* The page of a frame that holds none */
#define NO_FRAME_PAGE UINT64_MAX
#define FRAME_PREFETCHED (1ULL << 63)

/* The costs and limits of the thread's steps (driver.*; driver.c). */
struct drv_costs {
    sim_time fault_latency, fault_cost, block_cost, irq_latency;
    /* The CPU-side service costs (issue 40): per page migrated, per VA
     * block first serviced, once at the run's first batch. */
    sim_time page_cost, new_block_cost, first_fault_cost;
    uint32_t batch_size, batches_per_wake;
};

/* The VA block being serviced: drv_block.c works it for a batch,
 * drv_access_counters.c for a notification, drv_step.c for a host step
 * (one at a time); drv_vablock.c reads its extent. */
struct drv_blk {
    struct block_bits want;         /* pages of cur_block to migrate */
    struct block_bits ro;           /* ... of them, mapped read-only (read-mostly) */
    struct block_bits faulted;      /* ... of them, asked for by a fault of the batch */
    unsigned want_next;             /* next page index 0..511 to allocate */
    unsigned blk_first, blk_end;    /* the VA block's extent in the 2 MiB region */
    bool block_ready;               /* want computed for cur_block */
    size_t chunk_first;             /* first migr entry not yet launched */
    size_t pending_d2h;             /* write-backs the chunk waits on */
    sim_time blk_t0;                /* when the block being serviced started (trace) */
    sim_time ready_at;              /* its CPU work (page / new-block costs) done */
};

/* The batch being serviced (drv_batch.c fills it, drv_block.c works it). */
struct drv_batch {
    struct fault_entry *fetched;
    struct batch_page *pages;       /* sorted by vpn, unique */
    size_t nfaults, npages;
    size_t *block_start;            /* index into pages of each VA block */
    uint32_t *block_inflight;       /* pages of each block still copying */
    size_t nblocks, cur_block;
    /* its migrations */
    struct migr_page *migr;
    struct run *runs;
    size_t nmigr, nruns, inflight;  /* pages copied and not yet landed */
    /* its statistics */
    sim_time batch_start, handling, migr_start;
    uint64_t batch_h2d, batch_d2h, batch_evictions, batch_migrated;
    uint64_t batch_resident;        /* faulted pages found mapped at service */
    /* The run's counters at the fetch: /batches' per-batch columns are
     * their growth to the batch's end (no count kept twice). */
    uint64_t at_prefetched, at_transfers, at_mapped, at_roots;
};

/* GPU memory as the driver holds it (drv_frames.c, drv_chunks.c over mem/). */
struct drv_mem {
    uint64_t capacity;
    struct pmm pmm;
    struct frame *frames;
    uint8_t *res64;                 /* per 64 KiB of frames: pages resident (landed) */
    uint16_t *resroot;              /* per root chunk: pages resident */
    uint64_t *chunk_vpn;            /* chunked: per frame, first page of its chunk */
    struct page_map chunks;         /* chunked: chunk's first page -> first frame */
    /* Per driver page: its evictions that no fault has followed yet (a
     * fault on a page with one is a premature eviction). */
    struct page_counts unanswered;
    struct wb_track wb;             /* frames whose write-back is on the link */
};

/* The driver's statistics (drv_stats_init). */
struct drv_stats {
    struct rec_table *batches;
    struct rec_table *root_evict_tab;   /* chunked: every root eviction (time, VA block) */
    struct stat_hist *batch_faults, *lifetime;
    uint64_t *n_resident;   /* frames holding a landed page now (a level) */
    uint64_t *n_batches, *n_faults, *n_pages, *n_evictions, *n_writebacks,
             *n_dup, *busy_ps, *n_prefetched, *n_clean, *n_premature,
             *n_transfers, *n_wakeups, *n_blocks, *n_mapped, *n_replays,
             *n_remote, *n_steps, *n_step_h2d, *n_step_d2h,
             *n_alloc64, *n_alloc2m, *n_prefetch_dropped, *n_sent_home,
             *n_root_evictions, *n_evict_prefetched, *n_map64, *n_map2m,
             *n_ue_preemptive, *n_ue_ahead, *n_ue_demand, *n_ue_waits,
             *n_accessed_by, *n_copies_skipped;
};

/* The policy and heuristic handles: driver_create makes them and
 * driver_free frees them; the optional ones are NULL where the
 * configuration has none. */
struct drv_pol {
    struct evictor *evict;
    struct thrashing *thrash;       /* NULL: driver.thrashing.enabled off */
    const struct prefetch_ops *prefetch;
    unsigned prefetch_threshold;
    struct drv_oversub *oversub;    /* NULL: no oversubscription control */
    struct drv_throttle *throttle;  /* NULL: driver.throttle none */
    struct migr *dmig;              /* dynamic migration; NULL: driver.migration none (migrate.h) */
    struct drv_ac *ac;              /* NULL: driver.access_counters.migrate off */
    struct drv_cyclic *cyc;         /* chunked + driver.eviction=cyclic (drv_cyclic.c) */
    const struct chunk_evict_ops *chunk_ev;   /* chunked: picks the root to evict (chunk_evict.c) */
};

struct driver {
    struct component comp;
    driver_unmap_hook unmap_hook;
    void *unmap_ctx;
    struct gmmu *gmmu;
    struct tlb *tlb;
    struct link *link;
    struct drv_pol pol;             /* the policies and heuristics (driver.c creates them) */
    bool drop_clean;
    bool chunked;                 /* driver.evict_unit=chunk: the real driver's PMM */
    unsigned unit;                /* 4 KiB pages per driver page (driver.page_size): 1 or 16 */
    unsigned max_shift;           /* largest PTE mapped (drv_map.c): 12, 16 or 21 */
    bool placed;                  /* static placement (drv_place.c): no copies */
    enum drv_replay replay;
    bool unreplayed;                /* pages mapped since the last replay */
    struct drv_costs cost;
    uint32_t wake_batches;
    enum drv_state state;
    sim_time busy_until;
    struct drv_batch batch;
    struct drv_blk blk;             /* the block being serviced (drv_block.c) */
    enum drv_evict_timing evict_timing;
    bool ue_have, ue_waited;        /* unobtrusive: a frame evicted ahead; a
                                       migration found it still writing back */
    uint64_t ue_pfn;                /* ... its first frame */
    driver_oversub_fn oversub_fn;   /* the GPU, told the extra blocks per SM */
    void *oversub_ctx;
    driver_throttle_fn throttle_fn; /* the GPU, told the SMs to run */
    void *throttle_ctx;
    /* allocations and their cudaMemAdvise hints (enum wl_advice bits) */
    struct drv_alloc { uint64_t first_vpn, npages; unsigned advice; } *allocs;
    size_t nallocs;
    /* the host step being run (drv_step.c) */
    struct drv_step {
        int kind, dir, advice;
        bool unset;
        bool device;                /* cudaMalloc'd memory: no UVM CPU work */
        uint32_t alloc;
        uint64_t first, end, next;  /* pages [first, end); next block base */
        uint64_t bytes;             /* the step's byte count */
        bool copied;                /* resident runs copied (memcpy) */
        bool active;                /* a step is running (drv_post tells subscribers) */
        driver_step_done done;      /* called when it completes */
        void *ctx;
    } step;
    struct drv_mem mem;
    struct page_map seen_blocks;    /* VA blocks serviced (driver.new_block_cost > 0) */
    bool batched;                   /* a fault batch has been fetched (first_fault_cost) */
    struct drv_events events;       /* the reactions, subscribed at create (driver.c) */
    struct drv_stats stat;
};

/* drv_vablock.c, the VA-block floor (calls only the GMMU). */
/* The advice bits of the allocation holding vpn (0: none). */
unsigned drv_advice(const struct driver *d, uint64_t vpn);
/* The VA block of the 2 MiB region at base (page number): the slots
 * [*first, *end) of its allocation (the whole region outside any). */
void drv_block_extent(const struct driver *d, uint64_t base, unsigned *first, unsigned *end);
/* Map vpn to its host copy (identity host frame), reached over the link
 * without a fault. */
void drv_map_host(struct driver *d, uint64_t vpn, sim_time now);
/* VPN is resident in GPU memory or mapped remotely to its host copy. */
bool drv_mapped(const struct driver *d, uint64_t vpn);
/* d->blk.want: a driver page any of whose pieces is wanted comes whole (its
 * part inside the block [blk_first, blk_end)); 4 KiB driver pages: as is. */
void drv_want_whole_pages(struct driver *d);

/* Post event kind on page vpn to its subscribers (drv_events.h). */
static inline void drv_post(const struct driver *d, enum drv_event_kind kind, uint64_t vpn, sim_time now)
{
    drv_events_post(&d->events, kind, vpn, d->step.active, now);
}

/* drv_map.c: the replay signal (flushing the buffer first if asked). */
void drv_replay(struct driver *d, bool flush, sim_time now);
/* drv_loop.c: the driver component's tick and dump (driver.c's comp_ops). */
sim_time drv_tick(struct component *c, sim_time now);
void drv_dump(struct component *c, FILE *out);
/* drv_batch.c */
void drv_fetch_batch(struct driver *d, sim_time now);
void drv_end_batch(struct driver *d, sim_time now);
/* drv_block.c: allocate frames for the pages of d->blk.want (in the block at
 * `base`) from d->blk.want_next on, evicting as needed, and start their copies;
 * true when every page's copy has started, false when waiting (a landing
 * wakes the driver). */
bool drv_block_fill(struct driver *d, uint64_t base, sim_time now);
/* Advance the host step; true when it has completed. */
bool drv_step_service(struct driver *d, sim_time now);
/* drv_block.c: advance the service of the batch's blocks; returns true
 * when every block's pages are allocated and their copies started. */
bool drv_service(struct driver *d, sim_time now);
/* When drv_service, having returned false, is next due by the clock (the
 * block's CPU work ending); TIME_NEVER: a landing wakes it. */
sim_time drv_service_wake(const struct driver *d, sim_time now);
/* The CPU work of making the block at base resident once its pages are in
 * blk.want (driver.page_cost, driver.new_block_cost). */
sim_time drv_block_cpu_cost(struct driver *d, uint64_t base);
/* drv_frames.c */
void drv_frames_init(struct driver *d);
void drv_frames_free(struct driver *d);
/* A free piece of `size` (first frame in *pfn), or false. */
bool drv_frame_take(struct driver *d, enum pmm_size size, uint64_t *pfn);
/* Frame pfn will hold vpn (its copy starts); chunked: pins its root. */
void drv_frame_hold(struct driver *d, uint64_t pfn, uint64_t vpn, bool prefetched, sim_time now);
/* vpn's copy into pfn has landed and it is mapped: resident. */
void drv_frame_landed(struct driver *d, uint64_t pfn, sim_time now);
/* The frame holding vpn is released: lifetime recorded, premature-eviction
 * tracking armed.  The frame itself is reused by the caller. */
void drv_frame_evicted(struct driver *d, uint64_t pfn, uint64_t vpn, sim_time now);
/* The page left for the host (prefetch): lifetime recorded, frame freed
 * (chunked: the frame stays with its chunk, as the real driver keeps a VA
 * block's chunks). */
void drv_frame_released(struct driver *d, uint64_t pfn, uint64_t vpn, sim_time now);
/* Subscriber of DRV_EV_FAULT (a fault on a driver page's first 4 KiB page
 * fetched): counts a premature eviction once per eviction that the page
 * faults back after.  ctx: the driver. */
void drv_frames_on_fault(void *ctx, const struct drv_event *e);
/* The driver page holding vpn is held whole (every piece inside its
 * allocation resident or its copy in flight) or not at all. */
void drv_check_unit(const struct driver *d, uint64_t vpn, sim_time now, const char *why);
/* The chunk holding slot i of the block [first, end) (chunked): its
 * first slot and its size. */
void drv_chunk_geometry(const struct driver *d, unsigned first, unsigned end, unsigned i,
                        unsigned *lo, enum pmm_size *size);
/* Does the chunk of page vpn (of the block at base, extent [first, end))
 * hold it (resident, or its copy in flight)? */
bool drv_chunk_holds(const struct driver *d, uint64_t base, unsigned first, unsigned end,
                     uint64_t vpn);
/* The page frame pfn holds, or NO_FRAME_PAGE. */
static inline uint64_t drv_frame_vpn(const struct driver *d, uint64_t pfn)
{
    uint64_t p = d->mem.frames[pfn].page;
    return p == NO_FRAME_PAGE ? p : p & ~FRAME_PREFETCHED;
}
/* The first 4 KiB page of vpn's driver page. */
static inline uint64_t drv_unit_base(const struct driver *d, uint64_t vpn)
{ return vpn & ~(uint64_t)(d->unit - 1); }

/* drv_evict.c: unmap the GPU-resident pages of [vpn, vpn + n) (within one
 * 2 MiB region), splitting a large PTE that reaches outside, with one TLB
 * shootdown for the range; their data goes back to the host (written
 * pages, or every page without driver.drop_clean) in one D2H transfer per
 * contiguous run, which the driver waits for (pending_d2h).  home: a
 * prefetch to the host (frames released, the policy told) instead of an
 * eviction (frames kept for the caller).  Returns the pages unmapped. */
unsigned drv_unmap_pages(struct driver *d, uint64_t vpn, unsigned n, bool home, sim_time now);
/* Page modes: evict the policy's victim (one driver page); its first frame
 * (64 KiB-aligned for 64 KiB driver pages) in *pfn, free to reuse; false
 * when no page can be evicted. */
bool drv_evict_victim(struct driver *d, uint64_t *pfn, sim_time now);
/* Subscriber of DRV_EV_RESIDENT, DRV_EV_PREFETCHED and DRV_EV_RELEASED for
 * the page eviction policy (not under evict_unit chunk): a driver page is
 * one entry of it, and prefetched ones are not faults for it (evict.h).
 * ctx: the driver. */
void drv_evict_on_event(void *ctx, const struct drv_event *e);

/* The driver's write-back tracking (mem/wb.c) over its frames. */
static inline uint64_t drv_wb_begin(struct driver *d, const uint64_t *pfn, unsigned n, sim_time now)
{ return wb_begin(&d->mem.wb, pfn, n, now); }
static inline void drv_wb_end(struct driver *d, uint64_t id, sim_time now)
{ wb_end(&d->mem.wb, id, now); }
static inline bool drv_wb_busy(const struct driver *d, uint64_t pfn)
{ return wb_busy(&d->mem.wb, pfn); }
/* Unobtrusive eviction (batch-aware Sec. 4.2).  At a batch's start: with
 * memory full, evict one page now, overlapping the fault handling. */
void drv_ue_batch_start(struct driver *d, sim_time now);
/* A frame for the next migration: the page evicted ahead once its
 * write-back has landed (evicting one now if none is); false to wait for
 * a landing. */
bool drv_ue_take(struct driver *d, uint64_t *pfn, sim_time now);
/* A migration has started: with memory full and `more` pages to come,
 * start the next eviction beside it on the other direction. */
void drv_ue_ahead(struct driver *d, bool more, sim_time now);
/* Frames free for one more driver page without evicting. */
static inline bool drv_frames_free_unit(const struct driver *d)
{ return d->mem.pmm.free_frames >= d->unit; }

/* drv_thrash.c: the driver's side of thrashing detection (perf/). */
struct thrashing *drv_thrashing_create(struct driver *d, const struct config *cfg,
                                       struct stats *st);
/* Before servicing a GPU fault on vpn: true when the page must not be
 * migrated now (throttled, or pinned in host memory and mapped there). */
bool drv_thrashing_fault(struct driver *d, uint64_t vpn, sim_time now);
/* The block's pages to migrate: the prefetcher's choice without thrashing
 * pages, whose faults do not seed a prefetch either (uvm_perf_prefetch.c),
 * plus every faulted page. */
struct prefetch_in;
void drv_thrashing_prefetch(struct driver *d, uint64_t base, struct prefetch_in *in,
                            struct block_bits *want);

/* drv_migrate.c: the migration engine of driver.migration, given the
 * thread's struct migr_host (NULL: none). */
struct migr *drv_migrate_create(struct driver *d, const struct config *cfg, struct stats *st);

/* drv_chunks.c (chunked): the frame of slot i of the block at base, its
 * chunk allocated (evicting root chunks) if it has none; false when no
 * root chunk can be evicted now. */
bool drv_chunk_frame(struct driver *d, uint64_t base, unsigned i, uint64_t *pfn, sim_time now);
/* Evict root chunk r whole (evict_root_chunk) and free it. */
void drv_evict_root(struct driver *d, uint32_t r, sim_time now);
void drv_chunks_stats(struct driver *d, struct stats *st);

/* Chunk-level eviction (driver.evict_unit chunk): the policies that pick
 * the root chunk to evict, each standing for the driver.eviction of its
 * name (the page policy is not asked then).  The table is chunk_evict.c's;
 * a new one is a file and a line there. */
struct chunk_evict_ops {
    const char *name;   /* its driver.eviction */
    const char *over;   /* the driver.evict.cyclic.base it works over, or NULL */
    /* Its state in d (NULL: none). */
    void (*create)(struct driver *d, const struct config *cfg, struct stats *st);
    /* The root to evict; false when none can go. */
    bool (*victim)(struct driver *d, uint32_t *r);
};
/* The entry for driver.eviction NAME, or NULL: it has no chunk-level form. */
const struct chunk_evict_ops *chunk_evict_find(const char *name);
/* Entry i, NULL past the last (tests). */
const struct chunk_evict_ops *chunk_evict_at(size_t i);

/* drv_map.c: map the n landed pages of a run with the largest PTEs the
 * residency allows (2 MiB, 64 KiB, 4 KiB) and merge the pages around them
 * that become a whole big page or block. */
void drv_map_landed(struct driver *d, const struct migr_page *m, size_t n, sim_time now);
void drv_stats_init(struct driver *d, struct stats *st);


/* drv_access_counters.c (NULL / no-ops unless driver.access_counters.migrate). */
struct drv_ac *drv_ac_create(struct driver *d, const struct config *cfg, struct stats *st);
void drv_ac_free(struct drv_ac *a);
/* Notifications wait and the thread may take them (no host step running). */
bool drv_ac_ready(const struct driver *d);
/* Enter D_ACCESS; drv_ac_service advances it: true when the buffer is empty
 * and every copy has landed, else false with the time to tick again in
 * *wake (TIME_NEVER: a landing wakes the thread). */
void drv_ac_begin(struct driver *d, sim_time now);
bool drv_ac_service(struct driver *d, sim_time now, sim_time *wake);
/* Subscriber of DRV_EV_EVICTED: map_remote_on_eviction maps a page
 * evicted (one without accessed-by advice, which the driver maps itself)
 * remotely to its host copy.  ctx: the driver. */
void drv_ac_on_event(void *ctx, const struct drv_event *e);
void drv_ac_dump(const struct driver *d, FILE *out);

#endif

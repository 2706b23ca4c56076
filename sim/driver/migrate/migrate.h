/* Private to sim/driver: dynamic page migration in CC-NUMA (Agarwal
 * thesis Ch. V; spec batch-sc19-thesis.md Part C.2).  Pages start homed in
 * host memory and reached remotely (driver.placement host, or any static
 * placement: its host-homed pages); the CPU runtime moves them to GPU
 * memory while the kernels run.  One file per job:
 *   migr_engine.c   the runtime: the GPU's hint ring it polls, the
 *                   unbounded FIFO of candidates, at most
 *                   driver.migrate.concurrency page migrations at once
 *                   (Linux move_pages, Sec. 5.2.1), each a 4 KiB H2D copy
 *                   (host DDR4 -> link -> GPU memory) and the remap with
 *                   its TLB shootdown; the invariants; the statistics;
 *   migr_threshold.c threshold-N: the per-page touch counter (Sec. 5.2.2);
 *   migr_expand.c   range expansion (Sec. 5.3): the trigger's neighbours;
 *   migr_gddr.c     the copy's writes into GPU memory (the GDDR model);
 *   migr_bwb.c      bandwidth balancing (Sec. 5.4): the migration rate
 *                   from the memories' demand shares every window;
 *   migr_memcpy.c   the legacy memcpy baseline (Sec. 5.2.2, Fig. 2.2):
 *                   every host-homed page copied before the first kernel;
 *   migr_policies.c the policy table (driver.migration) and the keys.
 * A policy is a struct migr_ops: what makes a page a candidate, and what
 * runs before the first kernel.  The wing reaches the driver's thread only
 * through struct migr_host (the thread fills it at migr_create,
 * drv_migrate.c): it includes no thread header. */
#ifndef UVMSIM_DRIVER_MIGRATE_H
#define UVMSIM_DRIVER_MIGRATE_H

#include "driver/driver.h"
#include "core/mem_req.h"

struct config;
struct stats;
struct rec_table;
struct migr;
struct gmmu;
struct tlb;
struct link;
struct engine;
struct domain;

/* What the migration wing needs of the driver's thread (drv_migrate.c
 * fills it; ctx is the driver): its frames, its landing, its footprint,
 * and the rooms the remap and the copies go through. */
struct migr_host {
    void *ctx;
    struct engine *eng;
    const struct domain *dom;     /* the driver's clock */
    struct gmmu *gmmu;
    struct tlb *tlb;
    struct link *link;
    /* A free 4 KiB GPU frame (false: GPU memory is full). */
    bool (*frame_take)(void *ctx, uint64_t *pfn);
    /* Frame pfn now holds prefetched page vpn, its copy in flight. */
    void (*frame_hold)(void *ctx, uint64_t pfn, uint64_t vpn, sim_time now);
    /* The page's host lines in the GPU caches dropped (the unmap hook). */
    void (*unmapped)(void *ctx, uint64_t pa, sim_time now);
    /* Page vpn is mapped in frame pfn: its copy landed (RESIDENT's frame
     * bookkeeping, then the PREFETCHED event). */
    void (*landed)(void *ctx, uint64_t vpn, uint64_t pfn, sim_time now);
    /* The page frame pfn holds (the invariants). */
    uint64_t (*frame_vpn)(const void *ctx, uint64_t pfn);
    /* The allocation holding vpn: [*first, *end) (false: none). */
    bool (*alloc_of)(const void *ctx, uint64_t vpn, uint64_t *first, uint64_t *end);
};

struct migr_ops {
    const char *name;
    /* One GPU touch of host-homed page i (index over the footprint's
     * pages); true when it makes the page a candidate: the hint the GPU
     * writes into the ring.  NULL: touches are not counted. */
    bool (*touch)(struct migr *m, uint64_t i);
    /* Before the first kernel: start the policy's work and return true
     * (migr_prologue_done is then called when it is over), or false:
     * nothing to do, the kernels start at once.  NULL: false. */
    bool (*prologue)(struct migr *m, sim_time now);
};

extern const struct migr_ops migr_threshold_ops, migr_memcpy_ops;
/* NULL for "none" (and unknown names). */
const struct migr_ops *migr_find(const char *name);

/* Per-page state bits (one byte per page of the footprint). */
enum { MS_QUEUED = 1, MS_MOVING = 2, MS_DONE = 4 };

/* A page on its way: copied (DMA), written into GPU memory line by line
 * (lines_left), then remapped. */
struct migr_move { uint64_t vpn, pfn; uint32_t lines_left, next; };
#define LINE_PER_PAGE (PAGE_SIZE / LINE_SIZE)
/* Move indices with this bit are the prologue's (migr->bulk). */
#define MV_BULK 0x80000000u

/* The copy's writes into GPU memory (migr_gddr.c): every line of every
 * landed page, in landing order, at most `max_out` sent and unanswered
 * (the reply queue's size). */
struct migr_gddr {
    struct mem_port port;
    struct req_pool *pool;
    struct mq reply;
    uint64_t *line;               /* ring of pending lines: frame address | move index */
    uint32_t *move;
    size_t cap, head, n;
    uint32_t out, max_out;
};

/* Bandwidth balancing (migr_bwb.c). */
struct migr_bwb {
    bool on;                      /* driver.migrate.bwb.enabled: act on the share */
    bool half_windows;            /* half rate = every other window (else half the concurrency) */
    bool all_traffic;             /* count migration traffic too (else demand only) */
    double target, band;          /* shares, 0..1 */
    sim_time window;
    uint64_t g0, h0, mg0, mh0;    /* totals at the window's start */
    uint64_t nwin;
    struct dram *gpu, *host;
    struct rec_table *tab;
    uint64_t *n_full, *n_half, *n_off;
};

struct migr {
    struct component comp;        /* the runtime thread: the driver's clock */
    struct migr_host host;
    const struct migr_ops *ops;
    /* config */
    unsigned threshold, expand, concurrency;
    bool touch_walk;              /* touches: walks (else requests to host memory) */
    sim_time poll;
    /* pages of the footprint: [vpn0, vpn0 + npages) */
    uint64_t vpn0, npages;
    uint8_t *count, *state;
    /* the GPU's hint ring (candidate pages), polled every `poll` */
    uint64_t *ring;
    uint32_t ring_cap, ring_head, ring_n;
    sim_time poll_at;             /* TIME_NEVER: no poll due */
    /* the migration queue: unbounded FIFO (a page enters once, so npages slots) */
    uint64_t *fifo;
    size_t fifo_head, fifo_n;
    /* moves in flight */
    struct migr_move *mv;
    uint32_t mv_cap, mv_free;
    unsigned active, limit;       /* page migrations running; allowed now (BWB) */
    bool full;                    /* GPU memory ran out: no more migrations */
    struct migr_gddr w;
    struct migr_bwb b;
    /* the program's liveness (no migration starts once it is over) */
    bool (*busy)(void *ctx);
    void *busy_ctx;
    /* the prologue (memcpy): its moves, and its copies (runs of moves) */
    driver_step_done pro_done;
    void *pro_ctx;
    sim_time pro_start;
    uint64_t pro_left;            /* pages still to land and map */
    struct migr_move *bulk;
    uint32_t nbulk;
    struct migr_run { uint32_t first, n; } *runs;
    uint32_t nruns;
    uint64_t *expbuf;             /* range expansion's order (expand entries) */
    bool attached;
    /* statistics */
    uint64_t *n_pages, *n_sd, *n_nosd, *n_expand, *n_triggers, *n_touches, *n_dropped,
             *n_queued, *n_qpeak, *n_refused, *ddr_bytes, *gddr_bytes, *pro_ps;
};

/* migr_policies.c: the engine of driver.migration (NULL: none). */
struct migr *migr_create(const struct migr_host *h, const struct config *cfg, struct stats *st);
/* migr_engine.c: the engine of policy ops (migr_create finds it). */
struct migr *migr_engine_create(const struct migr_host *h, const struct migr_ops *ops,
                                const struct config *cfg, struct stats *st);
void migr_free(struct migr *m);
/* The entry points driver.h's driver_migration_* and driver_prologue
 * forward to (drv_migrate.c); m is never NULL.  migr_attach takes the
 * footprint's pages [vpn0, vpn0 + npages). */
void migr_attach(struct migr *m, const struct config *cfg, const struct driver_mem *mem,
                 struct stats *st, uint64_t vpn0, uint64_t npages);
bool migr_counts(const struct migr *m);
bool migr_walks(const struct migr *m);
void migr_touch(struct migr *m, uint64_t vpn);
bool migr_prologue(struct migr *m, driver_step_done done, void *ctx, sim_time now);
void migr_check(const struct migr *m, sim_time now);
/* Index of vpn among the footprint's pages, or UINT64_MAX outside it. */
static inline uint64_t migr_index(const struct migr *m, uint64_t vpn)
{ return vpn - m->vpn0 < m->npages ? vpn - m->vpn0 : UINT64_MAX; }
/* Whether page vpn may be queued now: host-homed (mapped remote), not
 * queued, moving or migrated. */
bool migr_may_queue(const struct migr *m, uint64_t vpn);
/* Append vpn to the migration queue (it must be migr_may_queue). */
void migr_enqueue(struct migr *m, uint64_t vpn);
/* The move of index mv (MV_BULK: the prologue's). */
static inline struct migr_move *migr_move_at(struct migr *m, uint32_t mv)
{ return mv & MV_BULK ? &m->bulk[mv & ~MV_BULK] : &m->mv[mv]; }
/* Frame pfn is taken for vpn: hold it, mark the page moving. */
void migr_hold(struct migr *m, uint64_t vpn, uint64_t pfn, sim_time now);
/* A move's page has been written into GPU memory (migr_gddr.c): remap. */
void migr_written(struct migr *m, uint32_t mv, sim_time now);
/* Start migrations while the rate allows. */
void migr_kick(struct migr *m, sim_time now);
/* The allocation holding vpn: [*first, *end) (false: none). */
bool migr_alloc_of(const struct migr *m, uint64_t vpn, uint64_t *first, uint64_t *end);
/* The prologue is over: the kernels may start. */
void migr_prologue_done(struct migr *m, sim_time now);

/* migr_expand.c: the pages range expansion (driver.migrate.expand = n)
 * adds for a trigger at vpn in the allocation [first, end), in queue order
 * (furthest first); returns how many were written to out (at most n). */
size_t migr_expand_order(uint64_t vpn, uint64_t first, uint64_t end, unsigned n, uint64_t *out);

/* migr_gddr.c */
void migr_gddr_init(struct migr_gddr *w, struct component *owner, struct mem_port port,
                    struct req_pool *pool);
void migr_gddr_free(struct migr_gddr *w);
/* Queue the page of move mv (frame pfn) for writing. */
void migr_gddr_page(struct migr_gddr *w, uint64_t pfn, uint32_t mv);
/* Answers in, requests out; called from the runtime's tick.  Returns
 * whether lines are still waiting (a full channel wakes the tick). */
bool migr_gddr_run(struct migr *m, sim_time now);

/* migr_bwb.c: the window sampler (every driver.migrate.window GPU cycles,
 * while the program runs) and its rate decision (pure, for the tests). */
void migr_bwb_init(struct migr *m, const struct config *cfg, struct stats *st,
                   struct dram *gpu, struct dram *host, sim_time core_period);
enum migr_rate { MR_FULL, MR_HALF, MR_OFF };
enum migr_rate migr_bwb_rate(double share, double target, double band);
/* Concurrent migrations allowed at `rate` in window number k. */
unsigned migr_bwb_limit(enum migr_rate rate, unsigned concurrency, bool half_windows, uint64_t k);

#endif

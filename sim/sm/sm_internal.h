/* Shared inside sim/sm only: the SM's state and the functions its files
 * call on each other. */
#ifndef UVMSIM_SM_INTERNAL_H
#define UVMSIM_SM_INTERNAL_H

#include "sm.h"
#include "core/cache.h"
#include "core/pfills.h"
#include "core/slots.h"
#include "workloads/workload.h"

struct stats;
struct rec_table;

/* Warp states (issue 3): ready, in the pipeline (compute latency), waiting
 * on memory, at a barrier, done.  "Waiting on a fault" is W_MEM with a
 * faulted page (w->nfault > 0). */
enum wstate { W_FREE, W_READY, W_PIPE, W_MEM, W_BARRIER, W_DONE };

/* Stall reasons of an SM cycle in which nothing issued. */
enum stall { ST_SHOOTDOWN, ST_FAULT, ST_MEMORY, ST_BARRIER, ST_PIPELINE, ST_IDLE, ST_NREASONS };

/* Page states of one in-flight memory instruction. */
enum { PG_XLATE, PG_FAULTED, PG_DONE };

/* One memory instruction in flight: its coalesced lines and pages. */
struct minst {
    bool used, bypass;
    enum req_kind access;
    uint32_t pending;           /* translations + lines not yet answered */
    uint8_t page_state[COAL_MAX];
    uint64_t inst;              /* the warp's memory-instruction number */
    sim_time done_at;           /* sim.model fast: its lines' last answer (fast.c) */
    struct coalesced c;
};

struct warp {
    enum wstate st;             /* set through warp_set (counts, bitsets) */
    uint32_t sched, sbit;       /* its scheduler, and its bit there (slot / nsched) */
    uint32_t block;             /* block slot on this SM */
    uint64_t age;               /* dispatch order (GTO: oldest first) */
    sim_time ready_at;          /* W_PIPE */
    uint32_t outstanding;       /* memory instructions in flight */
    uint32_t nfault;            /* pages of this warp fault-stalled */
    bool held;                  /* w->inst (barrier/exit) waits for memory */
    bool parked;                /* its block is not active (oversub.c) */
    uint64_t nmem;              /* memory instructions issued since warp start */
    struct warp_ctx ctx;
    struct warp_inst inst;
    struct minst *mi;           /* gpu->max_outstanding slots */
};

/* "Resident" holds the block's resources; "active" lets the schedulers see
 * its warps.  Without thread oversubscription every resident block is
 * active; with it (oversub.c, batch-aware Sec. 4.1) resident blocks
 * beyond the occupancy are parked inactive. */
enum to_state { TO_ACTIVE, TO_OUT, TO_PARKED, TO_IN };
struct block_slot {
    bool used, active;
    uint32_t nwarps, live, at_barrier, threads, regs, smem;
    /* thread oversubscription (oversub.c) */
    uint8_t to_state;
    bool ran;                   /* has run: a context to restore */
    uint32_t nfault, gen;       /* warps stalled on far faults; placements */
    uint64_t order;             /* dispatch order (oldest ready first) */
};

struct scheduler {
    uint32_t idx;               /* this scheduler's number on its SM */
    uint32_t last;              /* warp slot issued last */
    sim_time busy_until;        /* a multi-cycle issue holds the port */
};

#define FSET_MAX 64
#define FSET_BUCKETS 256
#define PNIL UINT32_MAX

/* Bucket of page vpn among 2^bits (Fibonacci hashing). */
static inline uint32_t vpn_bucket(uint64_t vpn, uint32_t bits)
{ return (uint32_t)((vpn * 0x9e3779b97f4a7c15ULL) >> (64 - bits)); }

struct sm;
struct sched_ops {
    const char *name;
    struct warp *(*pick)(struct sm *s, struct scheduler *k, sim_time now);
};
extern const struct sched_ops sched_lrr, sched_gto;
/* The scheduler table (sched.c; gpu.sm.scheduler's choices are its names):
 * entry i, NULL past the last. */
const struct sched_ops *sched_policy(size_t i);
/* Scheduler k's W_PIPE warps whose latency is over become W_READY. */
void sched_pipe_due(struct sm *s, uint32_t k, sim_time now);

/* A bounded ring of requests waiting for a port. */
struct ring {
    struct mem_req **q;
    uint32_t cap, head, n;
};

struct sm {
    struct component comp;
    char name[24];
    struct gpu *gpu;
    unsigned id;
    struct warp *w;
    struct block_slot *b;
    struct scheduler *sch;
    uint32_t res_warps, res_blocks, res_threads, res_regs, res_smem, active_blocks;
    struct mq xlate_resp, mem_resp;
    struct mq l1q;              /* line requests into the L1D (latency = hit latency) */
    struct mq *xlate_out;
    struct mem_port mem_out;
    sim_time blocked_until;     /* no issue before this (shootdowns) */
    bool pf_blocked;            /* a protection fault found no slot: no issue (rofault.c) */
    bool throttled;             /* SM throttling: no issue, no new block (throttle.c) */
    sim_time issue_at;          /* no warp can issue before this (0: look) */
    struct ring xq;             /* translations waiting for the TLB port */
    struct ring oq;             /* line requests waiting for the crossbar port */
    sim_time xbar_free;         /* the crossbar input port is busy until */
    struct cache l1;
    /* pages with a far fault outstanding that warps here wait on: a warp
     * that asks for one later is fault-stalled from the start */
    uint64_t fvpn[FSET_MAX];
    uint32_t nfv;
    uint8_t fcount[FSET_BUCKETS];   /* faulted pages per vpn bucket (0: none) */
    /* Pages in translation (not PG_DONE), chained per vpn bucket, so a
     * fault finds the warps waiting on its page without a scan of every
     * warp (issue 13).  Node (warp slot * max_outstanding + minst) *
     * COAL_MAX + page; PNIL ends a chain. */
    uint32_t *pnext, *pprev, *phead;
    uint32_t pbits;                 /* log2 of the bucket count */
    /* Warps by state (issue 13: no per-tick scan of every warp): counts,
     * W_MEM warps with a faulted page, and per scheduler bitsets over its
     * slots (bit j: slot idx + j * nsched) of W_READY and W_PIPE warps,
     * with the earliest ready_at of its W_PIPE warps (exact: a W_PIPE warp
     * leaves that state only through sched_pipe_due). */
    uint32_t nstate[W_DONE + 1];
    uint32_t nfault_mem;
    uint64_t *rdy, *pip;        /* nsched x gpu->bwords words */
    sim_time *pipe_min;         /* per scheduler (TIME_NEVER: none) */
    /* stall accounting */
    sim_time acct_t;            /* cycles before this are accounted */
    enum stall acct_reason;     /* reason for cycles after acct_t */
    bool acct_issuing;
    uint32_t nfault_warps;
    sim_time fw_t;              /* fault-stalled warp-cycles integrated to here */
    /* sim.model fast (fast.c): memory instructions answered at a known
     * time, the L1D's misses in flight and its port's occupancy counter */
    struct theap fdone;
    struct pfills fl1;
    struct slots fl1_port, fxbar;
    sim_time xq_pre_t;          /* translations sent early for this cycle (core.c xq_early) */
    uint32_t xq_pre_n;
};

struct sm_stats {
    uint64_t *insts, *mem_insts, *l1_hits, *l1_misses, *l1_sector_misses,
             *l1_merges, *l1_mshr_full, *fault_warp_cycles, *faults,
             *stall[ST_NREASONS], *issue_cycles;
};

struct oversub;

/* Selective caching (selcache.c, thesis Ch. VI); in the order of
 * gpu.caching.remote's choices (cfg_choice). */
enum sc_remote { SC_ALL, SC_NONE, SC_READONLY };
struct rofault;
struct selcache {
    enum sc_remote remote;      /* gpu.caching.remote */
    bool coalesce;              /* gpu.caching.coalesce l1 or l1l2: cacheless L1 MSHRs */
    bool whole_lines;           /* a cacheless MSHR asks for its whole 128 B line */
    uint64_t *uncached;         /* NULL with `all` */
    uint64_t *remote_loads, *l1_coalesced, *l1_line_sectors, *l1_used_sectors;
};

struct gpu {
    struct engine *eng;
    /* sim.model fast: translations answered at lookup (gpu_set_xlate_now) */
    bool (*xlate_now)(void *ctx, unsigned sm, struct mem_req *r, sim_time now);
    void *xlate_ctx;
    /* sim.model fast: an L1 TLB hit answered to the SM with its time */
    bool (*xlate_hit)(void *ctx, unsigned sm, struct mem_req *r, sim_time now, sim_time *at);
    /* sim.model fast: GPU-homed lines timed at send by the L2 (gpu_set_mem_now) */
    bool (*mem_now)(void *ctx, enum req_kind k, uint64_t pa, uint8_t mask, sim_time sent,
                    sim_time *done);
    void *mem_ctx;
    struct oversub *to;                 /* thread oversubscription, or NULL */
    bool throttling;                    /* an SM has been throttled (throttle.c) */
    const struct domain *dom;
    struct req_pool *pool;
    struct workload *wl;
    struct sm *sm;
    unsigned nsms, next_sm;
    struct occ_limits lim;
    uint32_t max_warps, nsched, issue_width, lsu_width, max_outstanding,
             l1_ports, xbar_bw;
    uint32_t bwords;            /* bitset words per scheduler */
    bool l1_enabled, l1_bypass_all, l1_remote;
    const struct sched_ops *sched;
    sim_time launch_latency, xbar_latency;
    struct wl_kernel k;
    struct wl_step host_step;           /* the step the driver is running */
    gpu_host_step_fn host_fn;
    void *host_ctx;
    gpu_step_fn step_fn;                /* NULL: wl_next_step */
    void *step_ctx;
    gpu_ref_fn ref_fn;                  /* page references, or NULL */
    void *ref_ctx;
    bool kernel_active, program_done;
    uint64_t next_block, nblocks, blocks_done, kernels_done, k_insts, warp_age;
    uint32_t k_blocks_per_sm;
    enum occ_limit k_limit;
    sim_time k_start;
    struct rec_table *kernels;
    /* totals */
    uint64_t *warp_insts, *mem_insts, *lines, *sectors, *xlates, *n_kernels,
             *l1_hits, *l1_misses, *l1_sector_misses, *l1_merges,
             *fault_warp_cycles, *stall[ST_NREASONS];
    struct stat_hist *lines_per_inst, *pages_per_inst;
    struct sm_stats v;          /* per-SM vectors */
    struct selcache sc;
    struct rofault *ro;         /* promiscuous read-only caching, or NULL */
};

/* A warp became ready: the next tick must look for an issuable warp. */
static inline void sm_issue_wake(struct sm *s) { s->issue_at = 0; }

/* Puts a W_READY or W_PIPE warp into its scheduler's set (word wd, bit). */
static inline void warp_list(struct sm *s, const struct warp *w, size_t wd, uint64_t bit)
{
    if (w->st == W_READY) {
        s->rdy[wd] |= bit;
    } else if (w->st == W_PIPE) {
        s->pip[wd] |= bit;
        if (w->ready_at < s->pipe_min[w->sched]) s->pipe_min[w->sched] = w->ready_at;
    }
}

/* Every change of a warp's state goes through here.  A W_PIPE warp enters
 * with its ready_at already set. */
static inline void warp_set(struct sm *s, struct warp *w, enum wstate st)
{
    enum wstate o = w->st;
    if (o == st) return;
    size_t wd = (size_t)w->sched * s->gpu->bwords + w->sbit / 64;
    uint64_t bit = 1ULL << (w->sbit % 64);
    s->nstate[o]--;
    s->nstate[st]++;
    if (w->nfault && o == W_MEM) s->nfault_mem--;
    if (w->nfault && st == W_MEM) s->nfault_mem++;
    if (o == W_READY) s->rdy[wd] &= ~bit;
    else if (o == W_PIPE) s->pip[wd] &= ~bit;
    w->st = st;
    /* A warp of an inactive block (oversub.c) is in neither set: it
     * cannot issue until warp_park lists it again. */
    if (!w->parked) warp_list(s, w, wd, bit);
}

/* Its block becomes inactive (parked) or active again (thread
 * oversubscription, oversub.c): out of the scheduler's sets, or back in
 * them as its state says. */
static inline void warp_park(struct sm *s, struct warp *w, bool parked)
{
    if (w->parked == parked) return;
    size_t wd = (size_t)w->sched * s->gpu->bwords + w->sbit / 64;
    uint64_t bit = 1ULL << (w->sbit % 64);
    w->parked = parked;
    if (parked) {
        s->rdy[wd] &= ~bit;
        s->pip[wd] &= ~bit;
    } else {
        warp_list(s, w, wd, bit);
    }
}

/* The warp's count of fault-stalled pages changes by delta (+1 or -1). */
void warp_fault_change(struct sm *s, struct warp *w, int delta, sim_time now);

/* ring.c-style helpers */
void ring_init(struct ring *r, uint32_t cap);
void ring_free(struct ring *r);
void ring_push(struct sm *s, struct ring *r, struct mem_req *m);
static inline struct mem_req *ring_head(const struct ring *r)
{ return r->n ? r->q[r->head] : NULL; }
static inline void ring_drop(struct ring *r)
{ if (++r->head == r->cap) r->head = 0; r->n--; }

/* launch.c */
void launch_next(void *obj, uint64_t arg, sim_time now);
void retire_block(struct sm *s, struct block_slot *b, sim_time now);
/* Place the kernel's next blocks on SMs with room. */
void launch_dispatch(struct gpu *g, sim_time now);
/* SM s has no block left and none to take: a throttled SM that holds
 * blocks runs in its place (throttle.c). */
void throttle_handoff(struct gpu *g, struct sm *s, sim_time now);

/* oversub.c: thread oversubscription (NULL when off); nslots gets the
 * block slots per SM it needs. */
struct oversub *oversub_create(struct gpu *g, const struct config *cfg, struct stats *st,
                               uint32_t *nslots);
void oversub_init_sm(struct gpu *g, struct sm *s);
void oversub_free(struct gpu *g);
/* Resident blocks an SM may hold for the current kernel. */
uint32_t oversub_limit(const struct gpu *g);
/* Block slot `slot` was placed (active or parked). */
void oversub_placed(struct sm *s, struct block_slot *b, uint32_t slot);
/* Its last warp exited (the slot is free). */
void oversub_retired(struct sm *s, struct block_slot *b, sim_time now);
/* Warp w's far-fault stall began (+1) or ended (-1). */
void oversub_fault(struct sm *s, struct warp *w, int delta, sim_time now);
/* A warp of b reached a barrier or exited. */
void oversub_check(struct sm *s, struct block_slot *b, sim_time now);

/* core.c */
sim_time sm_tick(struct component *c, sim_time now);
void sm_dump(struct component *c, FILE *out);
void warp_mem_done(struct sm *s, struct warp *w, struct minst *m, sim_time now);

/* fast.c (sim.model fast) */
void fast_sm_init(struct gpu *g, struct sm *s);
void fast_sm_free(struct gpu *g, struct sm *s);
/* The lines of page p of m, translated to `frame` at `now`, each timed at
 * once through the L1D and the L2 (m->done_at: the last answer); false
 * when the page's lines must take the queues (host-homed). */
bool fast_page_lines(struct sm *s, struct warp *w, struct minst *m, uint32_t p,
                     uint64_t frame, uint64_t paddr, sim_time now);
/* m's last translation or line is in: answered now, or at m->done_at. */
void fast_defer(struct sm *s, struct warp *w, struct minst *m, sim_time now);
/* The memory instructions whose time has come are answered. */
void fast_due(struct sm *s, sim_time now);
static inline void minst_answered(struct sm *s, struct warp *w, struct minst *m, sim_time now)
{
    if (m->done_at > now) fast_defer(s, w, m, now);
    else warp_mem_done(s, w, m, now);
}

/* l1d.c */
void l1d_access(struct sm *s, struct mem_req *r, sim_time now, bool *stalled);
void l1d_answer(struct sm *s, struct mem_req *r, sim_time now);
/* A fill request for MSHR m asking `mask` (sent as the request's sectors),
 * `pending` the sectors it adds to what m waits for, with LINE_* flags. */
void l1d_fill(struct sm *s, struct cache_mshr *m, uint8_t mask, uint8_t pending,
              uint8_t flags, sim_time now);
void line_done(struct sm *s, struct mem_req *r, sim_time now);
bool xbar_send(struct sm *s, sim_time now);

/* selcache.c */
void selcache_init(struct gpu *g, const struct config *cfg, struct stats *st);
/* An uncached load into the L1D with coalescing on (false: no MSHR). */
bool selcache_l1_load(struct sm *s, struct mem_req *r, sim_time now);
/* A cacheless MSHR's last answer is in (statistics). */
void selcache_l1_done(struct sm *s, const struct cache_mshr *m);
/* The LINE_* flags of the line requests of translation r's page (mem_req.h),
 * once per translation.  *held: the page is a read-only host page that r's
 * write must fault on (rofault.c): r is held until the fault is over. */
uint8_t rofault_page(struct sm *s, struct mem_req *r, bool *held, sim_time now);
static inline uint8_t selcache_page_flags(struct sm *s, struct mem_req *r, bool *held,
                                          sim_time now)
{
    *held = false;
    if (s->gpu->sc.remote == SC_READONLY) return rofault_page(s, r, held, now);
    if (s->gpu->sc.remote == SC_ALL || !(r->paddr & PADDR_HOST)) return 0;
    return LINE_NOCACHE;
}

/* rofault.c */
void rofault_create(struct gpu *g, const struct config *cfg, struct stats *st);
void rofault_free(struct gpu *g);

/* stall.c */
void stall_account(struct sm *s, sim_time now);
void stall_decide(struct sm *s, bool issued, sim_time now, sim_time next);
void fault_warps_change(struct sm *s, int delta, sim_time now);

#endif

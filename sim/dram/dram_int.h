/* Inside of the memory model (sim/dram): shared by its files only.  Other
 * folders include dram.h. */
#ifndef UVMSIM_DRAM_INT_H
#define UVMSIM_DRAM_INT_H

#include "core/slots.h"
#include "dram.h"
#include "core/stats.h"

/* Timing and organisation of one DRAM instance, every time in ps
 * (cycles x tCK), loaded and checked by dram_params_load(). */
struct dram_params {
    const char *prefix;         /* "dram" or "host.dram" (config keys, stats) */
    sim_time tck;
    unsigned nch, nbanks, ngroups;
    uint32_t bus_width, data_rate, burst_length;
    uint32_t atom;              /* bytes per column command: width x BL */
    uint64_t row_size, interleave;
    bool row_bank_col, xor_bank;
    uint32_t in_queue, rq_size, wq_size, w_high, w_low;
    sim_time ctrl, burst;       /* controller overhead, one burst on the bus */
    sim_time tRCD, tRP, tRAS, tRC, tCL, tCWL, tWR, tWTR, tRTP, tRRD_L, tRRD_S,
             tFAW, tCCD_L, tCCD_S, tREFI, tRFC;
    double peak_bw;             /* bytes/s, all channels */
};

void dram_params_load(struct dram_params *p, const struct config *cfg,
                      const char *prefix);

/* Where one address lives inside the memory. */
struct dram_loc { unsigned ch, bank; uint64_t row; };
void dram_decode(const struct dram_params *p, uint64_t pa, struct dram_loc *loc);

/* ---- bank and channel timing state (dram_bank.c) ---- */
struct bank {
    bool open;
    unsigned group;             /* bank group: bank mod bank_groups */
    uint64_t row;
    sim_time act_ok, pre_ok, col_ok;   /* earliest next ACT / PRE / RD-WR */
};
struct bgroup { sim_time rd_ok, wr_ok, act_ok; };

struct timing_state {
    const struct dram_params *p;
    struct bank *banks;
    uint64_t *open_m;           /* bit b: bank b open (mirrors banks[b].open) */
    struct bgroup *groups;
    sim_time rd_ok, wr_ok, act_ok, bus_free;
    sim_time faw[4];            /* the last four ACTs, oldest at faw_i */
    unsigned faw_i, nact;       /* nact: ACTs so far, up to 4 */
};

void ts_init(struct timing_state *t, const struct dram_params *p);
void ts_free(struct timing_state *t);
/* When a command could issue to `bank`: the part every bank shares
 * (ts_*_all, computed once per clock by the scheduler) and the bank's own
 * and its group's (ts_*_bank); the command may issue at the later. */
static inline sim_time ts_max(sim_time a, sim_time b) { return a > b ? a : b; }
static inline sim_time ts_act_all(const struct timing_state *t)
{
    /* faw[faw_i] is the oldest of the last four ACTs (0 before four). */
    sim_time at = t->act_ok;
    if (t->p->tFAW && t->nact >= 4) at = ts_max(at, t->faw[t->faw_i] + t->p->tFAW);
    return at;
}
static inline sim_time ts_act_bank(const struct timing_state *t, unsigned bank)
{
    const struct bank *b = &t->banks[bank];
    return ts_max(b->act_ok, t->groups[b->group].act_ok);
}
static inline sim_time ts_col_all(const struct timing_state *t, bool write)
{
    sim_time at = write ? t->wr_ok : t->rd_ok;
    sim_time lat = write ? t->p->tCWL : t->p->tCL;
    /* the burst's data may start only when the bus is free */
    if (t->bus_free > lat) at = ts_max(at, t->bus_free - lat);
    return at;
}
static inline sim_time ts_col_bank(const struct timing_state *t, unsigned bank, bool write)
{
    const struct bank *b = &t->banks[bank];
    const struct bgroup *g = &t->groups[b->group];
    return ts_max(b->col_ok, write ? g->wr_ok : g->rd_ok);
}
static inline sim_time ts_pre_at(const struct timing_state *t, unsigned bank)
{ return t->banks[bank].pre_ok; }
void ts_act(struct timing_state *t, unsigned bank, uint64_t row, sim_time now);
void ts_pre(struct timing_state *t, unsigned bank, sim_time now);
/* Returns when the burst's data has crossed the bus. */
sim_time ts_col(struct timing_state *t, unsigned bank, bool write, sim_time now);
/* All banks closed and past tRP: when an all-bank REF may issue. */
sim_time ts_ref_at(const struct timing_state *t);
void ts_ref(struct timing_state *t, sim_time now);

/* ---- a read or write queue indexed for FR-FCFS (dram_queue.c) ---- */
#define DQ_NONE UINT32_MAX

struct dreq {
    struct mem_req *r;          /* NULL for a write already acknowledged */
    uint64_t addr, row;
    uint64_t seq;               /* arrival number: smaller is older */
    uint32_t size;
    unsigned bank;
    uint16_t bursts;            /* column commands still to issue */
    bool write, opened, conflict, started;
    sim_time arrive;
    uint32_t prev, next;        /* all entries, oldest first (next: free list) */
    uint32_t bprev, bnext;      /* this bank's entries, oldest first */
    uint32_t gnext, group;      /* this (bank, row)'s entries, oldest first */
};

/* The queued entries of one (bank, row), oldest first. */
struct rgroup { uint64_t row; unsigned bank; uint32_t n, head, tail, slot; };

struct qbank {
    uint32_t n, head, tail;     /* this bank's entries, oldest first */
    uint32_t open;              /* group of the bank's open row, if queued
                                   (set through dq_set_open) */
    /* Arrival numbers of the bank's oldest entry and of its open row's
     * oldest entry (UINT64_MAX: none), kept beside the bank so that the
     * scheduler compares banks without following the lists. */
    uint64_t seq, hit_seq;
};

struct dqueue {
    struct dreq *e;             /* cap slots */
    uint32_t cap, n, free, head, tail;
    uint64_t seq;
    struct qbank *bk;           /* per bank */
    uint32_t nactive;           /* banks with entries */
    /* Bitsets over banks (nwords words): act_m, banks with entries;
     * hit_m, banks whose open row has queued entries (bk[b].open set).
     * The scheduler walks only the banks that can take a command of each
     * kind, without a branch per bank on what it can take. */
    uint64_t *act_m, *hit_m;
    uint32_t nwords;
    struct rgroup *g;           /* cap groups */
    uint32_t gfree;
    uint32_t *hash, hmask;      /* (bank, row) -> group */
};

void dq_init(struct dqueue *q, uint32_t cap, unsigned nbanks);
void dq_free(struct dqueue *q);
/* Append a copy of proto (the bank's open row given, to find its hits). */
uint32_t dq_insert(struct dqueue *q, const struct dreq *proto, bool open, uint64_t open_row);
/* Remove entry i, which must be the oldest of its (bank, row). */
void dq_remove(struct dqueue *q, uint32_t i);
uint32_t dq_find(const struct dqueue *q, unsigned bank, uint64_t row);
/* The bank opened a row / was precharged: its row hits change. */
void dq_bank_opened(struct dqueue *q, unsigned bank, uint64_t row);
void dq_bank_closed(struct dqueue *q, unsigned bank);
/* bk[bank].open and its bit in hit_m. */
static inline void dq_set_open(struct dqueue *q, unsigned bank, uint32_t group)
{
    uint64_t bit = 1ULL << (bank % 64);
    q->bk[bank].open = group;
    if (group == DQ_NONE) {
        q->hit_m[bank / 64] &= ~bit;
        q->bk[bank].hit_seq = UINT64_MAX;
    } else {
        q->hit_m[bank / 64] |= bit;
        q->bk[bank].hit_seq = q->e[q->g[group].head].seq;
    }
}

/* ---- the channel controller (dram_ctrl.c) ---- */
struct dram_chstats {
    uint64_t *reads, *writes, *bytes, *hits, *misses, *conflicts, *refresh_ps,
             *refreshes, *rq_occ, *wq_occ, *forwarded;
};

struct channel {
    struct component comp;
    char name[32];
    unsigned id;
    struct dram *d;
    const struct dram_params *p;
    struct mq in;
    struct timing_state ts;
    struct dqueue rq, wq;
    bool drain;                 /* write queue above its high watermark */
    uint16_t wlines[256];       /* queued writes per hashed line (dram_ctrl.c) */
    uint32_t wbig;              /* queued writes that cross a line */
    bool ref_pending;
    sim_time ref_due, occ_at;
    sim_time f_bus;             /* sim.model fast: the data bus's last reserved clock + 1 */
    struct slots f_slots;       /* sim.model fast: its clocks (dram_fast.c) */
    struct slots f_acts;        /* sim.model fast: the ACT rate's steps (dram_fast.c) */
};

struct dram_totals_ptrs {
    uint64_t *reads, *writes, *bytes, *hits, *misses, *conflicts;
    struct stat_avg *read_lat;
};

struct dram {
    struct engine *eng;
    const struct domain *dom;
    struct dram_params p;
    struct channel *ch;
    /* per-channel vectors and totals */
    struct dram_chstats v;
    struct dram_totals_ptrs tot;
    struct stat_hist *lat_hist;
    void (*observer)(void *ctx, const struct mem_req *r, sim_time now);
    void *observer_ctx;
    const struct dram_loop *loop;   /* NULL: the engine ticks the channels */
    void *loop_ctx;
};

void channel_init(struct channel *c, struct dram *d, unsigned id);
void channel_free(struct channel *c);
/* The answer to r leaves at `at`: an event then, or (now) at once
 * (dram_ctrl.c; the fast server shares it). */
void channel_deliver(struct channel *c, struct mem_req *r, sim_time at, bool now);

/* ---- sim.model fast: one channel as a server (dram_fast.c) ---- */
void fast_channel_init(struct channel *c, struct dram *d, unsigned id);
/* Serve r arriving at `now`: its answer time (reads: the last data;
 * stores: posted, now).  Updates the bank, bus and statistics. */
sim_time fast_serve(struct channel *c, const struct mem_req *r, sim_time now);

#endif

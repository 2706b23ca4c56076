/* Inside of the memory model (sim/dram): shared by its files only.  Other
 * folders include dram.h. */
#ifndef UVMSIM_DRAM_INT_H
#define UVMSIM_DRAM_INT_H

#include "dram.h"
#include "../stats.h"

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
    uint64_t row;
    sim_time act_ok, pre_ok, col_ok;   /* earliest next ACT / PRE / RD-WR */
};
struct bgroup { sim_time rd_ok, wr_ok, act_ok; };

struct timing_state {
    const struct dram_params *p;
    struct bank *banks;
    struct bgroup *groups;
    sim_time rd_ok, wr_ok, act_ok, bus_free;
    sim_time faw[4];            /* the last four ACTs, oldest at faw_i */
    unsigned faw_i, nact;       /* nact: ACTs so far, up to 4 */
};

void ts_init(struct timing_state *t, const struct dram_params *p);
void ts_free(struct timing_state *t);
sim_time ts_act_at(const struct timing_state *t, unsigned bank);
sim_time ts_pre_at(const struct timing_state *t, unsigned bank);
sim_time ts_col_at(const struct timing_state *t, unsigned bank, bool write);
void ts_act(struct timing_state *t, unsigned bank, uint64_t row, sim_time now);
void ts_pre(struct timing_state *t, unsigned bank, sim_time now);
/* Returns when the burst's data has crossed the bus. */
sim_time ts_col(struct timing_state *t, unsigned bank, bool write, sim_time now);
/* All banks closed and past tRP: when an all-bank REF may issue. */
sim_time ts_ref_at(const struct timing_state *t);
void ts_ref(struct timing_state *t, sim_time now);

/* ---- the channel controller (dram_ctrl.c) ---- */
struct dreq {
    struct mem_req *r;          /* NULL for a write already acknowledged */
    uint64_t addr, row;
    uint32_t size;
    unsigned bank;
    uint16_t bursts;            /* column commands still to issue */
    bool write, opened, conflict, started;
    sim_time arrive;
};

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
    struct dreq *rq, *wq;
    uint32_t nrq, nwq;
    bool drain;                 /* write queue above its high watermark */
    bool ref_pending;
    sim_time ref_due, occ_at;
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
};

void channel_init(struct channel *c, struct dram *d, unsigned id);
void channel_free(struct channel *c);

#endif

/* Bank, bank-group and channel timing state: when each DRAM command may
 * issue, and what issuing it forbids next.  Constraints (JEDEC DDR4/GDDR5
 * command timing, the same set GPGPU-Sim's dram.cc and DRAMsim3 check):
 *   ACT: tRC after the bank's last ACT, tRP after its PRE, tRFC after REF,
 *        tRRD_L / tRRD_S after an ACT in the same / another bank group,
 *        at most four ACTs in any tFAW window;
 *   RD/WR: tRCD after ACT, tCCD_L / tCCD_S after a column command in the
 *        same / another group, tWTR after the end of write data before a
 *        RD, read-to-write turnaround (tCL + burst + 1 clock - tCWL), and
 *        the data bus free when the burst's data starts;
 *   PRE: tRAS after ACT, tRTP after RD, tWR after the end of write data. */
#include <stdlib.h>
#include "dram_int.h"

static inline sim_time tmax(sim_time a, sim_time b) { return a > b ? a : b; }

void ts_init(struct timing_state *t, const struct dram_params *p)
{
    t->p = p;
    t->banks = xcalloc(p->nbanks, sizeof *t->banks);
    t->groups = xcalloc(p->ngroups, sizeof *t->groups);
    t->open_m = xcalloc((p->nbanks + 63) / 64, sizeof *t->open_m);
    for (unsigned b = 0; b < p->nbanks; b++) t->banks[b].group = b % p->ngroups;
    t->rd_ok = t->wr_ok = t->act_ok = t->bus_free = 0;
    t->faw_i = t->nact = 0;
}

void ts_free(struct timing_state *t)
{
    free(t->banks);
    free(t->groups);
    free(t->open_m);
}

void ts_act(struct timing_state *t, unsigned bank, uint64_t row, sim_time now)
{
    const struct dram_params *p = t->p;
    struct bank *b = &t->banks[bank];
    struct bgroup *g = &t->groups[b->group];
    b->open = true;
    t->open_m[bank / 64] |= 1ULL << (bank % 64);
    b->row = row;
    b->col_ok = now + p->tRCD;
    b->pre_ok = now + p->tRAS;
    b->act_ok = now + p->tRC;
    g->act_ok = now + p->tRRD_L;
    t->act_ok = now + p->tRRD_S;
    t->faw[t->faw_i] = now;
    if (t->nact < 4) t->nact++;
    t->faw_i = (t->faw_i + 1) % 4;
}

void ts_pre(struct timing_state *t, unsigned bank, sim_time now)
{
    struct bank *b = &t->banks[bank];
    b->open = false;
    t->open_m[bank / 64] &= ~(1ULL << (bank % 64));
    b->act_ok = tmax(b->act_ok, now + t->p->tRP);
}

sim_time ts_col(struct timing_state *t, unsigned bank, bool write, sim_time now)
{
    const struct dram_params *p = t->p;
    struct bank *b = &t->banks[bank];
    struct bgroup *g = &t->groups[b->group];
    sim_time start = now + (write ? p->tCWL : p->tCL), end = start + p->burst;
    t->bus_free = end;
    if (write) {
        b->pre_ok = tmax(b->pre_ok, end + p->tWR);
        g->wr_ok = tmax(g->wr_ok, now + p->tCCD_L);
        t->wr_ok = tmax(t->wr_ok, now + p->tCCD_S);
        for (unsigned i = 0; i < p->ngroups; i++)
            t->groups[i].rd_ok = tmax(t->groups[i].rd_ok, end + p->tWTR);
    } else {
        b->pre_ok = tmax(b->pre_ok, now + p->tRTP);
        g->rd_ok = tmax(g->rd_ok, now + p->tCCD_L);
        t->rd_ok = tmax(t->rd_ok, now + p->tCCD_S);
        /* Read to write: the write's data may start one clock after the
         * read's data ends (bus turnaround). */
        sim_time wr = end + p->tck;
        wr = wr > p->tCWL ? wr - p->tCWL : 0;
        t->wr_ok = tmax(t->wr_ok, wr);
    }
    return end;
}

sim_time ts_ref_at(const struct timing_state *t)
{
    sim_time at = 0;
    for (unsigned i = 0; i < t->p->nbanks; i++) {
        if (t->banks[i].open) return TIME_NEVER;
        at = tmax(at, t->banks[i].act_ok);
    }
    return at;
}

void ts_ref(struct timing_state *t, sim_time now)
{
    for (unsigned i = 0; i < t->p->nbanks; i++)
        t->banks[i].act_ok = now + t->p->tRFC;
}

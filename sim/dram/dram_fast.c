/* sim.model fast (issue 41, 2a): one GPU memory channel as a server
 * instead of the command-level FR-FCFS controller of dram_ctrl.c.
 *
 * Each request is served in arrival order the clock edge it arrives and
 * answered with one event at its ready time; nothing ticks per command or
 * per clock.  Kept from the channel's own timing keys (dram_timing.c):
 *  - per-bank open-row state (open-row policy, as dram_ctrl.c): a row hit
 *    costs tCL, a closed bank tRCD + tCL, a conflict tRP + tRCD + tCL; the
 *    precharge waits for tRAS after the ACT, tRTP after a read, tWR after
 *    write data; an ACT waits for tRC after the bank's last ACT;
 *  - a request's own bursts are max(burst, tCCD_L) apart (one bank, one
 *    group), so an idle read takes what dram_ctrl.c's header states:
 *    tRCD + tCL + burst + (n-1) x tCCD_L (+ ctrl_latency);
 *  - the data bus at the channel's peak rate: every burst holds it for
 *    BL / data_rate clocks (bus width x data rate x clock), so a stream
 *    of requests is answered no faster than the peak;
 *  - all-bank refresh: a request that would start past a due refresh
 *    finds every bank closed and waits out tRFC;
 *  - the channel's ACT rate: tRRD_S between ACTs and four per tFAW, as
 *    a rate, one ACT per step of max(tRRD_S, tFAW / 4) (a calendar of
 *    steps, like the bus's): an ACT takes the first step with room from
 *    the one it falls in, and waits for that step's start if it is
 *    later.  Without it a row-conflict stream (random sectors: RA's every
 *    access a conflict) activates as fast as its banks' tRC allows
 *    (HBM2: 16 banks / tRC 48, 2.5 times its tFAW rate), and reads
 *    return in half the cycle model's time (docs/fast-model.md,
 *    "Tracing a difference").  What a rate
 *    leaves out: the burst of four ACTs tRRD apart that the window
 *    admits, and tRRD_L within a bank group.
 * Coarsened away (the list): FR-FCFS reordering (arrival order
 * here), write-queue drains and bus turnaround, reads answered
 * from the write queue, and the bounded read/write queues (the input
 * queue never fills: its senders bound what they have in flight).
 * Stores are posted, as in dram_ctrl.c: acknowledged on arrival. */
#include "dram_int.h"
#include "core/slots.h"

static inline sim_time tmax_(sim_time a, sim_time b) { return a > b ? a : b; }

/* Refreshes due before t: the banks close, and nothing starts before the
 * last one's tRFC is over. */
static sim_time refresh_before(struct channel *c, sim_time t)
{
    const struct dram_params *p = c->p;
    if (!p->tREFI || t < c->ref_due) return t;
    uint64_t k = (t - c->ref_due) / p->tREFI + 1;
    sim_time last = c->ref_due + (k - 1) * p->tREFI, free_at = last + p->tRFC;
    for (unsigned b = 0; b < p->nbanks; b++) {
        c->ts.banks[b].open = false;
        c->ts.banks[b].act_ok = tmax_(c->ts.banks[b].act_ok, free_at);
    }
    c->d->v.refreshes[c->id] += k;
    c->d->v.refresh_ps[c->id] += k * p->tRFC;
    c->ref_due = last + p->tREFI;
    return tmax_(t, free_at);
}

sim_time fast_serve(struct channel *c, const struct mem_req *r, sim_time now)
{
    struct dram *d = c->d;
    const struct dram_params *p = c->p;
    bool write = r->kind == REQ_STORE;
    uint32_t size = r->size ? r->size : LINE_SIZE;
    if (write) { d->v.writes[c->id]++; (*d->tot.writes)++; }
    else { d->v.reads[c->id]++; (*d->tot.reads)++; }
    d->v.bytes[c->id] += size;
    *d->tot.bytes += size;
    struct dram_loc loc;
    dram_decode(p, r->paddr, &loc);
    SIM_ASSERT(loc.ch == c->id, c->name, now, "request for 0x%llx belongs to channel %u",
               (unsigned long long)r->paddr, loc.ch);
    struct bank *b = &c->ts.banks[loc.bank];
    sim_time t0 = refresh_before(c, tmax_(now, b->col_ok));
    sim_time col;               /* the first column command */
    uint64_t *kv, *kt;
    if (b->open && b->row == loc.row) {
        col = t0;
        kv = d->v.hits; kt = d->tot.hits;
    } else {
        sim_time act = tmax_(t0, b->act_ok);
        if (b->open) {
            act = tmax_(tmax_(t0, b->pre_ok) + p->tRP, b->act_ok);
            kv = d->v.conflicts; kt = d->tot.conflicts;
        } else {
            kv = d->v.misses; kt = d->tot.misses;
        }
        act = tmax_(act, slots_take(&c->f_acts, act - act % c->f_acts.period, 1));
        b->open = true;
        b->row = loc.row;
        b->act_ok = act + p->tRC;
        b->pre_ok = act + p->tRAS;
        col = act + p->tRCD;
    }
    kv[c->id]++;
    (*kt)++;
    unsigned n = (size + p->atom - 1) / p->atom;
    sim_time gap = tmax_(p->burst, p->tCCD_L);
    sim_time lat = write ? p->tCWL : p->tCL;
    sim_time last_col = col + (n - 1) * gap;
    sim_time end = last_col + lat + p->burst;
    b->col_ok = last_col + gap;
    b->pre_ok = tmax_(b->pre_ok, write ? end + p->tWR : last_col + p->tRTP);
    /* The data bus as a rate server at the channel's peak: the n bursts
     * hold it n x burst, in the first free clocks from the request's
     * arrival on, and the data cannot be over before the last.  Where the
     * cycle model interleaves bursts of requests to different banks, the
     * server lets them overlap in time and caps only the rate.  A calendar
     * of bus clocks (core/slots.h), not a free-from time: the fast L2 asks
     * by call (dram_fast_access), not always in arrival order, and an
     * earlier arrival must not queue behind a later one. */
    sim_time ck = c->d->dom->period, last = now;
    slots_take_last(&c->f_slots, now, (uint32_t)(n * (p->burst / ck ? p->burst / ck : 1)), &last);
    c->f_bus = last + ck;
    end = tmax_(end, c->f_bus);
    if (write) return now;
    stat_avg_add(d->tot.read_lat, (double)(end - now));
    stat_hist_add(d->lat_hist, (end - now) / PS_PER_NS);
    return end;
}

/* sim.model fast's L2 (l2_fast.c) asks its fills and write-backs here
 * directly: the same server, arriving at the channel's first clock edge at
 * or after `at`; no request, no event (issue 41, 2: <= 3 events per warp
 * memory instruction). */
sim_time dram_fast_access(struct dram *d, uint64_t pa, uint32_t size, bool write, sim_time at)
{
    struct channel *c = &d->ch[dram_channel_of(d, pa)];
    struct mem_req r = { .kind = write ? REQ_STORE : REQ_LOAD, .paddr = pa, .size = size };
    sim_time t = domain_edge(d->dom, at);
    sim_time end = fast_serve(c, &r, t);
    return write ? t : end + c->p->ctrl;
}

static sim_time fast_tick(struct component *comp, sim_time now)
{
    struct channel *c = (struct channel *)comp;
    struct mem_req *r;
    while ((r = mq_pop(&c->in, now))) {
        sim_time at = fast_serve(c, r, now);
        if (c->p->ctrl || at > now) channel_deliver(c, r, at + c->p->ctrl, false);
        else channel_deliver(c, r, now, true);
    }
    return mq_next_ready(&c->in);
}

static void fast_dump(struct component *comp, FILE *out)
{
    struct channel *c = (struct channel *)comp;
    fprintf(out, "    %u queued in (fast server), bus free at %llu ps\n", c->in.n,
            (unsigned long long)c->f_bus);
}

static const struct comp_ops fast_ops = { fast_tick, fast_dump };

void fast_channel_init(struct channel *c, struct dram *d, unsigned id)
{
    const struct dram_params *p = &d->p;
    c->id = id;
    c->d = d;
    c->p = p;
    snprintf(c->name, sizeof c->name, "%s.%u", p->prefix, id);
    comp_init(&c->comp, d->eng, &fast_ops, c->name, d->dom);
    mq_init(&c->in, c->name, p->in_queue, 0, &c->comp);
    ts_init(&c->ts, p);
    c->ref_due = p->tREFI;
    /* bus clocks as far ahead as the deepest backlog a test or a stream
     * builds (4096 lines of 8 clocks) */
    slots_init_n(&c->f_slots, 1, d->dom->period, 65536);
    sim_time step = tmax_(p->tRRD_S, (p->tFAW + 3) / 4);
    slots_init_n(&c->f_acts, 1, step ? step : 1, 16384);
}

/* One channel's memory controller: input queue -> read queue / write
 * queue -> FR-FCFS command scheduler -> banks.
 *
 * - FR-FCFS (Rixner et al., ISCA 2000; HPE Table I): each clock, the oldest
 *   request whose next burst hits an open row and may issue goes first;
 *   otherwise the oldest request that can take a row command (ACT on a
 *   closed bank; PRE on a bank whose open row no queued request wants).
 *   Open-row policy: rows stay open until a conflict or a refresh closes
 *   them.
 * - One row command (ACT/PRE/REF) and one column command (RD/WR) per clock,
 *   as HBM's separate row and column command buses allow and as GPGPU-Sim's
 *   dram.cc issues them.
 * - A request of S bytes takes ceil(S / atom) bursts (a 128 B line on a
 *   32-bit GDDR5 channel with BL8: four 32 B bursts; a 32 B sector: one).
 *   Bursts of different requests interleave, so a stream alternating bank
 *   groups runs at tCCD_S while one request's bursts are tCCD_L apart.
 * - Stores are posted writes: acknowledged when they enter the write queue and
 *   drained later (Accel-Sim's write queue): the scheduler serves writes
 *   when the write queue reaches write_high until it falls to write_low, or
 *   when no read waits.  A read of data still in the write queue is
 *   answered from it.
 * - All-bank refresh every tREFI: no new ACT or column command once due,
 *   open banks are precharged, REF blocks every bank for tRFC.  An idle
 *   channel does not tick: the refreshes it missed are accounted when it
 *   wakes (banks closed, the last one's tRFC still respected).
 *
 * - The controller pipeline (dram.ctrl_latency; for host memory plus the
 *   host.latency hop) is a fixed delay on the answer, not a wait in the
 *   bounded input queue: a request is scheduled as soon as it reaches the
 *   queue and its answer (read data, posted-write acknowledgement, read
 *   forwarded from the write queue) leaves ctrl later.  A pipeline of
 *   constant latency holds no buffer slot per request in flight; had it
 *   been the input queue's latency, a 64-entry queue would admit at most
 *   64 requests per ctrl_latency clocks (0.43 per clock at 150, below the
 *   0.5 a 32 B stream needs: 85 % of peak; issue 11, point 9).  GPGPU-Sim
 *   models the same delay as an unbounded latency queue beside the DRAM's
 *   (memory_partition_unit::dram_cycle, dram_latency); only where it sits
 *   differs: FR-FCFS here sees a request ctrl_latency earlier, which
 *   changes no timing of a lone request and only which request a loaded
 *   scheduler sees first.
 *
 * Idle read latency, from the request becoming visible in the input queue
 * at a clock edge: tRCD + tCL + burst for one burst, plus (n-1) x tCCD_L
 * for n bursts of one request (same bank, same group), plus ctrl_latency. */
#include <stdlib.h>
#include <string.h>
#include "dram_int.h"
#include "trace/trace.h"

static inline sim_time tmin(sim_time a, sim_time b) { return a < b ? a : b; }

static void answer(void *obj, uint64_t arg, sim_time now)
{
    struct channel *c = obj;
    struct mem_req *r = (struct mem_req *)(uintptr_t)arg;
    /* Reply queues are sized for everything their owner has in flight: a
     * refusal is a sizing bug, not back-pressure. */
    if (!mq_push(r->reply, r, now, NULL))
        sim_panic(c->name, now, "reply queue '%s' full", r->reply->name);
}

/* The answer to r leaves at `at`: an event then, or (now) at once, from
 * inside this tick.  Memory driven by a private loop (dram_set_loop) hands
 * both to it. */
void channel_deliver(struct channel *c, struct mem_req *r, sim_time at, bool now)
{
    struct dram *d = c->d;
    if (d->loop) d->loop->answer(d->loop_ctx, r, at, now);
    else if (now) answer(c, (uint64_t)(uintptr_t)r, at);
    else engine_at(d->eng, at, d->dom, answer, c, (uint64_t)(uintptr_t)r);
}

/* The answer to r leaves the controller pipeline ctrl after `at`. */
static void answer_at(struct channel *c, struct mem_req *r, sim_time at)
{
    if (c->p->ctrl) channel_deliver(c, r, at + c->p->ctrl, false);
    else channel_deliver(c, r, at, true);
}

/* The bank opened a row or closed: both queues' row hits follow. */
static void bank_open(struct channel *c, struct dqueue *q, uint32_t i, sim_time now)
{
    struct dreq *e = &q->e[i];
    ts_act(&c->ts, e->bank, e->row, now);
    e->opened = true;
    struct dqueue *other = q == &c->rq ? &c->wq : &c->rq;
    dq_set_open(q, e->bank, e->group);
    dq_bank_opened(other, e->bank, e->row);
}

static void bank_close(struct channel *c, unsigned bank, sim_time now)
{
    ts_pre(&c->ts, bank, now);
    dq_bank_closed(&c->rq, bank);
    dq_bank_closed(&c->wq, bank);
}

/* Writes queued per 128 B line (hashed), to answer most reads' "is it in
 * the write queue?" without a scan: a read of n > 0 bytes is inside a
 * write that stays within one line only if that write is in the read's
 * first line.  Writes crossing a line (dram-replay traces) are counted
 * apart and make every read scan the queue. */
static inline unsigned wline(uint64_t addr)
{
    return (unsigned)(((addr >> LINE_SHIFT) * 0x9E3779B97F4A7C15ULL) >> 56);
}

static void count_write(struct channel *c, const struct dreq *w, int by)
{
    if ((w->addr & (LINE_SIZE - 1)) + w->size > LINE_SIZE) c->wbig += (uint32_t)by;
    else c->wlines[wline(w->addr)] += (uint16_t)by;
}

static void issue_burst(struct channel *c, struct dqueue *q, uint32_t i, sim_time now)
{
    struct dram *d = c->d;
    struct dreq *e = &q->e[i];
    if (!e->started) {
        e->started = true;
        uint64_t *k = e->conflict ? d->v.conflicts : e->opened ? d->v.misses : d->v.hits;
        uint64_t *t = e->conflict ? d->tot.conflicts : e->opened ? d->tot.misses : d->tot.hits;
        k[c->id]++;
        (*t)++;
    }
    sim_time end = ts_col(&c->ts, e->bank, e->write, now);
    if (TRACE_ON(TW_DRAM))
        trace_dram(d->p.prefix[0] == 'h', c->id, e->write, e->addr, e->bank, now, end - c->p->burst, end);
    if (--e->bursts) return;
    if (!e->write) {
        /* The statistic stays the scheduler's part: queue entry to last data. */
        stat_avg_add(d->tot.read_lat, (double)(end - e->arrive));
        stat_hist_add(d->lat_hist, (end - e->arrive) / PS_PER_NS);
        channel_deliver(c, e->r, end + c->p->ctrl, false);
    }
    if (e->write) count_write(c, e, -1);
    dq_remove(q, i);
}

static bool forward_from_writes(struct channel *c, struct mem_req *r, sim_time now)
{
    if (!c->wq.n) return false;
    if (!c->wbig && r->size && !c->wlines[wline(r->paddr)]) return false;
    for (uint32_t i = c->wq.head; i != DQ_NONE; i = c->wq.e[i].next) {
        const struct dreq *w = &c->wq.e[i];
        if (w->addr <= r->paddr && r->paddr + r->size <= w->addr + w->size) {
            c->d->v.forwarded[c->id]++;
            answer_at(c, r, now);
            return true;
        }
    }
    return false;
}

static void accept(struct channel *c, sim_time now)
{
    struct dram *d = c->d;
    const struct dram_params *p = c->p;
    struct mem_req *r;
    while ((r = mq_peek(&c->in, now))) {
        /* Atomics need their data back: timed as reads (the ALU at the
         * memory side writes the row while it is open). */
        bool write = r->kind == REQ_STORE;
        if (write ? c->wq.n == p->wq_size : c->rq.n == p->rq_size) return;
        mq_pop(&c->in, now);
        if (d->loop) d->loop->popped(d->loop_ctx, c->id, now);
        uint32_t size = r->size ? r->size : LINE_SIZE;
        if (write) { d->v.writes[c->id]++; (*d->tot.writes)++; }
        else { d->v.reads[c->id]++; (*d->tot.reads)++; }
        d->v.bytes[c->id] += size;
        *d->tot.bytes += size;
        if (!write && forward_from_writes(c, r, now)) continue;
        struct dram_loc loc;
        dram_decode(p, r->paddr, &loc);
        SIM_ASSERT(loc.ch == c->id, c->name, now,
                   "request for 0x%llx belongs to channel %u",
                   (unsigned long long)r->paddr, loc.ch);
        struct dreq e = {
            .r = r, .addr = r->paddr, .row = loc.row, .size = size, .bank = loc.bank,
            .bursts = (uint16_t)((size + p->atom - 1) / p->atom), .write = write,
            .arrive = now,
        };
        const struct bank *b = &c->ts.banks[loc.bank];
        if (write) {
            /* Posted write: acknowledged on entry, drained later. */
            e.r = NULL;
            count_write(c, &e, 1);
            dq_insert(&c->wq, &e, b->open, b->row);
            answer_at(c, r, now);
        } else {
            dq_insert(&c->rq, &e, b->open, b->row);
        }
    }
}

/* Refreshes an idle channel missed while it did not tick. */
static void catch_up_refresh(struct channel *c, sim_time now)
{
    const struct dram_params *p = c->p;
    if (!p->tREFI || c->ref_pending || c->rq.n || c->wq.n || now < c->ref_due) return;
    uint64_t k = (now - c->ref_due) / p->tREFI + 1;
    sim_time last = c->ref_due + (k - 1) * p->tREFI, at = last;
    /* The first missed refresh closed the open banks. */
    bool open = false;
    for (unsigned b = 0; b < p->nbanks; b++)
        if (c->ts.banks[b].open) { bank_close(c, b, c->ref_due); open = true; }
    if (open && k == 1) at = c->ref_due + p->tRP;
    ts_ref(&c->ts, at);
    c->d->v.refreshes[c->id] += k;
    c->d->v.refresh_ps[c->id] += k * p->tRFC;
    c->ref_due = last + p->tREFI;
}

/* Refresh due: close banks, then REF.  Returns when to look again. */
static sim_time refresh_step(struct channel *c, sim_time now)
{
    const struct dram_params *p = c->p;
    sim_time at = ts_ref_at(&c->ts);
    if (at <= now) {
        ts_ref(&c->ts, now);
        c->d->v.refreshes[c->id]++;
        c->d->v.refresh_ps[c->id] += now - c->ref_due + p->tRFC;
        c->ref_pending = false;
        c->ref_due += p->tREFI;
        return now + p->tck;
    }
    if (at != TIME_NEVER) return at;
    sim_time next = TIME_NEVER;
    for (unsigned b = 0; b < p->nbanks; b++) {
        if (!c->ts.banks[b].open) continue;
        sim_time pre = ts_pre_at(&c->ts, b);
        if (pre <= now) { bank_close(c, b, now); return now + p->tck; }
        next = tmin(next, pre);
    }
    return next;
}

/* FR-FCFS over one queue, per bank instead of per request: every queued
 * request of a bank waits for the same bank and group timing, so
 *  - column: the oldest row hit whose bank may take a column command is
 *    the oldest among such banks' oldest hits;
 *  - row: a bank that is closed (ACT) or open on a row no queued request
 *    wants (PRE) serves its oldest request; the oldest of those goes;
 *  - a bank whose open row is wanted holds its other requests back.
 * This is the request-by-request rule exactly (the same command each
 * clock), in time proportional to the banks with queued requests.  The
 * banks of each kind (with a hit; open without one; closed) are bitsets,
 * walked in bank order: the choice is the smallest arrival number, the
 * same in any order. */
#define FOR_BANKS(b, nw, expr)                                              \
    for (uint32_t w_ = 0; w_ < (nw); w_++)                                  \
        for (uint64_t m_ = (expr); m_; m_ &= m_ - 1)                        \
            for (unsigned b = w_ * 64 + (unsigned)__builtin_ctzll(m_), o_ = 1; o_; o_ = 0)

static sim_time schedule(struct channel *c, sim_time now)
{
    const struct dram_params *p = c->p;
    const struct timing_state *ts = &c->ts;
    if (c->wq.n >= p->w_high) c->drain = true;
    if (c->wq.n <= p->w_low) c->drain = false;
    bool writes = c->drain || (c->rq.n == 0 && c->wq.n > 0);
    struct dqueue *q = writes ? &c->wq : &c->rq;
    const struct bank *banks = ts->banks;
    const uint64_t *act = q->act_m, *hit = q->hit_m, *open = ts->open_m;
    const uint32_t nw = q->nwords;
    bool issued = false;
    uint32_t best = DQ_NONE;
    uint64_t bseq = UINT64_MAX;
    /* column: the oldest hit whose bank may take a column command */
    if (ts_col_all(ts, writes) <= now) {
        unsigned bb = 0;
        FOR_BANKS(b, nw, hit[w_]) {
            if (q->bk[b].hit_seq < bseq && ts_col_bank(ts, b, writes) <= now) {
                bseq = q->bk[b].hit_seq;
                bb = b;
            }
        }
        if (bseq != UINT64_MAX) best = q->g[q->bk[bb].open].head;
    }
    if (best != DQ_NONE) {
        issue_burst(c, q, best, now);
        issued = true;
    }
    /* row: the oldest request of a bank that is closed (ACT) or open on a
     * row no queued request wants (PRE) */
    best = DQ_NONE;
    bseq = UINT64_MAX;
    unsigned bb = 0;
    FOR_BANKS(b, nw, act[w_] & ~hit[w_] & open[w_]) {
        if (q->bk[b].seq < bseq && banks[b].pre_ok <= now) { bseq = q->bk[b].seq; bb = b; }
    }
    if (ts_act_all(ts) <= now) {
        FOR_BANKS(b, nw, act[w_] & ~open[w_]) {
            if (q->bk[b].seq < bseq && ts_act_bank(ts, b) <= now) { bseq = q->bk[b].seq; bb = b; }
        }
    }
    if (bseq != UINT64_MAX) best = q->bk[bb].head;
    if (best != DQ_NONE) {
        struct dreq *e = &q->e[best];
        if (!banks[e->bank].open) {
            bank_open(c, q, best, now);
        } else {
            bank_close(c, e->bank, now);
            e->conflict = true;
        }
        issued = true;
    }
    /* Sleep until some queued request's next command may issue (at least
     * one clock after a command): no tick is spent waiting on timing.  A
     * bank whose open row is wanted holds its other requests back. */
    sim_time col = TIME_NEVER, actt = TIME_NEVER, pre = TIME_NEVER;
    FOR_BANKS(b, nw, hit[w_]) col = tmin(col, ts_col_bank(ts, b, writes));
    FOR_BANKS(b, nw, act[w_] & ~hit[w_] & open[w_]) pre = tmin(pre, banks[b].pre_ok);
    FOR_BANKS(b, nw, act[w_] & ~open[w_]) actt = tmin(actt, ts_act_bank(ts, b));
    if (col != TIME_NEVER) col = ts_max(col, ts_col_all(ts, writes));
    if (actt != TIME_NEVER) actt = ts_max(actt, ts_act_all(ts));
    sim_time next = tmin(col, tmin(actt, pre));
    if (issued && next < now + p->tck) next = now + p->tck;
    return next;
}

static sim_time channel_tick(struct component *comp, sim_time now)
{
    struct channel *c = (struct channel *)comp;
    const struct dram_params *p = c->p;
    struct dram *d = c->d;
    d->v.rq_occ[c->id] += (uint64_t)c->rq.n * (now - c->occ_at);
    d->v.wq_occ[c->id] += (uint64_t)c->wq.n * (now - c->occ_at);
    c->occ_at = now;
    catch_up_refresh(c, now);
    accept(c, now);
    if (p->tREFI && now >= c->ref_due && (c->rq.n || c->wq.n || c->ref_pending))
        c->ref_pending = true;
    sim_time next = c->ref_pending ? refresh_step(c, now) : schedule(c, now);
    /* The queue just served may have emptied while the other holds work:
     * the next clock picks the other. */
    if (next == TIME_NEVER && (c->rq.n || c->wq.n)) next = now + p->tck;
    if ((c->rq.n || c->wq.n) && p->tREFI) next = tmin(next, c->ref_due);
    bool room = c->rq.n < p->rq_size && c->wq.n < p->wq_size;
    /* Without room, the next burst that completes a request makes room. */
    if (room) next = tmin(next, mq_next_ready(&c->in));
    if (next != TIME_NEVER && next <= now) next = now + 1;
    return next;
}

sim_time dram_tick(struct dram *d, unsigned ch, sim_time now)
{
    /* The channel's own tick: a cycle controller or a fast server. */
    return d->ch[ch].comp.ops->tick(&d->ch[ch].comp, now);
}

static void channel_dump(struct component *comp, FILE *out)
{
    struct channel *c = (struct channel *)comp;
    fprintf(out, "    %u queued in, %u reads, %u writes%s%s\n", c->in.n, c->rq.n,
            c->wq.n, c->drain ? ", draining writes" : "",
            c->ref_pending ? ", refresh pending" : "");
    fputs("    open rows:", out);
    for (unsigned b = 0; b < c->p->nbanks; b++) {
        if (c->ts.banks[b].open) fprintf(out, " b%u=%llu", b, (unsigned long long)c->ts.banks[b].row);
        else fprintf(out, " b%u=-", b);
    }
    fputc('\n', out);
    const struct dqueue *qs[2] = { &c->rq, &c->wq };
    for (int k = 0; k < 2; k++) {
        unsigned shown = 0;
        for (uint32_t i = qs[k]->head; i != DQ_NONE && shown < 8; i = qs[k]->e[i].next, shown++) {
            const struct dreq *e = &qs[k]->e[i];
            fprintf(out, "    %s 0x%llx bank %u row %llu, %u bursts left\n", k ? "write" : "read",
                    (unsigned long long)e->addr, e->bank, (unsigned long long)e->row, e->bursts);
        }
    }
}

static const struct comp_ops channel_ops = { channel_tick, channel_dump };

void channel_init(struct channel *c, struct dram *d, unsigned id)
{
    const struct dram_params *p = &d->p;
    c->id = id;
    c->d = d;
    c->p = p;
    snprintf(c->name, sizeof c->name, "%s.%u", p->prefix, id);
    comp_init(&c->comp, d->eng, &channel_ops, c->name, d->dom);
    mq_init(&c->in, c->name, p->in_queue, 0, &c->comp);
    ts_init(&c->ts, p);
    dq_init(&c->rq, p->rq_size, p->nbanks);
    dq_init(&c->wq, p->wq_size, p->nbanks);
    c->ref_due = p->tREFI;
}

void channel_free(struct channel *c)
{
    if (c->f_slots.tag) slots_free(&c->f_slots);   /* sim.model fast */
    if (c->f_acts.tag) slots_free(&c->f_acts);
    mq_free(&c->in);
    ts_free(&c->ts);
    dq_free(&c->rq);
    dq_free(&c->wq);
}

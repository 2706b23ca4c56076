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
#include "../trace/trace.h"

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

/* The answer to r leaves the controller pipeline ctrl after `at`. */
static void answer_at(struct channel *c, struct mem_req *r, sim_time at)
{
    if (c->p->ctrl) engine_at(c->d->eng, at + c->p->ctrl, c->d->dom, answer, c,
                              (uint64_t)(uintptr_t)r);
    else answer(c, (uint64_t)(uintptr_t)r, at);
}

static inline bool row_hit(const struct channel *c, const struct dreq *e)
{
    const struct bank *b = &c->ts.banks[e->bank];
    return b->open && b->row == e->row;
}

static bool bank_wanted(const struct channel *c, const struct dreq *q, uint32_t n,
                        unsigned bank)
{
    for (uint32_t i = 0; i < n; i++)
        if (q[i].bank == bank && row_hit(c, &q[i])) return true;
    return false;
}

/* When entry e's next command could issue (TIME_NEVER: it waits for the
 * hits on its bank to drain). */
static sim_time next_at(const struct channel *c, const struct dreq *q, uint32_t n,
                        const struct dreq *e)
{
    const struct bank *b = &c->ts.banks[e->bank];
    if (row_hit(c, e)) return ts_col_at(&c->ts, e->bank, e->write);
    if (!b->open) return ts_act_at(&c->ts, e->bank);
    if (bank_wanted(c, q, n, e->bank)) return TIME_NEVER;
    return ts_pre_at(&c->ts, e->bank);
}

static void remove_at(struct dreq *q, uint32_t *n, uint32_t i)
{
    memmove(&q[i], &q[i + 1], (*n - i - 1) * sizeof *q);
    (*n)--;
}

static void issue_burst(struct channel *c, struct dreq *q, uint32_t *n, uint32_t i,
                        sim_time now)
{
    struct dram *d = c->d;
    struct dreq *e = &q[i];
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
        engine_at(d->eng, end + c->p->ctrl, d->dom, answer, c, (uint64_t)(uintptr_t)e->r);
    }
    remove_at(q, n, i);
}

static bool forward_from_writes(struct channel *c, struct mem_req *r, sim_time now)
{
    for (uint32_t i = 0; i < c->nwq; i++) {
        const struct dreq *w = &c->wq[i];
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
        if (write ? c->nwq == p->wq_size : c->nrq == p->rq_size) return;
        mq_pop(&c->in, now);
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
        if (write) {
            /* Posted write: acknowledged on entry, drained later. */
            e.r = NULL;
            c->wq[c->nwq++] = e;
            answer_at(c, r, now);
        } else {
            c->rq[c->nrq++] = e;
        }
    }
}

/* Refreshes an idle channel missed while it did not tick. */
static void catch_up_refresh(struct channel *c, sim_time now)
{
    const struct dram_params *p = c->p;
    if (!p->tREFI || c->ref_pending || c->nrq || c->nwq || now < c->ref_due) return;
    uint64_t k = (now - c->ref_due) / p->tREFI + 1;
    sim_time last = c->ref_due + (k - 1) * p->tREFI, at = last;
    /* The first missed refresh closed the open banks. */
    bool open = false;
    for (unsigned b = 0; b < p->nbanks; b++)
        if (c->ts.banks[b].open) { ts_pre(&c->ts, b, c->ref_due); open = true; }
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
        if (pre <= now) { ts_pre(&c->ts, b, now); return now + p->tck; }
        next = tmin(next, pre);
    }
    return next;
}

static sim_time schedule(struct channel *c, sim_time now)
{
    const struct dram_params *p = c->p;
    if (c->nwq >= p->w_high) c->drain = true;
    if (c->nwq <= p->w_low) c->drain = false;
    bool writes = c->drain || (c->nrq == 0 && c->nwq > 0);
    struct dreq *q = writes ? c->wq : c->rq;
    uint32_t *n = writes ? &c->nwq : &c->nrq;
    bool issued = false;
    for (uint32_t i = 0; i < *n; i++) {
        if (row_hit(c, &q[i]) && ts_col_at(&c->ts, q[i].bank, q[i].write) <= now) {
            issue_burst(c, q, n, i, now);
            issued = true;
            break;
        }
    }
    for (uint32_t i = 0; i < *n; i++) {
        struct dreq *e = &q[i];
        if (row_hit(c, e)) continue;
        if (!c->ts.banks[e->bank].open) {
            if (ts_act_at(&c->ts, e->bank) > now) continue;
            ts_act(&c->ts, e->bank, e->row, now);
            e->opened = true;
        } else {
            if (bank_wanted(c, q, *n, e->bank) || ts_pre_at(&c->ts, e->bank) > now) continue;
            ts_pre(&c->ts, e->bank, now);
            e->conflict = true;
        }
        issued = true;
        break;
    }
    /* Sleep until some queued request's next command may issue (at least
     * one clock after a command): no tick is spent waiting on timing. */
    sim_time next = TIME_NEVER;
    for (uint32_t i = 0; i < *n; i++) next = tmin(next, next_at(c, q, *n, &q[i]));
    if (issued && next < now + p->tck) next = now + p->tck;
    return next;
}

static sim_time channel_tick(struct component *comp, sim_time now)
{
    struct channel *c = (struct channel *)comp;
    const struct dram_params *p = c->p;
    struct dram *d = c->d;
    d->v.rq_occ[c->id] += (uint64_t)c->nrq * (now - c->occ_at);
    d->v.wq_occ[c->id] += (uint64_t)c->nwq * (now - c->occ_at);
    c->occ_at = now;
    catch_up_refresh(c, now);
    accept(c, now);
    if (p->tREFI && now >= c->ref_due && (c->nrq || c->nwq || c->ref_pending))
        c->ref_pending = true;
    sim_time next = c->ref_pending ? refresh_step(c, now) : schedule(c, now);
    /* The queue just served may have emptied while the other holds work:
     * the next clock picks the other. */
    if (next == TIME_NEVER && (c->nrq || c->nwq)) next = now + p->tck;
    if ((c->nrq || c->nwq) && p->tREFI) next = tmin(next, c->ref_due);
    bool room = c->nrq < p->rq_size && c->nwq < p->wq_size;
    /* Without room, the next burst that completes a request makes room. */
    if (room) next = tmin(next, mq_next_ready(&c->in));
    if (next != TIME_NEVER && next <= now) next = now + 1;
    return next;
}

static void channel_dump(struct component *comp, FILE *out)
{
    struct channel *c = (struct channel *)comp;
    fprintf(out, "    %u queued in, %u reads, %u writes%s%s\n", c->in.n, c->nrq,
            c->nwq, c->drain ? ", draining writes" : "",
            c->ref_pending ? ", refresh pending" : "");
    fputs("    open rows:", out);
    for (unsigned b = 0; b < c->p->nbanks; b++) {
        if (c->ts.banks[b].open) fprintf(out, " b%u=%llu", b, (unsigned long long)c->ts.banks[b].row);
        else fprintf(out, " b%u=-", b);
    }
    fputc('\n', out);
    for (uint32_t i = 0; i < c->nrq && i < 8; i++)
        fprintf(out, "    read 0x%llx bank %u row %llu, %u bursts left\n",
                (unsigned long long)c->rq[i].addr, c->rq[i].bank,
                (unsigned long long)c->rq[i].row, c->rq[i].bursts);
    for (uint32_t i = 0; i < c->nwq && i < 8; i++)
        fprintf(out, "    write 0x%llx bank %u row %llu, %u bursts left\n",
                (unsigned long long)c->wq[i].addr, c->wq[i].bank,
                (unsigned long long)c->wq[i].row, c->wq[i].bursts);
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
    c->rq = xcalloc(p->rq_size, sizeof *c->rq);
    c->wq = xcalloc(p->wq_size, sizeof *c->wq);
    c->ref_due = p->tREFI;
}

void channel_free(struct channel *c)
{
    mq_free(&c->in);
    ts_free(&c->ts);
    free(c->rq);
    free(c->wq);
}

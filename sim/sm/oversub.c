/* Thread oversubscription (TO; batch-aware paper, Kim et al. ASPLOS 2020,
 * Sec. 4.1, Fig. 6-7, Sec. 5.1, Sec. 6.5), after Virtual Thread (Yoon et
 * al., ISCA 2016) extended to save registers to global memory.
 *
 * Each SM holds up to `extra` thread blocks beyond the kernel's occupancy
 * (B_sched blocks), inactive; active blocks never exceed B_sched (footnote
 * 6: the schedulers pick warps of active blocks only).  A block slot is
 *   ACTIVE  its warps issue;
 *   OUT     its context is being saved (all its warps stalled);
 *   PARKED  inactive: never run, or switched out (`ran`); ready when none
 *           of its warps is stalled on a far fault (their pages landed);
 *   IN      its context is being restored.
 * An ACTIVE block all of whose live warps are stalled on far faults (or
 * wait at a barrier behind them) is switched out when a ready PARKED block
 * exists (Fig. 6 step 2); when the save is done (its slot free), the
 * oldest ready PARKED block is restored and becomes ACTIVE (Fig. 7: TB1
 * resumes when its page lands and a slot frees).  A block that never ran
 * has no context: it becomes ACTIVE at once, as a dispatched block does.
 * One switch at a time per SM (one context handler, the VTC's).
 *
 * Context: threads x registers/thread x 4 B + gpu.sm.oversub.ctx_state
 * (footnote 5: 5 KB of warp/block identifiers and SIMT stacks).  Its cost
 * (gpu.sm.oversub.ctx_cost):
 *   memory  Sec. 5.1: stored to and loaded from global memory: whole 128 B
 *           lines through the SM's crossbar port (one request per cycle,
 *           a store's data ceil(128 / gpu.xbar.port_bw) cycles) to the L2
 *           slices and GDDR, in a save area outside every page frame (not
 *           UVM-managed: it never faults and is no part of the footprint);
 *           the L1D is write-through and the restore reads each line once,
 *           so neither allocates in it; the switch ends when the last
 *           store is acknowledged / the last load answered;
 *   ideal   Sec. 6.5: context bits / gpu.sm.oversub.ctx_bw (1024) cycles
 *           each way (85 KB: 680 cycles);
 *   free    no cost.
 * A switched-out block's memory instructions in flight complete while it
 * is parked (their pages land): their results are part of the context it
 * gets back. */
#include <stdlib.h>
#include <string.h>
#include "sm_internal.h"
#include "config/config.h"
#include "core/stats.h"

const struct cfg_key oversub_config_keys[] = {
    {"gpu.sm.oversub.enabled", CFG_BOOL, "false", 0, -1, NULL,
     "thread oversubscription (batch-aware Sec. 4.1): each SM holds extra thread blocks beyond its "
     "occupancy, inactive; a block whose every warp is stalled on far faults is context-switched "
     "out for a ready one"},
    {"gpu.sm.oversub.extra", CFG_INT, "1", 0, 64, NULL,
     "extra blocks per SM at the start (batch-aware Sec. 4.1, Fig. 6 step 1: one); the runtime's "
     "controller changes it (driver.oversub.*)"},
    {"gpu.sm.oversub.ctx_cost", CFG_ENUM, "memory", 0, -1, "memory|ideal|free",
     "cost of a context switch: memory (batch-aware Sec. 5.1: the context stored to and loaded "
     "from global memory through the crossbar, L2 and DRAM), ideal (Sec. 6.5: context bits / "
     "gpu.sm.oversub.ctx_bw cycles each way, 680 cycles for 85 KB), free (no cost)"},
    {"gpu.sm.oversub.ctx_state", CFG_SIZE, "5KiB", 0, 1048576, NULL,
     "per-block state saved besides the registers (batch-aware footnote 5: 5 KB of warp and block "
     "identifiers and SIMT stacks, after Virtual Thread [52])"},
    {"gpu.sm.oversub.ctx_bw", CFG_INT, "1024", 1, 1048576, NULL,
     "bits per cycle of the ideal context-switch model (batch-aware Sec. 6.5: 32 banks x 32 bit)"},
    {"gpu.sm.oversub.ctx_regs", CFG_INT, "0", 0, 255, NULL,
     "registers per thread counted in a block's context (0: the kernel's own)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* In the order of gpu.sm.oversub.ctx_cost's choices (cfg_choice). */
enum { COST_MEMORY, COST_IDEAL, COST_FREE };
/* Save areas: far above any frame (frames are 4 KiB page numbers from 0),
 * one per SM and block slot. */
#define SAVE_BASE (1ULL << 44)
#define SAVE_STRIDE (1ULL << 20)

/* The context handler of one SM: moves a context between the register
 * file and its save area (memory cost), or waits out the ideal cost. */
struct ctx_port {
    struct component comp;
    char name[32];
    struct mq resp;
    struct sm *s;
    uint32_t slot, gen;         /* the block being switched (its placement) */
    bool load;                  /* restoring (loads) or saving (stores) */
    uint32_t left, out;         /* lines still to send; sent, not answered */
    uint64_t pa;                /* next line */
    sim_time port_free, done_at;
};

struct oversub {
    unsigned extra;             /* blocks per SM beyond B_sched (the controller's) */
    int cost;
    uint64_t state_bytes, bw;
    uint32_t regs;
    uint32_t nslots;            /* block slots per SM */
    uint64_t order;             /* dispatch order of blocks */
    struct ctx_port *port;      /* per SM */
    bool *busy;                 /* per SM: a switch in progress */
    uint64_t *n_out, *n_in, *switch_ps, *ctx_bytes, *g_active, *g_parked;
    uint64_t *v_out;
};

static struct oversub *to_of(const struct sm *s) { return s->gpu->to; }

static uint64_t ctx_bytes(const struct sm *s, const struct block_slot *b)
{
    const struct oversub *o = to_of(s);
    uint32_t regs = o->regs ? o->regs : s->gpu->k.regs_per_thread;
    return (uint64_t)b->threads * regs * 4 + o->state_bytes;
}

static void set_parked(struct sm *s, uint32_t slot, bool parked)
{
    for (uint32_t i = 0; i < s->gpu->max_warps; i++) {
        struct warp *w = &s->w[i];
        if (w->st != W_FREE && w->block == slot) warp_park(s, w, parked);
    }
    if (!parked) { sm_issue_wake(s); comp_wake(&s->comp, engine_now(s->comp.eng)); }
}

static bool ready(const struct block_slot *b)
{
    return b->used && b->to_state == TO_PARKED && b->nfault == 0;
}

/* Every live warp stalled on a far fault or at a barrier behind one. */
static bool fault_stalled(const struct block_slot *b)
{
    return b->used && b->to_state == TO_ACTIVE && b->live && b->nfault &&
           b->nfault + b->at_barrier >= b->live;
}

static int oldest_ready(const struct sm *s)
{
    int best = -1;
    for (uint32_t i = 0; i < to_of(s)->nslots; i++)
        if (ready(&s->b[i]) && (best < 0 || s->b[i].order < s->b[best].order)) best = (int)i;
    return best;
}

static void begin(struct sm *s, uint32_t slot, bool load, sim_time now);

/* Look for work for the context handler: a free active slot and a ready
 * block, or a fault-stalled active block to make room for one. */
static void schedule(struct sm *s, sim_time now)
{
    struct oversub *o = to_of(s);
    if (o->busy[s->id]) return;
    int r = oldest_ready(s);
    if (r < 0) return;
    if (s->active_blocks < s->gpu->k_blocks_per_sm) {
        struct block_slot *b = &s->b[r];
        b->to_state = TO_IN;
        b->active = true;
        s->active_blocks++;
        if (b->ran) {
            o->busy[s->id] = true;
            *o->n_in += 1;
            begin(s, (uint32_t)r, true, now);
        } else {
            b->to_state = TO_ACTIVE;        /* nothing to restore */
            b->ran = true;
            *o->g_active += 1;
            *o->g_parked -= 1;
            set_parked(s, (uint32_t)r, false);
        }
        return;
    }
    for (uint32_t i = 0; i < o->nslots; i++)
        if (fault_stalled(&s->b[i])) {
            struct block_slot *b = &s->b[i];
            b->to_state = TO_OUT;
            set_parked(s, i, true);
            o->busy[s->id] = true;
            *o->n_out += 1;
            o->v_out[s->id] += 1;
            begin(s, i, false, now);
            return;
        }
}

/* The save or the restore of s's block `slot` is over. */
static void finish(struct sm *s, sim_time now)
{
    struct oversub *o = to_of(s);
    struct ctx_port *c = &o->port[s->id];
    struct block_slot *b = &s->b[c->slot];
    o->busy[s->id] = false;
    if (!b->used || b->gen != c->gen) {
        /* It retired meanwhile (warps held at exit completed). */
    } else if (b->to_state == TO_OUT) {
        b->to_state = TO_PARKED;
        b->active = false;
        s->active_blocks--;
        *o->g_active -= 1;
        *o->g_parked += 1;
    } else {
        b->to_state = TO_ACTIVE;
        *o->g_active += 1;
        *o->g_parked -= 1;
        set_parked(s, c->slot, false);
    }
    schedule(s, now);
}

static void ideal_done(void *obj, uint64_t sm, sim_time now)
{
    struct gpu *g = obj;
    finish(&g->sm[sm], now);
}

static void begin(struct sm *s, uint32_t slot, bool load, sim_time now)
{
    struct oversub *o = to_of(s);
    struct ctx_port *c = &o->port[s->id];
    uint64_t bytes = ctx_bytes(s, &s->b[slot]);
    sim_time p = s->comp.dom->period;
    c->slot = slot;
    c->gen = s->b[slot].gen;
    c->load = load;
    *o->ctx_bytes += bytes;
    if (o->cost != COST_MEMORY) {
        sim_time d = o->cost == COST_FREE ? 0 : (bytes * 8 + o->bw - 1) / o->bw * p;
        *o->switch_ps += d;
        engine_at(s->comp.eng, now + d, s->comp.dom, ideal_done, s->gpu, s->id);
        return;
    }
    c->left = (uint32_t)((bytes + LINE_SIZE - 1) / LINE_SIZE);
    c->out = 0;
    c->pa = SAVE_BASE + ((uint64_t)s->id * o->nslots + slot) * SAVE_STRIDE;
    c->done_at = now;
    comp_wake(&c->comp, now);
}

static sim_time port_tick(struct component *comp, sim_time now)
{
    struct ctx_port *c = (struct ctx_port *)comp;
    struct sm *s = c->s;
    struct gpu *g = s->gpu;
    sim_time p = comp->dom->period;
    struct mem_req *r;
    while ((r = mq_pop(&c->resp, now))) {
        req_release(g->pool, r);
        c->out--;
    }
    while (c->left && c->port_free <= now) {
        struct mem_req *q = req_alloc(g->pool);
        memset(q, 0, sizeof *q);
        q->kind = c->load ? REQ_LOAD : REQ_STORE;
        q->paddr = q->vaddr = c->pa;
        q->sector_mask = 0xf;
        q->size = LINE_SIZE;
        q->sm = (uint16_t)s->id;
        q->warp = UINT32_MAX - 1;
        q->t_issue = now;
        q->reply = &c->resp;
        if (!mq_push(port_route(&s->mem_out, c->pa), q, now, comp)) {
            req_release(g->pool, q);
            return TIME_NEVER;          /* woken when the slice queue has room */
        }
        c->pa += LINE_SIZE;
        c->left--;
        c->out++;
        uint32_t cyc = c->load ? 1 : (LINE_SIZE + g->xbar_bw - 1) / g->xbar_bw;
        c->port_free = now + cyc * p;
    }
    if (!c->left && !c->out) {
        *to_of(s)->switch_ps += now - c->done_at;
        finish(s, now);
        return TIME_NEVER;
    }
    sim_time next = c->left ? c->port_free : TIME_NEVER;
    sim_time rn = mq_next_ready(&c->resp);
    return rn < next ? rn : next;
}

static const struct comp_ops port_ops = { port_tick, NULL };

struct oversub *oversub_create(struct gpu *g, const struct config *cfg, struct stats *st,
                               uint32_t *nslots)
{
    if (!cfg_bool(cfg, "gpu.sm.oversub.enabled")) return NULL;
    struct oversub *o = xcalloc(1, sizeof *o);
    o->extra = (unsigned)cfg_u64(cfg, "gpu.sm.oversub.extra");
    unsigned cap = o->extra;
    if (cfg_bool(cfg, "driver.oversub.control") && cfg_u64(cfg, "driver.oversub.max_extra") > cap)
        cap = (unsigned)cfg_u64(cfg, "driver.oversub.max_extra");
    o->cost = (int)cfg_choice(cfg, "gpu.sm.oversub.ctx_cost");
    o->state_bytes = cfg_u64(cfg, "gpu.sm.oversub.ctx_state");
    o->bw = cfg_u64(cfg, "gpu.sm.oversub.ctx_bw");
    o->regs = (uint32_t)cfg_u64(cfg, "gpu.sm.oversub.ctx_regs");
    o->nslots = g->lim.max_blocks + cap;
    *nslots = o->nslots;
    o->busy = xcalloc(g->nsms, sizeof *o->busy);
    o->port = xcalloc(g->nsms, sizeof *o->port);
    o->n_out = stat_counter(st, "gpu.oversub.switches", "switches",
                            "blocks context-switched out, every warp stalled on far faults (TO)");
    o->n_in = stat_counter(st, "gpu.oversub.restores", "switches",
                           "switched-out blocks whose context was restored (TO)");
    o->switch_ps = stat_counter(st, "gpu.oversub.switch_ps", "ps",
                                "time SMs spent saving and restoring contexts, all SMs (TO)");
    o->ctx_bytes = stat_counter(st, "gpu.oversub.ctx_bytes", "bytes",
                                "context bytes saved and restored (TO)");
    o->g_active = stat_counter(st, "gpu.oversub.active_blocks", "blocks",
                               "blocks active on all SMs now (a level; its series over time)");
    o->g_parked = stat_counter(st, "gpu.oversub.inactive_blocks", "blocks",
                               "resident inactive blocks on all SMs now (a level; its series over time)");
    o->v_out = stat_vector(st, "sm.oversub.switches", g->nsms, "switches", "blocks switched out, per SM");
    return o;
}

void oversub_init_sm(struct gpu *g, struct sm *s)
{
    struct ctx_port *c = &g->to->port[s->id];
    c->s = s;
    snprintf(c->name, sizeof c->name, "%s.ctx", s->name);
    comp_init(&c->comp, g->eng, &port_ops, c->name, g->dom);
    mq_init(&c->resp, c->name, 4096, g->xbar_latency, &c->comp);
}

void oversub_free(struct gpu *g)
{
    struct oversub *o = g->to;
    if (!o) return;
    for (unsigned i = 0; o->port && i < g->nsms; i++) mq_free(&o->port[i].resp);
    free(o->port);
    free(o->busy);
    free(o);
}

uint32_t oversub_limit(const struct gpu *g)
{
    return g->k_blocks_per_sm + (g->to ? g->to->extra : 0);
}

void oversub_placed(struct sm *s, struct block_slot *b, uint32_t slot)
{
    struct oversub *o = to_of(s);
    b->order = o->order++;
    b->gen++;
    b->nfault = 0;
    b->ran = b->active;
    b->to_state = b->active ? TO_ACTIVE : TO_PARKED;
    *(b->active ? o->g_active : o->g_parked) += 1;
    if (!b->active) set_parked(s, slot, true);
    else schedule(s, engine_now(s->comp.eng));  /* nothing, unless a block waits */
}

void oversub_retired(struct sm *s, struct block_slot *b, sim_time now)
{
    struct oversub *o = to_of(s);
    *(b->to_state == TO_PARKED || b->to_state == TO_IN ? o->g_parked : o->g_active) -= 1;
    b->to_state = TO_PARKED;
    schedule(s, now);
}

void oversub_fault(struct sm *s, struct warp *w, int delta, sim_time now)
{
    struct block_slot *b = &s->b[w->block];
    b->nfault = (uint32_t)((int)b->nfault + delta);
    if ((delta > 0 && fault_stalled(b)) || (delta < 0 && ready(b))) schedule(s, now);
}

void oversub_check(struct sm *s, struct block_slot *b, sim_time now)
{
    if (fault_stalled(b)) schedule(s, now);
}

void gpu_set_oversub_extra(void *gpu, unsigned extra, sim_time now)
{
    struct gpu *g = gpu;
    if (!g->to) return;
    unsigned cap = g->to->nslots - g->lim.max_blocks;
    g->to->extra = extra < cap ? extra : cap;
    if (g->kernel_active) launch_dispatch(g, now);
}

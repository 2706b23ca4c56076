/* GPU cores, skeleton version.  Defaults: HPE Table I / GTX 480 (Fermi):
 * 15 SMs at 1.4 GHz, 48 warps, 8 blocks, 1536 threads and 32768 registers
 * per SM.  Each SM has one loose-round-robin scheduler issuing one warp
 * instruction per cycle; a warp waits for its memory instruction to finish
 * before its next one (one outstanding memory instruction per warp).
 *
 * A memory instruction is coalesced into distinct 128 B lines (with 32 B
 * sector masks) and distinct pages.  Each page is translated once; when its
 * translation returns, the lines on that page go to memory.  A page that
 * faults holds only the warps that touch it (replayable far faults). */
#include <stdlib.h>
#include <string.h>
#include "sm.h"
#include "../config.h"
#include "../stats.h"
#include "../mem_req.h"
#include "../../workloads/workload.h"

enum wstate { W_FREE, W_READY, W_COMPUTE, W_MEM, W_BARRIER, W_DONE };

struct warp {
    enum wstate st;
    uint32_t block;               /* block slot on this SM */
    sim_time ready_at;            /* W_COMPUTE */
    struct warp_ctx ctx;
    struct warp_inst inst;
    enum req_kind access;
    uint32_t npages, nlines, pending;
    uint64_t page_vpn[WARP_SIZE];
    uint64_t line_addr[WARP_SIZE];
    uint8_t line_mask[WARP_SIZE], line_page[WARP_SIZE];
};

struct block_slot {
    bool used;
    uint32_t nwarps, live, at_barrier, threads;
};

struct sm {
    struct component comp;
    char name[24];
    struct gpu *gpu;
    unsigned id;
    struct warp *w;
    struct block_slot *b;
    uint32_t used_warps, used_blocks, used_threads, used_regs, rr;
    struct mq xlate_resp, mem_resp;
    struct mq *xlate_out;
    struct mem_port mem_out;
    sim_time blocked_until;       /* no issue before this (shootdowns) */
    struct mem_req **outq;        /* requests waiting for a port */
    uint32_t out_cap, out_head, out_n;
};

struct gpu {
    struct engine *eng;
    const struct domain *dom;
    struct req_pool *pool;
    struct workload *wl;
    struct sm *sm;
    unsigned nsms, next_sm;
    uint32_t max_warps, max_blocks, max_threads, max_regs, lsu_width;
    sim_time launch_latency;
    struct wl_kernel k;
    bool kernel_active, program_done;
    uint64_t next_block, nblocks, blocks_done, kernels_done, k_insts;
    sim_time k_start;
    struct rec_table *kernels;
    uint64_t *warp_insts, *mem_insts, *lines, *xlates, *sm_insts, *n_kernels,
             *faults_seen;
};

const struct cfg_key gpu_config_keys[] = {
    {"gpu.sms", CFG_INT, "15", 1, 1024, NULL, "streaming multiprocessors (HPE Table I: 15)"},
    {"gpu.clock", CFG_FREQ, "1.4GHz", 1e6, 1e11, NULL, "SM core clock (HPE Table I: 1.4 GHz)"},
    {"gpu.sm.max_warps", CFG_INT, "48", 1, 1024, NULL, "resident warps per SM (Fermi: 48)"},
    {"gpu.sm.max_blocks", CFG_INT, "8", 1, 1024, NULL, "resident thread blocks per SM (Fermi: 8)"},
    {"gpu.sm.max_threads", CFG_INT, "1536", 32, 65536, NULL, "resident threads per SM (Fermi: 1536)"},
    {"gpu.sm.registers", CFG_INT, "32768", 1, 16777216, NULL, "32-bit registers per SM (Fermi: 32768)"},
    {"gpu.sm.lsu_width", CFG_INT, "1", 1, 64, NULL, "memory requests (translations or lines) an SM sends per cycle"},
    {"gpu.kernel_launch_latency", CFG_TIME, "0ns", 0, 1e12, NULL, "from one kernel's end to the next kernel's start"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* ---- kernel launch and block dispatch ---- */

static void launch_next(void *obj, uint64_t arg, sim_time now);

static uint32_t block_threads(const struct gpu *g)
{ return g->k.block.x * g->k.block.y * g->k.block.z; }

static bool fits(const struct gpu *g, const struct sm *s, uint32_t threads,
                 uint32_t warps, uint32_t regs)
{
    return s->used_blocks < g->max_blocks && s->used_warps + warps <= g->max_warps &&
           s->used_threads + threads <= g->max_threads && s->used_regs + regs <= g->max_regs;
}

static void place_block(struct gpu *g, struct sm *s, sim_time now)
{
    uint32_t threads = block_threads(g);
    uint32_t nw = (threads + WARP_SIZE - 1) / WARP_SIZE;
    uint32_t slot = 0;
    while (s->b[slot].used) slot++;
    s->b[slot] = (struct block_slot){ true, nw, nw, 0, threads };
    s->used_blocks++;
    s->used_warps += nw;
    s->used_threads += threads;
    s->used_regs += threads * g->k.regs_per_thread;
    uint64_t block = g->next_block++;
    for (uint32_t i = 0, wi = 0; i < nw; wi++) {
        struct warp *w = &s->w[wi];
        if (w->st != W_FREE) continue;
        w->st = W_READY;
        w->block = slot;
        w->ctx = (struct warp_ctx){ .k = &g->k, .block = block, .warp = i };
        uint32_t left = threads - i * WARP_SIZE;
        w->ctx.threads = left < WARP_SIZE ? left : WARP_SIZE;
        wl_warp_start(g->wl, &w->ctx);
        i++;
    }
    comp_wake(&s->comp, now);
}

/* Round-robin over SMs with room for one more block. */
static void dispatch(struct gpu *g, sim_time now)
{
    uint32_t threads = block_threads(g), warps = (threads + WARP_SIZE - 1) / WARP_SIZE;
    uint32_t regs = threads * g->k.regs_per_thread;
    unsigned tried = 0;
    while (g->next_block < g->nblocks && tried < g->nsms) {
        struct sm *s = &g->sm[g->next_sm];
        g->next_sm = (g->next_sm + 1) % g->nsms;
        if (fits(g, s, threads, warps, regs)) { place_block(g, s, now); tried = 0; }
        else tried++;
    }
}

static void kernel_end(struct gpu *g, sim_time now)
{
    uint64_t seq = g->k.seq, start = g->k_start, end = now, blocks = g->nblocks,
             gx = g->k.grid.x, gy = g->k.grid.y, gz = g->k.grid.z,
             bx = g->k.block.x, by = g->k.block.y, bz = g->k.block.z;
    const void *row[] = { &seq, g->k.name, &start, &end, &gx, &gy, &gz,
                          &bx, &by, &bz, &blocks, &g->k_insts };
    rec_append(g->kernels, row);
    g->kernel_active = false;
    g->kernels_done++;
    *g->n_kernels += 1;
    engine_at(g->eng, now + g->launch_latency, g->dom, launch_next, g, 0);
}

static void launch_next(void *obj, uint64_t arg, sim_time now)
{
    struct gpu *g = obj;
    (void)arg;
    if (!wl_next_kernel(g->wl, &g->k)) { g->program_done = true; return; }
    uint32_t threads = block_threads(g);
    uint32_t warps = (threads + WARP_SIZE - 1) / WARP_SIZE;
    if (!fits(g, &(struct sm){0}, threads, warps, threads * g->k.regs_per_thread))
        user_error("kernel '%s': a block of %u threads does not fit on an SM "
                   "(gpu.sm.max_threads/max_warps/registers)", g->k.name, threads);
    g->kernel_active = true;
    g->nblocks = (uint64_t)g->k.grid.x * g->k.grid.y * g->k.grid.z;
    g->next_block = g->blocks_done = g->k_insts = 0;
    g->k_start = now;
    dispatch(g, now);
}

static void retire_block(struct sm *s, struct block_slot *b, sim_time now)
{
    struct gpu *g = s->gpu;
    for (uint32_t i = 0; i < g->max_warps; i++)
        if (s->w[i].st == W_DONE && s->w[i].block == (uint32_t)(b - s->b))
            s->w[i].st = W_FREE;
    s->used_blocks--;
    s->used_warps -= b->nwarps;
    s->used_threads -= b->threads;
    s->used_regs -= b->threads * g->k.regs_per_thread;
    b->used = false;
    if (++g->blocks_done == g->nblocks) kernel_end(g, now);
    else dispatch(g, now);
}

/* ---- issue ---- */

static void out_push(struct sm *s, struct mem_req *r)
{
    SIM_ASSERT(s->out_n < s->out_cap, s->name, engine_now(s->comp.eng), "outbound queue overflow");
    s->outq[(s->out_head + s->out_n++) % s->out_cap] = r;
}

static uint8_t find_or_add(uint64_t *v, uint32_t *n, uint64_t x)
{
    for (uint32_t i = 0; i < *n; i++) if (v[i] == x) return (uint8_t)i;
    v[*n] = x;
    return (uint8_t)(*n)++;
}

static void coalesce(struct sm *s, struct warp *w, sim_time now)
{
    w->npages = w->nlines = 0;
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        if (!(w->inst.active >> l & 1)) continue;
        uint64_t a = w->inst.addr[l];
        uint64_t line = a >> LINE_SHIFT << LINE_SHIFT;
        uint32_t before = w->nlines;
        uint8_t li = find_or_add(w->line_addr, &w->nlines, line);
        if (w->nlines != before) {
            w->line_mask[li] = 0;
            w->line_page[li] = find_or_add(w->page_vpn, &w->npages, page_of(a));
        }
        w->line_mask[li] |= (uint8_t)(1u << ((a & (LINE_SIZE - 1)) / SECTOR_SIZE));
    }
    w->pending = w->npages + w->nlines;
    for (uint32_t p = 0; p < w->npages; p++) {
        struct mem_req *r = req_alloc(s->gpu->pool);
        r->kind = REQ_XLATE;
        r->access = w->access;
        r->vaddr = w->page_vpn[p] << PAGE_SHIFT;
        r->sm = (uint16_t)s->id;
        r->warp = (uint32_t)(w - s->w);
        r->slot = p;
        r->t_issue = now;
        r->reply = &s->xlate_resp;
        out_push(s, r);
    }
    *s->gpu->mem_insts += 1;
    *s->gpu->xlates += w->npages;
    *s->gpu->lines += w->nlines;
}

static void barrier_release(struct sm *s, struct block_slot *b)
{
    if (!b->at_barrier || b->at_barrier < b->live) return;
    for (uint32_t i = 0; i < s->gpu->max_warps; i++)
        if (s->w[i].st == W_BARRIER && &s->b[s->w[i].block] == b) s->w[i].st = W_READY;
    b->at_barrier = 0;
}

static void issue(struct sm *s, struct warp *w, sim_time now)
{
    struct gpu *g = s->gpu;
    wl_next_inst(g->wl, &w->ctx, &w->inst);
    *g->warp_insts += 1;
    g->sm_insts[s->id] += 1;
    g->k_insts++;
    struct block_slot *b = &s->b[w->block];
    switch (w->inst.op) {
    case INST_COMPUTE:
        w->st = W_COMPUTE;
        w->ready_at = now + (sim_time)(w->inst.cycles ? w->inst.cycles : 1) * s->comp.dom->period;
        break;
    case INST_LOAD: case INST_STORE: case INST_ATOMIC:
        w->access = w->inst.op == INST_LOAD ? REQ_LOAD
                  : w->inst.op == INST_STORE ? REQ_STORE : REQ_ATOMIC;
        w->st = W_MEM;
        coalesce(s, w, now);
        if (!w->pending) w->st = W_READY;
        break;
    case INST_BARRIER:
        w->st = W_BARRIER;
        b->at_barrier++;
        barrier_release(s, b);
        break;
    case INST_EXIT:
        w->st = W_DONE;
        b->live--;
        engine_progress(s->comp.eng);
        barrier_release(s, b);
        if (!b->live) retire_block(s, b, now);
        break;
    }
}

/* Loose round robin: the first ready warp after the last one issued. */
static struct warp *pick(struct sm *s, sim_time now)
{
    uint32_t n = s->gpu->max_warps;
    for (uint32_t k = 1; k <= n; k++) {
        struct warp *w = &s->w[(s->rr + k) % n];
        if (w->st == W_COMPUTE && w->ready_at <= now) w->st = W_READY;
        if (w->st == W_READY) { s->rr = (uint32_t)(w - s->w); return w; }
    }
    return NULL;
}

/* ---- answers ---- */

static void translated(struct sm *s, struct mem_req *r, sim_time now)
{
    struct warp *w = &s->w[r->warp];
    uint64_t frame = r->paddr >> PAGE_SHIFT << PAGE_SHIFT;
    for (uint32_t l = 0; l < w->nlines; l++) {
        if (w->line_page[l] != r->slot) continue;
        struct mem_req *m = req_alloc(s->gpu->pool);
        m->kind = w->access;
        m->vaddr = w->line_addr[l];
        m->paddr = frame | (w->line_addr[l] & (PAGE_SIZE - 1));
        m->sector_mask = w->line_mask[l];
        m->size = (uint32_t)__builtin_popcount(m->sector_mask) * SECTOR_SIZE;
        m->sm = (uint16_t)s->id;
        m->warp = r->warp;
        m->slot = l;
        m->t_issue = now;
        m->reply = &s->mem_resp;
        out_push(s, m);
    }
    req_release(s->gpu->pool, r);
    w->pending--;
}

static void completed(struct sm *s, struct mem_req *r)
{
    struct warp *w = &s->w[r->warp];
    req_release(s->gpu->pool, r);
    if (--w->pending == 0) {
        w->st = W_READY;
        engine_progress(s->comp.eng);
    }
}

static sim_time sm_tick(struct component *c, sim_time now)
{
    struct sm *s = (struct sm *)c;
    struct mem_req *r;
    while ((r = mq_pop(&s->xlate_resp, now))) translated(s, r, now);
    while ((r = mq_pop(&s->mem_resp, now))) completed(s, r);
    bool blocked = false;
    for (uint32_t i = 0; i < s->gpu->lsu_width && s->out_n; i++) {
        r = s->outq[s->out_head];
        struct mq *q = r->kind == REQ_XLATE ? s->xlate_out
                                            : port_route(&s->mem_out, r->paddr);
        if (!mq_push(q, r, now, c)) { blocked = true; break; }
        s->out_head = (s->out_head + 1) % s->out_cap;
        s->out_n--;
    }
    if (now < s->blocked_until) return s->blocked_until;
    struct warp *w = pick(s, now);
    if (w) issue(s, w, now);
    /* Tick next cycle while something can issue; otherwise sleep until the
     * earliest compute finishes (answers and freed queue slots wake us). */
    if ((s->out_n && !blocked)) return now + c->dom->period;
    sim_time next = TIME_NEVER;
    for (uint32_t i = 0; i < s->gpu->max_warps; i++) {
        const struct warp *x = &s->w[i];
        if (x->st == W_READY) return now + c->dom->period;
        if (x->st == W_COMPUTE && x->ready_at < next) next = x->ready_at;
    }
    return next <= now ? now + c->dom->period : next;
}

static const char *wstate_name(enum wstate st)
{
    static const char *const n[] = {"free", "ready", "compute", "memory", "barrier", "done"};
    return n[st];
}

static void sm_dump(struct component *c, FILE *out)
{
    struct sm *s = (struct sm *)c;
    fprintf(out, "    %u blocks, %u warps resident; %u requests waiting for a port\n",
            s->used_blocks, s->used_warps, s->out_n);
    for (uint32_t i = 0; i < s->gpu->max_warps; i++) {
        const struct warp *w = &s->w[i];
        if (w->st == W_FREE || w->st == W_DONE || w->st == W_READY) continue;
        fprintf(out, "    warp %u (block %llu, warp %u): %s", i,
                (unsigned long long)w->ctx.block, w->ctx.warp, wstate_name(w->st));
        if (w->st == W_MEM)
            fprintf(out, ", %u requests outstanding for %u pages / %u lines, first page %#llx",
                    w->pending, w->npages, w->nlines,
                    (unsigned long long)(w->npages ? w->page_vpn[0] : 0));
        fputc('\n', out);
    }
}

static const struct comp_ops sm_ops = { sm_tick, sm_dump };

struct gpu *gpu_create(struct engine *e, const struct config *cfg,
                       struct stats *st, struct req_pool *pool,
                       const struct domain *dom, struct workload *wl)
{
    static const struct rec_field kfields[] = {
        {"seq", REC_U64, ""}, {"name", REC_STR32, ""},
        {"start_ps", REC_U64, "ps"}, {"end_ps", REC_U64, "ps"},
        {"grid_x", REC_U64, ""}, {"grid_y", REC_U64, ""}, {"grid_z", REC_U64, ""},
        {"block_x", REC_U64, ""}, {"block_y", REC_U64, ""}, {"block_z", REC_U64, ""},
        {"blocks", REC_U64, "blocks"}, {"warp_insts", REC_U64, "instructions"},
    };
    struct gpu *g = xcalloc(1, sizeof *g);
    g->eng = e;
    g->dom = dom;
    g->pool = pool;
    g->wl = wl;
    g->nsms = (unsigned)cfg_u64(cfg, "gpu.sms");
    g->max_warps = (uint32_t)cfg_u64(cfg, "gpu.sm.max_warps");
    g->max_blocks = (uint32_t)cfg_u64(cfg, "gpu.sm.max_blocks");
    g->max_threads = (uint32_t)cfg_u64(cfg, "gpu.sm.max_threads");
    g->max_regs = (uint32_t)cfg_u64(cfg, "gpu.sm.registers");
    g->lsu_width = (uint32_t)cfg_u64(cfg, "gpu.sm.lsu_width");
    g->launch_latency = cfg_u64(cfg, "gpu.kernel_launch_latency");
    g->kernels = stat_table(st, "kernels", "one row per kernel launch", kfields,
                            sizeof kfields / sizeof kfields[0]);
    g->n_kernels = stat_counter(st, "gpu.kernels", "kernels", "kernels completed");
    g->warp_insts = stat_counter(st, "gpu.warp_insts", "instructions", "warp instructions issued, all SMs");
    g->mem_insts = stat_counter(st, "gpu.mem_insts", "instructions", "warp memory instructions issued");
    g->xlates = stat_counter(st, "gpu.xlate_reqs", "requests", "translation requests (distinct pages per memory instruction)");
    g->lines = stat_counter(st, "gpu.line_reqs", "requests", "line requests (distinct 128 B lines per memory instruction)");
    g->faults_seen = stat_vector(st, "sm.faults", g->nsms, "faults",
                                 "translation faults raised on behalf of each SM");
    g->sm_insts = stat_vector(st, "sm.warp_insts", g->nsms, "instructions", "warp instructions issued per SM");
    g->sm = xcalloc(g->nsms, sizeof *g->sm);
    for (unsigned i = 0; i < g->nsms; i++) {
        struct sm *s = &g->sm[i];
        snprintf(s->name, sizeof s->name, "sm.%u", i);
        s->gpu = g;
        s->id = i;
        s->w = xcalloc(g->max_warps, sizeof *s->w);
        s->b = xcalloc(g->max_blocks, sizeof *s->b);
        s->out_cap = g->max_warps * 2 * WARP_SIZE;
        s->outq = xcalloc(s->out_cap, sizeof *s->outq);
        comp_init(&s->comp, e, &sm_ops, s->name, dom);
        /* Answer queues hold everything the SM can have in flight. */
        mq_init(&s->xlate_resp, s->name, g->max_warps * WARP_SIZE, 0, &s->comp);
        mq_init(&s->mem_resp, s->name, g->max_warps * WARP_SIZE, 0, &s->comp);
    }
    return g;
}

void gpu_free(struct gpu *g)
{
    if (!g) return;
    for (unsigned i = 0; i < g->nsms; i++) {
        struct sm *s = &g->sm[i];
        free(s->w);
        free(s->b);
        free(s->outq);
        mq_free(&s->xlate_resp);
        mq_free(&s->mem_resp);
    }
    free(g->sm);
    free(g);
}

unsigned gpu_num_sms(const struct gpu *g) { return g->nsms; }

void gpu_set_ports(struct gpu *g, unsigned sm, struct mq *xlate_out, struct mem_port mem_out)
{
    g->sm[sm].xlate_out = xlate_out;
    g->sm[sm].mem_out = mem_out;
}

void gpu_start(struct gpu *g, sim_time now) { launch_next(g, 0, now); }
bool gpu_busy(const struct gpu *g) { return !g->program_done; }
uint64_t gpu_kernels_done(const struct gpu *g) { return g->kernels_done; }

void gpu_block_issue(struct gpu *g, unsigned sm, sim_time until)
{
    struct sm *s = &g->sm[sm];
    if (until > s->blocked_until) s->blocked_until = until;
    comp_wake_at(&s->comp, until);
}

void gpu_note_fault(void *gpu, unsigned sm, uint64_t vpn, sim_time now)
{
    struct gpu *g = gpu;
    (void)vpn;
    (void)now;
    g->faults_seen[sm] += 1;
}

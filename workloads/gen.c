/* Per-thread kernel machinery and fixed programs (see gen.h). */
#include <stdlib.h>
#include <string.h>
#include "gen.h"

void wl_prog_kernel(struct wl_prog *p, const char *name, uint32_t id,
                    struct dim3 grid, struct dim3 block, uint32_t regs,
                    uint32_t smem)
{
    SIM_ASSERT(p->n < 16, "workload", 0, "program longer than 16 steps");
    struct wl_step *s = &p->s[p->n++];
    memset(s, 0, sizeof *s);
    s->kind = WL_STEP_KERNEL;
    snprintf(s->kernel.name, sizeof s->kernel.name, "%s", name);
    s->kernel.id = id;
    s->kernel.grid = grid;
    s->kernel.block = block;
    s->kernel.regs_per_thread = regs;
    s->kernel.smem_per_block = smem;
}

void wl_prog_host(struct wl_prog *p, enum wl_step_kind kind, uint32_t alloc,
                  uint64_t offset, uint64_t bytes, enum wl_dir dir,
                  enum wl_advice advice)
{
    SIM_ASSERT(p->n < 16, "workload", 0, "program longer than 16 steps");
    struct wl_step *s = &p->s[p->n++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->host = (struct wl_host_step){ alloc, offset, bytes, dir, advice, false };
}

void wl_prog_loop(struct wl_prog *p, uint32_t from, uint64_t iters)
{
    p->loop_from = from;
    p->loop_to = p->n;
    p->iters = iters;
}

bool wl_prog_next(struct wl_prog *p, struct wl_step *out)
{
    bool body = p->loop_to > p->loop_from;
    if (body && p->pc == p->loop_from && p->iters == 0) p->pc = p->loop_to;
    if (body && p->pc == p->loop_to && p->it + 1 < p->iters) {
        p->it++;
        p->pc = p->loop_from;
    }
    if (p->pc >= p->n) return false;
    bool in_loop = body && p->pc >= p->loop_from && p->pc < p->loop_to;
    *out = p->s[p->pc++];
    if (out->kind == WL_STEP_KERNEL) out->kernel.arg = in_loop ? p->it : 0;
    return true;
}

bool wl_simple_next_step(void *impl, struct wl_step *out)
{
    return wl_prog_next(&((struct wl_simple *)impl)->prog, out);
}

/* s[0] position; s[1] nonzero once the compute ahead of the position's op
 * is issued: that op, pending (below); s[2] positions; s[3] lanes whose
 * thread has not finished (wl_top.done). */
void wl_simple_warp_start(void *impl, struct warp_ctx *w)
{
    struct wl_simple *g = impl;
    w->s[0] = w->s[1] = 0;
    w->s[3] = w->threads >= WARP_SIZE ? UINT32_MAX : (1u << w->threads) - 1;
    w->s[2] = g->npos(impl, w);
}

/* The op of a position whose compute went first: its kind, cycles and
 * lane mask in s[1]; its addresses and size are still in `out` (the
 * caller hands a warp the same warp_inst each time, workload.h). */
#define PEND_FLAG (1ULL << 63)
static inline uint64_t pend_pack(enum inst_op kind, uint32_t cycles, uint32_t active)
{ return PEND_FLAG | (uint64_t)kind << 56 | (uint64_t)(cycles & 0xffffff) << 32 | active; }

void wl_simple_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *out)
{
    struct wl_simple *g = impl;
    if (w->s[1]) {
        uint64_t p = w->s[1];
        enum inst_op kind = (enum inst_op)(p >> 56 & 0x7f);
        uint32_t cycles = (uint32_t)(p >> 32 & 0xffffff);
        w->s[0]++;
        w->s[1] = 0;
        out->active = (uint32_t)p;
        out->op = kind;
        out->cycles = kind == INST_COMPUTE ? (cycles ? cycles : 1) : 0;
        return;
    }
    uint32_t live = (uint32_t)w->s[3];
    struct wl_thread t[WARP_SIZE];
    struct wl_top op;
    if (live) wl_threads_of(w, w->threads, t);
    for (; live && w->s[0] < w->s[2]; w->s[0]++) {
        uint32_t active = 0, cycles = 0;
        enum inst_op kind = INST_EXIT;
        for (uint32_t m = live; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            op.done = false;
            if (!g->lane(impl, w, &t[l], w->s[0], &op)) {
                if (op.done) live &= ~(1u << l);
                continue;
            }
            SIM_ASSERT(!active || op.op == kind, "workload", 0,
                       "kernel %s: lanes disagree on the op at position %llu",
                       w->k->name, (unsigned long long)w->s[0]);
            kind = op.op;
            active |= 1u << l;
            out->addr[l] = op.addr;
            out->size = op.size;
            if (op.compute > cycles) cycles = op.compute;
        }
        if (!active) continue;
        w->s[3] = live;
        SIM_ASSERT(cycles <= 0xffffff, "workload", 0, "kernel %s: %u compute cycles "
                   "ahead of one op", w->k->name, cycles);
        if (cycles) {
            w->s[1] = pend_pack(kind, cycles, active);
            out->op = INST_COMPUTE;
            out->active = active;
            out->cycles = cycles;
            return;
        }
        w->s[0]++;
        out->active = active;
        out->op = kind;
        out->cycles = kind == INST_COMPUTE ? 1 : 0;
        return;
    }
    w->s[3] = live;
    out->op = INST_EXIT;
    out->active = 0;
}

void wl_simple_destroy(void *impl) { free(impl); }

uint64_t wl_seed(const struct config *cfg, uint64_t salt)
{
    return wl_mix(cfg_u64(cfg, "sim.seed") ^ wl_mix(salt));
}

/* Per-thread kernel machinery and fixed programs (see gen.h). */
#include <stdlib.h>
#include <string.h>
#include "gen.h"

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

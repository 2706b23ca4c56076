/* The SIMT lane machinery of graph.h: warps built from per-thread
 * coroutines, issued with min-PC reconvergence. */
#include <stdlib.h>
#include <string.h>
#include "graph.h"

static uint32_t slab_get(struct gk_slab *s)
{
    if (s->free) {                      /* free list: index + 1, 0 = empty */
        uint32_t i = s->free - 1;
        s->free = s->w[i].next_free;
        return i;
    }
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->w = xrealloc(s->w, s->cap * sizeof *s->w);
    }
    return s->n++;
}

void gk_warp_start(struct gk_slab *s, void *impl, gk_thread_fn fn,
                   struct warp_ctx *w)
{
    uint32_t i = slab_get(s);
    struct gk_warp *gw = &s->w[i];
    const struct dim3 b = w->k->block;
    uint64_t first = w->block * ((uint64_t)b.x * b.y * b.z) + (uint64_t)w->warp * WARP_SIZE;
    for (uint32_t l = 0; l < WARP_SIZE; l++) {
        struct gk_lane *L = &gw->lane[l];
        memset(L, 0, sizeof *L);
        L->tid = first + l;
        if (l < w->threads) fn(impl, L);
        else L->pc = GK_DONE;
    }
    w->s[0] = i;
}

void gk_next_inst(struct gk_slab *s, void *impl, gk_thread_fn fn,
                  struct warp_ctx *w, struct warp_inst *out)
{
    struct gk_warp *gw = &s->w[w->s[0]];
    for (;;) {
        uint32_t pc = GK_DONE;
        for (uint32_t l = 0; l < WARP_SIZE; l++)
            if (gw->lane[l].pc < pc) pc = gw->lane[l].pc;
        if (pc == GK_DONE) {
            gw->next_free = s->free;
            s->free = (uint32_t)w->s[0] + 1;
            out->op = INST_EXIT;
            out->active = 0;
            return;
        }
        out->active = 0;
        for (uint32_t l = 0; l < WARP_SIZE; l++) {
            struct gk_lane *L = &gw->lane[l];
            if (L->pc != pc) continue;
            if (L->on) {
                out->active |= 1u << l;
                out->op = (enum inst_op)L->op;
                out->size = L->size;
                out->addr[l] = L->addr;
            }
            fn(impl, L);
        }
        if (out->active) { out->cycles = 0; return; }
    }
}

void gk_slab_free(struct gk_slab *s)
{
    free(s->w);
    memset(s, 0, sizeof *s);
}

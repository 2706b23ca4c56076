/* The SIMT lane machinery of graph.h: warps built from per-thread
 * coroutines, issued with min-PC reconvergence. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "graph.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include "config/config.h"

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

/* The smallest resume point and the lanes at it (min-PC reconvergence). */
static void find_min(struct gk_warp *gw)
{
    uint32_t mn = GK_DONE, mask = 0;
    for (uint32_t l = 0; l < WARP_SIZE; l++) mn = gw->pc[l] < mn ? gw->pc[l] : mn;
#ifdef __SSE2__
    /* Four lanes per compare: the scalar loop's shifts were a third of
     * this function's samples. */
    __m128i want = _mm_set1_epi32((int)mn);
    for (uint32_t l = 0; l < WARP_SIZE; l += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)&gw->pc[l]);
        mask |= (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, want))) << l;
    }
#else
    for (uint32_t l = 0; l < WARP_SIZE; l++) mask |= (uint32_t)(gw->pc[l] == mn) << l;
#endif
    gw->min_pc = mn;
    gw->at_min = mask;
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
        gw->pc[l] = L->pc;
    }
    find_min(gw);
    w->s[0] = i;
}

void gk_next_inst(struct gk_slab *s, void *impl, gk_thread_fn fn,
                  struct warp_ctx *w, struct warp_inst *out)
{
    struct gk_warp *gw = &s->w[w->s[0]];
    for (;;) {
        if (gw->min_pc == GK_DONE) {
            gw->next_free = s->free;
            s->free = (uint32_t)w->s[0] + 1;
            out->op = INST_EXIT;
            out->active = 0;
            return;
        }
        out->active = 0;
        /* The lanes at the smallest pc, in ascending order (each step of a
         * lane moves only its own pc, and only forward). */
        for (uint32_t m = gw->at_min; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            struct gk_lane *L = &gw->lane[l];
            if (L->on) {
                out->active |= 1u << l;
                out->op = (enum inst_op)L->op;
                out->size = L->size;
                out->addr[l] = L->addr;
            }
            fn(impl, L);
            gw->pc[l] = L->pc;
        }
        find_min(gw);
        if (out->active) { out->cycles = 0; return; }
    }
}

void gk_slab_free(struct gk_slab *s)
{
    free(s->w);
    memset(s, 0, sizeof *s);
}

void gk_base_init(struct gk_base *b, const struct config *cfg)
{
    memset(b, 0, sizeof *b);
    b->g = graph_load(cfg);
    b->root = graph_root(cfg, b->g);
    b->maxb = (uint32_t)cfg_u64(cfg, "workload.graph.block");
}

void gk_base_free(struct gk_base *b)
{
    graph_free(b->g);
    gk_slab_free(&b->slab);
}

void gk_alloc(struct workload *wl, struct gk_base *b, int slot, const char *name,
              uint64_t bytes, enum wl_place place)
{
    b->ai[slot] = (uint32_t)wl->nallocs;
    b->a[slot] = wl_add_alloc_hint(wl, name, bytes ? bytes : 1, place, 0);
}

void gk_alloc_csr(struct workload *wl, struct gk_base *b)
{
    gk_alloc(wl, b, GK_VL, "vertexlist", (b->g->nv + 1) * 8, WL_PLACE_HOST);
    gk_alloc(wl, b, GK_EL, "edgelist", b->g->ne * 8, WL_PLACE_HOST);
}

void gk_kernel_step(struct gk_base *b, struct wl_step *out, uint32_t id,
                    const char *name, uint64_t threads, uint64_t arg)
{
    out->kind = WL_STEP_KERNEL;
    struct wl_kernel *k = &out->kernel;
    snprintf(k->name, sizeof k->name, "%s", name);
    gk_shape(k, threads, b->maxb);
    k->id = id;
    k->arg = arg;
    k->regs_per_thread = 16;
    b->k = *k;
}

void gk_memcpy_step(struct gk_base *b, struct wl_step *out, int slot, uint64_t off,
                    uint64_t bytes, enum wl_dir dir)
{
    out->kind = WL_STEP_MEMCPY;
    out->host = (struct wl_host_step){ .alloc = b->ai[slot], .offset = off,
                                       .bytes = bytes, .dir = dir };
}

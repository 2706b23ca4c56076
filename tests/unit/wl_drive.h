/* Test helper: runs a workload's whole program the way an SM front end
 * would (every kernel, every block, every warp until EXIT), in a chosen warp
 * order, and records what the tests check: kernels by name, host steps, a
 * hash of every warp's instruction stream, the pages each allocation had
 * touched, and that every access stays inside an allocation. */
#ifndef UVMSIM_TEST_WL_DRIVE_H
#define UVMSIM_TEST_WL_DRIVE_H

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "workloads/workload.h"

#define DRIVE_PAGE 4096ULL
#define DRIVE_MAX_KERNELS 4096

enum drive_order { ORDER_FORWARD, ORDER_REVERSE, ORDER_INTERLEAVED };

struct drive {
    uint64_t nkernels, nhost, insts;
    char names[DRIVE_MAX_KERNELS][32];
    uint64_t *hash;                 /* per warp, in (kernel, block, warp) order */
    uint64_t nhash, caphash;
    uint8_t *touched[WL_MAX_ALLOCS];    /* page bitmap per allocation */
    uint64_t lanes[WL_MAX_ALLOCS][INST_EXIT + 1];   /* active lanes by op */
};

static inline struct config *drive_config(const char *const *sets, size_t n)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    if (!c) ck_abort_msg("config: %s", err.msg);
    return c;
}

static inline uint64_t drive_mix(uint64_t h, uint64_t x)
{
    h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0x100000001b3ULL;
}

static inline void drive_inst(struct drive *d, const struct workload *wl,
                              const struct warp_inst *in, uint64_t *h)
{
    d->insts++;
    *h = drive_mix(*h, in->op);
    if (in->op < INST_LOAD || in->op > INST_ATOMIC) return;
    *h = drive_mix(*h, in->active);
    *h = drive_mix(*h, in->size);
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(in->active >> l & 1)) continue;
        uint64_t a = in->addr[l];
        *h = drive_mix(*h, a);
        size_t i = 0;
        while (i < wl->nallocs && !(a >= wl->allocs[i].base &&
                                    a + in->size <= wl->allocs[i].base + wl->allocs[i].size))
            i++;
        /* plain if: every ck_assert writes to Check's pipe */
        if (i == wl->nallocs)
            ck_abort_msg("address 0x%llx (+%u) outside every allocation",
                         (unsigned long long)a, in->size);
        d->lanes[i][in->op]++;
        uint64_t p = (a - wl->allocs[i].base) / DRIVE_PAGE;
        d->touched[i][p >> 3] |= (uint8_t)(1u << (p & 7));
    }
}

static inline void drive_kernel(struct drive *d, struct workload *wl,
                                const struct wl_kernel *k, enum drive_order order)
{
    uint64_t nb = (uint64_t)k->grid.x * k->grid.y * k->grid.z;
    uint32_t threads = k->block.x * k->block.y * k->block.z;
    uint32_t wpb = (threads + WARP_SIZE - 1) / WARP_SIZE;
    uint64_t nw = nb * wpb;
    struct warp_ctx *w = calloc(nw, sizeof *w);
    bool *done = calloc(nw, 1);
    if (d->nhash + nw > d->caphash) {
        d->caphash = 2 * (d->nhash + nw);
        d->hash = realloc(d->hash, d->caphash * sizeof *d->hash);
    }
    uint64_t *h = d->hash + d->nhash;
    for (uint64_t i = 0; i < nw; i++) {
        uint64_t j = order == ORDER_REVERSE ? nw - 1 - i : i;
        w[j] = (struct warp_ctx){ .k = k, .block = j / wpb, .warp = (uint32_t)(j % wpb) };
        uint32_t left = threads - w[j].warp * WARP_SIZE;
        w[j].threads = left < WARP_SIZE ? left : WARP_SIZE;
        h[j] = 0;
        wl_warp_start(wl, &w[j]);
    }
    struct warp_inst in;
    uint64_t live = nw;
    while (live) {
        for (uint64_t i = 0; i < nw; i++) {
            uint64_t j = order == ORDER_REVERSE ? nw - 1 - i : i;
            if (done[j]) continue;
            do {
                memset(&in, 0, sizeof in);
                wl_next_inst(wl, &w[j], &in);
                drive_inst(d, wl, &in, &h[j]);
            } while (in.op != INST_EXIT && order != ORDER_INTERLEAVED);
            if (in.op == INST_EXIT) { done[j] = true; live--; }
        }
    }
    d->nhash += nw;
    free(w);
    free(done);
}

/* Runs the whole program of the workload configured by SETS. */
static inline struct workload *drive_run(struct drive *d, const char *const *sets,
                                         size_t n, enum drive_order order)
{
    memset(d, 0, sizeof *d);
    struct config *c = drive_config(sets, n);
    struct workload *wl = workload_create(c);
    config_free(c);
    for (size_t i = 0; i < wl->nallocs; i++)
        d->touched[i] = calloc(wl->allocs[i].size / DRIVE_PAGE / 8 + 2, 1);
    struct wl_step st;
    while (wl_next_step(wl, &st)) {
        if (st.kind != WL_STEP_KERNEL) { d->nhost++; continue; }
        ck_assert_uint_lt(d->nkernels, DRIVE_MAX_KERNELS);
        strcpy(d->names[d->nkernels++], st.kernel.name);
        drive_kernel(d, wl, &st.kernel, order);
    }
    return wl;
}

static inline uint64_t drive_pages(const struct drive *d, size_t alloc, uint64_t size)
{
    uint64_t n = 0;
    for (uint64_t p = 0; p < (size + DRIVE_PAGE - 1) / DRIVE_PAGE; p++)
        n += d->touched[alloc][p >> 3] >> (p & 7) & 1;
    return n;
}

static inline uint64_t drive_count(const struct drive *d, const char *name)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < d->nkernels; i++) n += !strcmp(d->names[i], name);
    return n;
}

static inline void drive_free(struct drive *d, struct workload *wl)
{
    for (size_t i = 0; i < WL_MAX_ALLOCS; i++) free(d->touched[i]);
    free(d->hash);
    workload_free(wl);
}

#endif

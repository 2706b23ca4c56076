/* Runs workload generators standalone (no timing): every warp of every
 * kernel, or one thread's memory-op sequence, for the workload tests. */
#ifndef UVMSIM_TEST_WL_HARNESS_H
#define UVMSIM_TEST_WL_HARNESS_H

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "workloads/workload.h"

#define NSETS(a) (sizeof a / sizeof a[0])

struct wlh {
    struct config *cfg;
    struct workload *wl;
};

static inline struct wlh wlh_open(const char *const *sets, size_t n)
{
    struct cfg_error err;
    struct wlh h;
    h.cfg = config_load(NULL, sets, n, &err);
    if (!h.cfg) ck_abort_msg("config: %s", err.msg);
    h.wl = workload_create(h.cfg);
    return h;
}

static inline void wlh_close(struct wlh *h)
{
    workload_free(h->wl);
    config_free(h->cfg);
}

static inline uint64_t wlh_pages(uint64_t bytes) { return (bytes + 4095) / 4096; }

static inline void wlh_ctx(struct warp_ctx *c, const struct wl_kernel *k,
                           uint64_t block, uint32_t warp)
{
    uint32_t threads = k->block.x * k->block.y * k->block.z;
    memset(c, 0, sizeof *c);
    c->k = k;
    c->block = block;
    c->warp = warp;
    uint32_t left = threads - warp * WARP_SIZE;
    c->threads = left < WARP_SIZE ? left : WARP_SIZE;
}

/* Every warp of every kernel: returns the number of distinct 4 KiB pages
 * touched, checks every access lies inside an allocation, and folds the
 * whole stream into *hash (when non-NULL) and counts kernels. */
struct wlh_run { uint64_t pages, kernels, insts, mem_insts, hash; };

static inline struct wlh_run wlh_run_all(struct workload *wl)
{
    struct wlh_run r = {0, 0, 0, 0, 1469598103934665603ULL};
    const struct wl_alloc *last = &wl->allocs[wl->nallocs - 1];
    uint64_t span = (last->base + last->size - WL_VA_BASE + 4095) / 4096;
    uint8_t *bits = calloc(span / 8 + 1, 1);
    struct wl_kernel k;
    struct warp_inst in;
    while (wl_next_kernel(wl, &k)) {
        r.kernels++;
        uint64_t nb = (uint64_t)k.grid.x * k.grid.y * k.grid.z;
        uint32_t threads = k.block.x * k.block.y * k.block.z;
        uint32_t nw = (threads + WARP_SIZE - 1) / WARP_SIZE;
        for (uint64_t b = 0; b < nb; b++)
            for (uint32_t wi = 0; wi < nw; wi++) {
                struct warp_ctx c;
                wlh_ctx(&c, &k, b, wi);
                wl_warp_start(wl, &c);
                for (;;) {
                    wl_next_inst(wl, &c, &in);
                    r.insts++;
                    r.hash = (r.hash ^ in.op) * 1099511628211ULL;
                    if (in.op == INST_EXIT) break;
                    if (in.op != INST_LOAD && in.op != INST_STORE && in.op != INST_ATOMIC)
                        continue;
                    r.mem_insts++;
                    for (uint32_t l = 0; l < WARP_SIZE; l++) {
                        if (!(in.active >> l & 1)) continue;
                        uint64_t a = in.addr[l];
                        r.hash = (r.hash ^ a) * 1099511628211ULL;
                        bool inside = false;
                        for (size_t i = 0; i < wl->nallocs; i++)
                            if (a >= wl->allocs[i].base &&
                                a + in.size <= wl->allocs[i].base + wl->allocs[i].size)
                                inside = true;
                        /* Check writes a record per passing assertion: test first. */
                        if (!inside) { ck_abort_msg("kernel %s block %llu warp %u lane %u: "
                                      "address %#llx outside every allocation", k.name,
                                      (unsigned long long)b, wi, l, (unsigned long long)a); }
                        uint64_t p = (a - WL_VA_BASE) / 4096;
                        if (!(bits[p / 8] >> (p % 8) & 1)) { bits[p / 8] |= (uint8_t)(1u << (p % 8)); r.pages++; }
                    }
                }
            }
    }
    free(bits);
    return r;
}

/* One thread's memory ops: (op, address - base of allocation ALLOC index
 * found by lookup) are recorded as op<<60 | (alloc<<48) | offset. */
#define WLH_REC(op, alloc, off) (((uint64_t)(op) << 60) | ((uint64_t)(alloc) << 48) | (off))

struct wlh_seq { uint64_t *v; size_t n, cap; };

static inline void wlh_push(struct wlh_seq *s, uint64_t x)
{
    if (s->n == s->cap) { s->cap = s->cap ? 2 * s->cap : 64; s->v = realloc(s->v, s->cap * 8); }
    s->v[s->n++] = x;
}

/* Memory ops of thread (block linear B, thread linear TID) in kernel KSEQ. */
static inline struct wlh_seq wlh_thread(struct workload *wl, uint64_t kseq,
                                        uint64_t b, uint32_t tid)
{
    struct wlh_seq s = {0};
    struct wl_kernel k;
    struct warp_inst in;
    uint64_t seq = 0;
    while (wl_next_kernel(wl, &k) && seq++ < kseq) {}
    ck_assert_uint_eq(k.seq, kseq);
    struct warp_ctx c;
    wlh_ctx(&c, &k, b, tid / WARP_SIZE);
    uint32_t lane = tid % WARP_SIZE;
    wl_warp_start(wl, &c);
    for (;;) {
        wl_next_inst(wl, &c, &in);
        if (in.op == INST_EXIT) break;
        if (!(in.active >> lane & 1)) continue;
        if (in.op == INST_BARRIER) { wlh_push(&s, WLH_REC(INST_BARRIER, 0, 0)); continue; }
        if (in.op == INST_COMPUTE) continue;
        uint64_t a = in.addr[lane];
        size_t i = 0;
        while (i < wl->nallocs && !(a >= wl->allocs[i].base && a < wl->allocs[i].base + wl->allocs[i].size)) i++;
        if (i == wl->nallocs) { ck_abort_msg("address %#llx outside every allocation", (unsigned long long)a); }
        wlh_push(&s, WLH_REC(in.op, i, a - wl->allocs[i].base));
    }
    return s;
}

static inline void wlh_seq_eq(const struct wlh_seq *got, const struct wlh_seq *want,
                              const char *what)
{
    size_t n = got->n < want->n ? got->n : want->n;
    for (size_t i = 0; i < n; i++)
        if (got->v[i] != want->v[i]) {
            ck_abort_msg("%s: op %zu is %#llx, loop nest says %#llx",
                         what, i, (unsigned long long)got->v[i], (unsigned long long)want->v[i]);
        }
    ck_assert_msg(got->n == want->n, "%s: %zu ops, loop nest has %zu", what, got->n, want->n);
}

/* Opens SETS, checks the kernel count and the distinct pages of the whole
 * program against the formula, and reopens it for the caller. */
static inline struct wlh open_check(const char *const *sets, size_t n, uint64_t pages,
                                    uint64_t kernels)
{
    struct wlh h = wlh_open(sets, n);
    struct wlh_run r = wlh_run_all(h.wl);
    ck_assert_uint_eq(r.kernels, kernels);
    ck_assert_uint_eq(r.pages, pages);
    wlh_close(&h);
    return wlh_open(sets, n);
}

/* Thread tid of `block` in launch kseq issues exactly `want` (consumed). */
static inline void check_thread(const char *const *sets, size_t n, uint64_t kseq,
                                uint64_t block, uint32_t tid, struct wlh_seq *want,
                                const char *what)
{
    struct wlh h = wlh_open(sets, n);
    struct wlh_seq got = wlh_thread(h.wl, kseq, block, tid);
    wlh_seq_eq(&got, want, what);
    free(got.v);
    free(want->v);
    memset(want, 0, sizeof *want);
    wlh_close(&h);
}

#define L(a, o) WLH_REC(INST_LOAD, a, (uint64_t)(o))
#define S(a, o) WLH_REC(INST_STORE, a, (uint64_t)(o))
#define A(a, o) WLH_REC(INST_ATOMIC, a, (uint64_t)(o))
#define BAR WLH_REC(INST_BARRIER, 0, 0)

#endif

/* Test helper: every thread of one kernel against a per-thread reference
 * (the kernel's loop nest transcribed in the test), in one pass over the
 * kernel's warps with each lane's ops split out. */
#ifndef UVMSIM_TEST_WL_THREADS_H
#define UVMSIM_TEST_WL_THREADS_H

#include "wl_harness.h"

typedef void (*wlt_ref_fn)(struct wlh_seq *s, uint64_t block, uint32_t tid);

static inline void wlt_all_threads_eq(const char *const *sets, size_t n, uint64_t kseq,
                                      wlt_ref_fn ref, const char *what)
{
    struct wlh h = wlh_open(sets, n);
    struct workload *wl = h.wl;
    struct wl_kernel k;
    uint64_t seq = 0;
    while (wl_next_kernel(wl, &k) && seq++ < kseq) {}
    ck_assert_uint_eq(k.seq, kseq);
    uint64_t nb = (uint64_t)k.grid.x * k.grid.y * k.grid.z;
    uint32_t threads = k.block.x * k.block.y * k.block.z;
    struct wlh_seq got[WARP_SIZE], want = {0};
    memset(got, 0, sizeof got);
    struct warp_inst in;
    for (uint64_t b = 0; b < nb; b++)
        for (uint32_t wi = 0; wi * WARP_SIZE < threads; wi++) {
            struct warp_ctx c;
            wlh_ctx(&c, &k, b, wi);
            for (uint32_t l = 0; l < WARP_SIZE; l++) got[l].n = 0;
            wl_warp_start(wl, &c);
            for (;;) {
                wl_next_inst(wl, &c, &in);
                if (in.op == INST_EXIT) break;
                if (in.op == INST_COMPUTE) continue;
                for (uint32_t l = 0; l < c.threads; l++) {
                    if (!(in.active >> l & 1)) continue;
                    if (in.op == INST_BARRIER) { wlh_push(&got[l], BAR); continue; }
                    size_t i = 0;
                    while (i < wl->nallocs && !(in.addr[l] >= wl->allocs[i].base &&
                           in.addr[l] + in.size <= wl->allocs[i].base + wl->allocs[i].size)) i++;
                    /* Check writes a record per passing assertion: test first. */
                    if (i == wl->nallocs) { ck_abort_msg("%s: address outside every allocation", what); }
                    wlh_push(&got[l], WLH_REC(in.op, i, in.addr[l] - wl->allocs[i].base));
                }
            }
            for (uint32_t l = 0; l < c.threads; l++) {
                want.n = 0;
                ref(&want, b, wi * WARP_SIZE + l);
                if (got[l].n != want.n || (want.n && memcmp(got[l].v, want.v, want.n * sizeof *want.v)))
                    wlh_seq_eq(&got[l], &want, what);
            }
        }
    for (uint32_t l = 0; l < WARP_SIZE; l++) free(got[l].v);
    free(want.v);
    wlh_close(&h);
}

/* Memory ops of one thread, listed by hand: N records. */
static inline struct wlh_seq wlt_list(const uint64_t *v, size_t n)
{
    struct wlh_seq s = {0};
    for (size_t i = 0; i < n; i++) wlh_push(&s, v[i]);
    return s;
}

#endif

/* A program run functionally, without timing: kernels in launch order,
 * each kernel's thread blocks in index order (the dispatch order), and
 * inside a block its warps in lockstep, one memory instruction each per
 * round (the warps of a block are resident together).  The generators are
 * deterministic per warp, so this order gives the same instructions as any
 * timed interleaving.  Users: Ideal's future (sim/driver/
 * evict_ideal_future.c) and the SC19 runtime's profile (sim/runtime/
 * rt_profile.c). */
#include <stdlib.h>
#include "workload.h"

static bool is_mem(enum inst_op op)
{ return op == INST_LOAD || op == INST_STORE || op == INST_ATOMIC; }

void wl_walk_program(struct workload *wl, const struct wl_walk_ops *ops, void *ctx)
{
    struct wl_step st;
    struct warp_ctx *w = NULL;
    struct warp_inst *in = NULL;
    bool *live = NULL;
    uint32_t cap = 0;
    while (wl_next_step(wl, &st)) {
        if (st.kind != WL_STEP_KERNEL) continue;
        const struct wl_kernel *k = &st.kernel;
        if (ops->kernel) ops->kernel(ctx, k);
        uint64_t blocks = (uint64_t)k->grid.x * k->grid.y * k->grid.z;
        uint32_t threads = k->block.x * k->block.y * k->block.z;
        uint32_t nw = (threads + WARP_SIZE - 1) / WARP_SIZE;
        if (nw > cap) {
            cap = nw;
            w = xrealloc(w, cap * sizeof *w);
            in = xrealloc(in, cap * sizeof *in);
            live = xrealloc(live, cap * sizeof *live);
        }
        for (uint64_t b = 0; b < blocks; b++) {
            for (uint32_t i = 0; i < nw; i++) {
                /* as sim/sm/launch.c place_block starts a warp */
                w[i] = (struct warp_ctx){ .k = k, .block = b, .warp = i };
                uint32_t left = threads - i * WARP_SIZE;
                w[i].threads = left < WARP_SIZE ? left : WARP_SIZE;
                wl_warp_start(wl, &w[i]);
                live[i] = true;
            }
            uint32_t nlive = nw;
            for (uint64_t r = 0; nlive; r++) {
                for (uint32_t i = 0; i < nw; i++) {
                    while (live[i]) {
                        /* as sim/sm/core.c issue() asks for an instruction */
                        in[i].flags = in[i].issue_cycles = in[i].cycles = 0;
                        wl_next_inst(wl, &w[i], &in[i]);
                        if (in[i].op == INST_EXIT) { live[i] = false; nlive--; break; }
                        if (!is_mem(in[i].op)) continue;
                        ops->inst(ctx, k, b, r, i, &in[i]);
                        break;
                    }
                }
            }
        }
    }
    free(w);
    free(in);
    free(live);
}

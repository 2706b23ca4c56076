/* Workload generators: a workload declares its allocations and its program
 * (kernel launches), and produces each warp's instruction stream on demand
 * from the kernel's index arithmetic, so host memory does not grow with the
 * simulated footprint. */
#ifndef UVMSIM_WORKLOAD_H
#define UVMSIM_WORKLOAD_H

#include "../sim/base.h"

struct config;

#define WARP_SIZE 32
/* Allocations start here, each aligned to 2 MiB (the UVM VA block). */
#define WL_VA_BASE 0x100000000000ULL
#define WL_ALLOC_ALIGN (2ULL << 20)
#define WL_MAX_ALLOCS 16

struct dim3 { uint32_t x, y, z; };

struct wl_alloc {
    char name[32];
    uint64_t size;
    uint64_t base;        /* assigned by workload_create */
};

struct wl_kernel {
    char name[32];
    struct dim3 grid, block;
    uint32_t regs_per_thread;
    uint32_t smem_per_block;
    uint64_t seq;         /* launch number */
};

enum inst_op { INST_COMPUTE, INST_LOAD, INST_STORE, INST_ATOMIC,
               INST_BARRIER, INST_EXIT };

/* warp_inst.flags */
#define INST_F_BYPASS_L1 1u   /* load: skip the L1D (ld.global.cg) */

struct warp_inst {
    enum inst_op op;
    uint32_t active;      /* lane mask */
    uint32_t size;        /* bytes per lane (memory ops) */
    uint32_t cycles;      /* compute: issue-to-ready cycles */
    uint32_t issue_cycles;/* compute: cycles the scheduler is busy (0: 1) */
    uint32_t flags;       /* INST_F_* */
    uint64_t addr[WARP_SIZE];
};

/* Per-warp generator state, owned by the SM model. */
struct warp_ctx {
    const struct wl_kernel *k;
    uint64_t block;       /* linear block index */
    uint32_t warp;        /* warp index within the block */
    uint32_t threads;     /* live threads of this warp (last warp may be partial) */
    uint64_t s[4];        /* generator scratch */
};

struct workload;

struct workload_ops {
    const char *name;
    /* Declare allocations (wl_add_alloc) and prepare the program. */
    void *(*create)(struct workload *wl, const struct config *cfg);
    /* Next kernel of the program; false when the program is over. */
    bool (*next_kernel)(void *impl, struct wl_kernel *out);
    void (*warp_start)(void *impl, struct warp_ctx *w);
    void (*next_inst)(void *impl, struct warp_ctx *w, struct warp_inst *out);
    void (*destroy)(void *impl);
};

struct workload {
    const struct workload_ops *ops;
    void *impl;
    struct wl_alloc allocs[WL_MAX_ALLOCS];
    size_t nallocs;
    uint64_t footprint;   /* sum of allocation sizes */
};

/* Picks the generator named by `workload.kind`. */
struct workload *workload_create(const struct config *cfg);
void workload_free(struct workload *wl);
/* For generators: declare an allocation; returns its base address. */
uint64_t wl_add_alloc(struct workload *wl, const char *name, uint64_t size);

static inline bool wl_next_kernel(struct workload *wl, struct wl_kernel *k)
{ return wl->ops->next_kernel(wl->impl, k); }
static inline void wl_warp_start(struct workload *wl, struct warp_ctx *w)
{ wl->ops->warp_start(wl->impl, w); }
static inline void wl_next_inst(struct workload *wl, struct warp_ctx *w,
                                struct warp_inst *out)
{ wl->ops->next_inst(wl->impl, w, out); }


#endif

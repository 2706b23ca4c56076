/* Workload generators: a workload declares its allocations (with optional
 * placement / advice hints) and its program -- kernel launches, possibly in
 * loops, with host-side steps between them (prefetch, memcpy, advise) -- and
 * produces each warp's instruction stream on demand from the kernel's index
 * arithmetic, so host memory does not grow with the simulated footprint. */
#ifndef UVMSIM_WORKLOAD_H
#define UVMSIM_WORKLOAD_H

#include <stdio.h>
#include "core/base.h"
#include "config/config.h"
#include "core/base.h"

struct config;
struct cfg_key;

#define WARP_SIZE 32
/* Allocations start here, each aligned to 2 MiB (the UVM VA block). */
#define WL_VA_BASE 0x100000000000ULL
#define WL_ALLOC_ALIGN (2ULL << 20)
#define WL_MAX_ALLOCS 32

struct dim3 { uint32_t x, y, z; };

/* Where an allocation's pages start (cudaMallocManaged: nowhere until first
 * touch, the default; or populated on one side before the program starts). */
enum wl_place { WL_PLACE_DEFAULT, WL_PLACE_HOST, WL_PLACE_GPU };

/* cudaMemAdvise hints (CUDA runtime API, cudaMemoryAdvise), as a bit set on
 * an allocation (initial hints) or as the subject of a host step. */
enum wl_advice {
    WL_ADV_NONE = 0,
    WL_ADV_READ_MOSTLY = 1u << 0,       /* cudaMemAdviseSetReadMostly */
    WL_ADV_PREFERRED_GPU = 1u << 1,     /* cudaMemAdviseSetPreferredLocation(gpu) */
    WL_ADV_PREFERRED_HOST = 1u << 2,    /* cudaMemAdviseSetPreferredLocation(cpu) */
    WL_ADV_ACCESSED_BY_GPU = 1u << 3,   /* cudaMemAdviseSetAccessedBy(gpu) */
};

/* Static placement hints of the thesis (Agarwal 2015, Sec. 4.4.2):
 * cudaMalloc(ptr, size, hint) with hint BO (bandwidth-optimised memory: the
 * GPU's), CO (capacity-optimised: the host's) or BW (BW-AWARE's random
 * split); honoured by driver.placement=annotated unless that pool is full.
 * NONE: no hint (GetAllocation decides from the hotness, Sec. 4.4.3). */
enum wl_hint { WL_HINT_NONE, WL_HINT_BO, WL_HINT_CO, WL_HINT_BW };

struct wl_alloc {
    char name[32];
    uint64_t size;
    uint64_t base;        /* assigned by wl_add_alloc */
    enum wl_place place;  /* hint for later policies; default: first touch */
    unsigned advice;      /* enum wl_advice bits set before the program */
    enum wl_hint hint;    /* driver.placement=annotated (thesis Sec. 4.4.2) */
    double hotness;       /* relative accesses (thesis Fig. 4.10's hotness[]);
                           * 0: not annotated */
};

struct wl_kernel {
    char name[32];
    struct dim3 grid, block;
    uint32_t regs_per_thread;
    uint32_t smem_per_block;
    uint64_t seq;         /* launch number (kernels only, from 0) */
    uint32_t id;          /* generator-private: which kernel of the program */
    uint64_t arg;         /* generator-private: iteration / launch argument */
    /* The program node (wl_program.node index) that launched it: the static
     * target region of SC19 Sec. 4.  UINT32_MAX: the generator does not
     * describe its program. */
    uint32_t site;
};

/* Host-side steps between kernels.  They run in program order: the next
 * kernel starts after the step completes (the driver executes them). */
enum wl_step_kind {
    WL_STEP_KERNEL,
    WL_STEP_PREFETCH,     /* cudaMemPrefetchAsync(range, dst) */
    WL_STEP_MEMCPY,       /* cudaMemcpy H2D / D2H of the range */
    WL_STEP_ADVISE,       /* cudaMemAdvise(range, advice), or unset */
};

enum wl_dir { WL_TO_GPU, WL_TO_HOST };

struct wl_host_step {
    uint32_t alloc;       /* index into workload.allocs */
    uint64_t offset, bytes;   /* range within the allocation */
    enum wl_dir dir;      /* PREFETCH and MEMCPY */
    enum wl_advice advice;    /* ADVISE: exactly one bit */
    bool unset;           /* ADVISE: cudaMemAdviseUnset* instead of Set* */
    bool device;          /* PREFETCH to GPU standing for cudaMalloc'd device
                           * memory (the explicit Baseline's written-only
                           * objects): no UVM driver CPU work is charged */
};

struct wl_step {
    enum wl_step_kind kind;
    union {
        struct wl_kernel kernel;  /* WL_STEP_KERNEL */
        struct wl_host_step host; /* every other kind */
    };
};

/* The program as a compiler sees it (Li & Chapman SC19, Sec. 4.1-4.3): the
 * launch CFG -- steps in nested loops and two-way branches, in a flat
 * bracketed encoding -- and per kernel the allocations it uses with static
 * access estimates.  The runtime layer (sim/runtime) reads it before the
 * run; the step stream itself still comes from next_step. */
enum wl_pn_kind {
    WL_PN_STEP,     /* step[node.step]: a kernel (a target region) or a host step */
    WL_PN_LOOP,     /* the nodes up to the matching END are the loop's body */
    WL_PN_IF,       /* then-branch: the nodes up to its ELSE or END */
    WL_PN_ELSE,     /* else-branch: the nodes up to the END */
    WL_PN_END,      /* closes the innermost open LOOP or IF */
};

/* How a compiler knows a loop's trip count: a compile-time constant, or
 * data-dependent (LLVM's static heuristic then assumes the 124:4 back edge,
 * 32 iterations; spec B.3.3). */
enum wl_trip { WL_TRIP_CONST, WL_TRIP_DATA };

struct wl_pnode {
    enum wl_pn_kind kind;
    uint32_t step;      /* STEP: index into wl_program.step */
    uint32_t end;       /* LOOP, IF, ELSE: index of the matching END (an IF
                         * with an else-branch: of its ELSE) */
    enum wl_trip trip;  /* LOOP */
    double trips;       /* LOOP: iterations per entry -- the constant
                         * (CONST), or the run's own mean (DATA: known
                         * only to an exact / oracle analysis) */
    double p_then;      /* IF: static probability of the then-branch
                         * (0.5: LLVM's unknown condition) */
};

struct wl_program {
    const struct wl_pnode *node;
    uint32_t n;
    const struct wl_step *step;   /* kernel steps carry their id and site */
    uint32_t nsteps;
};

/* wl_use.mode bits */
#define WL_USE_R 1u
#define WL_USE_W 2u

/* One allocation a kernel uses (SC19 Sec. 4.1-4.2), as the compiler would
 * estimate it from the kernel's code: per loop iteration (= per GPU
 * thread, "each loop iteration is executed by exactly one GPU thread"). */
struct wl_use {
    uint32_t alloc;       /* index into workload.allocs */
    unsigned mode;        /* WL_USE_R | WL_USE_W */
    double freq;          /* RL: sum of the static execution frequencies of
                           * the accesses to the allocation (Sec. 4.1) */
    double bytes_iter;    /* B_iter: sum of frequency x access size in
                           * bytes (Sec. 4.2); density = B_iter x threads /
                           * allocation size */
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
    uint64_t block;       /* linear block index: x fastest, then y, z */
    uint32_t warp;        /* warp index within the block */
    uint32_t threads;     /* live threads of this warp (last warp may be partial) */
    uint64_t s[4];        /* generator scratch */
};

struct workload;

struct workload_ops {
    const char *name;
    /* Declare allocations (wl_add_alloc) and prepare the program. */
    void *(*create)(struct workload *wl, const struct config *cfg);
    /* Next step of the program; false when the program is over.  The
     * generator fills kernel.id/arg/name/grid/block/...; workload.c numbers
     * kernel launches (kernel.seq). */
    bool (*next_step)(void *impl, struct wl_step *out);
    void (*warp_start)(void *impl, struct warp_ctx *w);
    /* The warp's next instruction.  `out` is the warp's own instruction:
     * the caller passes the same one on every call for a warp and leaves
     * its lanes (addr, size) as the last call wrote them -- a generator may
     * keep the next instruction's addresses there (a memory op behind its
     * compute, gen.c). */
    void (*next_inst)(void *impl, struct warp_ctx *w, struct warp_inst *out);
    void (*destroy)(void *impl);
};

/* What `uvmsim workloads` and docs/workloads.md list about a generator. */
struct wl_info {
    const struct workload_ops *ops;
    const struct cfg_key *keys;   /* its workload.<kind>.* schema table */
    const char *source;       /* suite + kernel function, and which paper ran it */
    const char *footprint;    /* footprint formula in the table's parameters */
};

struct workload {
    const struct workload_ops *ops;
    void *impl;
    struct wl_alloc allocs[WL_MAX_ALLOCS];
    size_t nallocs;
    uint64_t footprint;   /* sum of allocation sizes */
    uint64_t kernels;     /* kernel steps handed out */
    uint64_t host_steps;  /* host steps handed out (and skipped by wl_next_kernel) */
    /* The program may map pages to host memory by advice (preferred
     * location host, accessed-by): set by wl_add_alloc_hint for initial
     * advice, and by a generator whose program advises so. */
    bool host_advice;
    /* SC19 program description, optional (set by create; NULL when the
     * generator does not describe itself): the launch CFG, and the
     * allocations kernel K uses (at most MAX written; the count returned). */
    const struct wl_program *program;
    size_t (*kernel_uses)(const void *impl, const struct wl_kernel *k,
                          struct wl_use *out, size_t max);
    /* Optional (NULL: every thread): LC of SC19 Sec. 4.2, the trip count of
     * kernel K's parallel loop in the OpenMP port -- the threads that pass
     * the kernel's bounds check, which the grid rounds up; 0: the grid. */
    uint64_t (*kernel_iters)(const void *impl, const struct wl_kernel *k);
};

/* Picks the generator named by `workload.kind`. */
struct workload *workload_create(const struct config *cfg);
void workload_free(struct workload *wl);
/* For generators: declare an allocation; returns its base address. */
uint64_t wl_add_alloc(struct workload *wl, const char *name, uint64_t size);
/* Same, with a placement and initial advice bits. */
uint64_t wl_add_alloc_hint(struct workload *wl, const char *name, uint64_t size,
                           enum wl_place place, unsigned advice);

/* Every generator, in listing order; n set to the count. */
const struct wl_info *const *wl_catalog(size_t *n);
/* The `uvmsim workloads` listing / docs/workloads.md (Markdown). */
void wl_list(FILE *out);

/* `uvmsim trace convert`: NVBit mem_trace text IN to the binary trace
 * OUT_PATH, created only once IN has parsed whole (errors: exit 2). */
void wl_trace_convert(const char *in, const char *out_path);

/* The program run functionally (workloads/walk.c): KERNEL (optional) at
 * each launch, INST at each memory instruction, in a fixed order: blocks
 * in index order, a block's warps in lockstep, ROUND counting a warp's
 * memory instructions.  WL must be a fresh instance (it is consumed). */
struct wl_walk_ops {
    void (*kernel)(void *ctx, const struct wl_kernel *k);
    void (*inst)(void *ctx, const struct wl_kernel *k, uint64_t block, uint64_t round,
                 uint32_t warp, const struct warp_inst *in);
};
void wl_walk_program(struct workload *wl, const struct wl_walk_ops *ops, void *ctx);

/* Next step of the program (kernel or host step); false at the end. */
bool wl_next_step(struct workload *wl, struct wl_step *out);
/* Next kernel, skipping (and counting in wl->host_steps) host steps: the
 * front end's path until the driver executes host steps. */
bool wl_next_kernel(struct workload *wl, struct wl_kernel *k);

static inline void wl_warp_start(struct workload *wl, struct warp_ctx *w)
{ wl->ops->warp_start(wl->impl, w); }
static inline void wl_next_inst(struct workload *wl, struct warp_ctx *w,
                                struct warp_inst *out)
{ wl->ops->next_inst(wl->impl, w, out); }

/* workload.kind and every generator's key table (sim/config_schema.c lists
 * them). */
extern const struct cfg_key workload_config_keys[], stream_config_keys[], compute_config_keys[],
    gemm_config_keys[], conv2d_config_keys[], conv3d_config_keys[], mm2_config_keys[],
    mvt_config_keys[], atax_config_keys[], bicg_config_keys[], gesummv_config_keys[],
    fdtd_config_keys[], vecadd_config_keys[], gups_config_keys[], ra_config_keys[],
    cyclic_config_keys[], uvmsmart_config_keys[], uvmeval_config_keys[], pattern_config_keys[], pathfinder_config_keys[],
    hotspot_config_keys[], hotspot3d_config_keys[], mriq_config_keys[], bfs_config_keys[],
    kmeans_config_keys[], backprop_config_keys[], sgemm_config_keys[], stencil_config_keys[],
    srad_config_keys[], nw_config_keys[], lud_config_keys[], spmv_config_keys[],
    cutcp_config_keys[], btree_config_keys[], histo_config_keys[], sad_config_keys[],
    srad_v1_config_keys[], xsbench_config_keys[], minife_config_keys[], comd_config_keys[],
    cns_config_keys[], mummergpu_config_keys[], nn_config_keys[], cfd_config_keys[],
    minivite_config_keys[], graph_config_keys[], pagerank_config_keys[], bc_config_keys[],
    kcore_config_keys[], trace_config_keys[], accelsim_config_keys[];
/* workload.kind's registry: the catalogue's entry i's name, NULL past the
 * last. */
const char *wl_kind_name(size_t i);

#endif

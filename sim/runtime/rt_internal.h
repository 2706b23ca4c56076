/* sim/runtime's inside: the GPU object table (GOT), the policies' ops and
 * the shared replacement core.  Tests build a runtime on an rt_info filled
 * by hand (rt_new) and read the steps it queues. */
#ifndef UVMSIM_RT_INTERNAL_H
#define UVMSIM_RT_INTERNAL_H

#include "runtime.h"
#include "rt_info.h"

struct rec_table;

struct rt_ops;

/* Fig. 6's breakdown: the density switch, or one kind of transfer only
 * (in the order of runtime.transfer's choices). */
enum rt_transfer { RT_HYBRID, RT_IMPLICIT, RT_EXPLICIT };

struct rt_params {
    const struct rt_ops *policy;   /* runtime.policy, one of rt_policies' */
    double density_threshold;   /* Sec. 3.1: 0.5 */
    enum rt_transfer transfer;
    bool partial;               /* Sec. 3.4 partial mapping (RDM) */
    sim_time decision_cost;     /* per object decision (Sec. 5.2 "Overhead") */
    bool read_results;          /* the host reads the written objects at the end */
    /* runtime.density_lc iterations: LC is the parallel loop's trip count
     * (workload.kernel_iters) instead of the launch's threads. */
    bool lc_iterations;
    /* runtime.density_b_iter bytes: B_iter in whole bytes, at most 4095
     * (the authors' pass's 12-bit map-type field). */
    bool biter_bytes;
};

/* Granularity of the GPU portion of a partially mapped object: the 2 MiB
 * VA block (spec B.2.6 / B.9.7). */
#define RT_BLOCK (2ULL << 20)
/* Granularity of the space accounting: the 64 KiB big page, the larger
 * driver.page_size and the smallest chunk the real driver allocates
 * (uvm_pmm_gpu.c), so an object never takes more frames than counted. */
#define RT_GRAIN (64ULL << 10)

/* One GOT entry (Sec. 3.2 "Runtime Book Keeping", Sec. 3.4). */
struct rt_obj {
    uint64_t size;          /* the allocation's bytes */
    uint64_t acct;          /* what it takes on the GPU whole: size in 64 KiB units */
    uint64_t gpu;           /* accounted bytes the runtime placed on the GPU:
                             * 0 (CPU), acct (GPU) or whole blocks (partial) */
    uint64_t next_reuse;    /* RDM: TRC + RD at its last use (64-bit, Sec. 3.4) */
    uint64_t last_use;      /* LRU: TRC of its last use */
    bool pref_host;         /* PREFERRED_HOST set by the runtime */
    bool accessed_by;       /* ACCESSED_BY_GPU set by the runtime */
    /* Pages from this offset on may be mapped remotely (ACCESSED_BY at a
     * CPU placement); size: none.  Only a prefetch replaces a remote
     * mapping (drv_step.c bring_in), so these bytes move explicitly. */
    uint64_t remote_lo;
    bool pinned;            /* host policy: pinned once and for all */
    bool written;           /* some launch of a region wrote it (results) */
    bool mapped;            /* baseline_hoisted: copied in once */
};

#define RT_QCAP 512

struct runtime {
    struct rt_params p;
    const struct rt_ops *ops;
    struct rt_info ri;
    bool have_info;
    struct workload *wl;
    uint64_t capacity;      /* GPU memory in bytes */
    uint64_t used;          /* sum of rt_obj.gpu */
    uint64_t trc;           /* target region counter (Sec. 3.4) */
    struct rt_obj obj[WL_MAX_ALLOCS];
    uint32_t nobjs;
    /* This launch. */
    uint32_t region;        /* UINT32_MAX: not a region of the program */
    const struct wl_kernel *k;
    uint64_t lc;            /* LC of the density (Sec. 4.2): the launch's
                             * threads, or the parallel loop's iterations
                             * (p.lc_iterations) */
    bool placed[WL_MAX_ALLOCS];     /* decided GPU (or partial) this call */
    bool partial_done;      /* the one partially mapped object of this call */
    uint64_t ndecisions;    /* this launch, for the decision cost */
    /* Steps queued for the front end. */
    struct wl_step q[RT_QCAP];
    uint32_t qhead, qn;
    struct wl_step kernel;  /* the launch the queued steps precede */
    bool kernel_pending;
    bool ended;             /* the policy's end steps are queued */
    struct rec_table *table; /* /runtime rows, or NULL (tests) */
    struct rt_stats {
        uint64_t *decisions, *emitted, *dropped, *to_gpu, *evicted, *pinned,
                 *partial_gpu, *unknown;
    } st;
};

/* A policy: what it does before (and after) each launch of a region. */
struct rt_ops {
    const char *name;
    /* Before the kernel of region rt->region (never UINT32_MAX). */
    void (*before)(struct runtime *rt);
    /* After the kernel has run (its steps run before the next kernel). */
    void (*after)(struct runtime *rt);
    /* Whether the generator's own host steps are kept (policy none). */
    bool keep_program_steps;
    /* Once, after the program's last kernel (its steps run before the end). */
    void (*end)(struct runtime *rt);
    /* Pins or replaces pages to host memory by advice: the remote path
     * must be on (system.c remote_possible). */
    bool host_advice;
};

extern const struct rt_ops rt_none_ops, rt_um_ops, rt_um_pf_ops, rt_baseline_ops,
                           rt_baseline_hoisted_ops,
                           rt_host_ops, rt_lru_ops, rt_rlm_ops, rt_glm_ops, rt_rdm_ops;

/* ---- rt_runtime.c ---- */
/* A runtime over RI filled by hand (tests) or by rt_analyze; ST and the
 * table optional (NULL: no statistics, no rows). */
struct runtime *rt_new(const struct rt_params *p, const struct rt_info *ri,
                       struct workload *wl, uint64_t capacity, struct stats *st);
/* Runs the policy for kernel K (TRC += 1 first) and queues its steps;
 * the kernel itself is not queued.  For tests and runtime_next_step. */
void rt_before_kernel(struct runtime *rt, const struct wl_kernel *k);
void rt_after_kernel(struct runtime *rt);

/* ---- rt_profile.c: runtime.analysis profile | touched ---- */
struct rt_profile;
struct config;
/* Runs a private instance of the program (from CFG) functionally and
 * counts each target region's uses; WL (the timed instance) names the
 * allocations and the program.  TOUCHED: distinct bytes per launch. */
struct rt_profile *rt_profile_run(const struct config *cfg, const struct workload *wl,
                                  bool touched);
/* An rt_uses_fn over a profile (CTX). */
size_t rt_profile_uses(void *ctx, const struct wl_kernel *k, struct wl_use *out, size_t max);
void rt_profile_free(struct rt_profile *p);

/* ---- rt_steps.c: decisions -> host steps (spec B.2.7) and /runtime rows ---- */
void rt_push(struct runtime *rt, enum wl_step_kind kind, uint32_t d, uint64_t off,
             uint64_t bytes, enum wl_dir dir, enum wl_advice adv, bool unset);
void rt_row(struct runtime *rt, uint32_t d, const char *decision, uint64_t bytes);
double rt_density(const struct runtime *rt, uint32_t d);
/* Whether bytes [0, end) of d go explicitly (density switch, transfer mode,
 * remote mappings). */
bool rt_explicit(const struct runtime *rt, uint32_t d, uint64_t end);
/* d wholly to the GPU (the part not there yet). */
void rt_to_gpu(struct runtime *rt, uint32_t d, bool force_explicit);
/* d's GPU part back to host memory and pinned there (a replacement). */
void rt_evict(struct runtime *rt, uint32_t d);
/* d placed in CPU memory: preferred location host + accessed-by. */
void rt_pin(struct runtime *rt, uint32_t d);
/* d's lowest G accounted bytes (whole 2 MiB blocks) on the GPU, the rest
 * pinned (Sec. 3.4 partial mapping). */
void rt_partial(struct runtime *rt, uint32_t d, uint64_t g);
/* How region rt->region uses d: WL_USE_R / WL_USE_W bits (unknown: both). */
unsigned rt_mode(const struct runtime *rt, uint32_t d);
/* The end op of the unified-memory schemes: the host reads the program's
 * results, every object a kernel wrote (runtime.read_results). */
void rt_read_results(struct runtime *rt);
static inline uint64_t rt_free(const struct runtime *rt)
{ return rt->used < rt->capacity ? rt->capacity - rt->used : 0; }

/* ---- rt_replace.c: the shared core of RLM / GLM / RDM / LRU ---- */
struct rt_scheme {
    /* Order of the region's objects: negative when a goes before b. */
    int (*cmp)(const struct runtime *rt, uint32_t a, uint32_t b);
    /* Next replacement candidate for d among the GPU objects not excluded
     * (already candidates or placed this call); UINT32_MAX: none qualifies. */
    uint32_t (*candidate)(const struct runtime *rt, uint32_t d, const bool *excluded);
    bool partial;           /* partial mapping applies (RDM with runtime.partial) */
    bool explicit_only;     /* LRU transfers explicitly (Sec. 5.2) */
};
void rt_replace(struct runtime *rt, const struct rt_scheme *s);
/* Priority schemes (RLM, GLM, LRU): the lowest-priority GPU object not
 * excluded whose priority is below d's. */
uint32_t rt_lowest_below(const struct runtime *rt, uint32_t d, const bool *excluded,
                         double (*prio)(const struct runtime *rt, uint32_t x),
                         bool gl_ties);
int rt_cmp_prio(const struct runtime *rt, uint32_t a, uint32_t b,
                double (*prio)(const struct runtime *rt, uint32_t x), bool gl_ties);

#endif

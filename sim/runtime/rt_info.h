/* What the SC19 compiler analyses tell the runtime (Li & Chapman SC19,
 * Sec. 4): per static target region (a kernel step of the program) and per
 * data object (an allocation).  rt_analysis.c fills it from the workload's
 * program description; the runtime policies (rt_*.c) only read it, so their
 * tests can fill one by hand.  Internal to sim/runtime. */
#ifndef UVMSIM_RT_INFO_H
#define UVMSIM_RT_INFO_H

#include <stdbool.h>
#include <stdint.h>
#include "workloads/workload.h"

#define RT_MAX_REGIONS 64

struct rt_info {
    uint32_t nregions;                  /* kernel steps of the program */
    uint32_t nobjs;                     /* = workload.nallocs */
    uint32_t site[RT_MAX_REGIONS];      /* region r's program node */
    double rf[RT_MAX_REGIONS];          /* RF: static invocations per run (Sec. 4.1) */
    bool uses[RT_MAX_REGIONS][WL_MAX_ALLOCS];
    unsigned mode[RT_MAX_REGIONS][WL_MAX_ALLOCS];       /* WL_USE_* */
    double rl[RT_MAX_REGIONS][WL_MAX_ALLOCS];           /* RL; 0: unused */
    double bytes_iter[RT_MAX_REGIONS][WL_MAX_ALLOCS];   /* B_iter (Sec. 4.2) */
    double gl[WL_MAX_ALLOCS];           /* GL, Eq. 1: sum_r RF_r x RL_r,d */
    uint8_t gl8[WL_MAX_ALLOCS];         /* GL as the runtime stores it (8 bits) */
    /* Expected target regions met after the end of region r up to and
     * including r2 (Listing 2, steps 1-2; Fig. 3: TR_0 to TR_2 is 2). */
    double dist[RT_MAX_REGIONS][RT_MAX_REGIONS];
    /* Target reuse distance of object d at region r (Sec. 4.3, step 3):
     * min over the regions r2 that use d of dist[r][r2]. */
    double rd[RT_MAX_REGIONS][WL_MAX_ALLOCS];
};

/* Where the analyses get a kernel's uses: the workload's static estimate
 * (workload.kernel_uses) or a functional profile of the kernel. */
typedef size_t (*rt_uses_fn)(void *ctx, const struct wl_kernel *k,
                             struct wl_use *out, size_t max);

struct rt_opts {
    /* runtime.cfg.trip exact: data-dependent loops run their own mean trip
     * count (an oracle) instead of LLVM's static 32 (spec B.3.3). */
    bool exact_trips;
    /* An object never used again: RD +inf instead of the expected regions
     * to the program's end (Listing 2's exit-block quirk, spec B.3.3). */
    bool exit_inf;
};

/* Fills RI from the program and each kernel step's uses.  False, with the
 * reason in ERR, when the program has more than RT_MAX_REGIONS kernel
 * steps or is malformed (unbalanced LOOP/IF/END). */
bool rt_analyze(struct rt_info *ri, const struct wl_program *prog,
                uint32_t nobjs, rt_uses_fn uses, void *ctx,
                const struct rt_opts *o, char *err, size_t errlen);

/* Region index of program node SITE; UINT32_MAX if it is not a region. */
uint32_t rt_region_of_site(const struct rt_info *ri, uint32_t site);

#endif

/* The runtime layer's frame: its keys, the GOT's setup, the step source
 * that rewrites the program (launch.c asks it for the next step), the
 * /runtime table and the runtime.* statistics. */
#include <stdlib.h>
#include <string.h>
#include "rt_internal.h"
#include "config/config.h"
#include "core/stats.h"

const struct cfg_key runtime_config_keys[] = {
    {"runtime.policy", CFG_ENUM, "none", 0, 0, NULL /* policies[] */,
     "object placement before each kernel (Li & Chapman SC19 Sec. 2.3, 3, 5.2): none = the "
     "workload's own steps; um = unified memory on demand; um_pf = prefetch every used object; "
     "baseline = whole-object copies around each kernel (per-region map clauses); "
     "baseline_hoisted = one enclosing target data region: each object copied in before its first "
     "kernel, written objects copied out after the last (the CUDA originals' cudaMemcpy); host = pin to host memory; lru = "
     "object-level LRU; rlm / glm / rdm = regional locality / global locality / target reuse "
     "distance (docs/decisions.md \"SC19 runtime\")"},
    {"runtime.density_threshold", CFG_FLOAT, "0.5", 0, 1e9, NULL,
     "access density (B_iter x threads / object size) at or above which an object moved to the "
     "GPU is prefetched, below which it faults in on demand (SC19 Sec. 3.1: 0.5, \"empirically "
     "selected\")"},
    {"runtime.density_lc", CFG_ENUM, "threads", 0, 0, "threads|iterations",
     "LC of the density (SC19 Sec. 4.2: B_iter x LC / size, LC the loop count the OpenMP runtime "
     "knows at launch): threads = every thread of the launch's grid; iterations = the kernel's "
     "parallel-loop trip count (the threads that pass the kernel's bounds check, as the "
     "generator declares it: workload.kernel_iters; the grid where it declares none).  Only "
     "with runtime.analysis static (a profile's B_iter is per grid thread)"},
    {"runtime.density_b_iter", CFG_ENUM, "real", 0, 0, "real|bytes",
     "B_iter of the density: real = the estimate as the paper writes it (Sec. 4.2, sum of "
     "F_i x S_i); bytes = as the authors' public LLVM pass hands it to the runtime "
     "(lingda-li/unifiedmemory OMPPass.cpp, 2019-04: truncated to whole bytes in a 12-bit "
     "map-type field, at most 4095), so an object with less than 1 byte per iteration reads "
     "density 0"},
    {"runtime.transfer", CFG_ENUM, "hybrid", 0, 0, "hybrid|implicit|explicit",
     "rlm / glm / rdm: transfer by the density switch, or on demand only, or prefetch only "
     "(SC19 Fig. 6's breakdown)"},
    {"runtime.partial", CFG_BOOL, "true", 0, 0, NULL,
     "rdm: partial mapping -- the first object that does not fit goes to the GPU in part, its "
     "lowest addresses in whole 2 MiB blocks up to the free space, the rest pinned (SC19 Sec. 3.4)"},
    {"runtime.read_results", CFG_BOOL, "true", 0, 0, NULL,
     "um, um_pf, host, lru, rlm, glm, rdm: after the program's last kernel the host reads every "
     "object a kernel wrote, and its GPU-resident pages migrate back to host memory (one bulk "
     "move per object, a lower bound on the CPU's faults); false: the program ends at its last "
     "kernel with its results in GPU memory.  The baselines copy results out by their map "
     "clauses either way"},
    {"workload.read_back", CFG_BOOL, "false", 0, 0, NULL,
     "after the program's last kernel the host reads back every object a kernel wrote (the "
     "cudaMemcpy or host reads a CUDA program ends with): its GPU-resident pages migrate to host "
     "memory, one bulk move per object (workload.read_back_objects / _bytes).  A program with a "
     "memcpy to the host of its own reads what it copies; objects it prefetched to the host after "
     "its last kernel are not read again.  false: the run ends at the last kernel (the papers "
     "that time kernels: HPE, batch-aware, thesis, cyclic Fig. 2); driver-real.yaml sets true.  "
     "Under a runtime.policy that knows the program's objects, runtime.read_results decides"},
    {"runtime.cfg.trip", CFG_ENUM, "heuristic", 0, 0, "heuristic|exact",
     "trip counts the analyses assume for data-dependent loops: heuristic = LLVM's static "
     "back-edge weight 124:4, 32 iterations (SC19 Sec. 4.1 uses LLVM's BlockFrequencyInfo); "
     "exact = the run's own mean (an oracle, not in the paper)"},
    {"runtime.cfg.exit", CFG_ENUM, "end", 0, 0, "end|inf",
     "reuse distance of an object never used again: end = the regions left to the program's end "
     "(Listing 2's exit block has no successor, SC19 Sec. 4.3; spec B.3.3), inf = +inf "
     "(distances conditioned on reaching the next user)"},
    {"runtime.analysis", CFG_ENUM, "static", 0, 0, "static|profile|touched",
     "where the kernels' uses come from: static = the workload's estimate as the compiler makes "
     "it (SC19 Sec. 4.1-4.2: static frequencies, LLVM branch heuristics); profile = counted in a "
     "functional run of the program, bytes with reuse (an oracle, labelled upper bound); touched "
     "= the same with distinct bytes per launch (the density Sec. 5.2 asks for)"},
    {"runtime.decision_cost", CFG_TIME, "0ns", 0, 1e15, NULL,
     "host time per object decision before a kernel (SC19 Sec. 5.2 measured the runtime at 0.9 % "
     "of GPU compute time on bfs; 0: free, as the paper treats it)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* The policy table: adding a policy is one file and one line here
 * (runtime.policy's choices are these names, in this order). */
static const struct rt_ops *const policies[] = {
    &rt_none_ops, &rt_um_ops, &rt_um_pf_ops, &rt_baseline_ops, &rt_host_ops, &rt_lru_ops,
    &rt_rlm_ops, &rt_glm_ops, &rt_rdm_ops, &rt_baseline_hoisted_ops,
};

/* runtime.policy's registry (config_registries). */
const char *rt_policy_name(size_t i)
{
    return i < sizeof policies / sizeof policies[0] ? policies[i]->name : NULL;
}

struct runtime *rt_new(const struct rt_params *p, const struct rt_info *ri,
                       struct workload *wl, uint64_t capacity, struct stats *st)
{
    struct runtime *rt = xcalloc(1, sizeof *rt);
    rt->p = *p;
    rt->ops = p->policy;
    if (ri) { rt->ri = *ri; rt->have_info = true; }
    rt->wl = wl;
    rt->capacity = capacity;
    rt->nobjs = (uint32_t)wl->nallocs;
    rt->region = UINT32_MAX;
    for (uint32_t d = 0; d < rt->nobjs; d++) {
        struct rt_obj *o = &rt->obj[d];
        o->size = wl->allocs[d].size;
        o->acct = (o->size + RT_GRAIN - 1) / RT_GRAIN * RT_GRAIN;
        o->remote_lo = o->size;
    }
    if (st) {
        static const struct rec_field f[] = {
            {"seq", REC_U64, ""}, {"kernel", REC_STR32, ""}, {"object", REC_STR32, ""},
            {"decision", REC_STR32, ""}, {"bytes", REC_U64, "bytes"}, {"trc", REC_U64, "regions"},
            {"density", REC_F64, "fraction"},
        };
        rt->table = stat_table(st, "runtime", "one row per object decision of the SC19 runtime "
                               "before (baseline: and after) each kernel launch",
                               f, sizeof f / sizeof f[0]);
        rt->st.decisions = stat_counter(st, "runtime.decisions", "decisions",
                                        "object decisions (rows of /runtime)");
        rt->st.emitted = stat_counter(st, "runtime.steps_emitted", "steps",
                                      "host steps the runtime emitted (prefetch, memcpy, advise)");
        rt->st.dropped = stat_counter(st, "runtime.steps_dropped", "steps",
                                      "the generator's own host steps the policy dropped");
        rt->st.to_gpu = stat_counter(st, "runtime.to_gpu_bytes", "bytes",
                                     "bytes of objects decided to the GPU (whole objects)");
        rt->st.evicted = stat_counter(st, "runtime.evicted_bytes", "bytes",
                                      "bytes of GPU-resident objects replaced (sent to host memory)");
        rt->st.pinned = stat_counter(st, "runtime.pinned_bytes", "bytes",
                                     "bytes of objects newly placed in CPU memory");
        rt->st.partial_gpu = stat_counter(st, "runtime.partial_gpu_bytes", "bytes",
                                          "bytes added to GPU portions of partially mapped objects");
        rt->st.unknown = stat_counter(st, "runtime.unknown_launches", "kernels",
                                      "launches of kernels that are no region of the program (left alone)");
    }
    return rt;
}

void rt_before_kernel(struct runtime *rt, const struct wl_kernel *k)
{
    rt->trc++;                          /* Sec. 3.4: +1 at every target region */
    rt->k = k;
    rt->lc = (uint64_t)k->grid.x * k->grid.y * k->grid.z *
             (uint64_t)k->block.x * k->block.y * k->block.z;
    if (rt->p.lc_iterations && rt->wl->kernel_iters) {
        uint64_t it = rt->wl->kernel_iters(rt->wl->impl, k);
        if (it) rt->lc = it;
    }
    rt->ndecisions = 0;
    rt->partial_done = false;
    memset(rt->placed, 0, sizeof rt->placed);
    rt->region = rt->have_info ? rt_region_of_site(&rt->ri, k->site) : UINT32_MAX;
    if (rt->region == UINT32_MAX) {
        if (rt->st.unknown && rt->ops->before) *rt->st.unknown += 1;
        return;
    }
    for (uint32_t d = 0; d < rt->nobjs; d++)
        if (rt->ri.uses[rt->region][d] && (rt_mode(rt, d) & WL_USE_W)) rt->obj[d].written = true;
    if (rt->ops->before) rt->ops->before(rt);
    SIM_ASSERT(rt->used <= rt->capacity, "runtime", 0, "%llu bytes placed on a %llu-byte GPU",
               (unsigned long long)rt->used, (unsigned long long)rt->capacity);
}

void rt_after_kernel(struct runtime *rt)
{
    if (rt->region != UINT32_MAX && rt->ops->after) rt->ops->after(rt);
}

bool runtime_next_step(struct runtime *rt, struct wl_step *out, sim_time now, sim_time *delay)
{
    (void)now;
    *delay = 0;
    for (;;) {
        if (rt->qhead < rt->qn) {
            *out = rt->q[rt->qhead++];
            /* Counted as handed out, so workload.host_steps_skipped is
             * the generator's steps the policy dropped. */
            rt->wl->host_steps++;
            return true;
        }
        rt->qhead = rt->qn = 0;
        if (rt->kernel_pending) {
            rt->kernel_pending = false;
            *out = rt->kernel;
            *delay = rt->p.decision_cost * rt->ndecisions;
            rt->k = &rt->kernel.kernel;
            rt_after_kernel(rt);        /* queued: they run once the kernel is over */
            return true;
        }
        if (!wl_next_step(rt->wl, out)) {
            if (rt->ended || !rt->ops->end) return false;
            rt->ended = true;
            rt->ops->end(rt);
            continue;
        }
        if (out->kind != WL_STEP_KERNEL) {
            if (rt->ops->keep_program_steps) return true;
            if (rt->st.dropped) *rt->st.dropped += 1;
            continue;
        }
        rt->kernel = *out;
        rt->kernel_pending = true;
        rt_before_kernel(rt, &rt->kernel.kernel);
    }
}

static size_t uses_of(void *ctx, const struct wl_kernel *k, struct wl_use *out, size_t max)
{
    const struct workload *wl = ctx;
    return wl->kernel_uses(wl->impl, k, out, max);
}

struct runtime *runtime_create(const struct config *cfg, struct workload *wl,
                               uint64_t capacity, struct stats *st)
{
    struct rt_params p = {
        policies[cfg_choice(cfg, "runtime.policy")],
        cfg_f64(cfg, "runtime.density_threshold"),
        (enum rt_transfer)cfg_choice(cfg, "runtime.transfer"),
        cfg_bool(cfg, "runtime.partial"),
        cfg_u64(cfg, "runtime.decision_cost"),
        cfg_bool(cfg, "runtime.read_results"),
        cfg_is(cfg, "runtime.density_lc", "iterations") && cfg_is(cfg, "runtime.analysis", "static"),
        cfg_is(cfg, "runtime.density_b_iter", "bytes"),
    };
    if (p.policy == &rt_none_ops) return NULL;
    /* Static placement maps every page before the first kernel and the
     * driver skips prefetches then (drv_step.c): nothing would move. */
    if (!cfg_is(cfg, "driver.placement", "fault"))
        user_error("key 'runtime.policy': %s decides placement per kernel; driver.placement %s "
                   "places every page before the program (use driver.placement fault)",
                   p.policy->name, cfg_str(cfg, "driver.placement"));
    struct rt_info *ri = NULL;
    bool profiled = !cfg_is(cfg, "runtime.analysis", "static");
    if (wl->program && (wl->kernel_uses || profiled)) {
        ri = xcalloc(1, sizeof *ri);
        struct rt_opts o = { cfg_is(cfg, "runtime.cfg.trip", "exact"),
                             cfg_is(cfg, "runtime.cfg.exit", "inf") };
        struct rt_profile *prof = profiled ? rt_profile_run(cfg, wl, cfg_is(cfg, "runtime.analysis", "touched")) : NULL;
        char err[256];
        bool ok = rt_analyze(ri, wl->program, (uint32_t)wl->nallocs,
                             prof ? rt_profile_uses : uses_of, prof ? (void *)prof : (void *)wl,
                             &o, err, sizeof err);
        rt_profile_free(prof);
        if (!ok) {
            free(ri);
            user_error("key 'runtime.policy': %s: the workload's program: %s", p.policy->name, err);
        }
    } else if (p.policy != &rt_um_ops) {
        user_error("key 'runtime.policy': %s needs the kernels' data objects, and workload '%s' "
                   "%s (policies none and um run it)", p.policy->name, wl->ops->name,
                   wl->program ? "does not declare them (runtime.analysis profile counts them)"
                               : "does not describe its program");
    }
    if (p.policy->host_advice) wl->host_advice = true;
    struct runtime *rt = rt_new(&p, ri, wl, capacity, st);
    free(ri);
    return rt;
}

void runtime_free(struct runtime *rt) { free(rt); }

bool runtime_reads_results(const struct runtime *rt)
{
    return rt->have_info || !rt->p.read_results;
}

/* Decisions become the driver's host steps (spec B.2.7; SC19 Sec. 3.1,
 * 3.2 "Data Mapping Enforcement", 3.4 "Partial Mapping"):
 *   to GPU, explicit: unset PREFERRED_HOST / ACCESSED_BY if set, PREFETCH
 *     to GPU (cudaMemPrefetchAsync: moves only the pages not there);
 *   to GPU, implicit: the unsets only -- the kernel's faults bring the pages;
 *   replaced (evicted): PREFETCH to host + PREFERRED_HOST (B.9.3);
 *   placed in CPU memory: PREFERRED_HOST + ACCESSED_BY (B.9.4: mapped
 *     remotely at once, no fault per page);
 *   partial: the GPU portion as "to GPU", the rest ACCESSED_BY on its range.
 * Only changes are emitted: advice already set is not set again. */
#include <math.h>
#include <string.h>
#include "rt_internal.h"
#include "core/stats.h"

void rt_push(struct runtime *rt, enum wl_step_kind kind, uint32_t d, uint64_t off,
             uint64_t bytes, enum wl_dir dir, enum wl_advice adv, bool unset)
{
    SIM_ASSERT(rt->qn < RT_QCAP, "runtime", 0, "more than %u steps before one launch", RT_QCAP);
    struct wl_step *s = &rt->q[rt->qn++];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->host = (struct wl_host_step){ .alloc = d, .offset = off, .bytes = bytes, .dir = dir,
                                     .advice = adv, .unset = unset };
    if (rt->st.emitted) *rt->st.emitted += 1;
}

void rt_row(struct runtime *rt, uint32_t d, const char *decision, uint64_t bytes)
{
    rt->ndecisions++;
    if (rt->st.decisions) *rt->st.decisions += 1;
    if (!rt->table) return;
    uint64_t seq = rt->k ? rt->k->seq : 0, trc = rt->trc;
    double dens = rt->region != UINT32_MAX ? rt_density(rt, d) : 0.0;
    const void *row[] = { &seq, rt->k ? rt->k->name : "", rt->wl->allocs[d].name,
                          decision, &bytes, &trc, &dens };
    rec_append(rt->table, row);
}

/* Sec. 3.1 / 4.2: density = B_iter x LC / size, LC the loop count
 * ("each loop iteration is executed by exactly one GPU thread"): the
 * launch's threads, or with runtime.density_lc iterations the parallel
 * loop's trip count (rt_before_kernel).  With runtime.density_b_iter
 * bytes, B_iter as the authors' pass encodes it: whole bytes (truncated),
 * at most 0xfff. */
double rt_density(const struct runtime *rt, uint32_t d)
{
    if (!rt->obj[d].size) return 0.0;
    double b = rt->ri.bytes_iter[rt->region][d];
    if (rt->p.biter_bytes) b = fmin(floor(b), 4095.0);
    return b * (double)rt->lc / (double)rt->obj[d].size;
}

unsigned rt_mode(const struct runtime *rt, uint32_t d)
{
    unsigned m = rt->ri.mode[rt->region][d];
    return m ? m : WL_USE_R | WL_USE_W;     /* unknown: tofrom */
}

/* After the last kernel the host reads the results (the programs' output
 * and checksums): under unified memory its loads fault the GPU-resident
 * pages back to host memory (the real driver migrates a page to the CPU on
 * a CPU fault, uvm_va_block.c uvm_va_block_cpu_fault).  Timed as one bulk
 * migration per object, a prefetch to host (runs of pages, no per-fault
 * cost): a lower bound on the read, and the same bytes the Baselines'
 * copy-out moves (every written object), so both pay for their results.
 * Pages already in host memory (pinned, replaced) move nothing. */
void rt_read_results(struct runtime *rt)
{
    if (!rt->p.read_results) return;
    for (uint32_t d = 0; d < rt->nobjs; d++) {
        if (!rt->obj[d].written) continue;
        rt_push(rt, WL_STEP_PREFETCH, d, 0, rt->obj[d].size, WL_TO_HOST, WL_ADV_NONE, false);
        rt_row(rt, d, "host_read", rt->obj[d].size);
    }
}

bool rt_explicit(const struct runtime *rt, uint32_t d, uint64_t end)
{
    /* A remote mapping stays until a prefetch replaces it (the real
     * driver keeps remote mappings when the advice is unset,
     * uvm_va_range_unset_accessed_by): such bytes can only move explicitly. */
    if (rt->obj[d].remote_lo < end) return true;
    switch (rt->p.transfer) {
    case RT_IMPLICIT: return false;
    case RT_EXPLICIT: return true;
    default: return rt_density(rt, d) >= rt->p.density_threshold;   /* Sec. 3.1: 0.5 */
    }
}

static void unset_host_hints(struct runtime *rt, uint32_t d)
{
    struct rt_obj *o = &rt->obj[d];
    if (o->pref_host) rt_push(rt, WL_STEP_ADVISE, d, 0, o->size, WL_TO_GPU, WL_ADV_PREFERRED_HOST, true);
    if (o->accessed_by) rt_push(rt, WL_STEP_ADVISE, d, 0, o->size, WL_TO_GPU, WL_ADV_ACCESSED_BY_GPU, true);
    o->pref_host = o->accessed_by = false;
}

static uint64_t real_bytes(const struct rt_obj *o, uint64_t acct)
{ return acct < o->size ? acct : o->size; }

void rt_to_gpu(struct runtime *rt, uint32_t d, bool force_explicit)
{
    struct rt_obj *o = &rt->obj[d];
    uint64_t had = real_bytes(o, o->gpu);
    bool ex = force_explicit || rt_explicit(rt, d, o->size);
    unset_host_hints(rt, d);
    if (ex) {
        rt_push(rt, WL_STEP_PREFETCH, d, 0, o->size, WL_TO_GPU, WL_ADV_NONE, false);
        o->remote_lo = o->size;
    }
    rt->used += o->acct - o->gpu;
    o->gpu = o->acct;
    rt->placed[d] = true;
    if (rt->st.to_gpu) *rt->st.to_gpu += o->size - had;
    rt_row(rt, d, ex ? "to_gpu_explicit" : "to_gpu_implicit", o->size - had);
}

void rt_evict(struct runtime *rt, uint32_t d)
{
    struct rt_obj *o = &rt->obj[d];
    uint64_t bytes = real_bytes(o, o->gpu);
    SIM_ASSERT(o->gpu && rt->used >= o->gpu, "runtime", 0, "evicting %s with nothing on the GPU",
               rt->wl->allocs[d].name);
    rt_push(rt, WL_STEP_PREFETCH, d, 0, bytes, WL_TO_HOST, WL_ADV_NONE, false);
    if (!o->pref_host) {
        rt_push(rt, WL_STEP_ADVISE, d, 0, o->size, WL_TO_HOST, WL_ADV_PREFERRED_HOST, false);
        o->pref_host = true;
    }
    rt->used -= o->gpu;
    o->gpu = 0;
    rt->placed[d] = false;
    if (rt->st.evicted) *rt->st.evicted += bytes;
    rt_row(rt, d, "evict", bytes);
}

void rt_pin(struct runtime *rt, uint32_t d)
{
    struct rt_obj *o = &rt->obj[d];
    bool change = o->gpu || !o->pref_host || !o->accessed_by || o->remote_lo;
    if (o->gpu) {           /* a partial object that no longer fits at all */
        uint64_t b = real_bytes(o, o->gpu);
        rt_push(rt, WL_STEP_PREFETCH, d, 0, b, WL_TO_HOST, WL_ADV_NONE, false);
        rt->used -= o->gpu;
        o->gpu = 0;
        if (rt->st.evicted) *rt->st.evicted += b;
    }
    if (!o->pref_host)
        rt_push(rt, WL_STEP_ADVISE, d, 0, o->size, WL_TO_HOST, WL_ADV_PREFERRED_HOST, false);
    if (!o->accessed_by || o->remote_lo)
        rt_push(rt, WL_STEP_ADVISE, d, 0, o->size, WL_TO_HOST, WL_ADV_ACCESSED_BY_GPU, false);
    o->pref_host = o->accessed_by = true;
    o->remote_lo = 0;
    if (change && rt->st.pinned) *rt->st.pinned += o->size;
    rt_row(rt, d, change ? "pin_host" : "keep_host", o->size);
}

void rt_partial(struct runtime *rt, uint32_t d, uint64_t g)
{
    struct rt_obj *o = &rt->obj[d];
    SIM_ASSERT(g > 0 && g < o->acct && g % RT_BLOCK == 0 && g >= o->gpu, "runtime", 0,
               "partial mapping of %s: %llu of %llu bytes", rt->wl->allocs[d].name,
               (unsigned long long)g, (unsigned long long)o->acct);
    uint64_t end = real_bytes(o, g), had = real_bytes(o, o->gpu);
    bool same = g == o->gpu && !o->pref_host && o->remote_lo <= end;
    if (same) {
        rt_row(rt, d, "keep_partial_gpu", end);
        rt_row(rt, d, "keep_partial_host", o->size - end);
        rt->placed[d] = true;
        return;
    }
    /* The GPU portion, lowest addresses first (Sec. 3.4).  In uvmsim the
     * advice bits are per allocation (drv_step.c), so the host portion is
     * held by ACCESSED_BY's remote mappings of its range alone and
     * PREFERRED_HOST is left unset: the GPU portion's pages can still
     * fault in on demand. */
    if (o->pref_host) {
        rt_push(rt, WL_STEP_ADVISE, d, 0, o->size, WL_TO_GPU, WL_ADV_PREFERRED_HOST, true);
        o->pref_host = false;
    }
    bool ex = rt_explicit(rt, d, end);
    if (ex) {
        rt_push(rt, WL_STEP_PREFETCH, d, 0, end, WL_TO_GPU, WL_ADV_NONE, false);
        if (o->remote_lo < end) o->remote_lo = end;
    }
    if (o->remote_lo > end) {
        rt_push(rt, WL_STEP_ADVISE, d, end, o->size - end, WL_TO_HOST, WL_ADV_ACCESSED_BY_GPU, false);
        o->accessed_by = true;
        o->remote_lo = end;
    }
    rt->used += g - o->gpu;
    o->gpu = g;
    rt->placed[d] = true;
    if (rt->st.partial_gpu) *rt->st.partial_gpu += end - had;
    rt_row(rt, d, ex ? "partial_gpu_explicit" : "partial_gpu_implicit", end);
    rt_row(rt, d, "partial_host", o->size - end);
}

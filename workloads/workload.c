/* Generator registry, allocation layout, the program's step sequence, and
 * the `uvmsim workloads` listing. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "workload.h"
#include "gen.h"
#include "catalog.h"
#include "config/config.h"

uint64_t wl_add_alloc_hint(struct workload *wl, const char *name, uint64_t size,
                           enum wl_place place, unsigned advice)
{
    if (wl->nallocs == WL_MAX_ALLOCS)
        sim_panic("workload", 0, "more than %d allocations", WL_MAX_ALLOCS);
    uint64_t base = WL_VA_BASE;
    if (wl->nallocs) {
        const struct wl_alloc *p = &wl->allocs[wl->nallocs - 1];
        base = (p->base + p->size + WL_ALLOC_ALIGN - 1) & ~(WL_ALLOC_ALIGN - 1);
    }
    struct wl_alloc *a = &wl->allocs[wl->nallocs++];
    snprintf(a->name, sizeof a->name, "%s", name);
    a->size = size;
    a->base = base;
    a->place = place;
    a->advice = advice;
    if (advice & (WL_ADV_PREFERRED_HOST | WL_ADV_ACCESSED_BY_GPU)) wl->host_advice = true;
    wl->footprint += size;
    return base;
}

uint64_t wl_add_alloc(struct workload *wl, const char *name, uint64_t size)
{
    return wl_add_alloc_hint(wl, name, size, WL_PLACE_DEFAULT, WL_ADV_NONE);
}

struct workload *workload_create(const struct config *cfg)
{
    size_t n;
    const struct wl_info *w = wl_catalog(&n)[cfg_choice(cfg, "workload.kind")];
    struct workload *wl = xcalloc(1, sizeof *wl);
    wl->ops = w->ops;
    /* A generator's user error (a bad input file) frees this too. */
    user_error_push_cleanup(free, wl);
    wl->impl = wl->ops->create(wl, cfg);
    user_error_pop_cleanup();
    /* A per-thread generator's wl_prog describes its program to the
     * SC19 analyses (sim/runtime) unless the generator said more. */
    if (wl->ops->next_step == wl_simple_next_step && !wl->program)
        wl->program = wl_prog_program(&((struct wl_simple *)wl->impl)->prog);
    return wl;
}

void workload_free(struct workload *wl)
{
    if (!wl) return;
    wl->ops->destroy(wl->impl);
    free(wl);
}

bool wl_next_step(struct workload *wl, struct wl_step *out)
{
    memset(out, 0, sizeof *out);
    if (!wl->ops->next_step(wl->impl, out)) return false;
    if (out->kind == WL_STEP_KERNEL) {
        out->kernel.seq = wl->kernels++;
        if (!wl->program) out->kernel.site = UINT32_MAX;
    } else {
        const struct wl_host_step *h = &out->host;
        SIM_ASSERT(h->alloc < wl->nallocs &&
                   h->offset + h->bytes <= wl->allocs[h->alloc].size,
                   "workload", 0, "%s: host step outside allocation %u",
                   wl->ops->name, h->alloc);
        wl->host_steps++;
    }
    return true;
}

bool wl_next_kernel(struct workload *wl, struct wl_kernel *k)
{
    struct wl_step st;
    while (wl_next_step(wl, &st)) {
        if (st.kind != WL_STEP_KERNEL) continue;
        *k = st.kernel;
        return true;
    }
    return false;
}

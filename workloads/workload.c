/* Generator registry and allocation layout. */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "workload.h"
#include "../sim/config.h"

extern const struct workload_ops stream_workload_ops;
extern const struct workload_ops compute_workload_ops;

static const struct workload_ops *const generators[] = {
    &stream_workload_ops,
    &compute_workload_ops,
};

const struct cfg_key workload_config_keys[] = {
    {"workload.kind", CFG_ENUM, "stream", 0, -1, "stream|compute",
     "which generator produces the warps' instructions"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

uint64_t wl_add_alloc(struct workload *wl, const char *name, uint64_t size)
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
    wl->footprint += size;
    return base;
}

struct workload *workload_create(const struct config *cfg)
{
    const char *kind = cfg_str(cfg, "workload.kind");
    for (size_t i = 0; i < sizeof generators / sizeof generators[0]; i++) {
        if (strcmp(generators[i]->name, kind) != 0) continue;
        struct workload *wl = xcalloc(1, sizeof *wl);
        wl->ops = generators[i];
        wl->impl = wl->ops->create(wl, cfg);
        return wl;
    }
    sim_panic("workload", 0, "no generator '%s'", kind);
}

void workload_free(struct workload *wl)
{
    if (!wl) return;
    wl->ops->destroy(wl->impl);
    free(wl);
}

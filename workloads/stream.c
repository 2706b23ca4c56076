/* Streaming kernel: thread i touches element i of one array, a[i] (read),
 * a[i] = x (write) or a[i] += x (readwrite), with a grid-stride loop, one
 * kernel launch per pass.  HPE Fig. 2 type I (streaming) for one pass,
 * type II (thrashing) for several passes over a footprint larger than
 * GPU memory. */
#include <stdlib.h>
#include <string.h>
#include "workload.h"
#include "catalog.h"
#include "config/config.h"

enum stream_op { OP_READ = 1, OP_WRITE = 2, OP_READWRITE = 3 };

struct stream {
    uint64_t base, elems, lane_stride;
    uint32_t grid, block;
    uint64_t passes, launched;
    enum stream_op op;
};

const struct cfg_key stream_config_keys[] = {
    {"workload.stream.footprint", CFG_SIZE, "32MiB", 4096, 1.1e15, NULL,
     "bytes of the array"},
    {"workload.stream.passes", CFG_INT, "2", 1, 1e9, NULL,
     "kernel launches, each sweeping the whole array once"},
    {"workload.stream.op", CFG_ENUM, "readwrite", 0, -1, "read|write|readwrite",
     "per element: load, store, or load then store"},
    {"workload.stream.lane_stride", CFG_SIZE, "4B", 4, 1048576, NULL,
     "bytes between the elements of consecutive threads (4B: fully coalesced)"},
    {"workload.stream.block", CFG_INT, "256", 32, 1024, NULL,
     "threads per block"},
    {"workload.stream.grid", CFG_INT, "0", 0, 2147483647, NULL,
     "blocks per launch (0: one element per thread, no grid-stride loop)"},
    {"workload.stream.advice", CFG_ENUM, "none", 0, -1, "none|preferred_host|accessed_by",
     "cudaMemAdvise on the array before the program: none, SetPreferredLocation(cpu) (the "
     "first touch maps the host copy remotely) or SetAccessedBy(gpu)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void *stream_create(struct workload *wl, const struct config *cfg)
{
    struct stream *s = xcalloc(1, sizeof *s);
    uint64_t bytes = cfg_u64(cfg, "workload.stream.footprint");
    s->lane_stride = cfg_u64(cfg, "workload.stream.lane_stride");
    s->elems = bytes / s->lane_stride;
    if (s->elems == 0)
        user_error("workload.stream.footprint (%llu B) holds no element of "
                   "workload.stream.lane_stride (%llu B)",
                   (unsigned long long)bytes, (unsigned long long)s->lane_stride);
    s->block = (uint32_t)cfg_u64(cfg, "workload.stream.block");
    s->grid = (uint32_t)cfg_u64(cfg, "workload.stream.grid");
    if (s->grid == 0) s->grid = (uint32_t)((s->elems + s->block - 1) / s->block);
    s->passes = cfg_u64(cfg, "workload.stream.passes");
    const char *op = "workload.stream.op";
    s->op = cfg_is(cfg, op, "read") ? OP_READ : cfg_is(cfg, op, "write") ? OP_WRITE
                                                                         : OP_READWRITE;
    const char *adv = "workload.stream.advice";
    unsigned advice = cfg_is(cfg, adv, "preferred_host") ? WL_ADV_PREFERRED_HOST
                      : cfg_is(cfg, adv, "accessed_by") ? WL_ADV_ACCESSED_BY_GPU : WL_ADV_NONE;
    s->base = wl_add_alloc_hint(wl, "a", bytes, WL_PLACE_DEFAULT, advice);
    return s;
}

static bool stream_next_step(void *impl, struct wl_step *st)
{
    struct stream *s = impl;
    if (s->launched == s->passes) return false;
    st->kind = WL_STEP_KERNEL;
    struct wl_kernel *k = &st->kernel;
    strcpy(k->name, "stream");
    k->grid = (struct dim3){ s->grid, 1, 1 };
    k->block = (struct dim3){ s->block, 1, 1 };
    k->regs_per_thread = 16;
    k->arg = s->launched++;
    return true;
}

/* s[0] = grid-stride iteration, s[1] = phase within the element (0 load,
 * 1 store). */
static void stream_warp_start(void *impl, struct warp_ctx *w)
{
    (void)impl;
    w->s[0] = 0;
    w->s[1] = 0;
}

static void stream_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *in)
{
    struct stream *s = impl;
    uint64_t total = (uint64_t)s->grid * s->block;
    uint64_t first = w->block * s->block + (uint64_t)w->warp * WARP_SIZE;
    uint64_t i0 = first + w->s[0] * total;
    in->active = 0;
    for (uint32_t l = 0; l < w->threads; l++) {
        uint64_t i = i0 + l;
        if (i >= s->elems) break;
        in->active |= 1u << l;
        in->addr[l] = s->base + i * s->lane_stride;
    }
    if (!in->active) { in->op = INST_EXIT; return; }
    in->size = 4;
    bool load = (s->op & OP_READ) && w->s[1] == 0;
    in->op = load ? INST_LOAD : INST_STORE;
    if (load && (s->op & OP_WRITE)) { w->s[1] = 1; return; }
    w->s[1] = 0;
    w->s[0]++;
}

static void stream_destroy(void *impl) { free(impl); }

static const struct workload_ops stream_workload_ops = {
    .name = "stream",
    .create = stream_create,
    .next_step = stream_next_step,
    .warp_start = stream_warp_start,
    .next_inst = stream_next_inst,
    .destroy = stream_destroy,
};

const struct wl_info stream_info = {
    &stream_workload_ops, stream_config_keys,
    "Streaming micro-kernel (grid-stride a[i] load/store), one launch per pass; "
    "HPE (Yu et al.) Fig. 2 type I streaming for one pass, type II thrashing "
    "for several passes over more than GPU memory.",
    "`footprint` (one array of footprint / lane_stride elements)",
};

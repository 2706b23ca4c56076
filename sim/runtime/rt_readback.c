/* The host reads the program's results back after its last kernel
 * (workload.read_back), for every workload: a CUDA program ends with a
 * cudaMemcpy to the host, or host code reading its managed arrays, of the
 * arrays its kernels wrote, and under unified memory those reads fault the
 * GPU-resident pages back to host memory (the real driver migrates a page
 * to the CPU on a CPU fault, uvm_va_block.c uvm_va_block_cpu_fault).  The
 * same read as the SC19 runtime layer's (rt_steps.c rt_read_results): one
 * prefetch to the host per object, runs of pages, no per-fault cost --
 * a lower bound on the read.
 *
 * Which objects: those a kernel stored to, learnt as the run goes (the
 * GMMU reports each PTE dirty-bit set: once per page per mapping), less
 * those the program itself prefetched to the host after its last kernel
 * (already there).  A program with a memcpy to the host of its own (the
 * Rodinia originals' cudaMemcpy D2H, e.g. backprop) says which results
 * its host reads: nothing is added to it.
 * An allocation lookup is a binary search of at most WL_MAX_ALLOCS bases,
 * once per dirty-bit set: nothing per access. */
#include <stdlib.h>
#include <string.h>
#include "rt_internal.h"
#include "core/mem_req.h"
#include "core/stats.h"
#include "workloads/workload.h"

struct readback {
    struct workload *wl;
    struct runtime *rt;               /* the step source it wraps, or NULL: the workload's */
    bool written[WL_MAX_ALLOCS];
    bool copied_out[WL_MAX_ALLOCS];   /* prefetched to the host since the last kernel */
    bool own_copies;                  /* the program copies to the host itself */
    bool draining;                    /* the program is over: reading back */
    uint32_t next;                    /* next allocation to read back */
    uint64_t *objects, *bytes;
};

struct readback *readback_create(const struct config *cfg, struct workload *wl,
                                 struct runtime *rt, struct stats *st)
{
    if (!cfg_bool(cfg, "workload.read_back") || (rt && runtime_reads_results(rt))) return NULL;
    struct readback *rb = xcalloc(1, sizeof *rb);
    rb->wl = wl;
    rb->rt = rt;
    rb->objects = stat_counter(st, "workload.read_back_objects", "objects",
                               "objects the host read back after the last kernel (workload.read_back)");
    rb->bytes = stat_counter(st, "workload.read_back_bytes", "bytes",
                             "bytes of those objects (their GPU-resident pages move: driver.pages_to_host)");
    return rb;
}

void readback_free(struct readback *rb) { free(rb); }

void readback_note_write(struct readback *rb, uint64_t vpn)
{
    uint64_t va = vpn << PAGE_SHIFT;
    size_t lo = 0, hi = rb->wl->nallocs;      /* allocations in address order (wl_add_alloc) */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (rb->wl->allocs[mid].base <= va) lo = mid + 1;
        else hi = mid;
    }
    if (!lo) return;
    const struct wl_alloc *a = &rb->wl->allocs[lo - 1];
    if (va < a->base + ((a->size + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1))) rb->written[lo - 1] = true;
}

bool readback_next_step(struct readback *rb, struct wl_step *out, sim_time now, sim_time *delay)
{
    while (!rb->draining) {
        bool more = rb->rt ? runtime_next_step(rb->rt, out, now, delay) : wl_next_step(rb->wl, out);
        if (!more) { rb->draining = true; break; }
        if (out->kind == WL_STEP_KERNEL) memset(rb->copied_out, 0, sizeof rb->copied_out);
        else if (out->kind == WL_STEP_MEMCPY && out->host.dir == WL_TO_HOST) rb->own_copies = true;
        else if (out->kind == WL_STEP_PREFETCH && out->host.dir == WL_TO_HOST &&
                 out->host.alloc < WL_MAX_ALLOCS)
            rb->copied_out[out->host.alloc] = true;
        return true;
    }
    for (; !rb->own_copies && rb->next < rb->wl->nallocs; rb->next++) {
        uint32_t d = rb->next;
        if (!rb->written[d] || rb->copied_out[d]) continue;
        memset(out, 0, sizeof *out);
        out->kind = WL_STEP_PREFETCH;
        out->host = (struct wl_host_step){ .alloc = d, .offset = 0, .bytes = rb->wl->allocs[d].size,
                                           .dir = WL_TO_HOST };
        *delay = 0;
        *rb->objects += 1;
        *rb->bytes += rb->wl->allocs[d].size;
        rb->next++;
        return true;
    }
    return false;
}

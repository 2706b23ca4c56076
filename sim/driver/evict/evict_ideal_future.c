/* Ideal's future: every page reference in a logical order that does not
 * depend on timing or on the eviction policy (docs/policies.md, "Ideal").
 *
 * Timed runs: the workload's generators are deterministic per warp, so a
 * private instance of the workload (built from the same config) is run
 * alone, without timing, before the simulation: kernels in launch order,
 * each kernel's thread blocks in index order (the dispatch order), and
 * inside a block its warps in lockstep, one memory instruction each per
 * round (the warps of a block are resident together).  A reference's place
 * is its key (kernel, block, memory instruction of the warp, warp), which
 * the SM reports with each translation (gpu_ref), so a reference finds its
 * own entry however the timed run interleaves warps: nothing can drift.
 * A warp instruction's pages are the distinct 4 KiB pages of its active
 * lanes, as the coalescer's (sim/sm/coalesce.c).
 *
 * Replay: the trace itself, key = (0, position).
 *
 * Two walks over the program: the first counts references per page, the
 * second fills the keys, grouped by page in ascending order (CSR), so the
 * memory is 16 bytes per reference and nothing is sorted. */
#include <string.h>
#include <stdlib.h>
#include "evict_ideal.h"
#include "core/mem_req.h"
#include "config/config.h"
#include "workloads/workload.h"

typedef void (*visit_fn)(struct ideal_future *f, uint64_t vpn, struct ideal_key k);

static uint32_t id_of(struct ideal_future *f, uint64_t vpn)
{
    uint32_t id = page_map_get(&f->page_id, vpn);
    if (id == PAGE_MAP_NONE) {
        id = (uint32_t)f->npages++;
        page_map_put(&f->page_id, vpn, id);
    }
    return id;
}

static void count_ref(struct ideal_future *f, uint64_t vpn, struct ideal_key k)
{
    (void)k;
    f->first[id_of(f, vpn) + 1]++;
    f->n++;
}

static void fill_ref(struct ideal_future *f, uint64_t vpn, struct ideal_key k)
{
    f->key[f->fill[page_map_get(&f->page_id, vpn)]++] = k;
}

/* The pages of one memory instruction, each once. */
static void visit_inst(struct ideal_future *f, visit_fn fn, const struct warp_inst *in,
                       struct ideal_key k, uint64_t unit)
{
    uint64_t seen[WARP_SIZE];
    unsigned n = 0;
    for (unsigned l = 0; l < WARP_SIZE; l++) {
        if (!(in->active >> l & 1)) continue;
        uint64_t vpn = page_of(in->addr[l]) / unit * unit;   /* the driver's page */
        unsigned j = 0;
        while (j < n && seen[j] != vpn) j++;
        if (j < n) continue;
        seen[n++] = vpn;
        fn(f, vpn, k);
    }
}

struct walk { struct ideal_future *f; visit_fn fn; uint64_t unit; };

static void walk_kernel(void *ctx, const struct wl_kernel *k)
{
    (void)ctx;
    uint64_t blocks = (uint64_t)k->grid.x * k->grid.y * k->grid.z;
    uint32_t nw = (k->block.x * k->block.y * k->block.z + WARP_SIZE - 1) / WARP_SIZE;
    if (k->seq >> 32 || (blocks && (blocks - 1) >> 32) || nw > 256)
        user_error("driver.eviction=ideal: kernel %llu (%s) is too large for the future's keys "
                   "(2^32 launches, 2^32 blocks, 256 warps per block)",
                   (unsigned long long)k->seq, k->name);
}

static void walk_inst(void *ctx, const struct wl_kernel *k, uint64_t block, uint64_t round,
                      uint32_t warp, const struct warp_inst *in)
{
    struct walk *c = ctx;
    visit_inst(c->f, c->fn, in, ideal_key_of(k->seq, block, round, warp), c->unit);
}

/* workloads/walk.c's order is the one the keys name (the header comment). */
static void walk_program(struct workload *wl, struct ideal_future *f, visit_fn fn, uint64_t unit)
{
    static const struct wl_walk_ops ops = { walk_kernel, walk_inst };
    struct walk c = { f, fn, unit };
    wl_walk_program(wl, &ops, &c);
}

static void finish_counts(struct ideal_future *f)
{
    for (uint64_t i = 0; i < f->npages; i++) f->first[i + 1] += f->first[i];
    f->key = xmalloc((f->n ? f->n : 1) * sizeof *f->key);
    f->fill = xmalloc((f->npages ? f->npages : 1) * sizeof *f->fill);
    for (uint64_t i = 0; i < f->npages; i++) f->fill[i] = f->first[i];
}

static void init(struct ideal_future *f, size_t max_pages)
{
    *f = (struct ideal_future){ 0 };
    page_map_init(&f->page_id, max_pages);
    f->first = xcalloc(max_pages + 1, sizeof *f->first);
}

void ideal_future_program(struct ideal_future *f, const struct config *cfg)
{
    /* every page the program touches lies in one of its allocations */
    /* The policy ranks the driver's pages (driver.page_size: 4 KiB or a
     * 64 KiB big page, driver.c's unit). */
    uint64_t unit = cfg_is(cfg, "driver.page_size", "64KiB") ? 16 : 1;
    struct workload *wl = workload_create(cfg);
    size_t max_pages = 0;
    for (size_t i = 0; i < wl->nallocs; i++) max_pages += wl->allocs[i].size / PAGE_SIZE + 1;
    init(f, max_pages);
    walk_program(wl, f, count_ref, unit);
    workload_free(wl);
    finish_counts(f);
    wl = workload_create(cfg);          /* the program from its start again */
    walk_program(wl, f, fill_ref, unit);
    workload_free(wl);
    free(f->fill);
    f->fill = NULL;
}

void ideal_future_trace(struct ideal_future *f, const uint64_t *refs, size_t n)
{
    init(f, n);
    for (size_t i = 0; i < n; i++) count_ref(f, refs[i], ideal_key_of(0, 0, i, 0));
    finish_counts(f);
    for (size_t i = 0; i < n; i++) fill_ref(f, refs[i], ideal_key_of(0, 0, i, 0));
    free(f->fill);
    f->fill = NULL;
}

void ideal_future_free(struct ideal_future *f)
{
    page_map_free(&f->page_id);
    free(f->first);
    free(f->key);
    free(f->fill);
}

/* The position of key k among page id's references, or SIZE_MAX. */
size_t ideal_future_find(const struct ideal_future *f, uint32_t id, struct ideal_key k)
{
    uint64_t lo = f->first[id], hi = f->first[id + 1];
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (ideal_key_less(f->key[mid], k)) lo = mid + 1; else hi = mid;
    }
    return lo < f->first[id + 1] && ideal_key_eq(f->key[lo], k) ? (size_t)lo : SIZE_MAX;
}

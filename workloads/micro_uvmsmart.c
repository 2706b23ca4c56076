/* The UVMSmart micro-benchmarks (Ganguly et al., ISCA'19 artifact,
 * DebashisGanguly/gpgpu-sim_UVMSmart, micro-benchmarks/): one thread of a
 * one-warp launch touches one byte (read, then write: x[i] += c) at each
 * offset of a fixed list, spinning `sleep` cycles after each so that every
 * far fault is its own batch and the previous copy has landed before the
 * next fault (the tree prefetcher sees the grown residency).  The host
 * writes the whole managed allocation first, so every fault migrates from
 * host memory (WL_PLACE_HOST).  The lists (BB = 64 KiB big pages, LP =
 * 2 MiB large pages):
 *   p1        BB x {0,1,2,4,8,16}             of 2 MiB (getHWPrefetcherP1)
 *   p2        BB x {1,3,0,4,8,16}             of 2 MiB (getHWPrefetcherP2)
 *   p3        BB x {1,3,5,7,0,8,16}           of 2 MiB (getHWPrefetcherP3)
 *   boundary  j LP + BB x {0,1,2,4,8,16}, j < 3, of 6 MiB (largePageBoundary)
 *   roundup   BB x {0,1,2,4,8,16}, LP + BB x {0,1,2}, of 2 MiB + 192 KiB
 *             (managedAllocRoundUp), declared as the runtime rounds it:
 *             2 MiB + 256 KiB
 * Their nvprof traces (each file's closing comment, GTX 1080 Ti) are the
 * measurements scripts/reproduce/hardware.sh compares against. */
#include <string.h>
#include "gen.h"

#define BB (64ULL << 10)
#define LP (2ULL << 20)
#define MAX_TOUCH 18

struct uvmsmart {
    struct wl_simple g;
    uint64_t a, off[MAX_TOUCH], sleep;
    unsigned n;
};

const struct cfg_key uvmsmart_config_keys[] = {
    {"workload.uvmsmart.bench", CFG_ENUM, "p1", 0, -1, "p1|p2|p3|boundary|roundup",
     "which micro-benchmark: getHWPrefetcherP1/P2/P3, largePageBoundary, managedAllocRoundUp"},
    {"workload.uvmsmart.sleep", CFG_INT, "1000", 0, 1e9, NULL,
     "core cycles the thread spins after each access (the benchmarks' sleep(1000))"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t uvmsmart_npos(const void *impl, const struct warp_ctx *w)
{ (void)w; return 2 * ((const struct uvmsmart *)impl)->n; }

static bool uvmsmart_lane(const void *impl, const struct warp_ctx *w,
                          const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct uvmsmart *m = impl;
    (void)w;
    if (t->tid != 0 || t->bx != 0) { op->done = true; return false; }   /* if (index == 0) */
    op->op = pos % 2 ? INST_STORE : INST_LOAD;
    op->size = 1;
    /* The spin after the previous access, issued before this one's load. */
    op->compute = pos % 2 == 0 && pos ? (uint32_t)m->sleep : 0;
    op->addr = m->a + m->off[pos / 2];
    return true;
}

static void *uvmsmart_create(struct workload *wl, const struct config *cfg)
{
    static const unsigned tree[] = { 0, 1, 2, 4, 8, 16 }, p2[] = { 1, 3, 0, 4, 8, 16 },
                          p3[] = { 1, 3, 5, 7, 0, 8, 16 };
    struct uvmsmart *m = xcalloc(1, sizeof *m);
    const char *b = cfg_str(cfg, "workload.uvmsmart.bench");
    uint64_t size = LP;
    if (!strcmp(b, "p2")) {
        for (unsigned i = 0; i < 6; i++) m->off[m->n++] = p2[i] * BB;
    } else if (!strcmp(b, "p3")) {
        for (unsigned i = 0; i < 7; i++) m->off[m->n++] = p3[i] * BB;
    } else if (!strcmp(b, "boundary")) {
        size = 3 * LP;
        for (unsigned j = 0; j < 3; j++)
            for (unsigned i = 0; i < 6; i++) m->off[m->n++] = j * LP + tree[i] * BB;
    } else {
        for (unsigned i = 0; i < 6; i++) m->off[m->n++] = tree[i] * BB;
        if (!strcmp(b, "roundup")) {
            /* cudaMallocManaged(2 MiB + 192 KiB): the benchmark's finding is
             * that the managed range's last VA block is rounded up to a
             * power-of-two number of 64 KiB big pages (256 KiB here), the
             * prefetch tree's leaves; uvmsim's allocations are not, so the
             * rounded size is declared. */
            size = LP + 256 * 1024;
            for (unsigned i = 0; i < 3; i++) m->off[m->n++] = LP + i * BB;
        }
    }
    m->sleep = cfg_u64(cfg, "workload.uvmsmart.sleep");
    /* The host initialises every byte (for i < N: x[i] = 0) before the launch. */
    m->a = wl_add_alloc_hint(wl, "x", size, WL_PLACE_HOST, 0);
    m->g.npos = uvmsmart_npos;
    m->g.lane = uvmsmart_lane;
    wl_prog_kernel(&m->g.prog, "getHWPrefetch", 0, (struct dim3){ 1, 1, 1 },
                   (struct dim3){ 32, 1, 1 }, 9, 0);
    return m;
}

static const struct workload_ops uvmsmart_ops = {
    "uvmsmart", uvmsmart_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info uvmsmart_info = {
    &uvmsmart_ops, uvmsmart_config_keys,
    "UVMSmart micro-benchmarks (DebashisGanguly/gpgpu-sim_UVMSmart micro-benchmarks/: "
    "getHWPrefetcherP1-P3, largePageBoundary, managedAllocRoundUp; getHWPrefetch<<<1,32>>>), "
    "the GTX 1080 Ti nvprof traces of the tree prefetcher (Ganguly et al., ISCA'19).",
    "2 MiB (p1-p3), 6 MiB (boundary), 2 MiB + 256 KiB (roundup: 192 KiB rounded up); one byte per listed offset touched",
};

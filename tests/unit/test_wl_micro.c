/* Micro-kernels, the HPE pattern kernel, determinism per seed, the
 * interface (host steps, catalog) and host memory at a 4 GiB footprint. */
#include <check.h>
#include "suite_main.h"
#include <sys/resource.h>
#include "wl_harness.h"
#include "workloads/gen.h"
#include "core/stats.h"
#include "system.h"

/* splitmix64's finaliser, written out again here (not the library's). */
static uint64_t sm64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

START_TEST(vecadd_pages_and_thread_sequence)
{
    static const char *const sets[] = { "workload.kind=vecadd", "workload.vecadd.n=5000" };
    struct wlh h = open_check(sets, NSETS(sets), 3 * wlh_pages(5000 * 4), 1);
    wlh_close(&h);
    struct wlh_seq want = {0};
    uint64_t i = 4999;          /* block 19, tid 135 */
    wlh_push(&want, L(0, i * 4)); wlh_push(&want, L(1, i * 4)); wlh_push(&want, S(2, i * 4));
    check_thread(sets, NSETS(sets), 0, 19, 135, &want, "vecadd i=4999");
    check_thread(sets, NSETS(sets), 0, 19, 136, &want, "vecadd i=5000 idle");
}
END_TEST

START_TEST(gups_pages_thread_sequence_and_seed)
{
    static const char *const sets[] = { "workload.kind=gups", "workload.gups.footprint=80000B",
        "workload.gups.updates_per_word=2", "workload.gups.threads=640", "sim.seed=7" };
    struct wlh h = open_check(sets, NSETS(sets), wlh_pages(80000), 2);
    wlh_close(&h);
    /* 20000 updates over 640 threads: 32 each (rounded up). */
    struct wlh_seq want = {0};
    uint64_t t = 300, seed = sm64(7);
    for (uint64_t k = 0; k < 32; k++) {
        uint64_t r = sm64(seed + t * 32 + k) % 10000;
        wlh_push(&want, L(0, r * 8)); wlh_push(&want, S(0, r * 8));
    }
    check_thread(sets, NSETS(sets), 1, 1, 44, &want, "gups update thread 300");
    wlh_push(&want, S(0, 300 * 8));
    check_thread(sets, NSETS(sets), 0, 1, 44, &want, "gups init thread 300");
    /* Same seed, same stream; another seed, another stream. */
    h = wlh_open(sets, NSETS(sets));
    uint64_t h1 = wlh_run_all(h.wl).hash;
    wlh_close(&h);
    h = wlh_open(sets, NSETS(sets));
    ck_assert_uint_eq(wlh_run_all(h.wl).hash, h1);
    wlh_close(&h);
    static const char *const other[] = { "workload.kind=gups", "workload.gups.footprint=80000B",
        "workload.gups.updates_per_word=2", "workload.gups.threads=640", "sim.seed=8" };
    h = wlh_open(other, NSETS(other));
    ck_assert_uint_ne(wlh_run_all(h.wl).hash, h1);
    wlh_close(&h);
}
END_TEST

/* A total update count spread exactly: 20001 updates over 640 threads is
 * 31 each and one more for threads 0..160 (20001 mod 640 = 161).  Thread
 * t's first update is 31 t + min(t, 161): thread 160 does 5120..5151,
 * thread 161 5152..5182, thread 639 19970..20000, the last update. */
static void push_updates(struct wlh_seq *want, uint64_t seed, uint64_t u0, uint64_t n)
{
    for (uint64_t u = u0; u < u0 + n; u++) {
        uint64_t r = sm64(seed + u) % 10000;
        wlh_push(want, L(0, r * 8)); wlh_push(want, S(0, r * 8));
    }
}

START_TEST(gups_total_updates_are_exact)
{
    static const char *const sets[] = { "workload.kind=gups", "workload.gups.footprint=80000B",
        "workload.gups.updates=20001", "workload.gups.threads=640", "sim.seed=7" };
    uint64_t seed = sm64(7);
    struct wlh_seq want = {0};
    push_updates(&want, seed, 5120, 32);
    check_thread(sets, NSETS(sets), 1, 0, 160, &want, "gups thread 160: 32 updates");
    push_updates(&want, seed, 5152, 31);
    check_thread(sets, NSETS(sets), 1, 0, 161, &want, "gups thread 161: 31 updates");
    push_updates(&want, seed, 19970, 31);
    check_thread(sets, NSETS(sets), 1, 2, 127, &want, "gups thread 639: the last 31");
    /* A total that is a multiple of the threads is the per-word form:
     * 2 per word of 10000 is 20000, rounded up to 640 x 32 = 20480. */
    static const char *const per_word[] = { "workload.kind=gups", "workload.gups.footprint=80000B",
        "workload.gups.updates_per_word=2", "workload.gups.threads=640", "sim.seed=7" };
    static const char *const total[] = { "workload.kind=gups", "workload.gups.footprint=80000B",
        "workload.gups.updates=20480", "workload.gups.threads=640", "sim.seed=7" };
    struct wlh h = wlh_open(per_word, NSETS(per_word));
    uint64_t h1 = wlh_run_all(h.wl).hash;
    wlh_close(&h);
    h = wlh_open(total, NSETS(total));
    ck_assert_uint_eq(wlh_run_all(h.wl).hash, h1);
    wlh_close(&h);
    /* Fewer updates than threads: thread t < 5 does update t, the rest none. */
    static const char *const few[] = { "workload.kind=gups", "workload.gups.footprint=80000B",
        "workload.gups.updates=5", "workload.gups.threads=640", "sim.seed=7" };
    push_updates(&want, seed, 4, 1);
    check_thread(few, NSETS(few), 1, 0, 4, &want, "gups thread 4 of 5 updates");
    check_thread(few, NSETS(few), 1, 0, 5, &want, "gups thread 5 of 5 updates: none");
}
END_TEST

/* UVMSmart ra: thread x (x % every == 0) reads input[x], then table[r] and
 * writes output[r], r = mix(mix(seed) + x) mod n; allocations in the order
 * input, output, table.  The touched pages are every input page plus the
 * pages of the drawn r in table and output, counted here from the same
 * definition (n = 5000 floats: 5 pages an array). */
START_TEST(ra_pages_thread_sequence_and_seed)
{
    static const char *const sets[] = { "workload.kind=ra", "workload.ra.n=5000",
        "workload.ra.every=100", "sim.seed=7" };
    uint64_t seed = sm64(7);
    bool tpage[5] = {0};
    for (uint64_t x = 0; x < 5000; x += 100) tpage[sm64(seed + x) % 5000 * 4 / 4096] = true;
    uint64_t pages = 5;
    for (int i = 0; i < 5; i++) pages += 2 * tpage[i];
    struct wlh h = open_check(sets, NSETS(sets), pages, 1);
    wlh_close(&h);
    struct wlh_seq want = {0};
    uint64_t x = 300, r = sm64(seed + 300) % 5000;     /* block 1, tid 44 */
    wlh_push(&want, L(0, x * 4)); wlh_push(&want, L(2, r * 4)); wlh_push(&want, S(1, r * 4));
    check_thread(sets, NSETS(sets), 0, 1, 44, &want, "ra thread 300");
    check_thread(sets, NSETS(sets), 0, 1, 45, &want, "ra thread 301 idle");
    static const char *const other[] = { "workload.kind=ra", "workload.ra.n=5000",
        "workload.ra.every=100", "sim.seed=8" };
    h = wlh_open(sets, NSETS(sets));
    uint64_t h1 = wlh_run_all(h.wl).hash;
    wlh_close(&h);
    h = wlh_open(other, NSETS(other));
    ck_assert_uint_ne(wlh_run_all(h.wl).hash, h1);
    wlh_close(&h);
}
END_TEST

START_TEST(cyclic_pages_and_thread_sequence)
{
    static const char *const sets[] = { "workload.kind=cyclic", "workload.cyclic.footprint=40000B",
        "workload.cyclic.sweeps=3", "workload.cyclic.grid=2" };
    struct wlh h = open_check(sets, NSETS(sets), wlh_pages(40000), 1);
    wlh_close(&h);
    struct wlh_seq want = {0};
    for (int s = 0; s < 3; s++)
        for (uint64_t i = 300; i < 10000; i += 512) {
            wlh_push(&want, L(0, i * 4)); wlh_push(&want, S(0, i * 4));
        }
    check_thread(sets, NSETS(sets), 0, 1, 44, &want, "cyclic thread 300");
}
END_TEST

/* UVMSmart getHWPrefetcherP3: thread 0 alone reads then writes one byte
 * at 64 KiB x {1,3,5,7,0,8,16}: 7 pages; every other thread is idle. */
START_TEST(uvmsmart_access_order)
{
    static const char *const sets[] = { "workload.kind=uvmsmart", "workload.uvmsmart.bench=p3" };
    struct wlh h = open_check(sets, NSETS(sets), 7, 1);
    wlh_close(&h);
    static const unsigned bb[] = { 1, 3, 5, 7, 0, 8, 16 };
    struct wlh_seq want = {0};
    for (int i = 0; i < 7; i++) { wlh_push(&want, L(0, bb[i] * 65536)); wlh_push(&want, S(0, bb[i] * 65536)); }
    check_thread(sets, NSETS(sets), 0, 0, 0, &want, "uvmsmart p3 thread 0");
    check_thread(sets, NSETS(sets), 0, 0, 1, &want, "uvmsmart p3 thread 1 idle");
    /* largePageBoundary: the same six offsets in each of three 2 MiB blocks. */
    static const char *const lpb[] = { "workload.kind=uvmsmart", "workload.uvmsmart.bench=boundary" };
    h = open_check(lpb, NSETS(lpb), 18, 1);
    wlh_close(&h);
}
END_TEST

/* Allen and Ge's kernels: linear thread i reads page i; random reads each
 * of the pages exactly once (a permutation: 1000 distinct pages from 1000
 * threads), in an order that follows the seed; triad reads b, c and
 * writes a at element i, once per launch. */
START_TEST(uvmeval_pages_and_sequences)
{
    static const char *const lin[] = { "workload.kind=uvmeval", "workload.uvmeval.pages=1000" };
    struct wlh h = open_check(lin, NSETS(lin), 1000, 1);
    wlh_close(&h);
    struct wlh_seq want = {0};
    wlh_push(&want, L(0, 300 * 4096));                  /* block 4 of 64 threads, tid 44 */
    check_thread(lin, NSETS(lin), 0, 4, 44, &want, "uvmeval linear i=300");
    check_thread(lin, NSETS(lin), 0, 15, 40, &want, "uvmeval linear i=1000 idle");
    static const char *const rnd[] = { "workload.kind=uvmeval", "workload.uvmeval.kernel=random",
                                       "workload.uvmeval.pages=1000", "sim.seed=3" };
    h = open_check(rnd, NSETS(rnd), 1000, 1);
    uint64_t h1 = wlh_run_all(h.wl).hash;
    wlh_close(&h);
    static const char *const rnd2[] = { "workload.kind=uvmeval", "workload.uvmeval.kernel=random",
                                        "workload.uvmeval.pages=1000", "sim.seed=4" };
    h = open_check(rnd2, NSETS(rnd2), 1000, 1);
    ck_assert_uint_ne(wlh_run_all(h.wl).hash, h1);
    wlh_close(&h);
    static const char *const tri[] = { "workload.kind=uvmeval", "workload.uvmeval.kernel=triad",
                                       "workload.uvmeval.elems=2048", "workload.uvmeval.iters=2" };
    h = open_check(tri, NSETS(tri), 3 * wlh_pages(2048 * 8), 2);
    wlh_close(&h);
    uint64_t i = 1029;                                   /* block 1 of 1024, tid 5 */
    wlh_push(&want, L(1, i * 8)); wlh_push(&want, L(2, i * 8)); wlh_push(&want, S(0, i * 8));
    check_thread(tri, NSETS(tri), 1, 1, 5, &want, "uvmeval triad i=1029, second launch");
}
END_TEST

/* Page 19 is warp 3 of block 2 (8 warps a block, one page each). */
static void pattern_case(const char *type, uint64_t kernels, uint64_t kseq,
                         uint64_t first, int kind)
{
    char ty[80];
    snprintf(ty, sizeof ty, "workload.pattern.type=%s", type);
    const char *sets[] = { "workload.kind=pattern", ty, "workload.pattern.pages=100",
        "workload.pattern.passes=3", "workload.pattern.reps=5", "workload.pattern.regions=4",
        "workload.pattern.fraction=50%", "sim.seed=3" };
    struct wlh h = open_check(sets, NSETS(sets), 100, kernels);
    wlh_close(&h);
    uint64_t p = first + 19, seed = sm64(3), hsh = sm64(seed + p), n = 1;
    if (kind == 1) n = (double)(hsh >> 11) / 9007199254740992.0 < 0.5 ? 5 : 1;
    if (kind == 2) n = 2 + hsh % 4;
    struct wlh_seq want = {0};
    for (uint64_t j = 0; j < n; j++) wlh_push(&want, L(0, p * 4096 + (j % 32) * 128 + 7 * 4));
    check_thread(sets, NSETS(sets), kseq, 2, 3 * 32 + 7, &want, type);
}

START_TEST(hpe_patterns_pages_and_sequences)
{
    pattern_case("streaming", 1, 0, 0, 0);
    pattern_case("thrashing", 3, 2, 0, 0);
    pattern_case("part-repetitive", 1, 0, 0, 1);
    pattern_case("most-repetitive", 1, 0, 0, 2);
    pattern_case("repetitive-thrashing", 3, 1, 0, 2);
    pattern_case("region-moving", 4, 2, 50, 2);
}
END_TEST

/* Type III repeats about eps of the pages: with 4000 pages and eps = 25 %
 * the count is 1000 +- 5 sigma (sigma = sqrt(4000*0.25*0.75) = 27.4). */
START_TEST(part_repetitive_fraction)
{
    static const char *const sets[] = { "workload.kind=pattern",
        "workload.pattern.type=part-repetitive", "workload.pattern.pages=4000",
        "workload.pattern.reps=3" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wlh_run r = wlh_run_all(h.wl);
    /* loads = pages + 2 * repeated; each load follows one compute. */
    uint64_t repeated = (r.mem_insts - 4000) / 2;
    ck_assert_uint_ge(repeated, 1000 - 137);
    ck_assert_uint_le(repeated, 1000 + 137);
    wlh_close(&h);
}
END_TEST

/* Parboil mri-q: allocs 0 x, 1 y, 2 z, 3 Qr, 4 Qi, 5 phiR, 6 phiI, 7 phiMag.
 * numK = 2500: PhiMag, then chunks of 1024, 1024, 452. */
START_TEST(mriq_pages_and_thread_sequence)
{
    static const char *const sets[] = { "workload.kind=mriq", "workload.mriq.numx=2048",
                                        "workload.mriq.numk=2500" };
    struct wlh h = open_check(sets, NSETS(sets), 5 * wlh_pages(2048 * 4) + 3 * wlh_pages(2500 * 4), 4);
    wlh_close(&h);
    struct wlh_seq want = {0};
    wlh_push(&want, L(5, 2499 * 4)); wlh_push(&want, L(6, 2499 * 4)); wlh_push(&want, S(7, 2499 * 4));
    check_thread(sets, NSETS(sets), 0, 4, 451, &want, "ComputePhiMag k=2499");
    check_thread(sets, NSETS(sets), 0, 4, 452, &want, "ComputePhiMag k=2500 idle");
    uint64_t x = 3 * 256 + 17;
    for (int a = 0; a < 5; a++) wlh_push(&want, L(a, x * 4));
    wlh_push(&want, S(3, x * 4)); wlh_push(&want, S(4, x * 4));
    check_thread(sets, NSETS(sets), 3, 3, 17, &want, "ComputeQ chunk 2");
}
END_TEST

START_TEST(every_generator_is_a_workload_kind)
{
    size_t n;
    const struct wl_info *const *cat = wl_catalog(&n);
    for (size_t i = 0; i < n; i++) {
        char set[64];
        snprintf(set, sizeof set, "workload.kind=%s", cat[i]->ops->name);
        const char *sets[] = { set };
        struct cfg_error err;
        struct config *c = config_load(NULL, sets, 1, &err);
        ck_assert_msg(c != NULL, "%s: %s", set, c ? "" : err.msg);
        config_free(c);
        ck_assert_ptr_nonnull(cat[i]->source);
        ck_assert_ptr_nonnull(cat[i]->footprint);
    }
}
END_TEST

/* Host steps in a program: wl_next_step returns them in order, with the
 * loop repeated; wl_next_kernel skips and counts them. */
static void *hs_create(struct workload *wl, const struct config *cfg)
{
    (void)cfg;
    struct wl_simple *g = xcalloc(1, sizeof *g);
    wl_add_alloc_hint(wl, "x", 8192, WL_PLACE_HOST, WL_ADV_READ_MOSTLY);
    wl_prog_host(&g->prog, WL_STEP_ADVISE, 0, 0, 8192, WL_TO_GPU, WL_ADV_PREFERRED_GPU);
    wl_prog_host(&g->prog, WL_STEP_PREFETCH, 0, 0, 4096, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_kernel(&g->prog, "k", 0, (struct dim3){ 1, 1, 1 }, (struct dim3){ 32, 1, 1 }, 8, 0);
    wl_prog_host(&g->prog, WL_STEP_MEMCPY, 0, 4096, 4096, WL_TO_HOST, WL_ADV_NONE);
    wl_prog_loop(&g->prog, 2, 3);
    return g;
}
static const struct workload_ops hs_ops = { "hs", hs_create, wl_simple_next_step,
    wl_simple_warp_start, wl_simple_next_inst, wl_simple_destroy };

START_TEST(host_steps_in_program_order)
{
    struct workload wl = { .ops = &hs_ops };
    wl.impl = hs_ops.create(&wl, NULL);
    ck_assert_int_eq(wl.allocs[0].place, WL_PLACE_HOST);
    ck_assert_uint_eq(wl.allocs[0].advice, WL_ADV_READ_MOSTLY);
    static const enum wl_step_kind want[] = { WL_STEP_ADVISE, WL_STEP_PREFETCH,
        WL_STEP_KERNEL, WL_STEP_MEMCPY, WL_STEP_KERNEL, WL_STEP_MEMCPY,
        WL_STEP_KERNEL, WL_STEP_MEMCPY };
    struct wl_step st;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        ck_assert(wl_next_step(&wl, &st));
        ck_assert_int_eq(st.kind, want[i]);
        if (st.kind == WL_STEP_KERNEL) ck_assert_uint_eq(st.kernel.arg, (i - 2) / 2);
    }
    ck_assert_int_eq(st.host.dir, WL_TO_HOST);
    ck_assert_uint_eq(st.host.offset, 4096);
    ck_assert(!wl_next_step(&wl, &st));
    hs_ops.destroy(wl.impl);
    /* The same program through wl_next_kernel: 3 kernels, 5 host steps. */
    struct workload w2 = { .ops = &hs_ops };
    w2.impl = hs_ops.create(&w2, NULL);
    struct wl_kernel k;
    uint64_t nk = 0;
    while (wl_next_kernel(&w2, &k)) ck_assert_uint_eq(k.seq, nk++);
    ck_assert_uint_eq(nk, 3);
    ck_assert_uint_eq(w2.host_steps, 5);
    hs_ops.destroy(w2.impl);
}
END_TEST

/* The per-thread machinery of gen.c (wl_simple): lane coordinates stepped
 * through the warp, a memory op behind its compute, finished lanes. */
struct lanes_gen { struct wl_simple g; uint64_t calls[WARP_SIZE]; };

/* npos 6.  Position 0: every lane stores an encoding of its coordinates.
 * Position 1: 3 compute cycles, then odd lanes load; even lanes finish
 * (done).  Positions 2..5: odd lanes load 8 * pos. */
static uint64_t lg_npos(const void *impl, const struct warp_ctx *w)
{ (void)impl; (void)w; return 6; }

static bool lg_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    struct lanes_gen *g = (struct lanes_gen *)(uintptr_t)impl;
    g->calls[t->tid % WARP_SIZE]++;
    (void)w;
    op->size = 4;
    op->compute = 0;
    op->op = pos ? INST_LOAD : INST_STORE;
    if (pos == 0) {
        op->addr = (uint64_t)t->tid << 40 | (uint64_t)t->tx << 32 | (uint64_t)t->ty << 24 |
                   (uint64_t)t->tz << 16 | t->bx << 8 | t->by << 4 | t->bz;
        return true;
    }
    if (t->tid % 2 == 0) return op->done = pos == 1, false;
    op->compute = pos == 1 ? 3 : 0;
    op->addr = 8 * pos + t->tid;
    return true;
}

START_TEST(lanes_stepped_compute_pending_finished_skipped)
{
    struct lanes_gen *g = xcalloc(1, sizeof *g);
    g->g.npos = lg_npos;
    g->g.lane = lg_lane;
    /* Block 5 x 4 x 3 = 60 threads: warp 1 has lanes 32..59 (28 threads);
     * grid 2 x 3 x 2, block 9 = (1, 1, 1). */
    struct wl_kernel k = { .grid = { 2, 3, 2 }, .block = { 5, 4, 3 } };
    struct warp_ctx w = { .k = &k, .block = 9, .warp = 1, .threads = 28 };
    wl_simple_warp_start(g, &w);
    struct warp_inst in;
    memset(&in, 0, sizeof in);
    wl_simple_next_inst(g, &w, &in);
    ck_assert_int_eq(in.op, INST_STORE);
    ck_assert_uint_eq(in.active, (1u << 28) - 1);
    for (uint32_t l = 0; l < 28; l++) {
        uint64_t tid = 32 + l;                  /* threadIdx from the CUDA numbering */
        uint64_t want = tid << 40 | (tid % 5) << 32 | (tid / 5 % 4) << 24 |
                        (tid / 20) << 16 | 1 << 8 | 1 << 4 | 1;
        ck_assert_uint_eq(in.addr[l], want);
    }
    /* Position 1: the compute first, then the odd lanes' loads, the lanes
     * asked once for both. */
    wl_simple_next_inst(g, &w, &in);
    ck_assert_int_eq(in.op, INST_COMPUTE);
    ck_assert_uint_eq(in.cycles, 3);
    ck_assert_uint_eq(in.active, 0x0aaaaaaa);
    wl_simple_next_inst(g, &w, &in);
    ck_assert_int_eq(in.op, INST_LOAD);
    ck_assert_uint_eq(in.cycles, 0);
    ck_assert_uint_eq(in.active, 0x0aaaaaaa);
    for (uint32_t l = 1; l < 28; l += 2) ck_assert_uint_eq(in.addr[l], 8 + 32 + l);
    for (uint64_t pos = 2; pos < 6; pos++) {
        wl_simple_next_inst(g, &w, &in);
        ck_assert_int_eq(in.op, INST_LOAD);
        ck_assert_uint_eq(in.active, 0x0aaaaaaa);
        ck_assert_uint_eq(in.addr[27], 8 * pos + 59);
    }
    wl_simple_next_inst(g, &w, &in);
    ck_assert_int_eq(in.op, INST_EXIT);
    /* Even lanes: asked at positions 0 and 1 only; odd lanes at all 6. */
    for (uint32_t l = 0; l < 28; l++) ck_assert_uint_eq(g->calls[l], l % 2 ? 6 : 2);
    /* A warp whose lanes all finish exits at the first position where
     * none is active, without asking them about positions 2..5. */
    memset(g->calls, 0, sizeof g->calls);
    struct wl_kernel k1 = { .grid = { 1, 1, 1 }, .block = { 1, 1, 1 } };
    struct warp_ctx w1 = { .k = &k1, .block = 0, .warp = 0, .threads = 1 };
    wl_simple_warp_start(g, &w1);
    wl_simple_next_inst(g, &w1, &in);
    ck_assert_int_eq(in.op, INST_STORE);
    wl_simple_next_inst(g, &w1, &in);
    ck_assert_int_eq(in.op, INST_EXIT);
    ck_assert_uint_eq(g->calls[0], 2);
    free(g);
}
END_TEST

/* In a whole run the driver runs the host steps between the kernels and
 * none is skipped: backprop's bpnn_train_cuda has 8 copies around its 2
 * kernels. */
START_TEST(run_counts_skipped_host_steps)
{
    static const char *const sets[] = { "workload.kind=backprop", "workload.backprop.in=256" };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, NSETS(sets), &err);
    ck_assert_ptr_nonnull(c);
    struct system *sys = system_build(c);
    ck_assert_int_eq(system_run(sys), RUN_COMPLETED);
    const struct stat_entry *st = stats_find(system_stats(sys), "workload.host_steps_skipped");
    ck_assert_ptr_nonnull(st);
    ck_assert_uint_eq(*st->p.u, 0);
    st = stats_find(system_stats(sys), "driver.host_steps");
    ck_assert_ptr_nonnull(st);
    ck_assert_uint_eq(*st->p.u, 8);
    ck_assert_uint_eq(system_kernels_done(sys), 2);
    system_free(sys);
    config_free(c);
}
END_TEST

static long maxrss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* 4 GiB of footprint generated warp by warp: host memory stays flat.  The
 * harness's own page bitmap is 128 KiB.  Under ASan the baseline includes
 * shadow memory, so there the growth is what is bounded. */
START_TEST(four_gib_streaming_keeps_rss_under_50mb)
{
    long before = maxrss_kib();
    static const char *const sets[] = { "workload.stream.footprint=4GiB",
        "workload.stream.lane_stride=128B", "workload.stream.passes=1" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    ck_assert_uint_eq(h.wl->footprint, 4ULL << 30);
    struct wlh_run r = wlh_run_all(h.wl);
    ck_assert_uint_eq(r.pages, (4ULL << 30) / 4096);
    wlh_close(&h);
    long after = maxrss_kib();
#ifdef __SANITIZE_ADDRESS__
    ck_assert_int_lt(after - before, 50 * 1024);
#else
    (void)before;
    ck_assert_int_lt(after, 50 * 1024);
#endif
}
END_TEST

static Suite *micro_suite(void)
{
    Suite *s = suite_create("wl_micro");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, vecadd_pages_and_thread_sequence);
    tcase_add_test(tc, gups_pages_thread_sequence_and_seed);
    tcase_add_test(tc, gups_total_updates_are_exact);
    tcase_add_test(tc, ra_pages_thread_sequence_and_seed);
    tcase_add_test(tc, cyclic_pages_and_thread_sequence);
    tcase_add_test(tc, uvmsmart_access_order);
    tcase_add_test(tc, uvmeval_pages_and_sequences);
    tcase_add_test(tc, hpe_patterns_pages_and_sequences);
    tcase_add_test(tc, part_repetitive_fraction);
    tcase_add_test(tc, mriq_pages_and_thread_sequence);
    tcase_add_test(tc, every_generator_is_a_workload_kind);
    tcase_add_test(tc, host_steps_in_program_order);
    tcase_add_test(tc, lanes_stepped_compute_pending_finished_skipped);
    tcase_add_test(tc, run_counts_skipped_host_steps);
    tcase_add_test(tc, four_gib_streaming_keeps_rss_under_50mb);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(micro_suite()); }

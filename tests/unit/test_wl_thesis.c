/* The thesis's (Agarwal) workloads that uvmsim lacked: srad_v1, xsbench,
 * minife, mummergpu, comd, cns.  Each kernel's per-thread memory ops equal
 * the CUDA source's loop nest transcribed here (every thread of a tiny
 * input), chosen threads' ops are also listed by hand, the pages touched
 * equal the documented footprint, and streams are deterministic per seed. */
#include <check.h>
#include "suite_main.h"
#include "wl_threads.h"

static uint64_t stream_hash(const char *const *sets, size_t n)
{
    struct wlh h = wlh_open(sets, n);
    uint64_t x = wlh_run_all(h.wl).hash;
    wlh_close(&h);
    return x;
}

/* ---- srad_v1 (Rodinia 3.1 srad/srad_v1): allocations in main.cu's order. */
enum { SV_I, SV_IN, SV_IS, SV_JE, SV_JW, SV_SUMS, SV_SUMS2, SV_DN, SV_DS, SV_DW, SV_DE, SV_C };
static long sv_nr, sv_nc;

/* extract, prepare, srad, srad2, compress for thread ei, as the .cu files
 * read; iN/iS/jW/jE hold main.cu's clamped neighbour indices. */
static void sv_elem(struct wlh_seq *s, int kernel, long ei)
{
    long nr = sv_nr, ne = sv_nr * sv_nc;
    if (ei >= ne) return;
    long row = (ei + 1) % nr - 1, col = (ei + 1) / nr + 1 - 1;
    if ((ei + 1) % nr == 0) { row = nr - 1; col = col - 1; }
    long in = row == 0 ? 0 : row - 1, is = row == nr - 1 ? row : row + 1;
    long jw = col == 0 ? 0 : col - 1, je = col == sv_nc - 1 ? col : col + 1;
    switch (kernel) {
    case 0:     /* extract, compress: d_I[ei] = exp/log(d_I[ei]) */
        wlh_push(s, L(SV_I, ei * 4)); wlh_push(s, S(SV_I, ei * 4));
        break;
    case 1:     /* prepare */
        wlh_push(s, L(SV_I, ei * 4)); wlh_push(s, S(SV_SUMS, ei * 4));
        wlh_push(s, L(SV_I, ei * 4)); wlh_push(s, S(SV_SUMS2, ei * 4));
        break;
    case 2:     /* srad: the call binds parameter d_dE to d_dW and d_dW to d_dE */
        wlh_push(s, L(SV_I, ei * 4));
        wlh_push(s, L(SV_IN, row * 4)); wlh_push(s, L(SV_I, (in + nr * col) * 4));
        wlh_push(s, L(SV_IS, row * 4)); wlh_push(s, L(SV_I, (is + nr * col) * 4));
        wlh_push(s, L(SV_JW, col * 4)); wlh_push(s, L(SV_I, (row + nr * jw) * 4));
        wlh_push(s, L(SV_JE, col * 4)); wlh_push(s, L(SV_I, (row + nr * je) * 4));
        wlh_push(s, S(SV_DN, ei * 4)); wlh_push(s, S(SV_DS, ei * 4));
        wlh_push(s, S(SV_DE, ei * 4)); wlh_push(s, S(SV_DW, ei * 4));
        wlh_push(s, S(SV_C, ei * 4));
        break;
    default:    /* srad2 */
        wlh_push(s, L(SV_C, ei * 4));
        wlh_push(s, L(SV_IS, row * 4)); wlh_push(s, L(SV_C, (is + nr * col) * 4));
        wlh_push(s, L(SV_JE, col * 4)); wlh_push(s, L(SV_C, (row + nr * je) * 4));
        wlh_push(s, L(SV_DN, ei * 4)); wlh_push(s, L(SV_DS, ei * 4));
        wlh_push(s, L(SV_DE, ei * 4)); wlh_push(s, L(SV_DW, ei * 4));
        wlh_push(s, L(SV_I, ei * 4)); wlh_push(s, S(SV_I, ei * 4));
        break;
    }
}
static void sv_extract(struct wlh_seq *s, uint64_t b, uint32_t t) { sv_elem(s, 0, (long)(b * 512 + t)); }
static void sv_prepare(struct wlh_seq *s, uint64_t b, uint32_t t) { sv_elem(s, 1, (long)(b * 512 + t)); }
static void sv_srad(struct wlh_seq *s, uint64_t b, uint32_t t) { sv_elem(s, 2, (long)(b * 512 + t)); }
static void sv_srad2(struct wlh_seq *s, uint64_t b, uint32_t t) { sv_elem(s, 3, (long)(b * 512 + t)); }

START_TEST(srad_v1_threads_by_hand)
{
    /* 30 x 20 image: Ne = 600, 2 blocks of 512.  Reduce level 0: no = 600,
     * mul = 1, nf = 512 - (1024 - 600) = 88, df = 64 (6 tree barriers),
     * leader thread 63 of block 1 adds sums[576..599]; level 1: one block,
     * no = 2, mul = 512, nf = 2, df = 2 (1 tree barrier), leader thread 1. */
    static const char *const sets[] = { "workload.kind=srad_v1", "workload.srad_v1.rows=30",
        "workload.srad_v1.cols=20", "workload.srad_v1.iterations=1" };
    sv_nr = 30; sv_nc = 20;
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wlh_run r = wlh_run_all(h.wl);
    /* extract, prepare, reduce x 2, srad, srad2, compress */
    ck_assert_uint_eq(r.kernels, 7);
    /* 2400-byte image arrays (1 page each) x 8 + the four index arrays */
    ck_assert_uint_eq(r.pages, 12);
    wlh_close(&h);
    /* srad, thread 0 (row 0, col 0: iN = iS-1 = jW = 0, jE = 1) */
    {
        uint64_t v[] = { L(SV_I, 0), L(SV_IN, 0), L(SV_I, 0), L(SV_IS, 0), L(SV_I, 4),
                         L(SV_JW, 0), L(SV_I, 0), L(SV_JE, 0), L(SV_I, 120),
                         S(SV_DN, 0), S(SV_DS, 0), S(SV_DE, 0), S(SV_DW, 0), S(SV_C, 0) };
        struct wlh_seq w = wlt_list(v, NSETS(v));
        check_thread(sets, NSETS(sets), 4, 0, 0, &w, "srad thread 0");
    }
    /* srad, ei = 599 (block 1, thread 87): row 29, col 19; north 598,
     * south clamped 599, west 29 + 30*18 = 569, east clamped 599 */
    {
        uint64_t v[] = { L(SV_I, 599 * 4), L(SV_IN, 29 * 4), L(SV_I, 598 * 4),
                         L(SV_IS, 29 * 4), L(SV_I, 599 * 4), L(SV_JW, 19 * 4),
                         L(SV_I, 569 * 4), L(SV_JE, 19 * 4), L(SV_I, 599 * 4),
                         S(SV_DN, 599 * 4), S(SV_DS, 599 * 4), S(SV_DE, 599 * 4),
                         S(SV_DW, 599 * 4), S(SV_C, 599 * 4) };
        struct wlh_seq w = wlt_list(v, NSETS(v));
        check_thread(sets, NSETS(sets), 4, 1, 87, &w, "srad ei 599");
    }
    /* thread 88 of block 1 has no element */
    {
        struct wlh_seq w = {0};
        check_thread(sets, NSETS(sets), 4, 1, 88, &w, "srad ei 600");
    }
    /* reduce level 0: block 0 thread 511 (full block: 1 + 9 barriers) */
    {
        uint64_t v[] = { L(SV_SUMS, 511 * 4), L(SV_SUMS2, 511 * 4), BAR, BAR, BAR, BAR, BAR,
                         BAR, BAR, BAR, BAR, BAR, S(SV_SUMS, 0), S(SV_SUMS2, 0) };
        struct wlh_seq w = wlt_list(v, NSETS(v));
        check_thread(sets, NSETS(sets), 2, 0, 511, &w, "reduce 0 block 0 thread 511");
    }
    /* level 0, block 1 thread 63: ei 575; 1 + 6 barriers; sums[576..599] */
    {
        struct wlh_seq w = {0};
        wlh_push(&w, L(SV_SUMS, 575 * 4)); wlh_push(&w, L(SV_SUMS2, 575 * 4));
        for (int i = 0; i < 7; i++) wlh_push(&w, BAR);
        for (int i = 576; i < 600; i++) { wlh_push(&w, L(SV_SUMS, i * 4)); wlh_push(&w, L(SV_SUMS2, i * 4)); }
        wlh_push(&w, S(SV_SUMS, 512 * 4)); wlh_push(&w, S(SV_SUMS2, 512 * 4));
        check_thread(sets, NSETS(sets), 2, 1, 63, &w, "reduce 0 block 1 thread 63");
    }
    /* level 0, block 1 thread 100: ei 612, no element, barriers only */
    {
        uint64_t v[] = { BAR, BAR, BAR, BAR, BAR, BAR, BAR };
        struct wlh_seq w = wlt_list(v, NSETS(v));
        check_thread(sets, NSETS(sets), 2, 1, 100, &w, "reduce 0 block 1 thread 100");
    }
    /* level 1 thread 1: sums[1 * 512]; 1 + 1 barriers; stores sums[0] */
    {
        uint64_t v[] = { L(SV_SUMS, 512 * 4), L(SV_SUMS2, 512 * 4), BAR, BAR,
                         S(SV_SUMS, 0), S(SV_SUMS2, 0) };
        struct wlh_seq w = wlt_list(v, NSETS(v));
        check_thread(sets, NSETS(sets), 3, 0, 1, &w, "reduce 1 thread 1");
    }
    wlt_all_threads_eq(sets, NSETS(sets), 0, sv_extract, "extract");
    wlt_all_threads_eq(sets, NSETS(sets), 1, sv_prepare, "prepare");
    wlt_all_threads_eq(sets, NSETS(sets), 4, sv_srad, "srad");
    wlt_all_threads_eq(sets, NSETS(sets), 5, sv_srad2, "srad2");
    wlt_all_threads_eq(sets, NSETS(sets), 6, sv_extract, "compress");
}
END_TEST

START_TEST(srad_v1_full_blocks_and_loop)
{
    /* 64 x 40: Ne = 2560 = 5 x 512, every level-0 block full (nf = 512);
     * level 1: no = 5, nf = 5, df = 4 (2 tree barriers), leader thread 3
     * adds sums[4] -- the source's remainder loop omits the multiplier. */
    static const char *const sets[] = { "workload.kind=srad_v1", "workload.srad_v1.rows=64",
        "workload.srad_v1.cols=40", "workload.srad_v1.iterations=3" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wlh_run r = wlh_run_all(h.wl);
    /* extract + 3 x (prepare, reduce x 2, srad, srad2) + compress */
    ck_assert_uint_eq(r.kernels, 2 + 3 * 5);
    /* 10240-byte arrays: 3 pages x 8, and the index arrays 1 page each */
    ck_assert_uint_eq(r.pages, 8 * 3 + 4);
    ck_assert_uint_eq(h.wl->footprint, 8 * 10240 + 2 * 64 * 4 + 2 * 40 * 4);
    wlh_close(&h);
    uint64_t v[] = { L(SV_SUMS, 3 * 512 * 4), L(SV_SUMS2, 3 * 512 * 4), BAR, BAR, BAR,
                     L(SV_SUMS, 4 * 4), L(SV_SUMS2, 4 * 4), S(SV_SUMS, 0), S(SV_SUMS2, 0) };
    struct wlh_seq w = wlt_list(v, NSETS(v));
    /* kernels: 0 extract, 1 prepare, 2 reduce 0, 3 reduce 1 */
    check_thread(sets, NSETS(sets), 3, 0, 3, &w, "reduce 1 thread 3");
    /* level 0, block 4 (full): thread 511 stores sums[4 * 512] */
    uint64_t v2[] = { L(SV_SUMS, 2559 * 4), L(SV_SUMS2, 2559 * 4), BAR, BAR, BAR, BAR, BAR,
                      BAR, BAR, BAR, BAR, BAR, S(SV_SUMS, 2048 * 4), S(SV_SUMS2, 2048 * 4) };
    w = wlt_list(v2, NSETS(v2));
    check_thread(sets, NSETS(sets), 2, 4, 511, &w, "reduce 0 block 4 thread 511");
    /* no input data: the same stream for any seed */
    static const char *const other[] = { "workload.kind=srad_v1", "workload.srad_v1.rows=64",
        "workload.srad_v1.cols=40", "workload.srad_v1.iterations=3", "sim.seed=7" };
    ck_assert_uint_eq(stream_hash(other, NSETS(other)), stream_hash(sets, NSETS(sets)));
}
END_TEST

static Suite *thesis_suite(void)
{
    Suite *s = suite_create("wl_thesis");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, srad_v1_threads_by_hand);
    tcase_add_test(tc, srad_v1_full_blocks_and_loop);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(thesis_suite()); }

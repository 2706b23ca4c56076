/* Warp scheduler policies on a hand-built SM (sim/sm internals). */
#include <check.h>
#include "suite_main.h"
#include "sm/sm_internal.h"

static struct gpu g;
static struct sm s;
static struct warp w[4];
static uint64_t rdy[2], pip[2];
static sim_time pipe_min[2];

/* Warp states change through warp_set, which keeps the SM's per-state
 * counts and the schedulers' ready/pipeline bitsets the pickers read. */
static void set(int i, enum wstate st) { warp_set(&s, &w[i], st); }

static void setup(uint32_t nsched)
{
    static const uint64_t age[4] = { 3, 1, 2, 0 };
    g = (struct gpu){ .max_warps = 4, .nsched = nsched, .bwords = 1 };
    s = (struct sm){ .gpu = &g, .w = w, .rdy = rdy, .pip = pip, .pipe_min = pipe_min };
    s.nstate[W_FREE] = 4;
    rdy[0] = rdy[1] = pip[0] = pip[1] = 0;
    pipe_min[0] = pipe_min[1] = TIME_NEVER;
    for (uint32_t i = 0; i < 4; i++) {
        w[i] = (struct warp){ .st = W_FREE, .age = age[i], .sched = i % nsched,
                              .sbit = i / nsched };
        set((int)i, W_READY);
    }
}

static uint32_t pick(const struct sched_ops *o, struct scheduler *k)
{
    struct warp *x = o->pick(&s, k, 0);
    return x ? (uint32_t)(x - w) : 99;
}

/* LRR: the next ready warp after the last one issued, wrapping. */
START_TEST(lrr_rotates)
{
    setup(1);
    struct scheduler k = { 0, 0, 0 };
    ck_assert_uint_eq(pick(&sched_lrr, &k), 1);
    ck_assert_uint_eq(pick(&sched_lrr, &k), 2);
    set(3, W_MEM);
    ck_assert_uint_eq(pick(&sched_lrr, &k), 0);
    ck_assert_uint_eq(pick(&sched_lrr, &k), 1);
    /* A pipeline latency that has elapsed makes the warp ready. */
    w[2].ready_at = 0;
    set(2, W_PIPE);
    ck_assert_uint_eq(pick(&sched_lrr, &k), 2);
    for (int i = 0; i < 4; i++) set(i, W_BARRIER);
    ck_assert_uint_eq(pick(&sched_lrr, &k), 99);
    /* The counts and bitsets follow: four at the barrier, none ready. */
    ck_assert_uint_eq(s.nstate[W_BARRIER], 4);
    ck_assert_uint_eq(s.nstate[W_READY] + s.nstate[W_PIPE] + s.nstate[W_MEM], 0);
    ck_assert_uint_eq(rdy[0] | pip[0], 0);
}
END_TEST

/* GTO: stay on the last warp while it is ready, else the oldest ready
 * one (ages 3, 1, 2, 0 for slots 0..3). */
START_TEST(gto_greedy_then_oldest)
{
    setup(1);
    struct scheduler k = { 0, 0, 0 };
    ck_assert_uint_eq(pick(&sched_gto, &k), 0);       /* greedy on slot 0 */
    ck_assert_uint_eq(pick(&sched_gto, &k), 0);
    set(0, W_MEM);
    ck_assert_uint_eq(pick(&sched_gto, &k), 3);       /* age 0 */
    ck_assert_uint_eq(pick(&sched_gto, &k), 3);
    w[3].ready_at = 100;                              /* not yet */
    set(3, W_PIPE);
    ck_assert_uint_eq(pick(&sched_gto, &k), 1);       /* age 1 */
}
END_TEST

/* Two schedulers: slot i belongs to scheduler i mod 2. */
START_TEST(warps_split_between_schedulers)
{
    setup(2);
    struct scheduler k0 = { 0, 0, 0 }, k1 = { 1, 1, 0 };
    ck_assert_uint_eq(pick(&sched_lrr, &k0), 2);
    ck_assert_uint_eq(pick(&sched_lrr, &k0), 0);
    ck_assert_uint_eq(pick(&sched_lrr, &k1), 3);
    ck_assert_uint_eq(pick(&sched_lrr, &k1), 1);
    ck_assert_uint_eq(pick(&sched_gto, &k1), 1);
    set(1, W_MEM);
    ck_assert_uint_eq(pick(&sched_gto, &k1), 3);
    set(3, W_MEM);
    ck_assert_uint_eq(pick(&sched_gto, &k1), 99);
}
END_TEST

int main(void)
{
    Suite *su = suite_create("sm_sched");
    TCase *t = tcase_create("sched");
    tcase_add_test(t, lrr_rotates);
    tcase_add_test(t, gto_greedy_then_oldest);
    tcase_add_test(t, warps_split_between_schedulers);
    suite_add_tcase(su, t);
    return run_suite(su);
}

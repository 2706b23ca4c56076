/* ETC's memory-aware throttling (driver.throttle=etc; driver/perf/
 * drv_throttle.c) on crafted sequences of the driver's cumulative fault
 * and eviction counts, one call per detection-epoch length.  The expected
 * SM counts follow by hand from the rule: the first eviction throttles
 * half the SMs for one execution epoch (footnote 8 of the batch-aware
 * paper); each detection epoch then unthrottles one SM when it saw no
 * eviction (the working set fits), steps one SM the same way when its
 * faults fell by >= the threshold against the previous detection epoch's,
 * and the other way otherwise; 1 .. n SMs. */
#include <check.h>
#include "suite_main.h"
#include <string.h>
#include "config/config.h"
#include "core/stats.h"
#include "driver/perf/perf.h"
#include "system.h"

struct pt { uint64_t faults, evictions; unsigned active; };

static void run(struct etc_mt *c, const struct pt *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned a = etc_mt_tick(c, p[i].faults, p[i].evictions);
        ck_assert_msg(a == p[i].active, "epoch %zu: %u SMs, expected %u", i, a, p[i].active);
    }
}

/* 16 SMs, execution epoch = 2 detection lengths, 20 %:
 *   no eviction yet                        16
 *   100 faults, first evictions: trigger   16 - 16/2 = 8 (reference 100)
 *   initial phase: two lengths             8, 8
 *   detection: 70 faults (-30 %)           throttling helped: 7
 *   execution: two lengths                 7, 7
 *   detection: 65 faults (-7 %, > 80 % of 70): reverse: 8
 *   execution                              8, 8
 *   detection: 40 faults, no eviction      fits: 9
 *   execution                              9, 9
 *   detection: 10 faults, no eviction      fits: 10 */
START_TEST(throttles_half_then_climbs)
{
    struct etc_mt c;
    etc_mt_init(&c, 16, 2, 0.20);
    const struct pt p[] = {
        {50, 0, 16},
        {150, 5, 8}, {250, 9, 8}, {350, 12, 8},
        {420, 20, 7}, {500, 30, 7}, {600, 40, 7},
        {665, 50, 8}, {700, 55, 8}, {800, 60, 8},
        {840, 60, 9}, {850, 60, 9}, {860, 60, 9},
        {870, 60, 10},
    };
    run(&c, p, sizeof p / sizeof p[0]);
}
END_TEST

/* An irregular workload whose faults do not fall when SMs are throttled
 * (batch-aware Sec. 1: the pages are shared across cores): the first
 * detection reverses to unthrottling, and faults still not falling by
 * 20 % reverse again (a hill climb oscillates by one SM around the
 * trigger's half).  Exactly 20 % counts as a fall.  Execution epoch = 1. */
START_TEST(shared_working_set_and_exact_threshold)
{
    struct etc_mt c;
    etc_mt_init(&c, 4, 1, 0.20);
    /* trigger: 4 - 2 = 2 (reference 100); initial phase; detection 100
     * faults: no fall, reverse to +1: 3; 80 = exactly 20 % less: same
     * way: 4; 100: reverse, -1: 3; 100 vs 100: reverse, +1: 4. */
    const struct pt q[] = {
        {100, 1, 2}, {200, 2, 2}, {300, 3, 3}, {400, 4, 3}, {480, 5, 4},
        {580, 6, 4}, {680, 7, 3}, {780, 8, 3}, {880, 9, 4},
    };
    run(&c, q, sizeof q / sizeof q[0]);
}
END_TEST

/* Bounds: never below one SM, never above n; the trigger of an odd count
 * keeps the larger half (5 -> 3); nothing happens before an eviction. */
START_TEST(bounds)
{
    struct etc_mt c;
    etc_mt_init(&c, 5, 1, 0.5);
    const struct pt p[] = {
        {10, 0, 5}, {20, 0, 5},
        {1000, 1, 3},                       /* trigger: 5 - 2 */
        {2000, 2, 3},                       /* initial phase */
        {2100, 3, 2},                       /* 100 <= 50 % of 1000: -1 */
        {2200, 4, 2},
        {2240, 5, 1},                       /* 40 <= 50: -1 */
        {2280, 6, 1},
        {2290, 7, 1},                       /* 10 <= 20: -1, clamped at 1 */
        {2300, 7, 1},
        {2300, 7, 2},                       /* no eviction: +1 */
    };
    run(&c, p, sizeof p / sizeof p[0]);
    etc_mt_init(&c, 2, 1, 0.2);
    const struct pt q[] = {
        {10, 1, 1}, {20, 1, 1}, {20, 1, 2}, {20, 1, 2}, {20, 1, 2},
    };
    run(&c, q, sizeof q / sizeof q[0]);
}
END_TEST

/* The whole machine: a 2 MiB stream over 4 SMs in 1 MiB of GPU memory,
 * epochs of 2000 cycles.  The first row with an eviction has 4 - 4/2 = 2
 * SMs running; the run completes although blocks sit on throttled SMs
 * when the running ones run dry (they hand their turn over); the
 * throttled SMs' time is counted.  Off, no /throttle table exists. */
START_TEST(whole_machine_throttles_half_and_completes)
{
    const char *sets[] = { "gpu.sms=4", "workload.stream.footprint=2MiB",
                           "gpu.memory.capacity=1MiB", "driver.throttle=etc",
                           "driver.etc.detect=2000", "driver.etc.execute=1" };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, sizeof sets / sizeof sets[0], &err);
    if (!c) ck_abort_msg("config: %s", err.msg);
    struct system *sy = system_build(c);
    ck_assert_int_eq(system_run(sy), RUN_COMPLETED);
    const struct stats *st = system_stats(sy);
    const struct rec_table *tb = NULL;
    for (size_t t = 0; t < stats_table_count(st); t++)
        if (!strcmp(stats_table_at(st, t)->name, "throttle")) tb = stats_table_at(st, t);
    ck_assert_ptr_nonnull(tb);
    bool seen = false;
    for (size_t i = 0; i < tb->nrows && !seen; i++) {
        uint64_t active, ev;
        memcpy(&active, tb->rows + i * tb->row_bytes + 1 * 8, 8);
        memcpy(&ev, tb->rows + i * tb->row_bytes + 3 * 8, 8);
        if (ev) { ck_assert_uint_eq(active, 2); seen = true; }
        else ck_assert_uint_eq(active, 4);
    }
    ck_assert(seen);
    ck_assert_uint_gt(*stats_find(st, "driver.etc.throttled_sm_ps")->p.u, 0);
    system_free(sy);
    config_free(c);
    const char *off[] = { "gpu.sms=4", "workload.stream.footprint=2MiB", "gpu.memory.capacity=1MiB" };
    c = config_load(NULL, off, 3, &err);
    sy = system_build(c);
    ck_assert_int_eq(system_run(sy), RUN_COMPLETED);
    st = system_stats(sy);
    for (size_t t = 0; t < stats_table_count(st); t++)
        ck_assert_str_ne(stats_table_at(st, t)->name, "throttle");
    ck_assert_ptr_null(stats_find(st, "driver.etc.active_sms"));
    system_free(sy);
    config_free(c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("etc_mt");
    TCase *t = tcase_create("throttling");
    tcase_add_test(t, throttles_half_then_climbs);
    tcase_add_test(t, shared_working_set_and_exact_threshold);
    tcase_add_test(t, bounds);
    tcase_add_test(t, whole_machine_throttles_half_and_completes);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(suite()); }

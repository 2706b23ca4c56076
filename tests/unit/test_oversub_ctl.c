/* The runtime's thread-oversubscription controller (batch-aware Sec. 4.1,
 * Sec. 5.1; sim/driver/drv_oversub.c) on crafted lifetime sequences: the
 * inputs are the cumulative sum (us) and count of evicted pages'
 * lifetimes at each 100k-cycle period, the outputs the extra blocks per SM,
 * derived by hand from the rule "a fall of the running average by >= 20 %
 * of the previous period's decrements (and freezes), otherwise one more,
 * up to the cap". */
#include <check.h>
#include "suite_main.h"
#include "driver/perf/perf.h"

struct pt { double sum; uint64_t n; unsigned extra; double avg; };

static void run(struct oversub_ctl *c, const struct pt *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double avg;
        unsigned x = oversub_ctl_step(c, p[i].sum, p[i].n, &avg);
        ck_assert_msg(x == p[i].extra, "period %zu: extra %u, expected %u", i, x, p[i].extra);
        ck_assert_msg(avg > p[i].avg - 1e-9 && avg < p[i].avg + 1e-9,
                      "period %zu: average %g, expected %g", i, avg, p[i].avg);
    }
}

/* Cumulative average, 20 %, freeze, 1 extra block at first, cap 2:
 *   0 evictions            -> no average: one more (2)
 *   10 of 100 us: 100      -> first average: nothing to fall from (2, cap)
 *   +10 of 85 us: 92.5     -> -7.5 % (2)
 *   +10 of 40 us: 75       -> -18.9 %, under the threshold (2)
 *   +10 of 20 us: 61.25    -> -18.3 % (2): 100 -> 61 over four periods
 *                             never fell 20 % in one
 *   +20 of 10 us: 44.17    -> -27.9 %: decrement (1), frozen
 *   +40 of 100 us: 66.5    -> rising, but frozen (1)
 *   no new eviction        -> same average (1) */
START_TEST(decrement_on_a_20_percent_fall)
{
    struct oversub_ctl c;
    oversub_ctl_init(&c, 1, 2, 0.20, true, false);
    const struct pt p[] = {
        {0, 0, 2, -1}, {1000, 10, 2, 100}, {1850, 20, 2, 92.5}, {2250, 30, 2, 75},
        {2450, 40, 2, 61.25}, {2650, 60, 1, 2650.0 / 60}, {6650, 100, 1, 66.5},
        {6650, 100, 1, 66.5},
    };
    run(&c, p, sizeof p / sizeof p[0]);
}
END_TEST

/* Exactly 20 % is "decreased by the threshold": 100 -> 80 decrements.
 * Without freeze the next period that does not fall adds one again. */
START_TEST(exactly_20_percent_and_no_freeze)
{
    struct oversub_ctl c;
    oversub_ctl_init(&c, 2, 2, 0.20, false, false);
    const struct pt p[] = {
        {1000, 10, 2, 100}, {1600, 20, 1, 80}, {2400, 30, 2, 80}, {2400, 30, 2, 80},
    };
    run(&c, p, sizeof p / sizeof p[0]);
}
END_TEST

/* Per-period averages judge each period's evictions alone: the third
 * period's 10 pages of 40 us fall 53 % below the second's 85 us (the
 * cumulative average only 19 %): decrement there. */
START_TEST(per_period_average)
{
    struct oversub_ctl c;
    oversub_ctl_init(&c, 1, 2, 0.20, true, true);
    const struct pt p[] = {
        {0, 0, 2, -1}, {1000, 10, 2, 100}, {1850, 20, 2, 85}, {2250, 30, 1, 40},
        {2250, 30, 1, -1}, {3250, 40, 1, 100},
    };
    run(&c, p, sizeof p / sizeof p[0]);
}
END_TEST

/* Never below zero extra blocks; the cap holds from the start. */
START_TEST(bounds)
{
    struct oversub_ctl c;
    oversub_ctl_init(&c, 0, 3, 0.20, false, false);
    const struct pt p[] = {
        {0, 0, 1, -1}, {0, 0, 2, -1}, {0, 0, 3, -1}, {0, 0, 3, -1},
        {100, 1, 3, 100}, {150, 3, 2, 50}, {175, 7, 1, 25}, {187.5, 15, 0, 12.5},
        {193.75, 31, 0, 6.25},
    };
    run(&c, p, sizeof p / sizeof p[0]);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("oversub_ctl");
    TCase *t = tcase_create("controller");
    tcase_add_test(t, decrement_on_a_20_percent_fall);
    tcase_add_test(t, exactly_20_percent_and_no_freeze);
    tcase_add_test(t, per_period_average);
    tcase_add_test(t, bounds);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(suite()); }

/* sim.model fast's port calendar (sim/core/slots.h) against hand-counted
 * cycles: a request of n uses takes the first n cycles with room at or
 * after its time, one use per cycle, `width` uses a cycle at most; earlier
 * requests are not held behind later ones. */
#include <check.h>
#include "suite_main.h"
#include "core/slots.h"

#define P 1000       /* ps per cycle */

START_TEST(a_width_one_port_takes_consecutive_free_cycles)
{
    struct slots s;
    slots_init(&s, 1, P);
    sim_time last;
    /* 8 uses from 0: cycles 0-7 */
    ck_assert_uint_eq(slots_take_last(&s, 0, 8, &last), 0);
    ck_assert_uint_eq(last, 7 * P);
    /* from 3 ps into cycle 3: the first free cycle is 8 */
    ck_assert_uint_eq(slots_take_last(&s, 3 * P + 3, 8, &last), 8 * P);
    ck_assert_uint_eq(last, 15 * P);
    /* a time between cycles rounds up: 16.5 -> cycle 17 */
    ck_assert_uint_eq(slots_take(&s, 16 * P + 500, 1), 17 * P);
    slots_free(&s);
}
END_TEST

START_TEST(an_earlier_request_fills_the_gaps_before_a_later_one)
{
    struct slots s;
    slots_init(&s, 1, P);
    sim_time last;
    /* a later request looked up first: cycles 20-23 */
    ck_assert_uint_eq(slots_take_last(&s, 20 * P, 4, &last), 20 * P);
    /* an earlier one of 8: 16-19, then around 20-23, 24-27 */
    ck_assert_uint_eq(slots_take_last(&s, 16 * P, 8, &last), 16 * P);
    ck_assert_uint_eq(last, 27 * P);
    /* the gap before 16 is still free */
    ck_assert_uint_eq(slots_take_last(&s, 10 * P, 6, &last), 10 * P);
    ck_assert_uint_eq(last, 15 * P);
    /* and now 10-27 are full: the next one goes to 28 */
    ck_assert_uint_eq(slots_take(&s, 10 * P, 1), 28 * P);
    slots_free(&s);
}
END_TEST

START_TEST(runs_cross_word_boundaries)
{
    struct slots s;
    slots_init(&s, 1, P);
    sim_time last;
    /* 100 uses from 60: 60-159, across words 0, 1 and 2 */
    ck_assert_uint_eq(slots_take_last(&s, 60 * P, 100, &last), 60 * P);
    ck_assert_uint_eq(last, 159 * P);
    ck_assert_uint_eq(slots_take(&s, 61 * P, 1), 160 * P);
    /* 0-59 still free: 70 uses from 0 take 0-59 and 161-170 */
    ck_assert_uint_eq(slots_take_last(&s, 0, 70, &last), 0);
    ck_assert_uint_eq(last, 170 * P);
    slots_free(&s);
}
END_TEST

START_TEST(a_wider_port_counts_uses_per_cycle)
{
    struct slots s;
    slots_init(&s, 2, P);
    sim_time last;
    /* each use in its own cycle: 3 uses from 0 take one in 0, 1, 2 */
    ck_assert_uint_eq(slots_take_last(&s, 0, 3, &last), 0);
    ck_assert_uint_eq(last, 2 * P);
    /* the second use of 0, 1, 2 */
    ck_assert_uint_eq(slots_take_last(&s, 0, 3, &last), 0);
    ck_assert_uint_eq(last, 2 * P);
    /* 0-2 full now */
    ck_assert_uint_eq(slots_take_last(&s, 0, 2, &last), 3 * P);
    ck_assert_uint_eq(last, 4 * P);
    ck_assert_uint_eq(slots_take(&s, P, 1), 3 * P);     /* 3's second use */
    ck_assert_uint_eq(slots_take(&s, P, 1), 4 * P);     /* 4's second use */
    ck_assert_uint_eq(slots_take(&s, P, 1), 5 * P);
    slots_free(&s);
}
END_TEST

START_TEST(a_saturated_port_serves_at_its_rate)
{
    /* 4096 requests of 8 cycles, all asking at 0 (a DRAM bus at peak):
     * request k ends at cycle 8k + 7. */
    struct slots s;
    slots_init_n(&s, 1, P, 65536);
    sim_time last = 0;
    for (unsigned k = 0; k < 4096; k++) {
        ck_assert_uint_eq(slots_take_last(&s, 0, 8, &last), (sim_time)8 * k * P);
        ck_assert_uint_eq(last, (sim_time)(8 * k + 7) * P);
    }
    slots_free(&s);
}
END_TEST

static Suite *slots_suite(void)
{
    Suite *s = suite_create("slots");
    TCase *tc = tcase_create("calendar");
    tcase_add_test(tc, a_width_one_port_takes_consecutive_free_cycles);
    tcase_add_test(tc, an_earlier_request_fills_the_gaps_before_a_later_one);
    tcase_add_test(tc, runs_cross_word_boundaries);
    tcase_add_test(tc, a_wider_port_counts_uses_per_cycle);
    tcase_add_test(tc, a_saturated_port_serves_at_its_rate);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(slots_suite()); }

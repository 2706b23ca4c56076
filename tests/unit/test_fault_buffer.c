/* The fault buffer end to end: 8 warps (one per block, each on its own SM)
 * each read one page of their own, so 8 faults arrive within a few cycles.
 * The buffer holds 4 and the driver wakes only 1 us (interrupt latency)
 * after the first fault: 4 faults must wait for room, their SMs'
 * translation stalls, and the driver's first fetch (4 entries) makes the
 * room in which the waiting 4 are logged.  Under the default replay policy
 * (batch_flush) those 4 entries are discarded at the end of batch 1 and
 * their walks, still on absent pages, fault again at the replay: 8 + 4 = 12
 * entries logged, 4 flushed.  Every fault is fetched and serviced exactly
 * once: 8 entries fetched, 8 pages migrated, 2 batches. */
#include <check.h>
#include "suite_main.h"
#include <stdlib.h>
#include "config/config.h"
#include "core/stats.h"
#include "system.h"

static uint64_t counter(struct system *s, const char *name)
{
    const struct stat_entry *st = stats_find(system_stats(s), name);
    ck_assert_msg(st && st->kind == STAT_COUNTER, "no counter %s", name);
    return *st->p.u;
}

START_TEST(small_buffer_stalls_and_loses_nothing)
{
    static const char *const sets[] = {
        "workload.stream.footprint=32KiB", "workload.stream.grid=8",
        "workload.stream.block=32", "workload.stream.lane_stride=128B",
        "workload.stream.passes=1", "workload.stream.op=read",
        "gmmu.fault_buffer.entries=4", "gmmu.interrupt_latency=1us",
    };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, sizeof sets / sizeof sets[0], &err);
    ck_assert_msg(c, "%s", err.msg);
    struct system *s = system_build(c);
    ck_assert_int_eq(system_run(s), RUN_COMPLETED);
    ck_assert_uint_eq(counter(s, "gmmu.faults"), 12);
    ck_assert_uint_eq(counter(s, "gmmu.flushed_faults"), 4);
    ck_assert_uint_eq(counter(s, "gmmu.refaults"), 4);
    ck_assert_uint_eq(counter(s, "gmmu.fault_buffer.max_occupancy"), 4);
    ck_assert_uint_eq(counter(s, "gmmu.fault_buffer.waited"), 4);
    ck_assert_uint_eq(counter(s, "gmmu.fault_buffer.occupancy"), 0);
    /* The first overflow comes a few cycles after the first fault and lasts
     * until the driver's fetch 1 us after it: just under 1 us of 714 ps
     * cycles (1400), and not less than 1 us minus the few cycles over which
     * the 8 walks completed. */
    uint64_t stall = counter(s, "gmmu.fault_buffer.stall_cycles");
    ck_assert_uint_le(stall, 1401);
    ck_assert_uint_ge(stall, 1350);
    ck_assert_uint_eq(counter(s, "driver.faults"), 8);
    ck_assert_uint_eq(counter(s, "driver.duplicate_faults"), 0);
    ck_assert_uint_eq(counter(s, "driver.pages_migrated"), 8);
    ck_assert_uint_eq(counter(s, "driver.batches"), 2);
    const struct stat_entry *v = stats_find(system_stats(s), "sm.faults");
    uint64_t sum = 0;
    for (size_t i = 0; i < v->n; i++) sum += v->p.u[i];
    ck_assert_uint_eq(sum, 8);
    system_free(s);
    config_free(c);
}
END_TEST

/* The same machine with the default 1024 entries never stalls. */
START_TEST(large_buffer_never_stalls)
{
    static const char *const sets[] = {
        "workload.stream.footprint=32KiB", "workload.stream.grid=8",
        "workload.stream.block=32", "workload.stream.lane_stride=128B",
        "workload.stream.passes=1", "workload.stream.op=read",
        "gmmu.interrupt_latency=1us",
    };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, sizeof sets / sizeof sets[0], &err);
    ck_assert_msg(c, "%s", err.msg);
    struct system *s = system_build(c);
    ck_assert_int_eq(system_run(s), RUN_COMPLETED);
    ck_assert_uint_eq(counter(s, "gmmu.fault_buffer.waited"), 0);
    ck_assert_uint_eq(counter(s, "gmmu.fault_buffer.stall_cycles"), 0);
    ck_assert_uint_eq(counter(s, "gmmu.fault_buffer.max_occupancy"), 8);
    ck_assert_uint_eq(counter(s, "driver.batches"), 1);
    system_free(s);
    config_free(c);
}
END_TEST

static Suite *fb_suite(void)
{
    Suite *s = suite_create("fault_buffer");
    TCase *t = tcase_create("fault_buffer");
    tcase_add_test(t, small_buffer_stalls_and_loses_nothing);
    tcase_add_test(t, large_buffer_never_stalls);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(fb_suite()); }

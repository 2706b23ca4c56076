/* The evictor's shared bookkeeping: wrong evictions within the window,
 * victims and search length, and replay's TLB filter of the walk-hit feed. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <string.h>
#include "config/config.h"
#include "core/stats.h"
#include "driver/driver.h"
#include "driver/replay/replay.h"
#include "driver/evict/evict.h"

static uint64_t stat_u(struct stats *st, const char *name)
{
    const struct stat_entry *e = stats_find(st, name);
    ck_assert_msg(e != NULL, "%s", name);
    return *e->p.u;
}

static struct replay_result run(const char *policy, uint64_t frames, const char *text,
                                const char *set, struct stats *st)
{
    const char *sets[] = { set };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, set ? 1 : 0, &err);
    ck_assert_msg(c != NULL, "%s", err.msg);
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct replay_result r;
    char e[128];
    ck_assert_int_eq(driver_replay_stats(c, policy, frames, f, "t", &r, st, e, sizeof e), 0);
    fclose(f);
    config_free(c);
    return r;
}

/* FIFO, 2 frames, 1 2 3 4 1: 3 evicts 1, 4 evicts 2, then the fault on 1
 * evicts 3 and maps 1.  A wrong eviction is counted when the page is mapped
 * again: the last 3 evictions {1, 2, 3} hold it, the last 2 {2, 3} not. */
START_TEST(wrong_evictions_within_the_window)
{
    const char *t = "1\n2\n3\n4\n1\n";
    struct stats *st = stats_new();
    run("fifo", 2, t, "driver.evict.wrong_window=3", st);
    ck_assert_uint_eq(stat_u(st, "evict.wrong_evictions"), 1);
    ck_assert_uint_eq(stat_u(st, "evict.victims"), 3);
    ck_assert(stats_find(st, "evict.search")->p.avg->sum == 3.0);   /* 1 per FIFO victim */
    stats_free(st);
    st = stats_new();
    run("fifo", 2, t, "driver.evict.wrong_window=2", st);
    ck_assert_uint_eq(stat_u(st, "evict.wrong_evictions"), 0);
    stats_free(st);
}
END_TEST

/* LRU, 2 frames, 1 2 1 3 2 1.  Every reference fed: 1 is refreshed, 3
 * evicts 2, 2 evicts 1, 1 evicts 3: 5 faults.  Behind a 2-entry TLB the
 * second 1 hits the TLB (no walk, not fed): 3 evicts 1; 2 misses the TLB
 * (walk hit, refreshed); 1 evicts 3: 4 faults. */
START_TEST(replay_tlb_feeds_only_walks)
{
    const char *t = "1\n2\n1\n3\n2\n1\n";
    struct stats *st = stats_new();
    ck_assert_uint_eq(run("lru", 2, t, NULL, st).faults, 5);
    stats_free(st);
    st = stats_new();
    ck_assert_uint_eq(run("lru", 2, t, "driver.evict.replay_tlb=2", st).faults, 4);
    stats_free(st);
}
END_TEST

/* A page brought back by a prefetch is no fault, so no wrong eviction
 * (issue 11.1), and it leaves the window: FIFO, 2 frames, through the
 * evictor: 1 2 resident; victim 1; 1 prefetched back (not wrong); victim
 * 2 (FIFO order: 2 is older than the prefetched 1); fault on 2: wrong. */
START_TEST(prefetched_pages_are_not_wrong_evictions)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, NULL, 0, &err);
    struct stats *st = stats_new();
    struct evictor *ev = evictor_create(c, "fifo", 2, st);
    uint64_t v;
    evictor_resident(ev, 1, false);
    evictor_resident(ev, 2, false);
    ck_assert(evictor_victim(ev, &v));
    ck_assert_uint_eq(v, 1);
    evictor_resident(ev, 1, true);
    ck_assert_uint_eq(stat_u(st, "evict.wrong_evictions"), 0);
    ck_assert(evictor_victim(ev, &v));
    ck_assert_uint_eq(v, 2);
    evictor_resident(ev, 2, false);
    ck_assert_uint_eq(stat_u(st, "evict.wrong_evictions"), 1);
    evictor_free(ev);
    stats_free(st);
    config_free(c);
}
END_TEST

/* What the policy was fed and its victims' history (issue 42), by hand:
 * LRU, 2 frames: faults 1 (arrives at fault number 0), 2 (at 1); touch 1
 * (last reference at 2); victim 2: age 2-1 = 1, idle 1, never referenced;
 * fault 3 (at 2); victim 1 (its touch predates 3): age 3-0 = 3, idle
 * 3-2 = 1.  Means: age 2, idle 1; 1 of 2 victims unreferenced.  A page
 * forgotten (prefetched to the host) leaves without a victim's record. */
START_TEST(feed_and_victim_history)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, NULL, 0, &err);
    struct stats *st = stats_new();
    struct evictor *ev = evictor_create(c, "lru", 2, st);
    uint64_t v;
    evictor_resident(ev, 1, false);
    evictor_resident(ev, 2, false);
    evictor_touch(ev, 1);
    ck_assert(evictor_victim(ev, &v));
    ck_assert_uint_eq(v, 2);
    evictor_resident(ev, 3, false);
    ck_assert(evictor_victim(ev, &v));
    ck_assert_uint_eq(v, 1);
    ck_assert_uint_eq(stat_u(st, "evict.fed_faults"), 3);
    ck_assert_uint_eq(stat_u(st, "evict.fed_touches"), 1);
    ck_assert_uint_eq(stat_u(st, "evict.victims_unreferenced"), 1);
    const struct stat_avg *age = stats_find(st, "evict.victim_age")->p.avg;
    const struct stat_avg *idle = stats_find(st, "evict.victim_idle")->p.avg;
    ck_assert(age->count == 2 && age->sum == 4.0);
    ck_assert(idle->count == 2 && idle->sum == 2.0);
    evictor_resident(ev, 4, true);
    ck_assert_uint_eq(stat_u(st, "evict.fed_prefetches"), 1);
    ck_assert(evictor_can_forget(ev));
    evictor_forget(ev, 4);
    evictor_resident(ev, 5, false);
    ck_assert(evictor_victim(ev, &v));
    ck_assert_uint_eq(v, 3);     /* 4 left by forget, not as a victim */
    ck_assert(age->count == 3 && age->sum == 4.0 + (4 - 2));
    ck_assert_uint_eq(stat_u(st, "evict.victims_unreferenced"), 2);
    evictor_free(ev);
    stats_free(st);
    config_free(c);
}
END_TEST

static Suite *core_suite(void)
{
    Suite *s = suite_create("evict_core");
    TCase *t = tcase_create("core");
    tcase_add_test(t, wrong_evictions_within_the_window);
    tcase_add_test(t, replay_tlb_feeds_only_walks);
    tcase_add_test(t, prefetched_pages_are_not_wrong_evictions);
    tcase_add_test(t, feed_and_victim_history);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return run_suite(core_suite());
}

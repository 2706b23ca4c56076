/* Engine: event order, idle components, queues with back-pressure, limits,
 * watchdog.  Expected values are derived by hand in each test. */
#include <check.h>
#include "suite_main.h"
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "core/engine.h"

static const struct domain fast = { "fast", 10, 0 };   /* 100 GHz: 10 ps */
static const struct domain slow = { "slow", 25, 1 };

/* ---- event order ---- */

static int order_log[16], order_n;
static void log_ev(void *obj, uint64_t arg, sim_time now)
{ (void)obj; (void)now; order_log[order_n++] = (int)arg; }

START_TEST(events_ordered_by_time_domain_then_sequence)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    order_n = 0;
    engine_at(e, 100, &slow, log_ev, NULL, 1);   /* same time, later domain */
    engine_at(e, 100, &fast, log_ev, NULL, 2);
    engine_at(e, 50, &slow, log_ev, NULL, 3);
    engine_at(e, 100, &fast, log_ev, NULL, 4);   /* same time+domain: FIFO */
    ck_assert_int_eq(engine_run(e), RUN_COMPLETED);
    int want[] = {3, 2, 4, 1};
    ck_assert_int_eq(order_n, 4);
    for (int i = 0; i < 4; i++) ck_assert_int_eq(order_log[i], want[i]);
    ck_assert_uint_eq(engine_now(e), 100);
    engine_free(e);
}
END_TEST

/* ---- a component that has work for `left` ticks, then sleeps ---- */

struct worker { struct component c; int left, ticks; sim_time last; };

static sim_time worker_tick(struct component *c, sim_time now)
{
    struct worker *w = (struct worker *)c;
    w->ticks++;
    w->last = now;
    return --w->left > 0 ? now + c->dom->period : TIME_NEVER;
}
static const struct comp_ops worker_ops = { worker_tick, NULL };

static void wake_worker(void *obj, uint64_t n, sim_time now)
{
    struct worker *w = obj;
    w->left = (int)n;
    comp_wake_at(&w->c, now);
}

START_TEST(idle_component_costs_nothing)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    struct worker w = {0};
    comp_init(&w.c, e, &worker_ops, "worker", &fast);
    /* 3 cycles of work at t=0, then nothing until 20 us, then 2 cycles. */
    engine_at(e, 0, &fast, wake_worker, &w, 3);
    engine_at(e, 20000000, &fast, wake_worker, &w, 2);
    engine_run(e);
    ck_assert_int_eq(w.ticks, 5);
    ck_assert_uint_eq(w.last, 20000000 + 10);
    /* 2 callbacks + 5 ticks: the 20 us wait costs no event. */
    ck_assert_uint_eq(engine_events(e), 7);
    engine_free(e);
}
END_TEST

START_TEST(wake_aligns_to_clock_edge_and_merges)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    struct worker w = {0};
    comp_init(&w.c, e, &worker_ops, "worker", &slow);
    w.left = 1;
    comp_wake_at(&w.c, 30);      /* next edge of a 25 ps clock: 50 */
    comp_wake_at(&w.c, 60);      /* later than pending: merged */
    comp_wake_at(&w.c, 26);      /* also edge 50: merged */
    engine_run(e);
    ck_assert_int_eq(w.ticks, 1);
    ck_assert_uint_eq(w.last, 50);
    ck_assert_uint_eq(domain_edge(&slow, 50), 50);
    ck_assert_uint_eq(domain_edge(&slow, 51), 75);
    engine_free(e);
}
END_TEST

/* ---- a wake for an earlier time moves the pending tick ---- */

/* A component that logs its ticks and asks for the next time in `plan`. */
struct planned {
    struct component c;
    char tag;
    const sim_time *plan;       /* next tick after each tick (0: idle) */
    int ticks;
};

static char tick_log[32];
static sim_time tick_at[32];
static int tick_n;

static void log_tick(char tag, sim_time now)
{ tick_log[tick_n] = tag; tick_at[tick_n++] = now; tick_log[tick_n] = 0; }

static sim_time planned_tick(struct component *c, sim_time now)
{
    struct planned *p = (struct planned *)c;
    log_tick(p->tag, now);
    sim_time n = p->plan ? p->plan[p->ticks] : 0;
    p->ticks++;
    return n ? n : TIME_NEVER;
}
static const struct comp_ops planned_ops = { planned_tick, NULL };

static void log_cb(void *obj, uint64_t arg, sim_time now)
{ (void)obj; log_tick((char)arg, now); }

START_TEST(earlier_wake_leaves_no_stale_event)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    struct planned a = { .tag = 'a' };
    comp_init(&a.c, e, &planned_ops, "a", &fast);
    tick_n = 0;
    comp_wake_at(&a.c, 100);
    comp_wake_at(&a.c, 50);      /* supersedes the tick at 100 */
    ck_assert_int_eq(engine_run(e), RUN_COMPLETED);
    /* One tick, at 50, and one event: the superseded tick is no event. */
    ck_assert_int_eq(a.ticks, 1);
    ck_assert_uint_eq(tick_at[0], 50);
    ck_assert_uint_eq(engine_events(e), 1);
    /* The run's end still counts the superseded time (the former engine
     * popped its stale event there). */
    ck_assert_uint_eq(engine_end_time(e), 100);
    engine_free(e);

    /* With a time limit between the two, the run stops at the limit. */
    struct engine_limits lim2 = { .max_time = 70 };
    e = engine_new(&lim2);
    a.ticks = 0;
    comp_init(&a.c, e, &planned_ops, "a", &fast);
    comp_wake_at(&a.c, 100);
    comp_wake_at(&a.c, 50);
    ck_assert_int_eq(engine_run(e), RUN_TIME_LIMIT);
    ck_assert_int_eq(a.ticks, 1);
    ck_assert_uint_eq(engine_end_time(e), 70);
    engine_free(e);
}
END_TEST

/* Ties keep the order of "one event per wake" (the former engine): a tick
 * that comes back to a time it was superseded from fires at the old
 * event's place, ahead of what was scheduled for that time in between. */
static struct planned *rewake_target;
static void rewake_cb(void *obj, uint64_t t, sim_time now)
{
    (void)obj;
    log_tick('w', now);
    comp_wake_at(&rewake_target->c, t);
}
static void schedule_z(void *obj, uint64_t arg, sim_time now)
{
    (void)arg; (void)now;
    engine_at(obj, 100, &fast, log_cb, NULL, 'z');
}

START_TEST(superseded_tick_keeps_its_place_in_ties)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    static const sim_time plan_a[] = { 100, 0, 0 };
    struct planned a = { .tag = 'a', .plan = plan_a }, b = { .tag = 'b' };
    comp_init(&a.c, e, &planned_ops, "a", &fast);
    comp_init(&b.c, e, &planned_ops, "b", &fast);
    rewake_target = &a;
    tick_n = 0;
    /* Sequence numbers in scheduling order: a@100 #1, b@100 #2, a@50 #3
     * (supersedes #1), x@100 #4 (a callback that wakes a at 100 again),
     * s@60 #5 (schedules z@100).  a ticks at 50 and asks for 100 (#6):
     * the superseded #1 at 100 comes first, so a ticks at 100 as #1,
     * before b (#2) and the callback (#4).  The callback's wake at 100
     * (#8) finds #6 still ahead (z is #7 after it): a ticks again as #6,
     * before z. */
    comp_wake_at(&a.c, 100);
    comp_wake_at(&b.c, 100);
    comp_wake_at(&a.c, 50);
    engine_at(e, 100, &fast, rewake_cb, NULL, 100);
    engine_at(e, 60, &fast, schedule_z, e, 0);
    ck_assert_int_eq(engine_run(e), RUN_COMPLETED);
    ck_assert_str_eq(tick_log, "aabwaz");
    sim_time want[] = { 50, 100, 100, 100, 100, 100 };
    for (int i = 0; i < 6; i++) ck_assert_uint_eq(tick_at[i], want[i]);
    /* 4 ticks and 3 callbacks (s, w, z); no stale event. */
    ck_assert_uint_eq(engine_events(e), 7);
    engine_free(e);
}
END_TEST

/* Within one time the former heap popped events in key order, except that
 * an event scheduled for the current time in a domain of lower order ran
 * next, behind the running one.  A superseded tick it had already dropped
 * stays dropped then.  c (slow domain, order 1): a tick at 100 (#1) is
 * superseded by a wake at 50 (#2); c ticks at 50 and idles.  At 100 the
 * old heap drops #1, then runs E (#3, slow), which schedules W for 100 in
 * the fast domain (order 0: it runs next, #5); W wakes c at 100 (#6).  Z
 * (#4, slow) runs before c's tick (#6): the dropped #1 is not taken. */
static struct planned *late_c;
static void w_cb(void *obj, uint64_t arg, sim_time now)
{
    (void)obj; (void)arg;
    log_tick('W', now);
    comp_wake_at(&late_c->c, now);
}
static void e_cb(void *obj, uint64_t arg, sim_time now)
{
    (void)arg;
    log_tick('E', now);
    engine_at(obj, now, &fast, w_cb, NULL, 0);
}

START_TEST(lower_domain_at_the_same_time_keeps_dropped_ticks_dropped)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    struct planned c = { .tag = 'c' };
    comp_init(&c.c, e, &planned_ops, "c", &slow);
    late_c = &c;
    tick_n = 0;
    comp_wake_at(&c.c, 100);
    comp_wake_at(&c.c, 50);
    engine_at(e, 100, &slow, e_cb, e, 0);
    engine_at(e, 100, &slow, log_cb, NULL, 'Z');
    ck_assert_int_eq(engine_run(e), RUN_COMPLETED);
    ck_assert_str_eq(tick_log, "cEWZc");
    ck_assert_uint_eq(tick_at[0], 50);
    ck_assert_uint_eq(tick_at[4], 100);
    engine_free(e);
}
END_TEST

/* The stepper's engine_run_until and engine_next on the two heaps.  c's
 * tick at 100 is superseded by one at 50 (slow domain: edges at 25 ps);
 * a callback X is due at 75.  engine_next names the earliest event that
 * acts: c at 50, then X at 75, then nothing (the superseded tick at 100 is
 * no event).  Running until 60 runs c's tick and pauses with the clock at
 * 60; until 80 runs X and pauses at 80: the former heap still held the
 * stale tick at 100, past 80, so the run was not over.  A run to the end
 * then completes at 100, where the stale tick came up. */
START_TEST(run_until_pauses_and_next_skips_superseded_ticks)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    struct planned c = { .tag = 'c' };
    comp_init(&c.c, e, &planned_ops, "c", &slow);
    tick_n = 0;
    comp_wake_at(&c.c, 100);
    comp_wake_at(&c.c, 50);
    engine_at(e, 75, &slow, log_cb, NULL, 'X');
    sim_time t;
    const char *what;
    enum run_status st = RUN_EVENT_LIMIT;
    ck_assert(engine_next(e, &t, &what));
    ck_assert_uint_eq(t, 50);
    ck_assert_str_eq(what, "c");
    ck_assert(!engine_run_until(e, 60, NULL, NULL, &st));
    ck_assert_uint_eq(engine_now(e), 60);
    ck_assert_str_eq(tick_log, "c");
    ck_assert(engine_next(e, &t, &what));
    ck_assert_uint_eq(t, 75);
    ck_assert_str_eq(what, "a scheduled callback (a landing, a launch, a timer)");
    ck_assert(!engine_run_until(e, 80, NULL, NULL, &st));
    ck_assert_uint_eq(engine_now(e), 80);
    ck_assert_str_eq(tick_log, "cX");
    ck_assert(!engine_next(e, &t, &what));
    ck_assert(engine_run_until(e, TIME_NEVER, NULL, NULL, &st));
    ck_assert_int_eq(st, RUN_COMPLETED);
    ck_assert_uint_eq(engine_end_time(e), 100);
    ck_assert_uint_eq(engine_events(e), 2);
    engine_free(e);
}
END_TEST

/* ---- bounded queue: consumer pops one message per tick ---- */

struct consumer { struct component c; struct mq q; int got; sim_time at[8]; };
struct producer { struct component c; struct mq *q; int sent, total, refused; };

static sim_time consumer_tick(struct component *c, sim_time now)
{
    struct consumer *k = (struct consumer *)c;
    if (mq_pop(&k->q, now)) k->at[k->got++] = now;
    sim_time n = mq_next_ready(&k->q);
    return n == TIME_NEVER ? TIME_NEVER : (n > now ? n : now + c->dom->period);
}
static sim_time producer_tick(struct component *c, sim_time now)
{
    struct producer *p = (struct producer *)c;
    while (p->sent < p->total) {
        if (!mq_push(p->q, (void *)(uintptr_t)(p->sent + 1), now, c)) {
            p->refused++;
            return TIME_NEVER;        /* woken when a slot frees */
        }
        p->sent++;
    }
    return TIME_NEVER;
}
static const struct comp_ops consumer_ops = { consumer_tick, NULL };
static const struct comp_ops producer_ops = { producer_tick, NULL };

START_TEST(full_queue_back_pressure_no_drop)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    struct consumer k = {0};
    struct producer p = {0};
    comp_init(&k.c, e, &consumer_ops, "consumer", &fast);
    comp_init(&p.c, e, &producer_ops, "producer", &fast);
    mq_init(&k.q, "q", 2, 30, &k.c);   /* 2 slots, 30 ps latency */
    p.q = &k.q;
    p.total = 5;
    comp_wake_at(&p.c, 0);
    engine_run(e);
    /* Messages 1,2 pushed at 0 -> visible at 30; consumer pops 1 at 30
     * (frees a slot, producer pushes 3 at 30 -> visible 60), pops 2 at 40,
     * producer pushes 4 at 40 (-> 70); pops 3 at 60, pushes 5 at 60 (->90);
     * pops 4 at 70, 5 at 90. */
    ck_assert_int_eq(k.got, 5);
    sim_time want[] = {30, 40, 60, 70, 90};
    for (int i = 0; i < 5; i++) ck_assert_uint_eq(k.at[i], want[i]);
    ck_assert_int_eq(p.refused, 3);
    ck_assert_uint_eq(k.q.full_stalls, 3);
    mq_free(&k.q);
    engine_free(e);
}
END_TEST

/* ---- limits ---- */

struct forever { struct component c; };
static sim_time forever_tick(struct component *c, sim_time now)
{ engine_progress(c->eng); return now + c->dom->period; }
static const struct comp_ops forever_ops = { forever_tick, NULL };
static bool always(void *ctx) { (void)ctx; return true; }

START_TEST(time_and_event_limits_stop_the_run)
{
    struct engine_limits lim = { .max_time = 1000 };
    struct engine *e = engine_new(&lim);
    struct forever f;
    comp_init(&f.c, e, &forever_ops, "forever", &fast);
    comp_wake_at(&f.c, 0);
    ck_assert_int_eq(engine_run(e), RUN_TIME_LIMIT);
    ck_assert_uint_eq(engine_end_time(e), 1000);
    ck_assert_uint_eq(engine_events(e), 101);   /* ticks at 0,10,...,1000 */
    engine_free(e);

    struct engine_limits lim2 = { .max_events = 7 };
    e = engine_new(&lim2);
    comp_init(&f.c, e, &forever_ops, "forever", &fast);
    comp_wake_at(&f.c, 0);
    ck_assert_int_eq(engine_run(e), RUN_EVENT_LIMIT);
    ck_assert_uint_eq(engine_events(e), 7);
    engine_free(e);
}
END_TEST

/* ---- watchdog: no progress while busy aborts with exit 3 ---- */

struct stuck { struct component c; };
static sim_time stuck_tick(struct component *c, sim_time now)
{ return now + c->dom->period; }      /* ticks forever, completes nothing */
static void stuck_dump(struct component *c, FILE *out)
{ (void)c; fprintf(out, "    stuck forever\n"); }
static const struct comp_ops stuck_ops = { stuck_tick, stuck_dump };

START_TEST(watchdog_aborts_without_progress)
{
    struct engine_limits lim = { .watchdog = 1000 };
    struct engine *e = engine_new(&lim);
    struct stuck s;
    comp_init(&s.c, e, &stuck_ops, "stuck", &fast);
    engine_set_busy_fn(e, always, NULL);
    comp_wake_at(&s.c, 0);
    engine_run(e);                       /* exits 3 through sim_panic */
}
END_TEST

/* ---- sim_panic dumps the components only while an engine runs ---- */

static void panic_ev(void *obj, uint64_t arg, sim_time now)
{ (void)obj; (void)arg; sim_panic("test", now, "boom"); }

/* A panic inside a running engine's event at t = 5 ps. */
static void panic_while_running(void)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    struct stuck s;
    comp_init(&s.c, e, &stuck_ops, "stuck", &fast);
    engine_at(e, 5, &fast, panic_ev, NULL, 0);
    engine_run(e);
}

/* A panic after the run is over: the engine no longer registers its dump. */
static void panic_after_the_run(void)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    struct stuck s;
    comp_init(&s.c, e, &stuck_ops, "stuck", &fast);
    engine_run(e);
    sim_panic("test", 7, "boom");
}

/* What scenario writes to stderr before it exits (with 3). */
static void panic_output(void (*scenario)(void), char *buf, size_t n)
{
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fd[1], 2);
        close(fd[0]);
        scenario();
        _exit(0);
    }
    close(fd[1]);
    size_t got = 0;
    ssize_t r;
    while (got + 1 < n && (r = read(fd[0], buf + got, n - 1 - got)) > 0) got += (size_t)r;
    buf[got] = 0;
    close(fd[0]);
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st));
    ck_assert_int_eq(WEXITSTATUS(st), 3);
}

START_TEST(panic_dumps_components_only_while_running)
{
    char out[4096];
    panic_output(panic_while_running, out, sizeof out);
    ck_assert_ptr_nonnull(strstr(out, "internal error in test at t=5 ps: boom\n"));
    ck_assert_ptr_nonnull(strstr(out, "state of every component"));
    ck_assert_ptr_nonnull(strstr(out, "stuck forever"));
    panic_output(panic_after_the_run, out, sizeof out);
    ck_assert_ptr_nonnull(strstr(out, "internal error in test at t=7 ps: boom\n"));
    ck_assert_ptr_null(strstr(out, "state of every component"));
    ck_assert_ptr_null(strstr(out, "stuck forever"));
}
END_TEST

/* ---- deferred actions: fire while busy, dropped after, never work ---- */

static bool work_left;
static bool while_work(void *ctx) { (void)ctx; return work_left; }
static void last_work(void *obj, uint64_t arg, sim_time now)
{ (void)obj; (void)arg; (void)now; work_left = false; }
static sim_time fired_at[512];
static int fired_n;
static void deferred_log(void *obj, uint64_t arg, sim_time now)
{ (void)obj; (void)arg; fired_at[fired_n++] = now; }

START_TEST(deferred_actions_fire_only_while_busy_and_never_hold_the_run)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    engine_set_busy_fn(e, while_work, NULL);
    work_left = true;
    fired_n = 0;
    engine_at(e, 10, &fast, log_ev, NULL, 0);
    engine_at(e, 30, &fast, last_work, NULL, 0);   /* the work ends at 30 */
    engine_defer_at(e, 15, &fast, deferred_log, NULL, 0);
    engine_defer_at(e, 1000, &fast, deferred_log, NULL, 0);   /* after the end */
    engine_defer_at(e, 25, &slow, deferred_log, NULL, 0);
    order_n = 0;
    ck_assert_int_eq(engine_run(e), RUN_COMPLETED);
    ck_assert_int_eq(fired_n, 2);
    ck_assert_uint_eq(fired_at[0], 15);
    ck_assert_uint_eq(fired_at[1], 25);
    /* The 1000 ps action would have moved the end to 1000. */
    ck_assert_uint_eq(engine_end_time(e), 30);
    engine_free(e);
}
END_TEST

/* Slots are reused: 300 actions in flight at once, then 200 more after
 * the first ones fired; each fires once, at its own time, in time order. */
START_TEST(deferred_action_slots_are_reused)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    engine_set_busy_fn(e, while_work, NULL);
    work_left = true;
    fired_n = 0;
    for (sim_time t = 1; t <= 300; t++) engine_defer_at(e, t, &fast, deferred_log, NULL, 0);
    engine_at(e, 1000, &fast, last_work, NULL, 0);
    ck_assert(!engine_run_until(e, 500, NULL, NULL, &(enum run_status){0}));
    ck_assert_int_eq(fired_n, 300);
    for (sim_time t = 501; t <= 700; t++) engine_defer_at(e, t, &fast, deferred_log, NULL, 0);
    ck_assert_int_eq(engine_run(e), RUN_COMPLETED);
    ck_assert_int_eq(fired_n, 500);
    for (int i = 0; i < 500; i++)
        ck_assert_uint_eq(fired_at[i], i < 300 ? (sim_time)i + 1 : (sim_time)i + 201);
    ck_assert_uint_eq(engine_end_time(e), 1000);
    engine_free(e);
}
END_TEST

/* Nothing may wait on a deferred action: work outstanding with only one
 * pending is a deadlock (exit 3), not a wait. */
START_TEST(deadlock_detected_when_only_a_deferred_action_is_left)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    engine_set_busy_fn(e, always, NULL);
    engine_defer_at(e, 100, &fast, deferred_log, NULL, 0);
    engine_run(e);
}
END_TEST

START_TEST(deadlock_detected_when_queue_has_only_housekeeping)
{
    struct engine_limits lim = {0};
    struct engine *e = engine_new(&lim);
    engine_set_busy_fn(e, always, NULL);
    engine_run(e);                       /* nothing can ever run: exit 3 */
}
END_TEST

int main(void)
{
    Suite *s = suite_create("engine");
    TCase *t = tcase_create("core");
    tcase_add_test(t, events_ordered_by_time_domain_then_sequence);
    tcase_add_test(t, idle_component_costs_nothing);
    tcase_add_test(t, wake_aligns_to_clock_edge_and_merges);
    tcase_add_test(t, earlier_wake_leaves_no_stale_event);
    tcase_add_test(t, superseded_tick_keeps_its_place_in_ties);
    tcase_add_test(t, lower_domain_at_the_same_time_keeps_dropped_ticks_dropped);
    tcase_add_test(t, run_until_pauses_and_next_skips_superseded_ticks);
    tcase_add_test(t, full_queue_back_pressure_no_drop);
    tcase_add_test(t, time_and_event_limits_stop_the_run);
    tcase_add_exit_test(t, watchdog_aborts_without_progress, 3);
    tcase_add_exit_test(t, deadlock_detected_when_queue_has_only_housekeeping, 3);
    tcase_add_test(t, panic_dumps_components_only_while_running);
    tcase_add_test(t, deferred_actions_fire_only_while_busy_and_never_hold_the_run);
    tcase_add_test(t, deferred_action_slots_are_reused);
    tcase_add_exit_test(t, deadlock_detected_when_only_a_deferred_action_is_left, 3);
    suite_add_tcase(s, t);
    return run_suite(s);
}

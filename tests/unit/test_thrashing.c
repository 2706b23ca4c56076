/* Thrashing detection and mitigation (sim/driver/drv_thrashing.c, after
 * the real driver's uvm_perf_thrashing.c) against hand-derived timelines:
 * the core's events and hints at chosen times, the prefetch exclusion, and
 * the driver's batches when a lone GPU thrashes two pages through one
 * frame. */
#include <stdlib.h>
#include "xlate_rig.h"
#include "suite_main.h"
#include "driver/driver.h"
#include "driver/drv_internal.h"

#define US 1000000ULL
#define V ((VA0 >> 12) + 5)         /* page 5 of the first VA block */

struct core { struct config *cfg; struct engine *e; struct stats *st; struct domain dom;
              struct thrashing *t; sim_time unpinned_at; uint64_t unpinned_vpn; };

static void note_unpin(void *ctx, uint64_t vpn, sim_time now)
{
    struct core *c = ctx;
    c->unpinned_at = now;
    c->unpinned_vpn = vpn;
}

/* lapse 100 us (so nap 100 us), threshold 3, pin threshold 2, pin 3 lapses. */
static void core_up(struct core *c, const char *const *extra, size_t nextra)
{
    const char *sets[16] = { "driver.thrashing.enabled=true", "driver.thrashing.lapse=100us",
                             "driver.thrashing.pin_threshold=2", "driver.thrashing.pin=3" };
    size_t n = 4;
    for (size_t i = 0; i < nextra; i++) sets[n++] = extra[i];
    struct cfg_error err;
    memset(c, 0, sizeof *c);
    c->cfg = config_load(NULL, sets, n, &err);
    if (!c->cfg) ck_abort_msg("config: %s", err.msg);
    struct engine_limits lim = {0};
    c->e = engine_new(&lim);
    c->st = stats_new();
    c->dom = (struct domain){ "driver", 1, 0 };
    c->t = thrashing_create(c->cfg, c->st, c->e, &c->dom, note_unpin, c);
    ck_assert_ptr_nonnull(c->t);
}

static void core_down(struct core *c)
{
    thrashing_free(c->t);
    stats_free(c->st);
    engine_free(c->e);
    config_free(c->cfg);
}

static uint64_t counter(struct stats *st, const char *name)
{
    const struct stat_entry *s = stats_find(st, name);
    ck_assert_msg(s && s->kind == STAT_COUNTER, "no counter %s", name);
    return *s->p.u;
}

/* Migrations (GPU) and evictions (host) of one page 10 us apart, as a lone
 * GPU thrashing it sees them:
 *   0 GPU: the block's first event (no per-page tracking yet);
 *   10 host: a second processor within a lapse: tracking starts, the page's
 *      first event; 20 GPU, 30 host: thrashing events 1 and 2;
 *   40 GPU: event 3 = threshold: the page is thrashing.
 *   50: a fault opens throttling period [50, 150] letting the GPU through
 *      (none -> GPU): serviced, migrated (event at 50), evicted at 60.
 *   160: past the period: the next one [160, 260] lets nobody through:
 *      throttled (last event 60, 100 us <= lapse); 200: still throttled.
 *   260: the period is over, but the last event (60) is 200 us old, more
 *      than a lapse: no longer thrashing, serviced; the migration then
 *      resets the page. */
START_TEST(lone_gpu_is_throttled_at_the_threshold)
{
    struct core c;
    core_up(&c, NULL, 0);
    thrashing_event(c.t, V, THR_GPU, 0);
    thrashing_event(c.t, V, THR_HOST, 10 * US);
    thrashing_event(c.t, V, THR_GPU, 20 * US);
    thrashing_event(c.t, V, THR_HOST, 30 * US);
    ck_assert_uint_eq(thrashing_events(c.t, V), 2);
    ck_assert_int_eq(thrashing_hint(c.t, V, 35 * US), THR_NONE);
    struct block_bits m;
    ck_assert(!thrashing_block_mask(c.t, VA0 >> 12, &m));
    thrashing_event(c.t, V, THR_GPU, 40 * US);
    ck_assert_uint_eq(thrashing_events(c.t, V), 3);
    ck_assert_uint_eq(counter(c.st, "driver.thrashing.detected"), 1);
    ck_assert(thrashing_block_mask(c.t, VA0 >> 12, &m));
    ck_assert(bb_test(&m, 5) && bb_count(&m) == 1);
    ck_assert_int_eq(thrashing_hint(c.t, V, 50 * US), THR_NONE);
    thrashing_event(c.t, V, THR_GPU, 50 * US);
    thrashing_event(c.t, V, THR_HOST, 60 * US);
    ck_assert_int_eq(thrashing_hint(c.t, V, 70 * US), THR_NONE);   /* inside [50, 150] */
    ck_assert_int_eq(thrashing_hint(c.t, V, 160 * US), THR_THROTTLE);
    ck_assert_int_eq(thrashing_hint(c.t, V, 200 * US), THR_THROTTLE);
    ck_assert_int_eq(thrashing_hint(c.t, V, 260 * US), THR_NONE);
    ck_assert_uint_eq(counter(c.st, "driver.thrashing.throttled"), 2);
    thrashing_event(c.t, V, THR_GPU, 260 * US);
    ck_assert_uint_eq(thrashing_events(c.t, V), 0);
    ck_assert(!thrashing_block_mask(c.t, VA0 >> 12, &m));
    core_down(&c);
}
END_TEST

/* The real driver's ping-pong: the host keeps touching the page (an event
 * every 50 us from 60 on) while the GPU is throttled, so its history stays
 * fresh.  Detected at 40 as above; hints before events at equal times:
 *   50: period [50, 150] lets the GPU through (GPU event 50);
 *   160: period [160, 260], nobody through: throttled (1st time);
 *   270: period [270, 370] lets the GPU through, 1 < pin threshold 2:
 *        served (GPU event 270);
 *   380: period [380, 480], throttled (2nd);
 *   490: period [490, 590] lets the GPU through with 2 throttlings: pinned
 *        in GPU memory until 490 + 3 x 100 = 790; the host's events on a
 *        pinned page change nothing (510...);
 *   600: period [600, 700], nobody through: the GPU maps it where it is
 *        pinned (GPU memory). */
static void ping_pong_to_600(struct thrashing *t, uint64_t v)
{
    for (int k = 0; k < 5; k++) thrashing_event(t, v, k % 2 ? THR_HOST : THR_GPU, (sim_time)k * 10 * US);
    ck_assert_int_eq(thrashing_hint(t, v, 50 * US), THR_NONE);
    thrashing_event(t, v, THR_GPU, 50 * US);
    static const struct { unsigned at; int hint; } step[] = {
        { 160, THR_THROTTLE }, { 270, THR_NONE }, { 380, THR_THROTTLE }, { 490, THR_PIN_GPU },
    };
    unsigned h = 60;
    for (size_t i = 0; i < sizeof step / sizeof step[0]; i++) {
        for (; h < step[i].at; h += 50) thrashing_event(t, v, THR_HOST, (sim_time)h * US);
        ck_assert_int_eq(thrashing_hint(t, v, (sim_time)step[i].at * US), step[i].hint);
        if (step[i].at == 270) thrashing_event(t, v, THR_GPU, 270 * US);
    }
    ck_assert(thrashing_is_pinned(t, v));
    unsigned ev = thrashing_events(t, v);
    for (; h < 600; h += 50) thrashing_event(t, v, THR_HOST, (sim_time)h * US);
    ck_assert_uint_eq(thrashing_events(t, v), ev);
    ck_assert_int_eq(thrashing_hint(t, v, 600 * US), THR_PIN_GPU);
}

/*   710: period [710, 810] lets the GPU through, and the host is a
 *        thrashing processor: pinned in host memory, mapped remotely;
 *   790: the pin runs out: unpinned, the page starts over. */
START_TEST(ping_pong_is_pinned_at_the_pin_threshold)
{
    struct core c;
    core_up(&c, NULL, 0);
    ping_pong_to_600(c.t, V);
    ck_assert_int_eq(thrashing_hint(c.t, V, 710 * US), THR_PIN_HOST);
    ck_assert_uint_eq(counter(c.st, "driver.thrashing.throttled"), 2);
    ck_assert_uint_eq(counter(c.st, "driver.thrashing.pinned_gpu"), 2);
    ck_assert_uint_eq(counter(c.st, "driver.thrashing.pinned_host"), 1);
    engine_run(c.e);
    ck_assert_uint_eq(c.unpinned_at, 790 * US);
    ck_assert_uint_eq(c.unpinned_vpn, V);
    ck_assert(!thrashing_is_pinned(c.t, V));
    ck_assert_uint_eq(thrashing_events(c.t, V), 0);
    ck_assert_uint_eq(counter(c.st, "driver.thrashing.unpinned"), 1);
    core_down(&c);
}
END_TEST

/* A block whose last thrashing event (40) is more than an epoch (5 lapses,
 * 500 us) old forgets its pages at the next fault: at 541 us, not at 540;
 * with max_resets 0 it never does. */
START_TEST(epoch_resets_a_quiet_block)
{
    static const char *const ep[] = { "driver.thrashing.epoch=5" };
    struct core c;
    core_up(&c, ep, 1);
    for (int k = 0; k < 5; k++)
        thrashing_event(c.t, V, k % 2 ? THR_HOST : THR_GPU, (sim_time)k * 10 * US);
    struct block_bits m;
    thrashing_hint(c.t, V + 1, 540 * US);
    ck_assert(thrashing_block_mask(c.t, VA0 >> 12, &m));
    ck_assert_int_eq(thrashing_hint(c.t, V, 541 * US), THR_NONE);
    ck_assert(!thrashing_block_mask(c.t, VA0 >> 12, &m));
    ck_assert_uint_eq(counter(c.st, "driver.thrashing.block_resets"), 1);
    core_down(&c);
    static const char *const none[] = { "driver.thrashing.epoch=5", "driver.thrashing.max_resets=0" };
    core_up(&c, none, 2);
    for (int k = 0; k < 5; k++)
        thrashing_event(c.t, V, k % 2 ? THR_HOST : THR_GPU, (sim_time)k * 10 * US);
    thrashing_hint(c.t, V, 541 * US);
    ck_assert(thrashing_block_mask(c.t, VA0 >> 12, &m));
    core_down(&c);
}
END_TEST

/* The source's own behaviour (driver.thrashing.evictions=false): eviction
 * events are skipped, every event is the GPU's, no block ever sees a
 * second processor, nothing is detected however fast the page cycles. */
START_TEST(without_eviction_events_a_lone_gpu_is_never_detected)
{
    static const char *const src[] = { "driver.thrashing.evictions=false" };
    struct core c;
    core_up(&c, src, 1);
    for (int k = 0; k < 20; k++)
        thrashing_event(c.t, V, k % 2 ? THR_HOST : THR_GPU, (sim_time)k * 10 * US);
    ck_assert_uint_eq(thrashing_events(c.t, V), 0);
    ck_assert_uint_eq(counter(c.st, "driver.thrashing.detected"), 0);
    ck_assert_int_eq(thrashing_hint(c.t, V, 200 * US), THR_NONE);
    core_down(&c);
}
END_TEST

/* Prefetch exclusion through the driver's glue with the tree prefetcher
 * (51 %).  Page 400 thrashes (detected as above).  Faults on pages 0..299
 * make 300 of 512 pages > 51 %: the whole block, less page 400: 511 pages,
 * 1 excluded.  A fault on thrashing page 400 alone migrates that page only
 * (without thrashing, the tree would fill its 64 KiB big page: 16).  A
 * fault on page 401 beside it: grow_fault_granularity skips a big page
 * holding a thrashing page, so 401 counts alone; its leaf (1 of 1) is the
 * largest subtree over 51 % ([400, 402) holds 1 of 2): 1 page. */
START_TEST(thrashing_pages_are_not_prefetched)
{
    struct core c;
    core_up(&c, NULL, 0);
    const uint64_t p400 = (VA0 >> 12) + 400;
    for (int k = 0; k < 5; k++)
        thrashing_event(c.t, p400, k % 2 ? THR_HOST : THR_GPU, (sim_time)k * 10 * US);
    struct driver d;
    memset(&d, 0, sizeof d);
    d.pol.thrash = c.t;
    d.pol.prefetch = &prefetch_tree_ops;
    d.pol.prefetch_threshold = 51;
    struct block_bits resident = {{0}}, faulted = {{0}}, want;
    struct prefetch_in in = { &resident, &faulted, NULL, 0, VA_BLOCK_PAGES, 51 };
    bb_set_range(&faulted, 0, 300);
    drv_thrashing_prefetch(&d, VA0 >> 12, &in, &want);
    ck_assert_uint_eq(bb_count(&want), 511);
    ck_assert(!bb_test(&want, 400));
    ck_assert_uint_eq(counter(c.st, "driver.thrashing.prefetch_excluded"), 1);
    struct block_bits one = {{0}};
    bb_set(&one, 400);
    in.faulted = &one;
    drv_thrashing_prefetch(&d, VA0 >> 12, &in, &want);
    ck_assert_uint_eq(bb_count(&want), 1);
    ck_assert(bb_test(&want, 400));
    /* Page 401 does not thrash, but its big page holds one that does. */
    struct block_bits other = {{0}};
    bb_set(&other, 401);
    in.faulted = &other;
    drv_thrashing_prefetch(&d, VA0 >> 12, &in, &want);
    ck_assert_uint_eq(bb_count(&want), 1);
    ck_assert(!bb_test(&want, 400) && bb_test(&want, 401));
    core_down(&c);
}
END_TEST

/* ---- the timed driver ---- */

struct drig { struct rig *r; struct driver *d; struct domain dom; };

/* The driver rig of test_driver.c (bare 16 GB/s link, 4 KiB = 280 ns + 1 us,
 * fixed 8-cycle walks at 1 GHz, no interrupt latency) with ONE page frame,
 * clean pages dropped, thrashing on with a 90 us lapse and nap. */
static struct drig *drig_new(const char *const *extra, size_t nextra)
{
    static const char *const base[] = {
        "gmmu.walker.mode=fixed", "gmmu.walk_latency=8", "gmmu.interrupt_latency=0ns",
        "driver.fault_latency=20us", "link.bandwidth=16GB/s", "link.latency=1us",
        "link.ce_setup=0ns", "link.encoding=none", "link.dllp_interval=0", "link.rcb=0",
        "link.completion_header=24B", "link.max_read_request=4KiB",
        "gmmu.access_counters.enabled=false", "gpu.memory.capacity=4KiB",
        "driver.drop_clean=true", "driver.prefetch=none", "driver.replay_policy=batch_flush",
        "driver.thrashing.enabled=true", "driver.thrashing.lapse=90us",
    };
    const char *sets[32];
    size_t n = 0;
    for (size_t i = 0; i < NSETS(base); i++) sets[n++] = base[i];
    for (size_t i = 0; i < nextra; i++) sets[n++] = extra[i];
    struct drig *g = calloc(1, sizeof *g);
    g->r = rig_new(sets, n, 1, 1);
    g->dom = (struct domain){ "driver", 1, 3 };
    g->d = driver_create(g->r->e, g->r->cfg, g->r->st, &g->dom, g->r->gmmu, g->r->tlb,
                         g->r->link, 0);
    return g;
}

static void drig_free(struct drig *g)
{
    driver_free(g->d);
    rig_free(g->r);
    free(g);
}

static uint64_t brow(const struct rig *r, size_t i, const char *f)
{
    for (size_t t = 0; t < stats_table_count(r->st); t++) {
        const struct rec_table *tb = stats_table_at(r->st, t);
        if (strcmp(tb->name, "batches")) continue;
        ck_assert_uint_lt(i, tb->nrows);
        for (size_t k = 0; k < tb->nfields; k++)
            if (!strcmp(tb->fields[k].name, f)) {
                uint64_t v;
                memcpy(&v, tb->rows + i * tb->row_bytes + k * 8, 8);
                return v;
            }
    }
    ck_abort_msg("no batches field %s", f);
    return 0;
}

/* Pages A = PG(0) and B = PG(1) share one frame; a walk for A, B, A, ...
 * is sent every 25 us (k = 0..9).  Batch k is fetched at 25k us + 8 ns and
 * services its page 20 us later, at S_k = 25k + 20.008 us: the other page
 * is evicted (a host event), this one migrated (a GPU event), landing
 * 1.28 us later, before the next walk.
 *   S_0 = 20.008: A migrates, the block's first event.
 *   S_1 = 45.008: A evicted 25 us after: tracking starts; A and B seen.
 *   S_2..S_4: each page gets an event every 25 us (< 90): at S_4 = 120.008
 *     A and B reach 3 events: thrashing.
 *   S_5 = 145.008: B's fault opens [145.008, 235.008], GPU through;
 *     S_6 = 170.008: A's opens [170.008, 260.008]; S_7, S_8 inside: served.
 *   S_9 = 245.008: B's next period lets nobody through: throttled, nothing
 *     migrates, A stays.  The batch ends at once and its replay faults B's
 *     parked walk again at once (gmmu/replay.c): batches every 20 us, B
 *     throttled at 265.008, 285.008, 305.008, 325.008 (all < 335.008, the
 *     period's end); at 345.008 the period is over and B's last event
 *     (evicted at S_8 = 220.008) is 125 us old: served; B lands at
 *     346.288 us, and both pages' histories reset (their events are more
 *     than a lapse apart).  15 batches, 5 throttled faults, 10 pages
 *     migrated. */
START_TEST(driver_throttles_a_thrashing_page)
{
    struct drig *g = drig_new(NULL, 0);
    struct rig *r = g->r;
    for (unsigned k = 0; k < 10; k++) rig_walk(r, (sim_time)k * 25 * US, PG(k % 2), REQ_LOAD);
    rig_run(r);
    ck_assert_uint_eq(rig_counter(r, "driver.batches"), 15);
    for (unsigned k = 0; k < 9; k++) {
        ck_assert_uint_eq(brow(r, k, "start_ps"), (sim_time)k * 25 * US + 8 * CYC);
        ck_assert_uint_eq(brow(r, k, "migrated"), 1);
        ck_assert_uint_eq(brow(r, k, "end_ps"), (sim_time)k * 25 * US + 8 * CYC + 21280000);
    }
    ck_assert_uint_eq(brow(r, 9, "start_ps"), 225 * US + 8 * CYC);
    for (unsigned k = 9; k < 14; k++) {
        ck_assert_uint_eq(brow(r, k, "migrated"), 0);
        ck_assert_uint_eq(brow(r, k, "end_ps"), 245 * US + 8 * CYC + (sim_time)(k - 9) * 20 * US);
    }
    ck_assert_uint_eq(brow(r, 14, "start_ps"), 325 * US + 8 * CYC);
    ck_assert_uint_eq(brow(r, 14, "migrated"), 1);
    ck_assert_uint_eq(brow(r, 14, "end_ps"), 346288000);
    ck_assert_uint_eq(rig_counter(r, "driver.thrashing.detected"), 2);
    ck_assert_uint_eq(rig_counter(r, "driver.thrashing.throttled"), 5);
    ck_assert_uint_eq(rig_counter(r, "driver.pages_migrated"), 10);
    ck_assert_uint_eq(thrashing_events(g->d->pol.thrash, PG(0) >> 12), 0);
    ck_assert_uint_eq(thrashing_events(g->d->pol.thrash, PG(1) >> 12), 0);
    drig_free(g);
}
END_TEST

/* Off (the default), the same walks are all served: 10 batches. */
START_TEST(driver_without_thrashing_serves_every_fault)
{
    static const char *const off[] = { "driver.thrashing.enabled=false" };
    struct drig *g = drig_new(off, 1);
    for (unsigned k = 0; k < 10; k++) rig_walk(g->r, (sim_time)k * 25 * US, PG(k % 2), REQ_LOAD);
    rig_run(g->r);
    ck_assert_uint_eq(rig_counter(g->r, "driver.batches"), 10);
    ck_assert_ptr_null(stats_find(g->r->st, "driver.thrashing.throttled"));
    drig_free(g);
}
END_TEST

/* A page pinned in host memory is mapped remotely, not migrated, and
 * unmapped when the pin runs out.  The core is brought to the state of
 * ping_pong_to_600 (pinned in GPU memory until 790; period [600, 700]
 * lets nobody through) on page PG(0) (lapse 100 us here); its walk at 690 us faults, the batch services it at
 * 710.008 us: a new period lets the GPU through with the host among the
 * thrashing processors: pinned in host memory, mapped remotely.  A walk
 * at 750 us finds the remote mapping (no fault); at 790 us the pin ends
 * and the mapping goes. */
static struct drig *host_pin_rig(bool (*busy)(void *ctx))
{
    static const char *const ex[] = { "driver.thrashing.lapse=100us",
                                      "driver.thrashing.pin_threshold=2", "driver.thrashing.pin=3" };
    struct drig *g = drig_new(ex, NSETS(ex));
    ping_pong_to_600(g->d->pol.thrash, PG(0) >> 12);
    if (busy) engine_set_busy_fn(g->r->e, busy, g->r);
    rig_walk(g->r, 690 * US, PG(0), REQ_LOAD);
    rig_walk(g->r, 750 * US, PG(0), REQ_LOAD);
    rig_run(g->r);
    return g;
}

START_TEST(driver_maps_a_host_pinned_page_remotely)
{
    struct drig *g = host_pin_rig(NULL);
    struct thrashing *t = g->d->pol.thrash;
    const uint64_t v = PG(0) >> 12;
    ck_assert_uint_eq(rig_counter(g->r, "driver.thrashing.pinned_host"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.pages_migrated"), 0);
    ck_assert_uint_eq(rig_counter(g->r, "gmmu.faults"), 1);
    ck_assert_uint_eq(rig_counter(g->r, "driver.thrashing.unpinned"), 1);
    ck_assert(!gmmu_is_remote(g->r->gmmu, v));
    ck_assert(!thrashing_is_pinned(t, v));
    drig_free(g);
}
END_TEST

/* The run is over when the work is (the rig's: every walk answered, as
 * the system's is every kernel finished): a pin that runs out later is
 * the driver's delayed work (thrashing_unpin_pages), which no program
 * waits for, so it must not stretch the run.  The same walks as above,
 * with the rig's end of work: the 750 us walk is the last work, the pin
 * would run out at 790 us. */
static bool walks_unanswered(void *ctx)
{
    const struct rig *r = ctx;
    return r->nans < r->nsent;
}

START_TEST(a_pin_running_out_after_the_work_does_not_hold_the_run)
{
    struct drig *g = host_pin_rig(walks_unanswered);
    struct thrashing *t = g->d->pol.thrash;
    const uint64_t v = PG(0) >> 12;
    ck_assert_uint_eq(g->r->nans, 2);
    ck_assert_uint_eq(rig_counter(g->r, "driver.thrashing.pinned_host"), 1);
    const struct rig_ans *last = rig_ans(g->r, PG(0), 1);
    ck_assert_uint_lt(last->t, 790 * US);
    ck_assert_uint_eq(engine_end_time(g->r->e), last->t);
    ck_assert_uint_eq(rig_counter(g->r, "driver.thrashing.unpinned"), 0);
    ck_assert(thrashing_is_pinned(t, v));
    drig_free(g);
}
END_TEST

static Suite *thrashing_suite(void)
{
    Suite *s = suite_create("thrashing");
    TCase *tc = tcase_create("thrashing");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, lone_gpu_is_throttled_at_the_threshold);
    tcase_add_test(tc, ping_pong_is_pinned_at_the_pin_threshold);
    tcase_add_test(tc, epoch_resets_a_quiet_block);
    tcase_add_test(tc, without_eviction_events_a_lone_gpu_is_never_detected);
    tcase_add_test(tc, thrashing_pages_are_not_prefetched);
    tcase_add_test(tc, driver_throttles_a_thrashing_page);
    tcase_add_test(tc, driver_without_thrashing_serves_every_fault);
    tcase_add_test(tc, driver_maps_a_host_pinned_page_remotely);
    tcase_add_test(tc, a_pin_running_out_after_the_work_does_not_hold_the_run);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(thrashing_suite()); }

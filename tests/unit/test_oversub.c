/* Thread oversubscription (sim/sm/oversub.c; batch-aware Sec. 4.1, Fig.
 * 6-7, Sec. 6.5) end to end on one SM, against hand-derived numbers.
 *
 * The kernel: 2 blocks of one warp; each warp first loads 128 B of a page
 * of its own (block_stride 64 KiB), then issues 20000 one-cycle compute
 * instructions.  One block fits an SM (gpu.sm.max_blocks 1): B_sched = 1.
 *
 * Without TO: block 1 is placed only when block 0 retires, after block 0's
 * page came in batch 1; block 1 then faults alone: 2 batches.
 *
 * With TO (1 extra block, controller off): block 1 is placed inactive at
 * the launch.  Block 0's warp faults (its only warp stalled on a far
 * fault: the block is fault-stalled) -> save block 0 (C cycles) -> block 1,
 * which never ran, has no context and issues at once -> its fault reaches
 * the buffer C + a few cycles after block 0's, well inside the 5 us before
 * the driver wakes (gmmu.interrupt_latency): one batch of both faults.
 * When page 0 lands and its translation returns, block 0 is ready and
 * block 1 fault-stalled: save block 1 (C), restore block 0 (C), block 0
 * issues (its load's line, sent when the translation returned, came back
 * while it was parked: the memory latency m, a few hundred cycles, is
 * under 2C; with a free switch block 0 waits m for it instead).  Page 1
 * lands while block 0 computes its 20000 cycles; block 0 retires, block 1
 * is restored (C) and runs (its line long back).  Switches out: 2;
 * restores: 2; contexts moved: 4.
 *
 * The context: 32 threads x 16 registers x 4 B + ctx_state 100 KiB =
 * 104448 B; ideal cost (Sec. 6.5: bits / 1024 per cycle) C = 816 cycles.
 * Only the saves and restores after the landing are on the kernel's
 * critical path (the first save delays block 1's fault, not the batch):
 * against a free switch the kernel ends 2C - m + C later; between two
 * ideal costs C1 and C2 (both with 2C > m) exactly 3 (C2 - C1) cycles
 * later: ctx_state 200 KiB gives C2 = (2048 + 204800) x 8 / 1024 = 1616.  With the memory cost each save is 816 line stores paced
 * by the crossbar port (128 B / 32 B per cycle: 4 cycles each) and each
 * restore 816 line loads (1 per cycle), so the switch time is at least
 * 2 x 816 x 4 + 2 x 816 cycles. */
#include <check.h>
#include "suite_main.h"
#include <string.h>
#include "config/config.h"
#include "core/stats.h"
#include "system.h"

#define CTX_BYTES (32 * 16 * 4 + 100 * 1024)
#define C_CYCLES ((CTX_BYTES * 8 + 1023) / 1024)

struct run { struct config *c; struct system *s; sim_time t, p; };

static struct run go_sets(const char *to, const char *cost, const char *state,
                         const char *const *more, size_t nmore)
{
    char en[64], co[64], cs[64];
    snprintf(cs, sizeof cs, "gpu.sm.oversub.ctx_state=%s", state);
    snprintf(en, sizeof en, "gpu.sm.oversub.enabled=%s", to);
    snprintf(co, sizeof co, "gpu.sm.oversub.ctx_cost=%s", cost);
    const char *sets[] = {
        "workload.kind=compute", "gpu.sms=1", "gpu.sm.max_blocks=1",
        "workload.compute.grid=2", "workload.compute.block=32",
        "workload.compute.insts=20000", "workload.compute.load_warps=1",
        "workload.compute.block_stride=64KiB", "gpu.memory.fraction=100%",
        "gpu.sm.oversub.extra=1", "driver.oversub.control=false",
        cs, en, co, NULL, NULL, NULL,
    };
    const size_t base = sizeof sets / sizeof sets[0] - 3;
    ck_assert_uint_le(nmore, 3);
    for (size_t i = 0; i < nmore; i++) sets[base + i] = more[i];
    struct cfg_error err;
    struct run r;
    r.c = config_load(NULL, sets, base + nmore, &err);
    if (!r.c) ck_abort_msg("config: %s", err.msg);
    r.s = system_build(r.c);
    ck_assert_int_eq(system_run(r.s), RUN_COMPLETED);
    r.t = engine_end_time(system_engine(r.s));
    r.p = system_core_period(r.s);
    return r;
}

static struct run go_state(const char *to, const char *cost, const char *state)
{
    return go_sets(to, cost, state, NULL, 0);
}

static struct run go(const char *to, const char *cost) { return go_state(to, cost, "100KiB"); }

static void done(struct run *r) { system_free(r->s); config_free(r->c); }

static uint64_t counter(const struct run *r, const char *name)
{
    const struct stat_entry *st = stats_find(system_stats(r->s), name);
    ck_assert_msg(st && st->kind == STAT_COUNTER, "no counter %s", name);
    return *st->p.u;
}

/* Field f of row i of /batches. */
static uint64_t brow(const struct run *r, size_t i, const char *f)
{
    const struct stats *st = system_stats(r->s);
    for (size_t t = 0; t < stats_table_count(st); t++) {
        const struct rec_table *tb = stats_table_at(st, t);
        if (strcmp(tb->name, "batches")) continue;
        ck_assert_uint_lt(i, tb->nrows);
        for (size_t k = 0; k < tb->nfields; k++)
            if (!strcmp(tb->fields[k].name, f)) {
                uint64_t v;
                memcpy(&v, tb->rows + i * tb->row_bytes + k * 8, 8);
                return v;
            }
    }
    ck_abort_msg("no batches.%s", f);
    return 0;
}

START_TEST(extra_block_faults_join_the_batch)
{
    struct run base = go("false", "ideal");
    ck_assert_uint_eq(counter(&base, "driver.batches"), 2);
    ck_assert_uint_eq(brow(&base, 0, "pages"), 1);
    ck_assert_uint_eq(brow(&base, 1, "pages"), 1);
    struct run to = go("true", "ideal");
    ck_assert_uint_eq(counter(&to, "driver.batches"), 1);
    ck_assert_uint_eq(brow(&to, 0, "faults"), 2);
    ck_assert_uint_eq(brow(&to, 0, "pages"), 2);
    ck_assert_uint_eq(counter(&to, "gpu.oversub.switches"), 2);
    ck_assert_uint_eq(counter(&to, "gpu.oversub.restores"), 2);
    ck_assert_uint_eq(counter(&to, "gpu.oversub.ctx_bytes"), 4 * CTX_BYTES);
    ck_assert_uint_eq(counter(&to, "gpu.oversub.switch_ps"), 4 * C_CYCLES * to.p);
    /* Every block retired: none left active or inactive. */
    ck_assert_uint_eq(counter(&to, "gpu.oversub.active_blocks"), 0);
    ck_assert_uint_eq(counter(&to, "gpu.oversub.inactive_blocks"), 0);
    /* One batch fewer: the kernel ends sooner than without TO. */
    ck_assert_uint_lt(to.t, base.t);
    done(&base);
    done(&to);
}
END_TEST

START_TEST(switch_timeline_save_restore_issue)
{
    struct run free_ = go("true", "free");
    struct run ideal = go("true", "ideal");
    ck_assert_uint_eq(C_CYCLES, 816);
    ck_assert_uint_eq(counter(&free_, "gpu.oversub.switch_ps"), 0);
    ck_assert_uint_eq(counter(&free_, "driver.batches"), 1);
    /* The same batch (fetched at the same time, same pages landing). */
    ck_assert_uint_eq(brow(&free_, 0, "start_ps"), brow(&ideal, 0, "start_ps"));
    ck_assert_uint_eq(brow(&free_, 0, "end_ps"), brow(&ideal, 0, "end_ps"));
    /* 2C - m + C with 0 < m < 2C. */
    ck_assert_uint_gt(ideal.t - free_.t, C_CYCLES * ideal.p);
    ck_assert_uint_lt(ideal.t - free_.t, 3 * C_CYCLES * ideal.p);
    struct run big = go_state("true", "ideal", "200KiB");
    ck_assert_uint_eq(counter(&big, "gpu.oversub.switch_ps"), 4 * 1616 * big.p);
    ck_assert_uint_eq(big.t - ideal.t, 3 * (1616 - C_CYCLES) * ideal.p);
    done(&free_);
    done(&ideal);
    done(&big);
}
END_TEST

/* The save comes before the extra block's first issue (stall -> save ->
 * issue), timed against the driver's wake-up: at 1 GHz with a 5 us
 * interrupt latency the driver fetches the buffer I = 5000 cycles after
 * block 0's fault entry (tf) arrived.  Block 0 is fault-stalled at ts >=
 * tf; block 1 (never ran: nothing to restore) issues at ts + C and its
 * fault reaches the buffer d > 0 cycles later (TLB misses, the walk).
 *   C = 5000 (ctx_state 637952 B: (2048 + 637952) x 8 / 1024): block 1's
 *     fault comes at >= tf + C + d > tf + I, after the fetch: 2 batches of
 *     one fault each, however small d is;
 *   C = 4000 (ctx_state 509952 B): it comes at tf + (ts - tf) + C + d,
 *     inside the fetch when the stall notice and the first access take
 *     under 1000 cycles (a handful of pipeline, TLB and walk steps): one
 *     batch of both.
 * A model that let block 1 issue before the save had finished would join
 * the batch in the first case too. */
START_TEST(save_precedes_the_extra_blocks_issue)
{
    const char *more[] = { "gpu.clock=1GHz", "gmmu.interrupt_latency=5us" };
    struct run hi = go_sets("true", "ideal", "637952B", more, 2);
    ck_assert_uint_eq(counter(&hi, "gpu.oversub.switch_ps"), 4 * 5000 * hi.p);
    ck_assert_uint_eq(hi.p, 1000);
    ck_assert_uint_eq(counter(&hi, "driver.batches"), 2);
    ck_assert_uint_eq(brow(&hi, 0, "faults"), 1);
    ck_assert_uint_eq(brow(&hi, 1, "faults"), 1);
    struct run lo = go_sets("true", "ideal", "509952B", more, 2);
    ck_assert_uint_eq(counter(&lo, "gpu.oversub.switch_ps"), 4 * 4000 * lo.p);
    ck_assert_uint_eq(counter(&lo, "driver.batches"), 1);
    ck_assert_uint_eq(brow(&lo, 0, "faults"), 2);
    done(&hi);
    done(&lo);
}
END_TEST

START_TEST(memory_cost_is_real_traffic)
{
    struct run m = go("true", "memory");
    const uint64_t lines = (CTX_BYTES + 127) / 128;
    ck_assert_uint_eq(counter(&m, "gpu.oversub.switches"), 2);
    ck_assert_uint_ge(counter(&m, "gpu.oversub.switch_ps"), (2 * lines * 4 + 2 * lines) * m.p);
    /* The saves' stores reached the L2 (write-allocate there). */
    ck_assert_uint_ge(counter(&m, "l2.misses") + counter(&m, "l2.hits"), 4 * lines);
    done(&m);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("oversub");
    TCase *t = tcase_create("to");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, extra_block_faults_join_the_batch);
    tcase_add_test(t, switch_timeline_save_restore_issue);
    tcase_add_test(t, save_precedes_the_extra_blocks_issue);
    tcase_add_test(t, memory_cost_is_real_traffic);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(suite()); }

/* sim.model fast's GPU memory (sim/dram/dram_fast.c, issue 41) against
 * hand-derived numbers from the default GDDR5 timing (dram_timing.c):
 * 924 MHz -> tCK = 1082 ps; tRCD = tCL = tRP = 12, tRAS = 28, tRC = 40,
 * tCCD_L = 3, tRTP = 2; BL 8 at 4 transfers per clock: a 32 B burst holds
 * the 4-byte bus 2 clocks, so a channel's peak is 16 B per clock (a 128 B
 * line per 8 clocks).  Requests go through dram-replay with sim.model=fast,
 * which builds the memory the run's model names. */
#include <check.h>
#include "suite_main.h"
#include <stdlib.h>
#include "config/config.h"
#include "core/engine.h"
#include "core/stats.h"
#include "dram/dram.h"

#define TCK 1082ULL      /* round(1e12 / 924e6) */

static void run(const char *const *sets, size_t nsets, const struct dram_replay_req *r,
                size_t n, struct dram_replay_result *res)
{
    const char *all[16] = { "sim.model=fast" };
    ck_assert_uint_lt(nsets, 15);
    for (size_t i = 0; i < nsets; i++) all[i + 1] = sets[i];
    struct cfg_error err;
    struct config *c = config_load(NULL, all, nsets + 1, &err);
    if (!c) ck_abort_msg("config: %s", err.msg);
    dram_replay_run(c, r, n, res);
    config_free(c);
}
#define NSETS(a) (sizeof a / sizeof a[0])

/* Channel 0, bank b, row r of the plain mapping: chunk index
 * ((r x 16 + b) x 8 chunks per 2 KiB row) x 12 channels. */
static const char *const plain[] = { "dram.mapping=row_bank_col", "dram.xor_bank=false",
                                     "dram.tREFI=0" };
static uint64_t addr_of(unsigned bank, uint64_t row)
{
    return ((row * 16 + bank) * 8) * 12 * 256;
}

START_TEST(idle_read_is_its_configured_latency)
{
    /* A closed bank: ACT, tRCD to the read, tCL to data, one 2-clock burst. */
    struct dram_replay_req r[] = { { 0, 0x0, 32, false } };
    struct dram_replay_result res;
    run(plain, NSETS(plain), r, 1, &res);
    ck_assert_uint_eq(res.done[0], (12 + 12 + 2) * TCK);
    ck_assert_uint_eq(res.tot.row_misses, 1);
    dram_replay_result_free(&res);
    /* A 128 B line: four bursts of one bank tCCD_L = 3 apart. */
    r[0].size = 128;
    run(plain, NSETS(plain), r, 1, &res);
    ck_assert_uint_eq(res.done[0], (12 + 3 * 3 + 12 + 2) * TCK);
    dram_replay_result_free(&res);
    /* The controller pipeline adds exactly dram.ctrl_latency clocks. */
    const char *sets[] = { "dram.ctrl_latency=150", "dram.tREFI=0" };
    run(sets, NSETS(sets), r, 1, &res);
    ck_assert_uint_eq(res.done[0], (150 + 12 + 9 + 12 + 2) * TCK);
    dram_replay_result_free(&res);
}
END_TEST

START_TEST(row_conflict_costs_trp_trcd_tcl)
{
    /* Bank 0 row 0 opened at 0; long after (every bank timer expired) a
     * read of row 1 precharges, activates and reads: tRP + tRCD + tCL +
     * burst; a read of row 1 after that hits: tCL + burst. */
    const sim_time t1 = 1000 * TCK, t2 = 2000 * TCK;
    struct dram_replay_req r[] = { { 0, addr_of(0, 0), 32, false },
                                   { t1, addr_of(0, 1), 32, false },
                                   { t2, addr_of(0, 1) + 32, 32, false } };
    struct dram_replay_result res;
    run(plain, NSETS(plain), r, 3, &res);
    ck_assert_uint_eq(res.done[1] - t1, (12 + 12 + 12 + 2) * TCK);
    ck_assert_uint_eq(res.done[2] - t2, (12 + 2) * TCK);
    ck_assert_uint_eq(res.tot.row_misses, 1);
    ck_assert_uint_eq(res.tot.row_conflicts, 1);
    ck_assert_uint_eq(res.tot.row_hits, 1);
    dram_replay_result_free(&res);
}
END_TEST

START_TEST(rows_of_one_bank_back_to_back_are_trc_apart)
{
    /* All at 0: each PRE waits tRAS = 28 after its ACT (> tRCD + tRTP),
     * the next ACT tRP later = 40 = tRC: read k is done at k x 40 + 26. */
    enum { N = 8 };
    struct dram_replay_req r[N];
    for (int k = 0; k < N; k++) r[k] = (struct dram_replay_req){ 0, addr_of(0, (uint64_t)k), 32, false };
    struct dram_replay_result res;
    run(plain, NSETS(plain), r, N, &res);
    for (int k = 0; k < N; k++) ck_assert_uint_eq(res.done[k], ((uint64_t)k * 40 + 26) * TCK);
    ck_assert_uint_eq(res.tot.row_conflicts, N - 1);
    dram_replay_result_free(&res);
}
END_TEST

START_TEST(acts_go_at_the_channels_act_rate)
{
    /* 16 reads at 0, one to each closed bank: every one needs an ACT.
     * The ACT rate is one per max(tRRD_S, tFAW / 4): 6 clocks at the
     * default (tRRD_S 6, tFAW 19: 4.75), so the k-th ACT is at 6k clocks
     * and its sector is back tRCD + tCL + burst = 26 clocks later (the
     * bus, 2 clocks a sector, is not what holds them). */
    struct dram_replay_req r[16];
    for (unsigned b = 0; b < 16; b++) r[b] = (struct dram_replay_req){ 0, addr_of(b, 0), 32, false };
    struct dram_replay_result res;
    run(plain, NSETS(plain), r, 16, &res);
    for (unsigned k = 0; k < 16; k++) ck_assert_uint_eq(res.done[k], (6 * k + 26) * TCK);
    ck_assert_uint_eq(res.tot.row_misses, 16);
    dram_replay_result_free(&res);
    /* tFAW 40: four per 40 clocks, one per 10, which is now the rate. */
    const char *sets[] = { "dram.mapping=row_bank_col", "dram.xor_bank=false", "dram.tREFI=0",
                           "dram.tFAW=40" };
    run(sets, NSETS(sets), r, 16, &res);
    for (unsigned k = 0; k < 16; k++) ck_assert_uint_eq(res.done[k], (10 * k + 26) * TCK);
    dram_replay_result_free(&res);
}
END_TEST

START_TEST(streams_lines_at_the_configured_peak)
{
    /* One channel, N sequential 128 B lines all queued at 0: the bus moves
     * one line per 4 bursts x 2 clocks = 8 clocks, so the last answer
     * comes no earlier than N x 8 clocks and, once the stream runs, the
     * answers are exactly 8 clocks apart (the peak, 4 B x 4 x 924 MHz). */
    enum { N = 4096 };
    struct dram_replay_req *r = calloc(N, sizeof *r);
    for (int i = 0; i < N; i++) r[i] = (struct dram_replay_req){ 0, (uint64_t)i * 128, 128, false };
    struct dram_replay_result res;
    const char *sets[] = { "dram.channels=1", "dram.tREFI=0" };
    run(sets, NSETS(sets), r, N, &res);
    ck_assert_double_eq_tol(res.peak, 4.0 * 4 * 1e12 / TCK, 1.0);
    ck_assert_uint_eq(res.done[N - 1], (uint64_t)N * 8 * TCK);
    for (int i = N / 2; i < N; i++) ck_assert_uint_eq(res.done[i] - res.done[i - 1], 8 * TCK);
    dram_replay_result_free(&res);
    free(r);
}
END_TEST

START_TEST(stores_are_posted)
{
    /* A store is acknowledged the clock it arrives; it still opens its row:
     * a read of the same row after it hits. */
    const sim_time t1 = 1000 * TCK;
    struct dram_replay_req r[] = { { 0, addr_of(3, 5), 32, true },
                                   { t1, addr_of(3, 5) + 64, 32, false } };
    struct dram_replay_result res;
    run(plain, NSETS(plain), r, 2, &res);
    ck_assert_uint_eq(res.done[0], 0);
    ck_assert_uint_eq(res.done[1] - t1, (12 + 2) * TCK);
    ck_assert_uint_eq(res.tot.writes, 1);
    dram_replay_result_free(&res);
}
END_TEST

START_TEST(a_due_refresh_closes_the_banks_for_trfc)
{
    /* tREFI 3604 and tRFC 35 clocks (the defaults): a read arriving when
     * the first refresh is due waits tRFC, then opens its row. */
    const sim_time t = 3604 * TCK;
    struct dram_replay_req r[] = { { 0, 0x0, 32, false }, { t, 0x0, 32, false } };
    struct dram_replay_result res;
    const char *sets[] = { "dram.mapping=row_bank_col" };
    run(sets, NSETS(sets), r, 2, &res);
    ck_assert_uint_eq(res.done[1] - t, (35 + 12 + 12 + 2) * TCK);
    ck_assert_uint_eq(res.tot.refreshes, 1);
    ck_assert_uint_eq(res.tot.row_misses, 2);
    dram_replay_result_free(&res);
}
END_TEST

/* Host memory on the copy path (hostmem_fast_create, sim.model fast where
 * no page is placed in host memory): the same server over the host's own
 * keys.  Default host DDR4: 1250 MHz -> 800 ps; 8 B bus, 2 transfers per
 * clock, BL8: a 64 B burst of 4 clocks, a 128 B line two of them tCCD_L = 6
 * apart; tRCD = tCL = 12.  An idle 128 B read: 12 + 6 + 12 + 4 = 34
 * clocks, then the controller's host.latency hop (100 cycles of a 1 GHz
 * core here: 100 ns).  A store is posted: answered at its arrival. */
START_TEST(host_memory_is_the_server_over_the_host_keys)
{
    const char *sets[] = { "sim.model=fast", "host.dram.tREFI=0", "gpu.clock=1GHz" };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, 3, &err);
    if (!c) ck_abort_msg("config: %s", err.msg);
    struct engine_limits lim = { 0, 0, 0 };
    struct engine *e = engine_new(&lim);
    struct stats *st = stats_new();
    struct domain dom = { "host", hostmem_period(c), 4 };
    ck_assert_uint_eq(dom.period, 800);
    struct dram *h = hostmem_fast_create(e, c, st, &dom);
    ck_assert_uint_eq(dram_fast_access(h, 0, 128, false, 0), 34 * 800 + 100 * 1000);
    ck_assert_uint_eq(dram_fast_access(h, 1 << 20, 128, true, 5000 * 800), 5000 * 800);
    dram_free(h);
    stats_free(st);
    engine_free(e);
    config_free(c);
}
END_TEST

static Suite *dram_fast_suite(void)
{
    Suite *s = suite_create("dram_fast");
    TCase *tc = tcase_create("server");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, idle_read_is_its_configured_latency);
    tcase_add_test(tc, row_conflict_costs_trp_trcd_tcl);
    tcase_add_test(tc, rows_of_one_bank_back_to_back_are_trc_apart);
    tcase_add_test(tc, acts_go_at_the_channels_act_rate);
    tcase_add_test(tc, streams_lines_at_the_configured_peak);
    tcase_add_test(tc, stores_are_posted);
    tcase_add_test(tc, a_due_refresh_closes_the_banks_for_trfc);
    tcase_add_test(tc, host_memory_is_the_server_over_the_host_keys);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(dram_fast_suite()); }

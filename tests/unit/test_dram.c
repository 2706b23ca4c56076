/* GPU memory timing against hand-derived numbers (GTX 480 GDDR5 defaults:
 * 924 MHz -> tCK = 1082 ps; tRCD = tCL = tRP = 12, tRAS = 28, tRC = 40,
 * tRRD = 6, tCCD_L/S = 3/2, BL 8 at 4 transfers/clock -> 2-clock bursts of
 * 32 B on a 4-byte channel). */
#include <check.h>
#include "suite_main.h"
#include <stdlib.h>
#include <string.h>
#include "config.h"
#include "dram/dram.h"

#define TCK 1082ULL      /* round(1e12 / 924e6) */

static struct config *load(const char *const *sets, size_t n)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    if (!c) ck_abort_msg("config: %s", err.msg);
    return c;
}
#define NSETS(a) (sizeof a / sizeof a[0])

static void run(const char *const *sets, size_t nsets, const struct dram_replay_req *r,
                size_t n, struct dram_replay_result *res)
{
    struct config *c = load(sets, nsets);
    dram_replay_run(c, r, n, res);
    config_free(c);
}

/* Plain mapping for hand-made addresses: inside channel 0, bank b, row r:
 * chunk index ((r x 16 + b) x 8 chunks per 2 KiB row) x 12 channels. */
static const char *const plain[] = { "dram.mapping=row_bank_col", "dram.xor_bank=false",
                                     "dram.tREFI=0" };
static uint64_t addr_of(unsigned bank, uint64_t row)
{
    return ((row * 16 + bank) * 8) * 12 * 256;
}

START_TEST(idle_read_latency_is_rcd_cl_burst)
{
    /* One 32 B sector: ACT at 0, RD at tRCD, data done tCL + one burst later. */
    struct dram_replay_req r[] = { { 0, 0x0, 32, false } };
    struct dram_replay_result res;
    run(plain, NSETS(plain), r, 1, &res);
    ck_assert_uint_eq(res.done[0], (12 + 12 + 2) * TCK);
    dram_replay_result_free(&res);
    /* A 128 B line is four bursts tCCD_L apart in one bank group. */
    r[0].size = 128;
    run(plain, NSETS(plain), r, 1, &res);
    ck_assert_uint_eq(res.done[0], (12 + 3 * 3 + 12 + 2) * TCK);
    dram_replay_result_free(&res);
    /* The documented controller overhead adds exactly ctrl_latency clocks. */
    const char *sets[] = { "dram.ctrl_latency=5", "dram.tREFI=0" };
    r[0].size = 32;
    run(sets, NSETS(sets), r, 1, &res);
    ck_assert_uint_eq(res.done[0], (5 + 12 + 12 + 2) * TCK);
    dram_replay_result_free(&res);
    /* The batch-aware machine's 150 clocks: a sector in 150 + 26 clocks, a
     * line in 150 + 35 = 185 clocks = 200.17 ns (its Table 1 "200-cycle"
     * memory at 1 GHz). */
    const char *ba[] = { "dram.ctrl_latency=150", "dram.tREFI=0" };
    run(ba, NSETS(ba), r, 1, &res);
    ck_assert_uint_eq(res.done[0], (150 + 12 + 12 + 2) * TCK);
    dram_replay_result_free(&res);
    r[0].size = 128;
    run(ba, NSETS(ba), r, 1, &res);
    ck_assert_uint_eq(res.done[0], 185 * TCK);
    dram_replay_result_free(&res);
}
END_TEST

/* Issue 11, point 9: the controller pipeline must not hold input-queue
 * slots.  One channel, 32 B sequential sector reads all queued at 0,
 * ctrl_latency 150, the default 64-entry queues and refresh on.  Peak by
 * hand: a 32 B burst is BL8 / 4 transfers per clock = 2 clocks on the bus
 * and tCCD_S = 2 lets bursts of alternating bank groups follow back to
 * back (sequential 256 B chunks of a channel go to consecutive banks,
 * bank b in group b mod 4): 32 B per 2 x 1082 ps = 14.79 GB/s, which is
 * also 4 B x 4 transfers x 924 MHz.  Had each request held a queue slot
 * for 150 clocks, at most 64 / 150 requests per clock would enter:
 * 0.427 x 32 B per clock of 16 B per clock's peak = 85.3 %.  The answers
 * of N requests take at least ctrl + tRCD + tCL + N x 2 clocks. */
START_TEST(ctrl_latency_holds_no_queue_slot)
{
    enum { N = 16000 };
    struct dram_replay_req *r = calloc(N, sizeof *r);
    for (int i = 0; i < N; i++) r[i] = (struct dram_replay_req){ 0, (uint64_t)i * 32, 32, false };
    struct dram_replay_result res;
    const char *sets[] = { "dram.channels=1", "dram.ctrl_latency=150" };
    run(sets, NSETS(sets), r, N, &res);
    double peak = 32.0 * 1e12 / (2.0 * TCK);
    ck_assert_double_eq_tol(res.peak, 4.0 * 4 * 1e12 / TCK, 1.0);
    ck_assert_msg(res.bandwidth >= 0.95 * peak, "%.3f GB/s of %.3f (%.1f %%)",
                  res.bandwidth / 1e9, peak / 1e9, 100 * res.bandwidth / peak);
    ck_assert_uint_ge(res.end, (150 + 12 + 12 + (uint64_t)N * 2) * TCK);
    dram_replay_result_free(&res);
    free(r);
}
END_TEST

START_TEST(distinct_rows_of_one_bank_are_trc_apart)
{
    /* PRE may issue at max(tRAS, tRCD + tRTP) = 28 after ACT, the next ACT
     * tRP later = 40 = tRC: read k is done at k x tRC + tRCD + tCL + burst. */
    enum { N = 8 };
    struct dram_replay_req r[N];
    for (int k = 0; k < N; k++) r[k] = (struct dram_replay_req){ 0, addr_of(0, (uint64_t)k), 32, false };
    struct dram_replay_result res;
    run(plain, NSETS(plain), r, N, &res);
    for (int k = 0; k < N; k++)
        ck_assert_uint_eq(res.done[k], ((uint64_t)k * 40 + 26) * TCK);
    ck_assert_uint_eq(res.tot.row_misses, 1);
    ck_assert_uint_eq(res.tot.row_conflicts, N - 1);
    dram_replay_result_free(&res);
}
END_TEST

START_TEST(banks_are_trrd_and_tfaw_apart)
{
    enum { N = 8 };
    struct dram_replay_req r[N];
    for (int k = 0; k < N; k++) r[k] = (struct dram_replay_req){ 0, addr_of((unsigned)k, 0), 32, false };
    struct dram_replay_result res;
    /* tFAW 0: ACTs tRRD = 6 apart. */
    const char *a[] = { "dram.mapping=row_bank_col", "dram.xor_bank=false", "dram.tREFI=0",
                        "dram.tFAW=0" };
    run(a, NSETS(a), r, N, &res);
    for (int k = 0; k < N; k++) ck_assert_uint_eq(res.done[k], ((uint64_t)k * 6 + 26) * TCK);
    dram_replay_result_free(&res);
    /* tFAW 40 > 4 x tRRD: the fifth ACT waits for the window of the first. */
    const char *b[] = { "dram.mapping=row_bank_col", "dram.xor_bank=false", "dram.tREFI=0",
                        "dram.tFAW=40" };
    run(b, NSETS(b), r, N, &res);
    for (int k = 0; k < N; k++)
        ck_assert_uint_eq(res.done[k], ((uint64_t)(k / 4) * 40 + (uint64_t)(k % 4) * 6 + 26) * TCK);
    ck_assert_uint_eq(res.tot.row_misses, N);
    dram_replay_result_free(&res);
}
END_TEST

/* Sequential 128 B lines over all 12 channels, all queued at once: the
 * defaults (bank-interleaved rows, refresh on) reach >= 90 % of
 * 12 x 4 B x 4 x 924 MHz = 177.4 GB/s. */
START_TEST(streaming_reaches_90_percent_of_peak)
{
    enum { N = 12 * 1500 };
    struct dram_replay_req *r = calloc(N, sizeof *r);
    for (int i = 0; i < N; i++) r[i] = (struct dram_replay_req){ 0, (uint64_t)i * 128, 128, false };
    struct dram_replay_result res;
    const char *sets[] = { "sim.seed=1" };
    run(sets, NSETS(sets), r, N, &res);
    double peak = 12.0 * 4 * 4 * 1e12 / (double)TCK;
    ck_assert_double_eq_tol(res.peak, peak, 1.0);
    ck_assert_msg(res.bandwidth >= 0.9 * peak && res.bandwidth <= peak,
                  "%.3f GB/s of %.3f", res.bandwidth / 1e9, peak / 1e9);
    ck_assert_uint_eq(res.bytes, (uint64_t)N * 128);
    /* Each 2 KiB row holds 16 lines: one miss or conflict per 16, plus at
     * most one per bank (16) after each refresh closed every row. */
    uint64_t acc = res.tot.row_hits + res.tot.row_misses + res.tot.row_conflicts;
    ck_assert_uint_eq(acc, N);
    ck_assert_uint_gt(res.tot.refreshes, 0);
    ck_assert_uint_le(acc - res.tot.row_hits, (uint64_t)N / 16 + res.tot.refreshes * 16);
    dram_replay_result_free(&res);
    free(r);
}
END_TEST

START_TEST(writes_are_posted_and_forwarded)
{
    /* A write is answered when the controller takes it; a read of the same
     * line while the write waits in the write queue is answered from it. */
    struct dram_replay_req r[] = { { 0, 0x0, 128, true }, { 1000, 0x0, 128, false } };
    struct dram_replay_result res;
    const char *sets[] = { "dram.tREFI=0" };
    run(sets, NSETS(sets), r, 2, &res);
    ck_assert_uint_eq(res.done[0], 0);
    ck_assert_uint_eq(res.done[1], 1 * TCK);   /* next clock edge after 1 ns */
    dram_replay_result_free(&res);
    /* Both answers come out of the controller pipeline: ctrl_latency later. */
    const char *ctrl[] = { "dram.tREFI=0", "dram.ctrl_latency=5" };
    run(ctrl, NSETS(ctrl), r, 2, &res);
    ck_assert_uint_eq(res.done[0], 5 * TCK);
    ck_assert_uint_eq(res.done[1], (1 + 5) * TCK);
    dram_replay_result_free(&res);
}
END_TEST

/* A write and a read to two rows of one bank, both at 0.  Below the high
 * watermark reads go first: the read is an idle read (26 clocks).  With
 * write_high = 1 the write queue drains first: ACT 0, WR at tRCD = 12,
 * data ends 12 + tCWL 4 + burst 2 = 18; PRE at max(tRAS 28, 18 + tWR 12)
 * = 30; ACT at max(30 + tRP, tRC) = 42; RD at 54; done 54 + 12 + 2 = 68. */
START_TEST(write_drain_watermarks_order_reads_and_writes)
{
    struct dram_replay_req r[] = { { 0, addr_of(0, 0), 32, true }, { 0, addr_of(0, 1), 32, false } };
    struct dram_replay_result res;
    run(plain, NSETS(plain), r, 2, &res);
    ck_assert_uint_eq(res.done[1], 26 * TCK);
    ck_assert_uint_eq(res.tot.row_conflicts, 1);   /* the write, after the read */
    dram_replay_result_free(&res);
    const char *drain[] = { "dram.mapping=row_bank_col", "dram.xor_bank=false", "dram.tREFI=0",
                            "dram.write_high=1", "dram.write_low=0" };
    run(drain, NSETS(drain), r, 2, &res);
    ck_assert_uint_eq(res.done[0], 0);
    ck_assert_uint_eq(res.done[1], 68 * TCK);
    dram_replay_result_free(&res);
}
END_TEST

START_TEST(refresh_runs_while_idle_and_delays_reads)
{
    /* A read arriving after 3 tREFI of idleness finds 3 refreshes done; a
     * read right at a refresh waits until tRFC after it. */
    struct dram_replay_req r[] = { { 0, 0x0, 32, false }, { 3 * 3604 * TCK, 0x0, 32, false } };
    struct dram_replay_result res;
    const char *sets[] = { "dram.xor_bank=false" };
    run(sets, NSETS(sets), r, 2, &res);
    ck_assert_uint_eq(res.tot.refreshes, 3);
    /* The last REF issued at 3 tREFI (banks precharged long before): the
     * read's ACT waits tRFC = 35 clocks. */
    ck_assert_uint_eq(res.done[1] - r[1].t, (35 + 12 + 12 + 2) * TCK);
    dram_replay_result_free(&res);
}
END_TEST

START_TEST(trace_parser_reports_line_numbers)
{
    const char *text = "# t addr op\n0 0x100 R\n\n5.5 256 W 64\n7 0x200 X\n";
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    struct dram_replay_req *r = NULL;
    size_t n;
    char err[256];
    ck_assert(!dram_replay_parse(f, "t.tr", &r, &n, err, sizeof err));
    ck_assert_str_eq(err, "t.tr:5: operation is not R or W");
    fclose(f);
    const char *good = "0 0x100 R\n5.5 256 W 64 # comment\n";
    f = fmemopen((void *)good, strlen(good), "r");
    ck_assert(dram_replay_parse(f, "g.tr", &r, &n, err, sizeof err));
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(r[1].t, 5500);
    ck_assert_uint_eq(r[1].addr, 256);
    ck_assert_uint_eq(r[1].size, 64);
    ck_assert(r[1].write && !r[0].write);
    ck_assert_uint_eq(r[0].size, 128);
    free(r);
    fclose(f);
}
END_TEST

static Suite *dram_suite(void)
{
    Suite *s = suite_create("dram");
    TCase *tc = tcase_create("timing");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, idle_read_latency_is_rcd_cl_burst);
    tcase_add_test(tc, distinct_rows_of_one_bank_are_trc_apart);
    tcase_add_test(tc, banks_are_trrd_and_tfaw_apart);
    tcase_add_test(tc, streaming_reaches_90_percent_of_peak);
    tcase_add_test(tc, ctrl_latency_holds_no_queue_slot);
    tcase_add_test(tc, writes_are_posted_and_forwarded);
    tcase_add_test(tc, write_drain_watermarks_order_reads_and_writes);
    tcase_add_test(tc, refresh_runs_while_idle_and_delays_reads);
    tcase_add_test(tc, trace_parser_reports_line_numbers);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(dram_suite()); }

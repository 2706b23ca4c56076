/* GPU memory timing against hand-derived numbers (GTX 480 GDDR5 defaults:
 * 924 MHz -> tCK = 1082 ps; tRCD = tCL = tRP = 12, tRAS = 28, tRC = 40,
 * tRRD = 6, tCCD_L/S = 3/2, BL 8 at 4 transfers/clock -> 2-clock bursts of
 * 32 B on a 4-byte channel). */
#include <check.h>
#include "suite_main.h"
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "dram/dram.h"
#include "dram/dram_int.h"

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

/* FR-FCFS, first ready: a younger row hit goes before an older request
 * that needs its bank's row closed (Rixner et al., ISCA 2000).  All in
 * bank 0 of channel 0, clocks of 1082 ps:
 *   A row 0 at 0: ACT 0, RD 12, done 12 + tCL 12 + burst 2 = 26;
 *   B row 1 at 1: waits while a queued request wants the open row;
 *   C row 0 at 2: a hit, RD at max(12 + tCCD_L 3, bus free 26 - tCL) = 15,
 *     done 29;
 *   B: PRE at max(tRAS 28, 15 + tRTP 2) = 28, ACT at max(28 + tRP, tRC) = 40,
 *     RD 52, done 66.
 * First come first served would have closed row 0 for B before C. */
START_TEST(frfcfs_serves_a_younger_hit_before_an_older_conflict)
{
    struct dram_replay_req r[] = { { 0, addr_of(0, 0), 32, false },
                                   { 1 * TCK, addr_of(0, 1), 32, false },
                                   { 2 * TCK, addr_of(0, 0) + 32, 32, false } };
    struct dram_replay_result res;
    run(plain, NSETS(plain), r, 3, &res);
    ck_assert_uint_eq(res.done[0], 26 * TCK);
    ck_assert_uint_eq(res.done[2], 29 * TCK);
    ck_assert_uint_eq(res.done[1], 66 * TCK);
    ck_assert_uint_eq(res.tot.row_misses, 1);
    ck_assert_uint_eq(res.tot.row_hits, 1);
    ck_assert_uint_eq(res.tot.row_conflicts, 1);
    dram_replay_result_free(&res);
}
END_TEST

/* FR-FCFS takes the oldest request that can issue, not the oldest: B (bank
 * 0, row 1) cannot precharge before tRAS = 28, so the younger C (bank 1,
 * closed) opens its row at tRRD = 6 after A's ACT, reads at 18 (another
 * bank group: tCCD_S; its data starts at 30, after A's ends at 26) and is
 * done at 32; B as above at 66. */
START_TEST(frfcfs_takes_the_oldest_request_that_can_issue)
{
    struct dram_replay_req r[] = { { 0, addr_of(0, 0), 32, false },
                                   { 1 * TCK, addr_of(0, 1), 32, false },
                                   { 2 * TCK, addr_of(1, 0), 32, false } };
    struct dram_replay_result res;
    run(plain, NSETS(plain), r, 3, &res);
    ck_assert_uint_eq(res.done[0], 26 * TCK);
    ck_assert_uint_eq(res.done[2], 32 * TCK);
    ck_assert_uint_eq(res.done[1], 66 * TCK);
    dram_replay_result_free(&res);
}
END_TEST

/* The queue index (dram_queue.c) against a brute-force reading of the same
 * queue, under random inserts, row opens/closes and removals of the
 * oldest hit: each bank's oldest entry and oldest open-row hit (and their
 * arrival numbers kept beside the bank), the hit count, the bitsets of
 * banks with entries and with hits, and the arrival order must agree with
 * a scan.  BANKS = 70 puts banks in two bitset words. */
START_TEST(queue_index_agrees_with_a_scan)
{
    enum { CAP = 96, BANKS = 70, ROWS = 5 };
    struct dqueue q;
    dq_init(&q, CAP, BANKS);
    bool open[BANKS] = { false };
    uint64_t row[BANKS] = { 0 };
    uint64_t rng = 12345;
#define RND(n) ((rng = rng * 6364136223846793005ULL + 1442695040888963407ULL) >> 33) % (n)
    for (int step = 0; step < 20000; step++) {
        unsigned op = (unsigned)RND(10);
        unsigned b = (unsigned)RND(BANKS);
        if (op < 5 && q.n < CAP) {
            struct dreq e = { .bank = b, .row = RND(ROWS), .addr = (uint64_t)step };
            dq_insert(&q, &e, open[b], row[b]);
        } else if (op < 7) {
            if (open[b]) { open[b] = false; dq_bank_closed(&q, b); }
            else { open[b] = true; row[b] = RND(ROWS); dq_bank_opened(&q, b, row[b]); }
        } else if (q.bk[b].open != DQ_NONE) {
            dq_remove(&q, q.g[q.bk[b].open].head);
        } else if (q.bk[b].n && !open[b]) {
            /* Serve the bank's oldest by opening its row, as an ACT does. */
            uint32_t i = q.bk[b].head;
            open[b] = true;
            row[b] = q.e[i].row;
            dq_bank_opened(&q, b, row[b]);
            dq_remove(&q, q.g[q.bk[b].open].head);
        }
        /* the scan */
        uint32_t n = 0, nb[BANKS] = { 0 }, hits[BANKS] = { 0 };
        uint32_t oldest[BANKS], oldest_hit[BANKS];
        uint64_t last = 0;
        for (unsigned k = 0; k < BANKS; k++) oldest[k] = oldest_hit[k] = DQ_NONE;
        for (uint32_t i = q.head; i != DQ_NONE; i = q.e[i].next, n++) {
            const struct dreq *e = &q.e[i];
            ck_assert(n == 0 || e->seq > last);
            last = e->seq;
            if (oldest[e->bank] == DQ_NONE) oldest[e->bank] = i;
            nb[e->bank]++;
            if (open[e->bank] && e->row == row[e->bank]) {
                if (oldest_hit[e->bank] == DQ_NONE) oldest_hit[e->bank] = i;
                hits[e->bank]++;
            }
        }
        ck_assert_uint_eq(n, q.n);
        uint32_t active = 0;
        /* One assertion per step (check's assertions are slow in bulk). */
        int bad = -1;
        for (unsigned k = 0; k < BANKS && bad < 0; k++) {
            uint32_t g = q.bk[k].open;
            bool ok = q.bk[k].n == nb[k] && q.bk[k].head == oldest[k] &&
                      (g == DQ_NONE ? DQ_NONE : q.g[g].head) == oldest_hit[k] &&
                      (g == DQ_NONE ? 0 : q.g[g].n) == hits[k] &&
                      q.bk[k].seq == (oldest[k] == DQ_NONE ? UINT64_MAX : q.e[oldest[k]].seq) &&
                      q.bk[k].hit_seq == (oldest_hit[k] == DQ_NONE ? UINT64_MAX
                                                                   : q.e[oldest_hit[k]].seq) &&
                      (q.act_m[k / 64] >> (k % 64) & 1) == (nb[k] > 0) &&
                      (q.hit_m[k / 64] >> (k % 64) & 1) == (hits[k] > 0);
            if (!ok) bad = (int)k;
            active += nb[k] > 0;
        }
        ck_assert_msg(bad < 0, "step %d: bank %d disagrees with the scan", step, bad);
        ck_assert_uint_eq(q.nactive, active);
    }
#undef RND
    dq_free(&q);
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
    tcase_add_test(tc, frfcfs_serves_a_younger_hit_before_an_older_conflict);
    tcase_add_test(tc, frfcfs_takes_the_oldest_request_that_can_issue);
    tcase_add_test(tc, queue_index_agrees_with_a_scan);
    tcase_add_test(tc, trace_parser_reports_line_numbers);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(dram_suite()); }

/* L2 slices: write-back/write-allocate and the address-to-slice hash,
 * against counts derived by hand. */
#include <check.h>
#include "suite_main.h"
#include <string.h>
#include "config.h"
#include "stats.h"
#include "system.h"

struct run { struct config *c; struct system *s; };

static struct run run(const char *const *extra, size_t n)
{
    const char *sets[16] = { "gpu.memory.fraction=100%", "gpu.sms=1", "dram.channels=4",
                             "workload.stream.passes=1" };
    size_t k = 4;
    ck_assert_uint_le(k + n, 16);
    memcpy(sets + k, extra, n * sizeof *extra);
    struct cfg_error err;
    struct run r;
    r.c = config_load(NULL, sets, k + n, &err);
    if (!r.c) ck_abort_msg("config: %s", err.msg);
    r.s = system_build(r.c);
    ck_assert_int_eq(system_run(r.s), RUN_COMPLETED);
    return r;
}

static void done(struct run *r) { system_free(r->s); config_free(r->c); }

static const uint64_t *stat(const struct run *r, const char *name)
{
    const struct stat_entry *st = stats_find(system_stats(r->s), name);
    ck_assert_msg(st != NULL, "no stat %s", name);
    return st->p.u;
}

#define N(a) (sizeof a / sizeof a[0])

/* 4 slices of 1 KiB, 8 ways: one set of 8 lines each.  Writing 64 KiB =
 * 512 lines: the slice of a line is its 256 B channel chunk, and pages
 * are 4 KiB (a multiple of 4 x 256 B), so each slice gets 128 lines.  Each
 * store allocates its line dirty (a miss, no fetch: 0 GDDR reads); the
 * last 8 of each slice stay, the other 120 are evicted dirty: 4 x 120 =
 * 480 write-backs. */
START_TEST(write_back_write_allocate)
{
    static const char *const x[] = { "l2.size=4KiB", "l2.assoc=8",
                                     "workload.stream.footprint=64KiB",
                                     "workload.stream.op=write" };
    struct run r = run(x, N(x));
    ck_assert_uint_eq(*stat(&r, "l2.misses"), 512);
    ck_assert_uint_eq(*stat(&r, "l2.hits"), 0);
    ck_assert_uint_eq(*stat(&r, "l2.dram_reads"), 0);
    ck_assert_uint_eq(*stat(&r, "l2.writebacks"), 480);
    for (int i = 0; i < 4; i++) ck_assert_uint_eq(stat(&r, "l2.slice.misses")[i], 128);
    /* Stores never allocate in the L1D. */
    ck_assert_uint_eq(*stat(&r, "gpu.l1d.misses") + *stat(&r, "gpu.l1d.hits"), 0);
    done(&r);
    /* Read-modify-write of the same 64 KiB: each load misses and fetches
     * its line; the store then hits it.  Still 480 dirty evictions. */
    static const char *const y[] = { "l2.size=4KiB", "l2.assoc=8",
                                     "workload.stream.footprint=64KiB",
                                     "workload.stream.op=readwrite" };
    r = run(y, N(y));
    ck_assert_uint_eq(*stat(&r, "l2.misses"), 512);
    ck_assert_uint_eq(*stat(&r, "l2.hits"), 512);
    ck_assert_uint_eq(*stat(&r, "l2.dram_reads"), 512);
    ck_assert_uint_eq(*stat(&r, "l2.writebacks"), 480);
    done(&r);
}
END_TEST

/* One lane per 256 B (64 lines, 1 sector each, 16 KiB).  l2.hash=line puts
 * line n in slice n mod 4; line numbers here are 2k, so only slices 0 and
 * 2 are used, 32 lines each.  (Page frames are 4 KiB-aligned, so the
 * physical line number mod 4 is the virtual one.) */
START_TEST(line_hash_spreads_by_line)
{
    static const char *const x[] = { "l2.hash=line", "workload.stream.footprint=16KiB",
                                     "workload.stream.lane_stride=256B",
                                     "workload.stream.op=read" };
    struct run r = run(x, N(x));
    const uint64_t *m = stat(&r, "l2.slice.misses");
    ck_assert_uint_eq(m[0], 32);
    ck_assert_uint_eq(m[1], 0);
    ck_assert_uint_eq(m[2], 32);
    ck_assert_uint_eq(m[3], 0);
    done(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("l2");
    TCase *t = tcase_create("l2");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, write_back_write_allocate);
    tcase_add_test(t, line_hash_spreads_by_line);
    suite_add_tcase(s, t);
    return run_suite(s);
}

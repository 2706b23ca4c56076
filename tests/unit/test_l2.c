/* L2 slices: write-back/write-allocate and the address-to-slice hash,
 * against counts derived by hand. */
#include <check.h>
#include "suite_main.h"
#include <string.h>
#include "config/config.h"
#include "core/stats.h"
#include "system.h"
#include "core/engine.h"
#include "core/mem_req.h"
#include "dram/dram.h"
#include "l2/l2.h"

struct run { struct config *c; struct system *s; };

static struct run run(const char *const *extra, size_t n)
{
    /* Interrupt latency 0: the driver services each page as its first
     * fault arrives, so one page's warps run at a time and a load's line is
     * still in its 8-line set when the same warp's store comes (the
     * read-modify-write count below relies on it). */
    const char *sets[16] = { "gpu.memory.fraction=100%", "gpu.sms=1", "dram.channels=4",
                             "workload.stream.passes=1", "gmmu.interrupt_latency=0ns" };
    size_t k = 5;
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
/* The same counts in both models: sim.model fast keeps the tags and
 * sectors exactly (l2_fast.c), only their times are coarser. */
static const char *const models[] = { "sim.model=cycle", "sim.model=fast" };

START_TEST(write_back_write_allocate)
{
    const char *const x[] = { "l2.size=4KiB", "l2.assoc=8",
                              "workload.stream.footprint=64KiB",
                              "workload.stream.op=write", models[_i] };
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
    const char *const y[] = { "l2.size=4KiB", "l2.assoc=8",
                              "workload.stream.footprint=64KiB",
                              "workload.stream.op=readwrite", models[_i] };
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

/* ---- one L2 slice driven directly ---- */

struct bench {
    struct config *c;
    struct engine *e;
    struct stats *st;
    struct req_pool pool;
    struct domain core, dd;
    struct dram *d;
    struct l2 *l;
    struct mq reply;
};

static void bench_init(struct bench *b, const char *const *sets, size_t n)
{
    struct cfg_error err;
    struct engine_limits lim = { 0, 0, 0 };
    b->c = config_load(NULL, sets, n, &err);
    if (!b->c) ck_abort_msg("config: %s", err.msg);
    b->e = engine_new(&lim);
    b->st = stats_new();
    req_pool_init(&b->pool);
    b->core = (struct domain){ "core", cfg_period(b->c, "gpu.clock"), 0 };
    b->dd = (struct domain){ "dram", cfg_period(b->c, "dram.clock"), 1 };
    b->d = dram_create(b->e, b->c, b->st, &b->dd);
    b->l = l2_create(b->e, b->c, b->st, &b->pool, &b->core, b->d);
    mq_init(&b->reply, "reply", 64, 0, NULL);
}

static void bench_free(struct bench *b)
{
    mq_free(&b->reply);
    l2_free(b->l);
    dram_free(b->d);
    ck_assert_uint_eq(b->pool.live, 0);
    req_pool_free(&b->pool);
    stats_free(b->st);
    engine_free(b->e);
    config_free(b->c);
}

static uint64_t bstat(struct bench *b, const char *name)
{ return *stats_find(b->st, name)->p.u; }

/* Send `n` requests for (pa, mask) at the next core edge, run to quiet,
 * and return the cycles from sending to the last event (for a hit: the
 * answer). */
static double send(struct bench *b, enum req_kind k, uint64_t pa, uint8_t mask, int n)
{
    sim_time t0 = domain_edge(&b->core, engine_now(b->e) + 1);
    for (int i = 0; i < n; i++) {
        struct mem_req *r = req_alloc(&b->pool);
        r->kind = k;
        r->paddr = pa;
        r->sector_mask = mask;
        r->size = (uint32_t)__builtin_popcount(mask) * 32;
        r->reply = &b->reply;
        r->t_issue = t0;
        ck_assert(mq_push(l2_slice_in(b->l, l2_slice_of(b->l, pa)), r, t0, NULL));
    }
    engine_run(b->e);
    struct mem_req *r;
    int got = 0;
    while ((r = mq_pop(&b->reply, engine_now(b->e)))) {
        got++;
        req_release(&b->pool, r);
    }
    ck_assert_int_eq(got, n);
    return (double)(engine_now(b->e) - t0) / (double)b->core.period;
}

/* One slice (one channel), 2 KiB 2-way = 8 sets.  A hit answers after the
 * crossbar (8) and the L2 latency (120) = 128 cycles; a miss takes longer
 * (GDDR).  Two loads of one line at once: one miss, one merge, one read. */
START_TEST(slice_hits_misses_merges_sectors)
{
    static const char *const sets[] = { "dram.channels=1", "l2.size=2KiB", "l2.assoc=2" };
    struct bench b;
    bench_init(&b, sets, N(sets));
    double miss = send(&b, REQ_LOAD, 0x1000, 0xf, 2);
    ck_assert_uint_eq(bstat(&b, "l2.misses"), 1);
    ck_assert_uint_eq(bstat(&b, "l2.mshr_merges"), 1);
    ck_assert_uint_eq(bstat(&b, "l2.dram_reads"), 1);
    ck_assert_msg(miss > 128, "miss took %.0f cycles", miss);
    double hit = send(&b, REQ_LOAD, 0x1000, 0xf, 1);
    ck_assert_msg(hit == 128, "hit took %.0f cycles, derived 128", hit);
    ck_assert_uint_eq(bstat(&b, "l2.hits"), 1);
    /* A store allocates line 0x1080 with sector 0 only; a load of sectors
     * 0-1 is then a sector miss fetching sector 1 alone (32 B). */
    send(&b, REQ_STORE, 0x1080, 0x1, 1);
    uint64_t bytes = bstat(&b, "dram.bytes");
    send(&b, REQ_LOAD, 0x1080, 0x3, 1);
    ck_assert_uint_eq(bstat(&b, "l2.sector_misses"), 1);
    ck_assert_uint_eq(bstat(&b, "dram.bytes") - bytes, 32);
    /* Evicting the page drops its lines: the next load misses again (the
     * 4th miss: the first load, the store's allocation, the sector miss). */
    l2_invalidate_frame(b.l, 0x1000);
    ck_assert_uint_eq(bstat(&b, "l2.invalidated_lines"), 2);
    send(&b, REQ_LOAD, 0x1000, 0xf, 1);
    ck_assert_uint_eq(bstat(&b, "l2.misses"), 4);
    bench_free(&b);
}
END_TEST

/* One set of two ways: dirty lines written back when pushed out. */
START_TEST(slice_writes_back_dirty_victims)
{
    static const char *const sets[] = { "dram.channels=1", "l2.size=256B", "l2.assoc=2" };
    struct bench b;
    bench_init(&b, sets, N(sets));
    send(&b, REQ_STORE, 0x0, 0xf, 1);
    send(&b, REQ_LOAD, 0x80, 0xf, 1);        /* clean */
    ck_assert_uint_eq(bstat(&b, "l2.writebacks"), 0);
    send(&b, REQ_LOAD, 0x100, 0xf, 1);       /* evicts the dirty LRU line 0x0 */
    ck_assert_uint_eq(bstat(&b, "l2.writebacks"), 1);
    send(&b, REQ_LOAD, 0x180, 0xf, 1);       /* evicts clean 0x80 */
    ck_assert_uint_eq(bstat(&b, "l2.writebacks"), 1);
    /* An atomic fetches its line like a load and leaves it dirty. */
    uint64_t reads = bstat(&b, "l2.dram_reads");
    send(&b, REQ_ATOMIC, 0x200, 0x1, 1);     /* evicts clean 0x100 */
    ck_assert_uint_eq(bstat(&b, "l2.dram_reads"), reads + 1);
    send(&b, REQ_LOAD, 0x280, 0xf, 1);       /* evicts clean 0x180 */
    ck_assert_uint_eq(bstat(&b, "l2.writebacks"), 1);
    send(&b, REQ_LOAD, 0x300, 0xf, 1);       /* evicts the atomic's dirty line */
    ck_assert_uint_eq(bstat(&b, "l2.writebacks"), 2);
    bench_free(&b);
}
END_TEST

/* sim.model fast's slice (l2_fast.c) asked directly over a fast GDDR
 * channel: one slice, 2 KiB 2-way = 8 sets.  A hit is answered exactly
 * gpu.xbar.latency + l2.latency = 8 + 120 cycles after it is sent (the
 * slice queue's latency; the port is free); a miss later (GDDR); a second
 * load of the line while the first's fill is on the way merges, fetching
 * nothing more, and is answered with it (behind it on the output port).  A dirty line pushed out of its
 * set by two others (lines 1 KiB apart share a set) is written back once. */
START_TEST(fast_slice_hit_merge_writeback)
{
    static const char *const sets[] = { "dram.channels=1", "l2.size=2KiB", "l2.assoc=2",
                                        "sim.model=fast" };
    struct bench b;
    struct cfg_error err;
    struct engine_limits lim = { 0, 0, 0 };
    b.c = config_load(NULL, sets, N(sets), &err);
    ck_assert_msg(b.c != NULL, "%s", err.msg);
    b.e = engine_new(&lim);
    b.st = stats_new();
    req_pool_init(&b.pool);
    b.core = (struct domain){ "core", cfg_period(b.c, "gpu.clock"), 0 };
    b.dd = (struct domain){ "dram", cfg_period(b.c, "dram.clock"), 1 };
    b.d = dram_fast_create(b.e, b.c, b.st, &b.dd);
    b.l = l2_create(b.e, b.c, b.st, &b.pool, &b.core, b.d);
    mq_init(&b.reply, "reply", 64, 0, NULL);
    l2_set_fast(b.l);
    sim_time p = b.core.period, t0 = 100 * p, d1, d2, d3;
    ck_assert(l2_fast_access(b.l, REQ_LOAD, 0x1000, 0xf, t0, &d1));
    ck_assert(l2_fast_access(b.l, REQ_LOAD, 0x1000, 0xf, t0 + p, &d2));
    ck_assert_msg(d1 > t0 + 128 * p, "miss answered after %llu ps", (unsigned long long)(d1 - t0));
    /* Ready with the fill, it leaves the port behind the first answer:
     * 128 B at gpu.xbar.port_bw 32 B a cycle = 4 cycles later. */
    ck_assert_uint_eq(d2, d1 + 4 * p);
    ck_assert_uint_eq(bstat(&b, "l2.misses"), 1);
    ck_assert_uint_eq(bstat(&b, "l2.mshr_merges"), 1);
    ck_assert_uint_eq(bstat(&b, "l2.dram_reads"), 1);
    sim_time t1 = d1 + 10 * p;
    ck_assert(l2_fast_access(b.l, REQ_LOAD, 0x1000, 0xf, t1, &d3));
    ck_assert_uint_eq(d3, t1 + 128 * p);
    ck_assert_uint_eq(bstat(&b, "l2.hits"), 1);
    /* A store allocates 0x1400 dirty (same set as 0x1000); the fills of
     * 0x1800 and 0x1c00 enter the set when they arrive (seen at the next
     * lookup after): the first pushes out the least recently used of the
     * two, 0x1000 (clean, dropped), the second 0x1400: one write-back of
     * its one sector.  0x1800 is then a hit. */
    sim_time t2 = d3 + p;
    ck_assert(l2_fast_access(b.l, REQ_STORE, 0x1400, 0x1, t2, &d3));
    ck_assert_uint_eq(d3, t2 + 128 * p);       /* a store is answered at lookup */
    ck_assert(l2_fast_access(b.l, REQ_LOAD, 0x1800, 0xf, t2 + p, &d3));
    ck_assert_uint_eq(bstat(&b, "l2.writebacks"), 0);
    ck_assert(l2_fast_access(b.l, REQ_LOAD, 0x1c00, 0xf, t2 + 2 * p, &d3));
    ck_assert_uint_eq(bstat(&b, "l2.writebacks"), 0);
    sim_time t3 = d3 + 10 * p, d4;
    ck_assert(l2_fast_access(b.l, REQ_LOAD, 0x1800, 0xf, t3, &d4));
    ck_assert_uint_eq(d4, t3 + 128 * p);
    ck_assert_uint_eq(bstat(&b, "l2.hits"), 2);
    ck_assert_uint_eq(bstat(&b, "l2.writebacks"), 1);
    ck_assert_uint_eq(bstat(&b, "dram.writes"), 1);
    /* Host-homed lines are not taken: they keep the slice's queue. */
    ck_assert(!l2_fast_access(b.l, REQ_LOAD, PADDR_HOST | 0x2000, 0xf, t2, &d3));
    ck_assert_uint_eq(engine_events(b.e), 0);  /* nothing went through the engine */
    bench_free(&b);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("l2");
    TCase *t = tcase_create("l2");
    tcase_set_timeout(t, 60);
    tcase_add_loop_test(t, write_back_write_allocate, 0, 2);
    tcase_add_test(t, fast_slice_hit_merge_writeback);
    tcase_add_test(t, line_hash_spreads_by_line);
    tcase_add_test(t, slice_hits_misses_merges_sectors);
    tcase_add_test(t, slice_writes_back_dirty_victims);
    suite_add_tcase(s, t);
    return run_suite(s);
}

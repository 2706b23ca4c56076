/* Streaming the time series and the record tables (issue 13): with a sink
 * the registry holds at most one block of rows per dataset, hands over
 * exactly the rows it would have kept in memory, and a run's result file
 * written as the run goes holds the same rows as one written at the end
 * from memory.  Bounds come from the block sizes (rows per block times
 * bytes per row), never from the program's output. */
#include <check.h>
#include "suite_main.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <hdf5.h>
#include "config/config.h"
#include "out/results.h"
#include "core/stats.h"
#include "system.h"

/* ---- a registry driven by hand, with a sink that keeps what it gets ---- */

struct collect {
    size_t block;
    uint64_t *series;             /* every series row handed over */
    size_t series_rows, series_calls, cols;
    unsigned char *table;
    size_t table_rows, table_calls;
    bool misordered;
};

static size_t c_rows(void *ctx, size_t row_bytes)
{
    (void)row_bytes;
    return ((struct collect *)ctx)->block;
}

static void c_series(void *ctx, const uint64_t *rows, size_t first, size_t n)
{
    struct collect *c = ctx;
    if (first != c->series_rows) c->misordered = true;
    c->series = realloc(c->series, (c->series_rows + n) * c->cols * 8);
    memcpy(c->series + c->series_rows * c->cols, rows, n * c->cols * 8);
    c->series_rows += n;
    c->series_calls++;
}

static void c_table(void *ctx, const struct rec_table *t, const unsigned char *rows,
                    size_t first, size_t n)
{
    struct collect *c = ctx;
    if (first != c->table_rows) c->misordered = true;
    c->table = realloc(c->table, (c->table_rows + n) * t->row_bytes);
    memcpy(c->table + c->table_rows * t->row_bytes, rows, n * t->row_bytes);
    c->table_rows += n;
    c->table_calls++;
}

static const struct rec_field fields[] = {
    { "t", REC_U64, "ps" }, { "x", REC_F64, "" }, { "name", REC_STR32, "" },
};

struct reg {
    struct stats *st;
    uint64_t *ctr;
    struct stat_avg *avg;
    double *real;
    struct rec_table *tab;
};

static void reg_init(struct reg *r)
{
    r->st = stats_new();
    r->ctr = stat_counter(r->st, "a.count", "things", "");
    r->avg = stat_average(r->st, "a.mean", "ps", "");
    r->real = stat_real(r->st, "a.real", "", "");
    r->tab = stat_table(r->st, "events", "", fields, 3);
}

/* Step k of a deterministic run: stats move, every third step a record. */
static void reg_step(struct reg *r, uint64_t k)
{
    *r->ctr += k % 7;
    stat_avg_add(r->avg, (double)(k * 13 % 101));
    *r->real = (double)k / 3.0;
    if (k % 3 == 0) {
        uint64_t t = k * 1000;
        double x = (double)k / 7.0;
        const char *name = k % 2 ? "odd" : "even";
        const void *vals[] = { &t, &x, name };
        rec_append(r->tab, vals);
    }
    stats_sample(r->st, k * 50);
}

/* 1000 samples and 334 records through blocks of 3 rows: the sink gets
 * them in order, in blocks of 3 (one partial last block at the flush), and
 * byte for byte what a registry without a sink keeps in memory. */
START_TEST(sink_gets_the_rows_memory_would_keep)
{
    struct reg a, b;
    reg_init(&a);
    reg_init(&b);
    struct collect c = { .block = 3, .cols = 4 };
    struct stats_sink sink = { c_rows, c_series, c_table, &c };
    stats_set_sink(a.st, &sink);
    for (uint64_t k = 1; k <= 1000; k++) {
        reg_step(&a, k);
        reg_step(&b, k);
    }
    ck_assert_uint_eq(c.series_rows, 999);       /* 333 whole blocks so far */
    ck_assert_uint_eq(stats_series_rows(a.st), 1000);
    ck_assert_ptr_null(stats_series_row(a.st, 0));
    ck_assert_ptr_nonnull(stats_series_row(a.st, 999));
    sim_time last;
    ck_assert(stats_series_last_time(a.st, &last));
    ck_assert_uint_eq(last, 1000 * 50);
    stats_flush(a.st);
    ck_assert(!c.misordered);
    ck_assert_uint_eq(c.series_rows, 1000);
    ck_assert_uint_eq(c.series_calls, 334);      /* 333 blocks of 3 and one of 1 */
    ck_assert_uint_eq(stats_series_columns(a.st), 4);
    for (size_t r = 0; r < 1000; r++)
        ck_assert(!memcmp(c.series + r * 4, stats_series_row(b.st, r), 32));
    ck_assert_uint_eq(c.table_rows, 333);        /* k = 3, 6, ..., 999 */
    ck_assert_uint_eq(b.tab->nrows, 333);
    ck_assert(!memcmp(c.table, b.tab->rows, 333 * b.tab->row_bytes));
    ck_assert_uint_eq(c.table_calls, 111);
    stats_set_sink(a.st, NULL);
    free(c.series);
    free(c.table);
    stats_free(a.st);
    stats_free(b.st);
}
END_TEST

/* Rows held with a sink do not grow with the run: after 100 and after
 * 100000 samples the registry holds the same bytes, at most a block of
 * each dataset (grow() doubles from 16 rows: 16 rows of 32 B for the
 * series, 16 of 48 B for the table with blocks of 8) and the series' last
 * sampled row and scratch row (2 x 32 B, stats_sample).  Without a sink it
 * holds every row: at least 100000 x 32 B. */
START_TEST(rows_held_do_not_grow_with_samples)
{
    struct reg a, b;
    reg_init(&a);
    reg_init(&b);
    struct collect c = { .block = 8, .cols = 4 };
    struct stats_sink sink = { c_rows, c_series, c_table, &c };
    stats_set_sink(a.st, &sink);
    size_t after100 = 0;
    for (uint64_t k = 1; k <= 100000; k++) {
        reg_step(&a, k);
        reg_step(&b, k);
        if (k == 100) after100 = stats_row_bytes(a.st);
    }
    size_t bound = 16 * 32 + 16 * 48 + 2 * 32;
    ck_assert_uint_le(stats_row_bytes(a.st), bound);
    ck_assert_uint_eq(stats_row_bytes(a.st), after100);
    ck_assert_uint_ge(stats_row_bytes(b.st), 100000 * 32);
    stats_set_sink(a.st, NULL);
    free(c.series);
    free(c.table);
    stats_free(a.st);
    stats_free(b.st);
}
END_TEST

/* ---- a whole run: the streamed file against the in-memory one ---- */

static struct config *load(const char *const *sets, size_t n)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    if (!c) ck_abort_msg("config: %s", err.msg);
    return c;
}

static struct run_info info_of(struct system *s)
{
    return (struct run_info){
        .status = "completed", .seed = 1,
        .sim_time_ps = engine_end_time(system_engine(s)),
        .events = engine_events(system_engine(s)),
    };
}

/* A dataset's raw rows (its own compound type); *n rows, *row bytes. */
static unsigned char *read_rows(const char *path, const char *name, size_t *n, size_t *row)
{
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    ck_assert_int_ge(f, 0);
    hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
    ck_assert_int_ge(d, 0);
    hid_t t = H5Dget_type(d), sp = H5Dget_space(d);
    hsize_t dims;
    H5Sget_simple_extent_dims(sp, &dims, NULL);
    *n = dims;
    *row = H5Tget_size(t);
    unsigned char *buf = malloc(dims * *row + 1);
    if (dims) ck_assert_int_ge(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf), 0);
    H5Sclose(sp);
    H5Tclose(t);
    H5Dclose(d);
    H5Fclose(f);
    return buf;
}

/* Bytes per chunk of a file's dataset, as results.c chunks it: 64 KiB of
 * rows, at most 256. */
static size_t chunk_of(size_t row_bytes)
{
    size_t n = 65536 / row_bytes;
    return n > 256 ? 256 : n ? n : 1;
}

/* A 2 MiB stream sampled every 200 ns: a thousand and more rows of the
 * time series kept (epochs in which only the clock moved are left out,
 * sim.epoch_rows), dozens of chunks.  The file written as the run goes and the one
 * written from memory at the end hold the same rows, and they are the
 * rows the in-memory run kept.  The streamed run's registry holds at most
 * 16 rows or two write blocks per dataset at the end (grow() doubles from
 * 16; a block is WRITE_BLOCK_CHUNKS chunks, sim/out/results.c). */
#define WRITE_BLOCK_CHUNKS 16
START_TEST(streamed_file_equals_in_memory_file)
{
    const char *sets[] = { "workload.stream.footprint=2MiB", "sim.epoch=200ns" };
    struct config *cfg = load(sets, 2);
    char dir[] = "/tmp/uvmsim-stream-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char pa[128], pb[128], err[512];
    snprintf(pa, sizeof pa, "%s/a.h5", dir);
    snprintf(pb, sizeof pb, "%s/b.h5", dir);

    struct system *sa = system_build(cfg);
    struct results *r = results_open(pa, cfg, system_stats(sa), err, sizeof err);
    ck_assert_msg(r != NULL, "%s", err);
    system_run(sa);
    struct stats *st = system_stats(sa);
    size_t bound = 0;
    /* + 2: the last sampled row and the scratch row of stats_sample. */
    bound += (16 + 2 + 2 * WRITE_BLOCK_CHUNKS * chunk_of(8 * stats_series_columns(st))) *
             8 * stats_series_columns(st);
    for (size_t i = 0; i < stats_table_count(st); i++) {
        size_t rb = stats_table_at(st, i)->row_bytes;
        bound += (16 + 2 * WRITE_BLOCK_CHUNKS * chunk_of(rb)) * rb;
    }
    ck_assert_uint_le(stats_row_bytes(st), bound);
    struct run_info ia = info_of(sa);
    ck_assert_int_eq(results_finish(r, st, &ia, err, sizeof err), 0);

    struct system *sb = system_build(cfg);
    system_run(sb);
    struct stats *mb = system_stats(sb);
    struct run_info ib = info_of(sb);
    ck_assert_int_eq(results_write(pb, cfg, mb, &ib, err, sizeof err), 0);
    size_t rows = stats_series_rows(mb), cols = stats_series_columns(mb);
    ck_assert_uint_gt(rows, 10 * chunk_of(8 * cols));   /* many blocks streamed */
    ck_assert_uint_ge(stats_row_bytes(mb), rows * 8 * cols);

    const char *names[] = { "timeseries", "batches", "kernels" };
    for (size_t i = 0; i < 3; i++) {
        size_t na, nb, ra, rb;
        unsigned char *a = read_rows(pa, names[i], &na, &ra);
        unsigned char *b = read_rows(pb, names[i], &nb, &rb);
        ck_assert_uint_eq(na, nb);
        ck_assert_uint_eq(ra, rb);
        ck_assert_uint_gt(na, 0);
        ck_assert_msg(!memcmp(a, b, na * ra), "/%s differs", names[i]);
        if (i == 0) {
            ck_assert_uint_eq(na, rows);
            for (size_t k = 0; k < rows; k++)
                ck_assert(!memcmp(a + k * ra, stats_series_row(mb, k), 8 * cols));
        }
        free(a);
        free(b);
    }
    system_free(sa);
    system_free(sb);
    config_free(cfg);
    unlink(pa);
    unlink(pb);
    rmdir(dir);
}
END_TEST

/* An abandoned run leaves no file, temporary or final. */
START_TEST(abort_leaves_nothing)
{
    const char *sets[] = { "workload.stream.footprint=2MiB" };
    struct config *cfg = load(sets, 1);
    char dir[] = "/tmp/uvmsim-stream-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char p[128], tmp[160], err[512];
    snprintf(p, sizeof p, "%s/a.h5", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", p, (long)getpid());
    struct system *s = system_build(cfg);
    struct results *r = results_open(p, cfg, system_stats(s), err, sizeof err);
    ck_assert_msg(r != NULL, "%s", err);
    ck_assert_int_eq(access(tmp, F_OK), 0);      /* written as the run goes */
    results_abort(r);
    ck_assert_int_ne(access(tmp, F_OK), 0);
    ck_assert_int_ne(access(p, F_OK), 0);
    /* The registry is usable without a sink again. */
    for (int k = 0; k < 100; k++) stats_sample(system_stats(s), (sim_time)k);
    ck_assert_ptr_nonnull(stats_series_row(system_stats(s), 0));
    system_free(s);
    config_free(cfg);
    ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("stream");
    TCase *t = tcase_create("rows");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, sink_gets_the_rows_memory_would_keep);
    tcase_add_test(t, rows_held_do_not_grow_with_samples);
    tcase_add_test(t, streamed_file_equals_in_memory_file);
    tcase_add_test(t, abort_leaves_nothing);
    suite_add_tcase(s, t);
    return run_suite(s);
}

/* Statistics registry: registration, hot-path helpers, record tables and the
 * epoch time series, checked against hand-computed values. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "core/stats.h"

static double cell_f64(const uint64_t *row, size_t col)
{
    double d;
    memcpy(&d, &row[col], sizeof d);
    return d;
}

/* Runs fn in a child; true when the child did not finish normally, which is
 * what sim_panic does (whatever exit path the build's sim_panic takes). */
static bool dies(void (*fn)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr)) _exit(0);
        fn();
        _exit(0);
    }
    int st = 0;
    ck_assert_int_gt(pid, 0);
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    return !(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

START_TEST(counter_and_vector)
{
    struct stats *s = stats_new();
    uint64_t *c = stat_counter(s, "sm.warp_insts", "insts", "warp insts");
    uint64_t *v = stat_vector(s, "sm.per_sm", 4, "insts", "per SM");
    ck_assert_uint_eq(*c, 0);
    for (int i = 0; i < 4; i++) ck_assert_uint_eq(v[i], 0);
    *c += 7;
    v[3] = 9;
    ck_assert_uint_eq(stats_count(s), 2);
    const struct stat_entry *a = stats_at(s, 0), *b = stats_at(s, 1);
    ck_assert_int_eq(a->kind, STAT_COUNTER);
    ck_assert_str_eq(a->name, "sm.warp_insts");
    ck_assert_str_eq(a->unit, "insts");
    ck_assert_str_eq(a->desc, "warp insts");
    ck_assert_uint_eq(a->n, 1);
    ck_assert_uint_eq(*a->p.u, 7);
    ck_assert_int_eq(b->kind, STAT_VECTOR);
    ck_assert_uint_eq(b->n, 4);
    ck_assert_uint_eq(b->p.u[3], 9);
    ck_assert_ptr_null(stats_at(s, 2));
    stats_free(s);
}
END_TEST

START_TEST(null_unit_and_desc_become_empty)
{
    struct stats *s = stats_new();
    stat_counter(s, "x", NULL, NULL);
    ck_assert_str_eq(stats_at(s, 0)->unit, "");
    ck_assert_str_eq(stats_at(s, 0)->desc, "");
    stats_free(s);
}
END_TEST

START_TEST(average_and_real)
{
    struct stats *s = stats_new();
    struct stat_avg *a = stat_average(s, "lat", "ps", "latency");
    double *r = stat_real(s, "ipc", "", "IPC");
    ck_assert_double_eq(stat_avg_value(a), 0.0);
    stat_avg_add(a, 1.0);
    stat_avg_add(a, 2.0);
    stat_avg_add(a, 6.0);
    ck_assert_double_eq(a->sum, 9.0);
    ck_assert_uint_eq(a->count, 3);
    ck_assert_double_eq(stat_avg_value(a), 3.0);
    *r = 1.25;
    ck_assert_ptr_eq(stats_find(s, "ipc")->p.real, r);
    ck_assert_double_eq(*stats_find(s, "ipc")->p.real, 1.25);
    stats_free(s);
}
END_TEST

START_TEST(histogram_bins_and_overflow)
{
    struct stats *s = stats_new();
    struct stat_hist *h = stat_histogram(s, "h", "ps", "hist", 4, 10);
    static const uint64_t vals[] = {0, 9, 10, 25, 39, 40, 1000};
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
        stat_hist_add(h, vals[i]);
    /* [0,10): 0 9   [10,20): 10   [20,30): 25   last bin: 39 40 1000 */
    ck_assert_uint_eq(h->bins[0], 2);
    ck_assert_uint_eq(h->bins[1], 1);
    ck_assert_uint_eq(h->bins[2], 1);
    ck_assert_uint_eq(h->bins[3], 3);
    ck_assert_uint_eq(h->count, 7);
    ck_assert_uint_eq(h->max, 1000);
    ck_assert_double_eq(h->sum, 1123.0);
    ck_assert_uint_eq(h->nbins, 4);
    ck_assert_uint_eq(h->bin_width, 10);
    ck_assert_ptr_eq(stats_find(s, "h")->p.hist, h);
    stats_free(s);
}
END_TEST

/* A ranging histogram doubles its width instead of overflowing (issue 36:
 * the residency histogram held most samples in its overflow bin). */
START_TEST(ranging_histogram_widens_instead_of_overflowing)
{
    struct stats *s = stats_new();
    struct stat_hist *h = stat_histogram_ranging(s, "h", "us", "", 4, 1);
    for (uint64_t v = 0; v < 4; v++) stat_hist_add(h, v);
    /* width 1: [0] [1] [2] [3], one each */
    ck_assert_uint_eq(h->bin_width, 1);
    ck_assert_uint_eq(h->bins[3], 1);
    stat_hist_add(h, 9);
    /* 9 needs 4 * w > 9: w = 4 (two doublings); [0,4) holds 0..3, 9 in [8,12) */
    ck_assert_uint_eq(h->bin_width, 4);
    ck_assert_uint_eq(h->bins[0], 4);
    ck_assert_uint_eq(h->bins[1], 0);
    ck_assert_uint_eq(h->bins[2], 1);
    ck_assert_uint_eq(h->bins[3], 0);
    stat_hist_add(h, 15);   /* [12,16): the last bin, in range */
    ck_assert_uint_eq(h->bin_width, 4);
    ck_assert_uint_eq(h->bins[3], 1);
    ck_assert_uint_eq(h->count, 6);
    ck_assert_uint_eq(h->max, 15);
    ck_assert_double_eq(h->sum, 30.0);
    stats_free(s);
}
END_TEST

START_TEST(single_bin_histogram_takes_everything)
{
    struct stats *s = stats_new();
    struct stat_hist *h = stat_histogram(s, "h", "", "", 1, 5);
    stat_hist_add(h, 0);
    stat_hist_add(h, 123);
    ck_assert_uint_eq(h->bins[0], 2);
    stats_free(s);
}
END_TEST

START_TEST(pointers_survive_many_registrations)
{
    struct stats *s = stats_new();
    uint64_t *first = stat_counter(s, "c.0", "", "");
    struct stat_avg *avg = stat_average(s, "a.0", "", "");
    char name[32];
    for (int i = 1; i < 3000; i++) {
        snprintf(name, sizeof name, "c.%d", i);
        *stat_counter(s, name, "", "") = (uint64_t)i;
    }
    *first = 42;
    stat_avg_add(avg, 4.0);
    ck_assert_uint_eq(*stats_find(s, "c.0")->p.u, 42);
    ck_assert_uint_eq(*stats_find(s, "c.2999")->p.u, 2999);
    ck_assert_double_eq(stats_find(s, "a.0")->p.avg->sum, 4.0);
    ck_assert_uint_eq(stats_count(s), 3001);
    /* Registration order is iteration order. */
    ck_assert_str_eq(stats_at(s, 0)->name, "c.0");
    ck_assert_str_eq(stats_at(s, 1)->name, "a.0");
    ck_assert_str_eq(stats_at(s, 2)->name, "c.1");
    stats_free(s);
}
END_TEST

START_TEST(find_misses)
{
    struct stats *s = stats_new();
    ck_assert_ptr_null(stats_find(s, "nothing"));
    stat_counter(s, "sm.l1.hits", "", "");
    ck_assert_ptr_nonnull(stats_find(s, "sm.l1.hits"));
    ck_assert_ptr_null(stats_find(s, "sm"));       /* a prefix, not a stat */
    ck_assert_ptr_null(stats_find(s, "sm.l1"));
    ck_assert_ptr_null(stats_find(s, "sm.l1.hit"));
    ck_assert_ptr_null(stats_find(s, "sm.l1.hits.x"));
    ck_assert_ptr_null(stats_find(s, NULL));
    stats_free(s);
}
END_TEST

static const struct rec_field kfields[] = {
    {"id", REC_U64, ""},
    {"name", REC_STR32, ""},
    {"duration", REC_F64, "ps"},
};

static void append_kernel(struct rec_table *t, uint64_t id, const char *name,
                          double dur)
{
    const void *vals[] = {&id, name, &dur};
    rec_append(t, vals);
}

START_TEST(table_rows)
{
    struct stats *s = stats_new();
    struct rec_table *t = stat_table(s, "kernels", "one row per kernel",
                                     kfields, 3);
    ck_assert_uint_eq(t->row_bytes, 8 + 32 + 8);
    ck_assert_uint_eq(t->nfields, 3);
    ck_assert_ptr_ne(t->fields, kfields);           /* copied */
    ck_assert_str_eq(t->fields[2].unit, "ps");
    ck_assert_str_eq(t->desc, "one row per kernel");
    append_kernel(t, 1, "vecadd", 2.5);
    append_kernel(t, 2, "a_name_that_is_much_longer_than_31_chars", 0.5);
    ck_assert_uint_eq(t->nrows, 2);

    const unsigned char *r0 = t->rows, *r1 = t->rows + t->row_bytes;
    uint64_t id;
    double d;
    memcpy(&id, r0, 8);
    memcpy(&d, r0 + 40, 8);
    ck_assert_uint_eq(id, 1);
    ck_assert_str_eq((const char *)r0 + 8, "vecadd");
    for (int i = 6; i < 32; i++) ck_assert_int_eq(r0[8 + i], 0);
    ck_assert_double_eq(d, 2.5);
    memcpy(&id, r1, 8);
    ck_assert_uint_eq(id, 2);
    ck_assert_uint_eq(strlen((const char *)r1 + 8), 31);
    ck_assert_int_eq(memcmp(r1 + 8, "a_name_that_is_much_longer_than", 31), 0);

    ck_assert_uint_eq(stats_table_count(s), 1);
    ck_assert_ptr_eq(stats_table_at(s, 0), t);
    ck_assert_ptr_null(stats_table_at(s, 1));
    stats_free(s);
}
END_TEST

START_TEST(table_grows)
{
    struct stats *s = stats_new();
    struct rec_table *t = stat_table(s, "batches", "", kfields, 3);
    for (uint64_t i = 0; i < 5000; i++)
        append_kernel(t, i, "k", (double)i / 2);
    ck_assert_uint_eq(t->nrows, 5000);
    ck_assert_uint_ge(t->cap, 5000);
    for (uint64_t i = 0; i < 5000; i += 499) {
        uint64_t id;
        double d;
        memcpy(&id, t->rows + i * t->row_bytes, 8);
        memcpy(&d, t->rows + i * t->row_bytes + 40, 8);
        ck_assert_uint_eq(id, i);
        ck_assert_double_eq(d, (double)i / 2);
    }
    stats_free(s);
}
END_TEST

START_TEST(series_columns_and_rows)
{
    struct stats *s = stats_new();
    uint64_t *c = stat_counter(s, "gpu.faults", "faults", "");
    uint64_t *v = stat_vector(s, "sm.insts", 2, "", "");
    struct stat_avg *a = stat_average(s, "gmmu.lat", "ps", "");
    struct stat_hist *h = stat_histogram(s, "gmmu.hist", "ps", "", 2, 100);
    double *r = stat_real(s, "ipc", "", "");
    (void)h;
    (void)v;

    ck_assert_uint_eq(stats_series_columns(s), 4);
    ck_assert_str_eq(stats_series_name(s, 0), "time_ps");
    ck_assert_str_eq(stats_series_name(s, 1), "gpu.faults");
    ck_assert_str_eq(stats_series_name(s, 2), "gmmu.lat");
    ck_assert_str_eq(stats_series_name(s, 3), "ipc");
    ck_assert_ptr_null(stats_series_name(s, 4));
    ck_assert(!stats_series_is_real(s, 0));
    ck_assert(!stats_series_is_real(s, 1));
    ck_assert(stats_series_is_real(s, 2));
    ck_assert(stats_series_is_real(s, 3));
    ck_assert_uint_eq(stats_series_rows(s), 0);
    ck_assert_ptr_null(stats_series_row(s, 0));

    stats_sample(s, 0);
    *c = 5;
    stat_avg_add(a, 10);
    stat_avg_add(a, 20);
    *r = 0.5;
    stats_sample(s, 10000);
    *c = 8;
    stat_avg_add(a, 60);
    stats_sample(s, 20000);

    ck_assert_uint_eq(stats_series_rows(s), 3);
    const uint64_t *r0 = stats_series_row(s, 0);
    const uint64_t *r1 = stats_series_row(s, 1);
    const uint64_t *r2 = stats_series_row(s, 2);
    ck_assert_uint_eq(r0[0], 0);
    ck_assert_uint_eq(r0[1], 0);
    ck_assert_double_eq(cell_f64(r0, 2), 0.0);  /* empty average reads 0 */
    ck_assert_double_eq(cell_f64(r0, 3), 0.0);
    ck_assert_uint_eq(r1[0], 10000);
    ck_assert_uint_eq(r1[1], 5);
    ck_assert_double_eq(cell_f64(r1, 2), 15.0);
    ck_assert_double_eq(cell_f64(r1, 3), 0.5);
    ck_assert_uint_eq(r2[0], 20000);
    ck_assert_uint_eq(r2[1], 8);
    ck_assert_double_eq(cell_f64(r2, 2), 30.0);   /* (10+20+60)/3 */
    ck_assert_double_eq(cell_f64(r2, 3), 0.5);
    ck_assert_ptr_null(stats_series_row(s, 3));
    stats_free(s);
}
END_TEST

/* sim.epoch_rows=changed (stats.h): a counter 0 0 0 5 5 5 5 7 7 7 sampled
 * every 10 ps beside a clock column (t / 10) and a clock real.  A row is
 * held while only the clocks move and kept when the next one differs, or
 * at the end: t = 0 (first), 20 (last of the 0s), 30 (5 starts), 60 (last
 * of the 5s), 70 (7 starts), 90 (the end).  Every kept row holds what that
 * epoch held, so the rate between two kept rows is the exact one: 0 from 30
 * to 60, 2 per epoch from 60 to 70. */
static struct stats *skipping_series(bool skip, int end)
{
    static const uint64_t cval[10] = {0, 0, 0, 5, 5, 5, 5, 7, 7, 7};
    struct stats *s = stats_new();
    uint64_t *cyc = stat_counter(s, "cycles", "", "");
    uint64_t *c = stat_counter(s, "c", "", "");
    double *ipc = stat_real(s, "ipc", "", "");
    stats_mark_clock(s, "cycles");
    stats_mark_clock(s, "ipc");
    stats_series_skip_unchanged(s, skip);
    for (uint64_t i = 0; i < 10; i++) {
        *c = cval[i];
        *cyc = i;
        *ipc = (double)cval[i] / (double)(i + 1);
        stats_sample(s, i * 10);
    }
    if (end == 1) stats_series_end(s);
    if (end == 2) stats_flush(s);
    return s;
}

START_TEST(series_skips_rows_where_only_the_clock_moved)
{
    static const uint64_t kept[6] = {0, 20, 30, 60, 70, 90};
    static const uint64_t cval[10] = {0, 0, 0, 5, 5, 5, 5, 7, 7, 7};
    for (int end = 1; end <= 2; end++) {
        struct stats *s = skipping_series(true, end);
        ck_assert_uint_eq(stats_series_rows(s), 6);
        for (size_t r = 0; r < 6; r++) {
            const uint64_t *row = stats_series_row(s, r);
            uint64_t i = kept[r] / 10;
            ck_assert_uint_eq(row[0], kept[r]);
            ck_assert_uint_eq(row[1], i);
            ck_assert_uint_eq(row[2], cval[i]);
            ck_assert_double_eq(cell_f64(row, 3), (double)cval[i] / (double)(i + 1));
        }
        const uint64_t *a = stats_series_row(s, 2), *b = stats_series_row(s, 3),
                       *d = stats_series_row(s, 4);
        ck_assert_uint_eq(b[2] - a[2], 0);                 /* 30 -> 60 */
        ck_assert_uint_eq((d[2] - b[2]) * 10 / (d[0] - b[0]), 2);
        stats_free(s);
    }
    /* Before the end the last row is held, not kept. */
    struct stats *s = skipping_series(true, 0);
    ck_assert_uint_eq(stats_series_rows(s), 5);
    sim_time last;
    ck_assert(stats_series_last_time(s, &last));
    ck_assert_uint_eq(last, 90);
    stats_series_end(s);
    stats_series_end(s);                           /* once only */
    ck_assert_uint_eq(stats_series_rows(s), 6);
    stats_free(s);
    /* Off: one row per sample, the clocks notwithstanding. */
    s = skipping_series(false, 1);
    ck_assert_uint_eq(stats_series_rows(s), 10);
    for (size_t r = 0; r < 10; r++) ck_assert_uint_eq(stats_series_row(s, r)[0], r * 10);
    stats_free(s);
}
END_TEST

START_TEST(series_many_rows)
{
    struct stats *s = stats_new();
    uint64_t *c = stat_counter(s, "n", "", "");
    for (uint64_t i = 0; i < 10000; i++) {
        *c = i * 3;
        stats_sample(s, i * 1000);
    }
    ck_assert_uint_eq(stats_series_rows(s), 10000);
    ck_assert_uint_eq(stats_series_row(s, 9999)[0], 9999000);
    ck_assert_uint_eq(stats_series_row(s, 9999)[1], 29997);
    ck_assert_uint_eq(stats_series_row(s, 1234)[1], 3702);
    stats_free(s);
}
END_TEST

START_TEST(series_without_stats)
{
    struct stats *s = stats_new();
    ck_assert_uint_eq(stats_series_columns(s), 1);
    stats_sample(s, 77);
    ck_assert_uint_eq(stats_series_row(s, 0)[0], 77);
    /* Tables are not series columns and may come later. */
    stat_table(s, "late", "", kfields, 1);
    ck_assert_uint_eq(stats_table_count(s), 1);
    stats_free(s);
}
END_TEST

/* ---- programming errors ---- */

static void dup_counter(void)
{
    struct stats *s = stats_new();
    stat_counter(s, "a.b", "", "");
    stat_real(s, "a.b", "", "");
}
static void leaf_then_prefix(void)
{
    struct stats *s = stats_new();
    stat_counter(s, "a", "", "");
    stat_counter(s, "a.b", "", "");
}
static void prefix_then_leaf(void)
{
    struct stats *s = stats_new();
    stat_counter(s, "a.b.c", "", "");
    stat_counter(s, "a.b", "", "");
}
static void after_sample(void)
{
    struct stats *s = stats_new();
    stat_counter(s, "a", "", "");
    stats_sample(s, 1);
    stat_counter(s, "b", "", "");
}
static void clock_after_sample(void)
{
    struct stats *s = stats_new();
    stat_counter(s, "a", "", "");
    stats_sample(s, 1);
    stats_mark_clock(s, "a");
}
static void clock_unknown(void)
{
    struct stats *s = stats_new();
    stat_counter(s, "a", "", "");
    stats_mark_clock(s, "b");
}
static void skip_after_sample(void)
{
    struct stats *s = stats_new();
    stats_sample(s, 1);
    stats_series_skip_unchanged(s, true);
}
static void vector_after_sample(void)
{
    struct stats *s = stats_new();
    stats_sample(s, 1);
    stat_vector(s, "v", 3, "", "");
}
static void empty_component(void)
{
    stat_counter(stats_new(), "a..b", "", "");
}
static void trailing_dot(void)
{
    stat_counter(stats_new(), "a.", "", "");
}
static void slash_in_name(void)
{
    stat_counter(stats_new(), "a/b", "", "");
}
static void reserved_time_name(void)
{
    stat_counter(stats_new(), "time_ps", "", "");
}
static void zero_bins(void)
{
    stat_histogram(stats_new(), "h", "", "", 0, 10);
}
static void zero_width(void)
{
    stat_histogram(stats_new(), "h", "", "", 4, 0);
}
static void dup_table(void)
{
    struct stats *s = stats_new();
    stat_table(s, "kernels", "", kfields, 3);
    stat_table(s, "kernels", "", kfields, 3);
}
static void reserved_table(void)
{
    stat_table(stats_new(), "stats", "", kfields, 3);
}
static void dup_field(void)
{
    static const struct rec_field f[] = {{"x", REC_U64, ""},
                                         {"x", REC_F64, ""}};
    stat_table(stats_new(), "t", "", f, 2);
}
static void no_fields(void)
{
    stat_table(stats_new(), "t", "", kfields, 0);
}
static void fine(void)
{
    struct stats *s = stats_new();
    stat_counter(s, "a.b", "", "");
    stat_counter(s, "a.c", "", "");
    stat_counter(s, "ab", "", "");
    stats_free(s);
}

START_TEST(programming_errors_panic)
{
    ck_assert(!dies(fine));
    ck_assert(dies(dup_counter));
    ck_assert(dies(leaf_then_prefix));
    ck_assert(dies(prefix_then_leaf));
    ck_assert(dies(after_sample));
    ck_assert(dies(vector_after_sample));
    ck_assert(dies(clock_after_sample));
    ck_assert(dies(clock_unknown));
    ck_assert(dies(skip_after_sample));
    ck_assert(dies(empty_component));
    ck_assert(dies(trailing_dot));
    ck_assert(dies(slash_in_name));
    ck_assert(dies(reserved_time_name));
    ck_assert(dies(zero_bins));
    ck_assert(dies(zero_width));
    ck_assert(dies(dup_table));
    ck_assert(dies(reserved_table));
    ck_assert(dies(dup_field));
    ck_assert(dies(no_fields));
}
END_TEST

static Suite *stats_suite(void)
{
    Suite *su = suite_create("stats");
    TCase *tc = tcase_create("registry");
    tcase_add_test(tc, counter_and_vector);
    tcase_add_test(tc, null_unit_and_desc_become_empty);
    tcase_add_test(tc, average_and_real);
    tcase_add_test(tc, histogram_bins_and_overflow);
    tcase_add_test(tc, single_bin_histogram_takes_everything);
    tcase_add_test(tc, ranging_histogram_widens_instead_of_overflowing);
    tcase_add_test(tc, pointers_survive_many_registrations);
    tcase_add_test(tc, find_misses);
    tcase_add_test(tc, table_rows);
    tcase_add_test(tc, table_grows);
    tcase_add_test(tc, series_columns_and_rows);
    tcase_add_test(tc, series_skips_rows_where_only_the_clock_moved);
    tcase_add_test(tc, series_many_rows);
    tcase_add_test(tc, series_without_stats);
    tcase_add_test(tc, programming_errors_panic);
    suite_add_tcase(su, tc);
    return su;
}

int main(void)
{
    return run_suite(stats_suite());
}

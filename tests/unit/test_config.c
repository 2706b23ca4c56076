/* Unit tests of the config subsystem: unit parsing, YAML loading with base:
 * chains and -s overrides, error messages, show -> load round trip.
 *
 * Only the sim.* keys (sim/config/sim_keys.c) are assumed to exist in the schema;
 * the other types are exercised through cfg_parse on keys declared here. */
#include <check.h>
#include "suite_main.h"
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/config.h"

/* ---- helpers ---- */

static char tmpdir[256];

static void make_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/uvmsim-cfg-XXXXXX",
             base && base[0] ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char p[512];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
            remove_tree(p);
        else
            remove(p);
    }
    closedir(d);
    rmdir(dir);
}

static void teardown_tmpdir(void) { remove_tree(tmpdir); }

/* Write TEXT to tmpdir/NAME; returns the path (static per call slot). */
static const char *fixture(const char *name, const char *text)
{
    static char paths[8][512];
    static int slot;
    char *p = paths[slot++ % 8];
    snprintf(p, sizeof paths[0], "%s/%s", tmpdir, name);
    char *slash = strrchr(p, '/');
    *slash = '\0';
    mkdir(p, 0755); /* a subdirectory of tmpdir, or tmpdir itself */
    *slash = '/';
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return p;
}

/* Load expecting failure; the message must equal the printf'd EXPECT. */
static void expect_error(const char *path, const char *const *sets,
                         size_t nsets, const char *expect)
{
    struct cfg_error err;
    struct config *c = config_load(path, sets, nsets, &err);
    ck_assert_ptr_null(c);
    ck_assert_str_eq(err.msg, expect);
}

static struct config *load_ok(const char *path, const char *const *sets,
                              size_t nsets)
{
    struct cfg_error err = {{0}};
    struct config *c = config_load(path, sets, nsets, &err);
    ck_assert_msg(c != NULL, "load failed: %s", err.msg);
    return c;
}

#define NO_RANGE 1, 0 /* min > max: no range */

static bool parse(const struct cfg_key *k, const char *text,
                  struct cfg_value *v, char *msg)
{
    memset(v, 0, sizeof *v);
    msg[0] = '\0';
    return cfg_parse(k, text, v, msg, 512);
}

static void parse_ok(const struct cfg_key *k, const char *text,
                     struct cfg_value *v)
{
    char msg[512];
    ck_assert_msg(parse(k, text, v, msg), "'%s' rejected: %s", text, msg);
}

static void parse_bad(const struct cfg_key *k, const char *text,
                      const char *expect)
{
    char msg[512];
    struct cfg_value v;
    ck_assert_msg(!parse(k, text, &v, msg), "'%s' accepted", text);
    ck_assert_str_eq(msg, expect);
}

/* ---- unit conversions (hand-derived numbers) ---- */

static const struct cfg_key k_freq = {"t.freq", CFG_FREQ, "1GHz", NO_RANGE,
                                      NULL, ""};
static const struct cfg_key k_time = {"t.time", CFG_TIME, "1ns", NO_RANGE,
                                      NULL, ""};
static const struct cfg_key k_bw = {"t.bw", CFG_BW, "1GB/s", NO_RANGE, NULL,
                                    ""};
static const struct cfg_key k_size = {"t.size", CFG_SIZE, "4KiB", NO_RANGE,
                                      NULL, ""};
static const struct cfg_key k_frac = {"t.frac", CFG_FRACTION, "0.5",
                                      NO_RANGE, NULL, ""};
static const struct cfg_key k_int = {"t.int", CFG_INT, "1", 1, 1024, NULL,
                                     ""};
static const struct cfg_key k_anyint = {"t.anyint", CFG_INT, "1", NO_RANGE,
                                        NULL, ""};
static const struct cfg_key k_float = {"t.float", CFG_FLOAT, "1", NO_RANGE,
                                       NULL, ""};
static const struct cfg_key k_bool = {"t.bool", CFG_BOOL, "true", NO_RANGE,
                                      NULL, ""};
static const struct cfg_key k_enum = {"t.enum", CFG_ENUM, "lru", NO_RANGE,
                                      "fifo|lru|random", ""};

START_TEST(test_freq)
{
    struct cfg_value v;
    parse_ok(&k_freq, "1.4GHz", &v);
    ck_assert(v.f == 1.4e9);
    /* period = round(1e12 / 1.4e9) = round(714.29) = 714 ps */
    ck_assert_uint_eq((uint64_t)(1e12 / v.f + 0.5), 714);
    parse_ok(&k_freq, "700MHz", &v);
    ck_assert(v.f == 700e6);
    parse_ok(&k_freq, "2.5kHz", &v);
    ck_assert(v.f == 2500);
    parse_ok(&k_freq, "50Hz", &v);
    ck_assert(v.f == 50);
    parse_bad(&k_freq, "1.4",
              "expected a frequency with a unit (Hz, kHz, MHz, GHz), got '1.4'");
    parse_bad(&k_freq, "1.4ghz",
              "expected a frequency with a unit (Hz, kHz, MHz, GHz), got "
              "'1.4ghz'");
    parse_bad(&k_freq, "0GHz", "expected a frequency above 0Hz, got '0GHz'");
}
END_TEST

START_TEST(test_time)
{
    struct cfg_value v;
    parse_ok(&k_time, "714ps", &v);
    ck_assert_uint_eq(v.u, 714);
    parse_ok(&k_time, "20us", &v);
    ck_assert_uint_eq(v.u, 20000000);
    ck_assert(v.f == 20e6);
    parse_ok(&k_time, "1.5ms", &v);
    ck_assert_uint_eq(v.u, 1500000000);
    parse_ok(&k_time, "3\xc2\xb5s", &v); /* µs */
    ck_assert_uint_eq(v.u, 3000000);
    parse_ok(&k_time, "2s", &v);
    ck_assert_uint_eq(v.u, 2000000000000ULL);
    parse_ok(&k_time, "2.5ns", &v);
    ck_assert_uint_eq(v.u, 2500);
    parse_ok(&k_time, "0", &v);
    ck_assert_uint_eq(v.u, 0);
    parse_bad(&k_time, "20",
              "expected a time with a unit (ps, ns, us, ms, s), got '20'");
    parse_bad(&k_time, "20min",
              "expected a time with a unit (ps, ns, us, ms, s), got '20min'");
    parse_bad(&k_time, "-1ns",
              "expected a time with a unit (ps, ns, us, ms, s), got '-1ns'");
    parse_bad(&k_time, "1.0005ns",
              "expected a whole number of picoseconds, got '1.0005ns'");
}
END_TEST

START_TEST(test_bandwidth)
{
    struct cfg_value v;
    parse_ok(&k_bw, "15.75GB/s", &v);
    ck_assert(v.f == 15.75e9);
    parse_ok(&k_bw, "16GB/s", &v);
    ck_assert(v.f == 16e9);
    parse_ok(&k_bw, "900GiB/s", &v);
    ck_assert(v.f == 900.0 * 1073741824.0);
    parse_bad(&k_bw, "16GB",
              "expected a bandwidth with a unit (B/s, KB/s, MB/s, GB/s, TB/s, "
              "KiB/s, MiB/s, GiB/s, TiB/s), got '16GB'");
}
END_TEST

START_TEST(test_size)
{
    struct cfg_value v;
    parse_ok(&k_size, "1.5MiB", &v);
    ck_assert_uint_eq(v.u, 1572864);
    parse_ok(&k_size, "4KiB", &v);
    ck_assert_uint_eq(v.u, 4096);
    parse_ok(&k_size, "16GB", &v);
    ck_assert_uint_eq(v.u, 16000000000ULL);
    parse_ok(&k_size, "128B", &v);
    ck_assert_uint_eq(v.u, 128);
    parse_ok(&k_size, "2TiB", &v);
    ck_assert_uint_eq(v.u, 2ULL << 40);
    parse_ok(&k_size, "0", &v);
    ck_assert_uint_eq(v.u, 0);
    parse_bad(&k_size, "1.5B", "expected a whole number of bytes, got '1.5B'");
    parse_bad(&k_size, "4K",
              "expected a size with a unit (B, KB, MB, GB, TB, KiB, MiB, GiB, "
              "TiB), got '4K'");
}
END_TEST

START_TEST(test_fraction_int_float_bool_enum)
{
    struct cfg_value v;
    parse_ok(&k_frac, "75%", &v);
    ck_assert(v.f == 0.75);
    parse_ok(&k_frac, "0.75", &v);
    ck_assert(v.f == 0.75);
    parse_bad(&k_frac, "150%", "expected a fraction in [0%, 100%], got '150%'");
    parse_bad(&k_frac, "half",
              "expected a fraction (0.75 or 75%), got 'half'");

    parse_ok(&k_anyint, "-7", &v);
    ck_assert_int_eq((int64_t)v.u, -7);
    parse_ok(&k_anyint, "0x10", &v);
    ck_assert_uint_eq(v.u, 16);
    parse_bad(&k_anyint, "1.5", "expected an integer, got '1.5'");
    parse_bad(&k_anyint, "", "expected an integer, got ''");
    parse_bad(&k_int, "2000", "expected an integer in [1, 1024], got '2000'");
    parse_bad(&k_int, "0", "expected an integer in [1, 1024], got '0'");

    parse_ok(&k_float, "2.5", &v);
    ck_assert(v.f == 2.5);
    parse_ok(&k_float, "1e3", &v);
    ck_assert(v.f == 1000);
    parse_bad(&k_float, "nan", "expected a number, got 'nan'");

    parse_ok(&k_bool, "false", &v);
    ck_assert_uint_eq(v.u, 0);
    parse_ok(&k_bool, "true", &v);
    ck_assert_uint_eq(v.u, 1);
    parse_bad(&k_bool, "yes", "expected true or false, got 'yes'");

    parse_ok(&k_enum, "lru", &v);
    parse_bad(&k_enum, "LRU", "expected one of fifo, lru, random, got 'LRU'");
}
END_TEST

START_TEST(test_range_text)
{
    char buf[128];
    struct cfg_key k = {"t", CFG_TIME, "1ns", 1e3, 1e15, NULL, ""};
    cfg_range_text(&k, buf, sizeof buf);
    ck_assert_str_eq(buf, "[1ns, 1000s]");
    k = (struct cfg_key){"t", CFG_SIZE, "4KiB", 4096, 1099511627776.0, NULL,
                         ""};
    cfg_range_text(&k, buf, sizeof buf);
    ck_assert_str_eq(buf, "[4KiB, 1TiB]");
    k = (struct cfg_key){"t", CFG_FREQ, "1GHz", 1e6, 5e9, NULL, ""};
    cfg_range_text(&k, buf, sizeof buf);
    ck_assert_str_eq(buf, "[1MHz, 5GHz]");
    k = (struct cfg_key){"t", CFG_BW, "1GB/s", NO_RANGE, NULL, ""};
    cfg_range_text(&k, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    k = (struct cfg_key){"t", CFG_BW, "1GB/s", 1e6, 1e13, NULL, ""};
    cfg_range_text(&k, buf, sizeof buf);
    ck_assert_str_eq(buf, "[1MB/s, 10TB/s]");
    k = (struct cfg_key){"t", CFG_SIZE, "1MiB", 1572864, 1.2e18, NULL, ""};
    cfg_range_text(&k, buf, sizeof buf);
    ck_assert_str_eq(buf, "[1.5MiB, 1200000TB]");
    k = (struct cfg_key){"t", CFG_FRACTION, "1", 1e-6, 1, NULL, ""};
    cfg_range_text(&k, buf, sizeof buf);
    ck_assert_str_eq(buf, "[0.0001%, 100%]");
    cfg_range_text(&k_enum, buf, sizeof buf);
    ck_assert_str_eq(buf, "fifo, lru, random");
    ck_assert_str_eq(cfg_type_name(CFG_BW), "bandwidth");
    ck_assert_str_eq(cfg_type_unit(CFG_TIME), "ps, ns, us, ms, s");
}
END_TEST

/* ---- loading ---- */

START_TEST(test_defaults_and_getters)
{
    struct config *c = load_ok(NULL, NULL, 0);
    ck_assert_uint_eq(cfg_u64(c, "sim.epoch"), 10000000); /* 10us */
    ck_assert_uint_eq(cfg_u64(c, "sim.watchdog"), 10000000000ULL);
    ck_assert_int_eq(cfg_i64(c, "sim.seed"), 1);
    ck_assert(cfg_f64(c, "sim.epoch") == 1e7);
    const struct cfg_value *v = cfg_get(c, "sim.epoch");
    ck_assert_ptr_nonnull(v);
    ck_assert_str_eq(v->text, "10us");
    ck_assert_ptr_null(v->file);
    ck_assert_ptr_null(cfg_get(c, "sim.nope"));
    config_free(c);
}
END_TEST

/* Run FN in a child: the getter must not return normally. */
static void expect_panic(void (*fn)(const struct config *))
{
    struct config *c = load_ok(NULL, NULL, 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        freopen("/dev/null", "w", stderr);
        fn(c);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
    ck_assert_msg(!(WIFEXITED(st) && WEXITSTATUS(st) == 0),
                  "getter returned instead of panicking");
    config_free(c);
}

static void get_unknown(const struct config *c) { cfg_u64(c, "sim.nope"); }
static void get_mismatch(const struct config *c) { cfg_str(c, "sim.seed"); }
static void get_bool(const struct config *c) { cfg_bool(c, "sim.epoch"); }

START_TEST(test_getter_panics)
{
    expect_panic(get_unknown);
    expect_panic(get_mismatch);
    expect_panic(get_bool);
}
END_TEST

/* cfg_period on whatever frequency key the schema has (none in sim.*). */
static void find_freq(void *ctx, const struct cfg_value *v)
{
    const char **path = ctx;
    if (!*path && v->key->type == CFG_FREQ)
        *path = v->key->path;
}

START_TEST(test_period)
{
    struct config *c = load_ok(NULL, NULL, 0);
    const char *path = NULL;
    config_foreach(c, find_freq, &path);
    if (path) {
        char set[256];
        snprintf(set, sizeof set, "%s=1.4GHz", path);
        const char *sets[] = {set};
        struct cfg_error err;
        struct config *c2 = config_load(NULL, sets, 1, &err);
        if (c2) /* its range may exclude 1.4GHz */
            ck_assert_uint_eq(cfg_period(c2, path), 714);
        config_free(c2);
    }
    config_free(c);
}
END_TEST

START_TEST(test_nested_and_dotted)
{
    const char *p = fixture("a.yaml", "# comment\n"
                                      "sim:\n"
                                      "  seed: 42\n"
                                      "  epoch: 20us\n"
                                      "sim.watchdog: 1.5ms\n");
    struct config *c = load_ok(p, NULL, 0);
    ck_assert_uint_eq(cfg_u64(c, "sim.seed"), 42);
    ck_assert_uint_eq(cfg_u64(c, "sim.epoch"), 20000000);
    ck_assert_uint_eq(cfg_u64(c, "sim.watchdog"), 1500000000);
    const struct cfg_value *v = cfg_get(c, "sim.epoch");
    ck_assert_str_eq(v->file, p);
    ck_assert_int_eq(v->line, 4);
    ck_assert_int_eq(v->col, 10);
    config_free(c);
}
END_TEST

START_TEST(test_base_chain_and_overrides)
{
    fixture("sub/root.yaml", "sim:\n  seed: 1\n  epoch: 1us\n"
                             "  watchdog: 5ms\n  max_events: 7\n");
    /* base: is relative to the including file's directory */
    fixture("sub/mid.yaml", "base: root.yaml\nsim:\n  epoch: 2us\n"
                            "  watchdog: 6ms\n");
    const char *top = fixture("top.yaml", "base: sub/mid.yaml\n"
                                          "sim.watchdog: 7ms\n");
    struct config *c = load_ok(top, NULL, 0);
    ck_assert_uint_eq(cfg_u64(c, "sim.max_events"), 7); /* from root */
    ck_assert_uint_eq(cfg_u64(c, "sim.epoch"), 2000000); /* mid over root */
    ck_assert_uint_eq(cfg_u64(c, "sim.watchdog"), 7000000000ULL); /* top */
    char want[1024];
    snprintf(want, sizeof want, "%s/sub/root.yaml", tmpdir);
    ck_assert_str_eq(cfg_get(c, "sim.max_events")->file, want);
    config_free(c);

    /* -s after the file, in order: the last one wins */
    const char *sets[] = {"sim.seed=5", "sim.epoch=3us", "sim.seed=6"};
    c = load_ok(top, sets, 3);
    ck_assert_uint_eq(cfg_u64(c, "sim.seed"), 6);
    ck_assert_uint_eq(cfg_u64(c, "sim.epoch"), 3000000);
    ck_assert_str_eq(cfg_get(c, "sim.seed")->file, "-s");
    config_free(c);
}
END_TEST

START_TEST(test_base_cycle)
{
    const char *a = fixture("a.yaml", "base: b.yaml\n");
    fixture("b.yaml", "sim.seed: 2\nbase: a.yaml\n");
    char want[2048];
    snprintf(want, sizeof want,
             "%s/b.yaml:2:7: key 'base': cycle in base chain: %s/a.yaml -> "
             "%s/b.yaml -> %s/a.yaml", tmpdir, tmpdir, tmpdir, tmpdir);
    expect_error(a, NULL, 0, want);
}
END_TEST

static void same_value(void *ctx, const struct cfg_value *v)
{
    const struct config *other = ctx;
    const struct cfg_value *w = cfg_get(other, v->key->path);
    ck_assert_ptr_nonnull(w);
    ck_assert_str_eq(v->text, w->text);
    ck_assert(v->f == w->f);
    ck_assert_uint_eq(v->u, w->u);
}

START_TEST(test_show_round_trip)
{
    const char *p = fixture("x.yaml", "sim:\n  seed: 0x2a\n  epoch: 1.5ms\n");
    const char *sets[] = {"sim.watchdog=3\xc2\xb5s", "sim.max_events=12"};
    struct config *c = load_ok(p, sets, 2);
    char *yaml = config_to_yaml(c);
    ck_assert_ptr_nonnull(strstr(yaml, "sim:\n  seed: 0x2a\n"));
    const char *shown = fixture("shown.yaml", yaml);
    struct config *c2 = load_ok(shown, NULL, 0);
    config_foreach(c, same_value, c2);
    config_foreach(c2, same_value, c);
    char *yaml2 = config_to_yaml(c2);
    ck_assert_str_eq(yaml, yaml2);
    free(yaml);
    free(yaml2);
    config_free(c);
    config_free(c2);

    /* the defaults of the whole schema (every component) round-trip too */
    c = load_ok(NULL, NULL, 0);
    yaml = config_to_yaml(c);
    c2 = load_ok(fixture("defaults.yaml", yaml), NULL, 0);
    config_foreach(c, same_value, c2);
    free(yaml);
    config_free(c);
    config_free(c2);
}
END_TEST

static void find_string(void *ctx, const struct cfg_value *v)
{
    const char **path = ctx;
    if (!*path && v->key->type == CFG_STRING)
        *path = v->key->path;
}

/* Strings that YAML would misread unquoted survive show -> load (on the
 * first string key of the schema, when it has one). */
START_TEST(test_show_quotes_strings)
{
    struct config *c = load_ok(NULL, NULL, 0);
    const char *path = NULL;
    config_foreach(c, find_string, &path);
    config_free(c);
    if (!path)
        return;
    static const char *nasty[] = {"", "a: b #c", "\"q\" \\ x", "- x",
                                  " lead", "tab\there", "[1, 2]", "true"};
    for (size_t i = 0; i < sizeof nasty / sizeof nasty[0]; i++) {
        char set[256];
        snprintf(set, sizeof set, "%s=%s", path, nasty[i]);
        const char *sets[] = {set};
        c = load_ok(NULL, sets, 1);
        char *yaml = config_to_yaml(c);
        struct config *c2 = load_ok(fixture("s.yaml", yaml), NULL, 0);
        ck_assert_str_eq(cfg_str(c2, path), nasty[i]);
        free(yaml);
        config_free(c);
        config_free(c2);
    }
}
END_TEST

START_TEST(test_doc)
{
    char *a = NULL, *b = NULL;
    size_t la, lb;
    FILE *f = open_memstream(&a, &la);
    config_doc(f);
    fclose(f);
    f = open_memstream(&b, &lb);
    config_doc(f);
    fclose(f);
    ck_assert_str_eq(a, b); /* deterministic */
    ck_assert_ptr_nonnull(strstr(a, "\n## sim\n"));
    ck_assert_ptr_nonnull(strstr(a, "| key | type | unit | default | "
                                    "range/choices | description |"));
    ck_assert_ptr_nonnull(strstr(a, "| `sim.epoch` | time | ps, ns, us, ms, "
                                    "s | `10us` | [1ns, 1000s] |"));
    free(a);
    free(b);
}
END_TEST

/* ---- every error class, with the exact location prefix ---- */

START_TEST(test_error_unknown_key)
{
    const char *p = fixture("x.yaml", "sim:\n  seed: 1\n  sed: 2\n");
    char want[2048];
    snprintf(want, sizeof want, "%s:3:3: key 'sim.sed': unknown key "
             "(did you mean 'sim.seed'?)", p);
    expect_error(p, NULL, 0, want);
    p = fixture("y.yaml", "zzz:\n  qqqqq: 1\n");
    snprintf(want, sizeof want, "%s:2:3: key 'zzz.qqqqq': unknown key", p);
    expect_error(p, NULL, 0, want);
}
END_TEST

START_TEST(test_error_bad_type)
{
    const char *p = fixture("x.yaml", "sim:\n  seed: abc\n");
    char want[2048];
    snprintf(want, sizeof want,
             "%s:2:9: key 'sim.seed': expected an integer, got 'abc'", p);
    expect_error(p, NULL, 0, want);
    p = fixture("y.yaml", "sim.seed: [1, 2]\n");
    snprintf(want, sizeof want, "%s:1:11: key 'sim.seed': expected a scalar "
             "(int), got a sequence", p);
    expect_error(p, NULL, 0, want);
}
END_TEST

START_TEST(test_error_bad_unit)
{
    const char *p = fixture("x.yaml", "sim:\n  seed: 3\n  epoch: 10\n");
    char want[2048];
    snprintf(want, sizeof want, "%s:3:10: key 'sim.epoch': expected a time "
             "with a unit (ps, ns, us, ms, s), got '10'", p);
    expect_error(p, NULL, 0, want);
    p = fixture("y.yaml", "sim.watchdog: 10 sec\n");
    snprintf(want, sizeof want, "%s:1:15: key 'sim.watchdog': expected a time "
             "with a unit (ps, ns, us, ms, s), got '10 sec'", p);
    expect_error(p, NULL, 0, want);
}
END_TEST

START_TEST(test_error_out_of_range)
{
    const char *p = fixture("x.yaml", "sim:\n  epoch: 0.5ps\n");
    char want[2048];
    snprintf(want, sizeof want, "%s:2:10: key 'sim.epoch': expected a time in "
             "[1ns, 1000s], got '0.5ps'", p);
    expect_error(p, NULL, 0, want);
    p = fixture("y.yaml", "sim:\n  seed: -1\n");
    snprintf(want, sizeof want,
             "%s:2:9: key 'sim.seed': expected an integer >= 0, got '-1'", p);
    expect_error(p, NULL, 0, want);
}
END_TEST

START_TEST(test_error_bad_base)
{
    const char *p = fixture("x.yaml", "base: nope.yaml\nsim.seed: 1\n");
    char want[2048];
    snprintf(want, sizeof want, "%s:1:7: key 'base': cannot open "
             "'%s/nope.yaml': No such file or directory", p, tmpdir);
    expect_error(p, NULL, 0, want);
    /* A list of bases (issue 18) is allowed: each item is a file name,
     * located at the item. */
    p = fixture("y.yaml", "base: [a.yaml]\n");
    snprintf(want, sizeof want, "%s:1:8: key 'base': cannot open "
             "'%s/a.yaml': No such file or directory", p, tmpdir);
    expect_error(p, NULL, 0, want);
    p = fixture("y2.yaml", "base: [{a: 1}]\n");
    snprintf(want, sizeof want, "%s:1:8: key 'base': expected a file name, "
             "got a mapping", p);
    expect_error(p, NULL, 0, want);
    expect_error("/nonexistent/nope.yaml", NULL, 0,
                 "/nonexistent/nope.yaml: cannot open: No such file or "
                 "directory");
}
END_TEST

START_TEST(test_error_bad_set)
{
    const char *no_eq[] = {"sim.seed"};
    expect_error(NULL, no_eq, 1,
                 "-s 'sim.seed': key 'sim.seed': expected KEY=VALUE, got no "
                 "'='");
    const char *unknown[] = {"sim.seed=1", "sim.sede=1"};
    expect_error(NULL, unknown, 2, "-s 'sim.sede=1': key 'sim.sede': unknown "
                 "key (did you mean 'sim.seed'?)");
    const char *bad[] = {"sim.seed=abc"};
    expect_error(NULL, bad, 1,
                 "-s 'sim.seed=abc': key 'sim.seed': expected an integer, "
                 "got 'abc'");
    const char *range[] = {"sim.epoch=2000s"};
    expect_error(NULL, range, 1, "-s 'sim.epoch=2000s': key 'sim.epoch': "
                 "expected a time in [1ns, 1000s], got '2000s'");
}
END_TEST

START_TEST(test_error_yaml)
{
    const char *p = fixture("x.yaml", "sim:\n  seed: [1\n");
    char want[2048];
    snprintf(want, sizeof want, "%s:3:1: YAML syntax error: did not find "
             "expected ',' or ']'", p);
    expect_error(p, NULL, 0, want);
    p = fixture("y.yaml", "sim:\n  seed: 1\n  seed: 2\n");
    snprintf(want, sizeof want, "%s:3:3: key 'sim.seed': duplicate key "
             "(first set at 2:3)", p);
    expect_error(p, NULL, 0, want);
    p = fixture("z.yaml", "sim:\n  seed: 1\nsim.seed: 2\n");
    snprintf(want, sizeof want, "%s:3:1: key 'sim.seed': duplicate key "
             "(first set at 2:3)", p);
    expect_error(p, NULL, 0, want);
    p = fixture("u.yaml", "sim:\n  seed: \xff\n");
    snprintf(want, sizeof want, "%s:2:9: YAML syntax error: invalid leading "
             "UTF-8 octet", p);
    expect_error(p, NULL, 0, want);
    p = fixture("w.yaml", "- sim.seed\n");
    snprintf(want, sizeof want, "%s:1:1: expected a mapping of keys, got a "
             "sequence", p);
    expect_error(p, NULL, 0, want);
}
END_TEST

START_TEST(test_empty_file)
{
    struct config *c = load_ok(fixture("e.yaml", "# nothing\n"), NULL, 0);
    ck_assert_uint_eq(cfg_u64(c, "sim.seed"), 1);
    config_free(c);
}
END_TEST

static Suite *config_suite(void)
{
    Suite *s = suite_create("config");
    TCase *units = tcase_create("units");
    tcase_add_test(units, test_freq);
    tcase_add_test(units, test_time);
    tcase_add_test(units, test_bandwidth);
    tcase_add_test(units, test_size);
    tcase_add_test(units, test_fraction_int_float_bool_enum);
    tcase_add_test(units, test_range_text);
    suite_add_tcase(s, units);

    TCase *load = tcase_create("load");
    tcase_add_checked_fixture(load, make_tmpdir, teardown_tmpdir);
    tcase_add_test(load, test_defaults_and_getters);
    tcase_add_test(load, test_getter_panics);
    tcase_add_test(load, test_period);
    tcase_add_test(load, test_nested_and_dotted);
    tcase_add_test(load, test_base_chain_and_overrides);
    tcase_add_test(load, test_base_cycle);
    tcase_add_test(load, test_show_round_trip);
    tcase_add_test(load, test_show_quotes_strings);
    tcase_add_test(load, test_doc);
    tcase_add_test(load, test_empty_file);
    suite_add_tcase(s, load);

    TCase *errs = tcase_create("errors");
    tcase_add_checked_fixture(errs, make_tmpdir, teardown_tmpdir);
    tcase_add_test(errs, test_error_unknown_key);
    tcase_add_test(errs, test_error_bad_type);
    tcase_add_test(errs, test_error_bad_unit);
    tcase_add_test(errs, test_error_out_of_range);
    tcase_add_test(errs, test_error_bad_base);
    tcase_add_test(errs, test_error_bad_set);
    tcase_add_test(errs, test_error_yaml);
    suite_add_tcase(s, errs);
    return s;
}

int main(void)
{
    return run_suite(config_suite());
}

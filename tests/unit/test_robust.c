/* Issue 12 in unit tests: escaping (12.9), errors across keys and located
 * component errors (12.6, 12.7), the show -> load -> show property (12.8),
 * graph readers against the host memory bound (12.1, 12.2), output files
 * (12.10, 12.13), the derived watchdog (12.11), and the user-error hooks
 * the fuzz harnesses use. */
#include <check.h>
#include "suite_main.h"
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config/config.h"
#include "out/outfile.h"
#include "system_check.h"
#include "core/text.h"
#include "workloads/graph.h"
#include "dram/dram.h"
#include "driver/evict/evict.h"

/* ---- catching user errors in-process (the fuzz harnesses' hook) ---- */

static jmp_buf catch_jb;
static char caught[4096];

static void catch_line(const char *line)
{
    snprintf(caught, sizeof caught, "%s", line);
    longjmp(catch_jb, 1);
}

/* Runs STMT expecting a user error; its line lands in `caught`. */
#define EXPECT_USER_ERROR(stmt) do {                                        \
        caught[0] = 0;                                                      \
        user_error_set_handler(catch_line);                                 \
        if (setjmp(catch_jb) == 0) {                                        \
            stmt;                                                           \
            user_error_set_handler(NULL);                                   \
            ck_abort_msg("%s", "no user error from " #stmt);                \
        }                                                                   \
        user_error_set_handler(NULL);                                       \
    } while (0)

static char tmpdir[256];

static void setup(void)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/uvmsim-robust-XXXXXX", base && base[0] ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}

static const char *write_file(const char *name, const char *text)
{
    static char path[8][512];
    static int slot;
    char *p = path[slot++ % 8];
    snprintf(p, sizeof path[0], "%s/%s", tmpdir, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static bool has_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f) return true;
    return false;
}

/* ---- 12.9: one printable line ---- */

START_TEST(escape_keeps_one_printable_line)
{
    char out[256];
    text_escape(out, sizeof out, "a\nb\x1b[31mc\td\\e");
    ck_assert_str_eq(out, "a\\nb\\x1b[31mc\\td\\\\e");
    /* UTF-8 text stays; C1 controls (U+009B, the 8-bit CSI), the line
     * separator, a bidi override and invalid bytes do not. */
    text_escape(out, sizeof out, "\xc2\xb5s \xc2\x9b \xe2\x80\xa8 \xe2\x80\xae \xff\xc3");
    ck_assert_str_eq(out, "\xc2\xb5s \\u009b \\u2028 \\u202e \\xff\\xc3");
    ck_assert(!has_control(out));
    /* Truncation ends in "..." inside the buffer. */
    text_escape(out, 8, "abcdefghijkl");
    ck_assert_str_eq(out, "abcd...");
}
END_TEST

START_TEST(utf8_validation)
{
    ck_assert_int_eq(utf8_invalid_at("plain \xc2\xb5 \xf0\x9f\x98\x80"), -1);
    ck_assert_int_eq(utf8_invalid_at("ab\xc0\xaf"), 2);        /* overlong '/' */
    ck_assert_int_eq(utf8_invalid_at("\xed\xa0\x80"), 0);      /* surrogate */
    ck_assert_int_eq(utf8_invalid_at("x\xf4\x90\x80\x80"), 1); /* above U+10FFFF */
    ck_assert_int_eq(utf8_invalid_at("xy\xe2\x82"), 2);        /* truncated */
}
END_TEST

static int cleaned;
static void bump(void *ctx) { *(int *)ctx += 1; }

START_TEST(user_error_is_escaped_and_runs_cleanups)
{
    cleaned = 0;
    EXPECT_USER_ERROR((user_error_push_cleanup(bump, &cleaned),
                       user_error("file '%s' is bad", "x\ny\x1b")));
    ck_assert_str_eq(caught, "uvmsim: file 'x\\ny\\x1b' is bad");
    ck_assert_int_eq(cleaned, 1);
}
END_TEST

/* ---- 12.6 / 12.7: errors across keys name the user's key ---- */

START_TEST(cross_key_error_names_the_key_the_user_set)
{
    const char *y = write_file("d.yaml", "dram:\n  data_rate: 3\n");
    struct cfg_error err;
    ck_assert_ptr_null(config_load(y, NULL, 0, &err));
    /* "FILE:2:14: key 'dram.data_rate': ... (dram.burst_length=8: default)" */
    char want[600];
    snprintf(want, sizeof want, "%s:2:14: key 'dram.data_rate': ", y);
    ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
    ck_assert_msg(strstr(err.msg, "(dram.burst_length=8: default)"), "%s", err.msg);
    /* Both set: the first key of the check that the user set is named, the
     * other's origin is its file position. */
    y = write_file("e.yaml", "dram:\n  data_rate: 3\n  burst_length: 8\n");
    ck_assert_ptr_null(config_load(y, NULL, 0, &err));
    snprintf(want, sizeof want, "%s:3:17: key 'dram.burst_length': ", y);
    ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
    snprintf(want, sizeof want, "(dram.data_rate=3: %s:2:14)", y);
    ck_assert_msg(strstr(err.msg, want), "%s", err.msg);
}
END_TEST

START_TEST(component_errors_are_located_by_the_keys_they_name)
{
    const char *sets[] = { "tlb.l2.entries=3" };
    struct config *c = config_load(NULL, sets, 1, NULL);
    ck_assert_ptr_nonnull(c);
    char out[1024];
    ck_assert(cfg_locate_message(c, "tlb.l2.entries (3) is not a multiple of tlb.l2.assoc (16)",
                                 out, sizeof out));
    ck_assert_str_eq(out, "-s 'tlb.l2.entries=3': key 'tlb.l2.entries': tlb.l2.entries (3) is "
                          "not a multiple of tlb.l2.assoc (16) (tlb.l2.assoc=16: default)");
    /* "key 'K': why" / "K: why" are not repeated when K is the one named. */
    ck_assert(cfg_locate_message(c, "tlb.l2.entries: odd", out, sizeof out));
    ck_assert_str_eq(out, "-s 'tlb.l2.entries=3': key 'tlb.l2.entries': odd");
    /* No key, or already located: left alone. */
    ck_assert(!cfg_locate_message(c, "kernel 'k': a block of zero threads", out, sizeof out));
    ck_assert(!cfg_locate_message(c, "g.mtx:3: sim.seed", out, sizeof out));
    /* Only defaults: the first key, marked as the default. */
    ck_assert(cfg_locate_message(c, "sim.epoch vs sim.seed", out, sizeof out));
    ck_assert_str_eq(out, "uvmsim: key 'sim.epoch' (default 10us): sim.epoch vs sim.seed "
                          "(sim.seed=1: default)");
    config_free(c);
}
END_TEST

/* ---- 12.8: config show loads back to itself ---- */

static uint64_t rnd_state = 88172645463325252ULL;
static uint64_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}

/* A random UTF-8 string mixing what YAML treats specially: quotes,
 * backslashes, ': ', '#', leading '-', '%', '&', '*', '!', spaces at the
 * ends, tabs, newlines, controls, NEL, U+2028, BOM, C1, astral code points. */
static void random_text(char *buf, size_t n)
{
    static const char *const atoms[] = {
        "a", "Z", "0", " ", "  ", "\t", "\n", "\r", ":", ": ", "#", " #", "-", "- ", "%",
        "&", "*", "!", "|", ">", "'", "\"", "\\", "{", "}", "[", "]", ",", "?", "@", "`",
        "\x01", "\x1b", "\x7f", "\xc2\x85", "\xc2\x9b", "\xc2\xa0", "\xe2\x80\xa8",
        "\xe2\x80\xa9", "\xef\xbb\xbf", "\xef\xbf\xbd", "\xc2\xb5", "\xf0\x9f\x98\x80",
        "null", "~", "true", "0x1f", "1e3", "---", "...", "<<",
    };
    size_t len = 0, k = rnd() % 8;
    buf[0] = 0;
    for (size_t i = 0; i < k; i++) {
        const char *a = atoms[rnd() % (sizeof atoms / sizeof *atoms)];
        if (len + strlen(a) + 1 >= n) break;
        len += (size_t)snprintf(buf + len, n - len, "%s", a);
    }
}

struct keys { const char *path[512]; size_t n; };
static void collect_strings(void *ctx, const struct cfg_value *v)
{
    struct keys *k = ctx;
    if (v->key->type == CFG_STRING && k->n < 512) k->path[k->n++] = v->key->path;
}

START_TEST(show_check_show_is_identity)
{
    struct config *d = config_new();
    struct keys keys = { .n = 0 };
    config_foreach(d, collect_strings, &keys);
    config_free(d);
    ck_assert_uint_gt(keys.n, 0);
    for (int round = 0; round < 300; round++) {
        char vals[6][128], sets_buf[6][512];
        const char *sets[6];
        for (int i = 0; i < 6; i++) {
            random_text(vals[i], sizeof vals[i]);
            snprintf(sets_buf[i], sizeof sets_buf[i], "%.300s=%.127s", keys.path[rnd() % keys.n],
                     vals[i]);
            sets[i] = sets_buf[i];
        }
        struct cfg_error err;
        struct config *c = config_load(NULL, sets, 6, &err);
        ck_assert_msg(c != NULL, "%s", err.msg);
        char *y1 = config_to_yaml(c);
        config_free(c);
        const char *path = write_file("show.yaml", y1);
        struct config *c2 = config_load(path, NULL, 0, &err);
        ck_assert_msg(c2 != NULL, "round %d: the shown YAML does not load: %s", round, err.msg);
        char *y2 = config_to_yaml(c2);
        ck_assert_msg(strcmp(y1, y2) == 0, "round %d: show -> show differs", round);
        free(y1);
        free(y2);
        config_free(c2);
    }
}
END_TEST

START_TEST(values_that_are_not_utf8_are_refused)
{
    const char *sets[] = { "workload.trace.file=ab\xfe" };
    struct cfg_error err;
    ck_assert_ptr_null(config_load(NULL, sets, 1, &err));
    ck_assert_msg(strstr(err.msg, "-s 'workload.trace.file=ab\xfe': key 'workload.trace.file': "
                                  "value is not UTF-8 text (byte 3 is 0xfe)"), "%s", err.msg);
}
END_TEST

/* ---- 12.1 / 12.2: graph inputs against overflow and host memory ---- */

START_TEST(mtx_entry_count_2e61_is_refused_at_the_header)
{
    const char *p = write_file("big.mtx", "%%MatrixMarket matrix coordinate pattern general\n"
                                          "2 2 2305843009213693952\n1 2\n");
    EXPECT_USER_ERROR(graph_read_mtx(p, "test", false));
    char want[600];
    snprintf(want, sizeof want, "uvmsim: %s:2: 2 vertices and 2305843009213693952 edges need", p);
    ck_assert_msg(strncmp(caught, want, strlen(want)) == 0, "%s", caught);
}
END_TEST

START_TEST(edge_list_vertex_ids_are_bounded_by_host_memory)
{
    /* A CSR of nv vertices and n edges takes 24 (nv + 1) + 16 n bytes
     * (graph_mtx.c, csr_bytes): with 1 MiB allowed, 40000 vertices (960 KB)
     * fit and 50000 (1.2 MB) do not. */
    host_memory_set_limit(1 << 20);
    const char *ok = write_file("ok.el", "0 1\n0 39999\n");
    struct graph *g = graph_read_edgelist(ok, "test", false);
    ck_assert_uint_eq(g->nv, 40000);
    graph_free(g);
    const char *big = write_file("big.el", "# c\n0 1\n0 49999\n1 2\n");
    EXPECT_USER_ERROR(graph_read_edgelist(big, "test", false));
    host_memory_set_limit(0);
    char want[600];
    snprintf(want, sizeof want, "uvmsim: %s:3: 50000 vertices and 2 edges need 1200056 bytes", big);
    ck_assert_msg(strncmp(caught, want, strlen(want)) == 0, "%s", caught);
}
END_TEST

/* Found while fuzzing: page and DRAM traces read whole lines, however
 * long (a fixed buffer read a long line's tail as a line of its own). */
START_TEST(trace_lines_of_any_length)
{
    char text[2048];
    int n = snprintf(text, sizeof text, "1%*sW\n2\n", 300, "");
    FILE *f = fmemopen(text, (size_t)n, "r");
    uint64_t *refs;
    bool *writes;
    size_t nrefs;
    char err[512];
    ck_assert_int_eq(page_trace_read(f, "p", &refs, &writes, &nrefs, err, sizeof err), 0);
    fclose(f);
    ck_assert_uint_eq(nrefs, 2);
    ck_assert(writes[0] && !writes[1]);
    free(refs);
    free(writes);
    n = snprintf(text, sizeof text, "0 0x0 R%*s64\n", 1100, "");
    f = fmemopen(text, (size_t)n, "r");
    struct dram_replay_req *reqs;
    ck_assert(dram_replay_parse(f, "d", &reqs, &nrefs, err, sizeof err));
    fclose(f);
    ck_assert_uint_eq(nrefs, 1);
    ck_assert_uint_eq(reqs[0].size, 64);
    free(reqs);
    /* A request may not pass 2^64: its last byte would wrap to address 0. */
    n = snprintf(text, sizeof text, "0 0xffffffffffffffc0 R 128\n");
    f = fmemopen(text, (size_t)n, "r");
    ck_assert(!dram_replay_parse(f, "d", &reqs, &nrefs, err, sizeof err));
    fclose(f);
    ck_assert_str_eq(err, "d:1: the request passes the end of the 64-bit address space");
}
END_TEST

/* ---- 12.10 / 12.13: output files ---- */

START_TEST(only_regular_files_are_replaced)
{
    char err[512], p[600];
    ck_assert_int_eq(outfile_check_target("/dev/null", err, sizeof err), -1);
    ck_assert_msg(strstr(err, "it is a character device"), "%s", err);
    ck_assert_int_eq(outfile_check_target(tmpdir, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "it is a directory"), "%s", err);
    snprintf(p, sizeof p, "%s/link", tmpdir);
    ck_assert_int_eq(symlink(write_file("f", "x"), p), 0);
    ck_assert_int_eq(outfile_check_target(p, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "it is a symbolic link"), "%s", err);
    snprintf(p, sizeof p, "%s/fifo", tmpdir);
    ck_assert_int_eq(mkfifo(p, 0600), 0);
    ck_assert_int_eq(outfile_check_target(p, err, sizeof err), -1);
    ck_assert_int_eq(outfile_check_target(write_file("g", "x"), err, sizeof err), 0);
    snprintf(p, sizeof p, "%s/absent", tmpdir);
    ck_assert_int_eq(outfile_check_target(p, err, sizeof err), 0);
}
END_TEST

START_TEST(stale_temporaries_of_dead_processes_are_removed)
{
    pid_t child = fork();
    if (child == 0) _exit(0);
    ck_assert_int_gt(child, 0);
    int st;
    waitpid(child, &st, 0);                 /* now a pid that is gone */
    char target[600], *mine;
    snprintf(target, sizeof target, "%s/r.h5", tmpdir);
    mine = outfile_tmp_name(target);        /* TARGET.tmp.<our pid> */
    write_file("other", "");
    FILE *f = fopen(mine, "w");
    fclose(f);
    char dead[700];
    snprintf(dead, sizeof dead, "%s", mine);
    char *dot = strrchr(dead, '.');
    snprintf(dot + 1, sizeof dead - (size_t)(dot + 1 - dead), "%ld", (long)child);
    f = fopen(dead, "w");
    fclose(f);
    ck_assert_int_eq(outfile_remove_stale(target), 1);
    ck_assert_int_ne(access(dead, F_OK), 0);
    ck_assert_int_eq(access(mine, F_OK), 0);   /* a live process's stays */
    free(mine);
}
END_TEST

/* Runs in a child: guards a file, then gets SIGINT. */
START_TEST(a_signal_while_writing_removes_the_temporary)
{
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%s/x.h5.tmp", tmpdir);
    for (int k = 0; k < 2; k++) {
        int sig = k ? SIGTERM : SIGINT;
        pid_t child = fork();
        if (child == 0) {
            outfile_handle_signals();
            outfile_guard(tmp);
            FILE *f = fopen(tmp, "w");
            fputs("partial", f);
            fflush(f);
            raise(sig);
            _exit(99);                       /* not reached */
        }
        int st;
        ck_assert_int_eq(waitpid(child, &st, 0), child);
        ck_assert(WIFEXITED(st));
        ck_assert_int_eq(WEXITSTATUS(st), 128 + sig);
        ck_assert_int_ne(access(tmp, F_OK), 0);
    }
}
END_TEST

/* ---- 12.11: the derived watchdog ---- */

static sim_time bound_with(const char *a, const char *b)
{
    const char *sets[2] = { a, b };
    struct config *c = config_load(NULL, sets, b ? 2 : (a ? 1 : 0), NULL);
    ck_assert_ptr_nonnull(c);
    sim_time t = system_latency_bound(c);
    config_free(c);
    return t;
}

START_TEST(watchdog_covers_each_configured_latency)
{
    sim_time base = bound_with(NULL, NULL);
    /* Each time-valued latency counts once: +1 s of fault latency is +1 s
     * minus the default 20 us. */
    ck_assert_uint_eq(bound_with("driver.fault_latency=1s", NULL) - base,
                      1000000000000ULL - 20000000ULL);
    /* Shootdown cycles at the 1.4 GHz core clock (714 ps period): 1e9
     * cycles instead of 100. */
    ck_assert_uint_eq(bound_with("tlb.shootdown.cycles=1000000000", NULL) - base,
                      (1000000000ULL - 100) * 714);
    /* A 2 MiB block on the wire twice: 8192 packets of 256 B payload + 24 B
     * header = 2293760 B; at 16 GB/s that is 143.36 us, at 8 GB/s 286.72 us:
     * halving the bandwidth adds 2 x 143.36 us. */
    ck_assert_uint_eq(bound_with("link.bandwidth=8GB/s", NULL) - base, 286720000ULL);
    /* Fault and block costs count once per entry of a batch (256). */
    ck_assert_uint_eq(bound_with("driver.fault_cost=1us", NULL) - base, 256 * 1000000ULL + 1000000ULL);
    /* A default watchdog is 10 ms plus the bound; one the user set is
     * used as given. */
    struct config *c = config_load(NULL, NULL, 0, NULL);
    ck_assert_uint_eq(system_watchdog(c), 10000000000ULL + base);
    config_free(c);
    const char *sets[] = { "sim.watchdog=10ms" };
    c = config_load(NULL, sets, 1, NULL);
    ck_assert_uint_eq(system_watchdog(c), 10000000000ULL);
    config_free(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("robust");
    TCase *t = tcase_create("robust");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_set_timeout(t, 60);
    tcase_add_test(t, escape_keeps_one_printable_line);
    tcase_add_test(t, utf8_validation);
    tcase_add_test(t, user_error_is_escaped_and_runs_cleanups);
    tcase_add_test(t, cross_key_error_names_the_key_the_user_set);
    tcase_add_test(t, component_errors_are_located_by_the_keys_they_name);
    tcase_add_test(t, show_check_show_is_identity);
    tcase_add_test(t, values_that_are_not_utf8_are_refused);
    tcase_add_test(t, mtx_entry_count_2e61_is_refused_at_the_header);
    tcase_add_test(t, edge_list_vertex_ids_are_bounded_by_host_memory);
    tcase_add_test(t, trace_lines_of_any_length);
    tcase_add_test(t, only_regular_files_are_replaced);
    tcase_add_test(t, stale_temporaries_of_dead_processes_are_removed);
    tcase_add_test(t, a_signal_while_writing_removes_the_temporary);
    tcase_add_test(t, watchdog_covers_each_configured_latency);
    suite_add_tcase(s, t);
    return run_suite(s);
}

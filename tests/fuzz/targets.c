/* Fuzz targets: each takes the bytes of one input file (or command line)
 * and runs the parser that reads it, as `uvmsim` would.  User errors --
 * user_error(), which exits 2 in the program -- come back here through
 * user_error_set_handler and a longjmp; the cleanups the parsers push
 * (user_error_push_cleanup) have closed their files and freed their memory
 * by then, so leak detection stays on. */
#define _GNU_SOURCE 1
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "targets.h"
#include "config/config.h"
#include "cli/cli.h"
#include "cli/trace_opts.h"
#include "dram/dram.h"
#include "driver/evict/evict.h"
#include "out/results.h"
#include "sweep/sweep_int.h"
#include "workloads/graph.h"
#include "workloads/trace.h"
#include "report/report.h"

const char *const fuzz_target_names[] = {
    "config", "sets", "nvbit", "bintrace", "pagetrace", "dramtrace", "mtx", "edgelist", "accelsim",
    "step", "traceopts", "report", "sweepfile", "sweepdir", NULL,
};

/* ---- user errors as outcomes ---- */

static jmp_buf jb;
static bool strict;              /* a user error now is a bug (abort) */

static void on_user_error(const char *line)
{
    /* The one-line promise (12.9): escaping leaves no control character. */
    for (const unsigned char *p = (const unsigned char *)line; *p; p++)
        if (*p < 0x20 || *p == 0x7f) {
            fprintf(stderr, "fuzz: control character in a user error: %s\n", line);
            abort();
        }
    if (strict) {
        fprintf(stderr, "fuzz: unexpected user error: %s\n", line);
        abort();
    }
    longjmp(jb, 1);
}

/* ---- files the parsers read ---- */

static char dir[256];

/* Removes every file in DIR/SUB (no deeper: the sweep directory's
 * sub-directories hold only files). */
static void empty_dir(const char *sub)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, sub);
    DIR *d = opendir(p);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        snprintf(p, sizeof p, "%s/%s/%s", dir, sub, e->d_name);
        unlink(p);
    }
    if (d) closedir(d);
}

static void remove_dir(void)
{
    static const char *const names[] = { "main.yaml", "base.yaml", "rt.yaml", "in.txt",
                                         "in.bin", "conv.bin", "in.mtx", "in.el", "kernelslist.g",
                                         "kernel-1.traceg", "kernel-1.traceg.xz", "allocs.txt",
                                         "sweep.yaml" };
    static const char *const subs[] = { "sd/points", "sd/configs", "sd/logs", "sd" };
    char p[400];
    for (size_t i = 0; i < sizeof subs / sizeof *subs; i++) {
        empty_dir(subs[i]);
        snprintf(p, sizeof p, "%s/%s", dir, subs[i]);
        rmdir(p);
    }
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

static void init_once(void)
{
    if (dir[0]) return;
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/uvmsim-fuzz-XXXXXX", t && t[0] ? t : "/tmp");
    if (!mkdtemp(dir)) { perror("fuzz: mkdtemp"); abort(); }
    atexit(remove_dir);
    user_error_set_handler(on_user_error);
    /* Inputs may ask for any size; what a machine cannot hold is a user
     * error.  A small bound keeps every input fast. */
    host_memory_set_limit(16ULL << 20);
}

static const char *path_of(const char *name)
{
    static char p[4][400];
    static int slot;
    char *s = p[slot++ % 4];
    snprintf(s, sizeof p[0], "%s/%s", dir, name);
    return s;
}

static void put_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror("fuzz: writing an input");
        abort();
    }
}

/* ---- config: YAML with base:, and -s strings ---- */

/* 12.8: what `config show` writes loads back to the same text. */
static void round_trip(struct config *c)
{
    char *y1 = config_to_yaml(c);
    const char *rt = path_of("rt.yaml");
    put_file(rt, (const uint8_t *)y1, strlen(y1));
    struct cfg_error err;
    struct config *c2 = config_load(rt, NULL, 0, &err);
    if (!c2) {
        fprintf(stderr, "fuzz: config show output does not load: %s\n", err.msg);
        abort();
    }
    char *y2 = config_to_yaml(c2);
    if (strcmp(y1, y2)) {
        fprintf(stderr, "fuzz: config show -> load -> show differs\n");
        abort();
    }
    free(y1);
    free(y2);
    config_free(c2);
}

#define BASE_MARK "\n#---base---\n"

static int run_config(const uint8_t *data, size_t size)
{
    /* Bytes after the mark are base.yaml (which main.yaml may name). */
    const uint8_t *mark = memmem(data, size, BASE_MARK, strlen(BASE_MARK));
    size_t lm = mark ? (size_t)(mark - data) : size;
    put_file(path_of("main.yaml"), data, lm);
    if (mark) {
        size_t off = lm + strlen(BASE_MARK);
        put_file(path_of("base.yaml"), data + off, size - off);
    } else {
        put_file(path_of("base.yaml"), (const uint8_t *)"sim:\n  seed: 3\n", 15);
    }
    struct cfg_error err;
    struct config *c = config_load(path_of("main.yaml"), NULL, 0, &err);
    if (!c) return 1;
    round_trip(c);
    config_free(c);
    return 0;
}

static int run_sets(const uint8_t *data, size_t size)
{
    /* One -s per line, at most 64; a NUL ends the input (argv cannot hold one). */
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    const char *sets[64];
    size_t n = 0;
    for (char *p = text, *nl; n < 64 && p; p = nl ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        if (nl) *nl = 0;
        if (nl || *p) sets[n++] = p;        /* no set after a final newline */
    }
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    int rc = 1;
    if (c) {
        round_trip(c);
        config_free(c);
        rc = 0;
    }
    free(text);
    return rc;
}

/* ---- traces ---- */

/* Replays a binary trace the way the SMs would ask for it, bounded: the
 * first 8 kernels, 16 blocks each, 32 warps per block, 256 records per
 * warp. */
static int drive_sets(const char *const *sets, size_t nsets)
{
    struct cfg_error err;
    struct config *volatile cfg = config_load(NULL, sets, nsets, &err);
    if (!cfg) { fprintf(stderr, "fuzz: %s\n", err.msg); abort(); }
    struct workload *volatile wl = NULL;
    int rc = 0;
    if (setjmp(jb) == 0) {
        wl = workload_create(cfg);
        struct wl_step st;
        for (int k = 0; k < 8 && wl_next_step(wl, &st); k++) {
            if (st.kind != WL_STEP_KERNEL) continue;
            const struct wl_kernel *kn = &st.kernel;
            uint64_t nb = (uint64_t)kn->grid.x * kn->grid.y * kn->grid.z;
            uint64_t thr = (uint64_t)kn->block.x * kn->block.y * kn->block.z;
            uint64_t wpb = (thr + WARP_SIZE - 1) / WARP_SIZE;
            for (uint64_t b = 0; b < nb && b < 16; b++)
                for (uint64_t w = 0; w < wpb && w < 32; w++) {
                    struct warp_ctx ctx = { .k = kn, .block = b, .warp = (uint32_t)w,
                                            .threads = WARP_SIZE };
                    struct warp_inst in;
                    wl_warp_start(wl, &ctx);
                    for (int i = 0; i < 256; i++) {
                        wl_next_inst(wl, &ctx, &in);
                        if (in.op == INST_EXIT) break;
                    }
                }
        }
    } else {
        rc = 1;
    }
    workload_free(wl);
    config_free(cfg);
    return rc;
}

static int drive_trace(const char *path)
{
    char file[512];
    snprintf(file, sizeof file, "workload.trace.file=%s", path);
    const char *sets[] = { "workload.kind=trace", file };
    return drive_sets(sets, 2);
}

/* ---- Accel-Sim traces: one kernel trace (plain, or xz when it starts
 * with xz's magic), then optionally the command list and the allocations
 * side file after their marks. ---- */

#define LIST_MARK "\n#---list---\n"
#define ALLOCS_MARK "\n#---allocs---\n"

static int run_accelsim(const uint8_t *data, size_t size)
{
    const uint8_t *lm = memmem(data, size, LIST_MARK, strlen(LIST_MARK));
    const uint8_t *am = memmem(data, size, ALLOCS_MARK, strlen(ALLOCS_MARK));
    size_t kend = lm ? (size_t)(lm - data) : am ? (size_t)(am - data) : size;
    if (am && lm && am < lm) kend = (size_t)(am - data);
    bool xz = kend >= 6 && !memcmp(data, "\xfd" "7zXZ\0", 6);
    const char *kname = xz ? "kernel-1.traceg.xz" : "kernel-1.traceg";
    unlink(path_of("kernel-1.traceg"));
    unlink(path_of("kernel-1.traceg.xz"));
    put_file(path_of(kname), data, kend);
    if (lm) {
        size_t off = (size_t)(lm - data) + strlen(LIST_MARK);
        size_t end = am && am > lm ? (size_t)(am - data) : size;
        if (end < off) end = off;       /* the marks overlap: "...---\n" is both */
        put_file(path_of("kernelslist.g"), data + off, end - off);
    } else {
        char l[128];
        int n = snprintf(l, sizeof l, "MemcpyHtoD,0x00007f0000000000,4096\n%s\n", kname);
        put_file(path_of("kernelslist.g"), (const uint8_t *)l, (size_t)n);
    }
    char file[512], allocs[512];
    snprintf(file, sizeof file, "workload.accelsim.file=%s", path_of("kernelslist.g"));
    if (am) {
        size_t off = (size_t)(am - data) + strlen(ALLOCS_MARK);
        size_t end = lm && lm > am ? (size_t)(lm - data) : size;
        if (end < off) end = off;
        put_file(path_of("allocs.txt"), data + off, end - off);
        snprintf(allocs, sizeof allocs, "workload.accelsim.allocs=%s", path_of("allocs.txt"));
    } else {
        snprintf(allocs, sizeof allocs, "workload.accelsim.allocs=");
    }
    const char *sets[] = { "workload.kind=accelsim", file, allocs };
    return drive_sets(sets, 3);
}

static int run_bintrace(const uint8_t *data, size_t size)
{
    const char *p = path_of("in.bin");
    put_file(p, data, size);
    return drive_trace(p);
}

static int run_nvbit(const uint8_t *data, size_t size)
{
    const char *in = path_of("in.txt"), *out = path_of("conv.bin");
    put_file(in, data, size);
    FILE *volatile f = fopen(out, "w+b");
    if (!f) { perror("fuzz: conv.bin"); abort(); }
    if (setjmp(jb) != 0) {
        fclose(f);
        return 1;
    }
    trace_convert(in, f, NULL);
    fclose(f);
    /* What the converter writes, the reader reads: a user error now is a
     * bug of one of the two. */
    strict = true;
    drive_trace(out);
    strict = false;
    return 0;
}

static int run_pagetrace(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f) return 1;                   /* fmemopen refuses size 0 */
    uint64_t *refs = NULL;
    bool *writes = NULL;
    size_t n;
    char err[512];
    int rc = page_trace_read(f, "fuzz.pages", &refs, &writes, &n, err, sizeof err);
    fclose(f);
    if (rc) return 1;
    free(refs);
    free(writes);
    return 0;
}

static int run_dramtrace(const uint8_t *data, size_t size)
{
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f) return 1;
    struct dram_replay_req *reqs;
    size_t n;
    char err[512];
    bool ok = dram_replay_parse(f, "fuzz.trace", &reqs, &n, err, sizeof err);
    fclose(f);
    if (!ok) return 1;
    free(reqs);
    return 0;
}

/* ---- graphs ---- */

static int run_graph(const uint8_t *data, size_t size, bool mtx)
{
    const char *p = path_of(mtx ? "in.mtx" : "in.el");
    put_file(p, data, size);
    if (setjmp(jb) != 0) return 1;
    bool und = size % 2;                /* both CSR shapes */
    struct graph *g = mtx ? graph_read_mtx(p, "fuzz", und) : graph_read_edgelist(p, "fuzz", und);
    graph_free(g);
    return 0;
}

/* ---- the stepper's command line ---- */

/* The students' tour machine (configs/tour.yaml: one SM, one warp, four
 * pages, two frames), so that every command, `run` and `restart`
 * included, takes milliseconds; sim.max_events bounds any run. */
static const char *const step_sets[] = {
    "gpu.sms=1", "gpu.memory.capacity=8KiB", "dram.channels=2", "host.dram.channels=1",
    "driver.fault_latency=2us", "workload.kind=stream", "workload.stream.footprint=16KiB",
    "workload.stream.lane_stride=128B", "workload.stream.block=32", "workload.stream.grid=1",
    "workload.stream.passes=1", "sim.max_events=200000",
};

/* The input is what a user pipes into `uvmsim step` (an odd length: typed
 * on a terminal, with prompts and the empty line repeating the last).
 * A user error or a panic here is a bug (the stepper answers every line);
 * so is a control byte in its answer but the newlines (issue 38). */
static int run_step(const uint8_t *data, size_t size)
{
    struct cfg_error err;
    struct config *cfg = config_load(NULL, step_sets, sizeof step_sets / sizeof *step_sets, &err);
    if (!cfg) { fprintf(stderr, "fuzz: step config: %s\n", err.msg); abort(); }
    static const char nothing[1];
    FILE *in = fmemopen(size ? (void *)data : (void *)nothing, size ? size : 1, "r");
    if (!in) { perror("fuzz: fmemopen"); abort(); }
    if (!size) getc(in);                /* fmemopen refuses size 0: an empty input */
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    strict = true;
    struct stepper *st = stepper_new(cfg);
    stepper_session(st, in, out, size % 2);
    stepper_free(st);
    strict = false;
    fclose(out);
    fclose(in);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if ((c < 0x20 && c != '\n') || c == 0x7f) {
            fprintf(stderr, "fuzz: control byte 0x%02x in the stepper's output at %zu\n", c, i);
            abort();
        }
    }
    free(text);
    config_free(cfg);
    return 0;
}

/* ---- the trace options of `run` ---- */

/* The input is argv, one word a line (at most 64; a NUL ends it).  A last
 * word CONFIG follows, as `uvmsim run` always has one: every option has a
 * value to take (a missing one is a usage error that prints the usage and
 * exits, outside this harness).  Then the trace against the result. */
static int run_traceopts(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = 0;
    char *argv[66];
    int argc = 0;
    for (char *p = text, *nl; argc < 64 && p; p = nl ? nl + 1 : NULL) {
        nl = strchr(p, '\n');
        if (nl) *nl = 0;
        if (nl || *p) argv[argc++] = p;
    }
    argv[argc++] = "CONFIG";
    int n0 = argc, rc = 1;
    struct trace_opts t;
    if (setjmp(jb) == 0) {
        int n = trace_opts_take(argc, argv, &t, "usage: fuzz\n");
        /* What is left are the words that are not trace options (CONFIG
         * too unless an option took it as its value); a window is never
         * empty or reversed; options need --trace. */
        if (n < 0 || n > n0 || t.t1 <= t.t0 ||
            (!t.path && (t.t0 || t.t1 != TIME_NEVER))) {
            fprintf(stderr, "fuzz: trace options: %d words left of %d, window %llu:%llu\n", n, n0,
                    (unsigned long long)t.t0, (unsigned long long)t.t1);
            abort();
        }
        static const char *const names[] = { "--trace", "--trace-window", "--trace-what", "--trace-max" };
        for (int i = 0; i < n; i++)
            for (size_t j = 0; j < 4; j++)
                if (!strcmp(argv[i], names[j])) {
                    fprintf(stderr, "fuzz: option %s left in argv\n", argv[i]);
                    abort();
                }
        trace_opts_check_out(&t, path_of("out.h5"), "the result -o");
        trace_opts_check_out(&t, "out.h5", "the result -o");
        rc = 0;
    }
    free(text);
    return rc;
}

/* ---- the report's HDF5 reader ---- */

/* A result or a merged sweep, read from memory through HDF5's core driver
 * (no file), its page written to /dev/null.  The last byte picks the
 * sweep page's options (a run's page refuses them: a user error too). */
static int run_report(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w"))) { perror("fuzz: /dev/null"); abort(); }
    static const struct report_opts opts[] = {
        { NULL, NULL }, { "none", NULL }, { "driver.eviction=fifo", NULL }, { NULL, "driver.eviction" },
    };
    const struct report_opts *o = &opts[size ? data[size - 1] % 4 == 3 ? data[size - 1] / 4 % 4 : 0 : 0];
    char err[1024];
    int rc = report_write_image(data, size, "fuzz.h5", o, sink, err, sizeof err);
    if (rc != 0 && rc != 2) { fprintf(stderr, "fuzz: report exit %d: %s\n", rc, err); abort(); }
    if (rc && (strchr(err, '\n') || !err[0])) { fprintf(stderr, "fuzz: report error not one line\n"); abort(); }
    return rc ? 1 : 0;
}

/* ---- sweeps: the sweep file, and a sweep directory's state ---- */

/* 12.9 for sweeps: a point name is a file name under DIR/points. */
static void check_name(const char *name)
{
    if (!sweep_name_ok(name)) {
        fprintf(stderr, "fuzz: point name '%s' is no file name\n", name);
        abort();
    }
}

static int run_sweepfile(const uint8_t *data, size_t size)
{
    /* As config: bytes after the mark are base.yaml (base: names it). */
    const uint8_t *mark = memmem(data, size, BASE_MARK, strlen(BASE_MARK));
    size_t lm = mark ? (size_t)(mark - data) : size;
    put_file(path_of("sweep.yaml"), data, lm);
    if (mark) {
        size_t off = lm + strlen(BASE_MARK);
        put_file(path_of("base.yaml"), data + off, size - off);
    } else {
        put_file(path_of("base.yaml"), (const uint8_t *)"sim:\n  seed: 3\n", 15);
    }
    if (setjmp(jb) != 0) return 1;
    struct cfg_error err;
    struct sweep *s = sweep_load(path_of("sweep.yaml"), NULL, 0, &err);
    if (!s) return 1;
    if (s->npoints == 0 || s->npoints > s->ncombos) {
        fprintf(stderr, "fuzz: %zu points of %zu combinations\n", s->npoints,
                s->ncombos);
        abort();
    }
    for (size_t i = 0; i < s->npoints; i++) check_name(s->points[i].name);
    /* What a point runs loads back as a config (strict: a user error now
     * is a bug) and hashes as the plan says. */
    char *yaml = sweep_point_yaml(s, 0);
    put_file(path_of("rt.yaml"), (const uint8_t *)yaml, strlen(yaml));
    strict = true;
    struct config *c = config_load(path_of("rt.yaml"), NULL, 0, &err);
    strict = false;
    if (!c || results_yaml_hash(yaml) != sweep_point_hash(s, 0)) {
        fprintf(stderr, "fuzz: point 0's config does not load back: %s\n",
                c ? "hash" : err.msg);
        abort();
    }
    config_free(c);
    free(yaml);
    sweep_free(s);
    return 0;
}

#define POINT_MARK "\n#---point---\n"

/* The sweep reads a result in a child process first, so that libhdf5
 * crashing on a damaged file makes it unreadable (sweep_valid.c).  Such a
 * crash is the child's outcome, not this process's: there the sanitizers
 * end it quietly instead of reporting (and libFuzzer keeping) a crash. */
extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));

static void child_dies_quietly(void) { _exit(2); }

static void quiet_child(void)
{
    int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0) dup2(fd, 2);
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(child_dies_quietly);
}

static int run_sweepdir(const uint8_t *data, size_t size)
{
    /* DIR/plan.tsv; after the mark, the first point's result file. */
    sweep_check_child_hook = quiet_child;
    static const char *const subs[] = { "sd", "sd/points", "sd/configs", "sd/logs" };
    for (size_t i = 0; i < 4; i++) {
        if (i) empty_dir(subs[i]);
        mkdir(path_of(subs[i]), 0755);
    }
    empty_dir("sd");
    const uint8_t *mark = memmem(data, size, POINT_MARK, strlen(POINT_MARK));
    size_t lm = mark ? (size_t)(mark - data) : size;
    put_file(path_of("sd/plan.tsv"), data, lm);
    if (setjmp(jb) != 0) return 1;
    char err[1024];
    struct sweep_dir *d = sweep_dir_open(path_of("sd"), false, false, err, sizeof err);
    if (!d) return 1;
    struct sweep_plan *p = sweep_plan_read(d, err, sizeof err);
    if (!p) {
        sweep_dir_close(d);
        return 1;
    }
    if (!p->npoints) { fprintf(stderr, "fuzz: a plan without points\n"); abort(); }
    for (size_t i = 0; i < p->npoints; i++) {
        check_name(p->names[i]);
        for (size_t a = 0; a < p->naxes; a++)
            if (p->vi[i][a] >= p->nvals[a]) {
                fprintf(stderr, "fuzz: point %zu: value %zu of %zu\n", i,
                        p->vi[i][a], p->nvals[a]);
                abort();
            }
    }
    if (mark) {
        size_t off = lm + strlen(POINT_MARK);
        char rp[600];
        snprintf(rp, sizeof rp, "%s/points/%s.h5", path_of("sd"), p->names[0]);
        put_file(rp, data + off, size - off);
    }
    sweep_plan_free(p);
    /* The merge reads the plan again, every point's state and result. */
    FILE *out = fopen("/dev/null", "w");
    int rc = sweep_merge(d, out, err, sizeof err);
    fclose(out);
    sweep_dir_close(d);
    if (rc == SWEEP_MERGE_BAD_PLAN) {
        fprintf(stderr, "fuzz: a plan read once does not read again: %s\n", err);
        abort();
    }
    return rc < 0;
}

int fuzz_run(const char *target, const uint8_t *data, size_t size)
{
    init_once();
    if (!strcmp(target, "config")) return run_config(data, size);
    if (!strcmp(target, "sets")) return run_sets(data, size);
    if (!strcmp(target, "nvbit")) return run_nvbit(data, size);
    if (!strcmp(target, "bintrace")) return run_bintrace(data, size);
    if (!strcmp(target, "pagetrace")) return run_pagetrace(data, size);
    if (!strcmp(target, "dramtrace")) return run_dramtrace(data, size);
    if (!strcmp(target, "mtx")) return run_graph(data, size, true);
    if (!strcmp(target, "edgelist")) return run_graph(data, size, false);
    if (!strcmp(target, "accelsim")) return run_accelsim(data, size);
    if (!strcmp(target, "step")) return run_step(data, size);
    if (!strcmp(target, "traceopts")) return run_traceopts(data, size);
    if (!strcmp(target, "report")) return run_report(data, size);
    if (!strcmp(target, "sweepfile")) return run_sweepfile(data, size);
    if (!strcmp(target, "sweepdir")) return run_sweepdir(data, size);
    return -1;
}

/* Traces: NVBit text -> binary -> replay gives every warp exactly the
 * instruction stream the text recorded for it (relocated range by range);
 * the record codec round-trips; damaged inputs exit 2. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/config.h"
#include "workloads/workload.h"
#include "workloads/trace.h"

/* The trace: kernel 0 (LAUNCH line, grid 2x2, 96 threads = 3 warps, NVBit
 * hardware warp slots 8..10) and kernel 1 (no LAUNCH line: grid and block
 * inferred, 1x1 grid, warp ids 0..1).  Each warp issues NI instructions;
 * lines of all warps interleave.  Addresses fall in two regions far apart:
 * R0 spans two 2 MiB blocks, R1 one block. */
#define NI 6
#define R0 0x7f0000200000ULL
#define R1 0x7fff80000000ULL

struct want { uint64_t kernel, block; uint32_t warp; struct warp_inst in[NI]; };
static struct want wants[16];
static int nwants;

static const char *const opcodes[] = { "LDG.E", "STG.E.64", "ATOM.E.ADD", "LDG.E.128", "RED.E.ADD.U8", "ST.E.16" };
static const enum inst_op ops[] = { INST_LOAD, INST_STORE, INST_ATOMIC, INST_LOAD, INST_ATOMIC, INST_STORE };
static const uint32_t sizes[] = { 4, 8, 4, 16, 1, 2 };

static uint64_t addr_of(int w, int i, int l)
{
    /* lane pattern: coalesced, reversed, scattered across R0's two blocks,
     * and into R1 */
    switch (i % 4) {
    case 0: return R0 + 0x1000 * (uint64_t)w + 4 * (uint64_t)l;
    case 1: return R0 + 0x3ff000 - 64 * (uint64_t)l;
    case 2: return R0 + ((uint64_t)(l * 2654435761u) % 0x3ffff0);
    default: return R1 + 0x100 * (uint64_t)w + 8 * (uint64_t)l;
    }
}

static char *write_text(void)
{
    static char path[64];
    strcpy(path, "/tmp/uvmsim-traceXXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "application says hello\n");
    fprintf(f, "MEMTRACE: CTX 0x00005a5a - LAUNCH - Kernel pc 0x7f1234 - Kernel name k0 - "
               "grid launch id 0 - grid size 2,2,1 - block size 96,1,1 - nregs 24 - shmem 0 - "
               "cuda stream id 0\n");
    nwants = 0;
    /* kernel 0: 4 CTAs x 3 warps; kernel 1: 2 warps */
    for (int k = 0; k < 2; k++) {
        int nw = k == 0 ? 12 : 2;
        for (int w = 0; w < nw; w++) {
            struct want *x = &wants[nwants + w];
            x->kernel = (uint64_t)k;
            x->block = k == 0 ? (uint64_t)(w / 3) : 0;
            x->warp = k == 0 ? (uint32_t)(w % 3) : (uint32_t)w;
        }
        for (int i = 0; i < NI; i++) {
            for (int w = 0; w < nw; w++) {
                struct want *x = &wants[nwants + w];
                struct warp_inst *in = &x->in[i];
                memset(in, 0, sizeof *in);
                in->op = ops[(i + w) % 6];
                in->size = sizes[(i + w) % 6];
                in->active = (i + w) % 3 == 0 ? 0xffffffffu : (i + w) % 3 == 1 ? 0x0000ffffu : 0x80000001u;
                unsigned cx = (unsigned)(x->block % 2), cy = (unsigned)(x->block / 2);
                fprintf(f, "MEMTRACE: CTX 0x00005a5a - grid_launch_id %d - CTA %u,%u,0 - warp %u - %s%s - ",
                        k, cx, cy, k == 0 ? x->warp + 8 : x->warp, i == 1 ? "PC 1234 - " : "",
                        opcodes[(i + w) % 6]);
                for (int l = 0; l < WARP_SIZE; l++) {
                    uint64_t a = in->active >> l & 1 ? addr_of(w, i, l) : 0;
                    in->addr[l] = a;
                    fprintf(f, " 0x%016llx", (unsigned long long)a);
                }
                fprintf(f, "\n");
                if (w == 0 && i == 2)   /* shared-memory access: not replayed */
                    fprintf(f, "MEMTRACE: CTX 0x00005a5a - grid_launch_id %d - CTA 0,0,0 - warp 0 - LDS - %s\n",
                            k, "0x0000000000000010 0x0000000000000000 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 "
                               "0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0 0x0");
            }
        }
        nwants += nw;
    }
    fclose(f);
    return path;
}

static struct workload *replay(const char *file)
{
    char set[128];
    snprintf(set, sizeof set, "workload.trace.file=%s", file);
    const char *sets[] = { "workload.kind=trace", set };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, 2, &err);
    if (!c) ck_abort_msg("%s", err.msg);
    struct workload *wl = workload_create(c);
    config_free(c);
    return wl;
}

/* Expected relocation: R0's two blocks form range 0, R1's block range 1;
 * each keeps its offset within the range. */
static uint64_t reloc(const struct workload *wl, uint64_t a)
{
    if (a >= R1) return wl->allocs[1].base + (a - R1);
    return wl->allocs[0].base + (a - R0);
}

static void check_replay(struct workload *wl)
{
    ck_assert_uint_eq(wl->nallocs, 2);
    ck_assert_uint_eq(wl->allocs[0].size, 2 * WL_ALLOC_ALIGN);
    ck_assert_uint_eq(wl->allocs[1].size, WL_ALLOC_ALIGN);
    struct wl_kernel k;
    for (int kn = 0; kn < 2; kn++) {
        ck_assert(wl_next_kernel(wl, &k));
        if (kn == 0) {
            ck_assert_str_eq(k.name, "k0");
            ck_assert_uint_eq(k.grid.x, 2); ck_assert_uint_eq(k.grid.y, 2);
            ck_assert_uint_eq(k.block.x, 96);
            ck_assert_uint_eq(k.regs_per_thread, 24);
        } else {
            ck_assert_uint_eq(k.grid.x * k.grid.y * k.grid.z, 1);
            ck_assert_uint_eq(k.block.x, 64);
        }
        /* warps in reverse order, one instruction at a time each */
        struct warp_ctx w[16];
        int n = 0;
        for (int i = nwants - 1; i >= 0; i--) {
            if (wants[i].kernel != (uint64_t)kn) continue;
            w[n] = (struct warp_ctx){ .k = &k, .block = wants[i].block, .warp = wants[i].warp,
                                      .threads = 32, .s = { 0 } };
            wl_warp_start(wl, &w[n]);
            n++;
        }
        for (int i = 0; i <= NI; i++)
            for (int j = 0, wi = nwants - 1; j < n; j++, wi--) {
                while (wants[wi].kernel != (uint64_t)kn) wi--;
                struct warp_inst got;
                memset(&got, 0, sizeof got);
                wl_next_inst(wl, &w[j], &got);
                if (i == NI) { ck_assert_int_eq(got.op, INST_EXIT); continue; }
                const struct warp_inst *e = &wants[wi].in[i];
                ck_assert_int_eq(got.op, e->op);
                ck_assert_uint_eq(got.size, e->size);
                ck_assert_uint_eq(got.active, e->active);
                for (int l = 0; l < WARP_SIZE; l++)
                    if (e->active >> l & 1 && got.addr[l] != reloc(wl, e->addr[l]))
                        ck_abort_msg("kernel %d warp %d inst %d lane %d: 0x%llx", kn, wi, i, l,
                                     (unsigned long long)got.addr[l]);
            }
        /* a warp the trace never saw (block 3 of kernel 0 has warps 0..2
         * only) exits at once */
        struct warp_ctx none = { .k = &k, .block = 0, .warp = 5, .threads = 32 };
        wl_warp_start(wl, &none);
        struct warp_inst x;
        wl_next_inst(wl, &none, &x);
        ck_assert_int_eq(x.op, INST_EXIT);
    }
    ck_assert(!wl_next_kernel(wl, &k));
}

START_TEST(text_to_binary_to_replay_identical)
{
    char *txt = write_text();
    char bin[80];
    snprintf(bin, sizeof bin, "%s.bin", txt);
    wl_trace_convert(txt, bin);
    struct workload *wl = replay(bin);
    check_replay(wl);
    workload_free(wl);
    /* the text file replays directly the same way */
    wl = replay(txt);
    check_replay(wl);
    workload_free(wl);
    /* the binary is smaller than the text by far */
    FILE *a = fopen(txt, "r"), *b = fopen(bin, "r");
    fseek(a, 0, SEEK_END); fseek(b, 0, SEEK_END);
    ck_assert_int_lt(ftell(b) * 10, ftell(a));
    fclose(a); fclose(b);
    unlink(txt);
    unlink(bin);
}
END_TEST

/* One warp with records spanning many 4 KiB read windows (scattered lanes
 * take up to ~100 bytes a record): replay still matches, record by record,
 * across window refills and a record cut by a window's end. */
START_TEST(long_warp_across_windows)
{
    char path[64];
    strcpy(path, "/tmp/uvmsim-longXXXXXX");
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    enum { N = 400 };
    static uint64_t want[N][WARP_SIZE];
    uint64_t x = 99;
    for (int i = 0; i < N; i++) {
        fprintf(f, "MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA 0,0,0 - warp 0 - LDG.E -");
        for (int l = 0; l < WARP_SIZE; l++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            want[i][l] = R0 + (i % 7 == 0 ? 4 * (uint64_t)l : (x >> 20) % 0x1fff00);
            fprintf(f, " 0x%016llx", (unsigned long long)want[i][l]);
        }
        fprintf(f, "\n");
    }
    fclose(f);
    char bin[80];
    snprintf(bin, sizeof bin, "%s.bin", path);
    wl_trace_convert(path, bin);
    struct workload *wl = replay(bin);
    struct wl_kernel k;
    ck_assert(wl_next_kernel(wl, &k));
    struct warp_ctx w = { .k = &k, .block = 0, .warp = 0, .threads = 32 };
    wl_warp_start(wl, &w);
    struct warp_inst in;
    for (int i = 0; i < N; i++) {
        wl_next_inst(wl, &w, &in);
        ck_assert_int_eq(in.op, INST_LOAD);
        for (int l = 0; l < WARP_SIZE; l++)
            if (in.addr[l] != wl->allocs[0].base + (want[i][l] - R0))
                ck_abort_msg("record %d lane %d", i, l);
    }
    wl_next_inst(wl, &w, &in);
    ck_assert_int_eq(in.op, INST_EXIT);
    FILE *b = fopen(bin, "r");
    fseek(b, 0, SEEK_END);
    ck_assert_int_gt(ftell(b), 8 * 4096);   /* really several windows */
    fclose(b);
    workload_free(wl);
    unlink(path);
    unlink(bin);
}
END_TEST

/* Deltas of every sign and size survive the varint encoding. */
START_TEST(record_codec_round_trips)
{
    struct warp_inst in = { .op = INST_STORE, .size = 8, .active = 0xa5a5f00f }, out;
    uint64_t x = 0x123456789abcdefULL;
    for (int l = 0; l < WARP_SIZE; l++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        in.addr[l] = l % 5 == 0 ? UINT64_MAX - (uint64_t)l : l % 5 == 1 ? (uint64_t)l : x;
    }
    uint8_t buf[TRACE_MAX_RECORD];
    size_t n = trace_encode(&in, buf);
    ck_assert_uint_le(n, TRACE_MAX_RECORD);
    memset(&out, 0, sizeof out);
    ck_assert_uint_eq(trace_decode(buf, n, &out), n);
    ck_assert_int_eq(out.op, in.op);
    ck_assert_uint_eq(out.active, in.active);
    for (int l = 0; l < WARP_SIZE; l++)
        if (in.active >> l & 1) ck_assert_uint_eq(out.addr[l], in.addr[l]);
    ck_assert_uint_eq(trace_decode(buf, n - 1, &out), 0);   /* truncated record */
    buf[0] = 7;
    ck_assert_uint_eq(trace_decode(buf, n, &out), 0);       /* bad opcode */
}
END_TEST

/* Named in the parent (setup fixture) so the parent can remove it after
 * the forked test exits. */
static char damaged[96];

/* Converts the test trace, then cuts CUT bytes off the end or, POKE > 0,
 * overwrites the POKE-th byte from the end with VALUE. */
static void make_damaged(long cut, long poke, int value)
{
    char *txt = write_text();
    wl_trace_convert(txt, damaged);
    unlink(txt);
    FILE *f = fopen(damaged, "r+b");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    if (poke > 0) { fseek(f, size - poke, SEEK_SET); fputc(value, f); }
    fclose(f);
    if (cut) ck_assert_int_eq(truncate(damaged, size - cut), 0);
}

static void run_all(const char *file)
{
    struct workload *wl = replay(file);
    struct wl_kernel k;
    while (wl_next_kernel(wl, &k)) {
        struct warp_ctx w = { .k = &k, .threads = 32 };
        for (w.block = 0; w.block < (uint64_t)k.grid.x * k.grid.y; w.block++)
            for (w.warp = 0; w.warp < k.block.x / 32; w.warp++) {
                struct warp_inst in;
                wl_warp_start(wl, &w);
                do wl_next_inst(wl, &w, &in); while (in.op != INST_EXIT);
            }
    }
    workload_free(wl);
}

START_TEST(truncated_binary_exits_2)
{
    make_damaged(5, -1, 0);
    run_all(damaged);
}
END_TEST

/* The file's last byte ends the last record's last address varint: 0xff
 * makes it a continuation byte running past the end of the file. */
START_TEST(corrupt_record_exits_2)
{
    make_damaged(0, 1, 0xff);
    run_all(damaged);
}
END_TEST

START_TEST(malformed_text_exits_2)
{
    char path[128];
    snprintf(path, sizeof path, "%s.txt", damaged);
    FILE *f = fopen(path, "w");
    fprintf(f, "MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA 0,0,0 - warp 0 - LDG.E - 0x10 0x20\n");
    fclose(f);
    wl_trace_convert(path, "/tmp/uvmsim-never.bin");
}
END_TEST

static void setup(void)
{
    snprintf(damaged, sizeof damaged, "/tmp/uvmsim-damaged-%ld.bin", (long)getpid());
}

static void cleanup(void)
{
    char path[128];
    snprintf(path, sizeof path, "%s.txt", damaged);
    unlink(damaged);
    unlink(path);
}

static Suite *trace_suite(void)
{
    Suite *s = suite_create("trace");
    TCase *t = tcase_create("trace");
    tcase_add_unchecked_fixture(t, setup, cleanup);
    tcase_add_test(t, text_to_binary_to_replay_identical);
    tcase_add_test(t, record_codec_round_trips);
    tcase_add_test(t, long_warp_across_windows);
    tcase_add_exit_test(t, truncated_binary_exits_2, 2);
    tcase_add_exit_test(t, corrupt_record_exits_2, 2);
    tcase_add_exit_test(t, malformed_text_exits_2, 2);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(trace_suite()); }

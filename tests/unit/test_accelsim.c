/* Accel-Sim traces (workload.kind=accelsim): a hand-written trace in the
 * documented format (docs/accelsim.md) -- every address form (list,
 * base+stride, base+deltas), MemcpyHtoD and MemcpyDtoH lines, tracer versions 4 (with
 * lineinfo) and 5 (immediates), an xz-compressed kernel -- replays with the
 * lane addresses computed here by hand; allocations derived from the
 * touched pages or read from the side file; bad input exits 2. */
#include <check.h>
#include "suite_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "config/config.h"
#include "workloads/workload.h"

#define A 0x7f0000000000ULL   /* region A: the copy's two pages */
#define B 0x7f8000000000ULL   /* region B: two pages, far from A */

static char dir[64];

static void put(const char *name, const char *text)
{
    char p[128];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static const char hdr1[] =
    "-kernel name = _Z6vecaddPfS_S_i\n-kernel id = 1\n-grid dim = (2,1,1)\n"
    "-block dim = (64,1,1)\n-shmem = 512\n-nregs = 16\n-binary version = 70\n"
    "-cuda stream id = 0\n-shmem base_addr = 0x00007f5000000000\n"
    "-local mem base_addr = 0x00007f5001000000\n-nvbit version = 1.5.5\n"
    "-accelsim tracer version = 4\n-enable lineinfo = 1\n\n"
    "#traces format = [line] PC mask ndest [dests] opcode nsrc [srcs] width [format addresses]\n\n";

static const char body1[] =
    "#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 9\n"
    "12 0000 ffffffff 1 R1 MOV 0 0\n"
    "12 0010 ffffffff 1 R2 IMAD 2 R1 R3 0\n"
    "13 0020 0000000f 1 R4 LDG.E 1 R2 4 0 0x00007f0000000000 0x00007f0000000010 "
    "0x00007f0000000020 0x00007f0000000030\n"
    "14 0030 ffffffff 0 STG.E.64 2 R2 R4 8 1 0x7f0000001000 8\n"
    "15 0040 ffffffff 0 STS 2 R2 R4 4 1 0x0 4\n"
    "15 0050 ffffffff 1 R5 LD.E 1 R2 4 1 0x7f5000000100 4\n"
    "16 0060 ffffffff 0 BAR.SYNC 0 0\n"
    "17 0070 00000003 1 R6 LDG.E.128.STRONG.GPU 1 R2 16 2 0x7f8000000000 4096\n"
    "18 0080 ffffffff 0 EXIT 0 0\n"
    "\nwarp = 1\ninsts = 2\n"
    "20 0000 80000001 0 ATOMG.E.ADD 2 R2 R4 4 2 0x7f0000000100 -256\n"
    "21 0010 ffffffff 0 EXIT 0 0\n"
    "\n#END_TB\n\n#BEGIN_TB\n\nthread block = 1,0,0\n\nwarp = 1\ninsts = 2\n"
    "30 0000 0000ffff 0 ST.E.U16 2 R2 R4 2 1 0x7f8000000040 -2\n"
    "31 0010 ffffffff 0 EXIT 0 0\n"
    "\n#END_TB\n";

static void write_kernel2(const char *name)
{
    char t[2048];
    int n = snprintf(t, sizeof t, "-kernel name = k2\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
                     "-nregs = 8\n-accelsim tracer version = 5\n-enable lineinfo = 0\n\n"
                     "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 3\n"
                     "0000 ffffffff 1 R1 LDG.E.U8 1 R2 1 2 0x7f0000001f00");
    for (int i = 0; i < 31; i++) n += snprintf(t + n, sizeof t - (size_t)n, " 1");
    snprintf(t + n, sizeof t - (size_t)n, " 0\n0010 ffffffff 0 DEPBAR 0 0 3\n"
             "0020 ffffffff 0 EXIT 0 0 0\n#END_TB\n");
    put(name, t);
}

static void write_trace(void)
{
    char k1[4096];
    snprintf(k1, sizeof k1, "%s%s", hdr1, body1);
    put("kernel-1.traceg", k1);
    write_kernel2("kernel-2.traceg");
    char cmd[256];
    snprintf(cmd, sizeof cmd, "xz -f %s/kernel-2.traceg", dir);
    ck_assert_int_eq(system(cmd), 0);
    put("kernelslist.g", "MemcpyHtoD,0x00007f0000000000,8192\nkernel-1.traceg\nkernel-2.traceg.xz\n"
                         "MemcpyDtoH,0x00007f8000001000,16\n");
}

static struct workload *open_wl(const char *allocs)
{
    char f[128], a[160];
    snprintf(f, sizeof f, "workload.accelsim.file=%s/kernelslist.g", dir);
    snprintf(a, sizeof a, "workload.accelsim.allocs=%s", allocs);
    const char *sets[] = { "workload.kind=accelsim", f, a };
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, 3, &err);
    if (!c) ck_abort_msg("%s", err.msg);
    struct workload *wl = workload_create(c);
    config_free(c);
    return wl;
}

static void next(struct workload *wl, struct warp_ctx *w, struct warp_inst *in)
{
    in->flags = in->issue_cycles = in->cycles = 0;
    wl_next_inst(wl, w, in);
}

static void expect_mem(const struct warp_inst *in, enum inst_op op, uint32_t size, uint32_t mask)
{
    ck_assert_int_eq(in->op, op);
    ck_assert_uint_eq(in->size, size);
    ck_assert_uint_eq(in->active, mask);
}

/* A at WL_VA_BASE (allocation 0), B at the next 2 MiB boundary (1). */
static void check_program(struct workload *wl, uint64_t ra, uint64_t rb)
{
    struct wl_step st;
    ck_assert(wl_next_step(wl, &st));
    ck_assert_int_eq(st.kind, WL_STEP_MEMCPY);
    ck_assert_uint_eq(st.host.alloc, 0);
    ck_assert_uint_eq(st.host.offset, 0);
    ck_assert_uint_eq(st.host.bytes, 8192);
    ck_assert_int_eq(st.host.dir, WL_TO_GPU);

    ck_assert(wl_next_step(wl, &st));
    ck_assert_int_eq(st.kind, WL_STEP_KERNEL);
    struct wl_kernel k = st.kernel;
    ck_assert_str_eq(k.name, "_Z6vecaddPfS_S_i");
    ck_assert_uint_eq(k.grid.x, 2);
    ck_assert_uint_eq(k.block.x, 64);
    ck_assert_uint_eq(k.regs_per_thread, 16);
    ck_assert_uint_eq(k.smem_per_block, 512);
    struct warp_inst in;
    /* block 0 warp 0 */
    struct warp_ctx w = { .k = &k, .block = 0, .warp = 0, .threads = 32 };
    wl_warp_start(wl, &w);
    next(wl, &w, &in);                          /* MOV, IMAD */
    ck_assert_int_eq(in.op, INST_COMPUTE);
    ck_assert_uint_eq(in.cycles, 2);
    next(wl, &w, &in);                          /* list form */
    expect_mem(&in, INST_LOAD, 4, 0xf);
    for (int l = 0; l < 4; l++) ck_assert_uint_eq(in.addr[l], ra + 0x10 * (uint64_t)l);
    ck_assert_uint_eq(in.flags, 0);
    next(wl, &w, &in);                          /* base+stride */
    expect_mem(&in, INST_STORE, 8, 0xffffffffu);
    for (int l = 0; l < 32; l++) ck_assert_uint_eq(in.addr[l], ra + 0x1000 + 8 * (uint64_t)l);
    next(wl, &w, &in);                          /* STS, LD in the shared window */
    ck_assert_int_eq(in.op, INST_COMPUTE);
    ck_assert_uint_eq(in.cycles, 2);
    next(wl, &w, &in);
    ck_assert_int_eq(in.op, INST_BARRIER);
    next(wl, &w, &in);                          /* base+deltas, .128, .STRONG.GPU */
    expect_mem(&in, INST_LOAD, 16, 0x3);
    ck_assert_uint_eq(in.addr[0], rb);
    ck_assert_uint_eq(in.addr[1], rb + 4096);
    ck_assert_uint_eq(in.flags, INST_F_BYPASS_L1);
    next(wl, &w, &in);
    ck_assert_int_eq(in.op, INST_EXIT);
    /* block 0 warp 1: negative delta from lane 0 to lane 31 */
    w = (struct warp_ctx){ .k = &k, .block = 0, .warp = 1, .threads = 32 };
    wl_warp_start(wl, &w);
    next(wl, &w, &in);
    expect_mem(&in, INST_ATOMIC, 4, 0x80000001u);
    ck_assert_uint_eq(in.addr[0], ra + 0x100);
    ck_assert_uint_eq(in.addr[31], ra);
    next(wl, &w, &in);
    ck_assert_int_eq(in.op, INST_EXIT);
    /* block 1 warp 0: not in the trace, exits at once */
    w = (struct warp_ctx){ .k = &k, .block = 1, .warp = 0, .threads = 32 };
    wl_warp_start(wl, &w);
    next(wl, &w, &in);
    ck_assert_int_eq(in.op, INST_EXIT);
    /* block 1 warp 1: generic store outside both windows, stride -2 */
    w = (struct warp_ctx){ .k = &k, .block = 1, .warp = 1, .threads = 32 };
    wl_warp_start(wl, &w);
    next(wl, &w, &in);
    expect_mem(&in, INST_STORE, 2, 0xffff);
    for (int l = 0; l < 16; l++) ck_assert_uint_eq(in.addr[l], rb + 0x40 - 2 * (uint64_t)l);

    ck_assert(wl_next_step(wl, &st));           /* kernel 2: xz, version 5 */
    ck_assert_int_eq(st.kind, WL_STEP_KERNEL);
    k = st.kernel;
    ck_assert_str_eq(k.name, "k2");
    w = (struct warp_ctx){ .k = &k, .block = 0, .warp = 0, .threads = 32 };
    wl_warp_start(wl, &w);
    next(wl, &w, &in);
    expect_mem(&in, INST_LOAD, 1, 0xffffffffu);
    for (int l = 0; l < 32; l++) ck_assert_uint_eq(in.addr[l], ra + 0x1f00 + (uint64_t)l);
    next(wl, &w, &in);                          /* DEPBAR (immediate 3) */
    ck_assert_int_eq(in.op, INST_COMPUTE);
    ck_assert_uint_eq(in.cycles, 1);
    next(wl, &w, &in);
    ck_assert_int_eq(in.op, INST_EXIT);
    ck_assert(wl_next_step(wl, &st));           /* uvmsim's MemcpyDtoH line */
    ck_assert_int_eq(st.kind, WL_STEP_MEMCPY);
    ck_assert_uint_eq(st.host.alloc, 1);
    ck_assert_uint_eq(st.host.offset, 0x1000);
    ck_assert_uint_eq(st.host.bytes, 16);
    ck_assert_int_eq(st.host.dir, WL_TO_HOST);
    ck_assert(!wl_next_step(wl, &st));
}

START_TEST(hand_trace_derived_allocations)
{
    write_trace();
    struct workload *wl = open_wl("");
    /* touched pages: A's two (the copy) and B's two, far apart: two runs */
    ck_assert_uint_eq(wl->nallocs, 2);
    ck_assert_uint_eq(wl->allocs[0].size, 8192);
    ck_assert_uint_eq(wl->allocs[1].size, 8192);
    ck_assert_uint_eq(wl->allocs[0].base, WL_VA_BASE);
    ck_assert_uint_eq(wl->allocs[1].base, WL_VA_BASE + WL_ALLOC_ALIGN);
    check_program(wl, WL_VA_BASE, WL_VA_BASE + WL_ALLOC_ALIGN);
    workload_free(wl);
}
END_TEST

START_TEST(hand_trace_side_file)
{
    write_trace();
    put("allocs.txt", "# name base bytes\nin 0x7f0000000000 3145728\nout 0x7f8000000000 65536\n");
    char p[128];
    snprintf(p, sizeof p, "%s/allocs.txt", dir);
    struct workload *wl = open_wl(p);
    ck_assert_uint_eq(wl->nallocs, 2);
    ck_assert_str_eq(wl->allocs[0].name, "in");
    ck_assert_uint_eq(wl->allocs[0].size, 3145728);
    ck_assert_uint_eq(wl->allocs[1].size, 65536);
    /* 3 MiB rounds the next base up to 4 MiB past the first */
    ck_assert_uint_eq(wl->allocs[1].base, WL_VA_BASE + 2 * WL_ALLOC_ALIGN);
    check_program(wl, WL_VA_BASE, WL_VA_BASE + 2 * WL_ALLOC_ALIGN);
    workload_free(wl);
}
END_TEST

/* 32 groups of K one-page runs (1-page gaps inside a group, 1000-page
 * gaps between groups), listed in a scrambled order: more runs than one
 * batch of the first pass (AS_PEND, 65536).  Merging across the smallest
 * gaps down to 32 allocations gives the groups: 32 of 2K - 1 pages each. */
#define GROUPS 32
#define K 2100
START_TEST(many_runs_merge_into_the_groups)
{
    char p[128];
    snprintf(p, sizeof p, "%s/kernel-1.traceg", dir);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 3\n"
               "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = %d\n", GROUPS * K);
    const uint64_t n = GROUPS * K, step = 7919;   /* prime, coprime to n */
    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = i * step % n, g = r / K, k = r % K;
        uint64_t page = g * (2 * K - 1 + 1000) + 2 * k;
        fprintf(f, "0000 00000001 1 R4 LDG.E 1 R2 4 0 0x%llx\n",
                (unsigned long long)(A + page * 4096 + 8));
    }
    fprintf(f, "#END_TB\n");
    fclose(f);
    put("kernelslist.g", "kernel-1.traceg\n");
    struct workload *wl = open_wl("");
    ck_assert_uint_eq(wl->nallocs, GROUPS);
    for (int g = 0; g < GROUPS; g++) ck_assert_uint_eq(wl->allocs[g].size, (2 * K - 1) * 4096ULL);
    struct wl_step st;
    ck_assert(wl_next_step(wl, &st));
    /* the first line (i = 0: group 0, page 0) and the second (i = 1:
     * r = 7919, group 3, run 1619) relocate into their groups */
    struct warp_ctx w = { .k = &st.kernel, .block = 0, .warp = 0, .threads = 32 };
    struct warp_inst in;
    wl_warp_start(wl, &w);
    next(wl, &w, &in);
    ck_assert_uint_eq(in.addr[0], wl->allocs[0].base + 8);
    next(wl, &w, &in);
    ck_assert_uint_eq(in.addr[0], wl->allocs[3].base + 2 * 1619 * 4096ULL + 8);
    workload_free(wl);
}
END_TEST

/* Damaged inputs: each exits 2 (the messages: tests/e2e/accelsim.sh). */
static void damaged_kernel(const char *body)
{
    char k1[4096];
    snprintf(k1, sizeof k1, "%s%s", hdr1, body);
    put("kernel-1.traceg", k1);
    put("kernelslist.g", "kernel-1.traceg\n");
    struct workload *wl = open_wl("");
    workload_free(wl);
}

START_TEST(short_address_list_exits_2)
{
    damaged_kernel("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                   "1 0000 00000007 1 R4 LDG.E 1 R2 4 0 0x10 0x20\n#END_TB\n");
}
END_TEST

START_TEST(unknown_address_format_exits_2)
{
    damaged_kernel("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                   "1 0000 00000001 1 R4 LDG.E 1 R2 4 3 0x10\n#END_TB\n");
}
END_TEST

START_TEST(missing_end_tb_exits_2)
{
    damaged_kernel("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                   "1 0000 00000001 1 R4 LDG.E 1 R2 4 0 0x10\n");
}
END_TEST

START_TEST(side_file_misses_an_address_exits_2)
{
    write_trace();
    put("allocs.txt", "in 0x7f0000000000 8192\n");
    char p[128];
    snprintf(p, sizeof p, "%s/allocs.txt", dir);
    struct workload *wl = open_wl(p);
    struct wl_step st;
    while (wl_next_step(wl, &st)) {}
    workload_free(wl);
}
END_TEST

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/uvmsim-accelsim-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", dir);
}

static Suite *accelsim_suite(void)
{
    Suite *s = suite_create("accelsim");
    TCase *t = tcase_create("accelsim");
    tcase_add_unchecked_fixture(t, setup, cleanup);
    tcase_add_test(t, hand_trace_derived_allocations);
    tcase_add_test(t, hand_trace_side_file);
    tcase_add_test(t, many_runs_merge_into_the_groups);
    tcase_add_exit_test(t, short_address_list_exits_2, 2);
    tcase_add_exit_test(t, unknown_address_format_exits_2, 2);
    tcase_add_exit_test(t, missing_end_tb_exits_2, 2);
    tcase_add_exit_test(t, side_file_misses_an_address_exits_2, 2);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(accelsim_suite()); }

/* The SM model's stateless pieces against hand-derived numbers: CUDA
 * occupancy rules and the coalescer. */
#include <check.h>
#include "suite_main.h"
#include "sm/sm.h"

/* Fermi (compute capability 2.0, HPE Table I machine): 48 warps, 8 blocks,
 * 1536 threads, 32768 registers allocated per warp in units of 64, 48 KiB
 * shared memory in units of 128 B. */
static const struct occ_limits fermi = { 1536, 48, 8, 32768, 64, 48 * 1024, 128 };
/* Batch-aware Table 1: 1024 threads and 256 KB of registers (65536) per SM;
 * a Pascal-class SM otherwise (32 blocks, 256-register units, 64 KiB smem). */
static const struct occ_limits batch = { 1024, 32, 32, 65536, 256, 64 * 1024, 256 };

START_TEST(occupancy_hand_cases)
{
    enum occ_limit why;
    /* 256 threads = 8 warps; 32 regs x 32 lanes = 1024 per warp -> 32768 /
     * 1024 = 32 warps -> 4 blocks; warps 48 / 8 = 6; 48 KiB smem per block
     * -> 48 KiB / 48 KiB = 1 block.  Binding: shared memory. */
    ck_assert_uint_eq(gpu_occupancy(&fermi, 256, 32, 48 * 1024, &why), 1);
    ck_assert_int_eq(why, OCC_SMEM);
    /* Without shared memory the registers bind: 4 blocks. */
    ck_assert_uint_eq(gpu_occupancy(&fermi, 256, 32, 0, &why), 4);
    ck_assert_int_eq(why, OCC_REGS);
    /* 1024 threads = 32 warps x 64 regs: 2048 registers per warp, Fermi
     * holds 16 such warps < 32: the block does not fit at all. */
    ck_assert_uint_eq(gpu_occupancy(&fermi, 1024, 64, 0, &why), 0);
    ck_assert_int_eq(why, OCC_REGS);
    /* The batch-aware SM: 65536 / 2048 = 32 warps = 1 block; threads
     * 1024 / 1024 = 1 too. */
    ck_assert_uint_eq(gpu_occupancy(&batch, 1024, 64, 0, &why), 1);
    /* 96 threads = 3 warps, 21 regs: 672 -> 704 registers per warp (unit
     * 64), 32768 / 704 = 46 warps -> 15 blocks; warps 48 / 3 = 16; the
     * 8-block limit binds. */
    ck_assert_uint_eq(gpu_occupancy(&fermi, 96, 21, 0, &why), 8);
    ck_assert_int_eq(why, OCC_BLOCKS);
    /* 192 threads on the batch-aware SM: threads 1024 / 192 = 5, warps
     * 32 / 6 = 5, registers (16 x 32 = 512 per warp) 128 warps / 6 = 21:
     * 5 blocks, warps first in the order of the limits. */
    ck_assert_uint_eq(gpu_occupancy(&batch, 192, 16, 0, &why), 5);
    /* 1000 B of shared memory rounds to 1024 (unit 128): 48 KiB / 1 KiB =
     * 48 > 8 blocks; 33 KiB rounds to 33 KiB: one block. */
    ck_assert_uint_eq(gpu_occupancy(&fermi, 32, 0, 1000, &why), 8);
    ck_assert_uint_eq(gpu_occupancy(&fermi, 32, 0, 33 * 1024, &why), 1);
    ck_assert_int_eq(why, OCC_SMEM);
}
END_TEST

#define BASE 0x100000000000ULL   /* page- and line-aligned */

static void strided(uint64_t *a, uint64_t stride)
{
    for (int l = 0; l < 32; l++) a[l] = BASE + (uint64_t)l * stride;
}

START_TEST(coalescing_strides)
{
    uint64_t a[32];
    struct coalesced c;
    /* Unit stride, 4 B: 128 contiguous bytes = one line, all 4 sectors. */
    strided(a, 4);
    gpu_coalesce(a, 0xffffffffu, 4, &c);
    ck_assert_uint_eq(c.nlines, 1);
    ck_assert_uint_eq(c.nsectors, 4);
    ck_assert_uint_eq(c.npages, 1);
    ck_assert_uint_eq(c.line_mask[0], 0xf);
    /* Stride 2 words (8 B): 256 B = 2 lines; each 32 B sector holds 4
     * lanes: 8 sectors. */
    strided(a, 8);
    gpu_coalesce(a, 0xffffffffu, 4, &c);
    ck_assert_uint_eq(c.nlines, 2);
    ck_assert_uint_eq(c.nsectors, 8);
    /* Stride 8 words (32 B): 1 KiB = 8 lines, one lane per sector: 32. */
    strided(a, 32);
    gpu_coalesce(a, 0xffffffffu, 4, &c);
    ck_assert_uint_eq(c.nlines, 8);
    ck_assert_uint_eq(c.nsectors, 32);
    ck_assert_uint_eq(c.line_mask[7], 0xf);
    /* Stride 32 words (128 B): one lane per line, sector 0 of each:
     * 32 lines, 32 sectors, 32 x 128 B = one 4 KiB page. */
    strided(a, 128);
    gpu_coalesce(a, 0xffffffffu, 4, &c);
    ck_assert_uint_eq(c.nlines, 32);
    ck_assert_uint_eq(c.nsectors, 32);
    ck_assert_uint_eq(c.npages, 1);
    ck_assert_uint_eq(c.line_mask[31], 0x1);
    /* Stride 4 KiB: 32 pages. */
    strided(a, 4096);
    gpu_coalesce(a, 0xffffffffu, 4, &c);
    ck_assert_uint_eq(c.npages, 32);
    /* Half the lanes at unit stride: 64 B = sectors 0 and 1. */
    strided(a, 4);
    gpu_coalesce(a, 0x0000ffffu, 4, &c);
    ck_assert_uint_eq(c.nlines, 1);
    ck_assert_uint_eq(c.line_mask[0], 0x3);
    /* 8 B per lane at unit stride: 256 B = 2 full lines. */
    strided(a, 8);
    gpu_coalesce(a, 0xffffffffu, 8, &c);
    ck_assert_uint_eq(c.nlines, 2);
    ck_assert_uint_eq(c.nsectors, 8);
    /* No active lane: nothing. */
    gpu_coalesce(a, 0, 4, &c);
    ck_assert_uint_eq(c.nlines + c.npages + c.nsectors, 0);
}
END_TEST

/* A fixed scattered pattern (byte offsets from BASE), counted by hand:
 * line numbers (offset / 128) in first-touch order
 *   L0 L1 L31 L32 L33 L160 L64 L65 L96 L8 L16  -> 11 lines
 * sectors per line: L0 {0,1,2,3}, L1 {2,0}, L31 {3,0}, L32 {0}, L33 {0},
 *   L160 {3,0,2}, L64 {0}, L65 {0}, L96 {0}, L8 {0,1}, L16 {0,1,2} -> 21
 * pages (offset / 4096): 0, 1, 5, 2, 3 in first-touch order -> 5. */
START_TEST(coalescing_fixed_random_pattern)
{
    static const uint64_t off[32] = {
        0, 4, 40, 200, 4092, 4096, 4224, 20576,
        0, 8, 16, 24, 32, 64, 96, 128,
        4100, 4228, 8192, 8320, 12288, 20480, 20572, 20576,
        4092, 4064, 3968, 1024, 1056, 2048, 2080, 2112,
    };
    uint64_t a[32];
    for (int l = 0; l < 32; l++) a[l] = BASE + off[l];
    struct coalesced c;
    gpu_coalesce(a, 0xffffffffu, 4, &c);
    ck_assert_uint_eq(c.nlines, 11);
    ck_assert_uint_eq(c.nsectors, 21);
    ck_assert_uint_eq(c.npages, 5);
    static const uint64_t lines[11] = { 0, 1, 31, 32, 33, 160, 64, 65, 96, 8, 16 };
    static const uint8_t masks[11] = { 0xf, 0x5, 0x9, 0x1, 0x1, 0xd, 0x1, 0x1, 0x1, 0x3, 0x7 };
    static const uint8_t pages[11] = { 0, 0, 0, 1, 1, 2, 3, 3, 4, 0, 0 };
    for (int i = 0; i < 11; i++) {
        ck_assert_uint_eq(c.line_addr[i], BASE + lines[i] * 128);
        ck_assert_uint_eq(c.line_mask[i], masks[i]);
        ck_assert_uint_eq(c.line_page[i], pages[i]);
    }
    static const uint64_t vpn[5] = { 0, 1, 5, 2, 3 };
    for (int i = 0; i < 5; i++) ck_assert_uint_eq(c.page_vpn[i], (BASE >> 12) + vpn[i]);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("sm_units");
    TCase *t = tcase_create("units");
    tcase_add_test(t, occupancy_hand_cases);
    tcase_add_test(t, coalescing_strides);
    tcase_add_test(t, coalescing_fixed_random_pattern);
    suite_add_tcase(s, t);
    return run_suite(s);
}

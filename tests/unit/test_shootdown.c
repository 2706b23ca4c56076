/* A remap (unmap, shootdown, map at a new frame) in the middle of an
 * issue-bound stretch adds exactly the configured shootdown cost to the
 * run.  The machine is built by hand around a one-warp kernel of the
 * test's own: load pages P and P+1 (lanes 256 B apart), K one-cycle compute instructions (one issue per
 * cycle, so every cycle the SM cannot issue is a cycle added), load them
 * again (a remapped page must miss: its entry was shot down), exit. */
#include <check.h>
#include "suite_main.h"
#include <stdlib.h>
#include <string.h>
#include "config/config.h"
#include "core/stats.h"
#include "core/mem_req.h"
#include "sm/sm.h"
#include "tlb/tlb.h"
#include "gmmu/gmmu.h"
#include "dram/dram.h"
#include "workloads/workload.h"

#define CYC 1000ULL
#define P_VA 0x100000000000ULL
#define K 2000

static bool wl_next_kernel_fn(void *impl, struct wl_step *st)
{
    int *left = impl;
    if (!*left) return false;
    (*left)--;
    memset(st, 0, sizeof *st);
    st->kind = WL_STEP_KERNEL;
    struct wl_kernel *k = &st->kernel;
    strcpy(k->name, "remap");
    k->grid = (struct dim3){1, 1, 1};
    k->block = (struct dim3){32, 1, 1};
    return true;
}
static void wl_warp_start_fn(void *impl, struct warp_ctx *w) { (void)impl; w->s[0] = 0; }
static void wl_next_inst_fn(void *impl, struct warp_ctx *w, struct warp_inst *out)
{
    (void)impl;
    uint64_t step = w->s[0]++;
    memset(out, 0, sizeof *out);
    if (step == 0 || step == K + 1) {
        out->op = INST_LOAD;
        out->active = 0xffffffffu;
        out->size = 4;
        for (int l = 0; l < WARP_SIZE; l++) out->addr[l] = P_VA + 256 * (uint64_t)l;
    } else if (step <= K) {
        out->op = INST_COMPUTE;
        out->cycles = 1;
    } else {
        out->op = INST_EXIT;
    }
}
static const struct workload_ops wl_ops = { "remap", NULL, wl_next_kernel_fn,
                                            wl_warp_start_fn, wl_next_inst_fn, NULL };

struct machine {
    struct engine *e;
    struct stats *st;
    struct req_pool pool;
    struct domain core, mem;
    struct workload wl;
    int kernels;
    struct gpu *gpu;
    struct tlb *tlb;
    struct gmmu *gmmu;
    struct dram *dram;
    uint64_t remap_vpn[4];
    unsigned nremaps;
};

static void stall(void *gpu, unsigned sm, sim_time until) { gpu_block_issue(gpu, sm, until); }

/* The driver's remap of one page: unmap, shoot down, map elsewhere. */
static void remap(void *obj, uint64_t i, sim_time now)
{
    struct machine *m = obj;
    uint64_t vpn = m->remap_vpn[i];
    uint64_t frame = gmmu_frame_of(m->gmmu, vpn);
    gmmu_unmap(m->gmmu, vpn, now);
    tlb_shootdown(m->tlb, vpn, now);
    gmmu_map(m->gmmu, vpn, frame + 100, now);
}

static uint64_t counter(struct machine *m, const char *name)
{
    return *stats_find(m->st, name)->p.u;
}

/* Run with shootdown cost `cycles`, remapping the pages in `vpns` at cycle
 * 1000.5 (mid-cycle, inside the compute stretch).  Returns the end time. */
static sim_time run(const char *cycles, const uint64_t *vpns, unsigned n, uint64_t *l1_misses,
                    uint64_t *shootdowns)
{
    char set[64];
    snprintf(set, sizeof set, "tlb.shootdown.cycles=%s", cycles);
    const char *sets[] = { set };
    struct cfg_error err;
    struct config *cfg = config_load(NULL, sets, 1, &err);
    ck_assert_msg(cfg, "%s", err.msg);
    struct machine *m = calloc(1, sizeof *m);
    struct engine_limits lim = {0};
    m->e = engine_new(&lim);
    m->st = stats_new();
    req_pool_init(&m->pool);
    m->core = (struct domain){ "core", CYC, 0 };
    m->mem = (struct domain){ "dram", CYC, 1 };
    m->kernels = 1;
    m->wl = (struct workload){ .ops = &wl_ops, .impl = &m->kernels };
    m->gpu = gpu_create(m->e, cfg, m->st, &m->pool, &m->core, &m->wl);
    unsigned nsms = gpu_num_sms(m->gpu);
    m->tlb = tlb_create(m->e, cfg, m->st, &m->pool, &m->core, nsms);
    m->gmmu = gmmu_create(m->e, cfg, m->st, &m->core);
    m->dram = dram_create(m->e, cfg, m->st, &m->mem);
    for (unsigned i = 0; i < nsms; i++)
        gpu_set_ports(m->gpu, i, tlb_l1_in(m->tlb, i), dram_port(m->dram));
    tlb_set_walker(m->tlb, gmmu_walk_in(m->gmmu));
    tlb_set_shootdown_hook(m->tlb, stall, m->gpu);
    gmmu_set_fault_hook(m->gmmu, gpu_note_fault, m->gpu);
    tlb_set_fault_hook(m->tlb, gmmu_utlb_fault, m->gmmu);
    gmmu_set_replay_hook(m->gmmu, tlb_replay, m->tlb);
    gmmu_map(m->gmmu, P_VA >> 12, 5, 0);
    gmmu_map(m->gmmu, (P_VA >> 12) + 1, 6, 0);
    gmmu_map(m->gmmu, (P_VA >> 12) + 2, 7, 0);
    for (unsigned i = 0; i < n; i++) {
        m->remap_vpn[i] = vpns[i];
        engine_at(m->e, 1000 * CYC + 500, &m->core, remap, m, i);
    }
    gpu_start(m->gpu, 0);
    ck_assert_int_eq(engine_run(m->e), RUN_COMPLETED);
    ck_assert_uint_eq(gpu_kernels_done(m->gpu), 1);
    sim_time end = engine_end_time(m->e);
    *l1_misses = counter(m, "tlb.l1.misses");
    *shootdowns = counter(m, "tlb.shootdowns");
    gpu_free(m->gpu);
    tlb_free(m->tlb);
    gmmu_free(m->gmmu);
    dram_free(m->dram);
    req_pool_free(&m->pool);
    stats_free(m->st);
    engine_free(m->e);
    free(m);
    config_free(cfg);
    return end;
}

START_TEST(remap_adds_exactly_the_shootdown_cost)
{
    uint64_t p = P_VA >> 12, misses, sd;
    sim_time base = run("0", &p, 1, &misses, &sd);
    ck_assert_uint_eq(misses, 3);          /* P, P+1 cold; P again after its shootdown */
    ck_assert_uint_eq(sd, 1);
    sim_time with = run("100", &p, 1, &misses, &sd);
    ck_assert_uint_eq(with - base, 100 * CYC);
    /* Two cached pages remapped at once: two shootdowns, serialised. */
    uint64_t both[2] = { p, p + 1 };
    sim_time base2 = run("0", both, 2, &misses, &sd);
    ck_assert_uint_eq(sd, 2);
    sim_time with2 = run("100", both, 2, &misses, &sd);
    ck_assert_uint_eq(with2 - base2, 200 * CYC);
    /* Page P+2 was never translated: its remap needs no shootdown. */
    uint64_t pq[2] = { p, p + 2 };
    sim_time base3 = run("0", pq, 2, &misses, &sd);
    sim_time with3 = run("100", pq, 2, &misses, &sd);
    ck_assert_uint_eq(sd, 1);
    ck_assert_uint_eq(with3 - base3, 100 * CYC);
}
END_TEST

static Suite *sd_suite(void)
{
    Suite *s = suite_create("shootdown");
    TCase *t = tcase_create("shootdown");
    tcase_set_timeout(t, 30);
    tcase_add_test(t, remap_adds_exactly_the_shootdown_cost);
    suite_add_tcase(s, t);
    return s;
}

int main(void) { return run_suite(sd_suite()); }

/* Key combinations no run can simulate, refused before building (located
 * by the key names in each message, config.h cfg_locate_message), and the
 * effective watchdog. */
#include <stdio.h>
#include <string.h>
#include "system_check.h"
#include "config/config.h"
#include "core/mem_req.h"
#include "workloads/workload.h"

/* The GMMU's page table covers a 48-bit virtual address (sim/gmmu
 * page_table.h: 4 levels of 9 bits over 4 KiB pages, x86-64 / Pascal
 * layout): an allocation beyond it would alias lower pages. */
#define VA_LIMIT (1ULL << 48)
/* Frame numbers are u32 with UINT32_MAX as the list terminator (sim/driver
 * pmm.c). */
#define MAX_FRAMES (UINT32_MAX - 1ULL)
/* Host memory per GPU frame: the driver's frame table, the chunk
 * allocator's lists and the eviction policy's per-page state.  Measured as
 * peak RSS at 50 GB minus at 1 GB of GPU memory over the frame difference:
 * fifo 38, lru 54, rrip-fp 70, hpe 94, clock-pro 108 bytes; rounded up. */
#define HOST_BYTES_PER_FRAME 128
/* The real driver's VA block (uvm_va_block.h, UVM_VA_BLOCK_SIZE): the most
 * one migration moves. */
#define VA_BLOCK_BYTES (2ULL << 20)

/* The keys of the workload's own table that the user set, then
 * "workload.kind=K": the keys that decide the footprint, the most specific
 * first for the locator to name. */
static void workload_keys(const struct config *cfg, char *buf, size_t n)
{
    const char *kind = cfg_str(cfg, "workload.kind");
    size_t nw, j = 0;
    const struct wl_info *w = wl_catalog(&nw)[cfg_choice(cfg, "workload.kind")];
    buf[0] = 0;
    for (const struct cfg_key *k = w->keys; k && k->path && j < n; k++)
        if (cfg_get(cfg, k->path)->file)
            j += (size_t)snprintf(buf + j, n - j, "%s, ", k->path);
    if (j < n) snprintf(buf + j, n - j, "workload.kind=%s", kind);
}

void system_check_workload(const struct config *cfg, const struct workload *wl)
{
    for (size_t i = 0; i < wl->nallocs; i++) {
        const struct wl_alloc *a = &wl->allocs[i];
        if (a->base < VA_LIMIT && a->size <= VA_LIMIT - a->base) continue;
        char keys[600];
        workload_keys(cfg, keys, sizeof keys);
        user_error("allocation '%s' of %llu bytes (%s) ends beyond the simulated 48-bit "
                   "virtual address space", a->name, (unsigned long long)a->size, keys);
    }
}

void system_check_footprint(const struct config *cfg, const struct workload *wl)
{
    /* gpu.memory.capacity 0 means gpu.memory.fraction of the footprint (its
     * documented meaning): a small workload can leave no page at all. */
    double bytes = cfg_f64(cfg, "gpu.memory.fraction") * (double)wl->footprint;
    if (cfg_u64(cfg, "gpu.memory.capacity") || bytes >= (double)PAGE_SIZE) return;
    char keys[600];
    workload_keys(cfg, keys, sizeof keys);
    user_error("GPU memory of %.0f bytes (gpu.memory.fraction = %s of the %llu-byte footprint "
               "of %s) holds no %llu-byte page; set gpu.memory.capacity", bytes,
               cfg_get(cfg, "gpu.memory.fraction")->text, (unsigned long long)wl->footprint,
               keys, (unsigned long long)PAGE_SIZE);
}

void system_check_memory(const struct config *cfg, const struct workload *wl,
                         uint64_t pages)
{
    uint64_t need = mul_sat(pages, HOST_BYTES_PER_FRAME), lim = host_memory_limit();
    if (pages <= MAX_FRAMES && need <= lim) return;
    char keys[600], why[160];
    workload_keys(cfg, keys, sizeof keys);
    if (pages > MAX_FRAMES)
        snprintf(why, sizeof why, "more than the %llu frames the chunk allocator numbers",
                 (unsigned long long)MAX_FRAMES);
    else
        snprintf(why, sizeof why, "their bookkeeping needs %llu bytes of host memory, more "
                 "than this machine allows (%llu)", (unsigned long long)need,
                 (unsigned long long)lim);
    if (cfg_u64(cfg, "gpu.memory.capacity"))
        user_error("GPU memory of %llu pages (gpu.memory.capacity): %s",
                   (unsigned long long)pages, why);
    user_error("GPU memory of %llu pages (gpu.memory.fraction = %s of the %llu-byte footprint "
               "of %s): %s", (unsigned long long)pages, cfg_get(cfg, "gpu.memory.fraction")->text,
               (unsigned long long)wl->footprint, keys, why);
}

/* ---- the watchdog ----
 * sim.watchdog catches a run where work is outstanding and nothing
 * completes.  A single operation of a valid config may legitimately take
 * longer than it (driver.fault_latency up to 1 s, tlb.shootdown.cycles up
 * to 1e9, a 2 MiB block over a 1 MB/s link), so the run's watchdog is
 * the default sim.watchdog plus a bound on the longest stretch without a
 * completion: one of every latency in series.  Latencies that queue up without limit
 * (shootdowns: each starts when the previous one ended, tlb.c
 * tlb_shootdown) count their own ends as progress instead (system.c). */

/* Latencies in core cycles (the keys' descriptions say so). */
static const char *const core_cycle_keys[] = {
    "gpu.l1d.latency", "gpu.xbar.latency", "gpu.xbar.latency", "tlb.l1.latency",
    "tlb.l2.latency", "tlb.shootdown.cycles", "gmmu.walk_latency", "gmmu.pwc.latency",
    "l2.latency", "host.latency", "workload.compute.latency",
};

/* Column-to-data and bank timings in memory clocks: every dram timing but
 * the refresh interval (a period, not a wait) and the write-drain marks. */
static bool dram_timing(const char *path, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(path, prefix, n)) return false;
    const char *k = path + n;
    return (k[0] == 't' && strcmp(k, "tREFI")) || !strcmp(k, "ctrl_latency");
}

struct lat { sim_time times, dram, dram_ck, host_ck; };

static void add_latency(void *ctx, const struct cfg_value *v)
{
    struct lat *l = ctx;
    const char *p = v->key->path;
    if (v->key->type == CFG_TIME && strncmp(p, "sim.", 4))
        l->times = add_sat(l->times, v->u);
    else if (v->key->type == CFG_INT && dram_timing(p, "dram."))
        l->dram = add_sat(l->dram, mul_sat(v->u, l->dram_ck));
    else if (v->key->type == CFG_INT && dram_timing(p, "host.dram."))
        l->dram = add_sat(l->dram, mul_sat(v->u, l->host_ck));
}

sim_time system_latency_bound(const struct config *cfg)
{
    struct lat l = { 0, 0, cfg_period(cfg, "dram.clock"), cfg_period(cfg, "host.dram.clock") };
    /* Every time-valued latency once (driver.fault_latency, link.latency,
     * gmmu.interrupt_latency, ...); every DRAM timing five times: a page
     * walk in memory mode reads four PTEs, then the data, in series. */
    config_foreach(cfg, add_latency, &l);
    sim_time bound = add_sat(l.times, mul_sat(l.dram, 5));
    sim_time core = cfg_period(cfg, "gpu.clock");
    for (size_t i = 0; i < sizeof core_cycle_keys / sizeof *core_cycle_keys; i++)
        bound = add_sat(bound, mul_sat(cfg_u64(cfg, core_cycle_keys[i]), core));
    /* One batch: every fault and every block it touches has its cost. */
    uint64_t batch = cfg_u64(cfg, "driver.batch_size");
    bound = add_sat(bound, mul_sat(batch, add_sat(cfg_u64(cfg, "driver.fault_cost"),
                                                  cfg_u64(cfg, "driver.block_cost"))));
    /* ... and each block its first touch; one block's pages their cost
     * before its copies start (each cost counted once above). */
    bound = add_sat(bound, mul_sat(batch - 1, cfg_u64(cfg, "driver.new_block_cost")));
    bound = add_sat(bound, mul_sat(VA_BLOCK_BYTES / 4096 - 1, cfg_u64(cfg, "driver.page_cost")));
    /* One 2 MiB VA block on the wire, twice (evicted, then migrated), with
     * each packet's header padded to whole flits. */
    uint64_t payload = cfg_u64(cfg, "link.max_payload"), flit = cfg_u64(cfg, "link.flit");
    uint64_t pkt = add_sat(payload, cfg_u64(cfg, "link.header"));
    pkt = mul_sat((pkt + flit - 1) / flit, flit);
    uint64_t wire = mul_sat((VA_BLOCK_BYTES + payload - 1) / payload, pkt);
    double secs = (double)wire / cfg_f64(cfg, "link.bandwidth");
    sim_time xfer = secs * 1e12 >= 1.8e19 ? UINT64_MAX : (sim_time)(secs * 1e12);
    bound = add_sat(bound, mul_sat(xfer, 2));
    return bound;
}

/* A watchdog the user set is used as given: a tight one is how a stall is
 * caught early (and how tests make one fire). */
sim_time system_watchdog(const struct config *cfg)
{
    const struct cfg_value *v = cfg_get(cfg, "sim.watchdog");
    if (!v->u || v->file) return v->u;
    return add_sat(v->u, system_latency_bound(cfg));
}

/* The shortest time any access can take to complete: an L1 TLB hit, then
 * an L1D hit (sim/tlb tlb.c, sim/sm l1d.c), and at least the core cycle
 * it issues in.  Every completion the watchdog counts (engine.h
 * engine_progress) follows some access, so from t = 0 no progress can come
 * sooner: a watchdog below this fires on every run. */
sim_time system_watchdog_floor(const struct config *cfg)
{
    uint64_t cycles = add_sat(cfg_u64(cfg, "tlb.l1.latency"), cfg_u64(cfg, "gpu.l1d.latency"));
    return mul_sat(cycles ? cycles : 1, cfg_period(cfg, "gpu.clock"));
}

void system_check_watchdog(const struct config *cfg)
{
    const struct cfg_value *v = cfg_get(cfg, "sim.watchdog");
    sim_time floor = system_watchdog_floor(cfg);
    if (!v->u || !v->file || v->u >= floor) return;
    char a[TIME_STR_MAX], b[TIME_STR_MAX];
    user_error("sim.watchdog %s is below the shortest access, %s (tlb.l1.latency + "
               "gpu.l1d.latency core cycles at gpu.clock, at least one): every run would stop "
               "there; set at least that, or 0 for none", time_str(a, v->u), time_str(b, floor));
}

#include "summary.h"
#include "core/stats.h"
#include "out/results.h"

static uint64_t counter(const struct stats *st, const char *name)
{
    const struct stat_entry *s = stats_find(st, name);
    return s && s->kind == STAT_COUNTER ? *s->p.u : 0;
}

static double real(const struct stats *st, const char *name)
{
    const struct stat_entry *s = stats_find(st, name);
    return s && s->kind == STAT_REAL ? *s->p.real : 0.0;
}

void print_summary(FILE *out, const struct stats *st, const struct run_info *ri,
                   const char *result_path)
{
    double us = (double)ri->sim_time_ps / 1e6;
    fprintf(out, "uvmsim %s: %s at %.3f us simulated (%llu core cycles)\n",
            UVMSIM_VERSION, ri->status, us,
            (unsigned long long)counter(st, "gpu.cycles"));
    if (ri->model) fprintf(out, "  model   %s (sim.model)\n", ri->model);
    fprintf(out, "  gpu     %llu kernels, %llu warp instructions (%llu memory), IPC %.3f\n",
            (unsigned long long)counter(st, "gpu.kernels"),
            (unsigned long long)counter(st, "gpu.warp_insts"),
            (unsigned long long)counter(st, "gpu.mem_insts"),
            real(st, "gpu.ipc"));
    fprintf(out, "  tlb     L1 %llu hits / %llu misses, L2 %llu hits / %llu misses\n",
            (unsigned long long)counter(st, "tlb.l1.hits"),
            (unsigned long long)counter(st, "tlb.l1.misses"),
            (unsigned long long)counter(st, "tlb.l2.hits"),
            (unsigned long long)counter(st, "tlb.l2.misses"));
    fprintf(out, "  faults  %llu logged, %llu batches, %llu pages migrated, %llu evicted (%llu written back)\n",
            (unsigned long long)counter(st, "gmmu.faults"),
            (unsigned long long)counter(st, "driver.batches"),
            (unsigned long long)counter(st, "driver.pages_migrated"),
            (unsigned long long)counter(st, "driver.evictions"),
            (unsigned long long)counter(st, "driver.writebacks"));
    fprintf(out, "  link    H2D %.2f MiB, D2H %.2f MiB\n",
            (double)counter(st, "link.h2d.bytes") / 1048576.0,
            (double)counter(st, "link.d2h.bytes") / 1048576.0);
    fprintf(out, "  host    %.2f s wall, %.3g GPU cycles/s, %.3g events/s, peak RSS %.1f MiB\n",
            ri->wall_seconds, ri->gpu_cycles_per_second, ri->events_per_second,
            (double)ri->peak_rss_bytes / 1048576.0);
    fprintf(out, "  speed   %.2f s CPU, %.3g warp insts/CPU s, %llu events, "
            "%.3g events/warp inst, %.0f ns/event\n",
            ri->cpu_seconds, ri->warp_insts_per_cpu_second,
            (unsigned long long)ri->events, ri->events_per_warp_inst, ri->ns_per_event);
    if (result_path) fprintf(out, "  result  %s\n", result_path);
}

/* Keys of the run itself (sim.*). */
#include "config.h"

const struct cfg_key sim_config_keys[] = {
    {"sim.seed", CFG_INT, "1", 0, 9.2e18, NULL,
     "seed of every random stream (each component derives its own)"},
    {"sim.model", CFG_ENUM, "cycle", 0, -1, NULL,
     "timing model: cycle is the reference, cycle-level model; fast replaces parts of the GPU's "
     "memory hierarchy with analytical servers of the same config numbers, validated against "
     "cycle (docs/fast-model.md); everything the UVM papers study (faults, batches, the driver, "
     "eviction, migration, the link) is the same in both; cycle-dram-server, cycle-tlb-lookup and "
     "cycle-host-server are diagnostics, not validated: cycle with only fast's GPU memory, L1 TLB "
     "lookups or copy-path host memory, to find which coarsening makes a difference "
     "(docs/fast-model.md, \"Tracing a difference\"; uvmsim dram-replay and link-bench take fast's "
     "parts under fast only)"},
    {"sim.epoch", CFG_TIME, "10us", 1e3, 1e15, NULL,
     "period of the statistics time series"},
    {"sim.epoch_rows", CFG_ENUM, "changed", 0, -1, "changed|every",
     "which epochs get a /timeseries row: changed leaves out the epochs in which only the clock "
     "moved (gpu.cycles, gpu.ipc) but the last of each such stretch, so rates between rows stay "
     "exact and an idle stretch costs two rows, not one per epoch; every keeps one row per epoch "
     "(docs/results.md)"},
    {"sim.max_time", CFG_TIME, "0s", 0, 1.8e19, NULL,
     "stop the run at this simulated time (0: no limit)"},
    {"sim.max_events", CFG_INT, "0", 0, 9.2e18, NULL,
     "stop the run after this many engine events (0: no limit)"},
    {"sim.watchdog", CFG_TIME, "10ms", 0, 1.8e19, NULL,
     "abort with a dump when nothing completes for this long while work is outstanding (0: off); "
     "left at its default, the run adds the longest stretch its configured latencies allow "
     "(docs/robustness.md), set, it is used as given"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* Thread oversubscription (batch-aware paper, Kim et al. ASPLOS 2020,
 * Sec. 4.1, Fig. 6-7): the keys of the SM side.  The mechanism is built on
 * the SM's block slots after the core's speed work lands. */
#include "sm_internal.h"
#include "../config.h"

const struct cfg_key oversub_config_keys[] = {
    {"gpu.sm.oversub.enabled", CFG_BOOL, "false", 0, -1, NULL,
     "thread oversubscription (batch-aware Sec. 4.1): each SM holds extra thread blocks beyond its "
     "occupancy, inactive; a block whose every warp is stalled on far faults is context-switched "
     "out for a ready one"},
    {"gpu.sm.oversub.extra", CFG_INT, "1", 0, 64, NULL,
     "extra blocks per SM at the start (batch-aware Sec. 4.1, Fig. 6 step 1: one); the runtime's "
     "controller changes it (driver.oversub.*)"},
    {"gpu.sm.oversub.ctx_cost", CFG_ENUM, "memory", 0, -1, "memory|ideal|free",
     "cost of a context switch: memory (batch-aware Sec. 5.1: the context stored to and loaded "
     "from global memory through the L1D, L2 and DRAM), ideal (Sec. 6.5: context bits / "
     "gpu.sm.oversub.ctx_bw cycles each way, 680 cycles for 85 KB), free (no cost)"},
    {"gpu.sm.oversub.ctx_state", CFG_SIZE, "5KiB", 0, 1048576, NULL,
     "per-block state saved besides the registers (batch-aware footnote 5: 5 KB of warp and block "
     "identifiers and SIMT stacks, after Virtual Thread [52])"},
    {"gpu.sm.oversub.ctx_bw", CFG_INT, "1024", 1, 1048576, NULL,
     "bits per cycle of the ideal context-switch model (batch-aware Sec. 6.5: 32 banks x 32 bit)"},
    {"gpu.sm.oversub.ctx_regs", CFG_INT, "0", 0, 255, NULL,
     "registers per thread counted in a block's context (0: the kernel's own)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* The timing models (sim.model, issue 41): `cycle`, the reference, and
 * `fast`, analytical servers for the parts of the GPU's memory hierarchy
 * the UVM papers use only as a source of timing (DESIGN.md, "Two timing
 * models share everything but the GPU's memory hierarchy below the TLB
 * lookup and the SM pipeline").  The table is the only list of names: the
 * key's choices come from it (config_registries).  A model differs from
 * the other only in the builders it names here; system_build picks them. */
#include <string.h>
#include "system.h"
#include "config/config.h"
#include "dram/dram.h"

static const struct sim_model models[] = {
    { "cycle", dram_create, false, false, hostmem_create },
    /* Coarsened: GPU memory (dram_fast.c), L1 TLB lookups (tlb_fast.c),
     * the L1D, crossbar and L2 for GPU-homed lines, timed when a page is
     * translated, and the SM's answers, one per memory instruction at its
     * time (sm/fast.c, l2_fast.c; docs/fast-model.md says what is kept),
     * and host memory as the same server where only copies use it. */
    { "fast", dram_fast_create, true, true, hostmem_fast_create },
    /* Diagnostics, not validated: the cycle model with one of fast's
     * coarsenings, so a difference between the two can be traced to the
     * part that makes it (docs/fast-model.md, "Tracing a difference"). */
    { "cycle-dram-server", dram_fast_create, false, false, hostmem_create },
    { "cycle-tlb-lookup", dram_create, true, false, hostmem_create },
    { "cycle-host-server", dram_create, false, false, hostmem_fast_create },
};

const char *sim_model_name(size_t i)
{
    return i < sizeof models / sizeof models[0] ? models[i].name : NULL;
}

const struct sim_model *sim_model_of(const struct config *cfg)
{
    return &models[cfg_choice(cfg, "sim.model")];
}

/* What `fast` refuses rather than approximates silently (issue 41,
 * "Build" 3): configurations outside its validation set
 * (docs/fast-model.md).  Selective caching (thesis Ch. VI) studies the
 * GPU's caches themselves: the L1D/L2 policy for remote lines is the
 * experiment, so it stays with the cycle model. */
bool sim_model_config_check(const struct config *c, struct cfg_error *err)
{
    if (cfg_is(c, "sim.model", "cycle")) return true;
    if (!cfg_is(c, "gpu.caching.remote", "all")) {
        const char *keys[] = { "gpu.caching.remote", "sim.model", NULL };
        return cfg_fail_keys(c, err, keys, "sim.model %s does not model selective caching "
                             "(fast's validation covers gpu.caching.remote all only; use sim.model "
                             "cycle)", sim_model_of(c)->name);
    }
    return true;
}

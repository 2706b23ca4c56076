/* The simulated machine: builds every subsystem from a config, wires who
 * talks to whom, runs it, and owns the statistics of the run. */
#ifndef UVMSIM_SYSTEM_H
#define UVMSIM_SYSTEM_H

#include "core/base.h"
#include "core/engine.h"

struct config;
struct stats;
struct cfg_error;
struct dram;
struct domain;

struct system;

/* Build from a resolved config (user errors exit 2 from inside). */
struct system *system_build(const struct config *cfg);
enum run_status system_run(struct system *s);
/* system_run in pieces, for the stepper: start the program, drive the
 * engine (engine_run_until), then the end-of-run statistics. */
void system_start(struct system *s);
void system_finish(struct system *s);
void system_free(struct system *s);

struct engine *system_engine(struct system *s);
struct stats *system_stats(struct system *s);
sim_time system_core_period(const struct system *s);
uint64_t system_kernels_done(const struct system *s);
/* The subsystems, for read-only views (the stepper). */
struct system_parts {
    struct gpu *gpu;
    struct tlb *tlb;
    struct gmmu *gmmu;
    struct dram *dram, *host;
    struct link *link;
    struct driver *drv;
};
void system_parts(const struct system *s, struct system_parts *p);
/* Count page references and memory accesses into a profile (uvmsim
 * profile; driver.h driver_profile_*) from now on; the caller frees it
 * after the run (driver_profile_free). */
struct driver_profile;
struct driver_profile *system_profile(struct system *s);
/* Host-side progress reporting (terminal only). */
void system_set_progress(struct system *s, void (*fn)(void *, sim_time), void *ctx);

/* The timing models (sim.model, system_model.c): the builders in which
 * `fast` differs from `cycle`.  The table's names are the key's choices. */
struct sim_model {
    const char *name;
    struct dram *(*gpu_memory)(struct engine *e, const struct config *cfg, struct stats *st,
                               const struct domain *dom);
    bool tlb_at_lookup;         /* L1 TLB lookups answered when sent (tlb_fast.c) */
    bool mem_at_send;           /* GPU-homed lines timed through L1D and L2 when
                                 * translated (sm/fast.c, l2_fast.c) */
    /* Host memory where only page copies use it (no host-homed pages) */
    struct dram *(*copy_host_memory)(struct engine *e, const struct config *cfg,
                                     struct stats *st, const struct domain *dom);
};
const char *sim_model_name(size_t i);
const struct sim_model *sim_model_of(const struct config *cfg);
/* Combinations a model cannot simulate within its validation (config_checks). */
bool sim_model_config_check(const struct config *c, struct cfg_error *err);

#endif

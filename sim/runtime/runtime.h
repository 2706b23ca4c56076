/* The SC19 runtime layer (Li & Chapman SC19, Sec. 2.3, 3): before each
 * kernel launch it decides, per data object the kernel uses, where the
 * object goes and how it moves, and turns the decisions into the driver's
 * own host steps (prefetch, advise), so their cost is simulated.  It sits
 * between the workload's step stream and the front end (sim/sm launch.c's
 * step source); runtime.policy none leaves the stream untouched.  The one
 * public header of sim/runtime. */
#ifndef UVMSIM_RUNTIME_H
#define UVMSIM_RUNTIME_H

#include "core/base.h"
#include "config/config.h"
#include "core/base.h"

struct config;
struct stats;
struct workload;
struct wl_step;

struct runtime;

/* NULL with runtime.policy none.  CAPACITY: GPU memory in bytes (the
 * driver's frames).  Registers runtime.* statistics and the /runtime
 * table in ST; sets wl->host_advice when the policy may pin objects to
 * host memory (the remote path must be on).  User errors exit 2. */
struct runtime *runtime_create(const struct config *cfg, struct workload *wl,
                               uint64_t capacity, struct stats *st);
void runtime_free(struct runtime *rt);

/* The program's next step as the runtime rewrites it: the decisions' host
 * steps before each kernel (and after it, for the baseline's copies back),
 * the generator's own host steps dropped or kept per policy.  False at the
 * program's end.  *DELAY: host time the runtime spends deciding before a
 * kernel (runtime.decision_cost per decision), 0 for host steps. */
bool runtime_next_step(struct runtime *rt, struct wl_step *out, sim_time now,
                       sim_time *delay);

/* Whether the runtime decides the host's read of the results itself:
 * it knows the program's objects (runtime.read_results, the baselines'
 * copies out), or runtime.read_results is false. */
bool runtime_reads_results(const struct runtime *rt);

/* The host's read-back after the last kernel (workload.read_back,
 * rt_readback.c); NULL when off or when RT reads the results itself.  Its
 * step source wraps RT's (or the workload's when RT is NULL). */
struct readback;
struct readback *readback_create(const struct config *cfg, struct workload *wl,
                                 struct runtime *rt, struct stats *st);
void readback_free(struct readback *rb);
/* A store set the dirty bit of page VPN (gmmu_dirty_hook). */
void readback_note_write(struct readback *rb, uint64_t vpn);
bool readback_next_step(struct readback *rb, struct wl_step *out,
                        sim_time now, sim_time *delay);

/* Config keys and checks of this room (sim/config_schema.c lists them). */
extern const struct cfg_key runtime_config_keys[];
/* runtime.policy's registry: the policy table's entry i's name, NULL past
 * the last. */
const char *rt_policy_name(size_t i);

#endif

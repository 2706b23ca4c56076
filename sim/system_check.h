/* Inside sim/ (system.c): checks of a machine about to be built, for key
 * combinations that are each valid alone but that no run can simulate, and
 * the watchdog the run gets.  They raise located user errors (user_error
 * with system_build's locator), so `config check` reports them too. */
#ifndef UVMSIM_SYSTEM_CHECK_H
#define UVMSIM_SYSTEM_CHECK_H

#include "core/base.h"

struct config;
struct workload;

/* The workload's allocations fit the simulated 48-bit virtual address
 * space (the GMMU's 4-level page table). */
void system_check_workload(const struct config *cfg, const struct workload *wl);
/* GPU memory as a fraction of the footprint holds at least one page. */
void system_check_footprint(const struct config *cfg, const struct workload *wl);
/* GPU memory of PAGES frames fits the chunk allocator (32-bit frame
 * numbers) and the host memory its bookkeeping takes. */
void system_check_memory(const struct config *cfg, const struct workload *wl,
                         uint64_t pages);
/* sim.watchdog plus the longest stretch that the configured latencies can
 * make without anything completing (0: off). */
sim_time system_watchdog(const struct config *cfg);
/* The bound alone (tests). */
sim_time system_latency_bound(const struct config *cfg);
/* The shortest time an access can take to complete; a sim.watchdog the
 * user set below it is refused (system_check_watchdog). */
sim_time system_watchdog_floor(const struct config *cfg);
void system_check_watchdog(const struct config *cfg);

#endif

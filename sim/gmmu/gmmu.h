/* GPU MMU (sim/gmmu): page table, page walker, fault buffer.
 * Walk requests (REQ_XLATE) arrive in gmmu_walk_in() and are answered into
 * req->reply once the page is resident.  A walk that finds the page absent
 * logs a fault in the fault buffer and parks the request until the driver
 * maps the page (replayable far fault). */
#ifndef UVMSIM_GMMU_H
#define UVMSIM_GMMU_H

#include "../engine.h"
#include "../mem_req.h"

struct config;
struct stats;

/* One fault buffer entry, as the hardware logs it. */
struct fault_entry {
    uint64_t vpn;
    enum req_kind access;
    uint16_t sm;
    sim_time t;
};

struct gmmu;

struct gmmu *gmmu_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom);
void gmmu_free(struct gmmu *g);
struct mq *gmmu_walk_in(struct gmmu *g);
/* The driver component, woken (after the interrupt latency) by new faults. */
void gmmu_set_driver(struct gmmu *g, struct component *driver);

/* Called when a walk logs a fault (the SM side uses it to account the
 * warps waiting on that page as fault-stalled). */
typedef void (*gmmu_fault_hook)(void *ctx, unsigned sm, uint64_t vpn, sim_time now);
void gmmu_set_fault_hook(struct gmmu *g, gmmu_fault_hook fn, void *ctx);

/* Driver side. */
size_t gmmu_faults_pending(const struct gmmu *g);
/* Move up to `max` entries out of the fault buffer, oldest first. */
size_t gmmu_fetch_faults(struct gmmu *g, struct fault_entry *out, size_t max,
                         sim_time now);
/* Make vpn resident at frame pfn and answer the walks parked on it. */
void gmmu_map(struct gmmu *g, uint64_t vpn, uint64_t pfn, sim_time now);
/* Make vpn non-resident; returns whether the GPU wrote it since mapping. */
bool gmmu_unmap(struct gmmu *g, uint64_t vpn, sim_time now);
bool gmmu_is_resident(const struct gmmu *g, uint64_t vpn);
/* Frame of a resident page. */
uint64_t gmmu_frame_of(const struct gmmu *g, uint64_t vpn);


#endif

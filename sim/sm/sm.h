/* GPU cores (sim/sm): kernel launch, thread-block dispatch, warps, warp
 * scheduling and coalescing.  Each SM sends translation requests to its L1
 * TLB and line requests to the memory side; answers come back into the
 * SM's own queues through req->reply. */
#ifndef UVMSIM_SM_H
#define UVMSIM_SM_H

#include "../engine.h"
#include "../mem_req.h"

struct config;
struct stats;
struct req_pool;
struct workload;

struct gpu;

struct gpu *gpu_create(struct engine *e, const struct config *cfg,
                       struct stats *st, struct req_pool *pool,
                       const struct domain *dom, struct workload *wl);
void gpu_free(struct gpu *g);
unsigned gpu_num_sms(const struct gpu *g);
/* Where SM `sm` sends translations, and where line requests go (routed by
 * physical address). */
void gpu_set_ports(struct gpu *g, unsigned sm, struct mq *xlate_out,
                   struct mem_port mem_out);
/* A translation for page vpn requested by SM `sm` faulted: its warps
 * waiting on vpn are fault-stalled until the translation returns. */
void gpu_note_fault(void *gpu, unsigned sm, uint64_t vpn, sim_time now);
/* SM `sm` issues no instruction before `until` (TLB shootdown cost). */
void gpu_block_issue(struct gpu *g, unsigned sm, sim_time until);
/* Start the workload's program. */
void gpu_start(struct gpu *g, sim_time now);
bool gpu_busy(const struct gpu *g);
uint64_t gpu_kernels_done(const struct gpu *g);


#endif

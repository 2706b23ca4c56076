/* Address translation caches (sim/tlb): a private L1 TLB per SM and one
 * shared L2 TLB, each with MSHRs that merge misses to the same page.
 * Requests (REQ_XLATE) arrive in tlb_l1_in(sm) and are answered into
 * req->reply with req->paddr set; L2 misses go to the page walker's queue
 * with a request of the L2's own. */
#ifndef UVMSIM_TLB_H
#define UVMSIM_TLB_H

#include "../engine.h"

struct config;
struct stats;
struct req_pool;

struct tlb;

struct tlb *tlb_create(struct engine *e, const struct config *cfg,
                       struct stats *st, struct req_pool *pool,
                       const struct domain *dom, unsigned nsms);
void tlb_free(struct tlb *t);
struct mq *tlb_l1_in(struct tlb *t, unsigned sm);
void tlb_set_walker(struct tlb *t, struct mq *walk_in);
/* Invalidate every cached translation of virtual page `vpn` (the driver
 * unmapped it). */
void tlb_shootdown(struct tlb *t, uint64_t vpn, sim_time now);


#endif

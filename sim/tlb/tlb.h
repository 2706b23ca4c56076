/* Address translation caches (sim/tlb): a private L1 TLB per SM and one
 * shared L2 TLB, each with MSHRs that merge misses to the same page and
 * serve hits under misses; entries of 4 KiB, 64 KiB and 2 MiB pages
 * coexist.  Requests (REQ_XLATE) arrive in tlb_l1_in(sm) and are answered
 * into req->reply with req->paddr set (req->size: the page's bytes,
 * req->xflags: XLATE_* of sim/core/mem_req.h); L2 misses go to the page
 * walker's queue with a request of the L2's own.  A walk that faults
 * frees the MSHRs (the fault NACK) and the L1 hands its accesses to the
 * GMMU (tlb_set_fault_hook), which parks them until a replay sends them
 * back (tlb_replay). */
#ifndef UVMSIM_TLB_H
#define UVMSIM_TLB_H

#include <stdio.h>
#include "core/engine.h"
#include "config/config.h"
#include "core/engine.h"

struct config;
struct stats;
struct req_pool;
struct mem_req;

struct tlb;

struct tlb *tlb_create(struct engine *e, const struct config *cfg,
                       struct stats *st, struct req_pool *pool,
                       const struct domain *dom, unsigned nsms);
void tlb_free(struct tlb *t);
struct mq *tlb_l1_in(struct tlb *t, unsigned sm);
void tlb_set_walker(struct tlb *t, struct mq *walk_in);
/* sim.model fast (tlb_fast.c): SM sm's lookup of r at `now`, answered
 * without the level's tick: true when taken (a hit answers r->reply at
 * the lookup's port cycle + tlb.l1.latency), false when r must go through
 * tlb_l1_in as in the cycle model.  The hook form fits gpu_set_xlate_now. */
bool tlb_l1_lookup_now(struct tlb *t, unsigned sm, struct mem_req *r, sim_time now);
bool tlb_l1_lookup_hook(void *tlb, unsigned sm, struct mem_req *r, sim_time now);
/* The same lookup when it hits: r translated in place, *at its answer time
 * (the port cycle + tlb.l1.latency), nothing pushed; false: not a hit,
 * nothing taken.  The hook form fits gpu_set_xlate_hit. */
bool tlb_l1_hit_now(struct tlb *t, unsigned sm, struct mem_req *r, sim_time now, sim_time *at);
bool tlb_l1_hit_hook(void *tlb, unsigned sm, struct mem_req *r, sim_time now, sim_time *at);

/* Invalidate every cached translation of virtual page `vpn` (the driver
 * unmapped or remapped it).  When the GPU may hold it, the shootdown costs
 * `tlb.shootdown.cycles` of issue stall on every SM (scope `all`) or on the
 * SMs whose L1 held it (scope `sharers`), through the shootdown hook.
 * "May hold" is tlb.shootdown.filter: `present`, some TLB holds it now;
 * `touched`, the OS sharers list (thesis Sec. 5.3.1): the GPU has walked
 * the page since it was first mapped (the sharer hook), whether or not
 * the entry is still cached.  Returns whether a shootdown was charged
 * (false: none was needed). */
bool tlb_shootdown(struct tlb *t, uint64_t vpn, sim_time now);
/* One shootdown of every entry that translates a page of [vpn, vpn + n)
 * (a large page unmapped or split, a chunk evicted: the real driver's
 * ranged invalidate, uvm_tlb_batch_invalidate), costed once. */
bool tlb_shootdown_range(struct tlb *t, uint64_t vpn, uint64_t n, sim_time now);
/* The sharers list of tlb.shootdown.filter touched: whether the GPU has
 * been handed a translation of a page of [vpn, vpn + n) (gmmu_referenced
 * fits).  Needed with that filter; unused with `present`. */
typedef bool (*tlb_sharer_fn)(void *ctx, uint64_t vpn, uint64_t n);
void tlb_set_sharer_hook(struct tlb *t, tlb_sharer_fn fn, void *ctx);
/* Called per stalled SM with the time before which it may not issue. */
typedef void (*tlb_shootdown_hook)(void *ctx, unsigned sm, sim_time until);
void tlb_set_shootdown_hook(struct tlb *t, tlb_shootdown_hook fn, void *ctx);

/* Stop (stalled = true) or resume SM `sm`'s translation: its L1 TLB serves
 * no lookup while stalled (the GMMU could not log its fault).  The
 * signature fits gmmu_stall_hook, so the GMMU can call it directly. */
void tlb_stall_sm(void *tlb, unsigned sm, bool stalled, sim_time now);

/* Called by SM `sm`'s L1 TLB when a walk it waited for faulted (the fault
 * NACK, XLATE_FAULT, came back through the L2, which freed its MSHR): the
 * L1 frees its MSHR too and hands over `reqs`, the SM's accesses that
 * waited on it (linked through ->next: one page, one access need), which
 * the receiver now owns (gmmu_utlb_fault fits). */
typedef void (*tlb_fault_hook)(void *ctx, unsigned sm, struct mem_req *reqs, sim_time now);
void tlb_set_fault_hook(struct tlb *t, tlb_fault_hook fn, void *ctx);
/* A replay: `reqs` (linked through ->next) re-enter SM `sm`'s L1 TLB as
 * lookups, each visible one lookup latency from now, ahead of new ones;
 * never refused.  The signature fits gmmu_replay_hook. */
void tlb_replay(void *tlb, unsigned sm, struct mem_req *reqs, sim_time now);

/* Called by an L1 TLB for every translation it answers whose page is
 * mapped remote (the access counters count these). */
typedef void (*tlb_remote_hook)(void *ctx, unsigned sm, uint64_t vaddr, sim_time now);
void tlb_set_remote_hook(struct tlb *t, tlb_remote_hook fn, void *ctx);

/* Read-only views (uvmsim step): an SM's L1 TLB (every valid entry and
 * the MSHRs), the L2 TLB (set >= 0: that set's ways; -1: every valid
 * entry). */
void tlb_describe_l1(const struct tlb *t, unsigned sm, FILE *out);
void tlb_describe_l2(const struct tlb *t, long set, FILE *out);

/* Config keys and checks of this room (sim/config_schema.c lists them). */
extern const struct cfg_key tlb_config_keys[];
bool tlb_config_check(const struct config *c, struct cfg_error *err);

#endif

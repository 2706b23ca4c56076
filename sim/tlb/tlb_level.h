/* Private to sim/tlb: one TLB level as a component (an SM's L1, or the
 * shared L2): lookup ports, entry array, MSHRs, the queue to the level
 * below and the fill queue from it; an L1 also has its replay queue. */
#ifndef UVMSIM_TLB_LEVEL_H
#define UVMSIM_TLB_LEVEL_H

#include "tlb.h"
#include "tlb_array.h"
#include "tlb_mshr.h"

struct req_pool;

/* What every level of one TLB hierarchy shares. */
struct tlb_shared {
    struct req_pool *pool;
    tlb_remote_hook remote;       /* L1 answers for remote pages */
    void *remote_ctx;
    tlb_fault_hook fault;         /* L1 fault NACKs: the accesses go to the GMMU */
    void *fault_ctx;
};

struct tlb_level_stats {
    uint64_t *hits, *misses, *merges, *mshr_full, *port_conflicts, *evictions, *nacks;
};

struct tlb_level {
    struct component comp;
    char name[24];
    struct tlb_shared *sh;
    int sm;                       /* L1: its SM; L2: -1 */
    struct mq in;                 /* lookups; queue latency = lookup latency */
    struct mq fill;               /* answers from the level below */
    struct mq *down;              /* the level below's request queue */
    uint32_t ports;
    bool stalled;                 /* L1 of an SM whose fault could not be logged */
    /* L1: accesses a replay sent back (through ->next; never refused: the
     * requests link themselves, so it holds whatever the SM has in
     * flight); each becomes visible its t_issue + the lookup latency. */
    struct mem_req *rp_head, *rp_tail;
    uint32_t rp_n;
    struct tlb_array arr;
    struct tlb_mshrs mshr;
    struct tlb_level_stats st;
    /* sim.model fast (tlb_fast.c): the lookup ports as an occupancy
     * counter, port_used lookups taken in the cycle at port_cycle. */
    sim_time latency, port_cycle;
    uint32_t port_used;
};

/* Geometry and timing of one level. */
struct tlb_level_cfg {
    uint32_t entries, ways, ports, mshrs, in_cap;
    sim_time latency;
};

void tlb_level_init(struct tlb_level *t, struct engine *e, const struct domain *dom,
                    const char *name, int sm, const struct tlb_level_cfg *c,
                    struct tlb_shared *sh, const struct tlb_level_stats *st);
void tlb_level_free(struct tlb_level *t);
/* One lookup at `now` (tlb_level.c): a hit answers r->reply at now, a
 * miss takes or merges into an MSHR and goes down; false when it must
 * wait (no MSHR free, or the level below full). */
bool tlb_level_lookup(struct tlb_level *t, struct mem_req *r, sim_time now);
/* sim.model fast: the hit half of tlb_level_lookup, r translated in place
 * and answered to nobody (false: not a hit, nothing changed). */
bool tlb_level_hit(struct tlb_level *t, struct mem_req *r, sim_time now);
/* SM sm's L1 level (tlb.c). */
struct tlb_level *tlb_l1_level(struct tlb *t, unsigned sm);

#endif

/* sim.model fast (issue 41, 2c): an L1 TLB lookup answered when the SM
 * sends it instead of by the level's tick.  The lookup takes the first
 * free port (tlb.l1.ports per cycle, an occupancy counter) and happens
 * tlb.l1.latency after it: a hit's answer reaches the SM exactly then
 * (the cycle model's queue latency), a miss takes its MSHR and goes down
 * then; the L2 TLB, the walker with its concurrency and queueing, fills,
 * fault NACKs and replays are the cycle model's.  Whatever the level
 * already holds (queued lookups, replayed accesses, a stall on a full
 * fault buffer) goes first: the lookup then takes the queue, as in cycle. */
#include "tlb_level.h"

bool tlb_l1_lookup_now(struct tlb *tlb, unsigned sm, struct mem_req *r, sim_time now)
{
    struct tlb_level *t = tlb_l1_level(tlb, sm);
    if (t->stalled || t->in.n || t->rp_head) return false;
    sim_time period = t->comp.dom->period;
    if (t->port_cycle < now) {
        t->port_cycle = domain_edge(t->comp.dom, now);
        t->port_used = 0;
    }
    if (t->port_used == t->ports) {
        t->port_cycle += period;
        t->port_used = 0;
    }
    if (!tlb_level_lookup(t, r, t->port_cycle + t->latency)) return false;
    t->port_used++;
    return true;
}

bool tlb_l1_lookup_hook(void *tlb, unsigned sm, struct mem_req *r, sim_time now)
{
    return tlb_l1_lookup_now(tlb, sm, r, now);
}

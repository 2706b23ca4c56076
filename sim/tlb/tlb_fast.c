/* sim.model fast (issue 41, 2c): an L1 TLB lookup answered when the SM
 * sends it instead of by the level's tick.  The lookup takes the first
 * free port (tlb.l1.ports per cycle, an occupancy counter) and happens
 * tlb.l1.latency after it: a hit's answer reaches the SM exactly then
 * (the cycle model's queue latency), a miss takes its MSHR and goes down
 * then; the L2 TLB, the walker with its concurrency and queueing, fills,
 * fault NACKs and replays are the cycle model's.  Whatever the level
 * already holds (queued lookups, replayed accesses, a stall on a full
 * fault buffer) goes first: the lookup then takes the queue, as in cycle.
 * tlb_l1_hit_now is the same lookup for a hit only, answered to the
 * caller with its time instead of into r->reply (the SM then times the
 * page's lines at once, sm/fast.c). */
#include "tlb_level.h"

/* The cycle of the first free port at or after now (not taken yet). */
static sim_time port_slot(struct tlb_level *t, sim_time now)
{
    if (t->port_cycle < now) {
        t->port_cycle = domain_edge(t->comp.dom, now);
        t->port_used = 0;
    }
    if (t->port_used == t->ports) {
        t->port_cycle += t->comp.dom->period;
        t->port_used = 0;
    }
    return t->port_cycle;
}

bool tlb_l1_lookup_now(struct tlb *tlb, unsigned sm, struct mem_req *r, sim_time now)
{
    struct tlb_level *t = tlb_l1_level(tlb, sm);
    if (t->stalled || t->in.n || t->rp_head) return false;
    if (!tlb_level_lookup(t, r, port_slot(t, now) + t->latency)) return false;
    t->port_used++;
    return true;
}

bool tlb_l1_hit_now(struct tlb *tlb, unsigned sm, struct mem_req *r, sim_time now, sim_time *at)
{
    struct tlb_level *t = tlb_l1_level(tlb, sm);
    if (t->stalled || t->in.n || t->rp_head) return false;
    sim_time a = port_slot(t, now) + t->latency;
    if (!tlb_level_hit(t, r, a)) return false;
    t->port_used++;
    *at = a;
    return true;
}

bool tlb_l1_hit_hook(void *tlb, unsigned sm, struct mem_req *r, sim_time now, sim_time *at)
{
    return tlb_l1_hit_now(tlb, sm, r, now, at);
}

bool tlb_l1_lookup_hook(void *tlb, unsigned sm, struct mem_req *r, sim_time now)
{
    return tlb_l1_lookup_now(tlb, sm, r, now);
}

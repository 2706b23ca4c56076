/* Config keys of the eviction policies (sim/driver/evict_*.c).  Defaults
 * are the papers' values: HPE = Yu et al., TCAD 2020; RRIP = Jaleel et al.,
 * ISCA 2010; CLOCK-Pro = Jiang et al., USENIX ATC 2005; cyclic thrashing =
 * Park et al. (WIP).  Where a paper is silent the choice is uvmsim's and
 * docs/policies.md says why. */
#include <stdio.h>
#include <string.h>
#include "driver/driver.h"
#include "config/config.h"

const struct cfg_key evict_config_keys[] = {
    {"driver.eviction", CFG_ENUM, "fifo", 0, -1, NULL /* evict_policies[] */,
     "eviction policy: fifo (the real driver's chunk list, age-based LRU), lru (page LRU fed by accesses), "
     "random, srrip/brrip/rrip-fp (RRIP; rrip-fp is HPE Sec. V-B's with the fault-number delay), "
     "clock-pro, ideal (Belady's MIN over the program's page references in a logical order), hpe, cyclic (cyclic-thrashing pinning/shuffling); "
     "docs/policies.md"},
    {"driver.evict.wrong_window", CFG_INT, "128", 0, 1 << 24, NULL,
     "a page mapped again while among the last this many victims counts as a wrong eviction (HPE Sec. V-A FIFO depth)"},
    {"driver.evict.replay_tlb", CFG_INT, "0", 0, 1 << 24, NULL,
     "replay: entries of a fully associative LRU TLB in front of the policy; only its misses are fed as walk hits "
     "(0: every reference to a resident page is; HPE Table I's L2 TLB has 512)"},
    {"driver.evict.replay_walks", CFG_ENUM, "skip", 0, -1, "skip|feed",
     "timed runs: the page-walk hit of an access replayed after its fault, for policies fed walk hits "
     "(lru, rrip, clock-pro; hpe with hit_feed ideal): skip (it is the reference that faulted, fed once as the fault) "
     "or feed (a walk hit like any other, as the HIR records it: HPE Sec. V-B's 'page walk hits and page faults' "
     "read literally; issue 42)"},
    {"driver.evict.record", CFG_STRING, "", 0, -1, NULL,
     "write the page-reference stream the policy is fed (faults and walk hits, in order) to this file, "
     "a trace for uvmsim replay"},
    {"driver.evict.rrip.bits", CFG_INT, "2", 1, 8, NULL,
     "RRIP: bits of the re-reference prediction value, M (Jaleel et al. 2010: 2)"},
    {"driver.evict.rrip.brrip_long", CFG_FRACTION, "3.125%", 0, 1, NULL,
     "BRRIP: share of insertions with a long instead of distant prediction (Jaleel et al. 2010: 1/32)"},
    {"driver.evict.rrip_fp.insert", CFG_ENUM, "long", 0, -1, "long|distant",
     "RRIP-FP insertion prediction (HPE Sec. V-B: distant for thrashing type II, long otherwise)"},
    {"driver.evict.rrip_fp.delay", CFG_INT, "0", 0, 1LL << 40, NULL,
     "RRIP-FP: faults since a page's insertion before it may be a victim (HPE Sec. V-B: 128 for type II, 0 otherwise)"},
    {"driver.evict.clock_pro.cold", CFG_INT, "128", 1, 1LL << 40, NULL,
     "CLOCK-Pro m_c, frames for resident cold pages (HPE Sec. V-B: 128; capped at frames - 1)"},
    {"driver.evict.clock_pro.adaptive", CFG_BOOL, "false", 0, -1, NULL,
     "CLOCK-Pro: adapt m_c (+1 on a test-period hit, -1 on a test period ending unused; Jiang et al. Sec. 4.3); "
     "HPE used a fixed 128"},
    {"driver.evict.hpe.set_pages", CFG_INT, "16", 2, 64, NULL,
     "HPE page-set size, a power of two (Sec. V-A: 16)"},
    {"driver.evict.hpe.counter_max", CFG_INT, "64", 1, 1 << 20, NULL,
     "HPE page-set counter saturation (Sec. IV-C: 64)"},
    {"driver.evict.hpe.interval", CFG_INT, "64", 1, 1 << 24, NULL,
     "HPE interval length in faults (Sec. V-A: 64)"},
    {"driver.evict.hpe.ratio1", CFG_FLOAT, "0.3", 0, 1e9, NULL,
     "HPE classification: irregular#2 when ratio1 (irregular / regular counters) exceeds this (Sec. V-A: 0.3)"},
    {"driver.evict.hpe.ratio2", CFG_FLOAT, "2", 0, 1e9, NULL,
     "HPE classification: irregular#1 when ratio2 (large / small regular counters) is at least this (Table III: 2)"},
    {"driver.evict.hpe.fifo_depth", CFG_INT, "128", 1, 1 << 24, NULL,
     "HPE dynamic adjustment: evicted pages remembered per strategy (Sec. V-A: 128, two intervals)"},
    {"driver.evict.hpe.wrong_threshold", CFG_INT, "16", 1, 1 << 24, NULL,
     "HPE dynamic adjustment: wrong evictions in an interval that trigger it (Sec. V-A: 16, the set size)"},
    {"driver.evict.hpe.jump", CFG_INT, "16", 0, 1 << 24, NULL,
     "HPE: page sets the MRU-C search point jumps toward LRU on a trigger (Sec. IV-E: 16)"},
    {"driver.evict.hpe.large_footprint", CFG_INT, "64", 0, 1LL << 40, NULL,
     "HPE: old-partition page sets at first fill below which regular apps never jump (Sec. IV-E: 4 x set size)"},
    {"driver.evict.hpe.history", CFG_INT, "1024", 1, 1 << 24, NULL,
     "HPE history buffer entries for divided primaries removed from the chain (size not in the paper)"},
    {"driver.evict.hpe.hit_feed", CFG_ENUM, "hir", 0, -1, "hir|ideal|none",
     "HPE hit information: hir (batched transfers, Sec. IV-B), ideal (every walk hit in order, Sec. V-A), none (faults only)"},
    {"driver.evict.hpe.hir_interval", CFG_INT, "16", 1, 1 << 24, NULL,
     "replay: hit information is handed to HPE every this many faults, as the HIR transfers do (Sec. V-A: 16)"},
    {"driver.evict.hpe.classify", CFG_ENUM, "first_victim", 0, -1, "first_victim|faulted_fill",
     "HPE: when the classification is made: first_victim (the first time the driver needs a frame, whatever "
     "filled the memory) or faulted_fill (the first victim once faults have brought in as many pages as the "
     "memory holds: Sec. IV-D's 'when the GPU memory is full for the first time' in its demand-paged runs, "
     "where no program copy fills memory with untouched pages; until then the strategy is LRU; issue 42)"},
    {"driver.evict.hpe.strategy", CFG_ENUM, "auto", 0, -1, "auto|mru-c|lru",
     "HPE: auto (classification at first fill), or a fixed strategy as in the sensitivity study (Sec. V-A)"},
    {"driver.evict.hpe.adjust", CFG_BOOL, "true", 0, -1, NULL,
     "HPE dynamic adjustment (Sec. IV-E, Algorithm 1)"},
    {"driver.evict.cyclic.base", CFG_ENUM, "fifo", 0, -1, "fifo|lru|random",
     "cyclic: the policy whose eviction order is pinned against or shuffled (Park et al.: the driver's list)"},
    {"driver.evict.cyclic.mode", CFG_ENUM, "pin", 0, -1, "pin|shuffle",
     "cyclic: while thrashing, pin pages (Park et al. Sec. II-B) or shuffle the eviction order (Sec. II-C)"},
    {"driver.evict.cyclic.ratio", CFG_FRACTION, "75%", 1e-6, 1, NULL,
     "cyclic: thrashing when a peer group reaches this share of the group with one fewer eviction (Park et al. Fig. 1: 75%)"},
    {"driver.evict.cyclic.pin", CFG_FRACTION, "25%", 0, 1, NULL,
     "cyclic pin: share of GPU memory pinned while thrashing (Park et al. Fig. 1: 25%)"},
    {"driver.evict.cyclic.min_group", CFG_FRACTION, "5%", 0, 1, NULL,
     "cyclic: peer groups smaller than this share of GPU memory are outliers and ignored (threshold not in the paper)"},
    {"driver.evict.cyclic.hold", CFG_FLOAT, "2", 1e-6, 1e6, NULL,
     "cyclic: thrashing ends after this many GPU memories' worth of evictions without a new detection (not in the paper)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* HPE fed by the HIR with the HIR forced off would run without its hit
 * information (every workload "regular", issue 11.1): refused, naming both
 * keys, where gmmu.hir.enabled was set. */
bool evict_config_check(const struct config *c, struct cfg_error *err)
{
    if (!cfg_is(c, "driver.eviction", "hpe") || !cfg_is(c, "driver.evict.hpe.hit_feed", "hir") ||
        !cfg_is(c, "gmmu.hir.enabled", "false"))
        return true;
    const struct cfg_value *v = cfg_get(c, "gmmu.hir.enabled");
    char where[300] = "";
    if (v->file && v->line)
        snprintf(where, sizeof where, "%s:%d:%d: ", v->file, v->line, v->col);
    else if (v->file)
        snprintf(where, sizeof where, "%s 'gmmu.hir.enabled=%s': ", v->file, v->text);
    snprintf(err->msg, sizeof err->msg,
             "%skey 'gmmu.hir.enabled': false, but driver.eviction=hpe with driver.evict.hpe.hit_feed=hir "
             "takes its hit information from the HIR; leave gmmu.hir.enabled at auto or choose "
             "driver.evict.hpe.hit_feed ideal or none", where);
    return false;
}

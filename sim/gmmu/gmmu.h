/* GPU MMU (sim/gmmu): page table, page walker (with page-walk cache), HIR
 * cache, fault buffer, access counters.
 * Walk requests (REQ_XLATE) arrive in gmmu_walk_in() and are answered into
 * req->reply with req->paddr, req->size (the page's bytes) and req->xflags
 * (XLATE_* of sim/core/mem_req.h) set.  A walk that finds the page absent (or a
 * write to a read-only page) faults (replayable far fault): a TLB's walk
 * (XLATE_WANT_NACK) is answered with XLATE_FAULT, and the L1 TLB hands its
 * waiting accesses to gmmu_utlb_fault, which logs one fault-buffer entry
 * per uTLB and page and parks them until a replay re-executes them; the
 * walk of a client with no TLB is parked by the walker itself. */
#ifndef UVMSIM_GMMU_H
#define UVMSIM_GMMU_H

#include <stdio.h>
#include "core/engine.h"
#include "core/mem_req.h"
#include "config/config.h"
#include "core/engine.h"
#include "core/mem_req.h"

struct config;
struct stats;
struct link;

/* One fault buffer entry, as the hardware logs it. */
struct fault_entry {
    uint64_t vpn;
    enum req_kind access;
    uint16_t sm;              /* the uTLB (the SM's L1 TLB) that faulted */
    bool protection;          /* a write to a read-only page (page is mapped) */
    sim_time t;
};

struct gmmu;

struct gmmu *gmmu_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom);
void gmmu_free(struct gmmu *g);
struct mq *gmmu_walk_in(struct gmmu *g);
/* Where PTE reads go in the memory walk mode (GPU memory / L2 slices),
 * and the pool their requests come from. */
void gmmu_set_memory(struct gmmu *g, struct mem_port port, struct req_pool *pool);
/* The link that carries HIR records to the driver. */
void gmmu_set_link(struct gmmu *g, struct link *l);
/* The driver component, woken (after the interrupt latency) by new faults
 * and access-counter notifications. */
void gmmu_set_driver(struct gmmu *g, struct component *driver);

/* Called when SM `sm`'s uTLB raises a fault on page vpn (its first since
 * the last replay; not for replayed accesses faulting again, whose warps
 * are already stalled): the SM side accounts its warps waiting on that
 * page as fault-stalled. */
typedef void (*gmmu_fault_hook)(void *ctx, unsigned sm, uint64_t vpn, sim_time now);
void gmmu_set_fault_hook(struct gmmu *g, gmmu_fault_hook fn, void *ctx);
/* SM `sm`'s L1 TLB got a fault NACK: `reqs` (linked through ->next, one
 * page and one access need) are the accesses that waited on its freed
 * MSHR; the GMMU now owns them (fits tlb_fault_hook). */
void gmmu_utlb_fault(void *gmmu, unsigned sm, struct mem_req *reqs, sim_time now);
/* Where a replay sends the parked accesses of SM `sm`'s uTLB back into
 * translation (tlb_replay fits): they re-walk, fill the TLBs, or fault
 * again. */
typedef void (*gmmu_replay_hook)(void *ctx, unsigned sm, struct mem_req *reqs, sim_time now);
void gmmu_set_replay_hook(struct gmmu *g, gmmu_replay_hook fn, void *ctx);
/* Called when SM `sm`'s translation must stop (its fault found the fault
 * buffer full) and when it may resume (tlb_stall_sm fits). */
typedef void (*gmmu_stall_hook)(void *ctx, unsigned sm, bool stalled, sim_time now);
void gmmu_set_stall_hook(struct gmmu *g, gmmu_stall_hook fn, void *ctx);
/* Called on every walk that finds its page resident (the references a
 * driver-side policy would see with an ideal walk-hit feed); the walk of
 * an access replayed after its fault only when `replayed` (it is the
 * reference that faulted: driver.evict.replay_walks). */
typedef void (*gmmu_walk_hit_hook)(void *ctx, uint64_t vpn, sim_time now);
void gmmu_set_walk_hit_hook(struct gmmu *g, gmmu_walk_hit_hook fn, void *ctx, bool replayed);
/* Called on every walk that hands out a translation of a page mapped
 * remote: the GPU's TLB misses on host-homed pages, the hints of dynamic
 * migration (thesis Sec. 5.2.1). */
typedef void (*gmmu_remote_walk_hook)(void *ctx, uint64_t vpn, sim_time now);
void gmmu_set_remote_walk_hook(struct gmmu *g, gmmu_remote_walk_hook fn, void *ctx);
/* Called when a store sets a PTE's dirty bit (once per page per mapping):
 * the host's read-back learns which allocations the kernels wrote. */
typedef void (*gmmu_dirty_hook)(void *ctx, uint64_t vpn);
void gmmu_set_dirty_hook(struct gmmu *g, gmmu_dirty_hook fn, void *ctx);

/* ---- driver side ---- */
size_t gmmu_faults_pending(const struct gmmu *g);
/* Move up to `max` entries out of the fault buffer, oldest first (faults
 * waiting for room are logged into the space this frees). */
size_t gmmu_fetch_faults(struct gmmu *g, struct fault_entry *out, size_t max,
                         sim_time now);

/* Replay at the driver's signal (replay.c).  Off (the default): mapping a
 * page releases the accesses parked on it at once.  On: they wait for
 * gmmu_replay, which re-executes every access parked behind a written
 * entry: they re-enter translation at their L1 TLB, and those whose page
 * is still absent fault again (one new entry per uTLB and page).  Faults
 * still waiting for buffer room stay, unless `flush`: then every
 * fault-buffer entry and every waiting fault is discarded first, and all
 * parked accesses are re-executed.  Returns the accesses re-executed. */
void gmmu_defer_replay(struct gmmu *g, bool on);
size_t gmmu_replay(struct gmmu *g, bool flush, sim_time now);

enum { GMMU_MAP_READONLY = 1, GMMU_MAP_REMOTE = 2 };
/* Map the page of 2^page_shift bytes (12, 16 or 21; vpn and pfn aligned to
 * it) at frame pfn: in GPU memory, or with GMMU_MAP_REMOTE in host memory
 * (host frame pfn, reached over the link without a fault); release the
 * accesses parked on it (unless replays are deferred). */
void gmmu_map_page(struct gmmu *g, uint64_t vpn, uint64_t pfn, unsigned page_shift,
                   unsigned flags, sim_time now);
/* Page size (12, 16 or 21) of the mapping holding vpn; 12 when unmapped. */
unsigned gmmu_page_shift(const struct gmmu *g, uint64_t vpn);
/* Make the page holding mapped vpn 2^page_shift bytes: a merge of the
 * aligned region around vpn into one large page (every 4 KiB page of it
 * mapped, contiguous frames, the same protection) or a split of the large
 * page holding vpn into pages of that size (each inherits the large page's
 * dirty bit).  Frames and flags stay; parked walks are not touched; the
 * caller shoots down TLB entries the change leaves stale. */
void gmmu_set_page_size(struct gmmu *g, uint64_t vpn, unsigned page_shift, sim_time now);
/* A 4 KiB page resident in GPU memory, read-write. */
void gmmu_map(struct gmmu *g, uint64_t vpn, uint64_t pfn, sim_time now);
/* Make the page holding vpn not present; returns whether the GPU wrote it
 * since mapping.  The caller shoots down TLB entries (tlb_shootdown). */
bool gmmu_unmap(struct gmmu *g, uint64_t vpn, sim_time now);
/* Lift read-only protection (a protection fault was serviced): the
 * accesses parked on it are released (unless replays are deferred). */
void gmmu_set_writable(struct gmmu *g, uint64_t vpn, sim_time now);
bool gmmu_is_resident(const struct gmmu *g, uint64_t vpn);   /* in GPU memory */
bool gmmu_is_remote(const struct gmmu *g, uint64_t vpn);     /* mapped remote */
bool gmmu_is_read_only(const struct gmmu *g, uint64_t vpn);
/* The OS sharers list (thesis Sec. 5.3.1): whether a walk has ever handed
 * the GPU a translation of a page of [vpn, vpn + n) (or of the large page
 * holding it).  Remaps keep it; tlb_sharer_fn fits. */
bool gmmu_referenced(void *gmmu, uint64_t vpn, uint64_t n);
/* Frame of a resident (or remote) page. */
uint64_t gmmu_frame_of(const struct gmmu *g, uint64_t vpn);

/* ---- HIR cache (HPE Sec. IV-B) ---- */
#define HIR_MAX_SET_PAGES 32
struct hir_record {
    uint64_t page_set;                    /* vpn >> log2(set pages) */
    uint64_t first_vpn;
    uint8_t count[HIR_MAX_SET_PAGES];     /* saturating walk-hit counters */
};
/* Something takes the HIR's records (the driver's eviction policy): with
 * gmmu.hir.enabled=auto the HIR turns on. */
void gmmu_hir_wanted(struct gmmu *g);
/* Hand the touched entries to the driver now (before an eviction; they
 * travel on the link with the evicted page) and flush the HIR. */
void gmmu_hir_flush(struct gmmu *g, sim_time now);
/* Records that have reached the driver's host buffer by `now`, in the
 * order they were first touched; removes them. */
size_t gmmu_hir_fetch(struct gmmu *g, struct hir_record *out, size_t max, sim_time now);
/* Called when a transfer of records has landed in the host buffer (they
 * can be fetched at `now`); unset, they wait for the driver's next batch
 * (gmmu.hir.drain). */
typedef void (*gmmu_hir_landed_hook)(void *ctx, sim_time now);
void gmmu_set_hir_landed_hook(struct gmmu *g, gmmu_hir_landed_hook fn, void *ctx);

/* ---- access counters (Volta-style) ---- */
struct access_notification {
    uint64_t vaddr;           /* first byte of the region */
    uint16_t sm;              /* the SM whose access crossed the threshold */
    sim_time t;
};
/* Count one access to remote memory (fits tlb_remote_hook). */
void gmmu_note_remote_access(void *gmmu, unsigned sm, uint64_t vaddr, sim_time now);
size_t gmmu_access_notifications_pending(const struct gmmu *g);
size_t gmmu_fetch_access_notifications(struct gmmu *g, struct access_notification *out,
                                       size_t max);

/* ---- read-only views (uvmsim step) ---- */
/* The walker (threads, queued and parked walks) and the fault buffer. */
void gmmu_describe(const struct gmmu *g, FILE *out);
/* Every fault-buffer entry, oldest first. */
void gmmu_describe_faults(const struct gmmu *g, FILE *out);
/* One page's PTE: mapping, frame, size, flags, parked walks. */
void gmmu_describe_page(const struct gmmu *g, uint64_t vpn, FILE *out);

/* Config keys and checks of this room (sim/config_schema.c lists them). */
extern const struct cfg_key gmmu_config_keys[];

#endif

/* Private to sim/gmmu: the GMMU's state, shared by its files (walker.c:
 * the walks; gmmu.c: construction and the driver side; faults.c: the
 * uTLBs' fault records and their entries; replay.c: the replay signal;
 * hir_xfer.c: HIR transfers). */
#ifndef UVMSIM_GMMU_INTERNAL_H
#define UVMSIM_GMMU_INTERNAL_H

#include "gmmu.h"
#include "page_table.h"
#include "pwc.h"
#include "hir.h"
#include "fault_buffer.h"
#include "access_counters.h"
#include "fault_pages.h"

struct stats;
struct stat_hist;
struct stat_avg;

struct walk_slot {
    struct mem_req *r;
    sim_time start;
    uint8_t level, last;      /* memory mode: level being read, where it ends */
};

struct hir_host { struct hir_record rec; sim_time avail; };

struct gmmu {
    struct component comp;
    const struct domain *dom;
    struct mq walk_in;
    struct mq mem_resp;           /* PTE reads answered */
    struct page_table pt;
    /* walker */
    bool fixed;
    sim_time fixed_lat;
    uint32_t nwalkers, nfree;
    struct walk_slot *slot;
    uint32_t *free_slot;          /* stack */
    uint32_t *busy, busy_head, nbusy;   /* fixed mode: FIFO of completion */
    struct mem_port mem;
    struct req_pool *pool;        /* PTE reads */
    bool has_mem;
    struct mem_req **outq;        /* PTE reads waiting for a memory queue */
    uint32_t out_head, out_n;
    struct pwc pwc;
    bool pwc_on;
    /* faults (faults.c) and replay (replay.c) */
    struct fault_buffer fb;
    struct fault_pages fpages;    /* per faulted page: records, unique-fault time */
    sim_time irq_latency, stall_start;
    uint64_t parked;              /* accesses parked in fault records */
    struct fault_rec *live_head, *live_tail;   /* every record, oldest first */
    uint64_t nrecs;
    struct fault_rec *rec_free;   /* record pool (grows to the peak, never shrinks) */
    void **rec_chunks;
    size_t rec_nchunks;
    /* Replay at the driver's signal (gmmu_defer_replay). */
    bool deferred;
    struct component *driver;
    gmmu_fault_hook fault_hook;
    gmmu_walk_hit_hook hit_hook;
    void *hit_ctx;
    bool hit_replayed;     /* replayed accesses' walks reach hit_hook too */
    gmmu_dirty_hook dirty_hook;
    void *dirty_ctx;
    gmmu_remote_walk_hook rwalk_hook;
    void *rwalk_ctx;
    gmmu_hir_landed_hook hir_landed;
    void *hir_landed_ctx;
    void *fault_ctx;
    gmmu_stall_hook stall_hook;
    void *stall_ctx;
    gmmu_replay_hook replay_hook;
    void *replay_ctx;
    /* HIR */
    bool hir_on, hir_auto;        /* gmmu.hir.enabled: on; auto (on once wanted) */
    struct hir hir;
    struct hir_record *hir_tmp;
    struct hir_host *host;        /* ring: the driver's host buffer */
    uint32_t host_cap, host_head, host_n;
    uint32_t hir_every, faults_since_xfer, hir_rec_bytes;
    struct link *link;
    /* access counters */
    bool ac_on;
    struct access_counters ac;
    struct access_notification *note;
    uint32_t note_cap, note_head, note_n;
    /* stats */
    uint64_t *walks, *walk_hits, *pte_reads, *pwc_hits, *faults, *prot_faults,
             *dirty_sets, *fb_stall, *fb_occ, *fb_max, *fb_waited;
    uint64_t *replays, *refaults, *flushed, *unique_faults, *utlb_merges, *replayed;
    uint64_t *hir_records, *hir_lost, *hir_xfers, *hir_bytes, *hir_dropped;
    uint64_t *ac_counted, *ac_notes, *ac_dropped;
    struct stat_hist *walk_lat;
    struct stat_avg *fault_wait, *walk_queue;
};

/* walker.c */
extern const struct comp_ops gmmu_walker_ops;
void gmmu_answer(struct gmmu *g, struct mem_req *r, const struct pte *p, sim_time now);
/* faults.c */
/* A walk of a client with no TLB faulted: the GMMU parks it itself. */
void gmmu_fault(struct gmmu *g, struct mem_req *r, sim_time now);
void gmmu_fault_drained(struct gmmu *g, sim_time now);
/* Whether page p now allows the access (a parked fault may be let go). */
bool gmmu_allows(const struct pte *p, enum req_kind access);
/* The record leaves its page and the parked list (it is being replayed). */
void gmmu_rec_detach(struct gmmu *g, struct fault_rec *f);
void gmmu_rec_free(struct gmmu *g, struct fault_rec *f);
/* The records parked on vpn (whose PTE is p), oldest last, or NULL. */
struct fault_rec *gmmu_page_recs(const struct gmmu *g, uint64_t vpn, const struct pte *p);
/* Unlink record f from its page's list; the page's fault-map entry goes
 * when it has neither records nor PTE_FAULTED. */
void gmmu_page_unlink(struct gmmu *g, struct fault_rec *f);
/* Drop vpn's fault-map entry if its PTE no longer needs one. */
void gmmu_page_tidy(struct gmmu *g, uint64_t vpn, const struct pte *p);
/* replay.c: re-execute the accesses of a detached record (a TLB's re-enter
 * its L1 TLB; a TLB-less client's are answered, or fault again). */
void gmmu_rec_replay(struct gmmu *g, struct fault_rec *f, sim_time now);
void gmmu_release_page(struct gmmu *g, uint64_t vpn, sim_time now);
/* hir_xfer.c */
void gmmu_hir_transfer(struct gmmu *g, sim_time now);

#endif

/* Private to sim/driver: the eviction policy ops table and the evictor that
 * drives it.  A policy sees pages become resident (a fault's page mapped),
 * optionally accesses to resident pages, and chooses victims among them;
 * adding a policy is one file and one entry in evict_policies[].
 *
 * Which references a policy sees (docs/policies.md): on_resident once per
 * faulted page; touch once per reference to a resident page in exact order
 * (replay: every reference that hits; timed: what the driver is fed — walk
 * hits, the HPE paper's "ideal model" for LRU/RRIP/CLOCK-Pro, Sec. V-B);
 * hits for HIR-style batched hit information (HPE Sec. IV-B). */
#ifndef UVMSIM_DRIVER_EVICT_H
#define UVMSIM_DRIVER_EVICT_H

#include <stdio.h>
#include "core/base.h"

struct config;
struct stats;

/* A page reference at its place in the program's logical order (sm.h
 * gpu_ref): kernel launch, thread block, memory instruction of the warp,
 * warp in the block. */
struct evict_ref { uint64_t kernel, block, inst, vpn; uint32_t warp; };

struct evict_ops {
    const char *name;
    void *(*create)(const struct config *cfg, uint64_t capacity_pages);
    void (*on_resident)(void *p, uint64_t vpn);  /* page mapped on the GPU */
    /* A GPU access to a resident page; NULL for policies that ignore
     * accesses (FIFO: the real driver's list is not refreshed by them). */
    void (*touch)(void *p, uint64_t vpn);
    /* Choose and forget a victim; false when no page can be evicted. */
    bool (*victim)(void *p, uint64_t *vpn);
    void (*destroy)(void *p);
    /* Optional (NULL when unused): */
    /* Page vpn became resident without a fault asking for it (prefetcher,
     * host step): it is no reference and no fault, so no fault count, no
     * interval and no recency moves (issue 11.1, 11.4c).  NULL: on_resident. */
    void (*prefetched)(void *p, uint64_t vpn);
    /* Batched hit information: `count` references to `vpn` since the last
     * transfer (the HIR transfer every 16th fault, HPE Sec. IV-B).  Pages
     * may have been evicted since they were recorded. */
    void (*hits)(void *p, uint64_t vpn, uint32_t count);
    /* Comparisons made by the last victim() (search length, HPE Fig. 14);
     * NULL counts 1 per victim. */
    uint64_t (*last_search)(void *p);
    /* Register the policy's own statistics (names under "evict."). */
    void (*register_stats)(void *p, struct stats *st);
    /* Replay: the whole trace, in the order on_resident/touch will see it
     * (Belady's future); refs stays owned by the caller, alive until destroy. */
    void (*set_future)(void *p, const uint64_t *refs, size_t n);
    /* Timed run: the program cfg describes, for a policy that looks ahead
     * (Ideal builds its future from it); then reference() gets every page
     * reference of the run at its logical place, in any order. */
    void (*program)(void *p, const struct config *cfg);
    void (*reference)(void *p, const struct evict_ref *r);
    /* Which of touch/hits this instance uses (EVICT_FEED_* bits), when
     * that depends on its configuration (HPE's hit_feed); NULL: the ops
     * present. */
    unsigned (*feeds)(const void *p);
    /* Resident page vpn leaves GPU memory without being chosen (a prefetch
     * to the host); NULL when the policy cannot drop a page it did not
     * choose, and then such prefetches only copy. */
    void (*forget)(void *p, uint64_t vpn);
};

enum { EVICT_FEED_TOUCH = 1, EVICT_FEED_HITS = 2 };

extern const struct evict_ops evict_fifo_ops;
extern const struct evict_ops evict_lru_ops;
extern const struct evict_ops evict_random_ops;
extern const struct evict_ops evict_srrip_ops;
extern const struct evict_ops evict_brrip_ops;
extern const struct evict_ops evict_rrip_fp_ops;
extern const struct evict_ops evict_clock_pro_ops;
extern const struct evict_ops evict_ideal_ops;
extern const struct evict_ops evict_hpe_ops;
extern const struct evict_ops evict_cyclic_ops;

const struct evict_ops *evict_find(const char *name);

/* NULL-terminated; driver.eviction's choices are these names, in order. */
extern const struct evict_ops *const evict_policies[];

/* The evictor: one policy plus what every policy shares — victim count,
 * search length, wrong evictions (a page mapped again while among the last
 * driver.evict.wrong_window victims), hit records handed over, and the
 * optional recording of the stream the policy is fed (driver.evict.record,
 * a trace for `uvmsim replay`).  The driver and the replay mode both talk
 * to policies through it. */
struct evictor;
struct evictor *evictor_create(const struct config *cfg, const char *policy,
                               uint64_t capacity_pages, struct stats *st);
void evictor_free(struct evictor *ev);
/* Page vpn became resident: asked for by a fault (prefetched false) or
 * brought in without one (prefetcher, host step). */
void evictor_resident(struct evictor *ev, uint64_t vpn, bool prefetched);
void evictor_touch(struct evictor *ev, uint64_t vpn);
void evictor_hits(struct evictor *ev, uint64_t vpn, uint32_t count);
bool evictor_victim(struct evictor *ev, uint64_t *vpn);
bool evictor_can_forget(const struct evictor *ev);
void evictor_forget(struct evictor *ev, uint64_t vpn);
bool evictor_wants_touches(const struct evictor *ev);
bool evictor_wants_hits(const struct evictor *ev);
const struct evict_ops *evictor_ops(const struct evictor *ev);
void *evictor_policy(const struct evictor *ev);   /* the policy's state (test hooks) */
void evictor_set_future(struct evictor *ev, const uint64_t *refs, size_t n);
/* Timed runs: the program (evict_ops.program), then its page references. */
void evictor_program(struct evictor *ev, const struct config *cfg);
bool evictor_wants_references(const struct evictor *ev);
void evictor_reference(struct evictor *ev, const struct evict_ref *r);

/* Test hooks into HPE (evict_hpe.c). */
enum { HPE_CLASS_NONE, HPE_CLASS_REGULAR, HPE_CLASS_IRREGULAR1, HPE_CLASS_IRREGULAR2 };
/* Partition of resident page vpn: 0 old, 1 middle, 2 new; -1 not resident. */
int evict_hpe_partition(void *hpe, uint64_t vpn);
/* Table III on counts of page-set counters. */
void evict_hpe_classify_counts(uint64_t regular, uint64_t irregular, uint64_t small,
                               uint64_t large, double r1_thr, double r2_thr,
                               double *r1, double *r2, int *cls);

/* Test hook into RRIP: the prediction (RRPV) of resident page vpn, or -1. */
int evict_rrip_prediction(void *rrip, uint64_t vpn);

/* Test hooks into CLOCK-Pro: the status of page vpn; the pages the hands
 * point to (UINT64_MAX: empty clock). */
enum { CP_ABSENT, CP_HOT, CP_COLD, CP_COLD_TEST, CP_NONRES_TEST };
int evict_clock_pro_status(void *clock_pro, uint64_t vpn);
void evict_clock_pro_hands(void *clock_pro, uint64_t *hot, uint64_t *cold, uint64_t *test);

/* Test hook into the cyclic-thrashing detector: counts one eviction of
 * vpn (without choosing it) and says whether it declares thrashing. */
bool evict_cyclic_count(void *cyclic, uint64_t vpn);

/* Page-reference files (the replay trace and the recorded stream): one
 * reference per line, a page number (decimal or 0x-hex) optionally followed
 * by R or W; blank lines and '#' comments skipped.  Reads all of `in`
 * into *refs / *writes (caller frees both; writes may be NULL).  Returns 0,
 * or -1 with err = "NAME:LINE: ...". */
int page_trace_read(FILE *in, const char *name, uint64_t **refs, bool **writes,
                    size_t *n, char *err, size_t errlen);

#endif

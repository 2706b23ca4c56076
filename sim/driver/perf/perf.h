/* sim/driver/perf/: the heuristics that watch the driver's faults,
 * evictions and migrations and steer it (the real driver's
 * uvm_perf_thrashing.c and its kin): thrashing detection and mitigation
 * (drv_thrashing.c), the thread-oversubscription controller
 * (drv_oversub.c), cyclic-thrashing detection (cyclic_detect.c) and its
 * root-chunk pinning and shuffling (drv_cyclic.c).  The room's one public
 * header. */
#ifndef UVMSIM_DRIVER_PERF_H
#define UVMSIM_DRIVER_PERF_H

#include "core/engine.h"
#include "driver/prefetch/prefetch.h"
#include "core/base.h"
#include "driver/mem/mem.h"
#include "driver/drv_events.h"
#include "driver/driver.h"

/* Private to sim/driver: thrashing detection and mitigation after the real
 * driver's uvm_perf_thrashing.c (keys driver.thrashing.*).  Two processors
 * take part: the GPU, whose faults migrate pages in (and whose faults ask
 * for a hint), and the host, which takes pages back when they are evicted
 * (driver.thrashing.evictions; see drv_thrashing.c for why).
 *
 * The core (thrashing_*) is pure bookkeeping on (page, time) and is tested
 * on its own; the driver's side (drv_thrash.c: remote mapping, unpinning,
 * the prefetch mask) is the thread's, and what the driver's files call. */
struct config;
struct stats;
struct driver;

enum thr_proc { THR_GPU = 0, THR_HOST = 1 };

/* What a GPU fault on a page should get (uvm_perf_thrashing_hint_t). */
enum thr_hint {
    THR_NONE,       /* service it as usual */
    THR_THROTTLE,   /* skip it this time: its walks fault again after the replay */
    THR_PIN_GPU,    /* migrate it and pin it in GPU memory */
    THR_PIN_HOST,   /* pin it in host memory: map it remotely, no migration */
};

struct thrashing;

/* NULL when driver.thrashing.enabled is false.  `unpin(ctx, vpn, now)` is
 * called when a pinned page's pin time runs out, before its state is reset. */
typedef void (*thr_unpin_fn)(void *ctx, uint64_t vpn, sim_time now);
struct thrashing *thrashing_create(const struct config *cfg, struct stats *st,
                                   struct engine *e, const struct domain *dom,
                                   thr_unpin_fn unpin, void *ctx);
void thrashing_free(struct thrashing *t);
/* pages left out of a block's prefetch for thrashing (a statistic). */
void thrashing_count_excluded(struct thrashing *t, unsigned pages);

/* A migration of vpn into `proc`'s memory caused by a fault or a prefetch
 * (THR_GPU), or its eviction to the host (THR_HOST): a thrashing event
 * (thrashing_event_cb). */
void thrashing_event(struct thrashing *t, uint64_t vpn, enum thr_proc proc, sim_time now);
/* A migration the user asked for (host steps): the page's thrashing state
 * is dropped (the real driver resets on API-caused migrations). */
void thrashing_reset(struct thrashing *t, uint64_t vpn);
/* The hint for a GPU fault on vpn (uvm_perf_thrashing_get_hint). */
enum thr_hint thrashing_hint(struct thrashing *t, uint64_t vpn, sim_time now);
/* The thrashing pages of the VA block at `base` (a multiple of 512);
 * false when it has none. */
bool thrashing_block_mask(const struct thrashing *t, uint64_t base, struct block_bits *out);
/* Inspection (tests, dumps). */
bool thrashing_is_pinned(const struct thrashing *t, uint64_t vpn);
unsigned thrashing_events(const struct thrashing *t, uint64_t vpn);

/* Subscriber of DRV_EV_MIGRATED (a page's copy into GPU memory started:
 * a host step's resets its history, a fault's or prefetch's is the GPU's
 * event) and DRV_EV_EVICTED (the host's event); ctx: the thrashing. */
void thrashing_on_event(void *ctx, const struct drv_event *e);

/* Private to sim/driver: the runtime's control of thread oversubscription
 * from page lifetimes (batch-aware paper, Kim et al. ASPLOS 2020, Sec. 4.1,
 * Fig. 6 step 3, Sec. 5.1): every driver.oversub.period GPU cycles
 * (100k) the runtime takes the running average of the lifetimes of the
 * pages evicted so far (allocation -> eviction, driver.residency_us) as
 * its indicator of premature evictions; when it has fallen by
 * driver.oversub.threshold (20 %) it decrements the extra thread blocks
 * per SM (the number of concurrently runnable blocks) and, by default,
 * allows no more; otherwise one more extra block per SM, up to
 * driver.oversub.max_extra.
 *
 * The core (oversub_ctl_*) is a pure function of the lifetime sums and is
 * tested on crafted sequences; drv_oversub.c times it and tells the GPU. */
struct oversub_ctl {
    unsigned extra, max_extra;  /* extra blocks per SM now; the cap */
    double threshold;           /* a fall of this share of the previous average decrements */
    bool freeze;                /* after a decrement, never increment again */
    bool per_period;            /* average of the period's evictions, not of all so far */
    bool frozen, have_prev;
    double prev;                /* the previous period's average (us) */
    double sum0;                /* per_period: the sums at the period's start */
    uint64_t n0;
};

void oversub_ctl_init(struct oversub_ctl *c, unsigned extra, unsigned max_extra,
                      double threshold, bool freeze, bool per_period);
/* One period, given the sum (us) and number of the lifetimes recorded so
 * far: the new number of extra blocks per SM.  *avg gets the average the
 * decision used (-1 when no page has been evicted: no average yet). */
unsigned oversub_ctl_step(struct oversub_ctl *c, double sum, uint64_t n, double *avg);

/* drv_oversub.c: the controller (NULL unless gpu.sm.oversub.enabled and
 * driver.oversub.control), every period on eng, judging by the thread's
 * lifetime histogram; tell(tell_ctx, ...) runs when the degree changes. */
struct stat_hist;
struct drv_oversub;
struct drv_oversub *drv_oversub_create(const struct config *cfg, struct stats *st,
                                       struct engine *eng, const struct stat_hist *lifetime,
                                       driver_oversub_fn tell, void *tell_ctx);
void drv_oversub_free(struct drv_oversub *o);

/* Private to sim/driver: SM throttling (driver.throttle, drv_throttle.c):
 * ETC's memory-aware throttling (Li et al. ASPLOS 2019; batch-aware Sec.
 * 5.2, footnote 8).  The core (etc_mt_*) is a pure function of the
 * driver's cumulative fault and eviction counts, called once per
 * detection-epoch length, and is tested on crafted sequences. */
struct etc_mt {
    unsigned n, active;         /* SMs; SMs running now (0 .. active-1) */
    unsigned execute;           /* execution epoch, in detection-epoch lengths */
    double threshold;           /* a fall of this share keeps the direction */
    bool triggered, detecting;
    int dir;                    /* -1: throttling, +1: unthrottling */
    unsigned left;              /* lengths left in the execution epoch */
    uint64_t f0, e0;            /* the counts at the last call */
    uint64_t prev;              /* faults of the previous detection epoch */
};
void etc_mt_init(struct etc_mt *c, unsigned sms, unsigned execute, double threshold);
/* One detection-epoch length has passed; faults and evictions are the
 * counts so far.  Returns the SMs to run. */
unsigned etc_mt_tick(struct etc_mt *c, uint64_t faults, uint64_t evictions);

/* drv_throttle.c: the policy driver.throttle names (NULL for none), every
 * detection-epoch length on eng, judging by *faults and *evictions;
 * tell(tell_ctx, active, now) runs when the SMs to run change. */
struct drv_throttle;
struct drv_throttle *drv_throttle_create(const struct config *cfg, struct stats *st,
                                         struct engine *eng, const uint64_t *faults,
                                         const uint64_t *evictions, driver_throttle_fn tell,
                                         void *tell_ctx);
void drv_throttle_free(struct drv_throttle *t);

/* Private to sim/driver: the cyclic-thrashing detector of Park et al.
 * (WIP, Sec. II-A), shared by the page-level policy (evict_cyclic.c) and
 * the real driver's root-chunk list (drv_cyclic.c).  Every evicted unit
 * (a page, or a VA block whose root chunk goes) has an eviction count;
 * units with the same count form a peer group.  Thrashing is declared when
 * an eviction moves a unit into group k >= 2 and group k holds at least
 * `ratio` (75 %, Fig. 1) of group k - 1, provided group k - 1 holds at
 * least `min_group` units (smaller groups are the paper's outliers that
 * "deviate from the mainstream peer groups"). */
struct cyc_detect {
    struct page_counts counts;    /* one byte per unit (page_counts.h) */
    uint64_t *hist;               /* hist[k]: units evicted exactly k times */
    size_t hist_len;
    double ratio;
    uint64_t min_group;
};

void cyc_detect_init(struct cyc_detect *d, double ratio, uint64_t min_group);
void cyc_detect_free(struct cyc_detect *d);
/* Counts one eviction of `unit`; true when it declares cyclic thrashing. */
bool cyc_detect_count(struct cyc_detect *d, uint64_t unit);

/* drv_cyclic.c (chunked + cyclic): Park et al.'s pinning and shuffling on
 * the root-chunk list.  victim: the root to evict (holding the ones it
 * pins first); evicted: count root eviction of VA block `block`. */
struct drv_cyclic;
struct drv_cyclic *drv_cyclic_create(const struct config *cfg, uint64_t roots, struct stats *st,
                                     struct pmm *m, const uint16_t *resroot);
void drv_cyclic_free(struct drv_cyclic *c);
bool drv_cyclic_victim(struct drv_cyclic *c, struct pmm *m, uint32_t *r);
/* Subscriber of DRV_EV_ROOT_EVICTED; ctx: the drv_cyclic. */
void drv_cyclic_on_event(void *ctx, const struct drv_event *e);

#endif

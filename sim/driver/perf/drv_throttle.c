/* SM throttling policies (driver.throttle), behind one ops table whose
 * names are the key's only list of choices:
 *   none  every SM runs (the default; nothing is created);
 *   etc   ETC's memory-aware throttling, MT (Li et al., "A Framework for
 *         Memory Oversubscription Management in Graphics Processing
 *         Units", ASPLOS 2019), as the batch-aware paper replicates it
 *         (Kim et al. ASPLOS 2020, Sec. 5.2, footnote 8).
 *
 * What the stored sources say of MT: ETC's abstract, "dynamically reduces
 * the GPU parallelism when page fault frequencies become high"; batch-aware
 * Sec. 1, "disabling a subset of GPU cores", effective only if "the working
 * set size has to be reduced when GPU cores are throttled"; footnote 8,
 * "When triggered, MT statically throttles half of the SMs in the
 * beginning. After the initial phase, it repeats two epochs, the detection
 * epoch and the execution epoch. Depending on the behavior monitored during
 * the detection epoch, MT decides to throttle or unthrottle SMs."  ETC's
 * own text (epoch lengths, thresholds, step) is not in the stored material,
 * so the rest is this file's reading (docs/decisions.md "ETC"), each a key:
 *   - triggered by the first eviction (the working set exceeds memory);
 *     then SMs n/2 .. n-1 are throttled for one execution epoch (the
 *     initial phase);
 *   - each detection epoch (driver.etc.detect GPU cycles) counts the far
 *     faults fetched and the evictions; at its end:
 *       no eviction: the working set fits: unthrottle one SM;
 *       faults fell by driver.etc.threshold or more against the previous
 *       detection epoch (the initial reference: the trigger's epoch,
 *       unthrottled): the last step helped: one more SM the same way;
 *       otherwise: the other way (a hill climb on the fault frequency);
 *   - an execution epoch (driver.etc.execute detection-epoch lengths)
 *     runs at the level decided; at least one SM always runs.
 * A throttled SM issues nothing and is given no new block (sm/throttle.c);
 * its memory requests in flight complete.  The decisions run on the GPU
 * clock as housekeeping (they keep no run alive); each is a row of
 * /throttle. */
#include <stdlib.h>
#include <string.h>
#include "perf.h"
#include "config/config.h"
#include "core/stats.h"

const struct cfg_key throttle_config_keys[] = {
    {"driver.throttle", CFG_ENUM, "none", 0, -1, NULL,
     "SM throttling: none, or etc (ETC's memory-aware throttling, Li et al. ASPLOS 2019, as the "
     "batch-aware paper's footnote 8 describes it: half the SMs at the first eviction, then "
     "detection and execution epochs decide to throttle or unthrottle one SM)"},
    {"driver.etc.detect", CFG_INT, "1000000", 1, 1e12, NULL,
     "GPU core cycles of an ETC detection epoch (not in the stored sources: 1 ms at 1 GHz, about "
     "three of the batch-aware paper's median 313 us batches; docs/decisions.md)"},
    {"driver.etc.execute", CFG_INT, "4", 1, 1e6, NULL,
     "length of an ETC execution epoch (and of the initial phase) in detection epochs (not in the "
     "stored sources; docs/decisions.md)"},
    {"driver.etc.threshold", CFG_FRACTION, "20%", 0, 1, NULL,
     "a fall of the detection epoch's faults by this share of the previous one's keeps ETC "
     "stepping the same way (not in the stored sources: the batch-aware controller's 20 %)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

void etc_mt_init(struct etc_mt *c, unsigned sms, unsigned execute, double threshold)
{
    *c = (struct etc_mt){ .n = sms, .active = sms, .execute = execute, .threshold = threshold,
                          .dir = -1 };
}

static unsigned clamp_step(const struct etc_mt *c, int dir)
{
    if (dir < 0) return c->active > 1 ? c->active - 1 : 1;
    return c->active < c->n ? c->active + 1 : c->n;
}

unsigned etc_mt_tick(struct etc_mt *c, uint64_t faults, uint64_t evictions)
{
    uint64_t f = faults - c->f0, e = evictions - c->e0;
    c->f0 = faults;
    c->e0 = evictions;
    if (!c->triggered) {
        if (e) {
            c->triggered = true;
            c->active = c->n - c->n / 2;        /* footnote 8: half the SMs */
            c->prev = f;
            c->left = c->execute;               /* the initial phase */
        }
        return c->active;
    }
    if (c->left) {                              /* an execution epoch */
        if (--c->left == 0) c->detecting = true;
        return c->active;
    }
    if (!c->detecting) return c->active;
    /* The end of a detection epoch. */
    c->detecting = false;
    c->left = c->execute;
    if (!e) {
        c->dir = 1;                             /* it fits: unthrottle */
    } else if (!((double)f <= (1.0 - c->threshold) * (double)c->prev)) {
        c->dir = -c->dir;                       /* the last step did not help */
    }
    c->active = clamp_step(c, c->dir);
    c->prev = f;
    return c->active;
}

struct drv_throttle {
    const uint64_t *faults, *evictions;
    driver_throttle_fn tell;
    void *tell_ctx;
    struct etc_mt mt;
    sim_time period, last;
    struct rec_table *rows;
    uint64_t *g_active, *n_throttle, *n_release, *throttled_ps;
};

static void etc_period(void *ctx, sim_time now)
{
    struct drv_throttle *t = ctx;
    unsigned before = t->mt.active;
    *t->throttled_ps += (uint64_t)(t->mt.n - before) * (now - t->last);
    t->last = now;
    unsigned a = etc_mt_tick(&t->mt, *t->faults, *t->evictions);
    if (a < before) *t->n_throttle += 1;
    if (a > before) *t->n_release += 1;
    *t->g_active = a;
    uint64_t tt = now, act = a, f = *t->faults, e = *t->evictions;
    const void *row[] = { &tt, &act, &f, &e };
    rec_append(t->rows, row);
    if (a != before) t->tell(t->tell_ctx, a, now);
}

static struct drv_throttle *etc_create(const struct config *cfg, struct stats *st,
                                       struct engine *eng, const uint64_t *faults,
                                       const uint64_t *evictions, driver_throttle_fn tell,
                                       void *tell_ctx)
{
    struct drv_throttle *t = xcalloc(1, sizeof *t);
    t->faults = faults;
    t->evictions = evictions;
    t->tell = tell;
    t->tell_ctx = tell_ctx;
    etc_mt_init(&t->mt, (unsigned)cfg_u64(cfg, "gpu.sms"), (unsigned)cfg_u64(cfg, "driver.etc.execute"),
                cfg_f64(cfg, "driver.etc.threshold"));
    static const struct rec_field f[] = {
        {"time_ps", REC_U64, "ps"}, {"active_sms", REC_U64, "SMs"},
        {"faults", REC_U64, "faults"}, {"evictions", REC_U64, "pages"},
    };
    t->rows = stat_table(st, "throttle", "one row per ETC detection-epoch length: the SMs left "
                         "running and the driver's fault and eviction counts so far", f,
                         sizeof f / sizeof f[0]);
    t->g_active = stat_counter(st, "driver.etc.active_sms", "SMs",
                               "SMs ETC's throttling lets run now (a level, not a count)");
    *t->g_active = t->mt.active;
    t->n_throttle = stat_counter(st, "driver.etc.throttles", "decisions",
                                 "ETC decisions that throttled SMs (the trigger's half included)");
    t->n_release = stat_counter(st, "driver.etc.releases", "decisions",
                                "ETC decisions that unthrottled one SM");
    t->throttled_ps = stat_counter(st, "driver.etc.throttled_sm_ps", "SM-ps",
                                   "throttled SMs x time, up to the last decision");
    t->period = cfg_u64(cfg, "driver.etc.detect") * cfg_period(cfg, "gpu.clock");
    engine_every(eng, t->period, etc_period, t);
    return t;
}

/* The table: the key's choices are its names (config_registries). */
static const struct throttle_ops {
    const char *name;
    struct drv_throttle *(*create)(const struct config *, struct stats *, struct engine *,
                                   const uint64_t *, const uint64_t *, driver_throttle_fn, void *);
} policies[] = {
    {"none", NULL},
    {"etc", etc_create},
};

const char *throttle_policy_name(size_t i)
{
    return i < sizeof policies / sizeof policies[0] ? policies[i].name : NULL;
}

struct drv_throttle *drv_throttle_create(const struct config *cfg, struct stats *st,
                                         struct engine *eng, const uint64_t *faults,
                                         const uint64_t *evictions, driver_throttle_fn tell,
                                         void *tell_ctx)
{
    const char *name = cfg_str(cfg, "driver.throttle");
    for (size_t i = 0; i < sizeof policies / sizeof policies[0]; i++)
        if (!strcmp(policies[i].name, name))
            return policies[i].create
                       ? policies[i].create(cfg, st, eng, faults, evictions, tell, tell_ctx)
                       : NULL;
    return NULL;
}

void drv_throttle_free(struct drv_throttle *t) { free(t); }

/* The thread-oversubscription controller of the batch-aware paper's GPU
 * runtime (Sec. 4.1, Fig. 6 step 3, footnote 6; Sec. 5.1: "we calculate
 * the running average of the lifetime of pages at every 100k cycles. The
 * threshold is empirically set to 20%").  Where the paper is silent the
 * batch-sc19-thesis spec's reading (A.2.4) is taken, each a key:
 *   - "decreased by 20 %" is against the previous period's average;
 *   - the running average is over every eviction so far (cumulative;
 *     driver.oversub.average=period averages the period's evictions);
 *   - before the first eviction there is no average, and the "otherwise"
 *     branch adds one extra block per SM;
 *   - a decrement freezes the degree for the rest of the run ("does not
 *     allow any more context switching by decrementing (and limiting)");
 *   - the degree never exceeds driver.oversub.max_extra (2: Sec. 6.1
 *     studies 2x and 3x runnable blocks, which is 1 and 2 extra blocks of
 *     a 1024-thread GraphBIG block on the 1024-thread SM of Table 1) and
 *     never goes below 0 (no oversubscription).
 * The period runs on the GPU clock as a housekeeping task (it keeps no run
 * alive); the GPU is told through driver_set_oversub_hook when the degree
 * changes, and each period is a row of /oversub. */
#include <stdlib.h>
#include <string.h>
#include "perf.h"
#include "config/config.h"
#include "core/stats.h"

const struct cfg_key oversub_ctl_config_keys[] = {
    {"driver.oversub.control", CFG_BOOL, "true", 0, -1, NULL,
     "with gpu.sm.oversub.enabled: the runtime adjusts the extra blocks per SM from page lifetimes "
     "(batch-aware Sec. 4.1, Fig. 6 step 3); false keeps gpu.sm.oversub.extra"},
    {"driver.oversub.period", CFG_INT, "100000", 1, 1e12, NULL,
     "GPU core cycles between two decisions (batch-aware Sec. 5.1: every 100k cycles)"},
    {"driver.oversub.threshold", CFG_FRACTION, "20%", 1e-6, 1, NULL,
     "a fall of the lifetime average by this share of the previous period's decrements the extra "
     "blocks (batch-aware Sec. 5.1: 20 %, empirically)"},
    {"driver.oversub.max_extra", CFG_INT, "2", 0, 64, NULL,
     "most extra blocks per SM the controller allows (not in the paper; Sec. 6.1 studies 2x and 3x "
     "runnable blocks: 2 extra of one resident block)"},
    {"driver.oversub.freeze", CFG_BOOL, "true", 0, -1, NULL,
     "after a decrement no more increments for the rest of the run (paper: 'does not allow any more "
     "context switching'; spec assumption)"},
    {"driver.oversub.average", CFG_ENUM, "cumulative", 0, -1, "cumulative|period",
     "the running average: of every eviction so far, or of the period's evictions (paper silent)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

void oversub_ctl_init(struct oversub_ctl *c, unsigned extra, unsigned max_extra,
                      double threshold, bool freeze, bool per_period)
{
    *c = (struct oversub_ctl){ .extra = extra, .max_extra = max_extra, .threshold = threshold,
                               .freeze = freeze, .per_period = per_period };
}

unsigned oversub_ctl_step(struct oversub_ctl *c, double sum, uint64_t n, double *avg)
{
    double l = -1;
    if (c->per_period) {
        if (n > c->n0) l = (sum - c->sum0) / (double)(n - c->n0);
        c->sum0 = sum;
        c->n0 = n;
    } else if (n) {
        l = sum / (double)n;
    }
    if (avg) *avg = l;
    if (l < 0) {                            /* no eviction to judge by */
        if (!c->frozen && c->extra < c->max_extra) c->extra++;
        return c->extra;
    }
    if (c->have_prev && l <= (1.0 - c->threshold) * c->prev) {     /* fell by >= 20 % */
        if (c->extra) c->extra--;
        if (c->freeze) c->frozen = true;
    } else if (!c->frozen && c->extra < c->max_extra) {
        c->extra++;
    }
    c->prev = l;
    c->have_prev = true;
    return c->extra;
}

struct drv_oversub {
    const struct stat_hist *lifetime;  /* the thread's driver.residency_us */
    driver_oversub_fn tell;
    void *tell_ctx;
    struct oversub_ctl ctl;
    struct rec_table *rows;
    uint64_t *n_inc, *n_dec, *g_extra;
};

static void period(void *ctx, sim_time now)
{
    struct drv_oversub *o = ctx;
    unsigned before = o->ctl.extra;
    double avg;
    unsigned x = oversub_ctl_step(&o->ctl, o->lifetime->sum, o->lifetime->count, &avg);
    if (x > before) *o->n_inc += 1;
    if (x < before) *o->n_dec += 1;
    *o->g_extra = x;
    uint64_t t = now, ex = x, ev = o->lifetime->count;
    const void *row[] = { &t, &ex, &avg, &ev };
    rec_append(o->rows, row);
    if (x != before) o->tell(o->tell_ctx, x, now);
}

struct drv_oversub *drv_oversub_create(const struct config *cfg, struct stats *st,
                                       struct engine *eng, const struct stat_hist *lifetime,
                                       driver_oversub_fn tell, void *tell_ctx)
{
    if (!cfg_bool(cfg, "gpu.sm.oversub.enabled") || !cfg_bool(cfg, "driver.oversub.control"))
        return NULL;
    struct drv_oversub *o = xcalloc(1, sizeof *o);
    o->lifetime = lifetime;
    o->tell = tell;
    o->tell_ctx = tell_ctx;
    unsigned extra = (unsigned)cfg_u64(cfg, "gpu.sm.oversub.extra");
    unsigned cap = (unsigned)cfg_u64(cfg, "driver.oversub.max_extra");
    oversub_ctl_init(&o->ctl, extra, cap,
                     cfg_f64(cfg, "driver.oversub.threshold"), cfg_bool(cfg, "driver.oversub.freeze"),
                     cfg_is(cfg, "driver.oversub.average", "period"));
    static const struct rec_field f[] = {
        {"time_ps", REC_U64, "ps"}, {"extra", REC_U64, "blocks"},
        {"lifetime_us", REC_F64, "us"}, {"evictions", REC_U64, "pages"},
    };
    o->rows = stat_table(st, "oversub", "one row per oversubscription-control period: the extra "
                         "blocks per SM decided and the lifetime average it used (-1: none yet)",
                         f, sizeof f / sizeof f[0]);
    o->n_inc = stat_counter(st, "driver.oversub.increments", "periods",
                            "periods that allowed one more extra block per SM");
    o->n_dec = stat_counter(st, "driver.oversub.decrements", "periods",
                            "periods whose lifetime average fell by the threshold: one extra block fewer");
    o->g_extra = stat_counter(st, "driver.oversub.extra", "blocks",
                              "extra blocks per SM the controller allows now (a level, not a count)");
    *o->g_extra = o->ctl.extra;
    sim_time p = cfg_u64(cfg, "driver.oversub.period") * cfg_period(cfg, "gpu.clock");
    engine_every(eng, p, period, o);
    return o;
}

void drv_oversub_free(struct drv_oversub *o) { free(o); }

/* Bandwidth balancing (thesis Sec. 5.4): "our software page migration
 * samples a bandwidth accumulator present for all memory channels every
 * 10,000 GPU cycles and calculates the average bandwidth utilization of
 * the GDDR and DDR ... If this utilization is below the ideal threshold
 * minus 5% we continue migrating pages at full-rate.  If the measured
 * ratio approaches within 5% of the target we reduce the rate of page
 * migrations by 1/2.  If the measured ratio exceeds the target, we suspend
 * further migrations" (the queue is kept).  The target is
 * b_GDDR / (b_GDDR + b_DDR), 200 / 280 = 71.4 % on the thesis' machine,
 * from the memories' peak bandwidths unless driver.migrate.bwb.target
 * gives it.  Choices the thesis leaves open (spec C.2.6 item 8), keys:
 *   - "5 %" is 5 percentage points of share (bwb.band);
 *   - half rate is half the concurrent migrations, at least one (bwb.half
 *     concurrency), or full rate in every other window (windows);
 *   - the accumulators count demand traffic (bwb.traffic demand: each
 *     memory's bytes less the migrations' own, which the runtime knows:
 *     4 KiB read from host memory when a copy starts, each 128 B written
 *     to GPU memory when its write is sent; "command overhead" is ignored,
 *     as the thesis does) or all of it (all);
 *   - a window without traffic is below target (full rate): nothing to
 *     protect, and the thesis re-enables migration when demand falls.
 * The windows run while the program does (engine_every), with or without
 * balancing: each is a row of the `migration_windows` table (the GDDR
 * share over time of Figs. 5.6-5.8).  The byte counters are read when the
 * window ends; requests in flight then count in the next. */
#include <string.h>
#include "migrate.h"
#include "config/config.h"
#include "core/stats.h"
#include "dram/dram.h"

enum migr_rate migr_bwb_rate(double share, double target, double band)
{
    if (share < target - band) return MR_FULL;
    if (share <= target) return MR_HALF;
    return MR_OFF;
}

unsigned migr_bwb_limit(enum migr_rate rate, unsigned concurrency, bool half_windows, uint64_t k)
{
    switch (rate) {
    case MR_FULL: return concurrency;
    case MR_HALF:
        if (half_windows) return k % 2 ? 0 : concurrency;
        return concurrency / 2 ? concurrency / 2 : 1;
    default: return 0;
    }
}

static uint64_t sub(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

static void window_end(void *ctx, sim_time now)
{
    struct migr *m = ctx;
    struct migr_bwb *b = &m->b;
    struct dram_totals g, h;
    dram_totals(b->gpu, &g);
    dram_totals(b->host, &h);
    uint64_t gb = g.bytes - b->g0, hb = h.bytes - b->h0;
    uint64_t mg = *m->gddr_bytes - b->mg0, mh = *m->ddr_bytes - b->mh0;
    b->g0 = g.bytes;
    b->h0 = h.bytes;
    b->mg0 = *m->gddr_bytes;
    b->mh0 = *m->ddr_bytes;
    uint64_t gd = sub(gb, mg), hd = sub(hb, mh);
    uint64_t gc = b->all_traffic ? gb : gd, hc = b->all_traffic ? hb : hd;
    double share = gc + hc ? (double)gc / (double)(gc + hc) : 0.0;
    enum migr_rate rate = migr_bwb_rate(share, b->target, b->band);
    uint64_t limit = m->limit;
    if (b->on) {
        *(rate == MR_FULL ? b->n_full : rate == MR_HALF ? b->n_half : b->n_off) += 1;
        unsigned old = m->limit;
        m->limit = migr_bwb_limit(rate, m->concurrency, b->half_windows, b->nwin);
        limit = m->limit;
        if (m->limit > old) comp_wake(&m->comp, now);
    }
    uint64_t t = now, queued = m->fifo_n;
    const void *row[] = { &t, &gd, &hd, &mg, &mh, &share, &limit, &queued };
    rec_append(b->tab, row);
    b->nwin++;
}

void migr_bwb_init(struct migr *m, const struct config *cfg, struct stats *st,
                   struct dram *gpu, struct dram *host, sim_time core_period)
{
    struct migr_bwb *b = &m->b;
    b->on = cfg_bool(cfg, "driver.migrate.bwb.enabled");
    b->half_windows = cfg_is(cfg, "driver.migrate.bwb.half", "windows");
    b->all_traffic = cfg_is(cfg, "driver.migrate.bwb.traffic", "all");
    double t = cfg_f64(cfg, "driver.migrate.bwb.target");
    double pg = dram_peak_bandwidth(gpu), ph = dram_peak_bandwidth(host);
    b->target = t >= 0 ? t / 100.0 : pg / (pg + ph);
    b->band = cfg_f64(cfg, "driver.migrate.bwb.band") / 100.0;
    b->window = cfg_u64(cfg, "driver.migrate.window") * core_period;
    b->gpu = gpu;
    b->host = host;
    static const struct rec_field f[] = {
        {"end_ps", REC_U64, "ps"}, {"gddr_demand_bytes", REC_U64, "bytes"},
        {"ddr_demand_bytes", REC_U64, "bytes"}, {"gddr_migration_bytes", REC_U64, "bytes"},
        {"ddr_migration_bytes", REC_U64, "bytes"}, {"gddr_share", REC_F64, ""},
        {"limit", REC_U64, "migrations"}, {"queued", REC_U64, "pages"},
    };
    b->tab = stat_table(st, "migration_windows",
                        "one row per driver.migrate.window: each memory's demand and migration "
                        "bytes, the GDDR share bandwidth balancing saw (bwb.traffic), the "
                        "concurrent migrations allowed next, pages queued",
                        f, sizeof f / sizeof f[0]);
    *stat_real(st, "migration.bwb.target", "", "the GDDR share bandwidth balancing aims at") =
        b->target;
    engine_every(m->comp.eng, b->window, window_end, m);
}

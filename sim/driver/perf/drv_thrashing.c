/* Thrashing detection and mitigation, after the real driver's
 * uvm_perf_thrashing.c (open-gpu-kernel-modules 595.45.04), with its
 * defaults (module parameters uvm_perf_thrashing_*):
 *   - detection: every migration of a page into a processor's memory is an
 *     event; an event within `lapse` (500 us) of the page's previous one is
 *     a thrashing event, and `threshold` (3) consecutive ones make the page
 *     thrashing (thrashing_event_cb).  Per-page tracking of a 2 MiB VA block
 *     starts only once the block has seen events from two processors within
 *     a lapse (its "phase 0"); a thrashing page whose next event comes later
 *     than a lapse is reset.
 *   - throttling (uvm_perf_thrashing_get_hint): a fault on a thrashing page
 *     opens a throttling period of `nap` lapses (1) unless one is running;
 *     each period names the one processor not to be throttled, alternating
 *     between the faulting processor and none, so a lone GPU is let through
 *     in one period and throttled in the next.  A throttled fault is not
 *     serviced: the GPU goes on with other pages and the access faults
 *     again after the replay (service_fault_batch_block, mark_fault_throttled).
 *   - pinning: after `pin_threshold` (10) throttled periods the
 *     not-throttled processor's fault pins the page: at the faulting GPU
 *     (migrated and kept), and once pinned, at a location every thrashing
 *     processor can reach: host memory when the host is among them (on
 *     PCIe the host cannot map GPU memory), which the GPU maps remotely
 *     instead of migrating (get_hint_for_migration_thrashing).  A pin lasts
 *     `pin` lapses (300: 150 ms); then the remote mapping goes and the page
 *     starts over (thrashing_unpin_pages).
 *   - a block whose last thrashing event is `epoch` lapses old (2000: 1 s)
 *     and holds no pinned page forgets its pages, at most `max_resets` (4)
 *     times.
 *   - thrashing pages are kept out of prefetches (uvm_perf_prefetch.c).
 *
 * Departures (docs/decisions.md, "thrashing"):
 *   - the real driver skips eviction events ("we cannot take the VA space
 *     lock" in the eviction path), so with the GPU as the only processor
 *     that faults, as here, no block ever sees two processors and nothing
 *     is ever detected.  driver.thrashing.evictions (default true) counts
 *     an eviction as a migration into host memory, the event the driver
 *     would record if it could; false is the source's behaviour.
 *   - the lapse is fixed: the driver's vote-based adjustment
 *     (adjust_thrashing_lapse) is not modelled.
 *   - no NVLink/native-atomics fast path, no preferred location (pages with
 *     a host preference are mapped remotely before the hint is asked).
 *   - the driver's limit of 5 throttled batches per wake-up
 *     (uvm_perf_fault_max_throttle_per_service) is not modelled. */
#include <stdlib.h>
#include <string.h>
#include "perf.h"
#include "config/config.h"
#include "core/stats.h"

const struct cfg_key thrashing_config_keys[] = {
    {"driver.thrashing.enabled", CFG_BOOL, "false", 0, -1, NULL,
     "thrashing detection, throttling and pinning (real driver: uvm_perf_thrashing_enable=1; "
     "off here as in the HPE and batch-aware papers' machines; on in real-driver presets)"},
    {"driver.thrashing.threshold", CFG_INT, "3", 1, 7, NULL,
     "consecutive thrashing events that make a page thrashing (uvm_perf_thrashing_threshold: 3)"},
    {"driver.thrashing.pin_threshold", CFG_INT, "10", 1, 255, NULL,
     "throttling periods before the page is pinned (uvm_perf_thrashing_pin_threshold: 10)"},
    {"driver.thrashing.lapse", CFG_TIME, "500us", 5e6, 5e11, NULL,
     "two events on a page this close are a thrashing event (uvm_perf_thrashing_lapse_usec: 500)"},
    {"driver.thrashing.nap", CFG_INT, "1", 1, 100, NULL,
     "throttling period, in lapses (uvm_perf_thrashing_nap: 1)"},
    {"driver.thrashing.epoch", CFG_INT, "2000", 1, 1e9, NULL,
     "a block with no thrashing event for this many lapses forgets its pages "
     "(uvm_perf_thrashing_epoch: 2000)"},
    {"driver.thrashing.pin", CFG_INT, "300", 0, 1e9, NULL,
     "how long a page stays pinned, in lapses, 0: for ever (uvm_perf_thrashing_pin: 300)"},
    {"driver.thrashing.max_resets", CFG_INT, "4", 0, 255, NULL,
     "times a block may forget its pages (uvm_perf_thrashing_max_resets: 4)"},
    {"driver.thrashing.evictions", CFG_BOOL, "true", 0, -1, NULL,
     "an eviction counts as a migration to the host (false: the real driver, which skips "
     "eviction events and so never detects a lone GPU's thrashing)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

#define NOBODY (-1)
#define BIT(p) (1u << (p))
#define MAX_EVENTS 7            /* PAGE_THRASHING_NUM_EVENTS_BITS = 3 */
#define MAX_THROTTLING 255      /* PAGE_THRASHING_THROTTLING_COUNT_BITS = 8 */

struct thr_page {
    sim_time last, throttle_end, pin_deadline;
    bool seen, migrated;
    uint8_t events, throttling_count, procs, throttled;
    int8_t dnt, pinned_at;      /* do-not-throttle processor; pinned residency */
};

struct thr_block {
    uint64_t block;
    struct thr_page *pages;     /* VA_BLOCK_PAGES once the block may thrash */
    sim_time last, last_thrashing;
    bool seen, thrashed;
    int8_t last_proc;
    uint8_t resets;
    uint16_t nthrashing, npinned;
    struct block_bits thrashing;
};

struct thrashing {
    sim_time lapse, nap, epoch, pin;
    unsigned threshold, pin_threshold, max_resets;
    bool evictions;
    struct engine *eng;
    const struct domain *dom;
    thr_unpin_fn unpin;
    void *ctx;
    /* blocks: a growable array, found through an open-addressing index */
    struct thr_block *blocks;
    size_t nblocks, cap;
    uint64_t *key;
    uint32_t *idx;
    size_t mask;
    uint64_t *n_detected, *n_throttled, *n_pin_gpu, *n_pin_host, *n_unpinned, *n_resets,
             *n_excluded;
};

/* ---- the block index ---- */

static size_t slot_of(const struct thrashing *t, uint64_t block)
{
    uint64_t h = block * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h >> 17) & t->mask;
}

static struct thr_block *find(const struct thrashing *t, uint64_t block)
{
    for (size_t s = slot_of(t, block);; s = (s + 1) & t->mask) {
        if (t->idx[s] == UINT32_MAX) return NULL;
        if (t->key[s] == block) return &t->blocks[t->idx[s]];
    }
}

static void index_put(struct thrashing *t, uint64_t block, uint32_t i)
{
    size_t s = slot_of(t, block);
    while (t->idx[s] != UINT32_MAX) s = (s + 1) & t->mask;
    t->key[s] = block;
    t->idx[s] = i;
}

static void index_alloc(struct thrashing *t, size_t slots)
{
    t->mask = slots - 1;
    t->key = xcalloc(slots, sizeof *t->key);
    t->idx = xcalloc(slots, sizeof *t->idx);
    memset(t->idx, 0xff, slots * sizeof *t->idx);
}

/* Blocks are created on a page's first event: at most once per 2 MiB of
 * footprint touched, off the access path. */
static struct thr_block *get_create(struct thrashing *t, uint64_t block)
{
    struct thr_block *b = find(t, block);
    if (b) return b;
    if (t->nblocks == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->blocks = realloc(t->blocks, t->cap * sizeof *t->blocks);
        if (!t->blocks) sim_panic("driver.thrashing", 0, "out of memory");
    }
    if (2 * (t->nblocks + 1) > t->mask + 1) {
        free(t->key);
        free(t->idx);
        index_alloc(t, 2 * (t->mask + 1));
        for (size_t i = 0; i < t->nblocks; i++) index_put(t, t->blocks[i].block, (uint32_t)i);
    }
    b = &t->blocks[t->nblocks];
    *b = (struct thr_block){ .block = block, .last_proc = NOBODY };
    index_put(t, block, (uint32_t)t->nblocks++);
    return b;
}

/* ---- per-page state changes ---- */

/* thrashing_throttling_reset_page: ending the last throttled processor's
 * throttling clears the period's end. */
static void throttling_reset(struct thr_page *pg)
{
    if (!pg->throttled) return;
    pg->throttled = 0;
    pg->throttle_end = 0;
}

static void unpin(struct thr_block *b, struct thr_page *pg)
{
    pg->pinned_at = NOBODY;
    pg->pin_deadline = 0;
    b->npinned--;
}

/* thrashing_reset_page: the page starts over (remote mappings are the
 * caller's business). */
static void reset_page(struct thr_block *b, unsigned i)
{
    struct thr_page *pg = &b->pages[i];
    throttling_reset(pg);
    if (pg->pinned_at != NOBODY) unpin(b, pg);
    pg->seen = pg->migrated = false;
    pg->last = 0;
    pg->events = 0;
    pg->procs = 0;
    if (bb_test(&b->thrashing, i)) {
        b->thrashing.w[i / 64] &= ~(1ULL << (i % 64));
        b->nthrashing--;
    }
}

static void pin_expired(void *obj, uint64_t vpn, sim_time now)
{
    struct thrashing *t = obj;
    struct thr_block *b = find(t, vpn / VA_BLOCK_PAGES);
    if (!b || !b->pages) return;
    unsigned i = (unsigned)(vpn % VA_BLOCK_PAGES);
    struct thr_page *pg = &b->pages[i];
    /* Unpinned and maybe pinned again since: only this pin's deadline. */
    if (pg->pinned_at == NOBODY || pg->pin_deadline != now) return;
    if (t->unpin) t->unpin(t->ctx, vpn, now);
    reset_page(b, i);
    *t->n_unpinned += 1;
}

/* thrashing_pin_page, for a GPU fault: the page is in host memory now. */
static void pin_page(struct thrashing *t, struct thr_block *b, struct thr_page *pg, uint64_t vpn,
                     int residency, sim_time now)
{
    if (pg->pinned_at == NOBODY || residency != THR_HOST) throttling_reset(pg);
    if (pg->pinned_at == NOBODY) {
        if (t->pin) {
            pg->pin_deadline = now + t->pin;
            engine_defer_at(t->eng, pg->pin_deadline, t->dom, pin_expired, t, vpn);
        }
        pg->throttling_count = 0;
        b->npinned++;
    }
    pg->pinned_at = (int8_t)residency;
}

static void throttle(struct thr_page *pg)
{
    if (!(pg->throttled & BIT(THR_GPU))) {
        pg->throttled |= BIT(THR_GPU);
        if (pg->pinned_at == NOBODY && pg->throttling_count < MAX_THROTTLING)
            pg->throttling_count++;
    }
}

/* ---- the core ---- */

void thrashing_event(struct thrashing *t, uint64_t vpn, enum thr_proc proc, sim_time now)
{
    if (proc == THR_HOST && !t->evictions) return;
    struct thr_block *b = get_create(t, vpn / VA_BLOCK_PAGES);
    if (!b->pages) {
        /* Phase 0: no per-page tracking until two processors meet in the
         * block within a lapse. */
        if (!b->seen || b->last_proc == (int8_t)proc || now - b->last > t->lapse) goto done;
        b->pages = xcalloc(VA_BLOCK_PAGES, sizeof *b->pages);
        for (unsigned i = 0; i < VA_BLOCK_PAGES; i++)
            b->pages[i].dnt = b->pages[i].pinned_at = NOBODY;
    }
    unsigned i = (unsigned)(vpn % VA_BLOCK_PAGES);
    struct thr_page *pg = &b->pages[i];
    /* A pinned page moves only to its pin (is_migration_pinned_pages_update):
     * its history is frozen while it is pinned. */
    if (pg->pinned_at != NOBODY) goto done;
    pg->procs |= (uint8_t)BIT(proc);
    bool had = pg->seen;
    sim_time last = pg->last;
    pg->seen = true;
    pg->last = now;
    if (!had) goto done;
    if (now - last <= t->lapse) {
        if (pg->events < MAX_EVENTS) pg->events++;
        if (pg->events == t->threshold && !bb_test(&b->thrashing, i)) {
            bb_set(&b->thrashing, i);
            b->nthrashing++;
            *t->n_detected += 1;
        }
        if (pg->events >= t->threshold) {
            b->last_thrashing = now;
            b->thrashed = true;
        }
        pg->migrated = true;
    } else if (pg->events >= t->threshold) {
        reset_page(b, i);
    }
done:
    b->seen = true;
    b->last = now;
    b->last_proc = (int8_t)proc;
}

void thrashing_reset(struct thrashing *t, uint64_t vpn)
{
    struct thr_block *b = find(t, vpn / VA_BLOCK_PAGES);
    unsigned i = (unsigned)(vpn % VA_BLOCK_PAGES);
    if (b && b->pages && bb_test(&b->thrashing, i)) reset_page(b, i);
}

enum thr_hint thrashing_hint(struct thrashing *t, uint64_t vpn, sim_time now)
{
    struct thr_block *b = find(t, vpn / VA_BLOCK_PAGES);
    if (!b || !b->pages) return THR_NONE;
    if (b->thrashed && now - b->last_thrashing > t->epoch && !b->npinned &&
        b->resets < t->max_resets) {
        b->resets++;
        free(b->pages);
        b->pages = NULL;
        b->nthrashing = 0;
        b->seen = b->thrashed = false;
        b->last = b->last_thrashing = 0;
        b->last_proc = NOBODY;
        memset(&b->thrashing, 0, sizeof b->thrashing);
        *t->n_resets += 1;
        return THR_NONE;
    }
    struct thr_page *pg = &b->pages[vpn % VA_BLOCK_PAGES];
    if (pg->events < t->threshold) return THR_NONE;
    enum thr_hint h = THR_NONE;
    int residency = NOBODY;
    if (pg->throttled & BIT(THR_GPU)) {
        if (now < pg->throttle_end && pg->dnt != THR_GPU) { h = THR_THROTTLE; goto done; }
        pg->throttled &= (uint8_t)~BIT(THR_GPU);
        if (!pg->throttled) pg->throttle_end = 0;
    }
    if (now - pg->last > t->lapse && pg->pinned_at == NOBODY) return THR_NONE;
    pg->procs |= BIT(THR_GPU);
    /* thrashing_throttle_update: a new period alternates the processor let
     * through between the faulting one and none. */
    if (now > pg->throttle_end) {
        pg->throttle_end = now + t->nap;
        pg->dnt = pg->dnt == THR_GPU ? NOBODY : THR_GPU;
    } else if (pg->dnt == NOBODY) {
        pg->dnt = THR_GPU;
    }
    if (pg->pinned_at != NOBODY) {
        /* The let-through GPU pins the page where every thrashing processor
         * can reach it: GPU memory only if the GPU alone thrashes, else the
         * host (it cannot map GPU memory over PCIe, the GPU can map it);
         * otherwise the GPU maps it at its current pin. */
        h = THR_PIN_GPU;
        residency = pg->dnt == THR_GPU ? (pg->procs & BIT(THR_HOST) ? THR_HOST : THR_GPU)
                                       : pg->pinned_at;
    } else if (pg->dnt != THR_GPU) {
        h = THR_THROTTLE;
    } else if (pg->throttling_count >= t->pin_threshold) {
        h = THR_PIN_GPU;
        residency = THR_GPU;
    }
done:
    if (h == THR_PIN_GPU) {
        pin_page(t, b, pg, vpn, residency, now);
        if (residency == THR_HOST) {
            *t->n_pin_host += 1;
            return THR_PIN_HOST;
        }
        *t->n_pin_gpu += 1;
    } else if (h == THR_THROTTLE) {
        throttle(pg);
        *t->n_throttled += 1;
    }
    return h;
}

bool thrashing_block_mask(const struct thrashing *t, uint64_t base, struct block_bits *out)
{
    const struct thr_block *b = find(t, base / VA_BLOCK_PAGES);
    if (!b || !b->pages || !b->nthrashing) return false;
    *out = b->thrashing;
    return true;
}

static const struct thr_page *thr_page_of(const struct thrashing *t, uint64_t vpn)
{
    const struct thr_block *b = find(t, vpn / VA_BLOCK_PAGES);
    return b && b->pages ? &b->pages[vpn % VA_BLOCK_PAGES] : NULL;
}

bool thrashing_is_pinned(const struct thrashing *t, uint64_t vpn)
{
    const struct thr_page *pg = thr_page_of(t, vpn);
    return pg && pg->pinned_at != NOBODY;
}

unsigned thrashing_events(const struct thrashing *t, uint64_t vpn)
{
    const struct thr_page *pg = thr_page_of(t, vpn);
    return pg ? pg->events : 0;
}

struct thrashing *thrashing_create(const struct config *cfg, struct stats *st,
                                   struct engine *e, const struct domain *dom,
                                   thr_unpin_fn unpin_fn, void *ctx)
{
    if (!cfg_bool(cfg, "driver.thrashing.enabled")) return NULL;
    struct thrashing *t = xcalloc(1, sizeof *t);
    t->lapse = cfg_u64(cfg, "driver.thrashing.lapse");
    t->nap = t->lapse * cfg_u64(cfg, "driver.thrashing.nap");
    t->epoch = t->lapse * cfg_u64(cfg, "driver.thrashing.epoch");
    t->pin = t->lapse * cfg_u64(cfg, "driver.thrashing.pin");
    t->threshold = (unsigned)cfg_u64(cfg, "driver.thrashing.threshold");
    t->pin_threshold = (unsigned)cfg_u64(cfg, "driver.thrashing.pin_threshold");
    t->max_resets = (unsigned)cfg_u64(cfg, "driver.thrashing.max_resets");
    t->evictions = cfg_bool(cfg, "driver.thrashing.evictions");
    t->eng = e;
    t->dom = dom;
    t->unpin = unpin_fn;
    t->ctx = ctx;
    index_alloc(t, 128);
    t->n_detected = stat_counter(st, "driver.thrashing.detected", "pages",
                                 "times a page reached the thrashing threshold");
    t->n_throttled = stat_counter(st, "driver.thrashing.throttled", "faults",
                                  "faults left unserviced because their page was throttled");
    t->n_pin_gpu = stat_counter(st, "driver.thrashing.pinned_gpu", "faults",
                                "faults that pinned their page in GPU memory");
    t->n_pin_host = stat_counter(st, "driver.thrashing.pinned_host", "faults",
                                 "faults that pinned their page in host memory (mapped remotely)");
    t->n_unpinned = stat_counter(st, "driver.thrashing.unpinned", "pages",
                                 "pins that ran out (driver.thrashing.pin)");
    t->n_resets = stat_counter(st, "driver.thrashing.block_resets", "blocks",
                               "blocks that forgot their pages after an epoch without thrashing");
    t->n_excluded = stat_counter(st, "driver.thrashing.prefetch_excluded", "pages",
                                 "thrashing pages a prefetch would have migrated");
    return t;
}

void thrashing_free(struct thrashing *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->nblocks; i++) free(t->blocks[i].pages);
    free(t->blocks);
    free(t->key);
    free(t->idx);
    free(t);
}

void thrashing_count_excluded(struct thrashing *t, unsigned pages)
{
    *t->n_excluded += pages;
}

/* The subscriber (DRV_EV_MIGRATED, DRV_EV_EVICTED): a copy into GPU memory
 * is the GPU's event on the page, an eviction the host's; a host step's
 * copy is the program's own placement and starts the page's history
 * afresh instead of counting as thrashing. */
void thrashing_on_event(void *ctx, const struct drv_event *e)
{
    struct thrashing *t = ctx;
    if (e->kind == DRV_EV_EVICTED) thrashing_event(t, e->vpn, THR_HOST, e->now);
    else if (e->step) thrashing_reset(t, e->vpn);
    else thrashing_event(t, e->vpn, THR_GPU, e->now);
}

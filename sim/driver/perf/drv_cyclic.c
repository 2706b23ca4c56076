/* Cyclic-thrashing pinning and shuffling on the real driver's root-chunk
 * list (driver.evict_unit=chunk with driver.eviction=cyclic), as Park et
 * al. (WIP) built it: in the driver, on the list it evicts from, the unit
 * being what that list holds -- 2 MiB root chunks, each a VA block (their
 * Fig. 1 plots evictions by VA block address).  The page-level policy
 * (evict_cyclic.c) is the same algorithm over the pages of a page list.
 *
 * - Detector (Sec. II-A, cyclic_detect.c) over VA blocks: a root's block
 *   counts one eviction each time the root goes.  min_group and hold are
 *   in root chunks (5 % and 2 x the roots of GPU memory).
 * - Pinning (Sec. II-B): while thrashing, the root the list would evict
 *   next (the oldest of USED) is held off the lists instead, until `pin`
 *   (25 %) of the roots are held; the next unheld root goes.  Roots of
 *   UNUSED (no resident page) are evicted as always: pinning one keeps
 *   nothing.  When the state ends the held roots rejoin the tail of USED
 *   (UNUSED if their pages have gone) in the order they were held.
 * - Shuffling (Sec. II-C): on entering the state and after every memory's
 *   worth of root evictions while it lasts, the USED list is permuted with
 *   the seeded stream driver.evict.cyclic (pmm_used_drain, then re-joined).
 * The statistics and the evict_cyclic table are the page policy's, counted
 * in root chunks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "perf.h"
#include "config/config.h"
#include "core/rng.h"
#include "core/stats.h"

struct drv_cyclic {
    struct cyc_detect det;
    bool shuffle, thrashing;
    uint64_t roots, budget, hold, evictions, since_detect, since_shuffle;
    uint32_t *held, *drain;
    uint64_t n_held;
    struct rng rng;
    uint64_t *st_detect, *st_pinned, *st_state, *st_shuffles;
    struct rec_table *events;
    struct pmm *m;                  /* the driver's PMM and its pages per root */
    const uint16_t *resroot;
};

struct drv_cyclic *drv_cyclic_create(const struct config *cfg, uint64_t roots, struct stats *st,
                                     struct pmm *m, const uint16_t *resroot)
{
    struct drv_cyclic *c = xcalloc(1, sizeof *c);
    c->roots = roots;
    c->m = m;
    c->resroot = resroot;
    c->shuffle = cfg_is(cfg, "driver.evict.cyclic.mode", "shuffle");
    c->budget = (uint64_t)floor(cfg_f64(cfg, "driver.evict.cyclic.pin") * (double)roots);
    if (c->budget >= roots) c->budget = roots ? roots - 1 : 0;   /* one root must stay evictable */
    c->hold = (uint64_t)ceil(cfg_f64(cfg, "driver.evict.cyclic.hold") * (double)roots);
    cyc_detect_init(&c->det, cfg_f64(cfg, "driver.evict.cyclic.ratio"),
                    (uint64_t)ceil(cfg_f64(cfg, "driver.evict.cyclic.min_group") * (double)roots));
    c->held = xcalloc(c->budget ? c->budget : 1, sizeof *c->held);
    c->drain = xcalloc(roots ? roots : 1, sizeof *c->drain);
    rng_init(&c->rng, cfg_u64(cfg, "sim.seed"), "driver.evict.cyclic");
    static const struct rec_field f[] = {
        {"eviction", REC_U64, "chunks"}, {"event", REC_STR32, ""}, {"pinned", REC_U64, "chunks"},
    };
    c->st_detect = stat_counter(st, "evict.cyclic.detections", "", "times cyclic thrashing was declared");
    c->st_pinned = stat_counter(st, "evict.cyclic.pinned", "chunks",
                                "root chunks held off the eviction list now (sampled: pinned over time)");
    c->st_state = stat_counter(st, "evict.cyclic.thrashing", "", "1 while cyclic thrashing is declared");
    c->st_shuffles = stat_counter(st, "evict.cyclic.shuffles", "", "eviction-order shuffles");
    c->events = stat_table(st, "evict_cyclic", "cyclic-thrashing state changes and shuffles "
                           "(root eviction number, event, root chunks pinned)", f, 3);
    return c;
}

void drv_cyclic_free(struct drv_cyclic *c)
{
    if (!c) return;
    cyc_detect_free(&c->det);
    free(c->held);
    free(c->drain);
    free(c);
}

static void event(struct drv_cyclic *c, const char *what)
{
    const void *row[] = { &c->evictions, what, &c->n_held };
    rec_append(c->events, row);
}

static void shuffle_used(struct drv_cyclic *c, struct pmm *m)
{
    uint32_t n = pmm_used_drain(m, c->drain);
    for (uint32_t i = n; i > 1; i--) {
        uint32_t j = (uint32_t)rng_below(&c->rng, i), t = c->drain[i - 1];
        c->drain[i - 1] = c->drain[j];
        c->drain[j] = t;
    }
    for (uint32_t i = 0; i < n; i++) pmm_root_list(m, c->drain[i], PMM_LIST_USED);
    c->since_shuffle = 0;
    *c->st_shuffles += 1;
    event(c, "shuffle");
}

bool drv_cyclic_victim(struct drv_cyclic *c, struct pmm *m, uint32_t *r)
{
    for (;;) {
        if (!pmm_root_victim(m, r)) return false;
        if (c->shuffle || !c->thrashing || c->n_held >= c->budget ||
            m->on_list[*r] != PMM_LIST_USED) return true;
        pmm_root_hold(m, *r);                   /* pin instead of evicting */
        c->held[c->n_held++] = *r;
        *c->st_pinned = c->n_held;
    }
}

static void evicted(struct drv_cyclic *c, struct pmm *m, const uint16_t *resroot, uint64_t block)
{
    c->evictions++;
    c->since_shuffle++;
    if (cyc_detect_count(&c->det, block)) {
        c->since_detect = 0;
        if (!c->thrashing) {
            c->thrashing = true;
            *c->st_detect += 1;
            *c->st_state = 1;
            event(c, "thrashing");
            if (c->shuffle) shuffle_used(c, m);
        } else if (c->shuffle && c->since_shuffle >= c->roots) {
            shuffle_used(c, m);
        }
    } else if (c->thrashing && ++c->since_detect >= c->hold) {
        c->thrashing = false;
        *c->st_state = 0;
        event(c, "released");
        for (uint64_t i = 0; i < c->n_held; i++)
            pmm_root_release(m, c->held[i], resroot[c->held[i]] ? PMM_LIST_USED : PMM_LIST_UNUSED);
        c->n_held = 0;
        *c->st_pinned = 0;
    }
}

void drv_cyclic_on_event(void *ctx, const struct drv_event *e)
{
    struct drv_cyclic *c = ctx;
    evicted(c, c->m, c->resroot, e->vpn);
}

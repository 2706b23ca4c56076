/* Policy-only replay: a page-reference trace through an eviction policy,
 * no timing.  For validating policies against references computed by hand
 * and for teaching.  The whole trace is read first: it is Belady's future
 * (ideal).  Every reference to a resident page is a walk hit, or only those
 * that miss a TLB of driver.evict.replay_tlb entries; a walk hit is a touch
 * (the exact-order feed LRU, RRIP and CLOCK-Pro get in HPE Sec. V-B), and
 * policies that take batched hit information (HPE) also get it through a
 * stand-in for the HIR transfer every driver.evict.hpe.hir_interval faults. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay.h"
#include "driver/evict/evict.h"
#include "hir_feed.h"
#include "replay_tlb.h"
#include "driver/mem/mem.h"
#include "config/config.h"
#include "core/stats.h"

static int fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

static unsigned log2_u64(uint64_t v)
{
    unsigned s = 0;
    while ((1ULL << s) < v) s++;
    return s;
}

int driver_replay_stats(const struct config *cfg, const char *policy, uint64_t frames,
                        FILE *in, const char *name, struct replay_result *out,
                        struct stats *st, char *err, size_t errlen)
{
    if (!evict_find(policy)) return fail(err, errlen, "--policy: no eviction policy '%s'", policy);
    if (!frames) return fail(err, errlen, "--frames: must be at least 1");
    memset(out, 0, sizeof *out);
    uint64_t *refs;
    bool *writes;
    size_t n;
    if (page_trace_read(in, name, &refs, &writes, &n, err, errlen)) return -1;
    struct evictor *ev = evictor_create(cfg, policy, frames, st);
    evictor_set_future(ev, refs, n);
    bool feed_hits = evictor_wants_hits(ev);
    bool oracle = evictor_ops(ev)->set_future != NULL;
    struct hir_feed hir;
    if (feed_hits)
        hir_feed_init(&hir, frames + cfg_u64(cfg, "driver.evict.hpe.hir_interval") + 1,
                      log2_u64(cfg_u64(cfg, "driver.evict.hpe.set_pages")),
                      cfg_u64(cfg, "driver.evict.hpe.hir_interval"));
    uint64_t tlb_entries = cfg_u64(cfg, "driver.evict.replay_tlb");
    struct replay_tlb tlb;
    if (tlb_entries) replay_tlb_init(&tlb, cfg, tlb_entries);
    struct page_map resident;            /* value: 1 if dirty */
    page_map_init(&resident, frames);
    for (size_t i = 0; i < n; i++) {
        uint64_t page = refs[i];
        bool write = writes[i];
        out->refs++;
        uint32_t d = page_map_get(&resident, page);
        /* an oracle (ideal) sees every reference: its future is the trace */
        bool walk = !tlb_entries || replay_tlb_miss(&tlb, page) || oracle;
        if (d != PAGE_MAP_NONE) {
            if (walk) {
                evictor_touch(ev, page);
                if (feed_hits) hir_feed_hit(&hir, ev, page);
            }
            if (write && !d) page_map_put(&resident, page, 1);
            continue;
        }
        out->faults++;
        if (feed_hits) hir_feed_fault(&hir, ev);
        if (resident.n == frames) {
            uint64_t victim;
            if (!evictor_victim(ev, &victim))
                sim_panic("replay", 0, "policy %s found no victim with %llu frames full",
                          policy, (unsigned long long)frames);
            uint32_t vd = page_map_get(&resident, victim);
            SIM_ASSERT(vd != PAGE_MAP_NONE, "replay", 0,
                       "policy %s evicted non-resident page %llu", policy,
                       (unsigned long long)victim);
            out->evictions++;
            out->writebacks += vd;
            page_map_erase(&resident, victim);
        }
        page_map_put(&resident, page, write ? 1 : 0);
        evictor_resident(ev, page, false);
    }
    if (feed_hits) hir_feed_free(&hir);
    if (tlb_entries) replay_tlb_free(&tlb);
    page_map_free(&resident);
    evictor_free(ev);
    free(refs);
    free(writes);
    return 0;
}

int driver_replay(const struct config *cfg, const char *policy, uint64_t frames,
                  FILE *in, const char *name, struct replay_result *out,
                  char *err, size_t errlen)
{
    return driver_replay_stats(cfg, policy, frames, in, name, out, NULL, err, errlen);
}

/* The policy's statistics after a replay: one "NAME VALUE" line per scalar
 * statistic under "evict." on OUT, then, when EVENTS is not NULL, each
 * "evict_*" record table row as "NAME: FIELD=VALUE ..." (class and
 * strategy switches, pinning) on EVENTS. */
void driver_replay_print_stats(FILE *out, FILE *events, const struct stats *st)
{
    for (size_t i = 0; i < stats_count(st); i++) {
        const struct stat_entry *e = stats_at(st, i);
        if (strncmp(e->name, "evict.", 6)) continue;
        if (e->kind == STAT_COUNTER)
            fprintf(out, "%-28s %llu\n", e->name, (unsigned long long)*e->p.u);
        else if (e->kind == STAT_AVERAGE)
            fprintf(out, "%-28s %.3f\n", e->name, stat_avg_value(e->p.avg));
        else if (e->kind == STAT_REAL)
            fprintf(out, "%-28s %.6g\n", e->name, *e->p.real);
    }
    for (size_t t = 0; events && t < stats_table_count(st); t++) {
        const struct rec_table *r = stats_table_at(st, t);
        if (strncmp(r->name, "evict_", 6)) continue;
        for (size_t row = 0; row < r->nrows; row++) {
            const unsigned char *cell = r->rows + row * r->row_bytes;
            fprintf(events, "%s:", r->name);
            for (size_t f = 0; f < r->nfields; f++) {
                const struct rec_field *fd = &r->fields[f];
                if (fd->type == REC_U64) {
                    uint64_t v;
                    memcpy(&v, cell, 8);
                    fprintf(events, " %s=%llu", fd->name, (unsigned long long)v);
                    cell += 8;
                } else if (fd->type == REC_F64) {
                    double v;
                    memcpy(&v, cell, 8);
                    fprintf(events, " %s=%.4g", fd->name, v);
                    cell += 8;
                } else {
                    fprintf(events, " %s=%.32s", fd->name, (const char *)cell);
                    cell += 32;
                }
            }
            fputc('\n', events);
        }
    }
}

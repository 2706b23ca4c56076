/* HPE's strategies (Yu et al., TCAD 2020): classification, the choice of
 * the set to evict from, and dynamic adjustment.
 *
 * When memory first fills, sets are classified by their counters (Sec.
 * IV-D, Table III): ratio1 = irregular (counter not a multiple of 16) /
 * regular; ratio2 = large regular (48, 64) / small regular (16, 32).
 * ratio1 > 0.3: irregular#2; else ratio2 >= 2: irregular#1; else regular.
 * Regular uses MRU-C: search the old partition from its MRU end for a set
 * whose counter is 16, else take the minimum counter; the others use LRU.
 * Victims come from the old partition, else the middle, else the new one.
 *
 * Dynamic adjustment (Sec. IV-E, Algorithm 1): when the current strategy's
 * wrong evictions in an interval reach 16: regular with at least 4 x 16
 * sets in the old partition at first fill jumps the MRU-C search point 16
 * sets toward LRU; irregular#1 stays with LRU; irregular#2 takes
 * longer_interval(LRU, MRU-C).  The paper only says it "selects the
 * strategy that is used for a longer time"; uvmsim reads it as: the first
 * trigger tries the other strategy; later triggers keep whichever lasted
 * more intervals in its last stint (a tie switches). */
#include <math.h>
#include <stdio.h>
#include "evict.h"
#include "hpe.h"

static const char *const class_name[] = { "none", "regular", "irregular#1", "irregular#2" };

void evict_hpe_classify_counts(uint64_t regular, uint64_t irregular, uint64_t small,
                               uint64_t large, double r1_thr, double r2_thr,
                               double *r1, double *r2, int *cls)
{
    *r1 = regular ? (double)irregular / (double)regular : irregular ? INFINITY : 0;
    *r2 = small ? (double)large / (double)small : large ? INFINITY : 0;
    *cls = *r1 > r1_thr ? HPE_CLASS_IRREGULAR2 : *r2 >= r2_thr ? HPE_CLASS_IRREGULAR1
                                                               : HPE_CLASS_REGULAR;
}

void hpe_classify(struct hpe *h)
{
    uint64_t reg = 0, irr = 0, small = 0, large = 0, S = h->set_pages;
    for (uint32_t i = h->head; i != NIL; i = h->s[i].next) {
        uint64_t c = h->s[i].counter;
        if (c % S) { irr++; continue; }
        reg++;
        if (c == S || c == 2 * S) small++;
        else if (c == 3 * S || c == 4 * S) large++;
    }
    for (uint32_t i = h->head; i != NIL && i != h->p1; i = h->s[i].next) h->old_at_fill++;
    evict_hpe_classify_counts(reg, irr, small, large, h->ratio1_thr, h->ratio2_thr,
                              &h->ratio1, &h->ratio2, &h->cls);
    *h->st_r1 = h->ratio1;
    *h->st_r2 = h->ratio2;
    *h->st_class = (uint64_t)h->cls;
    if (!h->fixed) h->strategy = h->cls == HPE_CLASS_REGULAR ? MRUC : LRU;
    *h->st_strategy = (uint64_t)h->strategy;
    char what[32];
    snprintf(what, sizeof what, "class %s", class_name[h->cls]);
    hpe_event(h, what, h->old_at_fill);
    h->stint = 0;
}

static void set_strategy(struct hpe *h, int s)
{
    if (s != h->strategy) {
        h->strategy = s;
        *h->st_switches += 1;
        *h->st_strategy = (uint64_t)s;
        h->cur_set = NIL;
        hpe_event(h, s == LRU ? "switch lru" : "switch mru-c", h->stint);
    }
    h->stint = 0;
}

void hpe_adjust(struct hpe *h)
{
    if (!h->adjust || h->fixed) return;
    if (h->cls == HPE_CLASS_REGULAR) {
        if (h->old_at_fill < h->large_fp) return;
        h->jump_offset += h->jump;
        *h->st_jumps += 1;
        h->cur_set = NIL;
        hpe_event(h, "jump", h->jump_offset);
    } else if (h->cls == HPE_CLASS_IRREGULAR2) {
        int s = h->strategy, o = 1 - s;
        h->last_stint[s] = h->stint;
        h->tried[s] = true;
        if (!h->tried[o] || h->last_stint[o] >= h->last_stint[s]) set_strategy(h, o);
        else set_strategy(h, s);
    }
}

/* The set to evict from: the partition (old, else middle, else new), then
 * LRU (its first set) or MRU-C (from its MRU end, past the jump offset: the
 * first set whose counter is the set size, else the minimum counter). */
uint32_t hpe_choose_set(struct hpe *h)
{
    uint32_t first, last;
    if (h->head != h->p1) { first = h->head; last = h->p1 == NIL ? h->tail : h->s[h->p1].prev; }
    else if (h->p1 != h->p2) { first = h->p1; last = h->p2 == NIL ? h->tail : h->s[h->p2].prev; }
    else { first = h->p2; last = h->tail; }
    h->steps = 1;
    if (h->strategy == LRU) return first;
    uint32_t i = last;
    for (uint64_t k = 0; k < h->jump_offset && i != first; k++) { i = h->s[i].prev; h->steps++; }
    uint32_t best = i;
    for (;; i = h->s[i].prev) {
        if (h->s[i].counter == h->set_pages) return i;
        if (h->s[i].counter < h->s[best].counter) best = i;
        if (i == first) break;
        h->steps++;
    }
    return best;
}

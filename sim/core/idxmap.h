/* A fixed-capacity map from 64-bit keys to 32-bit indices: the lookup
 * structure behind the CAMs and fully associative arrays of the model
 * (TLB entries, TLB and cache MSHRs, an SM's pages in translation), so that
 * a lookup costs a hash probe instead of a walk over every entry (issue 13).
 * Open addressing with linear probing and backward-shift deletion (Knuth,
 * TAOCP vol. 3, 6.4 Algorithm R): no tombstones, so probes stay short
 * however long the map lives.  The table holds at least twice the entries
 * the caller declares, is allocated once and never grows; iteration order
 * is never used, so nothing depends on hash values. */
#ifndef UVMSIM_IDXMAP_H
#define UVMSIM_IDXMAP_H

#include <stdlib.h>
#include "base.h"

#define IDXMAP_NONE UINT32_MAX

struct idxmap {
    uint64_t *key;
    uint32_t *val;          /* IDXMAP_NONE: empty slot */
    uint32_t mask;          /* slots - 1 */
    uint32_t n, max;
};

/* Room for `max` keys at once (more is an internal error). */
static inline void idxmap_init(struct idxmap *m, uint32_t max)
{
    uint64_t slots = 16;
    while (slots < 2 * (uint64_t)max) slots *= 2;
    m->key = xcalloc(slots, sizeof *m->key);
    m->val = xmalloc(slots * sizeof *m->val);
    for (uint64_t i = 0; i < slots; i++) m->val[i] = IDXMAP_NONE;
    m->mask = (uint32_t)(slots - 1);
    m->n = 0;
    m->max = max;
}

static inline void idxmap_free(struct idxmap *m)
{
    free(m->key);
    free(m->val);
    m->key = NULL;
    m->val = NULL;
}

static inline uint32_t idxmap_home(const struct idxmap *m, uint64_t key)
{
    /* Fibonacci hashing: the top bits of key * 2^64/phi. */
    return (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 32) & m->mask;
}

/* The slot holding key, or the empty slot where it would go. */
static inline uint32_t idxmap_slot(const struct idxmap *m, uint64_t key)
{
    uint32_t i = idxmap_home(m, key);
    while (m->val[i] != IDXMAP_NONE && m->key[i] != key) i = (i + 1) & m->mask;
    return i;
}

static inline uint32_t idxmap_get(const struct idxmap *m, uint64_t key)
{
    return m->val[idxmap_slot(m, key)];
}

/* Insert or overwrite. */
static inline void idxmap_put(struct idxmap *m, uint64_t key, uint32_t val)
{
    uint32_t i = idxmap_slot(m, key);
    if (m->val[i] == IDXMAP_NONE) {
        SIM_ASSERT(m->n < m->max, "idxmap", 0, "more than %u keys", m->max);
        m->n++;
        m->key[i] = key;
    }
    m->val[i] = val;
}

/* Remove key if present. */
static inline void idxmap_del(struct idxmap *m, uint64_t key)
{
    uint32_t i = idxmap_slot(m, key);
    if (m->val[i] == IDXMAP_NONE) return;
    m->n--;
    /* Shift back every later entry of the cluster that may move to i. */
    for (uint32_t j = (i + 1) & m->mask; m->val[j] != IDXMAP_NONE; j = (j + 1) & m->mask) {
        uint32_t h = idxmap_home(m, m->key[j]);
        /* j's entry may fill i unless its home lies cyclically in (i, j]. */
        if (((j - h) & m->mask) < ((j - i) & m->mask)) continue;
        m->key[i] = m->key[j];
        m->val[i] = m->val[j];
        i = j;
    }
    m->val[i] = IDXMAP_NONE;
}

#endif

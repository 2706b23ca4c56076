#include <stdlib.h>
#include "count_map.h"

#define EMPTY UINT64_MAX

static size_t slot_of(const struct count_map *m, uint64_t vpn)
{
    return (size_t)((vpn * 0x9e3779b97f4a7c15ULL) >> 17) & m->mask;
}

static void alloc(struct count_map *m, size_t cap)
{
    m->key = xmalloc(cap * sizeof *m->key);
    m->val = xcalloc(cap, sizeof *m->val);
    for (size_t i = 0; i < cap; i++) m->key[i] = EMPTY;
    m->mask = cap - 1;
    m->n = 0;
}

void count_map_init(struct count_map *m) { alloc(m, 64); }

void count_map_free(struct count_map *m)
{
    free(m->key);
    free(m->val);
}

static size_t find(const struct count_map *m, uint64_t vpn)
{
    size_t i = slot_of(m, vpn);
    while (m->key[i] != EMPTY && m->key[i] != vpn) i = (i + 1) & m->mask;
    return i;
}

uint32_t count_map_get(const struct count_map *m, uint64_t vpn)
{
    size_t i = find(m, vpn);
    return m->key[i] == vpn ? m->val[i] : 0;
}

uint32_t count_map_inc(struct count_map *m, uint64_t vpn)
{
    if (2 * (m->n + 1) > m->mask + 1) {
        struct count_map old = *m;
        alloc(m, 2 * (old.mask + 1));
        for (size_t i = 0; i <= old.mask; i++) {
            if (old.key[i] == EMPTY) continue;
            size_t j = find(m, old.key[i]);
            m->key[j] = old.key[i];
            m->val[j] = old.val[i];
            m->n++;
        }
        count_map_free(&old);
    }
    size_t i = find(m, vpn);
    if (m->key[i] != vpn) { m->key[i] = vpn; m->n++; }
    return ++m->val[i];
}

#include <stdlib.h>
#include "mem.h"

#define EMPTY UINT64_MAX

static size_t slot_of(const struct page_map *m, uint64_t vpn)
{
    return (size_t)((vpn * 0x9e3779b97f4a7c15ULL) >> 17) & m->mask;
}

static void alloc(struct page_map *m, size_t cap)
{
    m->key = xmalloc(cap * sizeof *m->key);
    m->val = xmalloc(cap * sizeof *m->val);
    for (size_t i = 0; i < cap; i++) m->key[i] = EMPTY;
    m->mask = cap - 1;
    m->n = 0;
}

void page_map_init(struct page_map *m, size_t max_entries)
{
    size_t cap = 16;
    while (cap < 2 * max_entries) cap *= 2;   /* load factor <= 1/2 */
    alloc(m, cap);
}

size_t page_map_bytes(const struct page_map *m)
{
    return (m->mask + 1) * (sizeof *m->key + sizeof *m->val);
}

static void grow(struct page_map *m)
{
    struct page_map old = *m;
    alloc(m, 2 * (old.mask + 1));
    for (size_t i = 0; i <= old.mask; i++)
        if (old.key[i] != EMPTY) page_map_put(m, old.key[i], old.val[i]);
    page_map_free(&old);
}

void page_map_free(struct page_map *m)
{
    free(m->key);
    free(m->val);
}

uint32_t page_map_get(const struct page_map *m, uint64_t vpn)
{
    for (size_t i = slot_of(m, vpn);; i = (i + 1) & m->mask) {
        if (m->key[i] == vpn) return m->val[i];
        if (m->key[i] == EMPTY) return PAGE_MAP_NONE;
    }
}

void page_map_put(struct page_map *m, uint64_t vpn, uint32_t v)
{
    size_t i = slot_of(m, vpn);
    while (m->key[i] != EMPTY && m->key[i] != vpn) i = (i + 1) & m->mask;
    if (m->key[i] == EMPTY) {
        if (2 * (m->n + 1) > m->mask + 1) {
            grow(m);
            i = slot_of(m, vpn);
            while (m->key[i] != EMPTY) i = (i + 1) & m->mask;
        }
        m->n++;
    }
    m->key[i] = vpn;
    m->val[i] = v;
}

void page_map_erase(struct page_map *m, uint64_t vpn)
{
    size_t i = slot_of(m, vpn);
    while (m->key[i] != vpn) {
        if (m->key[i] == EMPTY) return;
        i = (i + 1) & m->mask;
    }
    /* Backward shift: pull later entries of the probe run into the hole. */
    for (size_t j = (i + 1) & m->mask; m->key[j] != EMPTY; j = (j + 1) & m->mask) {
        size_t home = slot_of(m, m->key[j]);
        bool movable = (j > i) ? (home <= i || home > j) : (home <= i && home > j);
        if (movable) {
            m->key[i] = m->key[j];
            m->val[i] = m->val[j];
            i = j;
        }
    }
    m->key[i] = EMPTY;
    m->n--;
}

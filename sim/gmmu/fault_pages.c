#include <stdlib.h>
#include "fault_pages.h"

#define EMPTY UINT64_MAX
#define INITIAL 64

static size_t slot_of(const struct fault_pages *m, uint64_t vpn)
{
    return (size_t)((vpn * 0x9e3779b97f4a7c15ULL) >> 17) & m->mask;
}

static void alloc(struct fault_pages *m, size_t cap)
{
    m->e = xmalloc(cap * sizeof *m->e);
    for (size_t i = 0; i < cap; i++) m->e[i] = (struct fault_page){ EMPTY, NULL, 0 };
    m->mask = cap - 1;
    m->n = 0;
}

void fp_init(struct fault_pages *m) { alloc(m, INITIAL); }
void fp_free(struct fault_pages *m) { free(m->e); m->e = NULL; }
size_t fp_bytes(const struct fault_pages *m) { return (m->mask + 1) * sizeof *m->e; }

static size_t find(const struct fault_pages *m, uint64_t vpn)
{
    size_t i = slot_of(m, vpn);
    while (m->e[i].vpn != EMPTY && m->e[i].vpn != vpn) i = (i + 1) & m->mask;
    return i;
}

struct fault_page *fp_find(const struct fault_pages *m, uint64_t vpn)
{
    size_t i = find(m, vpn);
    return m->e[i].vpn == vpn ? &m->e[i] : NULL;
}

struct fault_page *fp_get(struct fault_pages *m, uint64_t vpn)
{
    size_t i = find(m, vpn);
    if (m->e[i].vpn == vpn) return &m->e[i];
    if (2 * (m->n + 1) > m->mask + 1) {
        struct fault_pages old = *m;
        alloc(m, 2 * (old.mask + 1));
        for (size_t j = 0; j <= old.mask; j++)
            if (old.e[j].vpn != EMPTY) {
                m->e[find(m, old.e[j].vpn)] = old.e[j];
                m->n++;
            }
        free(old.e);
        i = find(m, vpn);
    }
    m->e[i] = (struct fault_page){ vpn, NULL, 0 };
    m->n++;
    return &m->e[i];
}

void fp_erase(struct fault_pages *m, uint64_t vpn)
{
    size_t i = find(m, vpn);
    if (m->e[i].vpn != vpn) return;
    /* Backward shift: pull later entries of the probe run into the hole. */
    for (size_t j = (i + 1) & m->mask; m->e[j].vpn != EMPTY; j = (j + 1) & m->mask) {
        size_t home = slot_of(m, m->e[j].vpn);
        bool movable = (j > i) ? (home <= i || home > j) : (home <= i && home > j);
        if (movable) {
            m->e[i] = m->e[j];
            i = j;
        }
    }
    m->e[i].vpn = EMPTY;
    m->e[i].recs = NULL;
    m->n--;
}

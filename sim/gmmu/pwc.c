/* Page-walk cache (Power et al., HPCA 2014, adopted for GPUs as the
 * batch-aware paper Sec. 2 describes): upper-level page-table entries have
 * strong temporal locality, so caching them cuts a 4-read walk to fewer
 * reads.  Set-associative, LRU; the key is the level and the VA bits that
 * select that level's entry. */
#include <stdlib.h>
#include "pwc.h"
#include "page_table.h"

void pwc_init(struct pwc *c, uint32_t entries, uint32_t ways)
{
    c->ways = ways;
    c->sets = entries / ways;
    c->e = xcalloc(entries, sizeof *c->e);
    c->stamp = 0;
}

void pwc_free(struct pwc *c) { free(c->e); c->e = NULL; }

/* Level-k entry covers vpn >> (9 * (k - 1)). */
static uint64_t key_of(uint64_t vpn, unsigned level)
{
    return (vpn >> (PT_BITS * (level - 1))) << 2 | (level - 1);
}

static struct pwc_entry *set_of(struct pwc *c, uint64_t key)
{
    uint64_t h = key * 0x9e3779b97f4a7c15ULL;   /* spread the level bits */
    return &c->e[(h >> 32) % c->sets * c->ways];
}

bool pwc_lookup(struct pwc *c, uint64_t vpn, unsigned level)
{
    uint64_t key = key_of(vpn, level);
    struct pwc_entry *s = set_of(c, key);
    for (uint32_t w = 0; w < c->ways; w++)
        if (s[w].valid && s[w].key == key) { s[w].stamp = ++c->stamp; return true; }
    return false;
}

void pwc_insert(struct pwc *c, uint64_t vpn, unsigned level)
{
    uint64_t key = key_of(vpn, level);
    struct pwc_entry *s = set_of(c, key), *v = NULL;
    for (uint32_t w = 0; w < c->ways; w++)
        if (s[w].valid && s[w].key == key) { s[w].stamp = ++c->stamp; return; }
    for (uint32_t w = 0; !v && w < c->ways; w++)
        if (!s[w].valid) v = &s[w];
    if (!v) {
        v = &s[0];
        for (uint32_t w = 1; w < c->ways; w++)
            if (s[w].stamp < v->stamp) v = &s[w];
    }
    *v = (struct pwc_entry){ key, ++c->stamp, true };
}

/* Sectored set-associative LRU tag store with MSHRs (see cache.h).  LRU by
 * a per-cache use stamp: HPE Table I and batch-aware Table 1 give LRU for
 * both L1 and L2. */
#include <stdlib.h>
#include "cache.h"

bool cache_init(struct cache *c, uint64_t size, uint32_t ways, uint32_t nmshr)
{
    *c = (struct cache){0};
    if (!ways || !nmshr) return false;
    uint64_t sets = size / ((uint64_t)ways * LINE_SIZE);
    if (!sets || sets > UINT32_MAX) return false;
    c->sets = (uint32_t)sets;
    c->ways = ways;
    c->nmshr = nmshr;
    c->set_mask = (sets & (sets - 1)) ? 0 : (uint32_t)sets - 1;
    c->l = xcalloc((size_t)sets * ways, sizeof *c->l);
    c->m = xcalloc(nmshr, sizeof *c->m);
    c->mfree = xcalloc((nmshr + 63) / 64, sizeof *c->mfree);
    for (uint32_t i = 0; i < nmshr; i++) c->mfree[i / 64] |= 1ULL << (i % 64);
    idxmap_init(&c->mmap, nmshr);
    uint64_t buckets = 64;
    while (buckets < sets * ways) buckets *= 2;
    c->frame_lines = xcalloc(buckets, sizeof *c->frame_lines);
    c->frame_mask = (uint32_t)(buckets - 1);
    return true;
}

void cache_free(struct cache *c)
{
    free(c->l);
    free(c->m);
    free(c->mfree);
    free(c->frame_lines);
    idxmap_free(&c->mmap);
    c->l = NULL;
    c->m = NULL;
}

static struct cache_line *set_of(struct cache *c, uint64_t line)
{
    uint64_t set = c->set_mask ? (line & c->set_mask) : line % c->sets;
    return &c->l[set * c->ways];
}

/* Lines are counted per frame bucket as they come and go. */
static inline uint32_t *frame_count(struct cache *c, uint64_t line)
{ return &c->frame_lines[(line >> (PAGE_SHIFT - LINE_SHIFT)) & c->frame_mask]; }

static struct cache_line *find(struct cache *c, uint64_t line)
{
    struct cache_line *s = set_of(c, line);
    for (uint32_t w = 0; w < c->ways; w++)
        if (s[w].valid && s[w].line == line) return &s[w];
    return NULL;
}

uint32_t cache_slot(struct cache *c, uint64_t addr)
{
    struct cache_line *l = find(c, cache_line_of(addr));
    return l ? (uint32_t)(l - c->l) : UINT32_MAX;
}

uint8_t cache_probe(struct cache *c, uint64_t addr, uint8_t mask, bool *tag_hit)
{
    struct cache_line *l = find(c, cache_line_of(addr));
    *tag_hit = l != NULL;
    if (!l) return mask;
    l->stamp = ++c->stamp;
    return (uint8_t)(mask & ~l->valid);
}

void cache_fill(struct cache *c, uint64_t addr, uint8_t mask, bool dirty,
                struct cache_victim *v)
{
    uint64_t line = cache_line_of(addr);
    *v = (struct cache_victim){0};
    struct cache_line *l = find(c, line);
    if (!l) {
        struct cache_line *s = set_of(c, line);
        for (uint32_t w = 0; w < c->ways && !l; w++)
            if (!s[w].valid) l = &s[w];
        if (!l) {
            l = &s[0];
            for (uint32_t w = 1; w < c->ways; w++)
                if (s[w].stamp < l->stamp) l = &s[w];
            *v = (struct cache_victim){ true, l->line << LINE_SHIFT, l->dirty };
            --*frame_count(c, l->line);
        }
        *l = (struct cache_line){ .line = line };
        ++*frame_count(c, line);
    }
    l->valid |= mask;
    if (dirty) l->dirty |= mask;
    l->stamp = ++c->stamp;
}

bool cache_write_present(struct cache *c, uint64_t addr, uint8_t mask, bool dirty)
{
    struct cache_line *l = find(c, cache_line_of(addr));
    if (!l) return false;
    l->valid |= mask;
    if (dirty) l->dirty |= mask;
    l->stamp = ++c->stamp;
    return true;
}

void cache_invalidate(struct cache *c, uint64_t addr, struct cache_victim *v)
{
    struct cache_line *l = find(c, cache_line_of(addr));
    *v = (struct cache_victim){0};
    if (!l) return;
    *v = (struct cache_victim){ true, l->line << LINE_SHIFT, l->dirty };
    --*frame_count(c, l->line);
    *l = (struct cache_line){0};
}

struct cache_mshr *cache_mshr_find(struct cache *c, uint64_t addr)
{
    if (!c->mshr_used) return NULL;
    uint32_t i = idxmap_get(&c->mmap, cache_line_of(addr));
    return i == IDXMAP_NONE ? NULL : &c->m[i];
}

struct cache_mshr *cache_mshr_alloc(struct cache *c, uint64_t addr)
{
    if (c->mshr_used == c->nmshr) return NULL;
    uint32_t w = 0;
    while (!c->mfree[w]) w++;
    uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(c->mfree[w]);
    c->mfree[w] &= c->mfree[w] - 1;
    c->m[i] = (struct cache_mshr){ .used = true, .line = cache_line_of(addr) };
    c->mshr_used++;
    idxmap_put(&c->mmap, c->m[i].line, i);
    return &c->m[i];
}

void cache_mshr_wait(struct cache_mshr *m, struct mem_req *r)
{
    r->next = NULL;
    if (m->tail) m->tail->next = r;
    else m->head = r;
    m->tail = r;
}

void cache_mshr_release(struct cache *c, struct cache_mshr *m)
{
    uint32_t i = cache_mshr_index(c, m);
    idxmap_del(&c->mmap, m->line);
    *m = (struct cache_mshr){0};
    c->mfree[i / 64] |= 1ULL << (i % 64);
    c->mshr_used--;
}

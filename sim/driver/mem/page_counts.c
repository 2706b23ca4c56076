#include <stdlib.h>
#include "mem.h"

#define FANOUT (1u << PC_BITS)
#define LEAF_PAGES 512u       /* one 2 MiB block of 4 KiB pages */
#define LEAF_SHIFT 9
#define OVER 255u             /* leaf value meaning "in the overflow map" */

void page_counts_init(struct page_counts *c)
{
    c->root = xcalloc(FANOUT, sizeof *c->root);
    c->nodes = 1;
    c->leaves = 0;
    page_map_init(&c->over, 8);
}

static void node_free(void **n, unsigned level)
{
    for (unsigned i = 0; i < FANOUT; i++) {
        if (!n[i]) continue;
        if (level > 1) node_free(n[i], level - 1);
        else free(n[i]);
    }
    free(n);
}

void page_counts_free(struct page_counts *c)
{
    node_free(c->root, PC_LEVELS);
    page_map_free(&c->over);
}

size_t page_counts_bytes(const struct page_counts *c)
{
    return c->nodes * FANOUT * sizeof(void *) + c->leaves * LEAF_PAGES + page_map_bytes(&c->over);
}

static unsigned idx(uint64_t block, unsigned level)
{
    return (unsigned)(block >> (PC_BITS * (level - 1))) & (FANOUT - 1);
}

/* vpn's leaf cell; created (zero) when `create`, else NULL if absent. */
static uint8_t *cell(struct page_counts *c, uint64_t vpn, bool create)
{
    uint64_t block = vpn >> LEAF_SHIFT;
    SIM_ASSERT(block >> (PC_BITS * PC_LEVELS) == 0, "driver.page_counts", 0,
               "page %#llx beyond the 48-bit address space", (unsigned long long)vpn);
    void **n = c->root;
    for (unsigned l = PC_LEVELS; l > 1; l--) {
        void **next = &n[idx(block, l)];
        if (!*next) {
            if (!create) return NULL;
            *next = xcalloc(FANOUT, sizeof(void *));
            c->nodes++;
        }
        n = *next;
    }
    void **leaf = &n[idx(block, 1)];
    if (!*leaf) {
        if (!create) return NULL;
        *leaf = xcalloc(LEAF_PAGES, 1);
        c->leaves++;
    }
    return (uint8_t *)*leaf + (vpn & (LEAF_PAGES - 1));
}

uint32_t page_counts_get(const struct page_counts *c, uint64_t vpn)
{
    const uint8_t *v = cell((struct page_counts *)c, vpn, false);
    if (!v) return 0;
    return *v < OVER ? *v : page_map_get(&c->over, vpn);
}

uint32_t page_counts_inc(struct page_counts *c, uint64_t vpn)
{
    uint8_t *v = cell(c, vpn, true);
    if (*v < OVER - 1) return ++*v;
    uint32_t n = *v == OVER ? page_map_get(&c->over, vpn) + 1 : OVER;
    SIM_ASSERT(n < PAGE_MAP_NONE, "driver.page_counts", 0, "count of page %#llx overflows",
               (unsigned long long)vpn);
    *v = OVER;
    page_map_put(&c->over, vpn, n);
    return n;
}

uint32_t page_counts_dec(struct page_counts *c, uint64_t vpn)
{
    uint8_t *v = cell(c, vpn, false);
    SIM_ASSERT(v && *v, "driver.page_counts", 0, "count of page %#llx below zero",
               (unsigned long long)vpn);
    if (*v < OVER) return --*v;
    uint32_t n = page_map_get(&c->over, vpn) - 1;
    if (n < OVER) {
        page_map_erase(&c->over, vpn);
        *v = (uint8_t)n;
    } else {
        page_map_put(&c->over, vpn, n);
    }
    return n;
}

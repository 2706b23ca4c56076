#include <stdlib.h>
#include "page_table.h"

static void node_init(struct page_table *pt, struct pt_node *n, unsigned level)
{
    n->paddr = pt->next_paddr;
    pt->next_paddr += PT_FANOUT * 8;     /* one 4 KiB page of 8-byte entries */
    pt->nodes++;
    if (level > 1) n->child = xcalloc(PT_FANOUT, sizeof *n->child);
    else n->pte = xcalloc(PT_FANOUT, sizeof *n->pte);
}

void pt_init(struct page_table *pt)
{
    pt->next_paddr = PT_PHYS_BASE;
    pt->nodes = 0;
    pt->root = (struct pt_node){0};
    node_init(pt, &pt->root, PT_LEVELS);
}

static void node_free(struct pt_node *n, unsigned level)
{
    if (level > 1) {
        for (unsigned i = 0; i < PT_FANOUT; i++)
            if (n->child[i]) { node_free(n->child[i], level - 1); free(n->child[i]); }
        free(n->child);
    } else {
        free(n->pte);
    }
}

void pt_free(struct page_table *pt)
{
    node_free(&pt->root, PT_LEVELS);
    pt->root = (struct pt_node){0};
}

size_t pt_bytes(const struct page_table *pt)
{
    /* Every node is one 512-entry array (8-byte child pointers or PTEs)
     * and its header; nodes - 1 headers are allocations of their own. */
    return (size_t)pt->nodes * PT_FANOUT * 8 + (size_t)(pt->nodes - 1) * sizeof(struct pt_node);
}

struct pte *pt_find(const struct page_table *pt, uint64_t vpn)
{
    const struct pt_node *n = &pt->root;
    for (unsigned l = PT_LEVELS; l > 1; l--) {
        n = n->child[pt_index(vpn, l)];
        if (!n) return NULL;
    }
    return &n->pte[pt_index(vpn, 1)];
}

struct pte *pt_get(struct page_table *pt, uint64_t vpn)
{
    struct pt_node *n = &pt->root;
    for (unsigned l = PT_LEVELS; l > 1; l--) {
        struct pt_node **c = &n->child[pt_index(vpn, l)];
        if (!*c) {
            *c = xcalloc(1, sizeof **c);
            node_init(pt, *c, l - 1);
        }
        n = *c;
    }
    struct pte *p = &n->pte[pt_index(vpn, 1)];
    if (!p->shift) p->shift = 12;
    return p;
}

unsigned pt_walk_path(const struct page_table *pt, uint64_t vpn, uint64_t entry[PT_LEVELS + 1])
{
    const struct pt_node *n = &pt->root;
    unsigned l = PT_LEVELS;
    for (;;) {
        entry[l] = n->paddr + 8ULL * pt_index(vpn, l);
        if (l == 1) return 1;
        const struct pt_node *c = n->child[pt_index(vpn, l)];
        if (!c) return l;
        n = c;
        l--;
    }
}

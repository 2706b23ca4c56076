/* True LRU at page granularity: every GPU access to a resident page moves
 * it to the most-recent end (the "LRU" baseline of the HPE paper, Sec. VI,
 * which unlike the real driver's chunk list sees accesses).  O(1) per
 * access and per victim: a doubly linked list over frame slots plus a
 * page map. */
#include <stdlib.h>
#include "evict.h"
#include "driver/mem/mem.h"

struct node { uint64_t vpn; uint32_t prev, next; };

struct lru {
    struct node *n;
    uint32_t head, tail, free_head; /* head = least recent */
    uint64_t cap, used;
    struct page_map map;
};

#define NIL UINT32_MAX

static void *lru_create(const struct config *cfg, uint64_t capacity)
{
    (void)cfg;
    struct lru *l = xcalloc(1, sizeof *l);
    l->n = xcalloc(capacity, sizeof *l->n);
    l->cap = capacity;
    for (uint64_t i = 0; i < capacity; i++)
        l->n[i].next = i + 1 < capacity ? (uint32_t)(i + 1) : NIL;
    l->free_head = capacity ? 0 : NIL;
    l->head = l->tail = NIL;
    page_map_init(&l->map, capacity);
    return l;
}

static void unlink_node(struct lru *l, uint32_t i)
{
    struct node *x = &l->n[i];
    if (x->prev != NIL) l->n[x->prev].next = x->next; else l->head = x->next;
    if (x->next != NIL) l->n[x->next].prev = x->prev; else l->tail = x->prev;
}

static void push_recent(struct lru *l, uint32_t i)
{
    l->n[i].prev = l->tail;
    l->n[i].next = NIL;
    if (l->tail != NIL) l->n[l->tail].next = i; else l->head = i;
    l->tail = i;
}

static void lru_on_resident(void *p, uint64_t vpn)
{
    struct lru *l = p;
    uint32_t i = l->free_head;
    if (i == NIL) sim_panic("evict.lru", 0, "more resident pages than frames");
    l->free_head = l->n[i].next;
    l->n[i].vpn = vpn;
    push_recent(l, i);
    page_map_put(&l->map, vpn, i);
    l->used++;
}

static void lru_touch(void *p, uint64_t vpn)
{
    struct lru *l = p;
    uint32_t i = page_map_get(&l->map, vpn);
    if (i == PAGE_MAP_NONE || i == l->tail) return;
    unlink_node(l, i);
    push_recent(l, i);
}

static bool lru_victim(void *p, uint64_t *vpn)
{
    struct lru *l = p;
    uint32_t i = l->head;
    if (i == NIL) return false;
    unlink_node(l, i);
    *vpn = l->n[i].vpn;
    page_map_erase(&l->map, *vpn);
    l->n[i].next = l->free_head;
    l->free_head = i;
    l->used--;
    return true;
}

static void lru_forget(void *p, uint64_t vpn)
{
    struct lru *l = p;
    uint32_t i = page_map_get(&l->map, vpn);
    if (i == PAGE_MAP_NONE) return;
    unlink_node(l, i);
    page_map_erase(&l->map, vpn);
    l->n[i].next = l->free_head;
    l->free_head = i;
    l->used--;
}

static void lru_destroy(void *p)
{
    struct lru *l = p;
    page_map_free(&l->map);
    free(l->n);
    free(l);
}

const struct evict_ops evict_lru_ops = {
    .name = "lru", .create = lru_create, .on_resident = lru_on_resident,
    .touch = lru_touch, .victim = lru_victim, .destroy = lru_destroy,
    .forget = lru_forget,
};

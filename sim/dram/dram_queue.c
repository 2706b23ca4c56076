/* A controller's read or write queue, indexed for FR-FCFS (dram_ctrl.c):
 * the entries in arrival order, each bank's entries in arrival order, and
 * each (bank, row)'s entries in arrival order behind a small open-addressed
 * hash, so that the scheduler asks per bank -- "is any queued request a row
 * hit, which is the oldest, which is the oldest request at all" -- in
 * constant time instead of scanning the queue for every request (the scan
 * made a tick quadratic in queue length; issue 13).  Nothing here decides:
 * the order of service is dram_ctrl.c's.
 *
 * Slots, groups and the hash are allocated once at init (queue capacity);
 * insert and remove allocate nothing. */
#include <stdlib.h>
#include "dram_int.h"

static inline uint32_t hash_of(const struct dqueue *q, unsigned bank, uint64_t row)
{
    /* Fibonacci hashing of the (row, bank) pair: rows of one bank differ in
     * their high bits under row-interleaved mappings, so mix them all. */
    uint64_t k = (row * 0x9E3779B97F4A7C15ULL) ^ ((uint64_t)bank * 0xC2B2AE3D27D4EB4FULL);
    return (uint32_t)(k >> 32) & q->hmask;
}

void dq_init(struct dqueue *q, uint32_t cap, unsigned nbanks)
{
    q->cap = cap;
    q->n = 0;
    q->seq = 0;
    q->head = q->tail = DQ_NONE;
    q->e = xcalloc(cap, sizeof *q->e);
    for (uint32_t i = 0; i < cap; i++) q->e[i].next = i + 1 < cap ? i + 1 : DQ_NONE;
    q->free = 0;
    q->g = xcalloc(cap, sizeof *q->g);
    for (uint32_t i = 0; i < cap; i++) q->g[i].head = i + 1 < cap ? i + 1 : DQ_NONE;
    q->gfree = 0;
    uint32_t hs = 4;
    while (hs < 2 * cap) hs *= 2;
    q->hmask = hs - 1;
    q->hash = xmalloc(hs * sizeof *q->hash);
    for (uint32_t i = 0; i < hs; i++) q->hash[i] = DQ_NONE;
    q->bk = xcalloc(nbanks, sizeof *q->bk);
    for (unsigned b = 0; b < nbanks; b++)
        q->bk[b] = (struct qbank){ 0, DQ_NONE, DQ_NONE, DQ_NONE, UINT64_MAX, UINT64_MAX };
    q->nactive = 0;
    q->nwords = (nbanks + 63) / 64;
    q->act_m = xcalloc(q->nwords, sizeof *q->act_m);
    q->hit_m = xcalloc(q->nwords, sizeof *q->hit_m);
}

void dq_free(struct dqueue *q)
{
    free(q->e);
    free(q->g);
    free(q->hash);
    free(q->bk);
    free(q->act_m);
    free(q->hit_m);
}

uint32_t dq_find(const struct dqueue *q, unsigned bank, uint64_t row)
{
    for (uint32_t h = hash_of(q, bank, row);; h = (h + 1) & q->hmask) {
        uint32_t gi = q->hash[h];
        if (gi == DQ_NONE) return DQ_NONE;
        if (q->g[gi].bank == bank && q->g[gi].row == row) return gi;
    }
}

static uint32_t group_get(struct dqueue *q, unsigned bank, uint64_t row, bool *created)
{
    uint32_t h = hash_of(q, bank, row);
    for (;; h = (h + 1) & q->hmask) {
        uint32_t gi = q->hash[h];
        if (gi == DQ_NONE) break;
        if (q->g[gi].bank == bank && q->g[gi].row == row) { *created = false; return gi; }
    }
    /* At most one group per queued entry, and the hash is twice the
     * capacity: a free group and an empty slot always exist. */
    uint32_t gi = q->gfree;
    q->gfree = q->g[gi].head;
    q->g[gi] = (struct rgroup){ row, bank, 0, DQ_NONE, DQ_NONE, h };
    q->hash[h] = gi;
    *created = true;
    return gi;
}

/* Linear probing's backward-shift deletion: later entries of the probe run
 * move up so that lookups never stop early at the hole. */
static void group_drop(struct dqueue *q, uint32_t gi)
{
    uint32_t hole = q->g[gi].slot;
    q->hash[hole] = DQ_NONE;
    for (uint32_t i = (hole + 1) & q->hmask; q->hash[i] != DQ_NONE; i = (i + 1) & q->hmask) {
        uint32_t gj = q->hash[i];
        uint32_t home = hash_of(q, q->g[gj].bank, q->g[gj].row);
        /* gj may fill the hole unless its home lies cyclically in (hole, i]. */
        bool stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
        if (stays) continue;
        q->hash[hole] = gj;
        q->g[gj].slot = hole;
        q->hash[i] = DQ_NONE;
        hole = i;
    }
    q->g[gi].head = q->gfree;
    q->gfree = gi;
}

uint32_t dq_insert(struct dqueue *q, const struct dreq *proto, bool open, uint64_t open_row)
{
    uint32_t i = q->free;
    struct dreq *e = &q->e[i];
    q->free = e->next;
    *e = *proto;
    e->seq = q->seq++;
    /* arrival order */
    e->prev = q->tail;
    e->next = DQ_NONE;
    if (q->tail != DQ_NONE) q->e[q->tail].next = i; else q->head = i;
    q->tail = i;
    /* the bank's entries */
    struct qbank *b = &q->bk[e->bank];
    e->bprev = b->tail;
    e->bnext = DQ_NONE;
    if (b->tail != DQ_NONE) q->e[b->tail].bnext = i;
    else { b->head = i; b->seq = e->seq; }
    b->tail = i;
    if (b->n++ == 0) {
        q->act_m[e->bank / 64] |= 1ULL << (e->bank % 64);
        q->nactive++;
    }
    /* the (bank, row) group */
    bool created;
    uint32_t gi = group_get(q, e->bank, e->row, &created);
    struct rgroup *g = &q->g[gi];
    e->group = gi;
    e->gnext = DQ_NONE;
    if (g->tail != DQ_NONE) q->e[g->tail].gnext = i; else g->head = i;
    g->tail = i;
    g->n++;
    if (created && open && open_row == e->row) dq_set_open(q, e->bank, gi);
    q->n++;
    return i;
}

void dq_remove(struct dqueue *q, uint32_t i)
{
    struct dreq *e = &q->e[i];
    if (e->prev != DQ_NONE) q->e[e->prev].next = e->next; else q->head = e->next;
    if (e->next != DQ_NONE) q->e[e->next].prev = e->prev; else q->tail = e->prev;
    struct qbank *b = &q->bk[e->bank];
    if (e->bprev != DQ_NONE) q->e[e->bprev].bnext = e->bnext;
    else { b->head = e->bnext; b->seq = e->bnext != DQ_NONE ? q->e[e->bnext].seq : UINT64_MAX; }
    if (e->bnext != DQ_NONE) q->e[e->bnext].bprev = e->bprev; else b->tail = e->bprev;
    if (--b->n == 0) {
        q->act_m[e->bank / 64] &= ~(1ULL << (e->bank % 64));
        q->nactive--;
    }
    /* Only a group's oldest entry is ever served to completion: FR-FCFS
     * picks the oldest hit of a row, and its bursts finish it. */
    struct rgroup *g = &q->g[e->group];
    SIM_ASSERT(g->head == i, "dram", 0, "queue entry leaves its row group out of order");
    g->head = e->gnext;
    if (g->head == DQ_NONE) g->tail = DQ_NONE;
    else if (b->open == e->group) b->hit_seq = q->e[g->head].seq;
    if (--g->n == 0) {
        if (b->open == e->group) dq_set_open(q, e->bank, DQ_NONE);
        group_drop(q, e->group);
    }
    e->next = q->free;
    q->free = i;
    q->n--;
}

void dq_bank_opened(struct dqueue *q, unsigned bank, uint64_t row)
{
    dq_set_open(q, bank, q->bk[bank].n ? dq_find(q, bank, row) : DQ_NONE);
}

void dq_bank_closed(struct dqueue *q, unsigned bank) { dq_set_open(q, bank, DQ_NONE); }

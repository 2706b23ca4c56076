#include <stdlib.h>
#include "mem_req.h"

#define POOL_CHUNK 4096

void req_pool_init(struct req_pool *p)
{
    p->free = NULL;
    p->chunks = NULL;
    p->nchunks = 0;
    p->next_id = 0;
    p->live = 0;
}

void req_pool_free(struct req_pool *p)
{
    for (size_t i = 0; i < p->nchunks; i++) free(p->chunks[i]);
    free(p->chunks);
    req_pool_init(p);
}

/* Grows by a chunk when empty: allocation happens only while the number in
 * flight reaches a new peak. */
struct mem_req *req_alloc_slow(struct req_pool *p)
{
    struct mem_req *c = xcalloc(POOL_CHUNK, sizeof *c);
    p->chunks = xrealloc(p->chunks, (p->nchunks + 1) * sizeof *p->chunks);
    p->chunks[p->nchunks++] = c;
    for (size_t i = 0; i + 1 < POOL_CHUNK; i++) c[i].next = &c[i + 1];
    c[POOL_CHUNK - 1].next = p->free;
    p->free = c;
    return c;
}

const char *req_kind_name(enum req_kind k)
{
    switch (k) {
    case REQ_LOAD: return "load";
    case REQ_STORE: return "store";
    case REQ_ATOMIC: return "atomic";
    case REQ_XLATE: return "xlate";
    }
    return "?";
}

void req_dump(FILE *out, const struct mem_req *r)
{
    fprintf(out, "      req %llu %s", (unsigned long long)r->id, req_kind_name(r->kind));
    if (r->kind == REQ_XLATE) fprintf(out, " (for %s)", req_kind_name(r->access));
    fprintf(out, " va %#llx pa %#llx sm %u warp %u issued %llu ps\n",
            (unsigned long long)r->vaddr, (unsigned long long)r->paddr, r->sm,
            r->warp, (unsigned long long)r->t_issue);
}

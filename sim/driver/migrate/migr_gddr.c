/* A migrated page's data written into GPU memory: "read 4 KB from DDR,
 * write 4 KB to GDDR (traffic not prioritised in the memory controllers)"
 * (thesis Sec. 5.2.1; spec C.2.2), so migration bandwidth is "symmetric
 * on both memories" (Fig. 5.10).  The read is the copy engine's (link_dma
 * reads host DDR4); here the landed page goes into the GDDR channels as 32
 * posted 128 B line writes, in landing order, through the same FR-FCFS
 * queues as the L2's demand requests.  The page is remapped when its last
 * write has been taken by its channel (posted writes are answered then:
 * dram.h).  At most WRITES_OUT writes are out at once (the reply queue's
 * size; a channel queue holds far fewer). */
#include <stdlib.h>
#include "migrate.h"

#define WRITES_OUT 256u

void migr_gddr_init(struct migr_gddr *w, struct component *owner, struct mem_port port,
                    struct req_pool *pool)
{
    w->port = port;
    w->pool = pool;
    w->max_out = WRITES_OUT;
    mq_init(&w->reply, "migration.writes", WRITES_OUT, 0, owner);
    w->cap = 4 * LINE_PER_PAGE;
    w->line = xcalloc(w->cap, sizeof *w->line);
    w->move = xcalloc(w->cap, sizeof *w->move);
}

void migr_gddr_free(struct migr_gddr *w)
{
    mq_free(&w->reply);
    free(w->line);
    free(w->move);
}

/* Grows to the most lines waiting at once: the concurrency's pages, or
 * the prologue's landed copies. */
static void grow(struct migr_gddr *w)
{
    size_t cap = 2 * w->cap;
    uint64_t *line = xcalloc(cap, sizeof *line);
    uint32_t *move = xcalloc(cap, sizeof *move);
    for (size_t k = 0; k < w->n; k++) {
        line[k] = w->line[(w->head + k) % w->cap];
        move[k] = w->move[(w->head + k) % w->cap];
    }
    free(w->line);
    free(w->move);
    w->line = line;
    w->move = move;
    w->cap = cap;
    w->head = 0;
}

void migr_gddr_page(struct migr_gddr *w, uint64_t pfn, uint32_t mv)
{
    while (w->n + LINE_PER_PAGE > w->cap) grow(w);
    for (uint32_t k = 0; k < LINE_PER_PAGE; k++) {
        size_t at = (w->head + w->n++) % w->cap;
        w->line[at] = (pfn << PAGE_SHIFT) + (uint64_t)k * LINE_SIZE;
        w->move[at] = mv;
    }
}

bool migr_gddr_run(struct migr *m, sim_time now)
{
    struct migr_gddr *w = &m->w;
    struct mem_req *r;
    while ((r = mq_pop(&w->reply, now))) {
        uint32_t mv = r->slot;
        req_release(w->pool, r);
        w->out--;
        if (--migr_move_at(m, mv)->lines_left == 0) migr_written(m, mv, now);
    }
    while (w->n && w->out < w->max_out) {
        uint64_t pa = w->line[w->head];
        struct mq *q = port_route(&w->port, pa);
        if (mq_full(q)) {
            mq_wait_space(q, &m->comp);
            return true;
        }
        r = req_alloc(w->pool);
        r->kind = r->access = REQ_STORE;
        r->vaddr = r->paddr = pa;
        r->size = LINE_SIZE;
        r->sector_mask = 0xf;
        r->xflags = 0;
        r->sm = 0;
        r->warp = 0;
        r->slot = w->move[w->head];
        r->t_issue = now;
        r->reply = &w->reply;
        SIM_ASSERT(mq_push(q, r, now, &m->comp), "migration", now, "a GPU memory queue refused "
                   "a write it had room for");
        w->head = (w->head + 1) % w->cap;
        w->n--;
        w->out++;
        *m->gddr_bytes += LINE_SIZE;
    }
    return w->n != 0;
}

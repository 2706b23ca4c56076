/* The legacy memcpy baseline (thesis Sec. 5.2.2, Fig. 2.2 "GDDR +
 * memcpy"): the programmer copies all data into GPU memory before the
 * kernels, so none of it is migrated or shot down later.  Here every
 * host-homed page (all of them under driver.placement host) is copied
 * before the first kernel by the copy engines, one H2D transfer per run of
 * host-homed pages within a 2 MiB VA block (as the real driver copies a
 * block's contiguous pages with one copy-engine operation), all queued at
 * once: their time is the link's and host DDR4's (the copy engine reads
 * the host pages, drv_block.c), plus the writes into GPU memory
 * (migr_gddr.c), which overlap the later blocks' copies.  Each page is
 * mapped in GPU memory when written; the kernels start when the last one
 * is (migration.prologue_ps).  No page has been walked, so none needs a
 * shootdown. */
#include <stdlib.h>
#include "migrate.h"
#include "driver/prefetch/prefetch.h"   /* VA_BLOCK_PAGES */
#include "link/link.h"

static void run_landed(void *obj, uint64_t r, sim_time now)
{
    struct migr *m = obj;
    const struct migr_run *run = &m->runs[r];
    engine_progress(m->comp.eng);          /* a run landed (watchdog) */
    for (uint32_t k = run->first; k < run->first + run->n; k++)
        migr_gddr_page(&m->w, m->bulk[k].pfn, MV_BULK | k);
    comp_wake(&m->comp, now);
}

static bool prologue(struct migr *m, sim_time now)
{
    const struct migr_host *h = &m->host;
    m->bulk = xcalloc(m->npages ? m->npages : 1, sizeof *m->bulk);
    m->runs = xcalloc(m->npages ? m->npages : 1, sizeof *m->runs);
    for (uint64_t i = 0; i < m->npages && !m->full; i++) {
        uint64_t vpn = m->vpn0 + i, pfn;
        if (!migr_may_queue(m, vpn)) continue;
        if (!h->frame_take(h->ctx, &pfn)) {
            m->full = true;       /* the rest stays in host memory */
            for (uint64_t j = i; j < m->npages; j++) *m->n_refused += migr_may_queue(m, m->vpn0 + j);
            break;
        }
        migr_hold(m, vpn, pfn, now);
        uint32_t k = m->nbulk++;
        m->bulk[k] = (struct migr_move){ vpn, pfn, LINE_PER_PAGE, 0 };
        struct migr_run *r = m->nruns ? &m->runs[m->nruns - 1] : NULL;
        if (r && m->bulk[r->first + r->n - 1].vpn + 1 == vpn && vpn % VA_BLOCK_PAGES)
            r->n++;
        else
            m->runs[m->nruns++] = (struct migr_run){ k, 1 };
    }
    m->pro_left = m->nbulk;
    if (!m->nbulk) return false;
    for (uint32_t r = 0; r < m->nruns; r++)
        link_dma(h->link, LINK_H2D, m->bulk[m->runs[r].first].vpn << PAGE_SHIFT,
                 (uint64_t)m->runs[r].n * PAGE_SIZE, now, run_landed, m, r);
    return true;
}

const struct migr_ops migr_memcpy_ops = { "memcpy", NULL, prologue };

/* HIR records on their way to the driver (HPE Sec. IV-B): the touched
 * entries are copied out in first-touch order, carried over the link D2H
 * (10 B per record, HPE Sec. V-C: 48-bit tag + 16 two-bit counters; the
 * transfer cost is charged on the link like any DMA), and land in the
 * driver's host buffer (HPE Sec. V-C: a 10 KB buffer, 1024 records), from
 * which the driver takes them.  Records that find the buffer full are
 * counted and dropped. */
#include "gmmu_internal.h"
#include "core/stats.h"
#include "link/link.h"

/* The records carry their landing time; a driver that takes them as they
 * land (gmmu.hir.drain=landing) is told. */
static void landed(void *obj, uint64_t arg, sim_time now)
{
    struct gmmu *g = obj;
    (void)arg;
    if (g->hir_landed) g->hir_landed(g->hir_landed_ctx, now);
}

void gmmu_hir_transfer(struct gmmu *g, sim_time now)
{
    uint32_t n = hir_take(&g->hir, g->hir_tmp);
    if (!n) return;
    uint64_t bytes = (uint64_t)n * g->hir_rec_bytes;
    sim_time t = g->link ? link_transfer(g->link, LINK_D2H, bytes, now, landed, g, 0) : now;
    *g->hir_xfers += 1;
    *g->hir_bytes += bytes;
    for (uint32_t i = 0; i < n; i++) {
        if (g->host_n == g->host_cap) { *g->hir_dropped += n - i; break; }
        struct hir_host *h = &g->host[(g->host_head + g->host_n++) % g->host_cap];
        h->rec = g->hir_tmp[i];
        h->avail = t;
    }
    if (!g->link) landed(g, 0, now);
}

void gmmu_hir_flush(struct gmmu *g, sim_time now)
{
    if (g->hir_on) gmmu_hir_transfer(g, now);
}

size_t gmmu_hir_fetch(struct gmmu *g, struct hir_record *out, size_t max, sim_time now)
{
    size_t n = 0;
    while (n < max && g->host_n && g->host[g->host_head].avail <= now) {
        out[n++] = g->host[g->host_head].rec;
        g->host_head = (g->host_head + 1) % g->host_cap;
        g->host_n--;
    }
    return n;
}

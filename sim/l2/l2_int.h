/* Inside of the L2 slices (sim/l2 l2*.c): l2.c looks lines up, fills
 * and writes back; l2_remote.c handles what selective caching keeps out of
 * the slice (thesis Ch. VI): uncached lines passed to the link, cacheless
 * coalescing in the slice's MSHRs, the remote directory and the CPU's
 * requests for GPU-homed lines. */
#ifndef UVMSIM_L2_INT_H
#define UVMSIM_L2_INT_H

#include "dram/dram.h"
#include "l2.h"
#include "core/cache.h"
#include "core/pfills.h"
#include "core/slots.h"

#define WB_SLOT UINT32_MAX
/* A CPU request's read of a GPU-homed line (l2_cpu_read). */
#define CPU_SLOT (UINT32_MAX - 1)
/* A slice's own request standing for an SM request that it does not cache
 * (a host-homed line with l2.remote_cache off, a LINE_NOCACHE line, a line
 * the remote directory holds): slot = BYPASS | index. */
#define BYPASS 0x80000000u

/* In the order of the l2.hash and l2.write_fill choices (cfg_choice). */
enum l2_hash { H_CHANNEL, H_LINE, H_XOR };
enum write_fill { WF_NONE, WF_PARTIAL, WF_FULL };

struct rq { struct mem_req **q; uint32_t cap, head, n; };

struct slice {
    struct component comp;
    char name[24];
    struct l2 *l2;
    unsigned id;
    struct mq in, fill;
    struct cache c;
    struct rq down, up;        /* waiting for a DRAM queue / the output port */
    sim_time port_free;
    uint32_t nwait, wb_out;    /* requests parked on MSHRs; write-backs in flight */
    struct mem_req **byp;      /* SM requests passed through uncached, by index */
    uint32_t byp_free;         /* free list through byp[] (as uintptr_t) */
    /* sim.model fast (l2_fast.c): misses in flight, the lookup port's and
     * the output port's counters */
    struct pfills fp;
    struct slots f_in, f_out;
};

/* The remote directory (thesis Sec. 6.2.1) and what the CPU holds. */
struct l2_dir {
    struct rdir *f;            /* the conservative filter */
    uint64_t limit;            /* fingerprints before a flush (high-water mark) */
    uint64_t *held;            /* bit per line of [0, cpu.stream.footprint): the CPU's copies */
    uint64_t held_lines;
    uint64_t *lookups, *hits, *nacks, *inserts, *flushes, *discarded;
};

struct l2 {
    struct dram *dram;
    bool fast;                 /* sim.model fast: SM lines looked up at send (l2_fast.c) */
    struct req_pool *pool;
    unsigned n;
    struct slice *s;
    enum l2_hash hash;
    uint32_t ports, bw, wb_max, up_cap;
    bool remote_cache;         /* l2.remote_cache: host-homed lines allocate */
    enum write_fill write_fill;
    void (*remote)(void *ctx, struct mem_req *r, sim_time now);
    void *remote_ctx;
    void (*mem_hook)(void *ctx, uint64_t pa, unsigned sectors);   /* NULL: none (profiling) */
    void *mem_ctx;
    uint64_t *hits, *misses, *sector_misses, *merges, *writebacks, *mshr_full,
             *dram_reads, *invalidated, *v_hits, *v_misses;
    uint64_t *remote_reads, *remote_passed;   /* NULL until l2_set_remote */
    uint64_t *write_fills;     /* NULL with l2.write_fill none */
    /* selective caching (l2_remote.c) */
    bool selective;            /* gpu.caching.remote other than all */
    bool coalesce;             /* gpu.caching.coalesce l1l2: uncached host loads take MSHRs */
    bool whole_lines;          /* coalescing without link.variable_transfers: 128 B requests */
    struct l2_dir *dir;        /* NULL: no remote directory */
    const struct l2_cpu *cpu;  /* NULL: no CPU requests */
    void *cpu_ctx;
    void (*flush_line)(void *ctx, uint64_t pa);   /* drop a line from every L1D */
    void *flush_ctx;
    uint64_t *cpu_reads;
    uint64_t *coalesced, *line_sectors, *used_sectors;   /* NULL: no L2 coalescing */
};

static inline void rq_push(struct slice *s, struct rq *q, struct mem_req *r)
{
    SIM_ASSERT(q->n < q->cap, s->name, engine_now(s->comp.eng), "queue overflow");
    uint32_t t = q->head + q->n++;
    if (t >= q->cap) t -= q->cap;
    q->q[t] = r;
}
static inline struct mem_req *rq_head(const struct rq *q) { return q->n ? q->q[q->head] : NULL; }
static inline void rq_drop(struct rq *q) { if (++q->head == q->cap) q->head = 0; q->n--; }

/* l2.c: a request of the slice's own to memory (answered into s->fill). */
struct mem_req *l2_own_req(struct slice *s, enum req_kind k, uint64_t addr,
                           uint8_t mask, uint32_t slot, sim_time now);
/* A dirty victim's write-back. */
void l2_writeback(struct slice *s, const struct cache_victim *v, sim_time now);
/* Fetch `mask` of MSHR m's line. */
void l2_fetch(struct slice *s, struct cache_mshr *m, uint8_t mask, sim_time now);

/* l2_fast.c */
void l2_fast_free(struct l2 *l);

/* l2_remote.c.  A request the slice does not cache, or a line the remote
 * directory holds: handled (true), or left queued for want of an MSHR. */
bool l2_uncached(struct slice *s, struct mem_req *r, sim_time now);
/* Whether r is for a line the slice must not cache (asked first): a
 * host-homed line the L2 may not keep, or a GPU-homed line the remote
 * directory says the CPU may hold (looked up only while it holds any). */
static inline bool l2_keeps_out(struct l2 *l, const struct mem_req *r)
{
    if (r->paddr & PADDR_HOST) return !l->remote_cache || (r->xflags & LINE_NOCACHE);
    if (!l->dir || !rdir_count(l->dir->f)) return false;
    *l->dir->lookups += 1;
    return rdir_contains(l->dir->f, r->paddr >> LINE_SHIFT);
}
/* An answer to a request of slice's own in l2_remote.c's slots (BYPASS,
 * CPU_SLOT): handled. */
void l2_remote_filled(struct slice *s, struct mem_req *f, sim_time now);
/* Fill f for MSHR m is in: whether the slice may keep the line (not a
 * cacheless MSHR's, nor one the remote directory took meanwhile). */
bool l2_fill_keeps(struct slice *s, struct cache_mshr *m, const struct mem_req *f);
/* A cacheless MSHR's last answer is in (its statistics). */
void l2_cacheless_done(struct slice *s, const struct cache_mshr *m);
/* Statistics and structures of selective caching (l2_create). */
void l2_remote_create(struct l2 *l, const struct config *cfg, struct stats *st);
void l2_remote_free(struct l2 *l);

#endif

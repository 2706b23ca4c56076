/* A translation test rig: the real TLBs and GMMU on a 1 GHz core domain
 * (1 cycle = 1000 ps, so times read as cycles), a sink standing in for the
 * SMs, and a fixed-latency memory for PTE reads.  Requests are injected at
 * chosen times into an L1 TLB or straight into the walker; the sink logs
 * when each answer arrives. */
#ifndef UVMSIM_TEST_XLATE_RIG_H
#define UVMSIM_TEST_XLATE_RIG_H

#include <check.h>
#include <string.h>
#include "config/config.h"
#include "core/stats.h"
#include "core/mem_req.h"
#include "tlb/tlb.h"
#include "gmmu/gmmu.h"
#include "link/link.h"

#define CYC 1000ULL                 /* ps per core cycle */
#define VA0 0x100000000000ULL       /* 2 MiB (and 1 GiB) aligned */
#define PG(i) (VA0 + (uint64_t)(i) * 4096)
#define RIG_MAX 4096

struct rig_ans { uint64_t vaddr, paddr; sim_time t; uint32_t size; uint8_t xflags; unsigned sm; };

struct rig_sink { struct component c; struct mq q; struct rig *rig; };
struct rig_mem { struct component c; struct mq in; };

struct rig {
    struct config *cfg;
    struct engine *e;
    struct stats *st;
    struct req_pool pool;
    struct domain dom, link_dom;
    struct tlb *tlb;
    struct gmmu *gmmu;
    struct link *link;
    struct rig_sink sink;
    struct rig_mem mem;
    struct mem_req *sent[RIG_MAX];
    struct mq *dest[RIG_MAX];
    unsigned nsent;
    struct rig_ans ans[RIG_MAX];
    unsigned nans;
    sim_time sd_until[64];
    unsigned sd_calls;
};

static inline sim_time rig_sink_tick(struct component *c, sim_time now)
{
    struct rig_sink *s = (struct rig_sink *)c;
    struct mem_req *r;
    while ((r = mq_pop(&s->q, now))) {
        ck_assert_uint_lt(s->rig->nans, RIG_MAX);
        s->rig->ans[s->rig->nans++] = (struct rig_ans){ r->vaddr, r->paddr, now, r->size,
                                                        r->xflags, r->sm };
        req_release(&s->rig->pool, r);
    }
    return TIME_NEVER;
}
static const struct comp_ops rig_sink_ops = { rig_sink_tick, NULL };

/* Memory for PTE reads: answers after its queue latency. */
static inline sim_time rig_mem_tick(struct component *c, sim_time now)
{
    struct rig_mem *m = (struct rig_mem *)c;
    struct mem_req *r;
    while ((r = mq_pop(&m->in, now))) ck_assert(mq_push(r->reply, r, now, NULL));
    return mq_next_ready(&m->in);
}
static const struct comp_ops rig_mem_ops = { rig_mem_tick, NULL };
static inline struct mq *rig_mem_route(void *ctx, uint64_t pa) { (void)pa; return ctx; }

static inline void rig_shootdown_hook(void *ctx, unsigned sm, sim_time until)
{
    struct rig *r = ctx;
    r->sd_until[sm] = until;
    r->sd_calls++;
}

/* `sets`: config overrides; `mem_cycles`: PTE read latency. */
static inline struct rig *rig_new(const char *const *sets, size_t nsets, unsigned nsms,
                           uint64_t mem_cycles)
{
    struct rig *r = calloc(1, sizeof *r);
    struct cfg_error err;
    r->cfg = config_load(NULL, sets, nsets, &err);
    if (!r->cfg) ck_abort_msg("config: %s", err.msg);
    struct engine_limits lim = {0};
    r->e = engine_new(&lim);
    r->st = stats_new();
    req_pool_init(&r->pool);
    r->dom = (struct domain){ "core", CYC, 0 };
    r->link_dom = (struct domain){ "link", 1, 1 };
    r->tlb = tlb_create(r->e, r->cfg, r->st, &r->pool, &r->dom, nsms);
    r->gmmu = gmmu_create(r->e, r->cfg, r->st, &r->dom);
    r->link = link_create(r->e, r->cfg, r->st, &r->link_dom);
    tlb_set_walker(r->tlb, gmmu_walk_in(r->gmmu));
    tlb_set_shootdown_hook(r->tlb, rig_shootdown_hook, r);
    tlb_set_remote_hook(r->tlb, gmmu_note_remote_access, r->gmmu);
    tlb_set_sharer_hook(r->tlb, gmmu_referenced, r->gmmu);
    gmmu_set_stall_hook(r->gmmu, tlb_stall_sm, r->tlb);
    tlb_set_fault_hook(r->tlb, gmmu_utlb_fault, r->gmmu);
    gmmu_set_replay_hook(r->gmmu, tlb_replay, r->tlb);
    gmmu_set_link(r->gmmu, r->link);
    r->sink.rig = r;
    comp_init(&r->sink.c, r->e, &rig_sink_ops, "sink", &r->dom);
    mq_init(&r->sink.q, "sink", 4096, 0, &r->sink.c);
    comp_init(&r->mem.c, r->e, &rig_mem_ops, "mem", &r->dom);
    mq_init(&r->mem.in, "mem", 4096, mem_cycles * CYC, &r->mem.c);
    gmmu_set_memory(r->gmmu, (struct mem_port){ rig_mem_route, &r->mem.in }, &r->pool);
    return r;
}

static inline void rig_free(struct rig *r)
{
    tlb_free(r->tlb);
    gmmu_free(r->gmmu);
    link_free(r->link);
    mq_free(&r->sink.q);
    mq_free(&r->mem.in);
    req_pool_free(&r->pool);
    stats_free(r->st);
    engine_free(r->e);
    config_free(r->cfg);
    free(r);
}

static inline void rig_push(void *obj, uint64_t i, sim_time now)
{
    struct rig *r = obj;
    ck_assert(mq_push(r->dest[i], r->sent[i], now, NULL));
}

static inline void rig_send_to(struct rig *r, struct mq *q, sim_time t, unsigned sm, uint64_t vaddr,
                        enum req_kind access)
{
    ck_assert_uint_lt(r->nsent, RIG_MAX);
    struct mem_req *m = req_alloc(&r->pool);
    memset(m, 0, sizeof *m);
    m->kind = REQ_XLATE;
    m->access = access;
    m->vaddr = vaddr;
    m->sm = (uint16_t)sm;
    m->t_issue = t;
    m->reply = &r->sink.q;
    r->sent[r->nsent] = m;
    r->dest[r->nsent] = q;
    engine_at(r->e, t, &r->dom, rig_push, r, r->nsent++);
}

/* A translation from SM sm into its L1 TLB at time t. */
static inline void rig_send(struct rig *r, sim_time t, unsigned sm, uint64_t vaddr, enum req_kind a)
{ rig_send_to(r, tlb_l1_in(r->tlb, sm), t, sm, vaddr, a); }
/* A walk straight into the walker at time t. */
static inline void rig_walk(struct rig *r, sim_time t, uint64_t vaddr, enum req_kind a)
{ rig_send_to(r, gmmu_walk_in(r->gmmu), t, 0, vaddr, a); }

static inline void rig_run(struct rig *r) { ck_assert_int_eq(engine_run(r->e), RUN_COMPLETED); }

/* The k-th answer (in arrival order) for vaddr. */
static inline const struct rig_ans *rig_ans(const struct rig *r, uint64_t vaddr, unsigned k)
{
    for (unsigned i = 0; i < r->nans; i++)
        if (r->ans[i].vaddr == vaddr && k-- == 0) return &r->ans[i];
    ck_abort_msg("no answer %u for %#llx", k, (unsigned long long)vaddr);
    return NULL;
}

static inline uint64_t rig_counter(const struct rig *r, const char *name)
{
    const struct stat_entry *s = stats_find(r->st, name);
    ck_assert_msg(s && s->kind == STAT_COUNTER, "no counter %s", name);
    return *s->p.u;
}

/* Map 4 KiB page i of the test region at frame 0x1000 + i. */
static inline void rig_map(struct rig *r, unsigned i) { gmmu_map(r->gmmu, PG(i) >> 12, 0x1000 + i, 0); }

#define NSETS(a) (sizeof a / sizeof a[0])

#endif

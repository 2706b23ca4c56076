/* Rodinia b+tree: point and range lookups over a B+ tree flattened into a
 * knode array.  Source: Rodinia 3.1 b+tree/kernel/kernel_gpu_cuda.cu, findK
 * (one block per query key), and kernel_gpu_cuda_2.cu, findRangeK (one block
 * per [start, end] query); threadsPerBlock = order (< 1024), thread thid
 * looks at keys[thid] of the block's current node; HPE (Yu et al. 2020)
 * Table II type VI (B+T, region-moving).  Defaults: Rodinia's run, mil.txt
 * (1,000,000 records), DEFAULT_ORDER 256, command.txt "k 10000" and
 * "j 6000 3000"; findK runs before findRangeK here.  Both kernels share one
 * knode allocation (a managed-memory port of the two cudaMalloc+copies).
 *
 * knode (common.h) with ORDER = order: int location; int indices[ORDER+1];
 * int keys[ORDER+1]; bool is_leaf; int num_keys -> 8*(order+1) + 12 bytes,
 * indices at +4, keys at +4+4*(order+1).  As transform_to_cuda fills it:
 * knodes in breadth-first order from the root (index 0); keys[0] = INT_MIN,
 * keys[1..nk] the node's keys, keys[nk+1..order-1] = INT_MAX (keys[order]
 * is left uninitialised there; taken as INT_MAX); an internal node's
 * indices[t] = knode index of child t, a leaf's indices[t] = record index
 * of keys[t] (records numbered in key order).
 *
 * Tree (built functionally, not by Rodinia's one-by-one insertion): the
 * records' sorted keys are K(r) = 2r + 1 + (mix(seed + r) & 1) (strictly
 * increasing, mean spacing 2, seed = mix(sim.seed)); every node is bulk-
 * loaded to F = max(1, (order-1)*69/100) keys, the mean occupancy of a
 * B-tree built by random insertion (Yao 1978: ln 2), so leaf l holds ranks
 * [lF, lF+F), an internal node has C = F+1 children, and a subtree's first
 * key is its node key in the parent.  Queries: findK key q = mix(seed ^
 * 0x6b7 + i) mod (2*records + 3) (Rodinia: uniform over [0, size]; about
 * half hit); findRangeK start = mix(seed ^ 0x6a7 + i) mod (2*records + 3 -
 * range), end = start + range (range in key units).  Nothing per node is
 * stored: a query's path follows from rank(q) = #keys <= q.
 *
 * findK thread thid, per level (height times): load currKnode[bid],
 * keys[thid], keys_q[bid]; if keys[thid] <= q: load keys[thid+1]; if also
 * q < keys[thid+1] (one thread): load offset[bid], indices[thid] of node
 * offset, store offset[bid]; sync; thid 0: load offset[bid], store
 * currKnode[bid]; sync.  Then load currKnode[bid], keys[thid], keys_q[bid];
 * the thread whose key equals q: load indices[thid], records[that], store
 * ans[bid].  findRangeK does the same walk for start (currKnode/offset) and
 * end (lastKnode/offset_2) in one loop, with indices read from the current
 * node, then the Recstart and Reclen steps.  Each source expression's loads
 * are counted once per statement (common subexpressions kept in registers). */
#include "gen.h"

#define BT_MAXH 40

struct btree {
    struct wl_simple g;
    uint64_t n, order, F, C, height, seed, nodes, nk, nr, range, ksz;
    uint64_t lvl_n[BT_MAXH], lvl_base[BT_MAXH], cpow[BT_MAXH];
    uint64_t knodes, records, cur, off, keys, ans;         /* findK */
    uint64_t rcur, roff, last, off2, start, end, rstart, rlen; /* findRangeK */
};

const struct cfg_key btree_config_keys[] = {
    {"workload.btree.records", CFG_INT, "1000000", 1, 5e8, NULL,
     "records (keys) in the tree (Rodinia mil.txt: 1,000,000)"},
    {"workload.btree.order", CFG_INT, "256", 3, 1024, NULL,
     "tree order = threads per block (Rodinia DEFAULT_ORDER 256)"},
    {"workload.btree.queries", CFG_INT, "10000", 0, 1e7, NULL,
     "findK queries, one block each (command.txt: k 10000; 0: no launch)"},
    {"workload.btree.range_queries", CFG_INT, "6000", 0, 1e7, NULL,
     "findRangeK queries, one block each (command.txt: j 6000 3000; 0: no launch)"},
    {"workload.btree.range", CFG_INT, "3000", 0, 1e9, NULL,
     "findRangeK end - start, in key units (keys are about 2 apart)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t bt_key(const struct btree *m, uint64_t r)
{ return 2 * r + 1 + (wl_mix(m->seed + r) & 1); }

/* Number of keys <= q. */
static uint64_t bt_rank(const struct btree *m, uint64_t q)
{
    if (q == 0) return 0;
    uint64_t r0 = (q - 1) / 2;
    if (r0 >= m->n) return m->n;
    return r0 + (bt_key(m, r0) <= q);
}

/* Leaf a lookup of q ends in (leftmost when q is below every key). */
static uint64_t bt_leaf(const struct btree *m, uint64_t q)
{
    uint64_t r = bt_rank(m, q);
    return r ? (r - 1) / m->F : 0;
}

static uint64_t bt_node(const struct btree *m, uint64_t d, uint64_t leaf)
{ return m->lvl_base[d] + leaf / m->cpow[d]; }

static uint64_t bt_query(const struct btree *m, uint64_t i)
{ return wl_mix((m->seed ^ 0x6b7) + i) % (2 * m->n + 3); }
static uint64_t bt_start(const struct btree *m, uint64_t i)
{ return wl_mix((m->seed ^ 0x6a7) + i) % (2 * m->n + 3 - m->range); }

static uint64_t bt_keys_at(const struct btree *m, uint64_t node, uint64_t t)
{ return m->knodes + node * m->ksz + 4 + 4 * (m->order + 1) + 4 * t; }
static uint64_t bt_idx_at(const struct btree *m, uint64_t node, uint64_t t)
{ return m->knodes + node * m->ksz + 4 + 4 * t; }

/* A node's keys[t] compared with q: -1 below, 0 equal, 1 above.  At level
 * d, node j: keys[t] for 1 <= t < children is the first key of child
 * jC + t (leaves: key of rank lF + t - 1). */
static int bt_cmp(const struct btree *m, uint64_t d, uint64_t j, uint64_t t, uint64_t q)
{
    if (t == 0) return -1;
    uint64_t first, span = m->cpow[d] / m->C * m->F;    /* ranks per child */
    if (d == 0) {
        first = j * m->F + t - 1;
        if (t > m->F || first >= m->n) return 1;
    } else {
        first = (j * m->C + t) * span;
        if (t >= m->C || first >= m->n) return 1;
    }
    uint64_t k = bt_key(m, first);
    return k < q ? -1 : k == q ? 0 : 1;
}

/* One descent (findK's or one half of findRangeK's): level step i of
 * height, positions 0..5 of the caller's group (see the header). */
struct bt_walk { uint64_t node, d, j, sel, child; };

static void bt_walk_at(const struct btree *m, uint64_t q, uint64_t i, struct bt_walk *w)
{
    uint64_t leaf = bt_leaf(m, q);
    w->d = m->height - i;
    w->j = leaf / m->cpow[w->d];
    w->node = m->lvl_base[w->d] + w->j;
    if (w->d > 0) {
        uint64_t c = leaf / m->cpow[w->d - 1];
        w->sel = c - w->j * m->C;
        w->child = bt_node(m, w->d - 1, leaf);
    }
}

/* Per-level group for one walk (6 positions): 0 load ptr (currKnode or
 * lastKnode), 1 keys[thid], 2 the query word, 3 keys[thid+1] if keys[thid]
 * <= q, 4 indices[thid] (findK: after loading offset) if selected, 5 store
 * offset.  findK splits 4 into load offset + load indices. */
static uint64_t bt_npos(const void *impl, const struct warp_ctx *w)
{
    const struct btree *m = impl;
    if (w->k->id == 0) return 11 * m->height + 6;
    return 18 * m->height + 12;
}

static bool bt_ld(struct wl_top *op, uint32_t size, uint64_t addr)
{ op->op = INST_LOAD; op->size = size; op->addr = addr; return true; }
static bool bt_st(struct wl_top *op, uint32_t size, uint64_t addr)
{ op->op = INST_STORE; op->size = size; op->addr = addr; return true; }

/* The search step of one walk at position p (0..5 findRangeK, 0..6 findK)
 * in level step i. */
static bool bt_step(const struct btree *m, bool findk, uint64_t q, uint64_t i,
                    uint64_t thid, uint64_t p, uint64_t ptr, uint64_t qword,
                    uint64_t offw, struct wl_top *op)
{
    struct bt_walk wk = {0, 0, 0, 0, 0};
    bt_walk_at(m, q, i, &wk);
    if (p == 0) return bt_ld(op, 8, ptr);
    if (p == 1) return bt_ld(op, 4, bt_keys_at(m, wk.node, thid));
    if (p == 2) return bt_ld(op, 4, qword);
    if (bt_cmp(m, wk.d, wk.j, thid, q) > 0) return false;
    if (p == 3) return bt_ld(op, 4, bt_keys_at(m, wk.node, thid + 1));
    if (thid != wk.sel) return false;
    if (findk) {
        if (p == 4) return bt_ld(op, 8, offw);
        if (p == 5) return bt_ld(op, 4, bt_idx_at(m, wk.node, thid));
        return bt_st(op, 8, offw);
    }
    if (p == 4) return bt_ld(op, 4, bt_idx_at(m, wk.node, thid));
    return bt_st(op, 8, offw);
}

static bool bt_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct btree *m = impl;
    uint64_t bid = t->bx, thid = t->tid;
    op->compute = 0;
    op->size = 4;
    if (w->k->id == 0) {
        uint64_t q = bt_query(m, bid), i = pos / 11, p = pos % 11;
        if (i < m->height) {
            if (p < 7)
                return bt_step(m, true, q, i, thid, p, m->cur + bid * 8, m->keys + bid * 4,
                               m->off + bid * 8, op);
            if (p == 7 || p == 10) { op->op = INST_BARRIER; return true; }
            if (thid) return false;
            return p == 8 ? bt_ld(op, 8, m->off + bid * 8) : bt_st(op, 8, m->cur + bid * 8);
        }
        p = pos - 11 * m->height;
        uint64_t leaf = bt_leaf(m, q), node = m->lvl_base[0] + leaf;
        if (p == 0) return bt_ld(op, 8, m->cur + bid * 8);
        if (p == 1) return bt_ld(op, 4, bt_keys_at(m, node, thid));
        if (p == 2) return bt_ld(op, 4, m->keys + bid * 4);
        if (bt_cmp(m, 0, leaf, thid, q) != 0) return false;
        uint64_t rec = leaf * m->F + thid - 1;
        if (p == 3) return bt_ld(op, 4, bt_idx_at(m, node, thid));
        if (p == 4) return bt_ld(op, 4, m->records + rec * 4);
        return bt_st(op, 4, m->ans + bid * 4);
    }
    uint64_t s = bt_start(m, bid), e = s + m->range, i = pos / 18, p = pos % 18;
    if (i < m->height) {
        if (p < 6)
            return bt_step(m, false, s, i, thid, p, m->rcur + bid * 8, m->start + bid * 4,
                           m->roff + bid * 8, op);
        if (p < 12)
            return bt_step(m, false, e, i, thid, p - 6, m->last + bid * 8, m->end + bid * 4,
                           m->off2 + bid * 8, op);
        if (p == 12 || p == 17) { op->op = INST_BARRIER; return true; }
        if (thid) return false;
        if (p == 13) return bt_ld(op, 8, m->roff + bid * 8);
        if (p == 14) return bt_st(op, 8, m->rcur + bid * 8);
        if (p == 15) return bt_ld(op, 8, m->off2 + bid * 8);
        return bt_st(op, 8, m->last + bid * 8);
    }
    p = pos - 18 * m->height;
    if (p == 5) { op->op = INST_BARRIER; return true; }
    bool second = p > 5;
    uint64_t q = second ? e : s, leaf = bt_leaf(m, q), node = m->lvl_base[0] + leaf;
    if (second) p -= 6;
    if (p == 0) return bt_ld(op, 8, (second ? m->last : m->rcur) + bid * 8);
    if (p == 1) return bt_ld(op, 4, bt_keys_at(m, node, thid));
    if (p == 2) return bt_ld(op, 4, (second ? m->end : m->start) + bid * 4);
    if (bt_cmp(m, 0, leaf, thid, q) != 0) return false;
    if (p == 3) return bt_ld(op, 4, bt_idx_at(m, node, thid));
    if (!second) return bt_st(op, 4, m->rstart + bid * 4);
    if (p == 4) return bt_ld(op, 4, m->rstart + bid * 4);
    return bt_st(op, 4, m->rlen + bid * 4);
}

static void *bt_create(struct workload *wl, const struct config *cfg)
{
    struct btree *m = xcalloc(1, sizeof *m);
    m->n = cfg_u64(cfg, "workload.btree.records");
    m->order = cfg_u64(cfg, "workload.btree.order");
    m->nk = cfg_u64(cfg, "workload.btree.queries");
    m->nr = cfg_u64(cfg, "workload.btree.range_queries");
    m->range = cfg_u64(cfg, "workload.btree.range");
    if (m->range > 2 * m->n)
        user_error("workload.btree.range (%llu) must be at most 2 x workload.btree.records",
                   (unsigned long long)m->range);
    m->seed = wl_mix(cfg_u64(cfg, "sim.seed"));
    m->F = (m->order - 1) * 69 / 100;
    if (m->F < 1) m->F = 1;
    m->C = m->F + 1;
    m->ksz = 8 * (m->order + 1) + 12;
    /* Levels from the leaves (0) up to the root; cpow[d] leaves per node. */
    uint64_t h = 0;
    m->lvl_n[0] = (m->n + m->F - 1) / m->F;
    m->cpow[0] = 1;
    while (m->lvl_n[h] > 1) {
        SIM_ASSERT(h + 1 < BT_MAXH, "workload", 0, "b+tree deeper than %d levels", BT_MAXH);
        m->lvl_n[h + 1] = (m->lvl_n[h] + m->C - 1) / m->C;
        m->cpow[h + 1] = m->cpow[h] * m->C;
        h++;
    }
    m->height = h;
    for (uint64_t d = h + 1, at = 0; d-- > 0;) { m->lvl_base[d] = at; at += m->lvl_n[d]; }
    for (uint64_t d = 0; d <= h; d++) m->nodes += m->lvl_n[d];
    m->knodes = wl_add_alloc(wl, "knodesD", m->nodes * m->ksz);
    m->records = wl_add_alloc(wl, "recordsD", m->n * 4);
    uint64_t k = m->nk ? m->nk : 1, r = m->nr ? m->nr : 1;
    m->cur = wl_add_alloc(wl, "currKnodeD", k * 8);
    m->off = wl_add_alloc(wl, "offsetD", k * 8);
    m->keys = wl_add_alloc(wl, "keysD", k * 4);
    m->ans = wl_add_alloc(wl, "ansD", k * 4);
    m->rcur = wl_add_alloc(wl, "currKnodeD_2", r * 8);
    m->roff = wl_add_alloc(wl, "offsetD_2", r * 8);
    m->last = wl_add_alloc(wl, "lastKnodeD", r * 8);
    m->off2 = wl_add_alloc(wl, "offset_2D", r * 8);
    m->start = wl_add_alloc(wl, "startD", r * 4);
    m->end = wl_add_alloc(wl, "endD", r * 4);
    m->rstart = wl_add_alloc(wl, "RecstartD", r * 4);
    m->rlen = wl_add_alloc(wl, "ReclenD", r * 4);
    m->g.npos = bt_npos;
    m->g.lane = bt_lane;
    struct dim3 blk = { (uint32_t)m->order, 1, 1 };
    if (m->nk)
        wl_prog_kernel(&m->g.prog, "findK", 0, (struct dim3){ (uint32_t)m->nk, 1, 1 }, blk, 18, 0);
    if (m->nr)
        wl_prog_kernel(&m->g.prog, "findRangeK", 1, (struct dim3){ (uint32_t)m->nr, 1, 1 }, blk,
                       24, 0);
    return m;
}

static const struct workload_ops btree_ops = {
    "btree", bt_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info btree_info = {
    &btree_ops, btree_config_keys,
    "Rodinia 3.1 b+tree kernel_gpu_cuda.cu findK (x1, queries blocks) then "
    "kernel_gpu_cuda_2.cu findRangeK (x1, range_queries blocks), order threads a block, "
    "over a bulk-loaded tree of seeded keys; HPE Table II type VI (B+T).",
    "nodes x (8*(order+1)+12) + 4*records + 24*queries + 48*range_queries bytes, nodes = "
    "sum over levels of ceil(records/F/C^d), F = max(1,(order-1)*69/100), C = F+1; touched: "
    "the keys[0..order] of every node a query visits, indices[] entries followed, records "
    "hit, all per-query words except ansD (hits) and RecstartD/ReclenD (start/end found)",
};

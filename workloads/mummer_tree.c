/* MUMmerGPU's suffix tree (Rodinia 3.1 mummergpu/src/suffix-tree.cpp),
 * built here with Ukkonen's online algorithm (Ukkonen 1995, in the
 * active-point form), then given the source's edge labels and node ids.
 *
 * Edge labels.  A suffix tree's nodes, edges and suffix links are unique;
 * only the occurrence an internal edge's label points at is a choice.
 * suffix-tree.cpp's buildUkkonen creates leaf j (the suffix S[j..N]) with
 * the label S[j + depth(parent)..N], leaves in increasing j, and a split
 * keeps the older edge's start for the upper half; so every edge's label
 * belongs to the first leaf created below it: start = minleaf + depth of
 * the parent (string depths), end = start + length - 1.  That is computed
 * here from the finished tree, whatever this construction's own labels.
 *
 * Node ids (renumberTree, RENUMBER_TREE 1): breadth first from the root
 * (id 1, children in A, C, G, T, $ order) while the queue depth (edges
 * from the root) is below 16; a node popped at depth d >= 16 takes its id,
 * then its descendants at d+1..d+4 take theirs depth first (pre-order, the
 * source's four nested loops), and those at d+5 join the queue. */
#include <stdlib.h>
#include <string.h>
#include "mummer.h"
#include "core/base.h"

#define ROOT 1u
#define LEAF UINT32_MAX
#define DEEP 16

static unsigned code(uint8_t c)
{
    switch (c) {
    case 'A': return 0;
    case 'C': return 1;
    case 'G': return 2;
    case 'T': return 3;
    case '$': return 4;
    default: sim_panic("workload", 0, "mummergpu: text character %#x", c);
    }
}

uint64_t mum_tree_host_bytes(uint32_t N)
{
    /* at most 2N + 1 nodes: the build's 32 bytes a slot, with at most 20
     * more (the relabelling's traversal) or 32 (new ids and numbering
     * queue, or new ids and the 28-byte result) */
    return (2ULL * N + 2) * (32 + 32);
}

struct build {
    const uint8_t *S;
    uint32_t N, n;              /* text length, nodes so far (cids 1..n) */
    uint32_t *ch, *st, *en, *lk;
};

static uint32_t new_node(struct build *b, uint32_t s, uint32_t e)
{
    uint32_t v = ++b->n;
    b->st[v] = s;
    b->en[v] = e;
    return v;
}

/* Ukkonen's phases i = 1..N with the active point (node, edge, length). */
static void ukkonen(struct build *b)
{
    const uint8_t *S = b->S;
    uint32_t an = ROOT, ae = 0, al = 0, rem = 0;
    b->n = ROOT;
    for (uint32_t i = 1; i <= b->N; i++) {
        uint32_t last = 0;      /* internal node of this phase awaiting its link */
        rem++;
        while (rem) {
            if (!al) ae = i;
            unsigned c = code(S[ae]);
            uint32_t nx = b->ch[5 * an + c];
            if (!nx) {
                b->ch[5 * an + c] = new_node(b, i, LEAF);
                if (last) { b->lk[last] = an; last = 0; }
            } else {
                uint32_t end = b->en[nx] == LEAF ? i : b->en[nx];
                uint32_t len = end - b->st[nx] + 1;
                if (al >= len) {            /* skip/count down the edge */
                    ae += len;
                    al -= len;
                    an = nx;
                    continue;
                }
                if (S[b->st[nx] + al] == S[i]) {
                    /* already there (rule 3): the pending node's label less
                     * its first character ends exactly at node an */
                    if (last) b->lk[last] = an;
                    al++;
                    break;
                }
                uint32_t sp = new_node(b, b->st[nx], b->st[nx] + al - 1);
                b->ch[5 * an + c] = sp;
                b->ch[5 * sp + code(S[i])] = new_node(b, i, LEAF);
                b->st[nx] += al;
                b->ch[5 * sp + code(S[b->st[nx]])] = nx;
                if (last) b->lk[last] = sp;
                last = sp;
            }
            rem--;
            if (an == ROOT && al) {
                al--;
                ae = i - rem + 1;
            } else if (an != ROOT) {
                an = b->lk[an] ? b->lk[an] : ROOT;
            }
        }
    }
    SIM_ASSERT(rem == 0, "workload", 0, "mummergpu: %u suffixes left implicit", rem);
}

static uint32_t edge_len(const struct build *b, uint32_t v)
{
    return (b->en[v] == LEAF ? b->N : b->en[v]) - b->st[v] + 1;
}

/* The source's labels: start = minleaf + depth(parent), in st/en. */
static void relabel(struct build *b)
{
    uint32_t n = b->n;
    uint32_t *order = xmalloc((n + 1) * sizeof *order);
    uint32_t *par = xcalloc(n + 1, sizeof *par);
    uint32_t *depth = xcalloc(n + 1, sizeof *depth);
    uint32_t *minleaf = xmalloc((n + 1) * sizeof *minleaf);
    uint32_t k = 0, top = 1;
    uint32_t *stack = xmalloc((n + 1) * sizeof *stack);
    stack[0] = ROOT;
    while (top) {
        uint32_t v = stack[--top];
        order[k++] = v;
        for (int c = 4; c >= 0; c--) {
            uint32_t w = b->ch[5 * v + (unsigned)c];
            if (!w) continue;
            par[w] = v;
            depth[w] = depth[v] + edge_len(b, w);
            stack[top++] = w;
        }
    }
    free(stack);
    SIM_ASSERT(k == n, "workload", 0, "mummergpu: %u of %u nodes reachable", k, n);
    for (uint32_t v = 1; v <= n; v++)
        minleaf[v] = b->en[v] == LEAF ? b->N - depth[v] + 1 : UINT32_MAX;
    for (uint32_t i = n; i-- > 1;) {        /* children before parents */
        uint32_t v = order[i];
        if (minleaf[v] < minleaf[par[v]]) minleaf[par[v]] = minleaf[v];
    }
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = order[i], len = edge_len(b, v);
        uint32_t s = minleaf[v] + depth[par[v]];
        SIM_ASSERT(b->en[v] != LEAF || s == b->st[v], "workload", 0,
                   "mummergpu: leaf label at %u, not %u", b->st[v], s);
        b->st[v] = s;
        b->en[v] = s + len - 1;
    }
    b->st[ROOT] = b->en[ROOT] = 0;
    free(order);
    free(par);
    free(depth);
    free(minleaf);
}

/* renumberTree: new id of every construction node in IDS. */
static void renumber(const struct build *b, uint32_t *ids)
{
    uint32_t n = b->n, head = 0, tail = 0, next = 0;
    uint32_t *qv = xmalloc((n + 1) * sizeof *qv), *qd = xmalloc((n + 1) * sizeof *qd);
    qv[tail] = ROOT;
    qd[tail++] = 0;
#define KIDS(v, w) for (unsigned c_##w = 0; c_##w < 5; c_##w++) \
        if (((w) = b->ch[5 * (v) + c_##w]) != 0)
    while (head < tail) {
        uint32_t v = qv[head], d = qd[head++], c1, c2, c3, c4, c5;
        ids[v] = ++next;
        if (d < DEEP) {
            KIDS(v, c1) { qv[tail] = c1; qd[tail++] = d + 1; }
            continue;
        }
        KIDS(v, c1) {
            ids[c1] = ++next;
            KIDS(c1, c2) {
                ids[c2] = ++next;
                KIDS(c2, c3) {
                    ids[c3] = ++next;
                    KIDS(c3, c4) {
                        ids[c4] = ++next;
                        KIDS(c4, c5) { qv[tail] = c5; qd[tail++] = d + 5; }
                    }
                }
            }
        }
    }
#undef KIDS
    SIM_ASSERT(next == n, "workload", 0, "mummergpu: renumbered %u of %u nodes", next, n);
    free(qv);
    free(qd);
}

void mum_tree_build(struct mum_tree *t, const uint8_t *S, uint32_t N)
{
    struct build b = { .S = S, .N = N };
    uint64_t slots = 2ULL * N + 2;
    b.ch = xcalloc(slots * 5, sizeof *b.ch);
    b.st = xcalloc(slots, sizeof *b.st);
    b.en = xcalloc(slots, sizeof *b.en);
    b.lk = xcalloc(slots, sizeof *b.lk);
    ukkonen(&b);
    b.lk[ROOT] = ROOT;
    relabel(&b);
    uint32_t *ids = xcalloc(b.n + 1, sizeof *ids);
    renumber(&b, ids);
    memset(t, 0, sizeof *t);
    t->nodes = b.n;
    t->N = N;
    t->kid = xcalloc(4 * (b.n + 1ULL), sizeof *t->kid);
    t->st = xcalloc(b.n + 1, sizeof *t->st);
    t->en = xcalloc(b.n + 1, sizeof *t->en);
    t->sl = xcalloc(b.n + 1, sizeof *t->sl);
    for (uint32_t v = 1; v <= b.n; v++) {
        uint32_t id = ids[v];
        bool leaf = true;
        for (unsigned c = 0; c < 5; c++) {
            uint32_t w = b.ch[5 * v + c];
            if (!w) continue;
            leaf = false;
            if (c < 4) t->kid[4 * id + c] = ids[w];
        }
        t->st[id] = b.st[v];
        t->en[id] = b.en[v];
        if (!leaf) {
            SIM_ASSERT(b.lk[v], "workload", 0, "mummergpu: internal node without a suffix link");
            t->sl[id] = ids[b.lk[v]];
        }
    }
    free(ids);
    free(b.ch);
    free(b.st);
    free(b.en);
    free(b.lk);
}

void mum_tree_free(struct mum_tree *t)
{
    free(t->kid);
    free(t->st);
    free(t->en);
    free(t->sl);
    memset(t, 0, sizeof *t);
}

/* mummergpu (Rodinia 3.1 MUMmerGPU, mummergpuKernel, default build): hand-
 * derived trees, node ids and per-thread access lists on tiny FASTA inputs;
 * every thread of seeded inputs against a transcription of the kernel over
 * a suffix tree built here independently (suffixes inserted one by one,
 * suffix links found by walking from the root, renumberTree restated
 * recursively); the footprint formula; determinism; user errors. */
#include <check.h>
#include "suite_main.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "wl_threads.h"

/* Allocations, in mummergpu.cu's order. */
enum { M_REF, M_NODE, M_CHILD, M_QRY, M_ADDR, M_LEN, M_COORD };
#define TEX (4096ull * 32 * 16)         /* one 32-row band of 16-byte texels */
#define ROW 65536ull                    /* one 4096-texel row */

static char tmpdir[256];
static void setup(void)
{
    const char *b = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/uvmsim-mum-XXXXXX", b && b[0] ? b : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}
static void teardown(void)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    ck_assert_int_eq(system(cmd), 0);
}
static const char *put_file(const char *name, const char *text)
{
    static char paths[4][400];
    static int k;
    char *p = paths[k++ % 4];
    snprintf(p, sizeof paths[0], "%s/%s", tmpdir, name);
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return p;
}

static uint64_t stream_hash(const char *const *sets, size_t n)
{
    struct wlh h = wlh_open(sets, n);
    uint64_t x = wlh_run_all(h.wl).hash;
    wlh_close(&h);
    return x;
}

/* ---- reference "ACACG", queries ACAT, A (dropped: shorter than -l 2),
 * acta; min_match 2.
 *
 * S = s A C A C G $ (positions 0..6, N = 6).  Suffixes ACACG$, CACG$,
 * ACG$, CG$, G$, $.  Tree (edge labels S[start..end], a label taken from
 * the first suffix inserted below it):
 *   root -A-> u1 "AC" [1..2] -A-> leaf 1 "ACG$" [3..6]
 *                           -G-> leaf 3 "G$"   [5..6]
 *        -C-> u2 "C"  [2..2] -A-> leaf 2 "ACG$" [3..6]
 *                           -G-> leaf 4 "G$"   [5..6]
 *        -G-> leaf 5 "G$" [5..6]
 *        -$-> leaf 6 "$"  [6..6]
 * suffix links u1 -> u2 -> root.  renumberTree, breadth first: root 1,
 * u1 2, u2 3, leaf 5 4, leaf 6 5, leaf 1 6, leaf 3 7, leaf 2 8, leaf 4 9.
 * 9 nodes + NULL: one 32-row band; id i < 32 sits at texel (0, i): byte
 * i * 65536 of either texture.
 *
 * Queries: 'q' A C A T '\0' at 0; "A" is dropped with its 'q'; "acta" is
 * upper-cased: 'q' A C T A '\0' at 6.  texlen 12.  Match coordinates:
 * query 0 at 0 - 0*3, query 1 at 6 - 1*3 = 3; 3 starts each: 6 x 8 bytes.
 * Reference allocation: n + 4101 = 4106 bytes. */
static const char *tiny_sets(char *rs, char *qs, size_t n)
{
    snprintf(rs, n, "workload.mummergpu.ref_file=%s", put_file("r.fa", ">ref\nACACG\n"));
    snprintf(qs, n, "workload.mummergpu.query_file=%s",
             put_file("q.fa", ">r1 first\nACAT\n>r2\nA\n>r3\nac\nta\n"));
    return rs;
}

START_TEST(tiny_tree_by_hand)
{
    char rs[512], qs[512];
    tiny_sets(rs, qs, sizeof rs);
    const char *sets[] = { "workload.kind=mummergpu", "workload.mummergpu.min_match=2", rs, qs };
    struct wlh h = wlh_open(sets, NSETS(sets));
    ck_assert_uint_eq(h.wl->nallocs, 7);
    static const char *names[] = { "d_ref_array", "d_node_tex_array", "d_children_tex_array",
        "d_tex_array", "d_addrs_tex_array", "d_lengths_array", "d_match_coords" };
    static const uint64_t sizes[] = { 4106, TEX, TEX, 12, 8, 8, 48 };
    for (int i = 0; i < 7; i++) {
        ck_assert_str_eq(h.wl->allocs[i].name, names[i]);
        ck_assert_uint_eq(h.wl->allocs[i].size, sizes[i]);
    }
    ck_assert_uint_eq(h.wl->footprint, 4106 + 2 * TEX + 12 + 8 + 8 + 48);
    /* program: six copies in, the kernel <<<1, 2>>>, the coordinates out */
    struct wl_step st;
    for (uint32_t i = 0; i < 6; i++) {
        ck_assert(wl_next_step(h.wl, &st));
        ck_assert_int_eq(st.kind, WL_STEP_MEMCPY);
        ck_assert_uint_eq(st.host.alloc, i);
        ck_assert_uint_eq(st.host.bytes, sizes[i]);
        ck_assert_int_eq(st.host.dir, WL_TO_GPU);
    }
    ck_assert(wl_next_step(h.wl, &st));
    ck_assert_int_eq(st.kind, WL_STEP_KERNEL);
    ck_assert_str_eq(st.kernel.name, "mummergpuKernel");
    ck_assert_uint_eq(st.kernel.grid.x, 1);
    ck_assert_uint_eq(st.kernel.block.x, 2);
    ck_assert_uint_eq(st.kernel.regs_per_thread, 15);
    ck_assert(wl_next_step(h.wl, &st));
    ck_assert_int_eq(st.kind, WL_STEP_MEMCPY);
    ck_assert_uint_eq(st.host.alloc, M_COORD);
    ck_assert_int_eq(st.host.dir, WL_TO_HOST);
    ck_assert_uint_eq(st.host.bytes, 48);
    ck_assert(!wl_next_step(h.wl, &st));
    wlh_close(&h);

    /* Thread 0, "ACAT" (qryAddr 0; starts 0..4-2):
     * start 0: root, qml 1: q[1] 'A'; children(root); -> u1 (2): node(2)
     *   [1..2], qml 2, refpos 2; q[2] 'C'; ref[2] 'C' = 'C': qml 3, refpos
     *   3; q[3] 'A'; edge done.  children(u1); -> leaf 1 (6): node(6)
     *   [3..6], qml 4, refpos 4; q[4] 'T'; ref[4] 'C' != 'T': record: qml
     *   4 > 2: store coord[0]; mustmatch 4 - 3 = 1, qml 4 - 2 = 2;
     *   node(prev u1 = 2); cur = u2 (3).
     * start 1: q[1+2] 'A'; children(u2); -> leaf 2 (8): node(8) [3..6];
     *   mustmatch 1: refpos 4, qml 3, mustmatch 0; q[1+3] 'T'; ref[4] 'C'
     *   != 'T': qml 3 > 2: store coord[1]; mustmatch 1, qml 1; node(u2 =
     *   3); cur = root.
     * start 2: qml 1, no reset: q[2+1] 'A'; children(root); -> u1:
     *   node(2); mustmatch 1: refpos 2, qml 2; q[2+2] 'T'; ref[2] 'C' !=
     *   'T': qml 2 is not > 2, no store; mustmatch 1, qml 0; node(root). */
    struct wlh_seq w = wlt_list((const uint64_t[]){
        L(M_LEN, 0), L(M_ADDR, 0),
        L(M_QRY, 1), L(M_CHILD, ROW), L(M_NODE, 2 * ROW), L(M_QRY, 2), L(M_REF, 2),
        L(M_QRY, 3), L(M_CHILD, 2 * ROW), L(M_NODE, 6 * ROW), L(M_QRY, 4), L(M_REF, 4),
        S(M_COORD, 0), L(M_NODE, 2 * ROW),
        L(M_QRY, 3), L(M_CHILD, 3 * ROW), L(M_NODE, 8 * ROW), L(M_QRY, 4), L(M_REF, 4),
        S(M_COORD, 8), L(M_NODE, 3 * ROW),
        L(M_QRY, 3), L(M_CHILD, ROW), L(M_NODE, 2 * ROW), L(M_QRY, 4), L(M_REF, 2),
        L(M_NODE, ROW) }, 27);
    check_thread(sets, NSETS(sets), 0, 0, 0, &w, "ACAT");
    /* Thread 1, "ACTA" (qryAddr 6, coordinates from 3):
     * start 0: q[7] 'A'; children(root); -> u1: node(2), qml 2, refpos 2;
     *   q[8] 'C'; ref[2] 'C': qml 3; q[9] 'T'; edge done.  children(u1):
     *   no T child: qml 3 > 2: store coord[3] (prev u1, edge 0); qml 2,
     *   mustmatch 0; node(u1); cur = u2.
     * start 1: q[6+1+2] 'T'; children(u2): no T child, qml 2 not > 2;
     *   qml 1; node(u2); cur = root.
     * start 2: q[6+2+1] 'T'; children(root): no T child; qml 0;
     *   node(root). */
    w = wlt_list((const uint64_t[]){
        L(M_LEN, 4), L(M_ADDR, 4),
        L(M_QRY, 7), L(M_CHILD, ROW), L(M_NODE, 2 * ROW), L(M_QRY, 8), L(M_REF, 2),
        L(M_QRY, 9), L(M_CHILD, 2 * ROW), S(M_COORD, 24), L(M_NODE, 2 * ROW),
        L(M_QRY, 9), L(M_CHILD, 3 * ROW), L(M_NODE, 3 * ROW),
        L(M_QRY, 9), L(M_CHILD, ROW), L(M_NODE, ROW) }, 17);
    check_thread(sets, NSETS(sets), 0, 0, 1, &w, "ACTA");
    /* texture_layout=gpgpusim: texel (0, y) at ((y >> 1) * 1024 << 6) + (y &
     * 1) * 64: root (y 1) 64, u1 (y 2) 65536, u2 (y 3) 65600 */
    const char *gsets[] = { "workload.kind=mummergpu", "workload.mummergpu.min_match=2", rs, qs,
                            "workload.mummergpu.texture_layout=gpgpusim" };
    w = wlt_list((const uint64_t[]){
        L(M_LEN, 4), L(M_ADDR, 4),
        L(M_QRY, 7), L(M_CHILD, 64), L(M_NODE, 65536), L(M_QRY, 8), L(M_REF, 2),
        L(M_QRY, 9), L(M_CHILD, 65536), S(M_COORD, 24), L(M_NODE, 65536),
        L(M_QRY, 9), L(M_CHILD, 65600), L(M_NODE, 65600),
        L(M_QRY, 9), L(M_CHILD, 64), L(M_NODE, 64) }, 17);
    check_thread(gsets, NSETS(gsets), 0, 0, 1, &w, "ACTA, GPGPU-Sim texels");
    /* Pages: ref 1; node texture rows 1, 2, 3, 6, 8 (a row is 16 pages):
     * 5; children rows 1, 2, 3: 3; queries, addresses, lengths and
     * coordinates 1 each. */
    h = open_check(sets, NSETS(sets), 1 + 5 + 3 + 4, 1);
    wlh_close(&h);
}
END_TEST

/* ---- reference A^40: the tree is a chain a_d = "A"^d (d = 1..39), each
 * with its $-leaf (suffix A^d$); a_d's edge is S[d..d] (first suffix
 * below: 1; parent depth d - 1).  renumberTree: breadth first while the
 * queue depth is below 16: a_d = 2d, its parent's $-leaf 2d + 1 (d <= 15;
 * root 1, leaf "$" 3).  a_16 is popped at depth 16: 32; then depth first
 * four generations: a_17 33, a_18 34, a_19 35, a_20 36, leaves A^19$ 37,
 * A^18$ 38, A^17$ 39, A^16$ 40, and a_21 with leaf A^20$ queued at depth
 * 21; next leaf A^15$ 41, then a_21 42 and its four generations: a_22 43.
 * Texels: id < 32 at byte id * 65536; 32 <= id < 64 at x = 1, y = id - 32:
 * byte (id - 32) * 65536 + 16.
 *
 * Query A^22, min_match 20: starts 0..2.
 * start 0: walk a_1 .. a_22, each edge one character: children(a_{d-1}),
 *   node(a_d), q[d + 1] for d = 1..22 (refpos = start + 1 passes the end:
 *   no reference read); q[23] is '\0': record at a_22: refpos - start =
 *   1, qml 23 > 20: store coord[0]; mustmatch 1, qml 21; node(a_21); cur
 *   = a_20.
 * start 1: q[1+21] 'A'; children(a_20) -> a_21: node(a_21); mustmatch 1
 *   skips it: qml 22; q[23] '\0': store coord[1]; qml 20; node(a_20);
 *   cur = a_19.
 * start 2: q[2+20] 'A'; children(a_19) -> a_20: node(a_20); qml 21;
 *   q[23]: store coord[2]; node(a_19). */
static uint64_t chain_tex(int d)
{
    static const int id[] = { 1, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32,
                              33, 34, 35, 36, 42, 43 };
    return id[d] < 32 ? (uint64_t)id[d] * ROW : (uint64_t)(id[d] - 32) * ROW + 16;
}

START_TEST(deep_renumbering_by_hand)
{
    char rs[512], qs[512], ref[64] = ">chain\n", qry[64] = ">q\n";
    for (int i = 0; i < 40; i++) strcat(ref, "A");
    for (int i = 0; i < 22; i++) strcat(qry, "A");
    snprintf(rs, sizeof rs, "workload.mummergpu.ref_file=%s", put_file("a.fa", ref));
    snprintf(qs, sizeof qs, "workload.mummergpu.query_file=%s", put_file("aq.fa", qry));
    const char *sets[] = { "workload.kind=mummergpu", rs, qs };
    struct wlh_seq w = {0};
    wlh_push(&w, L(M_LEN, 0));
    wlh_push(&w, L(M_ADDR, 0));
    wlh_push(&w, L(M_QRY, 1));
    for (int d = 1; d <= 22; d++) {
        wlh_push(&w, L(M_CHILD, chain_tex(d - 1)));
        wlh_push(&w, L(M_NODE, chain_tex(d)));
        wlh_push(&w, L(M_QRY, d + 1));
    }
    wlh_push(&w, S(M_COORD, 0));
    wlh_push(&w, L(M_NODE, chain_tex(21)));
    for (int s = 1; s <= 2; s++) {
        int top = 21 - s;       /* cur after the link: a_20, then a_19 */
        wlh_push(&w, L(M_QRY, 22));
        wlh_push(&w, L(M_CHILD, chain_tex(top)));
        wlh_push(&w, L(M_NODE, chain_tex(top + 1)));
        wlh_push(&w, L(M_QRY, 23));
        wlh_push(&w, S(M_COORD, 8 * (uint64_t)s));
        wlh_push(&w, L(M_NODE, chain_tex(top)));
    }
    check_thread(sets, NSETS(sets), 0, 0, 0, &w, "A^22 on A^40");
    /* 39 chain nodes, 41 leaves, the root: 81 nodes, one band */
    struct wlh h = wlh_open(sets, NSETS(sets));
    ck_assert_uint_eq(h.wl->allocs[M_NODE].size, TEX);
    ck_assert_uint_eq(h.wl->allocs[M_REF].size, 40 + 4101);
    ck_assert_uint_eq(h.wl->allocs[M_COORD].size, 3 * 8);
    wlh_close(&h);
}
END_TEST

/* ---- the independent model: input recipe, tree, ids, kernel ---- */

static uint64_t sm64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

struct tn { uint32_t ch[5], st, len, depth, sl, id; };
static struct tn *T;
static uint32_t nt, N, mml, nq, *qa, *ql, *byid;
static char *S, *Q;

static int code(char c) { return c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : 4; }

static uint32_t node_new(uint32_t st, uint32_t len)
{
    T[++nt] = (struct tn){ .st = st, .len = len };
    return nt;
}

/* Suffixes S[j..N] inserted in order j = 1..N: an edge keeps the start it
 * had when its first suffix created it; a split's upper half keeps it. */
static void tree_insert_all(void)
{
    T = calloc(2 * (size_t)N + 2, sizeof *T);
    nt = 0;
    node_new(0, 0);                             /* root = 1 */
    for (uint32_t j = 1; j <= N; j++) {
        uint32_t v = 1, pos = j;
        for (;;) {
            int c = code(S[pos]);
            uint32_t w = T[v].ch[c];
            if (!w) { T[v].ch[c] = node_new(pos, N - pos + 1); break; }
            uint32_t k = 0;
            while (k < T[w].len && S[T[w].st + k] == S[pos + k]) k++;
            if (k == T[w].len) { v = w; pos += k; continue; }
            uint32_t m = node_new(T[w].st, k);
            T[w].st += k;
            T[w].len -= k;
            T[m].ch[code(S[T[w].st])] = w;
            T[m].ch[code(S[pos + k])] = node_new(pos + k, N - pos - k + 1);
            T[v].ch[c] = m;
            break;
        }
    }
}

static void depths(uint32_t v, uint32_t d)
{
    T[v].depth = d + T[v].len;
    for (int c = 0; c < 5; c++) if (T[v].ch[c]) depths(T[v].ch[c], T[v].depth);
}

static bool is_leaf(uint32_t v)
{
    for (int c = 0; c < 5; c++) if (T[v].ch[c]) return false;
    return true;
}

/* The node spelling label(v) minus its first character, walked from the
 * root (it always ends on a node in a suffix tree). */
static void links(void)
{
    T[1].sl = 1;
    for (uint32_t v = 2; v <= nt; v++) {
        if (is_leaf(v)) continue;
        /* label(v) = S[p .. p + depth - 1] with p = start - parent depth */
        uint32_t p = T[v].st + T[v].len - T[v].depth, u = 1, left = T[v].depth - 1, at = p + 1;
        while (left) {
            u = T[u].ch[code(S[at])];
            ck_assert_uint_le(T[u].len, left);
            at += T[u].len;
            left -= T[u].len;
        }
        T[v].sl = u;
    }
}

/* renumberTree: breadth first while the popped node's depth is below 16;
 * below, gen() numbers four generations depth first and queues the fifth. */
static uint32_t *qv, *qd, qh, qt, cnt;
static void gen(uint32_t u, int g, uint32_t d)
{
    for (int c = 0; c < 5; c++) {
        uint32_t w = T[u].ch[c];
        if (!w) continue;
        if (g < 5) { T[w].id = ++cnt; gen(w, g + 1, d); }
        else { qv[qt] = w; qd[qt++] = d + 5; }
    }
}
static void renumber(void)
{
    qv = malloc((nt + 1) * sizeof *qv);
    qd = malloc((nt + 1) * sizeof *qd);
    qh = qt = cnt = 0;
    qv[qt] = 1; qd[qt++] = 0;
    while (qh < qt) {
        uint32_t v = qv[qh], d = qd[qh++];
        T[v].id = ++cnt;
        if (d >= 16) { gen(v, 1, d); continue; }
        for (int c = 0; c < 5; c++)
            if (T[v].ch[c]) { qv[qt] = T[v].ch[c]; qd[qt++] = d + 1; }
    }
    ck_assert_uint_eq(cnt, nt);
    free(qv); free(qd);
    byid = calloc(nt + 1, sizeof *byid);
    for (uint32_t v = 1; v <= nt; v++) byid[T[v].id] = v;
}

static void model_free(void)
{
    free(T); free(S); free(Q); free(qa); free(ql); free(byid);
    T = NULL; S = Q = NULL; qa = ql = byid = NULL;
}

static void model_build(void)
{
    tree_insert_all();
    depths(1, 0);
    links();
    renumber();
}

/* The recipe of workloads/mummer_input.c, restated. */
static void model_generated(uint64_t simseed, uint32_t n, uint32_t q, uint32_t len, double mis,
                            uint32_t l)
{
    uint64_t seed = sm64(simseed ^ 0x6d756d6d6572ULL);
    N = n + 1; mml = l; nq = q;
    S = malloc(N + 1);
    S[0] = 's';
    for (uint32_t i = 1; i <= n; i++) S[i] = "ACGT"[sm64(seed + i) >> 62];
    S[N] = '$';
    Q = malloc((size_t)q * (len + 2));
    qa = malloc(q * sizeof *qa);
    ql = malloc(q * sizeof *ql);
    for (uint32_t k = 0; k < q; k++) {
        uint64_t s = sm64(sm64(seed ^ 1) + k) % (n - len + 1);
        qa[k] = k * (len + 2);
        ql[k] = len;
        char *x = Q + qa[k];
        x[0] = 'q';
        for (uint32_t j = 1; j <= len; j++) {
            double u = (double)(sm64(sm64(seed ^ 2) + (uint64_t)k * len + j) >> 11) * 0x1p-53;
            char b = S[s + j];
            x[j] = u < mis ? (b == 'A' ? 'C' : b == 'C' ? 'G' : b == 'G' ? 'T' : 'A') : b;
        }
        x[len + 1] = 0;
    }
    model_build();
}

static bool gpgpusim;
static uint64_t texel(uint32_t id)
{
    uint64_t bigx = id & 0x1FFFF, bigy = id >> 17, x = bigx >> 5, y = 32 * bigy + (bigx & 31);
    if (!gpgpusim) return (y * 4096 + x) * 16;
    /* tex_impl: 4 x 2 tiles, ((y/Ty) * width/Tx + x/Tx) << 6, + the offset in the tile */
    return ((y / 2 * 1024 + x / 4) << 6) + x % 4 * 16 + y % 2 * 64;
}

static uint32_t kid(uint32_t id, char c)
{
    int k = c == 'A' ? 0 : c == 'C' ? 1 : c == 'G' ? 2 : c == 'T' ? 3 : -1;
    if (k < 0) return 0;
    uint32_t w = T[byid[id]].ch[k];
    return w ? T[w].id : 0;
}

/* mummergpuKernel, thread qryid, as the CUDA source reads (goto and all). */
static void kernel_ref(struct wlh_seq *s, uint64_t b, uint32_t t)
{
    uint32_t qryid = (uint32_t)b * 256 + t;
    if (qryid >= nq) return;
    wlh_push(s, L(M_LEN, qryid * 4));
    wlh_push(s, L(M_ADDR, qryid * 4));
    int qlen = (int)ql[qryid], qryAddr = (int)qa[qryid];
    const char *queries = Q + qryAddr;
    uint32_t cur = 0, prev = 0;
    int mustmatch = 0, qry_match_len = 0;
    uint64_t result = (uint64_t)qryAddr - (uint64_t)qryid * (mml + 1);
#define GETQ(pos) (wlh_push(s, L(M_QRY, (uint64_t)qryAddr + (pos))), queries[pos])
#define SET_RESULT() do { if (qry_match_len > (int)mml) wlh_push(s, S(M_COORD, result * 8)); } while (0)
    for (int qrystart = 0; qrystart <= qlen - (int)mml; qrystart++, result++) {
        int node_start = 0, refpos = 0;
        if (cur == 0 || qry_match_len < 1) { cur = 1; qry_match_len = 1; mustmatch = 0; }
        char c = GETQ(qrystart + qry_match_len);
        while (c != '\0') {
            wlh_push(s, L(M_CHILD, texel(cur)));
            prev = cur;
            cur = kid(cur, c);
            if (cur == 0) {
                SET_RESULT();
                qry_match_len -= 1;
                mustmatch = 0;
                goto NEXT_SUBSTRING;
            }
            wlh_push(s, L(M_NODE, texel(cur)));
            const struct tn *nd = &T[byid[cur]];
            node_start = (int)nd->st;
            int node_end = (int)(nd->st + nd->len - 1);
            int edgelen = node_end - node_start + 1;
            if (mustmatch) {
                refpos = node_start + mustmatch < node_end + 1 ? node_start + mustmatch : node_end + 1;
                qry_match_len += edgelen < mustmatch ? edgelen : mustmatch;
                mustmatch = mustmatch - edgelen > 0 ? mustmatch - edgelen : 0;
            } else {
                qry_match_len++;
                refpos = node_start + 1;
            }
            c = GETQ(qrystart + qry_match_len);
            while (refpos <= node_end && c != '\0') {
                wlh_push(s, L(M_REF, (uint64_t)refpos));
                if (S[refpos] != c) goto RECORD_RESULT;
                qry_match_len++;
                refpos++;
                c = GETQ(qrystart + qry_match_len);
            }
        }
RECORD_RESULT:
        SET_RESULT();
        mustmatch = refpos - node_start;
        qry_match_len -= mustmatch + 1;
NEXT_SUBSTRING:
        wlh_push(s, L(M_NODE, texel(prev)));
        cur = T[byid[prev]].sl ? T[T[byid[prev]].sl].id : 0;
    }
#undef GETQ
#undef SET_RESULT
}

/* Footprint of the model's input (the catalog's formula). */
static uint64_t model_footprint(void)
{
    uint64_t coords = 0, tex = ((nt + 1 + 131071ull) / 131072) * TEX;
    for (uint32_t k = 0; k < nq; k++) coords += ql[k] - mml + 1;
    uint64_t qbytes = qa[nq - 1] + ql[nq - 1] + 2ull;
    return (N - 1) + 4101ull + 2 * tex + qbytes + 8ull * nq + 8 * coords;
}

START_TEST(seeded_every_thread)
{
    /* 3000 bases, 300 reads of 40 with 5% mismatches, -l 12: starts
     * follow suffix links with and without mustmatch, edges mismatch, and
     * reads end inside edges; blocks of 256 and a partial one. */
    static const char *const sets[] = { "workload.kind=mummergpu", "sim.seed=7",
        "workload.mummergpu.ref_len=3000", "workload.mummergpu.queries=300",
        "workload.mummergpu.query_len=40", "workload.mummergpu.mismatch=5%",
        "workload.mummergpu.min_match=12" };
    model_generated(7, 3000, 300, 40, 0.05, 12);
    struct wlh h = wlh_open(sets, NSETS(sets));
    ck_assert_uint_eq(h.wl->footprint, model_footprint());
    /* the queries are 300 x 42 bytes; 29 coordinates each */
    ck_assert_uint_eq(h.wl->allocs[M_QRY].size, 300 * 42);
    ck_assert_uint_eq(h.wl->allocs[M_COORD].size, 300 * 29 * 8);
    struct wl_kernel k;
    ck_assert(wl_next_kernel(h.wl, &k));
    ck_assert_uint_eq(k.grid.x, 2);
    ck_assert_uint_eq(k.block.x, 256);
    wlh_close(&h);
    wlt_all_threads_eq(sets, NSETS(sets), 0, kernel_ref, "mummergpuKernel seeded");
    static const char *const gsets[] = { "workload.kind=mummergpu", "sim.seed=7",
        "workload.mummergpu.ref_len=3000", "workload.mummergpu.queries=300",
        "workload.mummergpu.query_len=40", "workload.mummergpu.mismatch=5%",
        "workload.mummergpu.min_match=12", "workload.mummergpu.texture_layout=gpgpusim" };
    gpgpusim = true;
    wlt_all_threads_eq(gsets, NSETS(gsets), 0, kernel_ref, "mummergpuKernel GPGPU-Sim texels");
    gpgpusim = false;
    /* exact reads (Rodinia's genreads.py), -l 20 */
    model_free();
    static const char *const exact[] = { "workload.kind=mummergpu", "sim.seed=3",
        "workload.mummergpu.ref_len=2000", "workload.mummergpu.queries=64",
        "workload.mummergpu.query_len=100" };
    model_generated(3, 2000, 64, 100, 0, 20);
    wlt_all_threads_eq(exact, NSETS(exact), 0, kernel_ref, "mummergpuKernel exact reads");
    model_free();
}
END_TEST

static uint32_t edge_depth(uint32_t v)
{
    uint32_t d = 0;
    for (int c = 0; c < 5; c++)
        if (T[v].ch[c]) { uint32_t e = 1 + edge_depth(T[v].ch[c]); if (e > d) d = e; }
    return d;
}

/* A repetitive reference (deep tree: renumberTree's depth-first groups)
 * and reads with ambiguous letters, from files, through the model. */
START_TEST(files_every_thread)
{
    char ref[4200] = ">rep\n", qry[8192] = "", rs[512], qs[512];
    uint64_t x = 11;
    for (int i = 0; i < 40; i++) strcat(ref, "ACGTTGCA");       /* 320 bases */
    for (int i = 0; i < 300; i++) { x = sm64(x); strncat(ref, &"ACGT"[x >> 62], 1); }
    strcat(ref, "\n");
    /* 70 reads: windows of the reference, some with an N (-> 'x'), some
     * lower-case, lengths 15..44 (-l 15) */
    const char *bases = strchr(ref, '\n') + 1;
    for (int k = 0; k < 70; k++) {
        x = sm64(x);
        int len = 15 + (int)(x % 30), at = (int)((x >> 20) % (620 - 44));
        char line[64];
        snprintf(line, sizeof line, ">r%d\n", k);
        strcat(qry, line);
        for (int j = 0; j < len; j++) {
            char c = bases[at + j];
            if (k % 7 == 3 && j == len / 2) c = 'N';
            if (k % 5 == 1) c = (char)(c - 'A' + 'a');
            strncat(qry, &c, 1);
        }
        strcat(qry, "\n");
    }
    snprintf(rs, sizeof rs, "workload.mummergpu.ref_file=%s", put_file("rep.fa", ref));
    snprintf(qs, sizeof qs, "workload.mummergpu.query_file=%s", put_file("rq.fa", qry));
    const char *sets[] = { "workload.kind=mummergpu", "workload.mummergpu.min_match=15", rs, qs };
    /* the model's input, read as getQueriesTexture reads it */
    N = 621; mml = 15; nq = 70;
    S = malloc(N + 1);
    S[0] = 's';
    memcpy(S + 1, bases, 620);
    S[N] = '$';
    Q = malloc(strlen(qry) + 1);
    qa = malloc(70 * sizeof *qa);
    ql = malloc(70 * sizeof *ql);
    uint32_t at = 0, k = 0;
    for (const char *p = qry; *p; p++) {
        if (*p == '>') { qa[k] = at; Q[at++] = 'q'; while (*p != '\n') p++; continue; }
        if (*p == '\n') { ql[k] = at - qa[k] - 1; Q[at++] = 0; k++; continue; }
        char c = (char)(*p >= 'a' ? *p - 'a' + 'A' : *p);
        Q[at++] = c == 'N' ? 'x' : c;
    }
    ck_assert_uint_eq(k, 70);
    model_build();
    /* deeper than 21 edges: nodes numbered in depth-first groups and
     * queued again at depth 21 */
    ck_assert_uint_gt(edge_depth(1), 21);
    struct wlh h = wlh_open(sets, NSETS(sets));
    ck_assert_uint_eq(h.wl->footprint, model_footprint());
    wlh_close(&h);
    wlt_all_threads_eq(sets, NSETS(sets), 0, kernel_ref, "mummergpuKernel files");
    model_free();
}
END_TEST

START_TEST(deterministic_per_seed)
{
    static const char *const a[] = { "workload.kind=mummergpu", "sim.seed=5",
        "workload.mummergpu.ref_len=5000", "workload.mummergpu.queries=100",
        "workload.mummergpu.query_len=50" };
    static const char *const b[] = { "workload.kind=mummergpu", "sim.seed=6",
        "workload.mummergpu.ref_len=5000", "workload.mummergpu.queries=100",
        "workload.mummergpu.query_len=50" };
    uint64_t h = stream_hash(a, NSETS(a));
    ck_assert_uint_eq(stream_hash(a, NSETS(a)), h);
    ck_assert_uint_ne(stream_hash(b, NSETS(b)), h);
}
END_TEST

/* ---- user errors (the fuzz harnesses' hook: caught in-process) ---- */

static jmp_buf jb;
static char caught[4096];
static void catch_line(const char *line)
{
    snprintf(caught, sizeof caught, "%s", line);
    longjmp(jb, 1);
}
static void expect_error(const char *const *sets, size_t n, const char *want)
{
    struct cfg_error err;
    struct config *c = config_load(NULL, sets, n, &err);
    ck_assert_ptr_nonnull(c);
    caught[0] = 0;
    user_error_set_handler(catch_line);
    if (setjmp(jb) == 0) {
        struct workload *wl = workload_create(c);
        user_error_set_handler(NULL);
        workload_free(wl);
        config_free(c);
        ck_abort_msg("no user error, wanted '%s'", want);
    }
    user_error_set_handler(NULL);
    config_free(c);
    ck_assert_msg(strstr(caught, want), "got '%s', wanted '%s'", caught, want);
}

START_TEST(user_errors)
{
    static const char *const shortq[] = { "workload.kind=mummergpu",
        "workload.mummergpu.query_len=10" };
    expect_error(shortq, NSETS(shortq), "workload.mummergpu.query_len");
    static const char *const longq[] = { "workload.kind=mummergpu",
        "workload.mummergpu.ref_len=50", "workload.mummergpu.query_len=60" };
    expect_error(longq, NSETS(longq), "50-base reference");
    char rs[512], qs[512];
    snprintf(rs, sizeof rs, "workload.mummergpu.ref_file=%s/none.fa", tmpdir);
    const char *missing[] = { "workload.kind=mummergpu", rs };
    expect_error(missing, NSETS(missing), "key 'workload.mummergpu.ref_file'");
    const char *p = put_file("two.fa", ">a\nACGT\n>b\nACGT\n");
    snprintf(rs, sizeof rs, "workload.mummergpu.ref_file=%s", p);
    const char *two[] = { "workload.kind=mummergpu", rs };
    char want[512];
    snprintf(want, sizeof want, "%s:3:", p);
    expect_error(two, NSETS(two), want);
    p = put_file("nohdr.fa", "ACGT\n");
    snprintf(rs, sizeof rs, "workload.mummergpu.ref_file=%s", p);
    snprintf(want, sizeof want, "%s:1:", p);
    expect_error(two, NSETS(two), want);
    /* queries: all shorter than -l (20) after a good reference */
    snprintf(rs, sizeof rs, "workload.mummergpu.ref_file=%s", put_file("ok.fa", ">r\nACGTACGT\n"));
    p = put_file("shortq.fa", ">a\nACG\n>b\nAC\n");
    snprintf(qs, sizeof qs, "workload.mummergpu.query_file=%s", p);
    const char *none[] = { "workload.kind=mummergpu", rs, qs };
    expect_error(none, NSETS(none), "no query of at least 20 bases");
    p = put_file("lead.fa", "ACGT\n>a\nACGT\n");
    snprintf(qs, sizeof qs, "workload.mummergpu.query_file=%s", p);
    snprintf(want, sizeof want, "%s:1:", p);
    expect_error(none, NSETS(none), want);
}
END_TEST

static Suite *mummer_suite(void)
{
    Suite *s = suite_create("wl_mummer");
    TCase *tc = tcase_create("mummergpu");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, tiny_tree_by_hand);
    tcase_add_test(tc, deep_renumbering_by_hand);
    tcase_add_test(tc, seeded_every_thread);
    tcase_add_test(tc, files_every_thread);
    tcase_add_test(tc, deterministic_per_seed);
    tcase_add_test(tc, user_errors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(mummer_suite()); }

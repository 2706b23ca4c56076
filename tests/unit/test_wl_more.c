/* Rodinia b+tree, Parboil histo and sad: pages touched equal those of the
 * kernels' loop nests transcribed here over independently built inputs;
 * chosen threads' memory ops and barriers equal the loop nest; streams are
 * deterministic per seed. */
#include <check.h>
#include "suite_main.h"
#include "wl_harness.h"

static uint64_t sm64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* Distinct pages of a set of reference sequences, by absolute address. */
struct pageset { uint8_t *bits; uint64_t n, span; };

static struct pageset ps_new(const struct workload *wl)
{
    const struct wl_alloc *last = &wl->allocs[wl->nallocs - 1];
    struct pageset p = { NULL, 0, (last->base + last->size - WL_VA_BASE + 4095) / 4096 };
    p.bits = calloc(p.span / 8 + 1, 1);
    return p;
}

static void ps_add_seq(struct pageset *p, const struct workload *wl, const struct wlh_seq *s)
{
    for (size_t i = 0; i < s->n; i++) {
        uint64_t v = s->v[i];
        if (v >> 60 == INST_BARRIER) continue;
        uint64_t a = (v >> 48) & 0xfff, off = v & ((1ULL << 48) - 1);
        uint64_t pg = (wl->allocs[a].base + off - WL_VA_BASE) / 4096;
        if (!(p->bits[pg / 8] >> (pg % 8) & 1)) { p->bits[pg / 8] |= (uint8_t)(1u << (pg % 8)); p->n++; }
    }
}

static uint64_t stream_hash(const char *const *sets, size_t n)
{
    struct wlh h = wlh_open(sets, n);
    uint64_t x = wlh_run_all(h.wl).hash;
    wlh_close(&h);
    return x;
}

static void check_thread(const char *const *sets, size_t n, uint64_t kseq, uint64_t block,
                         uint32_t tid, struct wlh_seq *want, const char *what)
{
    struct wlh h = wlh_open(sets, n);
    struct wlh_seq got = wlh_thread(h.wl, kseq, block, tid);
    wlh_seq_eq(&got, want, what);
    free(got.v);
    free(want->v);
    memset(want, 0, sizeof *want);
    wlh_close(&h);
}

/* ---- b+tree: a real knode array, built here level by level (bulk load to
 * F keys a node), numbered breadth-first as transform_to_cuda does. */
#define BN 3000
#define BORD 8
#define BQ 40
#define BRQ 20
#define BRANGE 30
#define BMAXN 1200
static const int64_t IMIN = -2147483648LL, IMAX = 2147483647LL;
static int64_t bk[BMAXN][BORD + 1];
static int64_t bi[BMAXN][BORD + 1];
static uint64_t bnodes, bheight, bseed;

static uint64_t bkey(uint64_t r) { return 2 * r + 1 + (sm64(bseed + r) & 1); }

static void bt_build(void)
{
    const uint64_t F = (BORD - 1) * 69 / 100, C = F + 1;
    /* Per level (0 = leaves): node count, and per node its first key. */
    static uint64_t cnt[32], first[32][BMAXN];
    uint64_t h = 0;
    cnt[0] = 0;
    for (uint64_t r = 0; r < BN; r += F) first[0][cnt[0]++] = bkey(r);
    while (cnt[h] > 1) {
        cnt[h + 1] = 0;
        for (uint64_t c = 0; c < cnt[h]; c += C) first[h + 1][cnt[h + 1]++] = first[h][c];
        h++;
    }
    bheight = h;
    uint64_t base[32], at = 0;
    for (uint64_t d = h + 1; d-- > 0;) { base[d] = at; at += cnt[d]; }
    bnodes = at;
    ck_assert_uint_le(bnodes, BMAXN);
    for (uint64_t d = 0; d <= h; d++)
        for (uint64_t j = 0; j < cnt[d]; j++) {
            int64_t *k = bk[base[d] + j], *ix = bi[base[d] + j];
            for (int t = 0; t <= BORD; t++) { k[t] = IMAX; ix[t] = 0; }
            k[0] = IMIN;
            if (d == 0) {
                for (uint64_t t = 0; t < F && j * F + t < BN; t++) {
                    k[t + 1] = (int64_t)bkey(j * F + t);
                    ix[t + 1] = (int64_t)(j * F + t);
                }
            } else {
                for (uint64_t t = 0; t < C && j * C + t < cnt[d - 1]; t++) {
                    if (t) k[t] = (int64_t)first[d - 1][j * C + t];
                    ix[t] = (int64_t)(base[d - 1] + j * C + t);
                }
            }
        }
}

#define KSZ (8 * (BORD + 1) + 12)
#define KEYS(n, t) ((uint64_t)(n) * KSZ + 4 + 4 * (BORD + 1) + 4 * (uint64_t)(t))
#define IDX(n, t) ((uint64_t)(n) * KSZ + 4 + 4 * (uint64_t)(t))

/* findK for thread thid of block bid; allocs 0 knodes, 1 records, 2 cur,
 * 3 offset, 4 keys, 5 ans. */
static void findk_ref(struct wlh_seq *s, int bid, int thid)
{
    int64_t q = (int64_t)(sm64((bseed ^ 0x6b7) + (uint64_t)bid) % (2 * BN + 3));
    int64_t cur = 0, off = 0;
    for (uint64_t i = 0; i < bheight; i++) {
        int64_t noff = off;
        for (int t = 0; t < BORD; t++)
            if (bk[cur][t] <= q && bk[cur][t + 1] > q && bi[off][t] < (int64_t)bnodes) noff = bi[off][t];
        wlh_push(s, L(2, bid * 8)); wlh_push(s, L(0, KEYS(cur, thid))); wlh_push(s, L(4, bid * 4));
        if (bk[cur][thid] <= q) {
            wlh_push(s, L(0, KEYS(cur, thid + 1)));
            if (bk[cur][thid + 1] > q) {
                wlh_push(s, L(3, bid * 8)); wlh_push(s, L(0, IDX(off, thid)));
                if (bi[off][thid] < (int64_t)bnodes) wlh_push(s, S(3, bid * 8));
            }
        }
        off = noff;
        wlh_push(s, BAR);
        if (thid == 0) { wlh_push(s, L(3, bid * 8)); wlh_push(s, S(2, bid * 8)); }
        cur = off;
        wlh_push(s, BAR);
    }
    wlh_push(s, L(2, bid * 8)); wlh_push(s, L(0, KEYS(cur, thid))); wlh_push(s, L(4, bid * 4));
    if (bk[cur][thid] == q) {
        wlh_push(s, L(0, IDX(cur, thid)));
        wlh_push(s, L(1, bi[cur][thid] * 4));
        wlh_push(s, S(5, bid * 4));
    }
}

/* findRangeK; allocs 6 cur, 7 offset, 8 last, 9 offset_2, 10 start,
 * 11 end, 12 Recstart, 13 Reclen. */
static void findrange_ref(struct wlh_seq *s, int bid, int thid)
{
    int64_t st = (int64_t)(sm64((bseed ^ 0x6a7) + (uint64_t)bid) % (2 * BN + 3 - BRANGE));
    int64_t en = st + BRANGE;
    int64_t cur = 0, last = 0, off = 0, off2 = 0;
    for (uint64_t i = 0; i < bheight; i++) {
        for (int t = 0; t < BORD; t++) {
            if (bk[cur][t] <= st && bk[cur][t + 1] > st && bi[cur][t] < (int64_t)bnodes) off = bi[cur][t];
            if (bk[last][t] <= en && bk[last][t + 1] > en && bi[last][t] < (int64_t)bnodes) off2 = bi[last][t];
        }
        wlh_push(s, L(6, bid * 8)); wlh_push(s, L(0, KEYS(cur, thid))); wlh_push(s, L(10, bid * 4));
        if (bk[cur][thid] <= st) {
            wlh_push(s, L(0, KEYS(cur, thid + 1)));
            if (bk[cur][thid + 1] > st) {
                wlh_push(s, L(0, IDX(cur, thid)));
                if (bi[cur][thid] < (int64_t)bnodes) wlh_push(s, S(7, bid * 8));
            }
        }
        wlh_push(s, L(8, bid * 8)); wlh_push(s, L(0, KEYS(last, thid))); wlh_push(s, L(11, bid * 4));
        if (bk[last][thid] <= en) {
            wlh_push(s, L(0, KEYS(last, thid + 1)));
            if (bk[last][thid + 1] > en) {
                wlh_push(s, L(0, IDX(last, thid)));
                if (bi[last][thid] < (int64_t)bnodes) wlh_push(s, S(9, bid * 8));
            }
        }
        wlh_push(s, BAR);
        if (thid == 0) {
            wlh_push(s, L(7, bid * 8)); wlh_push(s, S(6, bid * 8));
            wlh_push(s, L(9, bid * 8)); wlh_push(s, S(8, bid * 8));
        }
        cur = off;
        last = off2;
        wlh_push(s, BAR);
    }
    wlh_push(s, L(6, bid * 8)); wlh_push(s, L(0, KEYS(cur, thid))); wlh_push(s, L(10, bid * 4));
    if (bk[cur][thid] == st) { wlh_push(s, L(0, IDX(cur, thid))); wlh_push(s, S(12, bid * 4)); }
    wlh_push(s, BAR);
    wlh_push(s, L(8, bid * 8)); wlh_push(s, L(0, KEYS(last, thid))); wlh_push(s, L(11, bid * 4));
    if (bk[last][thid] == en) {
        wlh_push(s, L(0, IDX(last, thid))); wlh_push(s, L(12, bid * 4)); wlh_push(s, S(13, bid * 4));
    }
}

#define BT_SETS(seed) { "workload.kind=btree", "workload.btree.records=3000", \
    "workload.btree.order=8", "workload.btree.queries=40", "workload.btree.range_queries=20", \
    "workload.btree.range=30", "sim.seed=" seed }

START_TEST(btree_pages_sequences_and_seed)
{
    static const char *const sets[] = BT_SETS("5");
    bseed = sm64(5);
    bt_build();
    /* 3000 keys, 4 a node, 5 children: 750, 150, 30, 6, 2, 1 nodes. */
    ck_assert_uint_eq(bheight, 5);
    ck_assert_uint_eq(bnodes, 939);
    struct wlh h = wlh_open(sets, NSETS(sets));
    ck_assert_uint_eq(h.wl->nallocs, 14);
    ck_assert_uint_eq(h.wl->allocs[0].size, 939 * KSZ);
    struct pageset ps = ps_new(h.wl);
    uint64_t hits = 0;
    for (int b = 0; b < BQ; b++)
        for (int t = 0; t < BORD; t++) {
            struct wlh_seq s = {0};
            findk_ref(&s, b, t);
            for (size_t i = 0; i < s.n; i++) if (s.v[i] >> 60 == INST_STORE && (s.v[i] >> 48 & 0xfff) == 5) hits++;
            ps_add_seq(&ps, h.wl, &s);
            free(s.v);
        }
    for (int b = 0; b < BRQ; b++)
        for (int t = 0; t < BORD; t++) {
            struct wlh_seq s = {0};
            findrange_ref(&s, b, t);
            ps_add_seq(&ps, h.wl, &s);
            free(s.v);
        }
    /* Keys are ~2 apart and queries uniform: some but not all hit. */
    ck_assert_uint_gt(hits, 5);
    ck_assert_uint_lt(hits, 35);
    struct wlh_run r = wlh_run_all(h.wl);
    ck_assert_uint_eq(r.kernels, 2);
    ck_assert_uint_eq(r.pages, ps.n);
    free(ps.bits);
    wlh_close(&h);
    struct wlh_seq want = {0};
    static const int fk[][2] = { {0, 0}, {7, 3}, {19, 7}, {39, 5}, {11, 1} };
    for (size_t q = 0; q < 5; q++) {
        findk_ref(&want, fk[q][0], fk[q][1]);
        check_thread(sets, NSETS(sets), 0, (uint64_t)fk[q][0], (uint32_t)fk[q][1], &want, "findK thread");
    }
    for (int b = 0; b < BRQ; b += 3)
        for (int t = 0; t < BORD; t += 3) {
            findrange_ref(&want, b, t);
            check_thread(sets, NSETS(sets), 1, (uint64_t)b, (uint32_t)t, &want, "findRangeK thread");
        }
    static const char *const other[] = BT_SETS("6");
    uint64_t h1 = stream_hash(sets, NSETS(sets));
    ck_assert_uint_eq(stream_hash(sets, NSETS(sets)), h1);
    ck_assert_uint_ne(stream_hash(other, NSETS(other)), h1);
}
END_TEST

static Suite *more_suite(void)
{
    Suite *s = suite_create("wl_more");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, btree_pages_sequences_and_seed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(more_suite()); }

/* Rodinia b+tree, Parboil histo and sad: pages touched equal those of the
 * kernels' loop nests transcribed here over independently built inputs;
 * chosen threads' memory ops and barriers equal the loop nest; streams are
 * deterministic per seed. */
#include <check.h>
#include "suite_main.h"
#include "wl_harness.h"
#include <math.h>

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

/* Every thread of kernel KSEQ against REF (block linear index, thread):
 * one pass over the kernel's warps, each lane's ops split out. */
typedef void (*ref_fn)(struct wlh_seq *s, uint64_t block, uint32_t tid);

static void all_threads_eq(const char *const *sets, size_t n, uint64_t kseq, ref_fn ref,
                           const char *what)
{
    struct wlh h = wlh_open(sets, n);
    struct workload *wl = h.wl;
    struct wl_kernel k;
    uint64_t seq = 0;
    while (wl_next_kernel(wl, &k) && seq++ < kseq) {}
    ck_assert_uint_eq(k.seq, kseq);
    uint64_t nb = (uint64_t)k.grid.x * k.grid.y * k.grid.z;
    uint32_t threads = k.block.x * k.block.y * k.block.z;
    struct wlh_seq got[WARP_SIZE], want = {0};
    memset(got, 0, sizeof got);
    struct warp_inst in;
    for (uint64_t b = 0; b < nb; b++)
        for (uint32_t wi = 0; wi * WARP_SIZE < threads; wi++) {
            struct warp_ctx c;
            wlh_ctx(&c, &k, b, wi);
            for (uint32_t l = 0; l < WARP_SIZE; l++) got[l].n = 0;
            wl_warp_start(wl, &c);
            for (;;) {
                wl_next_inst(wl, &c, &in);
                if (in.op == INST_EXIT) break;
                if (in.op == INST_COMPUTE) continue;
                for (uint32_t l = 0; l < c.threads; l++) {
                    if (!(in.active >> l & 1)) continue;
                    if (in.op == INST_BARRIER) { wlh_push(&got[l], BAR); continue; }
                    size_t i = 0;
                    while (i < wl->nallocs && !(in.addr[l] >= wl->allocs[i].base &&
                           in.addr[l] < wl->allocs[i].base + wl->allocs[i].size)) i++;
                    /* Check writes a record per passing assertion: test first. */
                    if (i == wl->nallocs) { ck_abort_msg("%s: address outside every allocation", what); }
                    wlh_push(&got[l], WLH_REC(in.op, i, in.addr[l] - wl->allocs[i].base));
                }
            }
            for (uint32_t l = 0; l < c.threads; l++) {
                want.n = 0;
                ref(&want, b, wi * WARP_SIZE + l);
                if (got[l].n != want.n || (want.n && memcmp(got[l].v, want.v, want.n * sizeof *want.v)))
                    wlh_seq_eq(&got[l], &want, what);
            }
        }
    for (uint32_t l = 0; l < WARP_SIZE; l++) free(got[l].v);
    free(want.v);
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

static void findk_all(struct wlh_seq *s, uint64_t b, uint32_t t) { findk_ref(s, (int)b, (int)t); }
static void findrange_all(struct wlh_seq *s, uint64_t b, uint32_t t) { findrange_ref(s, (int)b, (int)t); }

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
    /* Every thread of both kernels equals the loop nest. */
    all_threads_eq(sets, NSETS(sets), 0, findk_all, "findK thread");
    all_threads_eq(sets, NSETS(sets), 1, findrange_all, "findRangeK thread");
    static const char *const other[] = BT_SETS("6");
    uint64_t h1 = stream_hash(sets, NSETS(sets));
    ck_assert_uint_eq(stream_hash(sets, NSETS(sets)), h1);
    ck_assert_uint_ne(stream_hash(other, NSETS(other)), h1);
}
END_TEST

/* ---- histo: image 1024 x 512, 256 x 256 bins, spread 20: the bump sits in
 * bins 32728..32808 (24576-bin range 1), so its peak bins get ~1200 hits per
 * main-kernel block: 8-bit overflows happen.  Allocs 0 input, 1 ranges,
 * 2 sm_mappings, 3 subhisto, 4 global_histo, 5 overflow, 6 final. */
#define HW 1024
#define HH 512
#define HNP (HW * HH)
#define HBINS 65536
#define HBPB 24576
static uint64_t hseed;
static uint32_t hsm[HNP];        /* sm_mappings as intermediates writes them */
static uint8_t hflag[HNP];       /* 1 overflow, 2 +2, 4 +3, 8 saturated */
static uint64_t hrmin, hrmax;

static uint32_t hpix(uint64_t p)
{
    uint64_t u = sm64(hseed + p);
    if (u % 4096 == 0) return (uint32_t)(sm64(u) % HBINS);
    uint64_t r = sm64(u ^ 0x5bd1e995ULL);
    uint64_t S = (r & 0xffff) + ((r >> 16) & 0xffff) + ((r >> 32) & 0xffff) + (r >> 48);
    int64_t v = HBINS / 2 - 40 + (int64_t)((S * 20) >> 16);
    return (uint32_t)v;
}

static void intermediates_ref(struct wlh_seq *s, int bx, int tx)
{
    const int half = HW / 2;
    for (int i = 0; i < 16; i++) {
        int line = 16 * bx + i;
        if (s) wlh_push(s, L(0, ((uint64_t)line * half + tx) * 8));
        uint32_t x = hpix((uint64_t)line * HW + 2 * tx), y = hpix((uint64_t)line * HW + 2 * tx + 1);
        if (s) wlh_push(s, S(2, ((uint64_t)line * HW + tx) * 4));
        hsm[line * HW + tx] = x;
        if (s) wlh_push(s, S(2, ((uint64_t)line * HW + tx + half) * 4));
        hsm[line * HW + tx + half] = y;
    }
}

static void prescan_ref(struct wlh_seq *s, int bx, int tx)
{
    int stride = HNP / 64, end = bx * stride + stride / 8;
    for (int pass = 0; pass < 2; pass++)
        for (int a = bx * stride + tx; a < end; a += 512) wlh_push(s, L(0, (uint64_t)a * 4));
    for (int k = 0; k < 4; k++) wlh_push(s, BAR);
    if (tx == 0) { wlh_push(s, A(1, 0)); wlh_push(s, A(1, 4)); }
}

/* Prescan result (the documented double-precision model) and the main
 * kernel's events, from the kernels' text. */
static void histo_setup(void)
{
    for (int bx = 0; bx < HH / 16; bx++) for (int tx = 0; tx < HW / 2; tx++) intermediates_ref(NULL, bx, tx);
    int stride = HNP / 64;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int b = 0; b < 64; b++) {
        double A_ = 0, D = 0;
        for (int t = 0; t < 512; t++) {
            double sum = 0, sq = 0;
            int n = 0;
            for (int a = b * stride + t; a < b * stride + stride / 8; a += 512) { sum += hpix((uint64_t)a); n++; }
            double avg = sum / n;
            for (int a = b * stride + t; a < b * stride + stride / 8; a += 512)
                sq += (hpix((uint64_t)a) - avg) * (hpix((uint64_t)a) - avg);
            A_ += avg;
            D += sqrt(sq / n);
        }
        double avg = A_ / 512, sd = D / 512;
        uint64_t mn = avg - 10 * sd <= 0 ? 0 : (uint64_t)(avg - 10 * sd) / HBPB;
        uint64_t mx = (uint64_t)(avg + 10 * sd) / HBPB;
        if (mn < lo) lo = mn;
        if (mx > hi) hi = mx;
    }
    hrmin = lo; hrmax = hi;
    memset(hflag, 0, sizeof hflag);
    static uint32_t smem[HBPB / 4];
    for (uint64_t by = 0; by <= hrmax - hrmin; by++)
        for (int bx = 0; bx < 14; bx++) {
            memset(smem, 0, sizeof smem);
            for (int e0 = bx * 768; e0 < HNP; e0 += 768 * 14)
                for (int tx = 0; tx < 768 && e0 + tx < HNP; tx++) {
                    uint32_t bin = hsm[e0 + tx];
                    unsigned range = bin / HBPB, offset = (bin % 4) * 8;
                    if (range != hrmin + by) continue;
                    uint32_t prev = smem[(bin % HBPB) / 4];
                    smem[(bin % HBPB) / 4] += 1u << offset;
                    if (((prev >> offset) & 0xFF) != 0xFF) continue;
                    hflag[e0 + tx] |= 1;
                    if (offset < 16 && ((prev >> (offset + 8)) & 0xFF) == 0xFF) hflag[e0 + tx] |= 2;
                    if (offset < 8 && ((prev >> (offset + 16)) & 0xFF) == 0xFF) hflag[e0 + tx] |= 4;
                }
        }
    static uint16_t cnt[HBINS];
    memset(cnt, 0, sizeof cnt);
    for (int e = 0; e < HNP; e++) {
        unsigned range = hsm[e] / HBPB;
        if (range >= hrmin && range <= hrmax) continue;
        if (cnt[hsm[e]] >= 255) hflag[e] |= 8; else cnt[hsm[e]]++;
    }
}

static void main_ref(struct wlh_seq *s, int bx, int by, int tx)
{
    unsigned my = (unsigned)(hrmin + by);
    wlh_push(s, BAR);
    for (int e = bx * 768 + tx; e < HNP; e += 768 * 14) {
        wlh_push(s, L(2, (uint64_t)e * 4));
        uint32_t bin = hsm[e];
        unsigned range = bin / HBPB, offset = (bin % 4) * 8;
        if (range == my && (hflag[e] & 1)) {
            wlh_push(s, A(5, (uint64_t)bin * 4));
            if (offset < 24) wlh_push(s, A(5, (uint64_t)(bin + 1) * 4));
            if (hflag[e] & 2) wlh_push(s, A(5, (uint64_t)(bin + 2) * 4));
            if (hflag[e] & 4) wlh_push(s, A(5, (uint64_t)(bin + 3) * 4));
        }
        if (by == 0 && (range < hrmin || range > hrmax)) {
            wlh_push(s, L(4, (uint64_t)(bin / 2) * 4));
            if (!(hflag[e] & 8)) wlh_push(s, A(4, (uint64_t)(bin / 2) * 4));
        }
    }
    wlh_push(s, BAR);
    for (int i = tx; i < HBPB / 4; i += 768)
        for (int k = 0; k < 4; k++) wlh_push(s, A(3, ((uint64_t)my * HBPB + (uint64_t)i * 4 + k) * 4));
}

static void final_ref(struct wlh_seq *s, int bx, int tx)
{
    unsigned start = tx + bx * 512, step = 14 * 3 * 512;
    unsigned low = hrmin * HBPB, mid = (hrmax - hrmin + 1) * HBPB;
    for (unsigned i = start; i < low / 4; i += step) {
        wlh_push(s, L(4, i * 8)); wlh_push(s, S(4, i * 8)); wlh_push(s, S(6, i * 4));
    }
    for (unsigned i = low / 4 + start; i < (low + mid) / 4; i += step) {
        wlh_push(s, L(5, i * 16)); wlh_push(s, S(5, i * 16));
        for (int k = 0; k < 4; k++) wlh_push(s, L(3, (i * 4 + k) * 4));
        wlh_push(s, S(6, i * 4));
    }
    for (unsigned i = (low + mid) / 4 + start; i < HBINS / 4; i += step) {
        wlh_push(s, L(4, i * 8)); wlh_push(s, S(4, i * 8)); wlh_push(s, S(6, i * 4));
    }
}

static void prescan_all(struct wlh_seq *s, uint64_t b, uint32_t t) { prescan_ref(s, (int)b, (int)t); }
static void inter_all(struct wlh_seq *s, uint64_t b, uint32_t t) { intermediates_ref(s, (int)b, (int)t); }
static void main_all(struct wlh_seq *s, uint64_t b, uint32_t t) { main_ref(s, (int)(b % 14), (int)(b / 14), (int)t); }
static void final_all(struct wlh_seq *s, uint64_t b, uint32_t t) { final_ref(s, (int)b, (int)t); }

#define HI_SETS(seed) { "workload.kind=histo", "workload.histo.img_width=1024", \
    "workload.histo.img_height=512", "workload.histo.histo_width=256", \
    "workload.histo.histo_height=256", "workload.histo.spread=20", "sim.seed=" seed }

START_TEST(histo_pages_sequences_and_seed)
{
    static const char *const sets[] = HI_SETS("3");
    hseed = sm64(3);
    histo_setup();
    /* The bump's 10-sigma window stays inside range 1. */
    ck_assert_uint_eq(hrmin, 1);
    ck_assert_uint_eq(hrmax, 1);
    int over = 0, casc = 0, sat = 0;
    for (int e = 0; e < HNP; e++) { over += hflag[e] & 1; casc += (hflag[e] & 6) != 0; sat += (hflag[e] & 8) != 0; }
    ck_assert_int_gt(over, 100);
    ck_assert_int_gt(casc, 0);
    ck_assert_int_eq(sat, 0);
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct pageset ps = ps_new(h.wl);
    struct wlh_seq s = {0};
#define ADD(call) do { call; ps_add_seq(&ps, h.wl, &s); s.n = 0; } while (0)
    for (int b = 0; b < 64; b++) for (int t = 0; t < 512; t++) ADD(prescan_ref(&s, b, t));
    for (int b = 0; b < HH / 16; b++) for (int t = 0; t < HW / 2; t++) ADD(intermediates_ref(&s, b, t));
    for (uint64_t by = 0; by <= hrmax - hrmin; by++)
        for (int b = 0; b < 14; b++) for (int t = 0; t < 768; t++) ADD(main_ref(&s, b, (int)by, t));
    for (int b = 0; b < 42; b++) for (int t = 0; t < 512; t++) ADD(final_ref(&s, b, t));
#undef ADD
    free(s.v);
    struct wlh_run r = wlh_run_all(h.wl);
    ck_assert_uint_eq(r.kernels, 4);
    ck_assert_uint_eq(r.pages, ps.n);
    free(ps.bits);
    wlh_close(&h);
    /* Every thread of every kernel equals the loop nest. */
    all_threads_eq(sets, NSETS(sets), 0, prescan_all, "prescan thread");
    all_threads_eq(sets, NSETS(sets), 1, inter_all, "intermediates thread");
    all_threads_eq(sets, NSETS(sets), 2, main_all, "main thread");
    all_threads_eq(sets, NSETS(sets), 3, final_all, "final thread");
    static const char *const other[] = HI_SETS("4");
    uint64_t h1 = stream_hash(sets, NSETS(sets));
    ck_assert_uint_eq(stream_hash(sets, NSETS(sets)), h1);
    ck_assert_uint_ne(stream_hash(other, NSETS(other)), h1);
}
END_TEST

/* Two iterations launch the four kernels twice. */
START_TEST(histo_iterations)
{
    static const char *const sets[] = { "workload.kind=histo", "workload.histo.img_width=64",
        "workload.histo.img_height=32", "workload.histo.histo_width=64",
        "workload.histo.histo_height=64", "workload.histo.iterations=2" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    ck_assert_uint_eq(wlh_run_all(h.wl).kernels, 8);
    wlh_close(&h);
}
END_TEST

/* ---- sad: 64 x 48 frame (4 x 3 macroblocks, mbs 12).  Allocs 0 cur,
 * 1 ref, 2 sads; P = 1096. */
#define SW 64
#define SH 48
#define SMBW 4
#define SMBS 12
#define PP 1096
static int clampi(int v, int hi) { return v < 0 ? 0 : v > hi ? hi : v; }

static void mbsad_ref(struct wlh_seq *s, uint64_t b, uint32_t tid)
{
    int bx = (int)(b % (SW / 4)), by = (int)(b / (SW / 4));
    int mb_x = bx >> 2, mb_y = by >> 2, block_x = bx & 3, block_y = by & 3;
    int frame_x = ((mb_x << 2) + block_x) << 2, frame_y = ((mb_y << 2) + block_y) << 2;
    int ref_x = frame_x - 16, ref_y = frame_y - 16, cur_o = frame_y * SW + frame_x;
    int base = (int)tid * 18, end = base + 18 > 1089 ? 1089 : base + 18;
    uint64_t blk = (uint64_t)SMBS * PP * 25 + (uint64_t)(mb_y * SMBW + mb_x) * PP * 16 +
                   (uint64_t)(4 * block_y + block_x) * PP;
    for (int sp = base; sp < end; sp++) {
        int ox = ref_x + sp % 33, oy = ref_y + sp / 33;
        for (int y = 0; y < 4; y++)
            for (int x = 0; x < 4; x++) {
                wlh_push(s, L(1, (uint64_t)(clampi(oy + y, SH - 1) * SW + clampi(ox + x, SW - 1)) * 2));
                wlh_push(s, L(0, (uint64_t)(cur_o + y * SW + x) * 2));
            }
        wlh_push(s, S(2, (blk + (uint64_t)sp) * 2));
    }
}

static void larger8_ref(struct wlh_seq *s, uint64_t b, uint32_t tid)
{
    int tidx = (int)tid % 32, tidy = (int)tid / 32, tx = tidy & 1, ty = tidy >> 1;
    uint64_t mbs = SMBS, mi = b * PP;    /* b = mb_y*mbw + mb_x */
    uint64_t bi = (mbs * 25 + (uint64_t)(ty * 8 + tx * 2)) * PP + mi * 16;
    uint64_t bo6 = ((mbs << 4) + mbs + (uint64_t)(ty * 4 + tx * 2)) * PP + mi * 8;
    uint64_t bo5 = ((mbs << 3) + mbs + (uint64_t)(ty * 4 + tx)) * PP + mi * 8;
    uint64_t bo4 = ((mbs << 2) + mbs + (uint64_t)(ty * 2 + tx)) * PP + mi * 4;
    for (int sp = tidx; sp < (1089 + 1) / 2; sp += 32) {
        wlh_push(s, L(2, bi * 2 + (uint64_t)sp * 4));
        wlh_push(s, L(2, bi * 2 + (uint64_t)(sp + PP / 2) * 4));
        wlh_push(s, L(2, bi * 2 + (uint64_t)(sp + 4 * PP / 2) * 4));
        wlh_push(s, L(2, bi * 2 + (uint64_t)(sp + 5 * PP / 2) * 4));
        wlh_push(s, S(2, bo6 * 2 + (uint64_t)sp * 4));
        wlh_push(s, S(2, bo6 * 2 + (uint64_t)(sp + PP / 2) * 4));
        wlh_push(s, S(2, bo5 * 2 + (uint64_t)sp * 4));
        wlh_push(s, S(2, bo5 * 2 + (uint64_t)(sp + 2 * PP / 2) * 4));
        wlh_push(s, S(2, bo4 * 2 + (uint64_t)sp * 4));
    }
}

static void larger16_ref(struct wlh_seq *s, uint64_t b, uint32_t tid)
{
    uint64_t M = SMBS * PP, mi = b * PP;
    uint64_t bi = ((M + mi) << 2) + M, bo3 = ((M + mi) << 1) + M, bo2 = M + mi * 2, bo1 = mi;
    for (int sp = (int)tid; sp < (1089 + 1) / 2; sp += 32) {
        for (int k = 0; k < 4; k++) wlh_push(s, L(2, bi * 2 + (uint64_t)(sp + k * PP / 2) * 4));
        wlh_push(s, S(2, bo3 * 2 + (uint64_t)sp * 4));
        wlh_push(s, S(2, bo3 * 2 + (uint64_t)(sp + PP / 2) * 4));
        wlh_push(s, S(2, bo2 * 2 + (uint64_t)sp * 4));
        wlh_push(s, S(2, bo2 * 2 + (uint64_t)(sp + PP / 2) * 4));
        wlh_push(s, S(2, bo1 * 2 + (uint64_t)sp * 4));
    }
}

START_TEST(sad_pages_sequences_and_seed)
{
    static const char *const sets[] = { "workload.kind=sad", "workload.sad.width=64",
        "workload.sad.height=48", "sim.seed=1" };
    struct wlh h = wlh_open(sets, NSETS(sets));
    struct wlh_run r = wlh_run_all(h.wl);
    ck_assert_uint_eq(r.kernels, 3);
    /* Both frames whole; the SADs all but the last vector's 12 padding bytes. */
    uint64_t sadb = 41ULL * PP * SMBS * 2;
    ck_assert_uint_eq(r.pages, 2 * wlh_pages(SW * SH * 2) + (sadb - 12 - 1) / 4096 + 1);
    wlh_close(&h);
    all_threads_eq(sets, NSETS(sets), 0, mbsad_ref, "mb_sad_calc thread");
    all_threads_eq(sets, NSETS(sets), 1, larger8_ref, "larger_sad_calc_8 thread");
    all_threads_eq(sets, NSETS(sets), 2, larger16_ref, "larger_sad_calc_16 thread");
    /* No data-dependent address: the same stream for any seed. */
    static const char *const other[] = { "workload.kind=sad", "workload.sad.width=64",
        "workload.sad.height=48", "sim.seed=2" };
    uint64_t h1 = stream_hash(sets, NSETS(sets));
    ck_assert_uint_eq(stream_hash(other, NSETS(other)), h1);
}
END_TEST

static Suite *more_suite(void)
{
    Suite *s = suite_create("wl_more");
    TCase *tc = tcase_create("kernels");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, btree_pages_sequences_and_seed);
    tcase_add_test(tc, histo_pages_sequences_and_seed);
    tcase_add_test(tc, histo_iterations);
    tcase_add_test(tc, sad_pages_sequences_and_seed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(more_suite()); }

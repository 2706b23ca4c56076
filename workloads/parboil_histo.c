/* Parboil histo: saturating 8-bit histogram of an image in four kernels.
 * Source: Parboil 2.5 histo/src/cuda (histo_prescan.cu, histo_intermediates
 * .cu, histo_main.cu, histo_final.cu; host loop in main.cu): per iteration
 * histo_prescan_kernel <<<64, 512>>> (PRESCAN_BLOCKS_X, PRESCAN_THREADS),
 * histo_intermediates_kernel <<<height/16, (width+1)/2>>> (UNROLL 16),
 * histo_main_kernel <<<(14, rmax-rmin+1), 768>>> (BLOCK_X, THREADS; KB 24,
 * BINS_PER_BLOCK B = 24576), histo_final_kernel <<<42, 512>>>, with the
 * ranges copied in and out around the prescan and global_subhisto zeroed
 * by a copy; the image is copied in (row by row) first and the histogram
 * out last.  HPE (Yu et al. 2020) Table II type V (HIS).  Defaults: the
 * default dataset's 996 x 1040 image; histogram 256 x 4096 (1 Mi bins, an
 * assumption: img.bin's header holds it); iterations 1 (the run's count).
 *
 * Input (the real one is an image; its values are the bins, so they decide
 * every atomic's address): pixel p = y*width + x, u = mix(seed + p), seed =
 * mix(sim.seed); if u mod 4096 == 0 an outlier, bin = mix(u) mod bins;
 * otherwise bin = clamp(bins/2 - 2*spread + (S*spread >> 16)), S the sum of
 * the four 16-bit fields of mix(u ^ 0x5bd1e995): an Irwin-Hall(4) bump
 * around the middle bin (sd about 0.58*spread) plus 1/4096 uniform noise.
 * The padding column of an odd width reads as 0.
 *
 * Functional state computed at create: the prescan's [rmin, rmax] (in
 * double; a thread with no samples makes its block's values NaN, which the
 * GPU's float->uint conversion turns into 0; clamped to the last range);
 * the shared sub-histogram words of every main-kernel block, updated in
 * (iteration, thread) order -- the hardware's order is arbitrary, only
 * which thread sees an 8-bit overflow depends on it -- giving each
 * overflowing element's global_overflow atomics; and, in element order, the
 * out-of-range elements that find their 16-bit global_histo bin already at
 * 255 (no atomic).  Deviations: Parboil sizes global_subhisto/histo/
 * overflow/final by img_width*histo_height entries (enough when img_width
 * >= histo_width), here E = max(img_width*histo_height, histo_width*
 * histo_height, bins rounded up to B) (the final kernel's middle loop
 * reads whole B-bin ranges); the image
 * height must be a multiple of 16 (intermediates stores 16 lines a block
 * unguarded).
 *
 * Per thread: prescan: load input[a] for its samples a = bx*stride + tx +
 * 512k < bx*stride + stride/8 (stride = pixels/64), twice (mean, then sd),
 * 4 barriers, thread 0 two atomics on ranges.  intermediates: 16 lines of
 * load uint2 input, store sm_mappings[tx] and [tx + (width+1)/2] (not the
 * last thread of an odd width).  main: barrier; for each element e = bx*768
 * + tx + 10752j: load sm_mappings[e]; in its range's block: on overflow
 * atomics on global_overflow[bin], [bin+1] (bin%4 < 3), [bin+2], [bin+3]
 * (cascades); blocks y == 0, out of [rmin, rmax]: load global_histo word
 * bin/2, atomic unless saturated; barrier; copy: 8 x 4 atomics on
 * global_subhisto.  final: three grid-stride loops (step 21504) over
 * ushort4/uint4 words: low and high histo regions load+store global_histo
 * (8 B) and store final (4 B); the middle loads+stores global_overflow
 * (16 B), loads 4 global_subhisto words and stores final. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"

#define HB 24576u         /* BINS_PER_BLOCK */
#define HT 768u           /* THREADS */
#define HBX 14u           /* BLOCK_X */
#define HSTEP (HT * HBX)
#define FSTEP (HBX * 3 * 512u)

struct hev { uint64_t e; uint32_t flags; };   /* 1 overflow, 2 +2, 4 +3, 8 saturated */

struct histo {
    struct wl_simple g;
    uint64_t w, h, ew, half, hw, hh, bins, iters, spread, seed, npix, rmin, rmax;
    uint64_t in, ranges, sm, sub, gh, ov, fin;
    struct hev *ev;
    size_t nev, cap;
};

const struct cfg_key histo_config_keys[] = {
    {"workload.histo.img_width", CFG_INT, "996", 2, 1e6, NULL,
     "image width (Parboil default dataset: 996)"},
    {"workload.histo.img_height", CFG_INT, "1040", 16, 1e6, NULL,
     "image height, a multiple of 16 (default dataset: 1040)"},
    {"workload.histo.histo_width", CFG_INT, "256", 4, 1e5, NULL, "histogram width (bins)"},
    {"workload.histo.histo_height", CFG_INT, "4096", 1, 1e5, NULL, "histogram height (bins)"},
    {"workload.histo.spread", CFG_INT, "2000", 1, 1e8, NULL,
     "half-width/2 of the pixel-value bump around the middle bin (sd ~0.58 x spread)"},
    {"workload.histo.iterations", CFG_INT, "1", 1, 1e6, NULL, "passes of the four kernels"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t hi_pixel(const struct histo *m, uint64_t p)
{
    uint64_t u = wl_mix(m->seed + p);
    if (u % 4096 == 0) return wl_mix(u) % m->bins;
    uint64_t r = wl_mix(u ^ 0x5bd1e995ULL);
    uint64_t s = (r & 0xffff) + (r >> 16 & 0xffff) + (r >> 32 & 0xffff) + (r >> 48);
    int64_t v = (int64_t)(m->bins / 2) - 2 * (int64_t)m->spread + (int64_t)((s * m->spread) >> 16);
    if (v < 0) v = 0;
    if (v >= (int64_t)m->bins) v = (int64_t)m->bins - 1;
    return (uint64_t)v;
}

/* The bin of sm_mappings element e (intermediates' layout). */
static uint64_t hi_elem(const struct histo *m, uint64_t e)
{
    uint64_t l = e / m->w, c = e % m->w;
    uint64_t x = c < m->half ? 2 * c : 2 * (c - m->half) + 1;
    return hi_pixel(m, l * m->w + x);
}

static double hi_input(const struct histo *m, uint64_t a)
{
    uint64_t row = a / m->ew, col = a % m->ew;
    return col < m->w ? (double)hi_pixel(m, row * m->w + col) : 0.0;
}

static void hi_prescan(struct histo *m)
{
    uint64_t stride = m->npix / 64, lo = UINT64_MAX, hi = 0;
    for (uint64_t b = 0; b < 64; b++) {
        double sa = 0, ss = 0;
        bool nan = false;
        for (uint64_t t = 0; t < 512; t++) {
            double sum = 0, sq = 0;
            uint64_t n = 0;
            for (uint64_t a = b * stride + t; a < b * stride + stride / 8; a += 512, n++)
                sum += hi_input(m, a);
            if (!n) { nan = true; break; }
            double avg = sum / (double)n;
            for (uint64_t a = b * stride + t; a < b * stride + stride / 8; a += 512)
                sq += (hi_input(m, a) - avg) * (hi_input(m, a) - avg);
            sa += avg;
            ss += sqrt(sq / (double)n);
        }
        uint64_t mn = 0, mx = 0;
        if (!nan) {
            double avg = sa / 512, sd = ss / 512, l = avg - 10 * sd, u = avg + 10 * sd;
            mn = l <= 0 ? 0 : (uint64_t)l / HB;
            mx = u <= 0 ? 0 : (uint64_t)u / HB;
        }
        if (mn < lo) lo = mn;
        if (mx > hi) hi = mx;
    }
    uint64_t last = (m->bins - 1) / HB;
    m->rmin = lo > last ? last : lo;
    m->rmax = hi > last ? last : hi;
}

static void hi_event(struct histo *m, uint64_t e, uint32_t f)
{
    if (m->nev && m->ev[m->nev - 1].e == e) { m->ev[m->nev - 1].flags |= f; return; }
    if (m->nev == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->ev = xrealloc(m->ev, m->cap * sizeof *m->ev);
    }
    m->ev[m->nev++] = (struct hev){ e, f };
}

static int hev_cmp(const void *a, const void *b)
{
    uint64_t x = ((const struct hev *)a)->e, y = ((const struct hev *)b)->e;
    return x < y ? -1 : x > y;
}

/* Overflow and saturation events (see the header). */
static void hi_simulate(struct histo *m)
{
    uint64_t nr = m->rmax - m->rmin + 1;
    uint32_t *words = xmalloc(nr * (HB / 4) * sizeof *words);
    for (uint64_t bx = 0; bx < HBX; bx++) {
        memset(words, 0, nr * (HB / 4) * sizeof *words);
        for (uint64_t base = bx * HT; base < m->npix; base += HSTEP)
            for (uint64_t e = base; e < base + HT && e < m->npix; e++) {
                uint64_t bin = hi_elem(m, e), r = bin / HB;
                if (r < m->rmin || r > m->rmax) continue;
                uint32_t off = (uint32_t)(bin % 4) * 8;
                uint32_t *wd = &words[(r - m->rmin) * (HB / 4) + (bin % HB) / 4];
                uint32_t prev = *wd;
                *wd = prev + (1u << off);
                if ((prev >> off & 0xff) != 0xff) continue;
                uint32_t f = 1;
                if (off < 16 && (prev >> (off + 8) & 0xff) == 0xff) f |= 2;
                if (off < 8 && (prev >> (off + 16) & 0xff) == 0xff) f |= 4;
                hi_event(m, e, f);
            }
    }
    free(words);
    uint16_t *cnt = xcalloc(m->bins, sizeof *cnt);
    for (uint64_t e = 0; e < m->npix; e++) {
        uint64_t bin = hi_elem(m, e), r = bin / HB;
        if (r >= m->rmin && r <= m->rmax) continue;
        if (cnt[bin] >= 255) hi_event(m, e, 8);
        else cnt[bin]++;
    }
    free(cnt);
    if (m->nev) qsort(m->ev, m->nev, sizeof *m->ev, hev_cmp);
    /* An element is in range or out: never both kinds; merge duplicates. */
    size_t k = 0;
    for (size_t i = 0; i < m->nev; i++) {
        if (k && m->ev[k - 1].e == m->ev[i].e) m->ev[k - 1].flags |= m->ev[i].flags;
        else m->ev[k++] = m->ev[i];
    }
    m->nev = k;
}

static uint32_t hi_flags(const struct histo *m, uint64_t e)
{
    size_t lo = 0, hi = m->nev;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->ev[mid].e < e) lo = mid + 1; else hi = mid;
    }
    return lo < m->nev && m->ev[lo].e == e ? m->ev[lo].flags : 0;
}

static uint64_t hi_ceil(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
/* Iterations of `for (i = from + s; i < to; i += step)` for the smallest s. */
static uint64_t hi_iters(uint64_t from, uint64_t to, uint64_t s, uint64_t step)
{ return from + s < to ? hi_ceil(to - from - s, step) : 0; }

static uint64_t hi_npos(const void *impl, const struct warp_ctx *w)
{
    const struct histo *m = impl;
    uint64_t tx0 = (uint64_t)w->warp * WARP_SIZE, b = w->block;
    switch (w->k->id) {
    case 0: return 2 * hi_ceil(m->npix / 64 / 8, 512) + 6;
    case 1: return 16 * 3;
    case 2: {
        uint64_t bx = b % HBX;
        return 1 + 7 * hi_iters(0, m->npix, bx * HT + tx0, HSTEP) + 1 + 4 * (HB / 4 / HT);
    }
    default: {
        uint64_t s = b * 512 + tx0, low = m->rmin * HB / 4, mid = (m->rmax + 1) * HB / 4;
        return 3 * hi_iters(0, low, s, FSTEP) + 7 * hi_iters(low, mid, s, FSTEP) +
               3 * hi_iters(mid, m->bins / 4, s, FSTEP);
    }
    }
}

static bool hi_op(struct wl_top *op, enum inst_op k, uint32_t size, uint64_t addr)
{ op->op = k; op->size = size; op->addr = addr; return true; }

/* S: this thread's start, S0: its warp's first thread's (loop lengths). */
static bool hi_final(const struct histo *m, uint64_t s, uint64_t s0, uint64_t pos,
                     struct wl_top *op)
{
    uint64_t low = m->rmin * HB / 4, mid = (m->rmax + 1) * HB / 4, top = m->bins / 4;
    uint64_t n1 = hi_iters(0, low, s0, FSTEP), n2 = hi_iters(low, mid, s0, FSTEP);
    uint64_t from = 0, to = low, per = 3;
    if (pos >= 3 * n1) {
        pos -= 3 * n1;
        if (pos < 7 * n2) { from = low; to = mid; per = 7; }
        else { pos -= 7 * n2; from = mid; to = top; }
    }
    uint64_t i = from + s + (pos / per) * FSTEP, q = pos % per;
    if (i >= to) return false;
    if (per == 3) {
        if (q == 0) return hi_op(op, INST_LOAD, 8, m->gh + i * 8);
        if (q == 1) return hi_op(op, INST_STORE, 8, m->gh + i * 8);
        return hi_op(op, INST_STORE, 4, m->fin + i * 4);
    }
    if (q == 0) return hi_op(op, INST_LOAD, 16, m->ov + i * 16);
    if (q == 1) return hi_op(op, INST_STORE, 16, m->ov + i * 16);
    if (q < 6) return hi_op(op, INST_LOAD, 4, m->sub + (i * 4 + q - 2) * 4);
    return hi_op(op, INST_STORE, 4, m->fin + i * 4);
}

static bool hi_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct histo *m = impl;
    uint64_t tx = t->tx, bx = t->bx;
    op->compute = 0;
    switch (w->k->id) {
    case 0: {
        uint64_t stride = m->npix / 64, M = hi_ceil(stride / 8, 512);
        if (pos < 2 * M) {
            uint64_t a = bx * stride + tx + (pos % M) * 512;
            if (a >= bx * stride + stride / 8) return false;
            return hi_op(op, INST_LOAD, 4, m->in + a * 4);
        }
        pos -= 2 * M;
        if (pos < 4) { op->op = INST_BARRIER; return true; }
        if (tx) return false;
        return hi_op(op, INST_ATOMIC, 4, m->ranges + (pos - 4) * 4);
    }
    case 1: {
        uint64_t i = pos / 3, q = pos % 3, line = 16 * bx + i;
        if (q == 0) return hi_op(op, INST_LOAD, 8, m->in + (line * m->half + tx) * 8);
        if (q == 1) return hi_op(op, INST_STORE, 4, m->sm + (line * m->w + tx) * 4);
        if ((m->w % 2) && tx == m->half - 1) return false;
        return hi_op(op, INST_STORE, 4, m->sm + (line * m->w + tx + m->half) * 4);
    }
    case 2: {
        uint64_t by = t->by, J = hi_iters(0, m->npix, bx * HT + tx / WARP_SIZE * WARP_SIZE, HSTEP);
        if (pos == 0 || pos == 1 + 7 * J) { op->op = INST_BARRIER; return true; }
        if (pos > 1 + 7 * J) {
            uint64_t c = pos - 2 - 7 * J, i = tx + (c / 4) * HT;
            uint64_t idx = (m->rmin + by) * HB + i * 4 + c % 4;
            return hi_op(op, INST_ATOMIC, 4, m->sub + idx * 4);
        }
        uint64_t j = (pos - 1) / 7, q = (pos - 1) % 7, e = bx * HT + tx + j * HSTEP;
        if (e >= m->npix) return false;
        if (q == 0) return hi_op(op, INST_LOAD, 4, m->sm + e * 4);
        uint64_t bin = hi_elem(m, e), r = bin / HB;
        uint32_t f = hi_flags(m, e);
        if (q <= 4) {
            if (r != m->rmin + by || !(f & 1)) return false;
            if (q == 2 && bin % 4 >= 3) return false;
            if (q == 3 && !(f & 2)) return false;
            if (q == 4 && !(f & 4)) return false;
            return hi_op(op, INST_ATOMIC, 4, m->ov + (bin + q - 1) * 4);
        }
        if (by != 0 || (r >= m->rmin && r <= m->rmax)) return false;
        if (q == 5) return hi_op(op, INST_LOAD, 4, m->gh + bin / 2 * 4);
        if (f & 8) return false;
        return hi_op(op, INST_ATOMIC, 4, m->gh + bin / 2 * 4);
    }
    default:
        return hi_final(m, bx * 512 + tx, bx * 512 + tx / WARP_SIZE * WARP_SIZE, pos, op);
    }
}

static void *hi_create(struct workload *wl, const struct config *cfg)
{
    struct histo *m = xcalloc(1, sizeof *m);
    m->w = cfg_u64(cfg, "workload.histo.img_width");
    m->h = cfg_u64(cfg, "workload.histo.img_height");
    m->hw = cfg_u64(cfg, "workload.histo.histo_width");
    m->hh = cfg_u64(cfg, "workload.histo.histo_height");
    m->spread = cfg_u64(cfg, "workload.histo.spread");
    m->iters = cfg_u64(cfg, "workload.histo.iterations");
    if (m->h % 16) user_error("workload.histo.img_height must be a multiple of 16");
    if (m->hw % 4) user_error("workload.histo.histo_width must be a multiple of 4");
    if ((m->w + 1) / 2 > 1024)
        user_error("workload.histo.img_width must be at most 2048 (intermediates: (width+1)/2 threads a block)");
    m->seed = wl_mix(cfg_u64(cfg, "sim.seed"));
    m->ew = (m->w + 1) / 2 * 2;
    m->half = (m->w + 1) / 2;
    m->npix = m->w * m->h;
    m->bins = m->hw * m->hh;
    uint64_t cols = m->w > m->hw ? m->w : m->hw, ents = cols * m->hh;
    uint64_t whole = ((m->bins - 1) / HB + 1) * HB;    /* the final kernel's reach */
    if (ents < whole) ents = whole;
    m->in = wl_add_alloc(wl, "input", m->ew * m->h * 4);
    m->ranges = wl_add_alloc(wl, "ranges", 8);
    m->sm = wl_add_alloc(wl, "sm_mappings", m->npix * 4);
    m->sub = wl_add_alloc(wl, "global_subhisto", ents * 4);
    m->gh = wl_add_alloc(wl, "global_histo", ents * 2);
    m->ov = wl_add_alloc(wl, "global_overflow", ents * 4);
    m->fin = wl_add_alloc(wl, "final_histo", ents);
    hi_prescan(m);
    hi_simulate(m);
    m->g.npos = hi_npos;
    m->g.lane = hi_lane;
    struct wl_prog *p = &m->g.prog;
    wl_prog_host(p, WL_STEP_MEMCPY, 0, 0, m->ew * m->h * 4, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_host(p, WL_STEP_MEMCPY, 1, 0, 8, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_kernel(p, "histo_prescan_kernel", 0, (struct dim3){ 64, 1, 1 },
                   (struct dim3){ 512, 1, 1 }, 16, 2 * 512 * 4);
    wl_prog_host(p, WL_STEP_MEMCPY, 1, 0, 8, WL_TO_HOST, WL_ADV_NONE);
    wl_prog_host(p, WL_STEP_MEMCPY, 3, 0, ents * 4, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_kernel(p, "histo_intermediates_kernel", 1, (struct dim3){ (uint32_t)(m->h / 16), 1, 1 },
                   (struct dim3){ (uint32_t)m->half, 1, 1 }, 16, 0);
    wl_prog_kernel(p, "histo_main_kernel", 2,
                   (struct dim3){ HBX, (uint32_t)(m->rmax - m->rmin + 1), 1 },
                   (struct dim3){ HT, 1, 1 }, 20, HB);
    wl_prog_kernel(p, "histo_final_kernel", 3, (struct dim3){ HBX * 3, 1, 1 },
                   (struct dim3){ 512, 1, 1 }, 16, 0);
    wl_prog_loop(p, 1, m->iters);
    wl_prog_host(p, WL_STEP_MEMCPY, 6, 0, m->bins, WL_TO_HOST, WL_ADV_NONE);
    return m;
}

static void hi_destroy(void *impl)
{
    struct histo *m = impl;
    free(m->ev);
    free(m);
}

static const struct workload_ops histo_ops = {
    "histo", hi_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, hi_destroy,
};

const struct wl_info histo_info = {
    &histo_ops, histo_config_keys,
    "Parboil 2.5 histo (cuda): histo_prescan_kernel, histo_intermediates_kernel, "
    "histo_main_kernel, histo_final_kernel x iterations over a seeded synthetic image "
    "(a bump around the middle bin plus 1/4096 uniform outliers); HPE Table II type V (HIS).",
    "4*even_width*img_height + 8 + 4*img_width*img_height + 11*E bytes, E = "
    "max(C*histo_height, bins rounded up to 24576), C = max(img_width, histo_width); touched: input (the prescan samples 1/8), ranges, "
    "sm_mappings, global_subhisto of ranges rmin..rmax, global_histo/final_histo over all "
    "bins, global_overflow of ranges rmin..rmax",
};

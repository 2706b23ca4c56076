/* uvmsim binary traces (docs/trace-format.md): the record codec and the
 * converter from NVBit text.  The converter reads the text twice: pass 1
 * counts each warp's records and bytes (memory: one entry per warp, per
 * kernel and per touched 2 MiB block -- never per record), which fixes
 * every warp's place in the output; pass 2 encodes each line straight to
 * its warp's cursor, so records come out grouped per warp in trace order. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "trace.h"

/* ---- little-endian codec ---- */

static void put(uint8_t *b, uint64_t v, int n) { for (int i = 0; i < n; i++) b[i] = (uint8_t)(v >> (8 * i)); }

size_t trace_encode(const struct warp_inst *in, uint8_t *buf)
{
    size_t n = 0;
    buf[n++] = (uint8_t)(in->op == INST_LOAD ? 1 : in->op == INST_STORE ? 2 : 3);
    buf[n++] = (uint8_t)in->size;
    put(buf + n, in->active, 4);
    n += 4;
    uint64_t prev = 0;
    bool first = true;
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(in->active >> l & 1)) continue;
        if (first) { put(buf + n, in->addr[l], 8); n += 8; first = false; }
        else {
            int64_t d = (int64_t)(in->addr[l] - prev);
            uint64_t z = ((uint64_t)d << 1) ^ (uint64_t)(d >> 63);   /* zigzag */
            do { uint8_t b = z & 0x7f; z >>= 7; buf[n++] = (uint8_t)(b | (z ? 0x80 : 0)); } while (z);
        }
        prev = in->addr[l];
    }
    return n;
}

size_t trace_decode(const uint8_t *buf, size_t n, struct warp_inst *out)
{
    if (n < 6) return 0;
    uint8_t op = buf[0], size = buf[1];
    if (op < 1 || op > 3) return 0;
    if (size != 1 && size != 2 && size != 4 && size != 8 && size != 16) return 0;
    out->op = op == 1 ? INST_LOAD : op == 2 ? INST_STORE : INST_ATOMIC;
    out->size = size;
    out->cycles = 0;
    out->active = (uint32_t)buf[2] | (uint32_t)buf[3] << 8 | (uint32_t)buf[4] << 16 |
                  (uint32_t)buf[5] << 24;
    if (!out->active) return 0;
    size_t p = 6;
    uint64_t prev = 0;
    bool first = true;
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(out->active >> l & 1)) continue;
        if (first) {
            if (p + 8 > n) return 0;
            prev = 0;
            for (int i = 7; i >= 0; i--) prev = prev << 8 | buf[p + i];
            p += 8;
            first = false;
        } else {
            uint64_t z = 0;
            for (int sh = 0;; sh += 7) {
                if (p >= n || sh > 63) return 0;
                uint8_t b = buf[p++];
                z |= (uint64_t)(b & 0x7f) << sh;
                if (!(b & 0x80)) break;
            }
            prev += (uint64_t)((int64_t)(z >> 1) ^ -(int64_t)(z & 1));
        }
        out->addr[l] = prev;
    }
    return p;
}

/* ---- converter ---- */

struct ckern {
    uint64_t id;
    struct nv_launch l;
    bool launched;
    uint32_t max_cta[3], max_warp;
    uint64_t nwarps, first;   /* slice of the sorted warp table */
};

struct cwarp {
    uint32_t kernel;          /* index into kernels (by launch id order) */
    uint32_t cta[3], raw, warp;
    uint64_t block, nrecs, bytes, cursor;
};

struct conv {
    const char *path;
    FILE *in, *own;                   /* the text; OUT when opened here */
    char *line; size_t linecap;       /* getline's buffer */
    struct ckern *k; size_t nk, capk;
    struct cwarp *w; size_t nw, capw;
    uint32_t *hash; size_t hcap;      /* index + 1, open addressing */
    uint64_t *blk; size_t nb, capb;   /* sorted 2 MiB block numbers */
    size_t lastk;
};

static size_t kernel_of(struct conv *c, uint64_t id)
{
    if (c->nk && c->k[c->lastk].id == id) return c->lastk;
    for (size_t i = 0; i < c->nk; i++) if (c->k[i].id == id) return c->lastk = i;
    if (c->nk == c->capk) c->k = xrealloc(c->k, (c->capk = c->capk ? 2 * c->capk : 16) * sizeof *c->k);
    memset(&c->k[c->nk], 0, sizeof *c->k);
    c->k[c->nk].id = id;
    return c->lastk = c->nk++;
}

static uint64_t hkey(uint32_t k, const uint32_t *cta, uint32_t warp)
{
    uint64_t h = k * 0x9e3779b97f4a7c15ULL;
    h = (h ^ cta[0]) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ cta[1]) * 0x94d049bb133111ebULL;
    h = (h ^ cta[2]) * 0x9e3779b97f4a7c15ULL;
    h = (h ^ warp) * 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 31);
}

static void rehash(struct conv *c)
{
    free(c->hash);
    c->hcap = 1024;
    while (c->hcap < 2 * c->nw + 2) c->hcap *= 2;
    c->hash = xcalloc(c->hcap, sizeof *c->hash);
    for (size_t i = 0; i < c->nw; i++) {
        size_t h = hkey(c->w[i].kernel, c->w[i].cta, c->w[i].raw) & (c->hcap - 1);
        while (c->hash[h]) h = (h + 1) & (c->hcap - 1);
        c->hash[h] = (uint32_t)i + 1;
    }
}

static struct cwarp *warp_of(struct conv *c, uint32_t k, const uint32_t *cta, uint32_t raw,
                             bool add)
{
    if (!c->hcap || (add && 2 * (c->nw + 1) > c->hcap)) rehash(c);
    size_t h = hkey(k, cta, raw) & (c->hcap - 1);
    for (; c->hash[h]; h = (h + 1) & (c->hcap - 1)) {
        struct cwarp *w = &c->w[c->hash[h] - 1];
        if (w->kernel == k && w->raw == raw && !memcmp(w->cta, cta, sizeof w->cta)) return w;
    }
    if (!add) return NULL;
    if (c->nw == c->capw) c->w = xrealloc(c->w, (c->capw = c->capw ? 2 * c->capw : 256) * sizeof *c->w);
    struct cwarp *w = &c->w[c->nw];
    memset(w, 0, sizeof *w);
    w->kernel = k;
    memcpy(w->cta, cta, sizeof w->cta);
    w->raw = raw;
    c->hash[h] = (uint32_t)++c->nw;
    return w;
}

static void add_block(struct conv *c, uint64_t b)
{
    size_t lo = 0, hi = c->nb;
    while (lo < hi) { size_t m = (lo + hi) / 2; if (c->blk[m] < b) lo = m + 1; else hi = m; }
    if (lo < c->nb && c->blk[lo] == b) return;
    if (c->nb == c->capb) c->blk = xrealloc(c->blk, (c->capb = c->capb ? 2 * c->capb : 64) * sizeof *c->blk);
    memmove(c->blk + lo + 1, c->blk + lo, (c->nb - lo) * sizeof *c->blk);
    c->blk[lo] = b;
    c->nb++;
}

static int cmp_warp(const void *a, const void *b)
{
    const struct cwarp *x = a, *y = b;
    if (x->kernel != y->kernel) return x->kernel < y->kernel ? -1 : 1;
    if (x->block != y->block) return x->block < y->block ? -1 : 1;
    return (x->raw > y->raw) - (x->raw < y->raw);
}

static int cmp_kernel_id(const void *a, const void *b)
{
    const struct ckern *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

/* Calls FN for every line of the text. */
static void each_line(struct conv *c, void (*fn)(struct conv *, const char *, unsigned long, void *),
                      void *arg)
{
    unsigned long lineno = 0;
    ssize_t n;
    while ((n = getline(&c->line, &c->linecap, c->in)) >= 0) {
        lineno++;
        while (n > 0 && (c->line[n - 1] == '\n' || c->line[n - 1] == '\r')) c->line[--n] = 0;
        fn(c, c->line, lineno, arg);
    }
}

/* Everything the converter holds; also run by user_error on the way out. */
static void conv_free(void *ctx)
{
    struct conv *c = ctx;
    free(c->k); free(c->w); free(c->hash); free(c->blk); free(c->line);
    if (c->in) fclose(c->in);
    if (c->own) fclose(c->own);
    c->k = NULL; c->w = NULL; c->hash = NULL; c->blk = NULL; c->line = NULL;
    c->in = c->own = NULL;
}

static void pass1(struct conv *c, const char *line, unsigned long lineno, void *arg)
{
    (void)arg;
    struct nv_launch l;
    struct nv_mem m;
    enum nv_line t = nv_parse(line, c->path, lineno, &l, &m);
    if (t == NV_LAUNCH) {
        size_t ki = kernel_of(c, l.id);   /* may move c->k */
        struct ckern *k = &c->k[ki];
        if (k->launched) user_error("%s:%lu: second LAUNCH of grid launch id %lu", c->path, lineno,
                                    (unsigned long)l.id);
        k->l = l;
        k->launched = true;
    } else if (t == NV_MEM) {
        uint32_t ki = (uint32_t)kernel_of(c, m.launch);
        struct ckern *k = &c->k[ki];
        for (int i = 0; i < 3; i++) if (m.cta[i] > k->max_cta[i]) k->max_cta[i] = m.cta[i];
        if (m.warp > k->max_warp) k->max_warp = m.warp;
        struct cwarp *w = warp_of(c, ki, m.cta, m.warp, true);
        uint8_t buf[TRACE_MAX_RECORD];
        w->nrecs++;
        w->bytes += trace_encode(&m.in, buf);
        for (int i = 0; i < WARP_SIZE; i++)
            if (m.in.active >> i & 1) {
                add_block(c, m.in.addr[i] / WL_ALLOC_ALIGN);
                add_block(c, (m.in.addr[i] + m.in.size - 1) / WL_ALLOC_ALIGN);
            }
    }
}

static void pwrite_all(int fd, const void *p, size_t n, uint64_t off)
{
    while (n) {
        ssize_t w = pwrite(fd, p, n, (off_t)off);
        if (w <= 0) user_error("cannot write the binary trace: %s", strerror(errno));
        p = (const uint8_t *)p + w;
        n -= (size_t)w;
        off += (uint64_t)w;
    }
}

static void pass2(struct conv *c, const char *line, unsigned long lineno, void *arg)
{
    int fd = *(int *)arg;
    struct nv_launch l;
    struct nv_mem m;
    if (nv_parse(line, c->path, lineno, &l, &m) != NV_MEM) return;
    uint32_t ki = (uint32_t)kernel_of(c, m.launch);
    struct cwarp *w = warp_of(c, ki, m.cta, m.warp, false);
    SIM_ASSERT(w, "trace", 0, "%s:%lu: warp not seen in pass 1", c->path, lineno);
    uint8_t buf[TRACE_MAX_RECORD];
    size_t n = trace_encode(&m.in, buf);
    pwrite_all(fd, buf, n, w->cursor);
    w->cursor += n;
}

/* Ranges: runs of consecutive touched 2 MiB blocks; beyond
 * TRACE_MAX_RANGES, the closest runs merge (the gap becomes allocated but
 * untouched address space). */
static size_t make_ranges(const struct conv *c, uint64_t r[][2])
{
    size_t n = 0;
    for (size_t i = 0; i < c->nb; i++) {
        if (n && r[n - 1][1] == c->blk[i]) { r[n - 1][1]++; continue; }
        if (n == TRACE_MAX_RANGES) {
            size_t best = 1;
            for (size_t j = 1; j < n; j++)
                if (r[j][0] - r[j - 1][1] < r[best][0] - r[best - 1][1]) best = j;
            r[best - 1][1] = r[best][1];
            memmove(r[best], r[best + 1], (n - best - 1) * sizeof r[0]);
            n--;
        }
        r[n][0] = c->blk[i];
        r[n][1] = c->blk[i] + 1;
        n++;
    }
    return n;
}

void wl_trace_convert(const char *in, const char *out_path)
{
    trace_convert(in, NULL, out_path);
}

void trace_convert(const char *in, FILE *out, const char *out_path)
{
    struct conv c = { .path = in };
    c.in = fopen(in, "r");
    if (!c.in) user_error("cannot read trace '%s': %s", in, strerror(errno));
    user_error_push_cleanup(conv_free, &c);
    each_line(&c, pass1, NULL);
    if (!c.nk) user_error("%s: no MEMTRACE lines (not an NVBit mem_trace output)", in);

    /* kernels in launch-id order; grid/block from LAUNCH or inferred */
    uint32_t *kmap = xmalloc(c.nk * sizeof *kmap);
    for (size_t i = 0; i < c.nk; i++) c.k[i].first = i;
    qsort(c.k, c.nk, sizeof *c.k, cmp_kernel_id);
    for (size_t i = 0; i < c.nk; i++) kmap[c.k[i].first] = (uint32_t)i;
    for (size_t i = 0; i < c.nw; i++) c.w[i].kernel = kmap[c.w[i].kernel];
    free(kmap);
    /* A launch with no global accesses has no warps: nothing to sort (and
     * qsort's array must not be NULL, C11 7.22.5). */
    for (size_t i = 0; i < c.nk; i++) {
        struct ckern *k = &c.k[i];
        if (!k->launched) {
            /* Inferred from the largest warp number: at most 32 warps of
             * 32 threads fit a block (1024 threads, nv_parse). */
            if (k->max_warp >= 1024 / WARP_SIZE)
                user_error("%s: grid launch id %lu has no LAUNCH line and a warp %u: a block "
                           "holds at most %d warps", in, (unsigned long)k->id, k->max_warp,
                           1024 / WARP_SIZE);
            snprintf(k->l.name, sizeof k->l.name, "trace_%lu", (unsigned long)k->id);
            k->l.grid = (struct dim3){ k->max_cta[0] + 1, k->max_cta[1] + 1, k->max_cta[2] + 1 };
            k->l.block = (struct dim3){ (k->max_warp + 1) * WARP_SIZE, 1, 1 };
        }
        k->nwarps = 0;
    }
    for (size_t i = 0; i < c.nw; i++) {
        struct cwarp *w = &c.w[i];
        const struct ckern *k = &c.k[w->kernel];
        if (w->cta[0] >= k->l.grid.x || w->cta[1] >= k->l.grid.y || w->cta[2] >= k->l.grid.z)
            user_error("%s: grid launch id %lu: CTA %u,%u,%u outside its grid %u,%u,%u", in,
                       (unsigned long)k->id, w->cta[0], w->cta[1], w->cta[2],
                       k->l.grid.x, k->l.grid.y, k->l.grid.z);
        w->block = w->cta[0] + (uint64_t)k->l.grid.x * (w->cta[1] + (uint64_t)k->l.grid.y * w->cta[2]);
    }
    /* Warp ids: NVBit's is the hardware warp slot; within a CTA the slots
     * ascend with the warp index, so ids that do not fit the block are
     * renumbered by rank. */
    if (c.nw) qsort(c.w, c.nw, sizeof *c.w, cmp_warp);
    for (size_t i = 0, j; i < c.nw; i = j) {
        const struct ckern *k = &c.k[c.w[i].kernel];
        uint64_t thr = (uint64_t)k->l.block.x * k->l.block.y * k->l.block.z;
        uint32_t wpb = (uint32_t)((thr + WARP_SIZE - 1) / WARP_SIZE);
        bool fits = true;
        for (j = i; j < c.nw && c.w[j].kernel == c.w[i].kernel && c.w[j].block == c.w[i].block; j++)
            fits &= c.w[j].raw < wpb;
        if (j - i > wpb)
            user_error("%s: grid launch id %lu: CTA %u,%u,%u has %zu warps, its block %llu", in,
                       (unsigned long)k->id, c.w[i].cta[0], c.w[i].cta[1], c.w[i].cta[2], j - i,
                       (unsigned long long)wpb);
        for (size_t x = i; x < j; x++) c.w[x].warp = fits ? c.w[x].raw : (uint32_t)(x - i);
    }
    rehash(&c);

    uint64_t r[TRACE_MAX_RANGES][2];
    size_t nr = make_ranges(&c, r);
    uint64_t ranges_off = TRACE_HEADER_BYTES, kern_off = ranges_off + 16 * nr;
    uint64_t index_off = kern_off + (uint64_t)TRACE_KERNEL_BYTES * c.nk;
    uint64_t rec_off = index_off + (uint64_t)TRACE_INDEX_BYTES * c.nw, cur = rec_off;
    for (size_t i = 0; i < c.nw; i++) {
        c.w[i].cursor = cur;
        cur += c.w[i].bytes;
        c.k[c.w[i].kernel].nwarps++;
    }
    if (!out) {
        out = c.own = fopen(out_path, "wb");
        if (!out) user_error("cannot write '%s': %s", out_path, strerror(errno));
    }
    int fd = fileno(out);
    uint8_t h[TRACE_HEADER_BYTES] = {0};
    memcpy(h, TRACE_MAGIC, 8);
    put(h + 8, TRACE_VERSION, 4);
    put(h + 12, c.nk, 4);
    put(h + 16, nr, 4);
    put(h + 24, kern_off, 8);
    put(h + 32, ranges_off, 8);
    put(h + 40, rec_off, 8);
    put(h + 48, cur, 8);
    pwrite_all(fd, h, sizeof h, 0);
    for (size_t i = 0; i < nr; i++) {
        uint8_t b[16];
        put(b, r[i][0] * WL_ALLOC_ALIGN, 8);
        put(b + 8, (r[i][1] - r[i][0]) * WL_ALLOC_ALIGN, 8);
        pwrite_all(fd, b, 16, ranges_off + 16 * i);
    }
    uint64_t idx = index_off;
    for (size_t i = 0; i < c.nk; i++) {
        const struct ckern *k = &c.k[i];
        uint8_t b[TRACE_KERNEL_BYTES] = {0};
        memcpy(b, k->l.name, strlen(k->l.name));
        uint32_t v[8] = { k->l.grid.x, k->l.grid.y, k->l.grid.z, k->l.block.x, k->l.block.y,
                          k->l.block.z, k->l.regs, k->l.smem };
        for (int j = 0; j < 8; j++) put(b + 32 + 4 * j, v[j], 4);
        put(b + 64, k->nwarps, 8);
        put(b + 72, idx, 8);
        pwrite_all(fd, b, sizeof b, kern_off + (uint64_t)TRACE_KERNEL_BYTES * i);
        idx += (uint64_t)TRACE_INDEX_BYTES * k->nwarps;
    }
    for (size_t i = 0; i < c.nw; i++) {
        uint8_t b[TRACE_INDEX_BYTES] = {0};
        put(b, c.w[i].block, 8);
        put(b + 8, c.w[i].warp, 4);
        put(b + 16, c.w[i].cursor, 8);
        put(b + 24, c.w[i].nrecs, 8);
        pwrite_all(fd, b, sizeof b, index_off + (uint64_t)TRACE_INDEX_BYTES * i);
    }
    rewind(c.in);
    each_line(&c, pass2, &fd);
    if (ftruncate(fd, (off_t)cur) != 0)
        user_error("cannot size the binary trace: %s", strerror(errno));
    if (c.own) {
        FILE *own = c.own;
        c.own = NULL;
        if (fclose(own) != 0) user_error("cannot write '%s': %s", out_path, strerror(errno));
    }
    user_error_pop_cleanup();
    conv_free(&c);
}

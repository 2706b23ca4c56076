/* workload.kind: trace -- replays a memory trace: uvmsim's binary format
 * (docs/trace-format.md), or an NVBit mem_trace text file, converted first
 * into an anonymous temporary file.  Kernels run in launch order; each warp
 * reads its own records from its cursor (refilling, with pread,
 * into a per-warp 4 KiB window), so host memory is the current kernel's warp
 * index and one window per resident warp, not the trace.  Trace addresses are relocated range by range: each range
 * of touched 2 MiB blocks becomes one allocation, and an address keeps its
 * offset within its range (so its offset within the page and VA block). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "trace.h"
#include "catalog.h"
#include "config/config.h"

const struct cfg_key trace_config_keys[] = {
    {"workload.trace.file", CFG_STRING, "", 0, -1, NULL,
     "trace to replay: uvmsim binary (uvmsim trace convert) or NVBit mem_trace text"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

struct widx { uint64_t block; uint32_t warp; uint64_t off, nrecs; };

/* A resident warp's window on its records (recycled at EXIT). */
#define TRACE_WINDOW 4096
struct twin { uint8_t data[TRACE_WINDOW]; uint64_t start; uint32_t len, next_free; };

struct trace {
    const char *path;         /* for messages */
    char *path_copy;
    FILE *tmp;                /* converted text trace */
    int fd;
    uint64_t size, kern_off, rec_off;
    uint32_t nkernels, nranges, next;
    uint64_t rstart[TRACE_MAX_RANGES], rsize[TRACE_MAX_RANGES], rbase[TRACE_MAX_RANGES];
    struct widx *idx;
    uint64_t nidx;
    struct twin *win;         /* slab of windows; free list index + 1 */
    uint32_t nwin, capwin, freewin;
};

static uint64_t get(const uint8_t *b, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | b[i];
    return v;
}

static void corrupt(const struct trace *t, uint64_t off, const char *what)
{
    user_error("%s: corrupt trace at byte offset %llu: %s", t->path, (unsigned long long)off, what);
}

static void read_at(const struct trace *t, void *buf, size_t n, uint64_t off, const char *what)
{
    if (off > t->size || n > t->size - off) corrupt(t, off, what);
    ssize_t r = pread(t->fd, buf, n, (off_t)off);
    if (r != (ssize_t)n) corrupt(t, off, what);
}

static void open_binary(struct trace *t)
{
    struct stat st;
    if (fstat(t->fd, &st) != 0) user_error("%s: %s", t->path, strerror(errno));
    t->size = (uint64_t)st.st_size;
    uint8_t h[TRACE_HEADER_BYTES];
    if (t->size < TRACE_HEADER_BYTES)
        user_error("%s: truncated trace: %llu bytes, the header alone is %d", t->path,
                   (unsigned long long)t->size, TRACE_HEADER_BYTES);
    read_at(t, h, sizeof h, 0, "header");
    if (get(h + 8, 4) != TRACE_VERSION)
        user_error("%s: trace format version %llu, this uvmsim reads version %d", t->path,
                   (unsigned long long)get(h + 8, 4), TRACE_VERSION);
    t->nkernels = (uint32_t)get(h + 12, 4);
    t->nranges = (uint32_t)get(h + 16, 4);
    t->kern_off = get(h + 24, 8);
    uint64_t ranges_off = get(h + 32, 8);
    t->rec_off = get(h + 40, 8);
    uint64_t want = get(h + 48, 8);
    if (want != t->size)
        user_error("%s: truncated or extended trace: header says %llu bytes, the file has %llu",
                   t->path, (unsigned long long)want, (unsigned long long)t->size);
    if (t->nranges > TRACE_MAX_RANGES) corrupt(t, 16, "more than 8 address ranges");
    if (t->rec_off > t->size || t->kern_off + (uint64_t)TRACE_KERNEL_BYTES * t->nkernels > t->rec_off)
        corrupt(t, 24, "section offsets outside the file");
    for (uint32_t i = 0; i < t->nranges; i++) {
        uint8_t b[16];
        read_at(t, b, 16, ranges_off + 16 * i, "address range");
        t->rstart[i] = get(b, 8);
        t->rsize[i] = get(b + 8, 8);
        /* Compared by last byte: a range may end exactly at 2^64. */
        if (!t->rsize[i] || (i && t->rstart[i] <= t->rstart[i - 1] + (t->rsize[i - 1] - 1)))
            corrupt(t, ranges_off + 16 * i, "address ranges empty, unsorted or overlapping");
        if (t->rsize[i] - 1 > UINT64_MAX - t->rstart[i])
            corrupt(t, ranges_off + 16 * i, "address range past the end of the 64-bit space");
    }
}

/* Checks and opens on a stack copy first: a user error exits with nothing
 * allocated but what the stack still reaches (clean under LeakSanitizer). */
/* Closes what trace_create opened (also on the way out of a user error). */
static void close_loc(void *ctx)
{
    struct trace *t = ctx;
    if (t->tmp) fclose(t->tmp);
    else if (t->fd >= 0) close(t->fd);
    t->tmp = NULL;
    t->fd = -1;
}

static void *trace_create(struct workload *wl, const struct config *cfg)
{
    struct trace loc = { .fd = -1 };
    const char *f = cfg_str(cfg, "workload.trace.file");
    if (!f[0]) user_error("key 'workload.trace.file': needed by workload.kind=trace");
    loc.path = f;
    FILE *in = fopen(f, "rb");
    if (!in) user_error("key 'workload.trace.file': cannot read '%s': %s", f, strerror(errno));
    char magic[8] = {0};
    size_t n = fread(magic, 1, 8, in);
    fclose(in);
    if (n == 8 && !memcmp(magic, TRACE_MAGIC, 8)) {
        loc.fd = open(f, O_RDONLY);
        if (loc.fd < 0) user_error("key 'workload.trace.file': cannot read '%s': %s", f, strerror(errno));
        user_error_push_cleanup(close_loc, &loc);
    } else {
        loc.tmp = tmpfile();
        if (!loc.tmp) user_error("no temporary file for converting '%s': %s", f, strerror(errno));
        user_error_push_cleanup(close_loc, &loc);
        trace_convert(f, loc.tmp, NULL);
        loc.fd = fileno(loc.tmp);
    }
    open_binary(&loc);
    user_error_pop_cleanup();
    struct trace *t = xmalloc(sizeof *t);
    *t = loc;
    t->path = t->path_copy = xstrdup(f);
    for (uint32_t i = 0; i < t->nranges; i++) {
        char name[32];
        snprintf(name, sizeof name, "trace.range%u", i);
        t->rbase[i] = wl_add_alloc(wl, name, t->rsize[i]);
    }
    return t;
}

static bool trace_next_step(void *impl, struct wl_step *out)
{
    struct trace *t = impl;
    if (t->next == t->nkernels) return false;
    uint64_t off = t->kern_off + (uint64_t)TRACE_KERNEL_BYTES * t->next;
    uint8_t b[TRACE_KERNEL_BYTES];
    read_at(t, b, sizeof b, off, "kernel table");
    out->kind = WL_STEP_KERNEL;
    struct wl_kernel *k = &out->kernel;
    memcpy(k->name, b, 31);
    k->name[31] = 0;
    uint32_t v[8];
    for (int i = 0; i < 8; i++) v[i] = (uint32_t)get(b + 32 + 4 * i, 4);
    k->grid = (struct dim3){ v[0], v[1], v[2] };
    k->block = (struct dim3){ v[3], v[4], v[5] };
    if (!v[0] || !v[1] || !v[2] || !v[3] || !v[4] || !v[5] ||
        (uint64_t)v[3] * v[4] * v[5] > 1024)
        corrupt(t, off + 32, "kernel grid or block size");
    /* NVBit reports 0 registers for some kernels; Fermi's compiler default
     * bound is 63, use a moderate 32 then */
    k->regs_per_thread = v[6] ? v[6] : 32;
    k->smem_per_block = v[7];
    k->id = t->next++;
    uint64_t nw = get(b + 64, 8), io = get(b + 72, 8);
    if (io < t->kern_off || io > t->rec_off || nw > (t->rec_off - io) / TRACE_INDEX_BYTES)
        corrupt(t, off + 64, "warp index outside the index section");
    t->idx = xrealloc(t->idx, (nw ? nw : 1) * sizeof *t->idx);
    t->nidx = nw;
    uint64_t wpb = ((uint64_t)v[3] * v[4] * v[5] + WARP_SIZE - 1) / WARP_SIZE;
    uint64_t nb = (uint64_t)v[0] * v[1] * v[2];
    for (uint64_t i = 0; i < nw; i++) {
        uint8_t e[TRACE_INDEX_BYTES];
        uint64_t eo = io + (uint64_t)TRACE_INDEX_BYTES * i;
        read_at(t, e, sizeof e, eo, "warp index");
        struct widx *w = &t->idx[i];
        *w = (struct widx){ get(e, 8), (uint32_t)get(e + 8, 4), get(e + 16, 8), get(e + 24, 8) };
        if (w->block >= nb || w->warp >= wpb || w->off < t->rec_off || w->off > t->size ||
            (i && (w->block < t->idx[i - 1].block ||
                   (w->block == t->idx[i - 1].block && w->warp <= t->idx[i - 1].warp))))
            corrupt(t, eo, "warp index entry");
    }
    return true;
}

/* s[0]: byte offset of the warp's next record; s[1]: records left;
 * s[2]: its window. */
static void trace_warp_start(void *impl, struct warp_ctx *w)
{
    struct trace *t = impl;
    uint64_t lo = 0, hi = t->nidx;
    while (lo < hi) {
        uint64_t m = (lo + hi) / 2;
        const struct widx *x = &t->idx[m];
        if (x->block < w->block || (x->block == w->block && x->warp < w->warp)) lo = m + 1;
        else hi = m;
    }
    w->s[1] = 0;
    if (lo == t->nidx || t->idx[lo].block != w->block || t->idx[lo].warp != w->warp ||
        !t->idx[lo].nrecs)
        return;
    w->s[0] = t->idx[lo].off;
    w->s[1] = t->idx[lo].nrecs;
    uint32_t i;
    if (t->freewin) {
        i = t->freewin - 1;
        t->freewin = t->win[i].next_free;
    } else {
        if (t->nwin == t->capwin) {
            t->capwin = t->capwin ? 2 * t->capwin : 64;
            t->win = xrealloc(t->win, t->capwin * sizeof *t->win);
        }
        i = t->nwin++;
    }
    t->win[i].len = 0;
    t->win[i].start = 0;
    w->s[2] = i;
}

static void trace_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *out)
{
    struct trace *t = impl;
    if (!w->s[1]) { out->op = INST_EXIT; out->active = 0; return; }
    struct twin *b = &t->win[w->s[2]];
    uint64_t off = w->s[0];
    /* refill unless a whole record (or the rest of the file) is in view */
    if (off < b->start || off + TRACE_MAX_RECORD > b->start + b->len) {
        if (off >= b->start && b->start + b->len == t->size && off <= t->size) {
            /* the window already reaches the end of the file */
        } else {
            uint64_t n = t->size > off ? t->size - off : 0;
            if (n > TRACE_WINDOW) n = TRACE_WINDOW;
            if (n && pread(t->fd, b->data, n, (off_t)off) != (ssize_t)n)
                corrupt(t, off, "unreadable record");
            b->start = off;
            b->len = (uint32_t)n;
        }
    }
    size_t used = trace_decode(b->data + (off - b->start), b->start + b->len - off, out);
    if (!used) corrupt(t, off, "bad record (opcode, size, lane mask or address encoding)");
    w->s[0] += used;
    if (--w->s[1] == 0) {           /* last record: the window goes back */
        b->next_free = t->freewin;
        t->freewin = (uint32_t)w->s[2] + 1;
    }
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(out->active >> l & 1)) continue;
        uint64_t a = out->addr[l];
        uint32_t r = 0;
        /* Ranges end at most at 2^64 (open_binary); compared as offsets
         * into the range, nothing wraps. */
        while (r < t->nranges && !(a >= t->rstart[r] && out->size <= t->rsize[r] &&
                                   a - t->rstart[r] <= t->rsize[r] - out->size)) r++;
        if (r == t->nranges) corrupt(t, off, "address outside every range of the header");
        out->addr[l] = t->rbase[r] + (a - t->rstart[r]);
    }
}

static void trace_destroy(void *impl)
{
    struct trace *t = impl;
    if (t->tmp) fclose(t->tmp);
    else close(t->fd);
    free(t->idx);
    free(t->win);
    free(t->path_copy);
    free(t);
}

static const struct workload_ops trace_ops = {
    .name = "trace", .create = trace_create, .next_step = trace_next_step,
    .warp_start = trace_warp_start, .next_inst = trace_next_inst, .destroy = trace_destroy,
};

const struct wl_info trace_info = { &trace_ops, trace_config_keys,
    "memory trace replay: NVBit mem_trace text or uvmsim binary (docs/trace-format.md)",
    "the trace's touched 2 MiB blocks, one allocation per run of blocks (at most 8)" };

/* workload.kind: accelsim -- replays an Accel-Sim SASS trace (docs/accelsim.md):
 * the command list's copies become host steps (H2D memcpy) and its kernels
 * kernel launches, with the trace's grid, blocks and warps.  A warp's
 * global memory instructions are issued with their lane addresses; each
 * run of other instructions between them is one compute instruction of
 * one cycle per instruction (how uvmsim's generators put compute ahead of
 * an access, gen.c); BAR is a block barrier.
 *
 * A kernel's file is read whole when the kernel starts, into a compact
 * per-warp encoding (memory records as in the binary trace, trace_bin.c):
 * host memory holds one kernel's instructions, not the footprint.
 * Allocations: the side file workload.accelsim.allocs, or else the 4 KiB
 * pages the trace touches and copies, merged into at most WL_MAX_ALLOCS
 * runs (a first pass over every kernel). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "accelsim.h"
#include "catalog.h"
#include "config/config.h"
#include "trace.h"

const struct cfg_key accelsim_config_keys[] = {
    {"workload.accelsim.file", CFG_STRING, "", 0, -1, NULL,
     "the trace's command list (kernelslist.g) beside its kernel-N.traceg[.xz] files"},
    {"workload.accelsim.allocs", CFG_STRING, "", 0, -1, NULL,
     "side file of allocations 'NAME 0xBASE BYTES' (empty: the pages the trace touches)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

#define AS_PAGE 4096ULL

struct widx { uint64_t block; uint32_t warp; uint64_t off, end; unsigned long line; };
struct run { uint64_t lo, hi; };   /* page numbers [lo, hi) */

struct as_wl {
    struct as_cmd *cmd;
    size_t ncmd, next;
    char *list;
    uint32_t nr;
    uint64_t rstart[WL_MAX_ALLOCS], rsize[WL_MAX_ALLOCS], rbase[WL_MAX_ALLOCS];
    /* the current kernel */
    struct as_khdr h;
    uint8_t *blob;
    uint64_t blen, bcap;
    struct widx *idx;
    size_t nidx, capidx;
    uint32_t kernels;
    /* first pass (derived allocations) */
    bool collect;
    struct run *runs, *pend;
    size_t nruns, npend;
    struct as_src *src;           /* open while a file is read */
};

/* ---- page runs (first pass) ---- */

/* Ranges arrive in trace order; they gather in `pend` and merge into the
 * sorted, disjoint `runs` a batch at a time (sort, then one linear merge),
 * so a scattered trace costs O(n log n), not a shift per new run. */
#define AS_PEND 65536

static int cmp_run(const void *a, const void *b)
{
    const struct run *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

static void flush_pages(struct as_wl *t)
{
    if (!t->npend) return;
    qsort(t->pend, t->npend, sizeof *t->pend, cmp_run);
    size_t cap = t->nruns + t->npend;
    if (cap * sizeof *t->runs > host_memory_limit() / 4)
        user_error("%s: the trace touches more separate page runs than the host memory holds; "
                   "give workload.accelsim.allocs", t->list);
    struct run *out = xmalloc(cap * sizeof *out);
    size_t n = 0, i = 0, j = 0;
    while (i < t->nruns || j < t->npend) {
        struct run r = j == t->npend || (i < t->nruns && t->runs[i].lo <= t->pend[j].lo)
                     ? t->runs[i++] : t->pend[j++];
        if (n && r.lo <= out[n - 1].hi) {       /* overlapping or adjacent */
            if (r.hi > out[n - 1].hi) out[n - 1].hi = r.hi;
        } else {
            out[n++] = r;
        }
    }
    free(t->runs);
    t->runs = out;
    t->nruns = n;
    t->npend = 0;
}

static void add_pages(struct as_wl *t, uint64_t lo, uint64_t hi)
{
    /* the lanes of one access mostly share their page */
    if (t->npend && t->pend[t->npend - 1].lo == lo && t->pend[t->npend - 1].hi == hi) return;
    if (!t->pend) t->pend = xmalloc(AS_PEND * sizeof *t->pend);
    if (t->npend == AS_PEND) flush_pages(t);
    t->pend[t->npend++] = (struct run){ lo, hi };
}

static void add_bytes(struct as_wl *t, uint64_t addr, uint64_t bytes)
{
    add_pages(t, addr / AS_PAGE, (addr + (bytes - 1)) / AS_PAGE + 1);
}

/* ---- the per-warp encoding ---- */

static void put_byte(struct as_wl *t, const char *path, uint8_t v)
{
    if (t->blen == t->bcap) {
        uint64_t cap = t->bcap ? 2 * t->bcap : 65536;
        if (cap > host_memory_limit() / 2)
            user_error("%s: the kernel's instructions need more than the host memory (%llu bytes)",
                       path, (unsigned long long)host_memory_limit());
        t->blob = xrealloc(t->blob, (size_t)cap);
        t->bcap = cap;
    }
    t->blob[t->blen++] = v;
}

static void put_n(struct as_wl *t, const char *path, uint64_t v, int n)
{ for (int i = 0; i < n; i++) put_byte(t, path, (uint8_t)(v >> (8 * i))); }

static void put_varint(struct as_wl *t, const char *path, uint64_t v)
{
    do { uint8_t b = v & 0x7f; v >>= 7; put_byte(t, path, (uint8_t)(b | (v ? 0x80 : 0))); } while (v);
}

enum { REC_COMPUTE = 'C', REC_BARRIER = 'B', REC_MEM = 'M' };

struct warp_rd {
    bool open;
    uint64_t declared, seen;
    uint64_t pend;                /* compute instructions not yet written */
    uint32_t pend_mask;
    unsigned long line;           /* its "insts =" line */
};

static void flush_compute(struct as_wl *t, const char *path, struct warp_rd *w)
{
    if (!w->pend) return;
    put_byte(t, path, REC_COMPUTE);
    put_varint(t, path, w->pend);
    put_n(t, path, w->pend_mask, 4);
    w->pend = 0;
    w->pend_mask = 0;
}

static void relocate(const struct as_wl *t, const char *path, unsigned long lineno,
                     struct warp_inst *in)
{
    for (int l = 0; l < WARP_SIZE; l++) {
        if (!(in->active >> l & 1)) continue;
        uint64_t a = in->addr[l];
        uint32_t r = 0;
        while (r < t->nr && !(a >= t->rstart[r] && in->size <= t->rsize[r] &&
                              a - t->rstart[r] <= t->rsize[r] - in->size)) r++;
        if (r == t->nr)
            user_error("%s:%lu: lane %d address 0x%llx (%u bytes) outside every allocation of "
                       "workload.accelsim.allocs", path, lineno, l, (unsigned long long)a, in->size);
        in->addr[l] = t->rbase[r] + (a - t->rstart[r]);
    }
}

static void end_warp(struct as_wl *t, const char *path, unsigned long lineno, struct warp_rd *w)
{
    if (!w->open) return;
    if (w->declared == UINT64_MAX)
        user_error("%s:%lu: a warp without 'insts = N'", path, lineno);
    if (w->seen != w->declared)
        user_error("%s:%lu: 'insts = %llu' but the warp has %llu instruction lines (up to line %lu)",
                   path, w->line, (unsigned long long)w->declared, (unsigned long long)w->seen, lineno);
    if (!t->collect) {
        flush_compute(t, path, w);
        t->idx[t->nidx - 1].end = t->blen;
    }
    w->open = false;
}

static int cmp_widx(const void *a, const void *b)
{
    const struct widx *x = a, *y = b;
    if (x->block != y->block) return x->block < y->block ? -1 : 1;
    if (x->warp != y->warp) return x->warp < y->warp ? -1 : 1;
    return 0;
}

static void close_src(void *ctx)
{
    struct as_wl *t = ctx;
    as_src_close(t->src);
    t->src = NULL;
}

static bool starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

/* Reads the grouped kernel trace PATH (post-traces-processing.cpp
 * group_per_block writes it; trace_parser.cc get_next_threadblock_traces
 * reads it): header, then "#BEGIN_TB", "thread block = x,y,z", per warp
 * "warp = N", "insts = N" and its lines, "#END_TB".  collect: only the
 * touched pages; else into the kernel's encoding. */
static void read_kernel(struct as_wl *t, const char *path)
{
    memset(&t->h, 0, sizeof t->h);
    snprintf(t->h.name, sizeof t->h.name, "accelsim_%u", t->kernels);
    t->blen = 0;
    t->nidx = 0;
    t->src = as_src_open(path, t->list);
    user_error_push_cleanup(close_src, t);
    bool header = true, in_tb = false, tb_set = false;
    uint64_t block = 0, wpb = 0;
    struct warp_rd w = {0};
    const char *line;
    unsigned long lineno = 0;
    while ((line = as_src_line(t->src, &lineno))) {
        if (!line[0]) continue;
        if (line[0] == '-') {
            if (!header) user_error("%s:%lu: header line after the first #BEGIN_TB", path, lineno);
            as_parse_header(line, path, lineno, &t->h);
            continue;
        }
        if (line[0] == '#') {
            if (starts(line, "#BEGIN_TB")) {
                if (header) {
                    as_check_header(&t->h, path, lineno);
                    header = false;
                    wpb = ((uint64_t)t->h.block.x * t->h.block.y * t->h.block.z + WARP_SIZE - 1) / WARP_SIZE;
                }
                if (in_tb) user_error("%s:%lu: #BEGIN_TB before the previous block's #END_TB", path, lineno);
                in_tb = true;
                tb_set = false;
            } else if (starts(line, "#END_TB")) {
                if (!in_tb) user_error("%s:%lu: #END_TB without #BEGIN_TB", path, lineno);
                end_warp(t, path, lineno, &w);
                in_tb = false;
            }
            /* other '#' lines ("#traces format = ..."): comments */
            continue;
        }
        if (!in_tb)
            user_error("%s:%lu: %s outside #BEGIN_TB ... #END_TB (a raw, ungrouped trace?)", path,
                       lineno, header ? "instruction before the header's end" : "line");
        if (starts(line, "thread block = ")) {
            /* "thread block = %d,%d,%d" (post-traces-processing.cpp) */
            unsigned long x, y, z;
            char extra;
            if (tb_set) user_error("%s:%lu: second 'thread block' line in one block", path, lineno);
            if (strchr(line, '-') ||
                sscanf(line + 15, "%lu,%lu,%lu%c", &x, &y, &z, &extra) != 3)
                user_error("%s:%lu: bad 'thread block = X,Y,Z'", path, lineno);
            if (x >= t->h.grid.x || y >= t->h.grid.y || z >= t->h.grid.z)
                user_error("%s:%lu: thread block %lu,%lu,%lu outside the grid (%u,%u,%u)", path,
                           lineno, x, y, z, t->h.grid.x, t->h.grid.y, t->h.grid.z);
            block = x + (uint64_t)t->h.grid.x * (y + (uint64_t)t->h.grid.y * z);
            tb_set = true;
            continue;
        }
        if (!tb_set) user_error("%s:%lu: expected 'thread block = X,Y,Z' after #BEGIN_TB", path, lineno);
        if (starts(line, "warp = ")) {
            uint64_t n;
            char *end;
            errno = 0;
            n = strtoull(line + 7, &end, 10);
            if (line[7] < '0' || line[7] > '9' || *end || errno)
                user_error("%s:%lu: bad 'warp = N'", path, lineno);
            if (n >= wpb)
                user_error("%s:%lu: warp %llu: a block of %u,%u,%u threads has %llu warps", path,
                           lineno, (unsigned long long)n, t->h.block.x, t->h.block.y, t->h.block.z,
                           (unsigned long long)wpb);
            end_warp(t, path, lineno, &w);
            w = (struct warp_rd){ .open = true, .declared = UINT64_MAX };
            if (!t->collect) {
                if (t->nidx == t->capidx) {
                    if ((t->capidx + 1) * sizeof *t->idx > host_memory_limit() / 4)
                        user_error("%s:%lu: more warps than the host memory holds", path, lineno);
                    t->idx = xrealloc(t->idx, (t->capidx = t->capidx ? 2 * t->capidx : 256) * sizeof *t->idx);
                }
                t->idx[t->nidx++] = (struct widx){ block, (uint32_t)n, t->blen, t->blen, lineno };
            }
            continue;
        }
        if (!w.open) user_error("%s:%lu: expected 'warp = N'", path, lineno);
        if (starts(line, "insts = ")) {
            char *end;
            errno = 0;
            uint64_t n = strtoull(line + 8, &end, 10);
            if (line[8] < '0' || line[8] > '9' || *end || errno)
                user_error("%s:%lu: bad 'insts = N'", path, lineno);
            if (w.declared != UINT64_MAX || w.seen)
                user_error("%s:%lu: 'insts = N' not right after 'warp = N'", path, lineno);
            w.declared = n;
            w.line = lineno;
            continue;
        }
        if (w.declared == UINT64_MAX) user_error("%s:%lu: expected 'insts = N'", path, lineno);
        struct as_inst in;
        as_parse_inst(line, &t->h, path, lineno, &in);
        w.seen++;
        if (t->collect) {
            if (in.kind == AS_MEM)
                for (int l = 0; l < WARP_SIZE; l++)
                    if (in.in.active >> l & 1) add_bytes(t, in.in.addr[l], in.in.size);
            continue;
        }
        switch (in.kind) {
        case AS_COMPUTE:
            w.pend++;
            w.pend_mask |= in.mask;
            if (w.pend == UINT32_MAX) flush_compute(t, path, &w);
            break;
        case AS_EXIT:
            break;
        case AS_BARRIER:
            flush_compute(t, path, &w);
            put_byte(t, path, REC_BARRIER);
            put_n(t, path, in.mask, 4);
            break;
        case AS_MEM: {
            flush_compute(t, path, &w);
            relocate(t, path, lineno, &in.in);
            uint8_t buf[TRACE_MAX_RECORD];
            size_t n = trace_encode(&in.in, buf);
            put_byte(t, path, REC_MEM);
            put_byte(t, path, (uint8_t)in.in.flags);
            for (size_t i = 0; i < n; i++) put_byte(t, path, buf[i]);
            break;
        }
        }
    }
    if (in_tb) user_error("%s:%lu: truncated: #BEGIN_TB without #END_TB", path, lineno);
    if (header) as_check_header(&t->h, path, lineno);
    user_error_pop_cleanup();
    as_src_close(t->src);
    t->src = NULL;
    if (!t->collect && t->nidx) {
        qsort(t->idx, t->nidx, sizeof *t->idx, cmp_widx);
        for (size_t i = 1; i < t->nidx; i++)
            if (!cmp_widx(&t->idx[i - 1], &t->idx[i]))
                user_error("%s:%lu: block %llu warp %u appears twice (also line %lu)", path,
                           t->idx[i].line > t->idx[i - 1].line ? t->idx[i].line : t->idx[i - 1].line,
                           (unsigned long long)t->idx[i].block, t->idx[i].warp,
                           t->idx[i].line > t->idx[i - 1].line ? t->idx[i - 1].line : t->idx[i].line);
    }
}

/* ---- allocations ---- */

struct gap { uint64_t size; size_t at; };

static int cmp_gap(const void *a, const void *b)
{
    const struct gap *x = a, *y = b;
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    return (x->at > y->at) - (x->at < y->at);
}

static int cmp_size_t(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* The touched page runs, merged across their smallest gaps into at most
 * WL_MAX_ALLOCS allocations (the gap becomes allocated, untouched space). */
static void derive_allocs(struct as_wl *t, struct workload *wl)
{
    t->collect = true;
    for (size_t i = 0; i < t->ncmd; i++) {
        if (t->cmd[i].kind == AS_CMD_MEMCPY) add_bytes(t, t->cmd[i].addr, t->cmd[i].bytes);
        else read_kernel(t, t->cmd[i].path);
        t->kernels++;
    }
    flush_pages(t);
    free(t->pend);
    t->pend = NULL;
    t->kernels = 0;
    t->collect = false;
    if (!t->nruns) return;
    size_t keep = t->nruns < WL_MAX_ALLOCS ? t->nruns : WL_MAX_ALLOCS;
    /* cut at the keep - 1 largest gaps (ties: the lower address) */
    struct gap *g = xmalloc((t->nruns > 1 ? t->nruns - 1 : 1) * sizeof *g);
    size_t *cut = xmalloc(keep * sizeof *cut);
    for (size_t i = 1; i < t->nruns; i++) g[i - 1] = (struct gap){ t->runs[i].lo - t->runs[i - 1].hi, i };
    if (t->nruns > 1) qsort(g, t->nruns - 1, sizeof *g, cmp_gap);
    for (size_t i = 0; i + 1 < keep; i++) cut[i] = g[i].at;
    if (keep > 1) qsort(cut, keep - 1, sizeof *cut, cmp_size_t);
    cut[keep - 1] = t->nruns;
    size_t from = 0;
    for (size_t i = 0; i < keep; i++) {
        uint64_t lo = t->runs[from].lo, hi = t->runs[cut[i] - 1].hi;
        /* hi may be 2^52: the last page of the 64-bit space */
        if (hi - lo >= (1ULL << 52))
            user_error("%s: the trace's addresses span the whole 64-bit space; give "
                       "workload.accelsim.allocs", t->list);
        t->rstart[i] = lo * AS_PAGE;
        t->rsize[i] = (hi - lo) * AS_PAGE;
        char name[32];
        snprintf(name, sizeof name, "accelsim.range%zu", i);
        t->rbase[i] = wl_add_alloc(wl, name, t->rsize[i]);
        from = cut[i];
    }
    t->nr = (uint32_t)keep;
    free(g);
    free(cut);
    free(t->runs);
    t->runs = NULL;
    t->nruns = 0;
}

/* Side file (written by `uvmsim trace export`): "NAME 0xBASE BYTES" per
 * line, '#' comments; ranges disjoint. */
static void read_allocs(struct as_wl *t, struct workload *wl, const char *path)
{
    t->src = as_src_open(path, "key 'workload.accelsim.allocs'");
    user_error_push_cleanup(close_src, t);
    const char *line;
    unsigned long lineno;
    char names[WL_MAX_ALLOCS][32];
    while ((line = as_src_line(t->src, &lineno))) {
        while (*line == ' ' || *line == '\t') line++;
        if (!line[0] || line[0] == '#') continue;
        char name[64], sb[64], ss[64], extra;
        unsigned long long base = 0, size = 0;
        char *e1 = NULL, *e2 = NULL;
        int nf = sscanf(line, "%63s %63s %63s %c", name, sb, ss, &extra);
        if (nf == 3 && (sb[0] == '0' && (sb[1] == 'x' || sb[1] == 'X')) && isxdigit((unsigned char)sb[2]) &&
            isdigit((unsigned char)ss[0])) {
            errno = 0;
            base = strtoull(sb + 2, &e1, 16);
            size = strtoull(ss, &e2, 10);
        }
        if (nf != 3 || !e1 || *e1 || *e2 || errno || strlen(name) > 31)
            user_error("%s:%lu: expected 'NAME 0xBASE BYTES' (a name of at most 31 characters)",
                       path, lineno);
        if (!size) user_error("%s:%lu: allocation '%s' of 0 bytes", path, lineno, name);
        if (base > UINT64_MAX - (size - 1))
            user_error("%s:%lu: allocation '%s' passes the end of the 64-bit space", path, lineno, name);
        if (t->nr == WL_MAX_ALLOCS)
            user_error("%s:%lu: more than %d allocations", path, lineno, WL_MAX_ALLOCS);
        for (uint32_t i = 0; i < t->nr; i++)
            if (base <= t->rstart[i] + (t->rsize[i] - 1) && t->rstart[i] <= base + (size - 1))
                user_error("%s:%lu: allocation '%s' overlaps '%s'", path, lineno, name, names[i]);
        memcpy(names[t->nr], name, strlen(name) + 1);   /* at most 31 + NUL, checked */
        t->rstart[t->nr] = base;
        t->rsize[t->nr] = size;
        t->nr++;
    }
    if (!t->nr) user_error("%s: no allocations", path);
    user_error_pop_cleanup();
    as_src_close(t->src);
    t->src = NULL;
    for (uint32_t i = 0; i < t->nr; i++) t->rbase[i] = wl_add_alloc(wl, names[i], t->rsize[i]);
}

/* ---- workload ops ---- */

static void as_free(struct as_wl *t)
{
    as_src_close(t->src);
    as_cmds_free(t->cmd, t->ncmd);
    free(t->list);
    free(t->blob);
    free(t->idx);
    free(t->runs);
    free(t->pend);
    free(t);
}

static void create_cleanup(void *ctx) { as_free(ctx); }

static void *accelsim_create(struct workload *wl, const struct config *cfg)
{
    const char *f = cfg_str(cfg, "workload.accelsim.file");
    if (!f[0]) user_error("key 'workload.accelsim.file': needed by workload.kind=accelsim");
    struct as_wl *t = xcalloc(1, sizeof *t);
    user_error_push_cleanup(create_cleanup, t);
    t->list = xstrdup(f);
    t->cmd = as_read_list(f, &t->ncmd);
    const char *al = cfg_str(cfg, "workload.accelsim.allocs");
    if (al[0]) read_allocs(t, wl, al);
    else derive_allocs(t, wl);
    /* copies resolve now: an error names the list's line before the run */
    for (size_t i = 0; i < t->ncmd; i++) {
        struct as_cmd *c = &t->cmd[i];
        if (c->kind != AS_CMD_MEMCPY) continue;
        uint32_t r = 0;
        while (r < t->nr && !(c->addr >= t->rstart[r] && c->bytes <= t->rsize[r] &&
                              c->addr - t->rstart[r] <= t->rsize[r] - c->bytes)) r++;
        if (r == t->nr)
            user_error("%s:%lu: %s 0x%llx,%llu not inside one allocation", f, c->lineno,
                       c->to_host ? "MemcpyDtoH" : "MemcpyHtoD",
                       (unsigned long long)c->addr, (unsigned long long)c->bytes);
        c->alloc = r;
        c->offset = c->addr - t->rstart[r];
    }
    user_error_pop_cleanup();
    return t;
}

static bool accelsim_next_step(void *impl, struct wl_step *out)
{
    struct as_wl *t = impl;
    if (t->next == t->ncmd) return false;
    const struct as_cmd *c = &t->cmd[t->next++];
    if (c->kind == AS_CMD_MEMCPY) {
        out->kind = WL_STEP_MEMCPY;
        out->host = (struct wl_host_step){ .alloc = c->alloc, .offset = c->offset,
                                           .bytes = c->bytes,
                                           .dir = c->to_host ? WL_TO_HOST : WL_TO_GPU };
        return true;
    }
    read_kernel(t, c->path);
    out->kind = WL_STEP_KERNEL;
    struct wl_kernel *k = &out->kernel;
    memcpy(k->name, t->h.name, sizeof k->name);
    k->grid = t->h.grid;
    k->block = t->h.block;
    k->regs_per_thread = t->h.nregs;
    k->smem_per_block = t->h.shmem;
    k->id = t->kernels++;
    return true;
}

/* s[0]: offset of the warp's next record in the blob; s[1]: its end. */
static void accelsim_warp_start(void *impl, struct warp_ctx *w)
{
    struct as_wl *t = impl;
    size_t lo = 0, hi = t->nidx;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        const struct widx *x = &t->idx[m];
        if (x->block < w->block || (x->block == w->block && x->warp < w->warp)) lo = m + 1;
        else hi = m;
    }
    w->s[0] = w->s[1] = 0;
    if (lo < t->nidx && t->idx[lo].block == w->block && t->idx[lo].warp == w->warp) {
        w->s[0] = t->idx[lo].off;
        w->s[1] = t->idx[lo].end;
    }
}

static uint32_t get32(const uint8_t *b)
{ return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24; }

/* The blob is ours (read_kernel wrote it): a bad record is a bug. */
static void accelsim_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *out)
{
    struct as_wl *t = impl;
    if (w->s[0] >= w->s[1]) { out->op = INST_EXIT; out->active = 0; return; }
    const uint8_t *p = t->blob + w->s[0];
    const uint8_t *end = t->blob + w->s[1];
    switch (*p++) {
    case REC_COMPUTE: {
        uint64_t v = 0;
        for (int sh = 0;; sh += 7) { uint8_t b = *p++; v |= (uint64_t)(b & 0x7f) << sh; if (!(b & 0x80)) break; }
        out->op = INST_COMPUTE;
        out->cycles = (uint32_t)v;
        out->active = get32(p);
        p += 4;
        break;
    }
    case REC_BARRIER:
        out->op = INST_BARRIER;
        out->active = get32(p);
        p += 4;
        break;
    case REC_MEM: {
        uint32_t flags = *p++;
        size_t n = trace_decode(p, (size_t)(end - p), out);
        SIM_ASSERT(n, "accelsim", 0, "bad record in kernel %s", t->h.name);
        out->flags = flags;
        p += n;
        break;
    }
    default:
        SIM_ASSERT(0, "accelsim", 0, "bad record tag in kernel %s", t->h.name);
    }
    w->s[0] = (uint64_t)(p - t->blob);
}

static void accelsim_destroy(void *impl) { as_free(impl); }

static const struct workload_ops accelsim_ops = {
    .name = "accelsim", .create = accelsim_create, .next_step = accelsim_next_step,
    .warp_start = accelsim_warp_start, .next_inst = accelsim_next_inst,
    .destroy = accelsim_destroy,
};

const struct wl_info accelsim_info = { &accelsim_ops, accelsim_config_keys,
    "Accel-Sim SASS trace replay: kernelslist.g and kernel-N.traceg[.xz] of accel-sim-framework's "
    "NVBit tracer (docs/accelsim.md)",
    "workload.accelsim.allocs, or the trace's touched 4 KiB pages and copies, merged into at most "
    "32 allocations" };

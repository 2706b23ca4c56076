/* Chrome trace-event JSON (the format of chrome://tracing and
 * ui.perfetto.dev, "Trace Event Format", Google, 2016: X complete events,
 * i instants, C counters, s/t/f flow events, M metadata) and the
 * stepper's observer.  Events are written as they happen, one per line,
 * into a stdio buffer: the window [t0, t1) bounds the file, and nothing of
 * the run is kept in memory but one state per warp (for its slices) and
 * the fault flows still open.  Times are microseconds with picosecond
 * precision (six decimals). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "trace.h"
#include "config/config.h"
#include "core/stats.h"
#include "core/text.h"

unsigned trace_mask;

/* Processes (one per component group) and their threads (tracks). */
enum { P_SM = 1, P_TLB, P_GMMU, P_DRV, P_H2D, P_D2H, P_DRAM, P_HOST };
#define OBS_BITS (TW_FAULTS | TW_BATCHES | TW_EVICT | TW_SHOOTDOWN | TW_KERNELS)

struct wst { uint8_t st; sim_time since, until; };
struct flow { uint64_t vpn, id; bool stepped; };

static struct {
    FILE *f;
    bool first, closed_window, atexit_set;
    sim_time t0, t1, last;
    unsigned what;
    trace_observer obs;
    void *obs_ctx;
    struct wst *w;
    unsigned nsms, maxw;
    struct flow *map;          /* open addressing, linear probing; vpn+1 as key */
    size_t cap, n;
    uint64_t next_flow, nbatch;
    bool batch_open;            /* a batch began and has not ended */
    sim_time batch_start, batch_handling_end;
    size_t batch_faults, batch_pages, batch_blocks;
    const uint64_t *h2d, *d2h;
    uint64_t last_h2d, last_d2h;
    sim_time last_sample;
    uint64_t max_bytes, checks;  /* the size cap (0: none) and its check counter */
    char *path;                 /* for the message and the removal of a failed file */
    bool regular;               /* a regular file (removed when a write fails) */
    struct trace_summary sum;
} T;

static void set_mask(void)
{
    trace_mask = (T.f ? T.what : 0) | (T.obs ? OBS_BITS : 0);
}

static const struct { const char *name; unsigned bit; } whats[] = {
    {"warps", TW_WARPS}, {"faults", TW_FAULTS}, {"batches", TW_BATCHES}, {"dma", TW_DMA},
    {"evictions", TW_EVICT}, {"shootdowns", TW_SHOOTDOWN}, {"counters", TW_COUNTERS},
    {"kernels", TW_KERNELS}, {"walks", TW_WALKS}, {"dram", TW_DRAM}, {"all", TW_ALL},
};

unsigned trace_parse_what(const char *s, const char **bad, size_t *badlen)
{
    unsigned m = 0;
    while (*s) {
        size_t n = strcspn(s, ",");
        bool found = false;
        for (size_t i = 0; i < sizeof whats / sizeof whats[0]; i++)
            if (strlen(whats[i].name) == n && !strncmp(whats[i].name, s, n)) {
                m |= whats[i].bit;
                found = true;
            }
        if (!found) { *bad = s; *badlen = n; return 0; }
        s += n;
        if (*s == ',') s++;
    }
    if (!m) { *bad = s; *badlen = 0; }
    return m;
}

/* ---- JSON ---- */

static void ts(FILE *f, sim_time ps)
{
    fprintf(f, "%llu.%06llu", (unsigned long long)(ps / PS_PER_US),
            (unsigned long long)(ps % PS_PER_US));
}

static void begin(void)
{
    fputs(T.first ? "\n" : ",\n", T.f);
    T.first = false;
    T.sum.events++;
}

static void args(const char *fmt, va_list ap)
{
    if (!fmt) return;
    fputs(",\"args\":{", T.f);
    vfprintf(T.f, fmt, ap);
    fputc('}', T.f);
}

static void slice(int pid, unsigned tid, const char *name, const char *cat, sim_time a,
                  sim_time b, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
static void slice(int pid, unsigned tid, const char *name, const char *cat, sim_time a,
                  sim_time b, const char *fmt, ...)
{
    /* Clipped to the window. */
    if (a < T.t0) a = T.t0;
    if (b > T.t1) b = T.t1;
    if (b < a) return;
    begin();
    fprintf(T.f, "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":", name, cat);
    ts(T.f, a);
    fputs(",\"dur\":", T.f);
    ts(T.f, b - a);
    fprintf(T.f, ",\"pid\":%d,\"tid\":%u", pid, tid);
    va_list ap;
    va_start(ap, fmt);
    args(fmt, ap);
    va_end(ap);
    fputc('}', T.f);
}

static void instant(int pid, unsigned tid, const char *name, const char *cat, sim_time t,
                    const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void instant(int pid, unsigned tid, const char *name, const char *cat, sim_time t,
                    const char *fmt, ...)
{
    begin();
    fprintf(T.f, "{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"i\",\"s\":\"t\",\"ts\":", name, cat);
    ts(T.f, t);
    fprintf(T.f, ",\"pid\":%d,\"tid\":%u", pid, tid);
    va_list ap;
    va_start(ap, fmt);
    args(fmt, ap);
    va_end(ap);
    fputc('}', T.f);
}

static void counter(int pid, const char *name, const char *key, double v, sim_time t)
{
    begin();
    fprintf(T.f, "{\"name\":\"%s\",\"cat\":\"counters\",\"ph\":\"C\",\"ts\":", name);
    ts(T.f, t);
    fprintf(T.f, ",\"pid\":%d,\"args\":{\"%s\":%.6g}}", pid, key, v);
}

/* Flow events bind to the slice enclosing them on their track ("bp":"e"). */
static void flow(char ph, uint64_t id, int pid, unsigned tid, sim_time t)
{
    begin();
    fprintf(T.f, "{\"name\":\"fault\",\"cat\":\"faults\",\"ph\":\"%c\",\"id\":%llu,\"ts\":",
            ph, (unsigned long long)id);
    ts(T.f, t);
    fprintf(T.f, ",\"pid\":%d,\"tid\":%u%s}", pid, tid, ph == 's' ? "" : ",\"bp\":\"e\"");
}

static void meta(int pid, int tid, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void meta(int pid, int tid, const char *what, const char *fmt, ...)
{
    begin();
    fprintf(T.f, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d", what, pid);
    if (tid >= 0) fprintf(T.f, ",\"tid\":%d", tid);
    fputs(",\"args\":{\"name\":\"", T.f);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(T.f, fmt, ap);
    va_end(ap);
    fputs("\"}}", T.f);
}

static void trace_sample_stats(const struct stats *st);

/* ---- the window ---- */

/* A write of the trace failed (a full disk, /dev/full, a quota): the file
 * is incomplete, so it must not stay behind looking like a trace.  One
 * line names it; the writer stops (its hooks off) and `run` exits 1, as
 * when the result cannot be written (cmd_run.c write_failed). */
static void write_failed(int e)
{
    if (T.f) fclose(T.f);
    T.f = NULL;
    T.sum.write_error = e ? e : EIO;
    if (T.regular && T.path) unlink(T.path);
    char line[1200], esc[2400];
    snprintf(line, sizeof line, "cannot write the trace '%s': %s%s", T.path ? T.path : "?",
             strerror(T.sum.write_error), T.regular ? "; it is removed" : "");
    text_escape(esc, sizeof esc, line);
    fprintf(stderr, "uvmsim: %s\n", esc);
    set_mask();
}

static void flush_warps(sim_time end);
static void open_batch(sim_time end);
static void finish_file(sim_time end)
{
    flush_warps(end);
    open_batch(end);
    /* "otherData": the format's place for what describes the trace. */
    fprintf(T.f, "\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"uvmsim %s\","
            "\"truncated\":%s", UVMSIM_VERSION, T.sum.truncated ? "true" : "false");
    if (T.sum.truncated) {
        fputs(",\"truncated_at_us\":", T.f);
        ts(T.f, T.sum.truncated_at);
        fprintf(T.f, ",\"max_bytes\":%" PRIu64, T.max_bytes);
    }
    fputs("}}\n", T.f);
    off_t n = ftello(T.f);
    if (n > 0) T.sum.bytes = (uint64_t)n;
    errno = 0;
    bool bad = fflush(T.f) != 0 || ferror(T.f);
    int e = errno;
    if (fclose(T.f) != 0 && !bad) { bad = true; e = errno; }
    T.f = NULL;
    if (bad) write_failed(e);
    set_mask();
}

/* The size cap (--trace-max): the file's length is asked every 256
 * events (ftello, no syscall per event), so the file ends within a few
 * hundred events past the cap.  Reached, a last instant marks the cut,
 * the file is closed as at the end of a window (valid JSON, its
 * otherData saying truncated) and a warning names the time. */
static bool capped(sim_time now)
{
    if (++T.checks & 255) return false;
    /* A failed write shows in the stream's error flag: checked as often. */
    if (ferror(T.f)) {
        errno = 0;                  /* the reason: the buffer's flush fails again */
        fflush(T.f);
        write_failed(errno);
        return true;
    }
    if (!T.max_bytes) return false;
    off_t n = ftello(T.f);
    if (n < 0 || (uint64_t)n < T.max_bytes) return false;
    T.sum.truncated = true;
    T.sum.truncated_at = now;
    begin();
    fputs("{\"name\":\"trace truncated (--trace-max)\",\"cat\":\"trace\",\"ph\":\"i\",\"s\":\"g\",\"ts\":", T.f);
    ts(T.f, now);
    fprintf(T.f, ",\"pid\":%d,\"tid\":0}", P_DRV);
    char tb[TIME_STR_MAX];
    fprintf(stderr, "uvmsim: warning: the trace reached --trace-max (%g MiB) at t=%s: "
            "it stops there (closed, valid JSON; a larger --trace-max, 0 for none, or a "
            "--trace-window keeps more)\n", (double)T.max_bytes / (1 << 20), time_str(tb, now));
    finish_file(now);
    return true;
}

/* Whether `bit` is recorded at `now`; past the window (or the size cap)
 * the file is closed and the writer's hooks are turned off. */
static bool rec(unsigned bit, sim_time now)
{
    if (!T.f || !(T.what & bit)) return false;
    if (now > T.last) T.last = now;
    if (now >= T.t1) { finish_file(T.t1); return false; }
    if (capped(now)) return false;
    return now >= T.t0;
}

int trace_open(const char *path, sim_time t0, sim_time t1, unsigned what)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    T.f = f;
    struct stat st;
    T.regular = fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
    free(T.path);
    T.path = xstrdup(path);
    T.first = true;
    T.t0 = t0;
    T.t1 = t1;
    T.what = what;
    T.last = 0;
    T.max_bytes = 0;
    T.checks = 0;
    T.sum = (struct trace_summary){0};
    fputs("{\"traceEvents\":[", f);
    meta(P_SM, -1, "process_name", "SMs");
    meta(P_TLB, -1, "process_name", "TLBs");
    meta(P_GMMU, -1, "process_name", "GMMU");
    meta(P_DRV, -1, "process_name", "driver");
    meta(P_H2D, -1, "process_name", "link H2D");
    meta(P_D2H, -1, "process_name", "link D2H");
    meta(P_DRAM, -1, "process_name", "GPU memory channels");
    meta(P_HOST, -1, "process_name", "host memory channels");
    for (int p = P_SM; p <= P_HOST; p++) {
        begin();
        fprintf(f, "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%d,\"args\":{\"sort_index\":%d}}",
                p, p);
    }
    meta(P_SM, 0, "thread_name", "kernels");
    meta(P_TLB, 0, "thread_name", "shootdowns");
    meta(P_GMMU, 0, "thread_name", "fault buffer");
    meta(P_DRV, 0, "thread_name", "driver thread");
    if (!T.atexit_set) { atexit(trace_close); T.atexit_set = true; }
    set_mask();
    return 0;
}

void trace_set_max(uint64_t bytes) { T.max_bytes = bytes; }

void trace_get_summary(struct trace_summary *out) { *out = T.sum; }

void trace_machine(const struct config *cfg, const struct stats *st)
{
    unsigned nsms = (unsigned)cfg_u64(cfg, "gpu.sms");
    trace_sample_stats(st);
    T.nsms = nsms;
    T.maxw = (unsigned)cfg_u64(cfg, "gpu.sm.max_warps");
    free(T.w);
    T.w = xcalloc((size_t)nsms * T.maxw, sizeof *T.w);
    if (!T.f) return;
    for (unsigned s = 0; s < nsms; s++)
        for (unsigned w = 0; w < T.maxw; w++)
            meta(P_SM, (int)(1 + s * T.maxw + w), "thread_name", "SM %u warp %u", s, w);
    unsigned walkers = (unsigned)cfg_u64(cfg, "gmmu.walker.threads");
    for (unsigned i = 0; i < walkers; i++) meta(P_GMMU, (int)(1 + i), "thread_name", "walker %u", i);
    unsigned nch = (unsigned)cfg_u64(cfg, "dram.channels"), nhost = (unsigned)cfg_u64(cfg, "host.dram.channels");
    for (unsigned i = 0; i < nch; i++) meta(P_DRAM, (int)(1 + i), "thread_name", "channel %u", i);
    for (unsigned i = 0; i < nhost; i++) meta(P_HOST, (int)(1 + i), "thread_name", "channel %u", i);
    unsigned nce = (unsigned)cfg_u64(cfg, "link.copy_engines");
    for (unsigned i = 0; i < nce; i++) {
        meta(P_H2D, (int)(1 + i), "thread_name", "copy engine %u", i);
        meta(P_D2H, (int)(1 + i), "thread_name", "copy engine %u", i);
    }
}

static void trace_sample_stats(const struct stats *st)
{
    const struct stat_entry *a = stats_find(st, "link.h2d.bytes"), *b = stats_find(st, "link.d2h.bytes");
    T.h2d = a && a->kind == STAT_COUNTER ? a->p.u : NULL;
    T.d2h = b && b->kind == STAT_COUNTER ? b->p.u : NULL;
    T.last_h2d = T.last_d2h = 0;
    T.last_sample = 0;
}

void trace_close(void)
{
    if (T.f) finish_file(T.last < T.t1 ? T.last : T.t1);
    free(T.path);
    T.path = NULL;
    free(T.w);
    free(T.map);
    T.w = NULL;
    T.map = NULL;
    T.cap = T.n = 0;
    T.h2d = T.d2h = NULL;
    set_mask();
}

void trace_observe(trace_observer fn, void *ctx)
{
    /* The stepper's restart observes a new machine: its batches count from 1. */
    if (fn && !T.f) { T.nbatch = 0; T.batch_open = false; }
    T.obs = fn;
    T.obs_ctx = ctx;
    set_mask();
}

static void observe(enum trace_ev ev, sim_time now, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void observe(enum trace_ev ev, sim_time now, const char *fmt, ...)
{
    if (!T.obs) return;
    char buf[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    T.obs(T.obs_ctx, ev, buf, now);
}

/* ---- fault flows: one per page from its faulting walk to its replay ---- */

static struct flow *flow_find(uint64_t vpn)
{
    if (!T.cap) return NULL;
    for (size_t i = (vpn * 0x9e3779b97f4a7c15ULL) >> 40 & (T.cap - 1);; i = (i + 1) & (T.cap - 1)) {
        if (!T.map[i].vpn) return NULL;
        if (T.map[i].vpn == vpn + 1) return &T.map[i];
    }
}

static struct flow *flow_add(uint64_t vpn)
{
    if (2 * (T.n + 1) > T.cap) {
        size_t old = T.cap;
        struct flow *m = T.map;
        T.cap = old ? 2 * old : 1024;
        T.map = xcalloc(T.cap, sizeof *T.map);
        T.n = 0;
        for (size_t i = 0; i < old; i++)
            if (m[i].vpn) { *flow_add(m[i].vpn - 1) = m[i]; }
        free(m);
    }
    size_t i = (vpn * 0x9e3779b97f4a7c15ULL) >> 40 & (T.cap - 1);
    while (T.map[i].vpn) i = (i + 1) & (T.cap - 1);
    T.n++;
    T.map[i] = (struct flow){ vpn + 1, 0, false };
    return &T.map[i];
}

/* Backward-shift deletion keeps every probe chain intact. */
static void flow_del(struct flow *e)
{
    size_t i = (size_t)(e - T.map);
    for (size_t j = i;;) {
        j = (j + 1) & (T.cap - 1);
        if (!T.map[j].vpn) break;
        size_t h = ((T.map[j].vpn - 1) * 0x9e3779b97f4a7c15ULL) >> 40 & (T.cap - 1);
        /* Move j into the hole at i when its home is not in (i, j]. */
        if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
            T.map[i] = T.map[j];
            i = j;
        }
    }
    T.map[i].vpn = 0;
    T.n--;
}

/* ---- hooks ---- */

static const char *const wname[] = { "idle", "issue", "memory", "fault stall", "barrier" };

static void warp_slice(unsigned i, sim_time now)
{
    struct wst *w = &T.w[i];
    if (w->st == TWS_IDLE || !T.f || !(T.what & TW_WARPS)) return;
    sim_time end = w->st == TWS_COMPUTE && w->until < now ? w->until : now;
    if (end <= T.t0 || w->since >= T.t1 || end <= w->since) return;
    slice(P_SM, 1 + i, wname[w->st], "warps", w->since, end, NULL);
}

static void flush_warps(sim_time end)
{
    if (!T.w) return;
    for (unsigned i = 0; i < T.nsms * T.maxw; i++) warp_slice(i, end);
}

void trace_warp(unsigned sm, unsigned warp, enum trace_wstate st, sim_time now, sim_time until)
{
    if (!T.w || sm >= T.nsms || warp >= T.maxw) return;
    unsigned i = sm * T.maxw + warp;
    struct wst *w = &T.w[i];
    if (w->st == st && st != TWS_COMPUTE) return;
    if (T.f && now >= T.t1) { rec(TW_WARPS, now); return; }
    if (T.f && capped(now)) return;
    warp_slice(i, now);
    *w = (struct wst){ (uint8_t)st, now, until };
}

void trace_replay_warp(unsigned sm, unsigned warp, uint64_t vpn, sim_time now, sim_time period)
{
    (void)period;
    if (!rec(TW_FAULTS, now) || sm >= T.nsms || warp >= T.maxw) return;
    unsigned tid = 1 + sm * T.maxw + warp;
    slice(P_SM, tid, "replay", "faults", now, now, "\"vpn\":\"%#llx\"", (unsigned long long)vpn);
    struct flow *e = flow_find(vpn);
    if (!e) return;
    flow('f', e->id, P_SM, tid, now);
    flow_del(e);
}

void trace_kernel(const char *name, bool start, sim_time now)
{
    observe(TE_KERNEL, now, "kernel %s %s", name, start ? "starts" : "ends");
    if (!rec(TW_KERNELS, now)) return;
    instant(P_SM, 0, start ? "kernel start" : "kernel end", "kernels", now, "\"kernel\":\"%s\"", name);
}

void trace_walk(unsigned slot, uint64_t vpn, unsigned sm, sim_time start, sim_time now, bool faulted)
{
    if (!rec(faulted ? TW_FAULTS | TW_WALKS : TW_WALKS, now)) return;
    if (!faulted && !(T.what & TW_WALKS)) return;
    slice(P_GMMU, 1 + slot, faulted ? "walk (fault)" : "walk", "faults", start, now,
          "\"vpn\":\"%#llx\",\"sm\":%u", (unsigned long long)vpn, sm);
    if (!faulted || !(T.what & TW_FAULTS) || start < T.t0 || flow_find(vpn)) return;
    struct flow *e = flow_add(vpn);
    e->id = ++T.next_flow;
    flow('s', e->id, P_GMMU, 1 + slot, start);
}

void trace_fault(uint64_t vpn, unsigned sm, bool write, bool first, size_t occupancy, sim_time now)
{
    observe(TE_FAULT, now, "fault on page %#llx from SM %u (%s)%s", (unsigned long long)vpn, sm,
            write ? "write" : "read", first ? "" : ", page already faulted");
    if (rec(TW_FAULTS, now))
        instant(P_GMMU, 0, "fault logged", "faults", now, "\"vpn\":\"%#llx\",\"sm\":%u,\"access\":\"%s\"",
                (unsigned long long)vpn, sm, write ? "write" : "read");
    if (rec(TW_COUNTERS, now)) counter(P_GMMU, "fault buffer", "entries", (double)occupancy, now);
}

void trace_fault_buffer(size_t occupancy, sim_time now)
{
    if (rec(TW_COUNTERS, now)) counter(P_GMMU, "fault buffer", "entries", (double)occupancy, now);
}

/* A batch still running when the window (or the run) ends: its slices up
 * to there, with what was known at its fetch. */
static void open_batch(sim_time end)
{
    if (!T.batch_open || !(T.what & TW_BATCHES) || end <= T.batch_start || T.batch_start >= T.t1) return;
    T.batch_open = false;
    slice(P_DRV, 0, "batch", "batches", T.batch_start, end,
          "\"batch\":%llu,\"faults\":%zu,\"pages\":%zu,\"blocks\":%zu,\"cut\":true",
          (unsigned long long)T.nbatch, T.batch_faults, T.batch_pages, T.batch_blocks);
    slice(P_DRV, 0, "fault handling", "batches", T.batch_start,
          T.batch_handling_end < end ? T.batch_handling_end : end, NULL);
    if (T.batch_handling_end < end)
        slice(P_DRV, 0, "migration", "batches", T.batch_handling_end, end, NULL);
}

void trace_batch_begin(size_t faults, size_t pages, size_t blocks, sim_time handling_end,
                       sim_time now)
{
    T.nbatch++;
    T.batch_open = true;
    T.batch_start = now;
    T.batch_handling_end = handling_end;
    T.batch_faults = faults;
    T.batch_pages = pages;
    T.batch_blocks = blocks;
    observe(TE_BATCH, now, "batch %llu: %zu faults, %zu pages in %zu VA blocks",
            (unsigned long long)T.nbatch, faults, pages, blocks);
}

void trace_batch_fault(uint64_t vpn, sim_time now)
{
    if (!rec(TW_FAULTS, now)) return;
    struct flow *e = flow_find(vpn);
    if (!e || e->stepped) return;
    e->stepped = true;
    flow('t', e->id, P_DRV, 0, now);
}

void trace_block(uint64_t base_vpn, sim_time start, sim_time now)
{
    if (!rec(TW_BATCHES, now)) return;
    slice(P_DRV, 0, "service block", "batches", start, now, "\"va_block\":\"%#llx\"",
          (unsigned long long)(base_vpn << 12));
}

void trace_batch_end(const struct trace_batch *b)
{
    if (!rec(TW_BATCHES, b->end)) return;
    T.batch_open = false;
    slice(P_DRV, 0, "batch", "batches", b->start, b->end,
          "\"batch\":%llu,\"faults\":%llu,\"pages\":%llu,\"blocks\":%llu,\"migrated\":%llu,"
          "\"h2d_bytes\":%llu,\"d2h_bytes\":%llu,\"evictions\":%llu",
          (unsigned long long)T.nbatch, (unsigned long long)b->faults, (unsigned long long)b->pages,
          (unsigned long long)b->blocks, (unsigned long long)b->migrated,
          (unsigned long long)b->h2d_bytes, (unsigned long long)b->d2h_bytes,
          (unsigned long long)b->evictions);
    slice(P_DRV, 0, "fetch", "batches", b->start, b->start, "\"faults\":%llu",
          (unsigned long long)b->faults);
    slice(P_DRV, 0, "preprocess", "batches", b->start, b->start, "\"pages\":%llu,\"blocks\":%llu",
          (unsigned long long)b->pages, (unsigned long long)b->blocks);
    slice(P_DRV, 0, "fault handling", "batches", b->start, b->handling_end, NULL);
    slice(P_DRV, 0, "migration", "batches", b->migr_start, b->end, "\"pages\":%llu,\"bytes\":%llu",
          (unsigned long long)b->migrated, (unsigned long long)b->h2d_bytes);
}

void trace_replay(bool flush, sim_time now)
{
    if (rec(TW_BATCHES, now))
        instant(P_DRV, 0, flush ? "replay (flush)" : "replay", "batches", now, NULL);
}

void trace_evict(uint64_t vpn, uint64_t frame, sim_time now)
{
    observe(TE_EVICT, now, "eviction of page %#llx from frame %llu", (unsigned long long)vpn,
            (unsigned long long)frame);
    if (rec(TW_EVICT, now))
        instant(P_DRV, 0, "evict", "evictions", now, "\"vpn\":\"%#llx\",\"frame\":%llu",
                (unsigned long long)vpn, (unsigned long long)frame);
}

void trace_resident(uint64_t pages, sim_time now)
{
    if (rec(TW_COUNTERS, now)) counter(P_DRV, "resident pages", "pages", (double)pages, now);
}

void trace_shootdown(uint64_t vpn, uint64_t npages, unsigned entries, sim_time now)
{
    observe(TE_SHOOTDOWN, now, "shootdown of %llu page(s) from %#llx, %u TLB entries",
            (unsigned long long)npages, (unsigned long long)vpn, entries);
    if (rec(TW_SHOOTDOWN, now))
        instant(P_TLB, 0, "shootdown", "shootdowns", now, "\"vpn\":\"%#llx\",\"pages\":%llu,\"entries\":%u",
                (unsigned long long)vpn, (unsigned long long)npages, entries);
}

void trace_dma(bool d2h, unsigned ce, uint64_t host_addr, uint64_t bytes, sim_time now,
               sim_time start, sim_time end)
{
    /* Issued at `now`, it may wait for its engine: kept when it overlaps
     * the window (clipped to it). */
    if (!T.f || !(T.what & TW_DMA)) return;
    rec(TW_DMA, now);
    if (!T.f || end <= T.t0 || start >= T.t1) return;
    slice(d2h ? P_D2H : P_H2D, 1 + ce, d2h ? "DMA D2H" : "DMA H2D", "dma", start, end,
          "\"bytes\":%llu,\"host_addr\":\"%#llx\"", (unsigned long long)bytes,
          (unsigned long long)host_addr);
}

void trace_dram(bool host, unsigned ch, bool write, uint64_t addr, unsigned bank, sim_time now,
                sim_time start, sim_time end)
{
    if (!T.f || !(T.what & TW_DRAM)) return;
    rec(TW_DRAM, now);
    if (!T.f || end <= T.t0 || start >= T.t1) return;
    slice(host ? P_HOST : P_DRAM, 1 + ch, write ? "write burst" : "read burst", "dram", start, end,
          "\"addr\":\"%#llx\",\"bank\":%u", (unsigned long long)addr, bank);
}

void trace_sample(sim_time now)
{
    if (!T.f || !(T.what & TW_COUNTERS) || !T.h2d || !T.d2h || now <= T.last_sample) return;
    if (rec(TW_COUNTERS, now)) {
        /* bytes/ps -> GB/s: x 1e12 / 1e9. */
        double dt = (double)(now - T.last_sample);
        counter(P_H2D, "H2D bandwidth", "GB/s", (double)(*T.h2d - T.last_h2d) / dt * 1e3, now);
        counter(P_D2H, "D2H bandwidth", "GB/s", (double)(*T.d2h - T.last_d2h) / dt * 1e3, now);
    }
    T.last_h2d = *T.h2d;
    T.last_d2h = *T.d2h;
    T.last_sample = now;
}

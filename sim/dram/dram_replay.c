/* dram-replay: feed a request trace straight into the GPU memory model
 * and report bandwidth, latency percentiles and row-buffer hit rate (for
 * validating the model against other DRAM simulators, e.g. DRAMsim3 or
 * Ramulator traces converted to this format, and for students).
 *
 * A request enters its channel's input queue at its trace time, or later
 * when the queue is full (back-pressure delays it, and the delay counts in
 * its latency, as in a closed DRAMsim3 trace run).  Latency is from the
 * trace time to the answer. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "dram.h"
#include "config/config.h"
#include "core/stats.h"

/* One feeding component per channel: a component waits on one full queue. */
struct feed_ch { struct component comp; struct feeder *f; unsigned ch; };

struct feeder {
    struct feed_ch *fc;
    struct engine *eng;
    struct dram *d;
    struct req_pool *pool;
    const struct dram_replay_req *reqs;
    size_t n, *next;            /* per channel: index of the next request */
    size_t **by_ch, *nby;       /* per channel: request indices in order */
    struct mq reply;
    struct component sink;
    struct dram_replay_result *res;
};

static sim_time feed_tick(struct component *c, sim_time now)
{
    struct feed_ch *fc = (struct feed_ch *)c;
    struct feeder *f = fc->f;
    unsigned ch = fc->ch;
    struct mq *q = dram_channel_in(f->d, ch);
    while (f->next[ch] < f->nby[ch]) {
        size_t i = f->by_ch[ch][f->next[ch]];
        const struct dram_replay_req *t = &f->reqs[i];
        if (t->t > now) return t->t;
        if (mq_full(q)) { mq_wait_space(q, c); return TIME_NEVER; }
        struct mem_req *r = req_alloc(f->pool);
        r->kind = t->write ? REQ_STORE : REQ_LOAD;
        r->paddr = r->vaddr = t->addr;
        r->size = t->size;
        r->sector_mask = 0xf;
        r->slot = (uint32_t)i;
        r->t_issue = t->t;
        r->reply = &f->reply;
        mq_push(q, r, now, c);
        f->next[ch]++;
    }
    return TIME_NEVER;
}

static sim_time sink_tick(struct component *c, sim_time now)
{
    struct feeder *f = (struct feeder *)((char *)c - offsetof(struct feeder, sink));
    struct mem_req *r;
    while ((r = mq_pop(&f->reply, now))) {
        f->res->done[r->slot] = now;
        engine_progress(f->eng);
        req_release(f->pool, r);
    }
    return mq_next_ready(&f->reply);
}

static void feed_dump(struct component *c, FILE *out) { (void)c; fputs("    feeding\n", out); }
static const struct comp_ops feed_ops = { feed_tick, feed_dump };
static const struct comp_ops sink_ops = { sink_tick, feed_dump };

/* Nothing outlives the events: the run ends when the queue drains. */
static bool busy(void *ctx) { (void)ctx; return false; }

static int cmp_time(const void *a, const void *b)
{
    sim_time x = *(const sim_time *)a, y = *(const sim_time *)b;
    return x < y ? -1 : x > y;
}

void dram_replay_run(const struct config *cfg, const struct dram_replay_req *reqs,
                     size_t n, struct dram_replay_result *res)
{
    memset(res, 0, sizeof *res);
    res->n = n;
    res->done = xcalloc(n ? n : 1, sizeof *res->done);
    struct engine_limits lim = { 0, 0, 0 };
    struct engine *e = engine_new(&lim);
    struct stats *st = stats_new();
    struct req_pool pool;
    req_pool_init(&pool);
    struct domain dom = { "dram", cfg_period(cfg, "dram.clock"), 1 };
    struct domain exact = { "replay", 1, 0 };
    struct feeder f = { .pool = &pool, .reqs = reqs, .n = n, .res = res };
    /* The GPU memory of the run's model (sim.model, system_model.c). */
    f.d = cfg_is(cfg, "sim.model", "fast") ? dram_fast_create(e, cfg, st, &dom)
                                          : dram_create(e, cfg, st, &dom);
    unsigned nch = dram_nchannels(f.d);
    f.next = xcalloc(nch, sizeof *f.next);
    f.nby = xcalloc(nch, sizeof *f.nby);
    f.by_ch = xcalloc(nch, sizeof *f.by_ch);
    for (size_t i = 0; i < n; i++) f.nby[dram_channel_of(f.d, reqs[i].addr)]++;
    for (unsigned ch = 0; ch < nch; ch++) f.by_ch[ch] = xcalloc(f.nby[ch] + 1, sizeof **f.by_ch);
    size_t *fill = xcalloc(nch, sizeof *fill);
    for (size_t i = 0; i < n; i++) {
        unsigned ch = dram_channel_of(f.d, reqs[i].addr);
        f.by_ch[ch][fill[ch]++] = i;
    }
    free(fill);
    f.eng = e;
    f.fc = xcalloc(nch, sizeof *f.fc);
    for (unsigned ch = 0; ch < nch; ch++) {
        f.fc[ch] = (struct feed_ch){ .f = &f, .ch = ch };
        comp_init(&f.fc[ch].comp, e, &feed_ops, "replay.feeder", &exact);
        if (f.nby[ch]) comp_wake_at(&f.fc[ch].comp, reqs[f.by_ch[ch][0]].t);
    }
    comp_init(&f.sink, e, &sink_ops, "replay.sink", &exact);
    mq_init(&f.reply, "replay.answers", (uint32_t)(n + 1), 0, &f.sink);
    engine_set_busy_fn(e, busy, &f);
    engine_run(e);

    sim_time *lat = xcalloc(n ? n : 1, sizeof *lat);
    size_t nr = 0;
    double sum = 0;
    res->first = n ? reqs[0].t : 0;
    for (size_t i = 0; i < n; i++) {
        if (res->done[i] > res->end) res->end = res->done[i];
        res->bytes += reqs[i].size;
        if (reqs[i].write) { res->writes++; continue; }
        res->reads++;
        lat[nr] = res->done[i] - reqs[i].t;
        sum += (double)lat[nr++];
    }
    qsort(lat, nr, sizeof *lat, cmp_time);
    if (nr) {
        /* nearest-rank percentiles */
        res->p50 = lat[(size_t)ceil(0.50 * (double)nr) - 1];
        res->p95 = lat[(size_t)ceil(0.95 * (double)nr) - 1];
        res->p99 = lat[(size_t)ceil(0.99 * (double)nr) - 1];
        res->max_lat = lat[nr - 1];
        res->mean_lat = sum / (double)nr;
    }
    free(lat);
    sim_time span = res->end > res->first ? res->end - res->first : 0;
    res->bandwidth = span ? (double)res->bytes * 1e12 / (double)span : 0;
    res->peak = dram_peak_bandwidth(f.d);
    dram_totals(f.d, &res->tot);

    for (unsigned ch = 0; ch < nch; ch++) free(f.by_ch[ch]);
    free(f.by_ch); free(f.nby); free(f.next); free(f.fc);
    mq_free(&f.reply);
    dram_free(f.d);
    req_pool_free(&pool);
    stats_free(st);
    engine_free(e);
}

void dram_replay_result_free(struct dram_replay_result *res) { free(res->done); res->done = NULL; }

void dram_replay_print(FILE *out, const struct dram_replay_result *r)
{
    uint64_t acc = r->tot.row_hits + r->tot.row_misses + r->tot.row_conflicts;
    double span = (double)(r->end - r->first);
    fprintf(out, "requests          %zu (%" PRIu64 " reads, %" PRIu64 " writes)\n",
            r->n, r->reads, r->writes);
    fprintf(out, "bytes             %" PRIu64 "\n", r->bytes);
    fprintf(out, "time              %.3f ns (first arrival to last answer)\n", span / 1e3);
    fprintf(out, "bandwidth         %.3f GB/s (%.1f %% of peak %.3f GB/s)\n",
            r->bandwidth / 1e9, r->peak > 0 ? 100.0 * r->bandwidth / r->peak : 0.0,
            r->peak / 1e9);
    fprintf(out, "read latency      mean %.3f ns, p50 %.3f ns, p95 %.3f ns, p99 %.3f ns, max %.3f ns\n",
            r->mean_lat / 1e3, (double)r->p50 / 1e3, (double)r->p95 / 1e3,
            (double)r->p99 / 1e3, (double)r->max_lat / 1e3);
    fprintf(out, "row buffer        hit rate %.2f %% (%" PRIu64 " hits, %" PRIu64
            " misses, %" PRIu64 " conflicts)\n",
            acc ? 100.0 * (double)r->tot.row_hits / (double)acc : 0.0,
            r->tot.row_hits, r->tot.row_misses, r->tot.row_conflicts);
    fprintf(out, "refreshes         %" PRIu64 "\n", r->tot.refreshes);
}

static bool fail(char *err, size_t errsz, const char *name, size_t line, const char *why)
{
    snprintf(err, errsz, "%s:%zu: %s", name, line, why);
    return false;
}

bool dram_replay_parse(FILE *in, const char *name, struct dram_replay_req **reqs,
                       size_t *n, char *err, size_t errsz)
{
    size_t cap = 1024, cnt = 0, line = 0, bufcap = 0;
    struct dram_replay_req *v = xmalloc(cap * sizeof *v);
    char *buf = NULL;       /* whole lines, however long (getline) */
    sim_time last = 0;
    ssize_t got;
    while ((got = getline(&buf, &bufcap, in)) >= 0) {
        line++;
        if (strlen(buf) != (size_t)got) {
            free(v); free(buf);
            return fail(err, errsz, name, line, "a NUL byte in the line");
        }
        char *hash = strchr(buf, '#');
        if (hash) *hash = 0;
        char *tok[5];
        int nt = 0;
        for (char *s = strtok(buf, " \t\r\n,"); s && nt < 5; s = strtok(NULL, " \t\r\n,"))
            tok[nt++] = s;
        if (nt == 0) continue;
        if (nt < 3 || nt > 4) {
            free(v); free(buf);
            return fail(err, errsz, name, line, "expected TIME_NS ADDRESS R|W [BYTES]");
        }
        char *end;
        errno = 0;
        double tns = strtod(tok[0], &end);
        if (*end || errno || !(tns >= 0) || tns > 1e12) {
            free(v); free(buf);
            return fail(err, errsz, name, line, "time is not a number of nanoseconds >= 0");
        }
        errno = 0;
        unsigned long long a = strtoull(tok[1], &end, 0);
        if (*end || errno || tok[1][0] == '-') {
            free(v); free(buf);
            return fail(err, errsz, name, line, "address is not a number (0x... or decimal)");
        }
        bool w;
        if (!strcmp(tok[2], "R") || !strcmp(tok[2], "r") || !strcmp(tok[2], "READ")) w = false;
        else if (!strcmp(tok[2], "W") || !strcmp(tok[2], "w") || !strcmp(tok[2], "WRITE")) w = true;
        else { free(v); free(buf); return fail(err, errsz, name, line, "operation is not R or W"); }
        unsigned long long sz = LINE_SIZE;
        if (nt == 4) {
            errno = 0;
            sz = strtoull(tok[3], &end, 0);
            if (*end || errno || sz == 0 || sz > 4096) {
                free(v); free(buf);
                return fail(err, errsz, name, line, "size is not 1..4096 bytes");
            }
        }
        if (a > UINT64_MAX - (sz - 1)) {
            free(v); free(buf);
            return fail(err, errsz, name, line, "the request passes the end of the 64-bit address space");
        }
        sim_time t = (sim_time)llround(tns * 1e3);
        if (t < last) { free(v); free(buf); return fail(err, errsz, name, line, "time goes backwards"); }
        last = t;
        if (cnt == cap) v = xrealloc(v, (cap *= 2) * sizeof *v);
        v[cnt++] = (struct dram_replay_req){ t, a, (uint32_t)sz, w };
    }
    free(buf);
    *reqs = v;
    *n = cnt;
    return true;
}

/* MUMmerGPU's input: a reference and its queries, from FASTA files as
 * mummergpu reads them (suffix-tree.cpp getReferenceString and
 * getQueriesTexture), or generated from sim.seed.
 *
 * Generated (the Rodinia run aligns reads that genreads.py cut from the
 * Bacillus anthracis genome: `genreads.py NC_003997.fna 100 N`, a uniform
 * start in [0, n - L] per read; its -m mismatch option is parsed but never
 * applied, so its reads are exact).  With seed = mix(sim.seed ^
 * 0x6d756d6d6572), mix = splitmix64's finaliser (gen.h wl_mix):
 *   base i of the reference (S[i], i = 1..n) = "ACGT"[mix(seed + i) >> 62];
 *   query k (0-based) starts at s = mix(mix(seed ^ 1) + k) mod (n - L + 1)
 *   and copies S[s+1..s+L];
 *   its base j (1..L) is mutated when u(mix(seed ^ 2) + k*L + j) < mismatch,
 *   u(x) = (mix(x) >> 11) * 2^-53, to genreads's base_mismatcher's choice
 *   (A->C, C->G, G->T, T->A).
 * Every query has L bases, so getQueriesTexture puts query k's 'q' at
 * k*(L+2). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mummer.h"
#include "gen.h"

/* mummergpu.cu BASES_PER_TREE_PAGE: a longer reference is cut into pages,
 * each with its own tree and kernel launch (not modelled). */
#define MUM_MAX_BASES 8388608u
/* common.cu MAX_QUERY_LEN: the pages' overlap assumes no longer query. */
#define MUM_MAX_QLEN 8192u

struct rd {
    FILE *f;
    const char *path, *key;
    unsigned long line;
    uint8_t *buf;
    uint64_t n, cap;
    uint32_t *qa, *ql;
    uint64_t nq, qcap;
};

static void rd_close(void *ctx)
{
    struct rd *r = ctx;
    if (r->f) fclose(r->f);
    free(r->buf);
    free(r->qa);
    free(r->ql);
}

static void rd_open(struct rd *r, const char *path, const char *key)
{
    memset(r, 0, sizeof *r);
    r->path = path;
    r->key = key;
    r->line = 1;
    r->f = fopen(path, "r");
    if (!r->f) user_error("key '%s': cannot read '%s': %s", key, path, strerror(errno));
    user_error_push_cleanup(rd_close, r);
}

static char msgbuf[256];
#define BAD(r, ...) user_error("%s:%lu: %s", (r)->path, (r)->line, \
    (snprintf(msgbuf, sizeof msgbuf, __VA_ARGS__), msgbuf))

static void put(struct rd *r, uint8_t c)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 4096;
        if (r->cap > host_memory_limit())
            BAD(r, "the input needs more host memory than this machine allows");
        r->buf = xrealloc(r->buf, r->cap);
    }
    r->buf[r->n++] = c;
}

static int next(struct rd *r)
{
    int c = getc(r->f);
    if (c == '\n') r->line++;
    return c;
}

/* getReferenceString: one header line, then one sequence; upper-cased,
 * A/C/G/T kept, any other letter read as 'A'. */
static void read_reference(struct mum_input *in, const char *path, const char *key)
{
    struct rd r;
    rd_open(&r, path, key);
    int c = next(&r);
    if (c != '>') BAD(&r, "not FASTA: the reference must start with a '>' header line");
    while (c != EOF && c != '\n') c = next(&r);
    put(&r, 's');
    bool word = false;
    while ((c = next(&r)) != EOF) {
        if (isspace(c)) { word = false; continue; }
        if (!word && c == '>')
            BAD(&r, "only a single reference sequence is supported (mummergpu)");
        word = true;
        c = toupper(c);
        put(&r, c == 'C' || c == 'G' || c == 'T' ? (uint8_t)c : 'A');
        if (r.n - 1 > MUM_MAX_BASES)
            BAD(&r, "more than %u bases: mummergpu would cut the reference into pages "
                "(BASES_PER_TREE_PAGE), which is not modelled", MUM_MAX_BASES);
    }
    if (r.n == 1) BAD(&r, "the reference has no bases");
    put(&r, '$');
    in->n = (uint32_t)(r.n - 2);
    in->S = r.buf;
    r.buf = NULL;
    user_error_pop_cleanup();
    rd_close(&r);
}

/* getQueriesTexture: '>' opens a header to the end of its line; A/C/G/T
 * (either case) are bases, white space is skipped, anything else is an
 * ambiguous 'x' (resetAmbiguity); a query shorter than MIN is dropped. */
static void end_query(struct rd *r, uint32_t min)
{
    if (!r->nq) return;
    uint64_t len = r->n - r->qa[r->nq - 1] - 1;
    if (len < min) {                        /* dropped: its 'q' and bases */
        r->n = r->qa[--r->nq];
        return;
    }
    r->ql[r->nq - 1] = (uint32_t)len;
    put(r, '\0');
}

static void read_queries(struct mum_input *in, const char *path, const char *key,
                         uint32_t min)
{
    struct rd r;
    rd_open(&r, path, key);
    int c;
    while ((c = next(&r)) != EOF) {
        if (c == '>') {
            end_query(&r, min);
            if (r.nq == r.qcap) {
                r.qcap = r.qcap ? 2 * r.qcap : 1024;
                r.qa = xrealloc(r.qa, r.qcap * sizeof *r.qa);
                r.ql = xrealloc(r.ql, r.qcap * sizeof *r.ql);
            }
            if (r.n > INT32_MAX - MUM_MAX_QLEN - 2)
                BAD(&r, "the queries exceed queryAddrs' int offsets");
            r.qa[r.nq++] = (uint32_t)r.n;
            put(&r, 'q');
            while (c != EOF && c != '\n') c = next(&r);
            continue;
        }
        if (isspace(c)) continue;
        if (!r.nq) BAD(&r, "not FASTA: sequence before the first '>' header");
        c = toupper(c);
        put(&r, c == 'A' || c == 'C' || c == 'G' || c == 'T' ? (uint8_t)c : 'x');
        if (r.n - r.qa[r.nq - 1] - 1 > MUM_MAX_QLEN)
            BAD(&r, "a query longer than %u bases (MAX_QUERY_LEN)", MUM_MAX_QLEN);
    }
    end_query(&r, min);
    if (!r.nq)
        BAD(&r, "no query of at least %u bases (workload.mummergpu.min_match)", min);
    in->qtext = r.buf;
    in->qbytes = r.n;
    in->qaddr = r.qa;
    in->qlen = r.ql;
    in->nq = r.nq;
    r.buf = NULL;
    r.qa = r.ql = NULL;
    user_error_pop_cleanup();
    rd_close(&r);
}

static double unit(uint64_t x) { return (double)(wl_mix(x) >> 11) * 0x1p-53; }

static void generate(struct mum_input *in, const struct config *cfg)
{
    uint64_t seed = wl_mix(cfg_u64(cfg, "sim.seed") ^ 0x6d756d6d6572ULL);
    bool file = cfg_str(cfg, "workload.mummergpu.ref_file")[0] != 0;
    if (!file) {
        uint32_t n = (uint32_t)cfg_u64(cfg, "workload.mummergpu.ref_len");
        in->n = n;
        in->S = xmalloc(n + 2ULL);
        in->S[0] = 's';
        for (uint64_t i = 1; i <= n; i++) in->S[i] = (uint8_t)"ACGT"[wl_mix(seed + i) >> 62];
        in->S[n + 1] = '$';
    }
    if (cfg_str(cfg, "workload.mummergpu.query_file")[0]) return;
    uint64_t nq = cfg_u64(cfg, "workload.mummergpu.queries");
    uint32_t L = (uint32_t)cfg_u64(cfg, "workload.mummergpu.query_len");
    double p = cfg_f64(cfg, "workload.mummergpu.mismatch");
    if (L > in->n)
        user_error("key 'workload.mummergpu.query_len': %u-base queries from a %u-base "
                   "reference (genreads.py draws starts in [0, n - L])", L, in->n);
    if (nq * (L + 2ULL) > INT32_MAX)
        user_error("key 'workload.mummergpu.queries': %llu queries of %u bases exceed "
                   "queryAddrs' int offsets", (unsigned long long)nq, L);
    if (add_sat(mul_sat(nq, L + 2ULL + 8), in->n) > host_memory_limit())
        user_error("key 'workload.mummergpu.queries': %llu queries of %u bases need more "
                   "host memory than this machine allows", (unsigned long long)nq, L);
    static const uint8_t mis[256] = { ['A'] = 'C', ['C'] = 'G', ['G'] = 'T', ['T'] = 'A' };
    uint64_t s1 = wl_mix(seed ^ 1), s2 = wl_mix(seed ^ 2), span = in->n - L + 1ULL;
    in->nq = nq;
    in->qbytes = nq * (L + 2ULL);
    in->qtext = xmalloc(in->qbytes);
    in->qaddr = xmalloc(nq * sizeof *in->qaddr);
    in->qlen = xmalloc(nq * sizeof *in->qlen);
    for (uint64_t k = 0; k < nq; k++) {
        uint8_t *q = in->qtext + k * (L + 2ULL);
        uint64_t s = wl_mix(s1 + k) % span;
        in->qaddr[k] = (uint32_t)(k * (L + 2ULL));
        in->qlen[k] = L;
        q[0] = 'q';
        for (uint32_t j = 1; j <= L; j++) {
            uint8_t b = in->S[s + j];
            q[j] = p > 0 && unit(s2 + k * L + j) < p ? mis[b] : b;
        }
        q[L + 1] = '\0';
    }
}

void mum_input_load(struct mum_input *in, const struct config *cfg, uint32_t min_match)
{
    memset(in, 0, sizeof *in);
    const char *rf = cfg_str(cfg, "workload.mummergpu.ref_file");
    const char *qf = cfg_str(cfg, "workload.mummergpu.query_file");
    if (rf[0]) read_reference(in, rf, "workload.mummergpu.ref_file");
    if (qf[0]) read_queries(in, qf, "workload.mummergpu.query_file", min_match);
    generate(in, cfg);
}

void mum_input_free(struct mum_input *in)
{
    free(in->S);
    free(in->qtext);
    free(in->qaddr);
    free(in->qlen);
    memset(in, 0, sizeof *in);
}

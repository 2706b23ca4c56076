/* Accel-Sim trace lines, read the way the framework writes them (our own
 * reader; which function of theirs defines each field is named at it):
 *
 *   kernelslist.g   "kernel-N.traceg[.xz]" | "MemcpyHtoD,0x<dst>,<bytes>"
 *       (and uvmsim's "MemcpyDtoH,0x<src>,<bytes>", which Accel-Sim's
 *        parse_commandlist_file skips as it skips any other line)
 *       (tracer_tool.cu nvbit_at_cuda_event writes kernelslist;
 *        post-traces-processing.cpp main() renames .trace -> .traceg;
 *        trace_parser.cc parse_commandlist_file / parse_memcpy_info read it)
 *   header          "-key = value" lines (tracer_tool.cu nvbit_at_cuda_event;
 *        trace_parser.cc parse_kernel_info)
 *   instruction     [line_num] PC mask ndest [Rd] opcode nsrc [Rs...] width
 *                   [format addresses...] [immediate]
 *       (tracer_tool.cu recv_thread_fun; trace_parser.cc
 *        inst_trace_t::parse_from_string)
 *
 * Tracer versions 3 (no lineinfo), 4 ("-enable lineinfo", an optional
 * leading source line) and 5 (a trailing immediate) are read. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "accelsim.h"

#define BAD(...) do { char m_[240]; snprintf(m_, sizeof m_, __VA_ARGS__); \
    user_error("%s:%lu: %s", path, lineno, m_); } while (0)

/* trace_parser.h: enum address_format, written by tracer_tool.cu
 * recv_thread_fun (base_stride_compress, base_delta_compress). */
enum { AF_LIST = 0, AF_STRIDE = 1, AF_DELTA = 2 };

/* Generic addresses past local mem base_addr in the local window: gpgpu-sim
 * bounds it by LOCAL_MEM_SIZE_MAX (trace_driven.cc, trace_warp_inst_t::
 * parse_from_trace_struct, case OP_LD); we assume 16 MiB. */
#define AS_LOCAL_WINDOW (16ULL << 20)

/* ---- tokens ---- */

struct toks { const char *p; };

/* The next space-separated token into BUF (NUL-terminated); false at the end. */
static bool tok(struct toks *t, char *buf, size_t cap, size_t *len)
{
    while (*t->p == ' ' || *t->p == '\t') t->p++;
    if (!*t->p) return false;
    size_t n = strcspn(t->p, " \t");
    if (n >= cap) n = cap - 1;    /* over-long: cut, then rejected by its parser */
    memcpy(buf, t->p, n);
    buf[n] = 0;
    *len = n;
    t->p += strcspn(t->p, " \t");
    return true;
}

static bool parse_u64(const char *s, int base, uint64_t *v)
{
    if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    if (!*s || *s == '-' || *s == '+' || *s == ' ') return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, base);
    if (*end || errno == ERANGE) return false;
    *v = x;
    return true;
}

static bool parse_i64(const char *s, int64_t *v)
{
    if (!*s || *s == '+' || *s == ' ') return false;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (*end || errno == ERANGE) return false;
    *v = x;
    return true;
}

static bool parse_reg(const char *s)
{
    if (s[0] != 'R' || !s[1]) return false;
    for (const char *p = s + 1; *p; p++) if (*p < '0' || *p > '9') return false;
    return strlen(s) <= 4;        /* R0..R255 (and RZ is never written) */
}

/* ---- header ---- */

static const char *value_of(const char *line)
{
    const char *eq = strstr(line, " = ");
    return eq ? eq + 3 : NULL;
}

static bool dim3_of(const char *v, struct dim3 *d)
{
    /* "(%d,%d,%d)": tracer_tool.cu nvbit_at_cuda_event */
    unsigned long x, y, z;
    char close, extra;
    if (!v || v[0] != '(' || v[1] == '-') return false;
    if (sscanf(v, "(%lu,%lu,%lu%c%c", &x, &y, &z, &close, &extra) != 4 || close != ')')
        return false;
    if (strchr(v, '-') || x > UINT32_MAX || y > UINT32_MAX || z > UINT32_MAX) return false;
    *d = (struct dim3){ (uint32_t)x, (uint32_t)y, (uint32_t)z };
    return true;
}

void as_parse_header(const char *line, const char *path, unsigned long lineno,
                     struct as_khdr *h)
{
    const char *v = value_of(line);
    uint64_t x;
#define KEY(k) (!strncmp(line, k " = ", strlen(k) + 3))
    if (KEY("-kernel name")) {
        /* The demangled name (nvbit_get_func_name(.., true)): up to its
         * argument list, cut to our 31 characters. */
        size_t n = strcspn(v, "(");
        while (n && v[n - 1] == ' ') n--;
        if (!n) BAD("'-kernel name' is empty");
        snprintf(h->name, sizeof h->name, "%.*s", (int)(n < 31 ? n : 31), v);
    } else if (KEY("-grid dim")) {
        if (!dim3_of(v, &h->grid)) BAD("bad header '-grid dim': expected (X,Y,Z)");
        h->has_grid = true;
    } else if (KEY("-block dim")) {
        if (!dim3_of(v, &h->block)) BAD("bad header '-block dim': expected (X,Y,Z)");
        h->has_block = true;
    } else if (KEY("-shmem")) {
        if (!parse_u64(v, 10, &x) || x > UINT32_MAX) BAD("bad header '-shmem': expected bytes");
        h->shmem = (uint32_t)x;
    } else if (KEY("-nregs")) {
        if (!parse_u64(v, 10, &x) || x > 255) BAD("bad header '-nregs': expected 0..255");
        h->nregs = (uint32_t)x;
    } else if (KEY("-accelsim tracer version")) {
        if (!parse_u64(v, 10, &x) || x > 1000) BAD("bad header '-accelsim tracer version'");
        h->version = (uint32_t)x;
        h->has_version = true;
    } else if (KEY("-enable lineinfo")) {
        if (!parse_u64(v, 10, &x) || x > 1) BAD("bad header '-enable lineinfo': expected 0 or 1");
        h->lineinfo = (uint32_t)x;
    } else if (KEY("-shmem base_addr")) {
        if (!parse_u64(v, 16, &h->shmem_base)) BAD("bad header '-shmem base_addr': expected 0x...");
    } else if (KEY("-local mem base_addr")) {
        if (!parse_u64(v, 16, &h->local_base))
            BAD("bad header '-local mem base_addr': expected 0x...");
    } else if (KEY("-kernel id") || KEY("-binary version") || KEY("-cuda stream id")) {
        if (!parse_u64(v, 10, &x)) BAD("bad header '%.*s': expected a number",
                                       (int)(strstr(line, " = ") - line), line);
    } else if (!v) {
        BAD("bad header line: expected '-key = value'");
    }
    /* other keys (-nvbit version, later additions): ignored, as
     * trace_parser.cc parse_kernel_info does */
#undef KEY
}

void as_check_header(const struct as_khdr *h, const char *path, unsigned long lineno)
{
    if (!h->has_version) BAD("header without '-accelsim tracer version'");
    if (h->version < 3 || h->version > 5)
        BAD("accelsim tracer version %u: this reader reads versions 3 to 5", h->version);
    if (!h->has_grid) BAD("header without '-grid dim'");
    if (!h->has_block) BAD("header without '-block dim'");
    if (!h->grid.x || !h->grid.y || !h->grid.z) BAD("'-grid dim' with a zero dimension");
    if (!h->block.x || !h->block.y || !h->block.z) BAD("'-block dim' with a zero dimension");
    /* CUDA's maxThreadsPerBlock (every architecture since Fermi) */
    if ((uint64_t)h->block.x * h->block.y * h->block.z > 1024)
        BAD("'-block dim' (%u,%u,%u): more than 1024 threads", h->block.x, h->block.y, h->block.z);
}

/* ---- instruction ---- */

/* Access width: trace_parser.cc inst_trace_t::get_datawidth_from_opcode --
 * the first all-digit token of the opcode, or U<digits>, in bits; also
 * S<digits> (signed loads); otherwise 4 bytes.  0: not a valid width. */
static uint32_t width_of(const char *op)
{
    for (const char *p = strchr(op, '.'); p; p = strchr(p + 1, '.')) {
        const char *q = p + 1;
        size_t n = strcspn(q, ".");
        const char *d = (q[0] == 'U' || q[0] == 'S') ? q + 1 : q;
        size_t nd = n - (size_t)(d - q);
        if (!nd || nd > 4) continue;
        bool digits = true;
        for (size_t i = 0; i < nd; i++) digits &= d[i] >= '0' && d[i] <= '9';
        if (!digits) continue;
        unsigned bits = (unsigned)strtoul(d, NULL, 10);
        return bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128 ? bits / 8 : 0;
    }
    return 4;
}

static bool has_token(const char *op, const char *t)
{
    size_t n = strlen(t);
    for (const char *p = strchr(op, '.'); p; p = strchr(p + 1, '.'))
        if (!strncmp(p + 1, t, n) && (p[1 + n] == 0 || p[1 + n] == '.')) return true;
    return false;
}

static bool base_is(const char *op, const char *b)
{
    size_t n = strlen(b);
    return !strncmp(op, b, n) && (op[n] == 0 || op[n] == '.');
}

/* What a memory opcode does to unified memory (trace_driven.cc,
 * trace_warp_inst_t::parse_from_trace_struct): 0 none (shared, local,
 * texture, surface, cache control ...), else the op; generic LD/ST need
 * the address (resolved by the caller). */
enum mclass { MC_NONE, MC_LOAD, MC_STORE, MC_ATOMIC, MC_GENERIC_LOAD, MC_GENERIC_STORE };

static enum mclass class_of(const char *op)
{
    if (base_is(op, "LDG") || base_is(op, "LDGSTS")) return MC_LOAD;
    if (base_is(op, "STG")) return MC_STORE;
    if (base_is(op, "ATOMG") || base_is(op, "ATOM") || base_is(op, "RED")) return MC_ATOMIC;
    if (base_is(op, "LD")) return MC_GENERIC_LOAD;
    if (base_is(op, "ST")) return MC_GENERIC_STORE;
    return MC_NONE;   /* LDS STS ATOMS LDSM LDL STL and the rest */
}

void as_parse_inst(const char *line, const struct as_khdr *h, const char *path,
                   unsigned long lineno, struct as_inst *out)
{
    struct toks t = { line };
    char b[64];
    size_t n;
    uint64_t v;
    out->kind = AS_COMPUTE;
    if (h->lineinfo) {
        if (!tok(&t, b, sizeof b, &n) || !parse_u64(b, 10, &v)) BAD("expected the source line number");
    }
    if (!tok(&t, b, sizeof b, &n) || !parse_u64(b, 16, &v)) BAD("expected the PC (hex)");
    if (!tok(&t, b, sizeof b, &n) || !parse_u64(b, 16, &v) || v > UINT32_MAX)
        BAD("expected the active mask (32-bit hex)");
    uint32_t mask = (uint32_t)v;
    out->mask = mask;
    if (!tok(&t, b, sizeof b, &n) || !parse_u64(b, 10, &v) || v > 4)
        BAD("expected the destination count (0..4)");
    for (uint64_t i = 0, nd = v; i < nd; i++)
        if (!tok(&t, b, sizeof b, &n) || !parse_reg(b)) BAD("destination %llu: expected Rn",
                                                           (unsigned long long)i + 1);
    char op[64];
    if (!tok(&t, op, sizeof op, &n)) BAD("truncated line: expected the opcode");
    if (n >= sizeof op - 1) BAD("opcode longer than 62 characters");
    for (const char *p = op; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' || *p == '_'))
            BAD("opcode '%s': expected upper-case letters, digits, '.' and '_'", op);
    if (op[0] < 'A' || op[0] > 'Z') BAD("opcode '%s' does not start with a letter", op);
    if (!tok(&t, b, sizeof b, &n) || !parse_u64(b, 10, &v) || v > 8)
        BAD("%s: expected the source count (0..8)", op);
    for (uint64_t i = 0, ns = v; i < ns; i++)
        if (!tok(&t, b, sizeof b, &n) || !parse_reg(b)) BAD("%s: source %llu: expected Rn", op,
                                                           (unsigned long long)i + 1);
    if (!tok(&t, b, sizeof b, &n) || !parse_u64(b, 10, &v) || v > 1024)
        BAD("%s: truncated line: expected the memory width", op);
    bool mem = v > 0;
    int lanes = __builtin_popcount(mask);
    struct warp_inst *in = &out->in;
    if (mem) {
        if (!tok(&t, b, sizeof b, &n) || !parse_u64(b, 10, &v))
            BAD("%s: truncated line: expected the address format", op);
        if (v > AF_DELTA) BAD("%s: unknown address format %llu (0 list, 1 base+stride, 2 base+deltas)",
                              op, (unsigned long long)v);
        unsigned af = (unsigned)v;
        uint64_t addr[WARP_SIZE] = {0};
        if (af == AF_LIST) {
            /* recv_thread_fun: every active lane's address, lane order */
            int k = 0;
            for (int l = 0; l < WARP_SIZE; l++) {
                if (!(mask >> l & 1)) continue;
                if (!tok(&t, b, sizeof b, &n))
                    BAD("%s: address list has %d addresses for %d active lanes", op, k, lanes);
                if (!parse_u64(b, 16, &addr[l])) BAD("%s: address %d: expected hex", op, k + 1);
                k++;
            }
        } else {
            if (!tok(&t, b, sizeof b, &n)) BAD("%s: truncated line: expected the base address", op);
            uint64_t base;
            if (!parse_u64(b, 16, &base)) BAD("%s: base address: expected hex", op);
            if (af == AF_STRIDE) {
                /* base_stride_compress: only for one run of active lanes,
                 * lane k of the run at base + k * stride (int stride) */
                int64_t stride;
                if (!tok(&t, b, sizeof b, &n) || !parse_i64(b, &stride) || stride < INT32_MIN ||
                    stride > INT32_MAX)
                    BAD("%s: expected the stride (32-bit decimal)", op);
                if (mask) {
                    uint32_t run = mask >> __builtin_ctz(mask);
                    if (run & (run + 1))
                        BAD("%s: base+stride form with active lanes that are not one run (mask %08x)",
                            op, mask);
                }
                int64_t k = 0;
                for (int l = 0; l < WARP_SIZE; l++) {
                    if (!(mask >> l & 1)) continue;
                    int64_t d = k++ * stride;        /* |d| < 2^36 */
                    if ((d < 0 && base < (uint64_t)-d) || (d > 0 && base > UINT64_MAX - (uint64_t)d))
                        BAD("%s: base+stride address of lane %d outside the 64-bit space", op, l);
                    addr[l] = d < 0 ? base - (uint64_t)-d : base + (uint64_t)d;
                }
            } else {
                /* base_delta_compress: one delta per further active lane,
                 * each from the previous active lane's address.  (Its
                 * reader, base_delta_decompress, asks for one per active
                 * lane; the tracer writes one fewer, as here.) */
                uint64_t a = base;
                bool first = true;
                int k = 0;
                for (int l = 0; l < WARP_SIZE; l++) {
                    if (!(mask >> l & 1)) continue;
                    if (!first) {
                        int64_t d;
                        if (!tok(&t, b, sizeof b, &n))
                            BAD("%s: base+deltas has %d deltas for %d active lanes", op, k, lanes);
                        if (!parse_i64(b, &d)) BAD("%s: delta %d: expected a decimal integer", op, k + 1);
                        uint64_t m = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;
                        if ((d < 0 && a < m) || (d > 0 && a > UINT64_MAX - m))
                            BAD("%s: base+deltas address of lane %d outside the 64-bit space", op, l);
                        a = d < 0 ? a - m : a + m;
                        k++;
                    }
                    first = false;
                    addr[l] = a;
                }
            }
        }
        enum mclass mc = class_of(op);
        if (mask && (mc == MC_GENERIC_LOAD || mc == MC_GENERIC_STORE)) {
            /* A generic address resolves by its window, decided on the
             * first active lane (trace_driven.cc, case OP_LD/OP_ST).
             * Without both bases (a hand-written trace) it is global. */
            uint64_t a0 = addr[__builtin_ctz(mask)];
            bool priv = h->shmem_base && h->local_base &&
                        ((a0 >= h->shmem_base && a0 < h->local_base) ||
                         (a0 >= h->local_base && a0 - h->local_base < AS_LOCAL_WINDOW));
            mc = priv ? MC_NONE : mc == MC_GENERIC_LOAD ? MC_LOAD : MC_STORE;
        }
        if (mc != MC_NONE && mask) {
            uint32_t w = width_of(op);
            if (!w) BAD("%s: access width not 1, 2, 4, 8 or 16 bytes", op);
            memset(in, 0, sizeof *in);
            in->op = mc == MC_LOAD ? INST_LOAD : mc == MC_STORE ? INST_STORE : INST_ATOMIC;
            in->size = w;
            in->active = mask;
            /* trace_driven.cc: .STRONG.GPU loads are cached at L2 only */
            if (mc == MC_LOAD && has_token(op, "STRONG") && has_token(op, "GPU"))
                in->flags = INST_F_BYPASS_L1;
            for (int l = 0; l < WARP_SIZE; l++) {
                if (!(mask >> l & 1)) continue;
                if (addr[l] > UINT64_MAX - (w - 1))
                    BAD("%s: lane %d address 0x%llx: its %u bytes pass the end of the 64-bit space",
                        op, l, (unsigned long long)addr[l], w);
                in->addr[l] = addr[l];
            }
            out->kind = AS_MEM;
        }
    }
    if (out->kind == AS_COMPUTE) {
        if (base_is(op, "EXIT")) out->kind = AS_EXIT;
        else if (base_is(op, "BAR") && !has_token(op, "ARV")) out->kind = AS_BARRIER;
    }
    if (h->version >= 5) {
        /* recv_thread_fun, version 5: the instruction's immediate ("%d") */
        int64_t imm;
        if (!tok(&t, b, sizeof b, &n)) BAD("%s: truncated line: expected the immediate (tracer version 5)", op);
        if (!parse_i64(b, &imm) && !parse_u64(b, 10, &v)) BAD("%s: immediate: expected an integer", op);
    }
    if (tok(&t, b, sizeof b, &n)) BAD("%s: unexpected '%s' after the last field", op, b);
}

/* ---- command list ---- */

void as_cmds_free(struct as_cmd *c, size_t n)
{
    if (!c) return;
    for (size_t i = 0; i < n; i++) free(c[i].path);
    free(c);
}

struct list_rd { struct as_src *s; struct as_cmd *c; size_t n; };

static void list_cleanup(void *ctx)
{
    struct list_rd *r = ctx;
    as_src_close(r->s);
    as_cmds_free(r->c, r->n);
    r->s = NULL;
    r->c = NULL;
}

struct as_cmd *as_read_list(const char *path, size_t *count)
{
    struct list_rd r = {0};
    size_t cap = 0;
    r.s = as_src_open(path, "key 'workload.accelsim.file'");
    user_error_push_cleanup(list_cleanup, &r);
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
    const char *line;
    unsigned long lineno;
    while ((line = as_src_line(r.s, &lineno))) {
        if (!line[0]) continue;
        struct as_cmd c = { .lineno = lineno };
        if (!strncmp(line, "MemcpyHtoD,", 11) || !strncmp(line, "MemcpyDtoH,", 11)) {
            /* tracer_tool.cu: "MemcpyHtoD,0x%016lx,%lld" (dstDevice, ByteCount) */
            c.to_host = line[6] == 'D';
            char a[64], s[64], extra;
            const char *p = line + 11, *comma = strchr(p, ',');
            if (!comma || (size_t)(comma - p) >= sizeof a || strlen(comma + 1) >= sizeof s)
                BAD("bad %.10s line: expected %.10s,0xADDRESS,BYTES", line, line);
            memcpy(a, p, (size_t)(comma - p));
            a[comma - p] = 0;
            strcpy(s, comma + 1);
            if (sscanf(s, "%*s%c", &extra) == 1 || !parse_u64(a, 16, &c.addr) ||
                !parse_u64(s, 10, &c.bytes))
                BAD("bad %.10s line: expected %.10s,0xADDRESS,BYTES", line, line);
            if (c.bytes && c.addr > UINT64_MAX - (c.bytes - 1))
                BAD("%.10s range passes the end of the 64-bit space", line);
            if (!c.bytes) continue;      /* a zero-byte copy does nothing */
            c.kind = AS_CMD_MEMCPY;
        } else if (!strncmp(line, "kernel", 6)) {
            /* parse_commandlist_file: a path relative to the list's folder */
            size_t n = strlen(line);
            if (strchr(line, ' ') || strchr(line, '\t'))
                BAD("kernel trace name '%s' with a space", line);
            if (!((n > 7 && !strcmp(line + n - 7, ".traceg")) ||
                  (n > 10 && !strcmp(line + n - 10, ".traceg.xz"))))
                BAD("'%s': expected a grouped kernel trace kernel-N.traceg or kernel-N.traceg.xz "
                    "(the tracer's post-processing writes them; a raw .trace is not grouped)", line);
            c.kind = AS_CMD_KERNEL;
            c.path = xmalloc(dlen + n + 1);
            memcpy(c.path, path, dlen);
            memcpy(c.path + dlen, line, n + 1);
        } else {
            BAD("unknown command '%.40s': expected kernel-N.traceg[.xz], MemcpyHtoD or "
                "MemcpyDtoH,ADDRESS,BYTES",
                line);
        }
        if (r.n == cap) r.c = xrealloc(r.c, (cap = cap ? 2 * cap : 16) * sizeof *r.c);
        r.c[r.n++] = c;
    }
    if (!r.n) user_error("%s: no kernels and no copies (not an Accel-Sim kernelslist.g)", path);
    user_error_pop_cleanup();
    as_src_close(r.s);
    *count = r.n;
    return r.c;
}

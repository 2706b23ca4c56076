/* NVBit mem_trace text lines (NVlabs/NVBit tools/mem_trace, mem_trace.cu):
 *   MEMTRACE: CTX 0x.. - LAUNCH - Kernel pc 0x.. - Kernel name NAME -
 *     grid launch id N - grid size X,Y,Z - block size X,Y,Z - nregs N -
 *     shmem N - cuda stream id N
 *   MEMTRACE: CTX 0x.. - grid_launch_id N - CTA X,Y,Z - warp W [- PC N] -
 *     OPCODE - 0x<addr lane 0> ... 0x<addr lane 31>
 * One line per executed warp memory instruction; inactive lanes print
 * address 0.  The opcode gives the access: LDG/LD -> load, STG/ST -> store,
 * ATOM/ATOMG/RED -> atomic; shared and local (LDS, STS, LDL, STL, ATOMS,
 * LDSM) are not unified memory and are skipped.  Width from the suffix
 * (.8/.U8/.S8 1 B, .16 2 B, .64 8 B, .128 16 B, otherwise 4 B). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "trace.h"

#define BAD(...) do { char m_[200]; snprintf(m_, sizeof m_, __VA_ARGS__); \
    user_error("%s:%lu: %s", path, lineno, m_); } while (0)

static const char *after(const char *s, const char *key)
{
    const char *p = strstr(s, key);
    return p ? p + strlen(key) : NULL;
}

static bool dims(const char *s, struct dim3 *d)
{
    return s && sscanf(s, "%u,%u,%u", &d->x, &d->y, &d->z) == 3 && d->x && d->y && d->z;
}

static bool has_suffix(const char *op, const char *suf)
{
    for (const char *p = strstr(op, suf); p; p = strstr(p + 1, suf)) {
        char c = p[strlen(suf)];
        if (c == 0 || c == '.') return true;
    }
    return false;
}

/* false: not a global-memory access */
static bool opcode(const char *op, struct warp_inst *in)
{
    static const char *const skip[] = { "LDS", "STS", "LDL", "STL", "ATOMS", "LDSM" };
    for (size_t i = 0; i < sizeof skip / sizeof skip[0]; i++) {
        size_t n = strlen(skip[i]);
        if (!strncmp(op, skip[i], n) && (op[n] == 0 || op[n] == '.')) return false;
    }
    if (!strncmp(op, "ATOM", 4) || !strncmp(op, "RED", 3)) in->op = INST_ATOMIC;
    else if (!strncmp(op, "LD", 2)) in->op = INST_LOAD;
    else if (!strncmp(op, "ST", 2)) in->op = INST_STORE;
    else return false;
    in->size = has_suffix(op, ".128") ? 16 : has_suffix(op, ".64") ? 8
             : has_suffix(op, ".16") || has_suffix(op, ".U16") || has_suffix(op, ".S16") ? 2
             : has_suffix(op, ".8") || has_suffix(op, ".U8") || has_suffix(op, ".S8") ? 1 : 4;
    return true;
}

enum nv_line nv_parse(const char *line, const char *path, unsigned long lineno,
                      struct nv_launch *l, struct nv_mem *m)
{
    if (strncmp(line, "MEMTRACE:", 9)) return NV_OTHER;
    if (strstr(line, " - LAUNCH - ")) {
        memset(l, 0, sizeof *l);
        const char *p = after(line, "Kernel name ");
        if (!p) BAD("LAUNCH line without 'Kernel name'");
        size_t n = strcspn(p, " ");
        const char *end = strstr(p, " - ");
        if (end) n = (size_t)(end - p);
        snprintf(l->name, sizeof l->name, "%.*s", (int)(n < 31 ? n : 31), p);
        p = after(line, "grid launch id ");
        if (!p || sscanf(p, "%lu", (unsigned long *)&l->id) != 1) BAD("LAUNCH line without 'grid launch id N'");
        if (!dims(after(line, "grid size "), &l->grid)) BAD("LAUNCH line without 'grid size X,Y,Z'");
        if (!dims(after(line, "block size "), &l->block)) BAD("LAUNCH line without 'block size X,Y,Z'");
        /* CUDA's limit (maxThreadsPerBlock, every architecture since
         * Fermi), which the binary reader enforces too. */
        if ((uint64_t)l->block.x * l->block.y * l->block.z > 1024)
            BAD("block size %u,%u,%u: more than 1024 threads", l->block.x, l->block.y, l->block.z);
        p = after(line, "nregs ");
        if (p) sscanf(p, "%u", &l->regs);
        p = after(line, "shmem ");
        if (p) sscanf(p, "%u", &l->smem);
        return NV_LAUNCH;
    }
    memset(m, 0, sizeof *m);
    const char *p = after(line, "grid_launch_id ");
    unsigned long id;
    if (!p || sscanf(p, "%lu", &id) != 1) BAD("expected 'grid_launch_id N'");
    m->launch = id;
    p = after(line, " - CTA ");
    if (!p || sscanf(p, "%u,%u,%u", &m->cta[0], &m->cta[1], &m->cta[2]) != 3)
        BAD("expected 'CTA X,Y,Z'");
    p = after(p, " - warp ");
    if (!p || sscanf(p, "%u", &m->warp) != 1) BAD("expected 'warp W'");
    p = strstr(p, " - ");
    if (p && !strncmp(p, " - PC ", 6)) p = strstr(p + 6, " - ");
    if (!p) BAD("expected ' - OPCODE - ADDRESSES'");
    p += 3;
    char op[32];
    size_t n = strcspn(p, " ");
    if (n == 0 || n >= sizeof op) BAD("bad opcode");
    memcpy(op, p, n);
    op[n] = 0;
    if (op[n - 1] == ':') op[n - 1] = 0;
    p += n;
    if (strncmp(p, " - ", 3)) BAD("expected ' - ' and 32 addresses after the opcode '%s'", op);
    p += 3;
    for (int i = 0; i < WARP_SIZE; i++) {
        while (*p == ' ') p++;
        char *end;
        if (p[0] != '0' || (p[1] != 'x' && p[1] != 'X')) BAD("address %d of 32: expected 0x...", i + 1);
        errno = 0;
        unsigned long long a = strtoull(p, &end, 16);
        if (end == p + 2 || (*end && *end != ' ')) BAD("address %d of 32: bad hex", i + 1);
        if (errno == ERANGE) BAD("address %d of 32: more than 64 bits", i + 1);
        p = end;
        m->in.addr[i] = a;
        if (a) m->in.active |= 1u << i;
    }
    while (*p == ' ') p++;
    if (*p) BAD("more than 32 addresses");
    if (!opcode(op, &m->in)) return NV_SKIP;
    if (!m->in.active) return NV_SKIP;
    /* Every byte of every access must have an address: the last one is
     * addr + size - 1, which must not pass 2^64 - 1. */
    for (int i = 0; i < WARP_SIZE; i++)
        if (m->in.addr[i] > UINT64_MAX - (m->in.size - 1))
            BAD("address %d of 32 (0x%llx): its %u bytes pass the end of the 64-bit address "
                "space", i + 1, (unsigned long long)m->in.addr[i], m->in.size);
    return NV_MEM;
}

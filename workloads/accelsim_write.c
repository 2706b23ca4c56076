/* `uvmsim trace export`: a uvmsim workload written out as an Accel-Sim
 * trace (docs/accelsim.md), in the grouped form the framework's post-
 * processor produces (post-traces-processing.cpp group_per_block) and its
 * simulator reads: per kernel a header (tracer version 4, no lineinfo),
 * thread blocks in index order, each warp's instructions in order.
 *
 * The program runs functionally, warp after warp; the generators are
 * deterministic per warp (walk.c), so these are the instructions a timed
 * run issues.  Each uvmsim instruction maps so that the replay
 * (accelsim.c) reads it back: compute of C cycles -> C non-memory lines
 * (one FFMA each; adjacent compute instructions merge on replay), loads
 * LDG (.STRONG.GPU: L1 bypass), stores STG, atomics ATOMG.E.ADD, barriers
 * BAR.SYNC, the exit EXIT; addresses compressed as the tracer does
 * (tracer_tool.cu base_stride_compress, else base_delta_compress). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "accelsim.h"

struct wr {
    const char *dir;
    FILE *f;
    char path[4096];
    FILE *tmp, *list;             /* a warp's lines; the command list */
    unsigned nk;                  /* kernel files begun */
    uint64_t written, cap;        /* bytes of warp lines so far; the most allowed (0: none) */
    bool done;
};

/* On a user error: closes what is open and removes what was written (the
 * folder keeps nothing half-done). */
static void wr_cleanup(void *ctx)
{
    struct wr *r = ctx;
    if (r->f) fclose(r->f);
    if (r->tmp) fclose(r->tmp);
    if (r->list) fclose(r->list);
    r->f = r->tmp = r->list = NULL;
    if (r->done) return;
    char p[4200];
    for (unsigned i = 1; i <= r->nk; i++) {
        snprintf(p, sizeof p, "%s/kernel-%u.traceg", r->dir, i);
        remove(p);
    }
    snprintf(p, sizeof p, "%s/allocs.txt", r->dir);
    remove(p);
    snprintf(p, sizeof p, "%s/kernelslist.g", r->dir);
    remove(p);
}

static FILE *open_out(struct wr *r, const char *name)
{
    if (snprintf(r->path, sizeof r->path, "%s/%s", r->dir, name) >= (int)sizeof r->path)
        user_error("%s: folder name too long", r->dir);
    FILE *f = fopen(r->path, "w");
    if (!f) user_error("cannot write '%s': %s", r->path, strerror(errno));
    return f;
}

static void close_out(struct wr *r)
{
    FILE *f = r->f;
    r->f = NULL;
    if (ferror(f) | (fclose(f) != 0)) user_error("cannot write '%s': %s", r->path, strerror(errno));
}

static const char *width_suffix(uint32_t size)
{
    switch (size) {
    case 1: return ".U8";
    case 2: return ".U16";
    case 8: return ".64";
    case 16: return ".128";
    default: return "";
    }
}

static void write_addrs(FILE *f, const struct warp_inst *in)
{
    uint32_t m = in->active;
    if (!m) { fputc('0', f); return; }   /* an empty list (read back as compute) */
    uint32_t run = m >> __builtin_ctz(m);
    int first = __builtin_ctz(m);
    bool stride_ok = !(run & (run + 1)) && __builtin_popcount(m) >= 2;
    int64_t stride = 0;
    if (stride_ok) {
        stride = (int64_t)(in->addr[first + 1] - in->addr[first]);
        for (int l = first + 1; l < WARP_SIZE && (m >> l & 1); l++)
            stride_ok &= (int64_t)(in->addr[l] - in->addr[l - 1]) == stride;
        stride_ok &= stride >= INT32_MIN && stride <= INT32_MAX;
    }
    if (stride_ok) {
        fprintf(f, "1 0x%" PRIx64 " %" PRId64, in->addr[first], stride);
        return;
    }
    fprintf(f, "2 0x%" PRIx64, in->addr[first]);
    uint64_t prev = in->addr[first];
    for (int l = first + 1; l < WARP_SIZE; l++) {
        if (!(m >> l & 1)) continue;
        fprintf(f, " %" PRId64, (int64_t)(in->addr[l] - prev));
        prev = in->addr[l];
    }
}

/* One instruction line: PC mask ndest [Rd] opcode nsrc [Rs] width [addresses] */
static void write_inst(FILE *f, uint32_t pc, const struct warp_inst *in, uint32_t threads)
{
    const char *sfx = width_suffix(in->size);
    switch (in->op) {
    case INST_COMPUTE:
        for (uint32_t c = 0; c < (in->cycles ? in->cycles : 1); c++)
            fprintf(f, "%04x %08x 1 R1 FFMA 2 R1 R2 0\n", pc + 16 * c, in->active);
        return;
    case INST_BARRIER:
        fprintf(f, "%04x %08x 0 BAR.SYNC 0 0\n", pc, in->active);
        return;
    case INST_EXIT:
        fprintf(f, "%04x %08x 0 EXIT 0 0\n", pc, threads);
        return;
    case INST_LOAD:
        fprintf(f, "%04x %08x 1 R4 LDG.E%s%s 1 R2 %u ", pc, in->active, sfx,
                in->flags & INST_F_BYPASS_L1 ? ".STRONG.GPU" : "", in->size);
        break;
    case INST_STORE:
        fprintf(f, "%04x %08x 0 STG.E%s 2 R2 R4 %u ", pc, in->active, sfx, in->size);
        break;
    case INST_ATOMIC:
        fprintf(f, "%04x %08x 0 ATOMG.E.ADD%s 2 R2 R4 %u ", pc, in->active, sfx, in->size);
        break;
    }
    write_addrs(f, in);
    fputc('\n', f);
}

static void write_kernel(struct wr *r, const struct wl_kernel *k, struct workload *wl,
                         unsigned n)
{
    char name[64];
    snprintf(name, sizeof name, "kernel-%u.traceg", n);
    r->nk = n;
    r->f = open_out(r, name);
    FILE *f = r->f;
    fprintf(f, "-kernel name = %s\n-kernel id = %u\n", k->name, n);
    fprintf(f, "-grid dim = (%u,%u,%u)\n-block dim = (%u,%u,%u)\n", k->grid.x, k->grid.y,
            k->grid.z, k->block.x, k->block.y, k->block.z);
    fprintf(f, "-shmem = %u\n-nregs = %u\n-binary version = 70\n-cuda stream id = 0\n",
            k->smem_per_block, k->regs_per_thread);
    fprintf(f, "-shmem base_addr = 0x0000000000000000\n-local mem base_addr = 0x0000000000000000\n");
    fprintf(f, "-nvbit version = uvmsim\n-accelsim tracer version = 4\n-enable lineinfo = 0\n\n");
    fprintf(f, "#traces format = [line] PC mask ndest [dests] opcode nsrc [srcs] width [format addresses]\n\n");
    uint64_t blocks = (uint64_t)k->grid.x * k->grid.y * k->grid.z;
    uint32_t threads = k->block.x * k->block.y * k->block.z;
    uint32_t nw = (threads + WARP_SIZE - 1) / WARP_SIZE;
    /* A warp's lines are counted before "insts = N": written to a
     * temporary file first, then copied. */
    FILE *tmp = r->tmp = tmpfile();
    if (!tmp) user_error("no temporary file: %s", strerror(errno));
    for (uint64_t b = 0; b < blocks; b++) {
        fprintf(f, "\n#BEGIN_TB\n\nthread block = %llu,%llu,%llu\n",
                (unsigned long long)(b % k->grid.x), (unsigned long long)(b / k->grid.x % k->grid.y),
                (unsigned long long)(b / k->grid.x / k->grid.y));
        for (uint32_t i = 0; i < nw; i++) {
            /* as sim/sm/launch.c starts a warp */
            struct warp_ctx w = { .k = k, .block = b, .warp = i };
            uint32_t left = threads - i * WARP_SIZE;
            w.threads = left < WARP_SIZE ? left : WARP_SIZE;
            uint32_t tmask = w.threads >= WARP_SIZE ? UINT32_MAX : (1u << w.threads) - 1;
            struct warp_inst in;
            memset(&in, 0, sizeof in);
            wl_warp_start(wl, &w);
            rewind(tmp);
            uint64_t lines = 0;
            uint32_t pc = 0;
            for (;;) {
                /* as sim/sm/core.c issue() hands the instruction over */
                in.flags = in.issue_cycles = in.cycles = 0;
                wl_next_inst(wl, &w, &in);
                if (in.op == INST_COMPUTE && in.issue_cycles > 1)
                    user_error("kernel %s: a compute instruction with issue_cycles %u: an "
                               "Accel-Sim trace has no issue width", k->name, in.issue_cycles);
                write_inst(tmp, pc, &in, tmask);
                uint32_t nl = in.op == INST_COMPUTE ? (in.cycles ? in.cycles : 1) : 1;
                lines += nl;
                pc += 16 * nl;
                if (in.op == INST_EXIT) break;
            }
            fprintf(f, "\nwarp = %u\ninsts = %llu\n", i, (unsigned long long)lines);
            long len = ftell(tmp);
            /* A trace is several times the size of the run's state (a
             * default GUPS writes 16 GB): stop before the disk fills. */
            r->written += (uint64_t)len;
            if (r->cap && r->written > r->cap)
                user_error("--max-size: the trace passes %llu bytes in kernel %s; nothing is "
                           "kept (raise --max-size, 0 for no limit, or shrink the workload)",
                           (unsigned long long)r->cap, k->name);
            rewind(tmp);
            char buf[65536];
            while (len > 0) {
                size_t want = len > (long)sizeof buf ? sizeof buf : (size_t)len;
                size_t got = fread(buf, 1, want, tmp);
                if (!got) user_error("temporary file: read error");
                fwrite(buf, 1, got, f);
                len -= (long)got;
            }
        }
        fprintf(f, "\n#END_TB\n");
    }
    fclose(tmp);
    r->tmp = NULL;
    close_out(r);
}

void accelsim_export(struct workload *wl, const char *dir, uint64_t max_bytes)
{
    struct wr r = { .dir = dir, .cap = max_bytes };
    user_error_push_cleanup(wr_cleanup, &r);
    r.f = open_out(&r, "allocs.txt");
    fprintf(r.f, "# uvmsim allocations: NAME 0xBASE BYTES (workload.accelsim.allocs)\n");
    for (size_t i = 0; i < wl->nallocs; i++) {
        const struct wl_alloc *a = &wl->allocs[i];
        if (a->place != WL_PLACE_DEFAULT || a->advice || a->hint != WL_HINT_NONE)
            user_error("allocation '%s' has a placement, advice or hint: an Accel-Sim trace "
                       "holds none", a->name);
        fprintf(r.f, "%s 0x%016" PRIx64 " %" PRIu64 "\n", a->name, a->base, a->size);
    }
    close_out(&r);
    /* The list is written last: a folder without kernelslist.g is unfinished. */
    char list[4096];
    unsigned n = 0;
    struct wl_step st;
    FILE *lf = r.list = tmpfile();
    if (!lf) user_error("no temporary file: %s", strerror(errno));
    while (wl_next_step(wl, &st)) {
        if (st.kind == WL_STEP_KERNEL) {
            write_kernel(&r, &st.kernel, wl, ++n);
            fprintf(lf, "kernel-%u.traceg\n", n);
        } else if (st.kind == WL_STEP_MEMCPY) {
            const struct wl_alloc *a = &wl->allocs[st.host.alloc];
            fprintf(lf, "Memcpy%s,0x%016" PRIx64 ",%" PRIu64 "\n",
                    st.host.dir == WL_TO_GPU ? "HtoD" : "DtoH", a->base + st.host.offset,
                    st.host.bytes);
        } else {
            user_error("the program has a %s step: an Accel-Sim trace holds only kernels and "
                       "copies", st.kind == WL_STEP_PREFETCH ? "prefetch" : "memory-advice");
        }
    }
    snprintf(list, sizeof list, "kernelslist.g");
    r.f = open_out(&r, list);
    rewind(lf);
    int c;
    while ((c = fgetc(lf)) != EOF) fputc(c, r.f);
    close_out(&r);
    r.done = true;
    user_error_pop_cleanup();
    wr_cleanup(&r);
}

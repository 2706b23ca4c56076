/* Inside workloads/ (and sim/cli/main.c's `trace convert`): memory traces.
 * Text: NVBit's mem_trace tool output.  Binary: uvmsim's own grouped,
 * versioned format (docs/trace-format.md), read per warp with constant
 * memory per warp. */
#ifndef UVMSIM_WL_TRACE_H
#define UVMSIM_WL_TRACE_H

#include <stdio.h>
#include "workload.h"

#define TRACE_MAGIC "UVMTRACE"
#define TRACE_VERSION 1
#define TRACE_MAX_RANGES 8
#define TRACE_HEADER_BYTES 64
#define TRACE_KERNEL_BYTES 80
#define TRACE_INDEX_BYTES 32
/* op, size, mask, first address, 31 varints of at most 10 bytes */
#define TRACE_MAX_RECORD (1 + 1 + 4 + 8 + 31 * 10)

/* One parsed text line. */
enum nv_line { NV_OTHER, NV_LAUNCH, NV_MEM, NV_SKIP };

struct nv_launch {
    uint64_t id;
    char name[32];
    struct dim3 grid, block;
    uint32_t regs, smem;
};

struct nv_mem {
    uint64_t launch;
    uint32_t cta[3], warp;
    struct warp_inst in;      /* op, active, size, addr */
};

/* Parses LINE (no newline).  NV_OTHER: not a MEMTRACE line (program
 * output); NV_SKIP: a MEMTRACE access outside global memory (shared,
 * local).  A malformed MEMTRACE line is a user error "PATH:LINENO: ...". */
enum nv_line nv_parse(const char *line, const char *path, unsigned long lineno,
                      struct nv_launch *l, struct nv_mem *m);

/* Converts the text trace IN (path) into the binary trace OUT (a file open
 * for writing), or, OUT being NULL, into a new file OUT_PATH opened after IN
 * parsed whole.  Two passes over IN. */
void trace_convert(const char *in, FILE *out, const char *out_path);

/* Record codec: returns the bytes written / consumed (0: corrupt). */
size_t trace_encode(const struct warp_inst *in, uint8_t *buf);
size_t trace_decode(const uint8_t *buf, size_t n, struct warp_inst *out);

#endif

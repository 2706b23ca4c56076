/* Inside workloads/ (and the fuzz harness): Accel-Sim SASS traces, as the
 * accel-sim-framework's NVBit tracer (util/tracer_nvbit/tracer_tool/
 * tracer_tool.cu) writes them and its post-processor (traces-processing/
 * post-traces-processing.cpp) groups them per thread block: a command list
 * (kernelslist.g) and one text file per kernel (kernel-N.traceg, or .xz).
 * The format is described in docs/accelsim.md; this is our own reader. */
#ifndef UVMSIM_WL_ACCELSIM_H
#define UVMSIM_WL_ACCELSIM_H

#include <stdio.h>
#include "config/config.h"
#include "workload.h"

/* workload.accelsim.* (accelsim.c), listed in the config schema */
extern const struct cfg_key accelsim_config_keys[];

/* ---- line source: plain text, or xz through liblzma ---- */

struct as_src;
/* Opens PATH (".xz" suffix: xz-compressed); errors are user errors naming
 * WHAT (the key or file that named it). */
struct as_src *as_src_open(const char *path, const char *what);
/* The next line without its newline (NULL at the end); *LINENO counts
 * lines from 1.  A final line without a newline is a truncated file. */
const char *as_src_line(struct as_src *s, unsigned long *lineno);
void as_src_close(struct as_src *s);

/* ---- kernel header (tracer_tool.cu, nvbit_at_cuda_event) ---- */

struct as_khdr {
    char name[32];
    struct dim3 grid, block;
    uint32_t shmem, nregs, version, lineinfo;
    uint64_t shmem_base, local_base;
    bool has_grid, has_block, has_version;
};

/* One header line "-key = value" of PATH:LINENO into H (unknown keys are
 * ignored, as Accel-Sim's parser does); a malformed value is a user error. */
void as_parse_header(const char *line, const char *path, unsigned long lineno,
                     struct as_khdr *h);
/* After the header: the fields a replay needs are there and in range. */
void as_check_header(const struct as_khdr *h, const char *path, unsigned long lineno);

/* ---- instruction line (tracer_tool.cu, recv_thread_fun) ---- */

enum as_kind {
    AS_COMPUTE,   /* any instruction that does not reach unified memory */
    AS_MEM,       /* a global access with at least one active lane: `in` */
    AS_BARRIER,   /* BAR (not BAR.ARV): a block barrier */
    AS_EXIT,      /* EXIT: the warp's end is its last line; counted nowhere */
};

struct as_inst {
    enum as_kind kind;
    uint32_t mask;
    struct warp_inst in;      /* AS_MEM: op, size, active, flags, addr */
};

/* Parses one instruction line; a malformed one is a user error
 * "PATH:LINENO: ...". */
void as_parse_inst(const char *line, const struct as_khdr *h, const char *path,
                   unsigned long lineno, struct as_inst *out);

/* ---- command list (kernelslist.g) ---- */

enum as_cmd_kind { AS_CMD_KERNEL, AS_CMD_MEMCPY };
struct as_cmd {
    enum as_cmd_kind kind;
    char *path;               /* KERNEL: the trace file, the list's folder prepended */
    uint64_t addr, bytes;     /* MEMCPY */
    bool to_host;             /* MEMCPY: MemcpyDtoH (uvmsim's extension) */
    uint32_t alloc;           /* MEMCPY: resolved by the replay: allocation, */
    uint64_t offset;          /* and offset in it */
    unsigned long lineno;
};

/* Reads the list PATH; *N set to the count; the array and paths are the
 * caller's (as_cmds_free). */
struct as_cmd *as_read_list(const char *path, size_t *n);
void as_cmds_free(struct as_cmd *c, size_t n);

/* ---- writer (accelsim_write.c) ---- */

/* Runs WL functionally and writes it as an Accel-Sim trace into the folder
 * DIR (which must exist): kernelslist.g, kernel-N.traceg, and allocs.txt,
 * the side file of its allocations (workload.accelsim.allocs). */
/* MAX_BYTES: a user error (nothing kept) once the kernel traces pass it
 * (0: no limit). */
void accelsim_export(struct workload *wl, const char *dir, uint64_t max_bytes);

#endif

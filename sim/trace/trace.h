/* Seeing a run as it happens (DESIGN.md, "Traces and stepping").  The
 * components call the hooks below at the moments a student wants to see
 * (a warp changing state, a walk that faults, a batch and its phases, a
 * DMA, an eviction, a shootdown, a replay); two consumers listen:
 *   - the Chrome trace-event JSON writer (`uvmsim run --trace OUT.json`),
 *     which keeps only what falls in its window and writes it at once
 *     (nothing of the run is buffered; docs/trace.md);
 *   - an observer (the stepper, `uvmsim step`), told of each fault, batch,
 *     eviction, shootdown and kernel so that `run until ...` can stop.
 * Off (no trace, no stepper) every hook costs one load and one
 * well-predicted branch: trace_mask is 0, and a hook is written
 *     if (TRACE_ON(TW_FAULTS)) trace_walk(...);
 * One trace per process (the simulator runs one system at a time). */
#ifndef UVMSIM_TRACE_H
#define UVMSIM_TRACE_H

#include <stdio.h>
#include "core/base.h"

struct config;

/* What to record (--trace-what), also what the observer needs. */
enum {
    TW_WARPS = 1u << 0,      /* warp states per SM: issue, memory, fault, barrier */
    TW_FAULTS = 1u << 1,     /* faulting walks, fault-buffer entries, flows, replays */
    TW_BATCHES = 1u << 2,    /* driver batches and their phases */
    TW_DMA = 1u << 3,        /* copy-engine transfers */
    TW_EVICT = 1u << 4,      /* evictions */
    TW_SHOOTDOWN = 1u << 5,  /* TLB shootdowns */
    TW_COUNTERS = 1u << 6,   /* fault-buffer occupancy, resident pages, link bandwidth */
    TW_KERNELS = 1u << 7,    /* kernel launches */
    TW_WALKS = 1u << 8,      /* every page walk (not only the faulting ones) */
    TW_DRAM = 1u << 9,       /* every data burst on every memory channel */
    TW_ALL = (1u << 10) - 1,
};

extern unsigned trace_mask;
#define TRACE_ON(bits) __builtin_expect((trace_mask & (bits)) != 0, 0)

/* ---- the JSON writer ---- */

/* Parse "faults,batches,..." ("all" = everything); 0 with *bad naming the
 * unknown word. */
unsigned trace_parse_what(const char *s, const char **bad, size_t *badlen);
/* Open OUT for the window [t0, t1) (t1 = TIME_NEVER: to the end).  The
 * file is valid JSON from here on whatever happens: it is closed (the
 * closing brackets written) by trace_close, or at exit (sim_panic, the
 * watchdog, a user error mid-run).  -1 with errno when OUT cannot be
 * created.  A write that fails stops the trace: one line on stderr, a
 * regular file removed, trace_summary.write_error set. */
int trace_open(const char *path, sim_time t0, sim_time t1, unsigned what);
/* The machine being traced: names of its tracks (process and thread
 * names), its warps, and the statistics the counters sample. */
struct stats;
void trace_machine(const struct config *cfg, const struct stats *st);
/* Stop writing once the file holds about BYTES (0: no cap, trace_open's
 * default): the file is then closed, valid JSON, its "otherData" saying
 * "truncated": true, and a warning goes to stderr.  `run --trace-max`. */
void trace_set_max(uint64_t bytes);
void trace_close(void);
/* What the last trace holds, once closed (`run` names it on stderr). */
struct trace_summary {
    uint64_t events, bytes;
    bool truncated;
    sim_time truncated_at;
    int write_error;        /* errno of a failed write (the file removed), else 0 */
};
void trace_get_summary(struct trace_summary *out);

/* ---- the observer (the stepper) ---- */

enum trace_ev { TE_FAULT, TE_BATCH, TE_EVICT, TE_SHOOTDOWN, TE_KERNEL };
typedef void (*trace_observer)(void *ctx, enum trace_ev ev, const char *what, sim_time now);
/* Install (fn non-NULL) or remove the observer; its events are turned on.
 * Installing it without a trace file open restarts the batch numbering
 * (the stepper's `restart`: a new machine). */
void trace_observe(trace_observer fn, void *ctx);

/* ---- hooks (call only under TRACE_ON) ---- */

/* Warp states as the SM sees them. */
enum trace_wstate { TWS_IDLE, TWS_COMPUTE, TWS_MEMORY, TWS_FAULT, TWS_BARRIER };
/* Warp `warp` of SM `sm` is in `st` from `now` (TWS_COMPUTE until `until`,
 * then ready). */
void trace_warp(unsigned sm, unsigned warp, enum trace_wstate st, sim_time now, sim_time until);
/* A faulted page's translation came back to warp `warp`: the replay. */
void trace_replay_warp(unsigned sm, unsigned warp, uint64_t vpn, sim_time now, sim_time period);
void trace_kernel(const char *name, bool start, sim_time now);
/* A page walk on walker thread `slot` from `start` to `now`; `faulted`:
 * it logs a fault (the start of the page's fault flow). */
void trace_walk(unsigned slot, uint64_t vpn, unsigned sm, sim_time start, sim_time now, bool faulted);
/* A fault-buffer entry logged (first = the page's first parked walk). */
void trace_fault(uint64_t vpn, unsigned sm, bool write, bool first, size_t occupancy, sim_time now);
void trace_fault_buffer(size_t occupancy, sim_time now);
/* The driver: a batch fetched at `now` (then one trace_batch_fault per
 * entry), a block serviced, the batch's end with its phases. */
void trace_batch_begin(size_t faults, size_t pages, size_t blocks, sim_time handling_end,
                       sim_time now);
void trace_batch_fault(uint64_t vpn, sim_time now);
void trace_block(uint64_t base_vpn, sim_time start, sim_time now);
struct trace_batch {
    sim_time start, handling_end, migr_start, end;
    uint64_t faults, pages, blocks, migrated, h2d_bytes, d2h_bytes, evictions;
};
void trace_batch_end(const struct trace_batch *b);
void trace_replay(bool flush, sim_time now);
void trace_evict(uint64_t vpn, uint64_t frame, sim_time now);
void trace_resident(uint64_t pages, sim_time now);
void trace_shootdown(uint64_t vpn, uint64_t npages, unsigned entries, sim_time now);
/* A DMA issued at `now` on copy engine `ce` of direction `d2h`, from its
 * start on the engine to its landing. */
void trace_dma(bool d2h, unsigned ce, uint64_t host_addr, uint64_t bytes, sim_time now,
               sim_time start, sim_time end);
/* A data burst on channel `ch` of GPU (host false) or host memory, on the
 * bus from `start` to `end`, issued at `now`. */
void trace_dram(bool host, unsigned ch, bool write, uint64_t addr, unsigned bank, sim_time now,
                sim_time start, sim_time end);
/* Each statistics epoch: link bandwidth per direction since the last. */
void trace_sample(sim_time now);

#endif

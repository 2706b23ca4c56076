/* CPU-GPU link (sim/pcie): two independent directions (full duplex), each
 * a serial wire carrying packets at link.bandwidth x the line code's share
 * (link.encoding) less the ACK/UpdateFC DLLPs (link.dllp_interval).  D2H
 * carries the GPU's posted writes and read requests: packets of up to
 * link.max_payload bytes with link.header bytes each; H2D carries the
 * completions that answer the GPU's reads: link.rcb bytes each (0: up to
 * max_payload) with link.completion_header bytes; both padded to whole
 * link.flit units, so the efficiency of a transfer falls out of the packet
 * arithmetic (PCIe 3.0 TLPs; NVLink 16 B flits with one header flit per
 * <= 128 B payload, thesis Table 6.3).  An H2D DMA also sends one read
 * request per link.max_read_request bytes D2H.  DMA transfers run on
 * link.copy_engines copy engines per direction, each paying a per-transfer
 * setup (link.ce_setup) and pipelined (the next DMA starts once the
 * current one's data is ready for the wire); small messages (cache-line
 * remote requests and replies) share the same wire without a copy engine.
 * Every delivery lands link.latency after its last byte left the wire. */
#ifndef UVMSIM_PCIE_H
#define UVMSIM_PCIE_H

#include <stdio.h>
#include "../engine.h"

struct config;
struct stats;

enum link_dir { LINK_H2D = 0, LINK_D2H = 1 };

struct link;

struct link *link_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom);
void link_free(struct link *l);

/* Queue a DMA of `bytes` in direction `dir` (one page, a run of contiguous
 * pages, a bulk copy) on the copy engine of that direction that frees
 * first; `done(obj, arg, t)` runs when the last byte has arrived.  Returns
 * that time. */
sim_time link_transfer(struct link *l, enum link_dir dir, uint64_t bytes,
                       sim_time now, event_fn done, void *obj, uint64_t arg);

/* As link_transfer, naming the host-memory address the DMA reads (H2D)
 * once host memory is attached; link_transfer uses consecutive addresses
 * of its own. */
sim_time link_dma(struct link *l, enum link_dir dir, uint64_t host_addr,
                  uint64_t bytes, sim_time now, event_fn done, void *obj,
                  uint64_t arg);

/* Host memory (sim/dram hostmem_create) behind the link: from now on an
 * H2D DMA reads its bytes from it in 128 B requests (at most 64 in flight
 * per copy engine) after its setup; the data goes on the wire from the
 * first answer, and its last packet leaves no earlier than the last answer
 * plus that packet's time; the engine reads its next DMA meanwhile.  Such transfers return TIME_NEVER (the landing
 * time depends on host memory); `done` still runs when they land.  D2H
 * write-backs are posted into host DDR4 and never delay completion, so
 * they are not modelled there. */
struct dram;
struct req_pool;
void link_attach_host(struct link *l, struct dram *host, struct req_pool *pool);

/* Send one message of `payload` bytes (0: a header-only request) in
 * direction `dir` without a copy engine: a remote cache-line read request,
 * its data reply, a remote write.  Returns the arrival time, when `done`
 * runs (done may be NULL). */
sim_time link_message(struct link *l, enum link_dir dir, uint64_t payload,
                      sim_time now, event_fn done, void *obj, uint64_t arg);

/* Packet bytes on the wire of direction dir for a transfer of `payload`
 * bytes (H2D: read completions; D2H: writes, or a read request for 0). */
uint64_t link_wire_bytes(const struct link *l, enum link_dir dir, uint64_t payload);
/* payload / wire bytes. */
double link_efficiency(const struct link *l, enum link_dir dir, uint64_t payload);
/* Packet bytes per second of one direction: link.bandwidth x encoding
 * share x (1 - DLLP share). */
double link_rate(const struct link *l);

/* ---- link-bench (link_bench.c) ----
 * One H2D and one D2H copy of each size, each alone on a fresh link with
 * host memory attached, timed from issue to landing. */
struct link_bench_row { uint64_t bytes; sim_time h2d, d2h; };
void link_bench_run(const struct config *cfg, const uint64_t *sizes, size_t n,
                    struct link_bench_row *rows);
void link_bench_print(FILE *out, const struct config *cfg,
                      const struct link_bench_row *rows, size_t n);

/* Read-only view (uvmsim step): each direction's wire and bytes so far. */
void link_describe(const struct link *l, FILE *out);

#endif

/* CPU-GPU link (sim/link): two independent directions (full duplex), each
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
#include "core/engine.h"
#include "config/config.h"
#include "core/engine.h"

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
 * they are not modelled there.  The copy engines, the writer of D2H data
 * and host memory then run in a private event loop (link_host_loop.c)
 * that runs ahead of the engine while every copy engine is busy. */
struct dram;
struct req_pool;
void link_attach_host(struct link *l, struct dram *host, struct req_pool *pool);
/* The host side's loop in step with the engine, never ahead (for tests:
 * the same times either way). */
void link_host_lockstep(struct link *l, bool on);

/* Send one message of `payload` bytes (0: a header-only request) in
 * direction `dir` without a copy engine: a remote cache-line read request,
 * its data reply, a remote write.  Returns the arrival time, when `done`
 * runs (done may be NULL). */
sim_time link_message(struct link *l, enum link_dir dir, uint64_t payload,
                      sim_time now, event_fn done, void *obj, uint64_t arg);

/* ---- remote (CC-NUMA) accesses (link_remote.c) ----
 * Turn on the path of GPU line requests to host-homed pages (paddr with
 * PADDR_HOST): needs host memory attached.  From then on the host side
 * runs in step with the engine (a request reaches host memory from an
 * engine event, so it cannot run ahead) and the single copy engine no
 * longer reserves the H2D wire ahead of its data.  Registers the remote.*
 * statistics and link.{h2d,d2h}.remote_{busy_ps,wire_bytes}. */
struct mem_req;
void link_remote_enable(struct link *l);
bool link_remote_enabled(const struct link *l);
/* Send r (REQ_LOAD, REQ_STORE, REQ_ATOMIC of r->size bytes, 0: a line)
 * to host memory: a read request (loads) or a packet with its bytes
 * (stores, atomics) on the D2H wire now; r comes back into r->reply when
 * the answer has landed (loads, atomics) or when its last byte has left
 * the wire (stores: posted).  Nothing queues at the GPU end: the sender
 * bounds what it has in flight. */
void link_remote_send(struct link *l, struct mem_req *r, sim_time now);
/* The CPU-side client cache of the remote path (host.client_cache.*, thesis
 * Sec. 6.2.2.2; none when its size is 0).  core_period: the GPU core's
 * clock (its latencies are in its cycles).  After link_remote_enable. */
void link_remote_client_cache(struct link *l, const struct config *cfg, struct stats *st,
                              sim_time core_period);

/* ---- the CPU side of selective caching (link_cpu.c) ----
 * The synthetic CPU request stream (cpu.stream.*) and the CPU's answers to
 * GPU requests the remote directory routes to it.  core_period: the GPU
 * core clock's (host.latency is in its cycles).  Needs the remote path. */
struct link_cpu;
struct link_cpu *link_cpu_create(struct link *l, const struct config *cfg, struct stats *st,
                                 sim_time core_period);
void link_cpu_free(struct link_cpu *c);
/* Start the stream: each CPU read lands in read(ctx, pa, now) (fits
 * l2_cpu_read through a wrapper); its data leaves with link_cpu_answer. */
void link_cpu_start(struct link_cpu *c, void (*read)(void *ctx, uint64_t pa, sim_time now),
                    void *ctx);
/* Fit struct l2_cpu (l2/l2.h): ctx is the link_cpu. */
void link_cpu_answer(void *ctx, uint64_t pa, sim_time now);
void link_cpu_probe(void *ctx, struct mem_req *r, bool held, sim_time now);

/* Credit the packets that have left either wire by `now` to link.*.bytes,
 * wire_bytes and busy_ps (each transfer's are credited in full once it
 * has left; call before the statistics are sampled). */
void link_settle(struct link *l, sim_time now);

/* Payload bytes a page DMA of `bytes` puts on the wire: bytes, or
 * ceil(bytes / link.compression) with compression on. */
uint64_t link_compressed(const struct link *l, uint64_t bytes);
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

/* Config keys and checks of this room (sim/config_schema.c lists them). */
extern const struct cfg_key link_config_keys[], cpu_config_keys[], client_cache_config_keys[];
bool link_config_check(const struct config *c, struct cfg_error *err);

#endif

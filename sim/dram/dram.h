/* Memory (sim/dram): GPU memory (GDDR5/HBM2 channels, keys dram.*) and
 * host memory (DDR4 channels behind the CPU-GPU link, keys host.dram.*),
 * both the same channel/bank timing model with FR-FCFS controllers.
 *
 * A sender picks the channel with dram_channel_of() (or routes through
 * dram_port()) and pushes a struct mem_req (REQ_LOAD, REQ_STORE,
 * REQ_ATOMIC; line- or sector-sized: size bytes at paddr) into the
 * channel's bounded input queue; a full queue is back-pressure.  Every
 * request is answered into req->reply (REQ_LOAD and REQ_ATOMIC when their
 * last burst's data has crossed the bus; REQ_STORE when the controller
 * accepts it: posted writes), and the sender releases it.  A request of
 * `size` bytes (0: a 128 B line) takes ceil(size / burst bytes) bursts. */
#ifndef UVMSIM_DRAM_H
#define UVMSIM_DRAM_H

#include <stdio.h>
#include "core/engine.h"
#include "core/mem_req.h"
#include "config/config.h"
#include "core/engine.h"
#include "core/mem_req.h"

struct config;
struct stats;

struct dram;

/* GPU memory (keys dram.*, statistics dram.*). */
struct dram *dram_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom);
/* The same memory for sim.model fast (issue 41): each channel a server
 * with per-bank open rows and the channel's peak rate, one answer event
 * per request (dram_fast.c); the same keys, statistics and interface. */
struct dram *dram_fast_create(struct engine *e, const struct config *cfg,
                              struct stats *st, const struct domain *dom);
/* A fast memory's server asked directly (sim.model fast's L2): a read of
 * `size` bytes at pa arriving at `at` is answered at the returned time; a
 * write is posted (the returned time is its arrival) but holds its bank
 * and the bus.  Only for a memory made by dram_fast_create. */
sim_time dram_fast_access(struct dram *d, uint64_t pa, uint32_t size, bool write, sim_time at);
/* Host memory: DDR4 channels (keys host.dram.*, statistics host.dram.*)
 * whose input queues add host.latency GPU core cycles (the thesis' extra
 * interconnect hop, Tables 4.1/5.1/6.3), for cache-line remote accesses.
 * `dom` should run at host.dram.clock (hostmem_period gives it). */
struct dram *hostmem_create(struct engine *e, const struct config *cfg,
                            struct stats *st, const struct domain *dom);
/* The same host memory for sim.model fast where only the copy path uses it
 * (no page can be host-homed, system.c): each channel the server of
 * dram_fast_create, driven by the link's host loop as the cycle channels
 * are (issue 41, 2: "host memory on the page-copy path as a bandwidth
 * server where nothing else shares it"). */
struct dram *hostmem_fast_create(struct engine *e, const struct config *cfg,
                                 struct stats *st, const struct domain *dom);
sim_time hostmem_period(const struct config *cfg);
void dram_free(struct dram *d);

unsigned dram_nchannels(const struct dram *d);
const struct domain *dram_domain(const struct dram *d);

/* A memory whose channels a private event loop runs instead of the
 * engine (host memory behind the link: sim/link link_host_loop.c).  The
 * loop ticks channel ch with dram_tick() (the next tick wanted, or
 * TIME_NEVER, as a component's tick) and wakes it when it pushes into its
 * input queue (which then wakes nobody).  The memory hands it every answer:
 * at `at`, or with now = true at once from inside the tick; and tells it
 * when a channel took a request from its input queue (a slot freed). */
struct dram_loop {
    void (*answer)(void *ctx, struct mem_req *r, sim_time at, bool now);
    void (*popped)(void *ctx, unsigned ch, sim_time now);
};
void dram_set_loop(struct dram *d, const struct dram_loop *loop, void *ctx);
sim_time dram_tick(struct dram *d, unsigned ch, sim_time now);
/* Address mapping: which channel holds physical address pa. */
unsigned dram_channel_of(const struct dram *d, uint64_t pa);
struct mq *dram_channel_in(struct dram *d, unsigned ch);
/* A port that routes each request to its channel's queue. */
struct mem_port dram_port(struct dram *d);

/* Peak data bandwidth, bytes/s: channels x bus width x transfers per clock
 * x clock. */
double dram_peak_bandwidth(const struct dram *d);
/* Bytes moved by one column command (bus width x burst length). */
uint32_t dram_atom(const struct dram *d);

struct dram_totals {
    uint64_t reads, writes, bytes, row_hits, row_misses, row_conflicts,
             refreshes, refresh_ps;
};
void dram_totals(const struct dram *d, struct dram_totals *t);

/* ---- dram-replay: a request trace straight into GPU memory ----
 * Trace format (docs/dram-replay.md): one request per line,
 *   TIME_NS ADDRESS R|W [BYTES]
 * '#' starts a comment; times do not decrease. */
struct dram_replay_req { sim_time t; uint64_t addr; uint32_t size; bool write; };
struct dram_replay_result {
    size_t n;
    uint64_t reads, writes, bytes;
    sim_time first, end;        /* first arrival, last answer */
    sim_time *done;             /* answer time of request i */
    double bandwidth, peak, mean_lat;   /* bytes/s; ps */
    sim_time p50, p95, p99, max_lat;    /* read latency percentiles, ps */
    struct dram_totals tot;
};
/* Parse a trace; false with "NAME:LINE: why" in err on a bad line. */
bool dram_replay_parse(FILE *in, const char *name, struct dram_replay_req **reqs,
                       size_t *n, char *err, size_t errsz);
/* Run the requests through the GPU memory of cfg (keys dram.*). */
void dram_replay_run(const struct config *cfg, const struct dram_replay_req *reqs,
                     size_t n, struct dram_replay_result *res);
void dram_replay_print(FILE *out, const struct dram_replay_result *res);
void dram_replay_result_free(struct dram_replay_result *res);

/* Read-only view (uvmsim step): channel ch's queues and open rows. */
void dram_describe_channel(const struct dram *d, unsigned ch, FILE *out);

/* Config keys and checks of this room (sim/config_schema.c lists them). */
extern const struct cfg_key dram_config_keys[], hostmem_config_keys[], l2_config_keys[],
    l2_remote_config_keys[];
bool dram_config_check(const struct config *c, struct cfg_error *err);

#endif

/* L2 (sim/l2): the L2 slices in front of the GPU memory channels
 * (l2.c, keys l2.*), what selective caching keeps out of them
 * (l2_remote.c, keys l2.remote_*) and the remote directory's filter
 * (rdir.c).  The room's one public header; l2_int.h is its inside. */
#ifndef UVMSIM_L2_H
#define UVMSIM_L2_H

#include <stdbool.h>
#include <stdint.h>
#include "core/engine.h"
#include "core/mem_req.h"

struct config;
struct stats;
struct dram;

/* One L2 slice per GDDR channel, in front of the channels: line requests
 * from the SMs (through the crossbar) arrive in l2_slice_in(slice) (or
 * through l2_port()), are answered into req->reply, and the sender
 * releases them.  A slice sends its misses and write-backs as requests of
 * its own to dram_channel_in(dram_channel_of(pa)).  Runs in the core clock
 * domain `dom` (latencies in core cycles). */
struct req_pool;
struct l2;

struct l2 *l2_create(struct engine *e, const struct config *cfg,
                     struct stats *st, struct req_pool *pool,
                     const struct domain *dom, struct dram *d);
void l2_free(struct l2 *l);
unsigned l2_nslices(const struct l2 *l);
/* Which slice holds physical address pa (l2.hash). */
unsigned l2_slice_of(const struct l2 *l, uint64_t pa);
struct mq *l2_slice_in(struct l2 *l, unsigned slice);
/* A port that routes each request to its slice's queue. */
struct mem_port l2_port(struct l2 *l);
/* The driver evicted the page in the 4 KiB frame at pa: drop its lines.
 * Nothing is written back: the copy engine read the page through the L2,
 * the point of coherence for GPU memory, so it already has the dirty
 * data.  For the driver to call when it unmaps a page. */
void l2_invalidate_frame(struct l2 *l, uint64_t pa);
/* Lines of host-homed pages (paddr with PADDR_HOST): a slice sends their
 * misses and write-backs (or, with l2.remote_cache false, every request
 * for them, uncached) to send(ctx, r, now) -- the link's remote path --
 * instead of a GDDR channel; r comes back into the slice.  Registers
 * l2.remote_reads and l2.remote_uncached.  Without it such a request is
 * an internal error. */
void l2_set_remote(struct l2 *l, struct stats *st,
                   void (*send)(void *ctx, struct mem_req *r, sim_time now), void *ctx);
/* Selective caching's CPU side (thesis Sec. 6.2.1; l2_remote.c).  probe:
 * a GPU request r for a GPU-homed line the remote directory holds goes to
 * the CPU, which holds the line (`held`) or NACKs it; answer r into
 * r->reply, with LINE_NACK in r->xflags when not held.  answer: the CPU's
 * read of the line at pa (l2_cpu_read) has its data, to go to the CPU. */
struct l2_cpu {
    void (*probe)(void *ctx, struct mem_req *r, bool held, sim_time now);
    void (*answer)(void *ctx, uint64_t pa, sim_time now);
};
/* flush_line(flush_ctx, pa): drop the line from every L1D (the directory's
 * probe-and-discard). */
void l2_set_cpu(struct l2 *l, const struct l2_cpu *cpu, void *ctx,
                void (*flush_line)(void *ctx, uint64_t pa), void *flush_ctx);
/* A CPU read of the GPU-homed line at pa has reached GPU memory: under
 * selective caching it enters the remote directory and leaves every GPU
 * cache; the line is read and handed to cpu->answer.  At most L2_CPU_MAX
 * in flight (the sender's bound). */
#define L2_CPU_MAX 64u
void l2_cpu_read(struct l2 *l, uint64_t pa, sim_time now);
/* Whether the CPU holds the line at pa (its copies since the last flush). */
bool l2_cpu_holds(const struct l2 *l, uint64_t pa);
/* fn(ctx, pa) for every request a slice sends to memory (fetches and
 * write-backs, GDDR or host): the profiling pass's count (uvmsim profile). */
void l2_set_mem_hook(struct l2 *l, void (*fn)(void *ctx, uint64_t pa, unsigned sectors),
                     void *ctx);

/* sim.model fast (l2_fast.c): SM line requests looked up when sent, timed
 * by the slice's own latencies over a fast GPU memory (dram_fast_create).
 * l2_fast_access: a request of kind k for `mask` of the line at pa sent
 * through the crossbar at `sent`; *done is when its answer leaves the
 * slice (the crossbar's return latency is the sender's).  false: not
 * taken (a host-homed line, one the remote directory holds): send it to
 * the slice's queue.  The hook form fits gpu_set_mem_now. */
void l2_set_fast(struct l2 *l);
bool l2_fast_access(struct l2 *l, enum req_kind k, uint64_t pa, uint8_t mask, sim_time sent,
                    sim_time *done);
bool l2_fast_hook(void *l2, enum req_kind k, uint64_t pa, uint8_t mask, sim_time sent,
                  sim_time *done);

/* The remote directory's filter (rdir.c, thesis Sec. 6.2.1).
 * A cuckoo filter of 128 B line numbers: `bytes` of storage in buckets of
 * `bucket` fingerprints of `fp_bits` (2..16) bits; the bucket count is the
 * largest power of two that fits (NULL: none fits).  rdir_insert returns
 * false when the filter is full; it must then be reset (the fingerprint
 * kicked last is lost).  Never a false negative before that. */
struct rdir;
struct rdir *rdir_create(uint64_t bytes, unsigned bucket, unsigned fp_bits, uint64_t seed);
void rdir_free(struct rdir *d);
bool rdir_contains(const struct rdir *d, uint64_t line);
bool rdir_insert(struct rdir *d, uint64_t line);
void rdir_reset(struct rdir *d);
uint64_t rdir_count(const struct rdir *d);
uint64_t rdir_capacity(const struct rdir *d);

#endif

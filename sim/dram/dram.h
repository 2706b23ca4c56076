/* GPU memory (sim/dram): channels that serve line requests.  Skeleton:
 * every channel answers after a fixed latency; the channel/bank timing
 * model replaces the inside.  A sender picks the channel with
 * dram_channel_of() (or routes through dram_port()); every request is
 * answered into req->reply, and the sender releases it. */
#ifndef UVMSIM_DRAM_H
#define UVMSIM_DRAM_H

#include "../engine.h"
#include "../mem_req.h"

struct config;
struct stats;

struct dram;

struct dram *dram_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom);
void dram_free(struct dram *d);
unsigned dram_nchannels(const struct dram *d);
/* Address mapping: which channel holds physical address pa. */
unsigned dram_channel_of(const struct dram *d, uint64_t pa);
struct mq *dram_channel_in(struct dram *d, unsigned ch);
/* A port that routes each request to its channel's queue. */
struct mem_port dram_port(struct dram *d);

/* ---- L2 slices (sim/dram/l2*.c) ----
 * One L2 slice per GDDR channel, in front of the channels: line requests
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
/* ---- end of L2 slices ---- */

#endif

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

#endif

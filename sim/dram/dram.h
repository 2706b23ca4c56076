/* GPU memory (sim/dram).  Skeleton: every access is served after a fixed
 * latency; the channel/bank model replaces the inside later.  Requests
 * arrive in dram_in() and are answered into req->reply. */
#ifndef UVMSIM_DRAM_H
#define UVMSIM_DRAM_H

#include "../engine.h"

struct config;
struct stats;
struct req_pool;

struct dram;

struct dram *dram_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom);
void dram_free(struct dram *d);
struct mq *dram_in(struct dram *d);


#endif

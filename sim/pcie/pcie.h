/* CPU-GPU link (sim/pcie): two independent directions, each a serial
 * channel of given bandwidth plus a fixed latency.  Skeleton model; the
 * real PCIe/NVLink packet and copy-engine model replaces the inside. */
#ifndef UVMSIM_PCIE_H
#define UVMSIM_PCIE_H

#include "../engine.h"

struct config;
struct stats;

enum link_dir { LINK_H2D = 0, LINK_D2H = 1 };

struct link;

struct link *link_create(struct engine *e, const struct config *cfg,
                         struct stats *st, const struct domain *dom);
void link_free(struct link *l);

/* Queue a DMA of `bytes` in direction `dir`; `done(obj, arg, t)` runs when
 * the last byte has arrived.  Transfers in one direction are served in the
 * order queued.  Returns the completion time. */
sim_time link_transfer(struct link *l, enum link_dir dir, uint64_t bytes,
                       sim_time now, event_fn done, void *obj, uint64_t arg);


#endif

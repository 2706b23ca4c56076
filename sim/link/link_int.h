/* Inside of the link (sim/link); other folders include link.h. */
#ifndef UVMSIM_LINK_INT_H
#define UVMSIM_LINK_INT_H

#include "link.h"

/* A packet format: payloads of at most max_payload bytes, each packet
 * carrying `header` bytes and padded to whole flits. */
struct link_fmt { uint64_t max_payload, header, flit; };
uint64_t link_fmt_wire(const struct link_fmt *f, uint64_t payload);

#define MAX_CE 64

/* A transfer on the wire: n packets, each full one carrying pf payload
 * bytes in wf wire bytes, the last pl in wl; packet k < n leaves at
 * start + ser(k x wf), the last at end.  `sent` of them are credited. */
struct link_flight {
    sim_time start, end, ser;   /* end TIME_NEVER: reserved (link_h2d_reserve) */
    uint64_t n, sent, pf, wf, pl, wl;
    bool remote;                /* a remote access's packet (link_remote.c) */
};

struct link_dir_state {
    sim_time wire_free;
    sim_time ce_free[MAX_CE];
    uint64_t *bytes, *wire_bytes, *transfers, *messages, *busy_ps, *read_requests;
    uint64_t *remote_busy_ps, *remote_wire_bytes;   /* NULL: no remote path */
    struct link_flight *fl;     /* ring, in wire order: not yet fully credited */
    size_t fcap, fhead, fn;
    bool reserved;              /* the last flight is a reservation */
};

struct host_dma;   /* copy engines reading host memory (link_host.c) */
struct host_writer; /* landed D2H data into host memory (link_host_write.c) */
struct remote;      /* remote accesses (link_remote.c) */
struct dram;
struct req_pool;
struct stats;

struct link {
    struct engine *eng;
    const struct domain *dom;
    double bw;                  /* raw signalling rate, bytes/s, each direction */
    double rate;                /* packet bytes/s after encoding and DLLPs */
    sim_time latency, setup;
    double comp;                /* link.compression ratio; 0: off */
    sim_time comp_lat;          /* link.compression_latency (0 when off) */
    unsigned nce;
    uint64_t next_addr;         /* host addresses of link_transfer's DMAs */
    uint64_t mrrs;              /* bytes asked by one read request */
    /* Per direction: D2H carries the GPU's posted writes and read requests,
     * H2D the completions that answer its reads. */
    struct link_fmt fmt[2];
    struct link_dir_state d[2];
    struct host_dma *host;
    struct host_writer *hw;
    struct remote *remote;      /* NULL: no remote accesses (link_remote_enable) */
    sim_time epoch, max_time;   /* when statistics are sampled: the loop's bounds */
    struct stats *st;
};

/* Put `payload` bytes, packed in direction d's format, on its wire no
 * earlier than `ready`, the last byte leaving no earlier than `min_end`;
 * returns when it left. */
sim_time link_send(struct link *l, enum link_dir d, uint64_t payload,
                   sim_time ready, sim_time min_end);
/* An H2D copy from host memory has its first answer at `first`: with one
 * copy engine nothing else can take the H2D wire before its data, so its
 * packets are placed now (link_send puts them as reserved), and the
 * statistics credit them as they leave while the reads still run. */
void link_h2d_reserve(struct link *l, uint64_t payload, sim_time first);
/* One remote access's packet of `payload` bytes (0: a read request) on
 * direction d's wire from `ready`, first come first served; returns when
 * it left.  Its wire time counts as remote in the statistics. */
sim_time link_send_remote(struct link *l, enum link_dir d, uint64_t payload, sim_time ready);
void link_remote_free(struct remote *m);
/* The CPU-side client cache (link_client.c), NULL when host.client_cache.size
 * is 0.  client_cache_read: a GPU read h landed (after the access time):
 * CC_HIT (answer it `hop` later), CC_MERGED (it waits for its line, on its
 * way), CC_MISS (it waits in MSHR *mshr: read the line from DDR4 and hand
 * the answer to client_cache_filled, which returns the waiting reads,
 * linked through ->next), CC_BYPASS (to DDR4 as it is). */
struct client_cache;
enum cc_result { CC_HIT, CC_MERGED, CC_MISS, CC_BYPASS };
struct client_cache *client_cache_create(const struct config *cfg, struct stats *st,
                                         sim_time core_period);
void client_cache_free(struct client_cache *cc);
sim_time client_cache_access(const struct client_cache *cc);
sim_time client_cache_hop(const struct client_cache *cc);
enum cc_result client_cache_read(struct client_cache *cc, struct mem_req *h, uint32_t *mshr);
struct mem_req *client_cache_filled(struct client_cache *cc, uint32_t mshr);
/* A GPU write (or atomic) landed: write-through, no-write-allocate. */
void client_cache_write(struct client_cache *cc, const struct mem_req *h);
/* The host side's loop and request pool (link_host.c). */
struct hloop *link_host_loop(const struct link *l);
struct req_pool *link_host_pool(const struct link *l);
/* Wire time of `wire` packet bytes. */
sim_time link_ser(const struct link *l, uint64_t wire);
/* The read requests of an H2D DMA of `bytes`: one header-only request
 * per link.max_read_request bytes on the D2H wire from `ready`. */
void link_read_requests(struct link *l, uint64_t bytes, sim_time ready);
/* ---- the private loop of the host side (link_host_loop.c) ----
 * Components 0 .. channels-1 are host memory's channels; copy engines
 * and the writer add theirs.  A component's tick and wake are as the
 * engine's (comp_ops.tick, comp_wake_at); output(obj, t) says whether its
 * tick at t would touch anything outside the loop (the wire, the DMA
 * queue, a done event), which then runs in the engine's order; wants(obj)
 * (may be NULL: always) whether an answer needs its tick now, or can wait
 * in its reply queue for the next one.  ahead_ok says whether the loop may
 * run ahead (every copy engine busy). */
struct hloop;
struct mem_req;
struct hloop *hl_new(struct engine *e, struct dram *host, const struct domain *ldom,
                     sim_time lmin, sim_time epoch, sim_time max_time);
void hl_free(struct hloop *L);
unsigned hl_add(struct hloop *L, const struct domain *dom,
                sim_time (*tick)(void *obj, unsigned arg, sim_time now),
                bool (*output)(void *obj, sim_time now), bool (*wants)(void *obj), void *obj);
void hl_set_ahead(struct hloop *L, bool (*ok)(void *ctx), void *ctx);
void hl_lockstep(struct hloop *L, bool on);
void hl_wake(struct hloop *L, unsigned c, sim_time t);
/* fn(obj, t) at t, in the link domain's order. */
void hl_at(struct hloop *L, sim_time t, void (*fn)(void *obj, sim_time now), void *obj);
/* Push r into channel ch's input queue (not full) and wake the channel. */
void hl_push(struct hloop *L, unsigned ch, struct mem_req *r, sim_time now);
/* Channel ch's input queue is full: component c waits for a slot (true). */
bool hl_wait_if_full(struct hloop *L, unsigned ch, unsigned c);
sim_time hl_now(const struct hloop *L);
struct dram *hl_host(const struct hloop *L);
void hl_dump(const struct hloop *L, FILE *out);

/* `bytes` are read from host memory, `wire` payload bytes cross the link
 * (link.compression) and the landing waits `lat` more. */
sim_time link_host_dma(struct link *l, uint64_t host_addr, uint64_t bytes, uint64_t wire,
                       sim_time lat, sim_time now, event_fn done, void *obj, uint64_t arg);
void link_host_free(struct host_dma *h);
struct host_writer *link_host_writer_new(struct link *l, struct hloop *L,
                                         struct req_pool *pool, struct stats *st);
void link_host_writer_free(struct host_writer *w);
/* Write `bytes` at host address addr once they land at `landing`. */
void link_host_write(struct host_writer *w, uint64_t addr, uint64_t bytes, sim_time landing);

#endif

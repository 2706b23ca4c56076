/* Static page placement over two memories (Agarwal 2015, thesis Ch. IV):
 * the GPU's bandwidth-optimised memory (BO: GDDR) and the host's
 * capacity-optimised memory (CO: DDR4, reached over the link).  Every page
 * of every allocation is placed before the first kernel at no cost (no
 * faults, no copies), as the thesis models the OS placing pages at
 * allocation time (Sec. 4.2.2); GPU memory holds at most `capacity` pages,
 * the host any number.
 *
 * A policy is one file behind struct place_ops (driver.placement); it sees
 * the allocations in allocation order and fills where[i] for each page i
 * (pages numbered over all allocations, allocation order then address). */
#ifndef UVMSIM_PLACEMENT_H
#define UVMSIM_PLACEMENT_H

#include "core/base.h"
#include "workloads/workload.h"

enum { PLACE_GPU = 0, PLACE_HOST = 1 };

struct place_alloc {
    uint64_t npages;
    enum wl_hint hint;
    double hotness;          /* relative (0: not annotated) */
    uint64_t bytes;
};

struct place_in {
    const struct place_alloc *a;
    size_t nallocs;
    uint64_t npages;          /* sum of a[].npages */
    uint64_t capacity;        /* GPU frames */
    double bo_share;          /* y/100 of xC-yB: the share meant for GPU memory */
    uint64_t seed;
    const uint64_t *page_dram;   /* oracle: pass-1 DRAM sectors per page (NULL: none) */
};

struct place_ops {
    const char *name;
    /* where[0 .. in->npages) := PLACE_GPU or PLACE_HOST; at most
     * in->capacity pages PLACE_GPU. */
    void (*place)(const struct place_in *in, uint8_t *where);
};

extern const struct place_ops place_local_ops, place_interleave_ops, place_bwaware_ops,
    place_annotated_ops, place_oracle_ops, place_host_ops;
/* NULL: no such policy (also for "fault": pages placed by faults). */
const struct place_ops *place_find(const char *name);

/* BW-AWARE's draw over pages [first, first + n) in order (Sec. 4.2.2.2):
 * a page goes to GPU memory when its draw in [0, 1) is >= 1 - bo_share
 * and GPU memory has room (*room, decremented), else to the host.  The
 * draws come from one stream seeded by `seed`, `*rng_state` carried over
 * calls. */
struct rng;
void place_bw_draw(struct rng *r, double bo_share, uint64_t first, uint64_t n,
                   uint64_t *room, uint8_t *where);

/* ---- profiles (place_profile.c): the thesis' profiler (Sec. 4.4.1) and
 * the oracle's first pass (Sec. 4.3.2) in one text file ----
 *   uvmsim-profile 1
 *   alloc NAME BYTES REFERENCES DRAM_ACCESSES
 *   page ALLOC PAGE DRAM_ACCESSES
 * one alloc line per allocation in allocation order (REFERENCES: the
 * warp instructions' page references to it, before any cache, as the
 * profiler's counters; DRAM_ACCESSES: 32 B sectors moved to or from
 * memory after the caches, a request weighted by its sectors), then a
 * page line per page with DRAM accesses (ALLOC, PAGE:
 * indices from 0).  '#' starts a comment. */
struct place_profile {
    size_t nallocs;
    uint64_t refs[WL_MAX_ALLOCS], dram[WL_MAX_ALLOCS];
    uint64_t *page_dram;      /* per page, allocation order */
    uint64_t npages;
};
/* Read `path` for workload wl; a malformed file or one for another
 * workload is a user error naming path:line:col and the key (exit 2). */
void place_profile_read(const char *path, const char *key, const struct workload *wl,
                        struct place_profile *p);
void place_profile_free(struct place_profile *p);
/* Write p for wl to f. */
void place_profile_write(FILE *f, const struct workload *wl, const struct place_profile *p);

#endif

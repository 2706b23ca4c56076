/* Inside workloads/: shared machinery for kernel generators.
 *
 * Lanes: a kernel is written per thread, as the CUDA source is.  The warp's
 * instruction stream is a sequence of *positions* (the reconverged program
 * points of the kernel: one per memory op of each loop iteration, barriers,
 * compute); at each position a lane is either active with one memory op or
 * inactive (guard false, loop already finished: SIMT divergence).  The op
 * kind at a position must not depend on the lane.  Compute cycles attached to
 * a position are issued as one INST_COMPUTE before it.  Nothing is stored:
 * every address comes from the position's index arithmetic.
 *
 * Programs: a fixed list of steps with one loop (steps [from, to) repeated),
 * enough for Polybench/Rodinia/Parboil host code; kernel.arg carries the
 * iteration. */
#ifndef UVMSIM_WL_GEN_H
#define UVMSIM_WL_GEN_H

#include "workload.h"
#include "catalog.h"
#include "config/config.h"

#define PAGE_4K 4096ULL

struct wl_thread {
    uint32_t tx, ty, tz;      /* threadIdx */
    uint32_t bx, by, bz;      /* blockIdx */
    uint32_t tid;             /* linear thread index within the block */
};

/* Lane LANE's coordinates (the definition; wl_simple_next_inst steps
 * them lane by lane with the same result, see wl_threads_of). */
static inline void wl_thread_of(const struct warp_ctx *w, uint32_t lane,
                                struct wl_thread *t)
{
    const struct wl_kernel *k = w->k;
    uint32_t tid = w->warp * WARP_SIZE + lane;
    t->tid = tid;
    t->tx = tid % k->block.x;
    t->ty = (tid / k->block.x) % k->block.y;
    t->tz = tid / (k->block.x * k->block.y);
    t->bx = (uint32_t)(w->block % k->grid.x);
    t->by = (uint32_t)((w->block / k->grid.x) % k->grid.y);
    t->bz = (uint32_t)(w->block / ((uint64_t)k->grid.x * k->grid.y));
}

/* Lanes 0..N-1 of warp W (N <= WARP_SIZE): the coordinates of the first
 * from wl_thread_of's divisions, the others by stepping threadIdx (x
 * fastest), as consecutive threads of a block are numbered. */
static inline void wl_threads_of(const struct warp_ctx *w, uint32_t n,
                                 struct wl_thread *t)
{
    if (!n) return;
    wl_thread_of(w, 0, &t[0]);
    const struct dim3 b = w->k->block;
    for (uint32_t l = 1; l < n; l++) {
        t[l] = t[l - 1];
        t[l].tid++;
        if (++t[l].tx == b.x) {
            t[l].tx = 0;
            if (++t[l].ty == b.y) { t[l].ty = 0; t[l].tz++; }
        }
    }
}

/* One lane's op at one position. */
struct wl_top {
    enum inst_op op;          /* LOAD, STORE, ATOMIC, BARRIER, COMPUTE */
    uint32_t size;            /* bytes (memory ops) */
    uint32_t compute;         /* cycles of compute issued before this op */
    uint64_t addr;
    /* Set (with a false return) when the lane is inactive here and at
     * every later position of the warp: its thread has finished, and it is
     * not asked again.  Left false, the lane is asked at every position. */
    bool done;
};

/* Lane LANE's op at position POS: false when the lane is inactive there. */
typedef bool (*wl_lane_fn)(const void *impl, const struct warp_ctx *w,
                           const struct wl_thread *t, uint64_t pos,
                           struct wl_top *op);
/* Positions of warp W (all lanes), evaluated at warp start. */
typedef uint64_t (*wl_npos_fn)(const void *impl, const struct warp_ctx *w);

/* A program of steps in nested loops and branches (prog.c): built once by
 * the generator's create, walked by next_step, and described to the SC19
 * analyses as bracketed wl_program nodes. */
#define WL_PROG_STEPS 64
#define WL_PROG_NODES 128
#define WL_PROG_DEPTH 16
typedef bool (*wl_cond_fn)(const void *impl, uint64_t visit);
struct wl_prog {
    struct wl_step s[WL_PROG_STEPS];
    uint32_t n;                         /* steps so far */
    struct wl_pnode node[WL_PROG_NODES];
    uint32_t nn;                        /* nodes so far */
    uint32_t opener[WL_PROG_NODES];     /* END: its LOOP or IF */
    uint64_t iters[WL_PROG_NODES];      /* LOOP: trips per entry */
    wl_cond_fn cond[WL_PROG_NODES];     /* IF */
    const void *cond_impl[WL_PROG_NODES];
    uint32_t open[WL_PROG_DEPTH], nopen;        /* constructs being built */
    /* walking */
    uint32_t pc;                        /* next node */
    uint64_t it[WL_PROG_NODES];         /* LOOP: its iteration */
    uint64_t visit[WL_PROG_NODES];      /* IF: executions so far */
    uint32_t loops[WL_PROG_DEPTH], nloops;      /* enclosing loops at pc */
    struct wl_program view;
};

/* A generator written per thread: the impl struct starts with this. */
struct wl_simple {
    struct wl_prog prog;
    wl_npos_fn npos;
    wl_lane_fn lane;
};

void wl_prog_kernel(struct wl_prog *p, const char *name, uint32_t id,
                    struct dim3 grid, struct dim3 block, uint32_t regs,
                    uint32_t smem);
void wl_prog_host(struct wl_prog *p, enum wl_step_kind kind, uint32_t alloc,
                  uint64_t offset, uint64_t bytes, enum wl_dir dir,
                  enum wl_advice advice);
/* Nested loops and branches (SC19's launch CFG): wl_prog_loop_begin opens
 * a loop whose body is every node added until the matching wl_prog_end,
 * run ITERS times per entry (0: skipped); TRIP says how a compiler knows
 * the count.  wl_prog_if opens a two-way branch whose then-branch runs
 * when COND(IMPL, VISIT) is true (VISIT counts this branch's executions
 * from 0); P_THEN is its static probability.  Inside loops a kernel's arg
 * is the innermost loop's iteration (0 outside).  wl_prog_program is the
 * program as wl_program nodes (a kernel's site is its node's index). */
void wl_prog_loop_begin(struct wl_prog *p, enum wl_trip trip, uint64_t iters);
void wl_prog_if(struct wl_prog *p, double p_then, wl_cond_fn cond, const void *impl);
void wl_prog_else(struct wl_prog *p);
void wl_prog_end(struct wl_prog *p);
const struct wl_program *wl_prog_program(const struct wl_prog *p);
/* Steps [from, n) so far form a loop body, run ITERS times (0: skipped): a
 * data-dependent loop (every generator's loop count is an input). */
void wl_prog_loop(struct wl_prog *p, uint32_t from, uint64_t iters);
bool wl_prog_next(struct wl_prog *p, struct wl_step *out);

/* The workload_ops members of a wl_simple generator. */
bool wl_simple_next_step(void *impl, struct wl_step *out);
void wl_simple_warp_start(void *impl, struct warp_ctx *w);
void wl_simple_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *out);
void wl_simple_destroy(void *impl);

static inline uint32_t wl_div_up(uint64_t a, uint64_t b)
{ return (uint32_t)((a + b - 1) / b); }

/* Per-generator seed from sim.seed (splitmix64 of seed ^ salt). */
uint64_t wl_seed(const struct config *cfg, uint64_t salt);
static inline uint64_t wl_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

#endif

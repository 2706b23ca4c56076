/* A generator's host program (gen.h): kernel launches and host steps in
 * nested loops and two-way branches, kept as the bracketed node list the
 * SC19 analyses read (workload.h wl_program) and walked by next_step. */
#include <string.h>
#include "gen.h"

static void view(struct wl_prog *p)
{
    p->view = (struct wl_program){ p->node, p->nn, p->s, p->n };
}

static uint32_t add_node(struct wl_prog *p, struct wl_pnode nd)
{
    SIM_ASSERT(p->nn < WL_PROG_NODES, "workload", 0, "program longer than %d nodes",
               WL_PROG_NODES);
    p->node[p->nn] = nd;
    view(p);
    return p->nn++;
}

static struct wl_step *add_step(struct wl_prog *p)
{
    SIM_ASSERT(p->n < WL_PROG_STEPS, "workload", 0, "program longer than %d steps",
               WL_PROG_STEPS);
    struct wl_step *s = &p->s[p->n];
    memset(s, 0, sizeof *s);
    add_node(p, (struct wl_pnode){ .kind = WL_PN_STEP, .step = p->n++ });
    view(p);
    return s;
}

void wl_prog_kernel(struct wl_prog *p, const char *name, uint32_t id,
                    struct dim3 grid, struct dim3 block, uint32_t regs,
                    uint32_t smem)
{
    struct wl_step *s = add_step(p);
    s->kind = WL_STEP_KERNEL;
    snprintf(s->kernel.name, sizeof s->kernel.name, "%s", name);
    s->kernel.id = id;
    s->kernel.grid = grid;
    s->kernel.block = block;
    s->kernel.regs_per_thread = regs;
    s->kernel.smem_per_block = smem;
    s->kernel.site = p->nn - 1;
}

void wl_prog_host(struct wl_prog *p, enum wl_step_kind kind, uint32_t alloc,
                  uint64_t offset, uint64_t bytes, enum wl_dir dir,
                  enum wl_advice advice)
{
    struct wl_step *s = add_step(p);
    s->kind = kind;
    s->host = (struct wl_host_step){ alloc, offset, bytes, dir, advice, false, false };
}

static void push(struct wl_prog *p, uint32_t i)
{
    SIM_ASSERT(p->nopen < WL_PROG_DEPTH, "workload", 0, "program nested deeper than %d",
               WL_PROG_DEPTH);
    p->open[p->nopen++] = i;
}

void wl_prog_loop_begin(struct wl_prog *p, enum wl_trip trip, uint64_t iters)
{
    uint32_t i = add_node(p, (struct wl_pnode){ .kind = WL_PN_LOOP, .trip = trip,
                                                .trips = (double)iters, .end = UINT32_MAX });
    p->iters[i] = iters;
    push(p, i);
}

void wl_prog_if(struct wl_prog *p, double p_then, wl_cond_fn cond, const void *impl)
{
    uint32_t i = add_node(p, (struct wl_pnode){ .kind = WL_PN_IF, .p_then = p_then,
                                                .end = UINT32_MAX });
    p->cond[i] = cond;
    p->cond_impl[i] = impl;
    push(p, i);
}

void wl_prog_else(struct wl_prog *p)
{
    SIM_ASSERT(p->nopen && p->node[p->open[p->nopen - 1]].kind == WL_PN_IF &&
               p->node[p->open[p->nopen - 1]].end == UINT32_MAX,
               "workload", 0, "program: else without its if");
    uint32_t op = p->open[p->nopen - 1];
    p->node[op].end = add_node(p, (struct wl_pnode){ .kind = WL_PN_ELSE, .end = UINT32_MAX });
}

void wl_prog_end(struct wl_prog *p)
{
    SIM_ASSERT(p->nopen, "workload", 0, "program: end without a loop or if");
    uint32_t op = p->open[--p->nopen];
    uint32_t e = add_node(p, (struct wl_pnode){ .kind = WL_PN_END });
    p->opener[e] = op;
    if (p->node[op].kind == WL_PN_IF && p->node[op].end != UINT32_MAX)
        p->node[p->node[op].end].end = e;       /* the IF points at its ELSE */
    else
        p->node[op].end = e;
    view(p);
}

/* Wraps the steps [from, n) -- plain steps at the end of the node list,
 * as every single-loop generator builds them -- in a loop. */
void wl_prog_loop(struct wl_prog *p, uint32_t from, uint64_t iters)
{
    SIM_ASSERT(!p->nopen, "workload", 0, "wl_prog_loop inside an open loop or if");
    uint32_t at = p->nn;
    while (at > 0 && p->node[at - 1].kind == WL_PN_STEP && p->node[at - 1].step >= from) at--;
    SIM_ASSERT(p->nn - at == p->n - from, "workload", 0,
               "wl_prog_loop: steps %u.. are not the last plain nodes", from);
    SIM_ASSERT(p->nn + 2 <= WL_PROG_NODES, "workload", 0, "program longer than %d nodes",
               WL_PROG_NODES);
    memmove(&p->node[at + 1], &p->node[at], (p->nn - at) * sizeof p->node[0]);
    p->nn++;
    for (uint32_t i = at + 1; i < p->nn; i++) p->s[p->node[i].step].kernel.site = i;
    p->node[at] = (struct wl_pnode){ .kind = WL_PN_LOOP, .trip = WL_TRIP_DATA,
                                     .trips = (double)iters, .end = UINT32_MAX };
    p->iters[at] = iters;
    push(p, at);
    wl_prog_end(p);
}

const struct wl_program *wl_prog_program(const struct wl_prog *p)
{
    return &p->view;
}

bool wl_prog_next(struct wl_prog *p, struct wl_step *out)
{
    SIM_ASSERT(!p->nopen, "workload", 0, "program walked with a loop or if left open");
    while (p->pc < p->nn) {
        uint32_t i = p->pc;
        const struct wl_pnode *nd = &p->node[i];
        switch (nd->kind) {
        case WL_PN_STEP:
            *out = p->s[nd->step];
            if (out->kind == WL_STEP_KERNEL) {
                out->kernel.arg = p->nloops ? p->it[p->loops[p->nloops - 1]] : 0;
                out->kernel.site = i;
            }
            p->pc++;
            return true;
        case WL_PN_LOOP:
            if (!p->iters[i]) { p->pc = nd->end + 1; break; }
            p->it[i] = 0;
            p->loops[p->nloops++] = i;
            p->pc++;
            break;
        case WL_PN_IF: {
            bool then = p->cond[i](p->cond_impl[i], p->visit[i]++);
            p->pc = then ? i + 1 : nd->end + 1;
            break;
        }
        case WL_PN_ELSE:                /* the then-branch is over */
            p->pc = nd->end + 1;
            break;
        case WL_PN_END: {
            uint32_t op = p->opener[i];
            if (p->node[op].kind == WL_PN_LOOP && ++p->it[op] < p->iters[op]) {
                p->pc = op + 1;
            } else {
                if (p->node[op].kind == WL_PN_LOOP) p->nloops--;
                p->pc++;
            }
            break;
        }
        }
    }
    return false;
}

/* The SC19 compiler analyses over a workload's launch CFG (Li & Chapman,
 * SC19, Sec. 4): regional locality RL and invocation frequency RF
 * (Sec. 4.1), global locality GL (Eq. 1), the region-to-region distance of
 * Listing 2 and the target reuse distance (Sec. 4.3).
 *
 * Listing 2 is a DFS fixed point over PreBB2TR / PosBB2TR with branch
 * probabilities: with them its values are expected counts of regions met
 * on the way, i.e. expected hitting costs of the CFG's Markov chain (spec
 * B.3.3: the literal iteration from INF does not converge).  They are
 * solved here exactly, one small linear system per destination region,
 * over the program's positions (one per wl_program node, plus the exit).
 * Loops are rotated, as LLVM's are: the body runs once on entry and the
 * back edge is taken with p = (T - 1) / T for T expected trips -- the
 * constant for WL_TRIP_CONST, LLVM's static 124:4 heuristic (p = 0.96875,
 * T = 32) for WL_TRIP_DATA unless rt_opts.exact_trips (the run's own mean,
 * an oracle).  Branches take p_then. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rt_info.h"

/* LLVM BranchProbabilityInfo: a loop back edge weighs 124 against 4. */
#define LLVM_BACKEDGE_P (124.0 / 128.0)
#define MAXPOS (2 * RT_MAX_REGIONS + 64)

struct cfg {
    const struct wl_program *p;
    uint32_t n;                 /* positions 0..n-1 are nodes, n is the exit */
    uint32_t opener[MAXPOS];    /* END: its LOOP or IF */
    double trips[MAXPOS];       /* LOOP: expected trips per entry */
    int region[MAXPOS];         /* STEP of a kernel: its region, else -1 */
};

static bool fail(char *err, size_t len, const char *msg, uint32_t at)
{
    snprintf(err, len, "%s (program node %u)", msg, at);
    return false;
}

/* Checks the bracketing against each node's `end` and fills opener[]. */
static bool cfg_build(struct cfg *c, const struct wl_program *p, const struct rt_opts *o,
                      char *err, size_t len)
{
    if (p->n >= MAXPOS) return fail(err, len, "program longer than the analysis handles", p->n);
    c->p = p;
    c->n = p->n;
    uint32_t stack[MAXPOS], sp = 0;
    for (uint32_t i = 0; i < p->n; i++) {
        const struct wl_pnode *nd = &p->node[i];
        c->region[i] = -1;
        switch (nd->kind) {
        case WL_PN_STEP:
            if (nd->step >= p->nsteps) return fail(err, len, "step index out of range", i);
            break;
        case WL_PN_LOOP: {
            double t = nd->trip == WL_TRIP_CONST || o->exact_trips ? nd->trips
                                                                    : 1.0 / (1.0 - LLVM_BACKEDGE_P);
            if (!(t >= 0)) return fail(err, len, "loop with a negative trip count", i);
            c->trips[i] = t;
            stack[sp++] = i;
            break;
        }
        case WL_PN_IF:
            if (!(nd->p_then >= 0 && nd->p_then <= 1))
                return fail(err, len, "branch probability outside [0, 1]", i);
            stack[sp++] = i;
            break;
        case WL_PN_ELSE:
            if (!sp || p->node[stack[sp - 1]].kind != WL_PN_IF || p->node[stack[sp - 1]].end != i)
                return fail(err, len, "else without its if", i);
            break;
        case WL_PN_END: {
            if (!sp) return fail(err, len, "end without a loop or if", i);
            uint32_t op = stack[--sp];
            const struct wl_pnode *on = &p->node[op];
            uint32_t want = on->end;
            if (on->kind == WL_PN_IF && want < p->n && p->node[want].kind == WL_PN_ELSE)
                want = p->node[want].end;
            if (want != i) return fail(err, len, "end index does not match its opener", op);
            c->opener[i] = op;
            break;
        }
        default:
            return fail(err, len, "unknown node kind", i);
        }
    }
    if (sp) return fail(err, len, "loop or if left open", stack[sp - 1]);
    return true;
}

/* Successors of position i with their probabilities (at most 2). */
static int succ(const struct cfg *c, uint32_t i, uint32_t to[2], double pr[2])
{
    const struct wl_pnode *nd = &c->p->node[i];
    switch (nd->kind) {
    case WL_PN_LOOP: {
        double t = c->trips[i], enter = t >= 1 ? 1.0 : t;
        uint32_t after = nd->end + 1;
        if (enter >= 1) { to[0] = i + 1; pr[0] = 1; return 1; }
        to[0] = i + 1; pr[0] = enter;
        to[1] = after; pr[1] = 1 - enter;
        return 2;
    }
    case WL_PN_IF: {
        uint32_t e = nd->end;       /* its ELSE (else-branch after it) or END */
        to[0] = i + 1; pr[0] = nd->p_then;
        to[1] = e + 1; pr[1] = 1 - nd->p_then;
        return 2;
    }
    case WL_PN_ELSE:                /* the then-branch falls through to the END */
        to[0] = nd->end + 1; pr[0] = 1;
        return 1;
    case WL_PN_END: {
        uint32_t op = c->opener[i];
        if (c->p->node[op].kind == WL_PN_LOOP) {
            double t = c->trips[op], back = t > 1 ? (t - 1) / t : 0;
            to[0] = op + 1; pr[0] = back;
            to[1] = i + 1; pr[1] = 1 - back;
            return 2;
        }
        to[0] = i + 1; pr[0] = 1;
        return 1;
    }
    default:
        to[0] = i + 1; pr[0] = 1;
        return 1;
    }
}

/* Solves A x = b (m x m, row-major, destroyed) by Gaussian elimination
 * with partial pivoting.  false if singular. */
static bool solve(double *a, double *b, double *x, uint32_t m)
{
    for (uint32_t k = 0; k < m; k++) {
        uint32_t piv = k;
        for (uint32_t r = k + 1; r < m; r++)
            if (fabs(a[r * m + k]) > fabs(a[piv * m + k])) piv = r;
        if (fabs(a[piv * m + k]) < 1e-12) return false;
        if (piv != k) {
            for (uint32_t j = 0; j < m; j++) {
                double t = a[k * m + j]; a[k * m + j] = a[piv * m + j]; a[piv * m + j] = t;
            }
            double t = b[k]; b[k] = b[piv]; b[piv] = t;
        }
        for (uint32_t r = k + 1; r < m; r++) {
            double f = a[r * m + k] / a[k * m + k];
            if (f == 0) continue;
            for (uint32_t j = k; j < m; j++) a[r * m + j] -= f * a[k * m + j];
            b[r] -= f * b[k];
        }
    }
    for (uint32_t k = m; k-- > 0;) {
        double s = b[k];
        for (uint32_t j = k + 1; j < m; j++) s -= a[k * m + j] * x[j];
        x[k] = s / a[k * m + k];
    }
    return true;
}

/* For destination region R2: x[i] = sum over the chain from position i of
 * w(state) until R2 is entered (R2 itself weighs HIT) or the program
 * exits; w = 1 at other kernels' steps when COUNT, else 0, and B adds the
 * per-state right-hand side given in RHS (NULL: w). */
static bool hitting(const struct cfg *c, uint32_t site2, double hit, const double *rhs,
                    double *x, double *a)
{
    double b[MAXPOS + 1];
    uint32_t m = c->n + 1;
    memset(a, 0, sizeof(double) * m * m);
    for (uint32_t i = 0; i < m; i++) {
        a[i * m + i] = 1;
        if (i == c->n) { b[i] = 0; continue; }                 /* exit */
        if (i == site2) { b[i] = hit; continue; }
        b[i] = rhs ? rhs[i] : (c->region[i] >= 0 ? 1.0 : 0.0);
        uint32_t to[2];
        double pr[2];
        int k = succ(c, i, to, pr);
        for (int j = 0; j < k; j++) a[i * m + to[j]] -= pr[j];
    }
    return solve(a, b, x, m);
}

uint32_t rt_region_of_site(const struct rt_info *ri, uint32_t site)
{
    for (uint32_t r = 0; r < ri->nregions; r++)
        if (ri->site[r] == site) return r;
    return UINT32_MAX;
}

bool rt_analyze(struct rt_info *ri, const struct wl_program *prog, uint32_t nobjs,
                rt_uses_fn uses, void *ctx, const struct rt_opts *o, char *err, size_t errlen)
{
    struct cfg c;
    memset(ri, 0, sizeof *ri);
    if (nobjs > WL_MAX_ALLOCS) { snprintf(err, errlen, "more than %d data objects", WL_MAX_ALLOCS); return false; }
    ri->nobjs = nobjs;
    if (!cfg_build(&c, prog, o, err, errlen)) return false;

    /* Regions in program order, with RF: the product of the enclosing
     * loops' expected trips and branch probabilities (Sec. 4.1's
     * F_{foo,main} x F_{TR,foo} within one program). */
    double mult[MAXPOS + 1];
    uint32_t depth = 0;
    mult[0] = 1;
    for (uint32_t i = 0; i < prog->n; i++) {
        const struct wl_pnode *nd = &prog->node[i];
        if (nd->kind == WL_PN_LOOP) { mult[depth + 1] = mult[depth] * c.trips[i]; depth++; }
        else if (nd->kind == WL_PN_IF) { mult[depth + 1] = mult[depth] * nd->p_then; depth++; }
        else if (nd->kind == WL_PN_ELSE) {
            /* the else-branch: the IF's own multiplier times 1 - p_then */
            uint32_t op = i;
            while (op-- > 0)
                if (prog->node[op].kind == WL_PN_IF && prog->node[op].end == i) break;
            mult[depth] = mult[depth - 1] * (1 - prog->node[op].p_then);
        } else if (nd->kind == WL_PN_END) depth--;
        else if (prog->step[nd->step].kind == WL_STEP_KERNEL) {
            if (ri->nregions == RT_MAX_REGIONS) {
                snprintf(err, errlen, "more than %d kernel launches in the program",
                         RT_MAX_REGIONS);
                return false;
            }
            uint32_t r = ri->nregions++;
            c.region[i] = (int)r;
            ri->site[r] = i;
            ri->rf[r] = mult[depth];
            struct wl_use u[WL_MAX_ALLOCS];
            size_t k = uses(ctx, &prog->step[nd->step].kernel, u, WL_MAX_ALLOCS);
            for (size_t j = 0; j < k && j < WL_MAX_ALLOCS; j++) {
                uint32_t d = u[j].alloc;
                if (d >= nobjs) {
                    snprintf(err, errlen, "kernel '%s' uses allocation %u of %u",
                             prog->step[nd->step].kernel.name, d, nobjs);
                    return false;
                }
                ri->uses[r][d] = true;
                ri->mode[r][d] |= u[j].mode;
                ri->rl[r][d] += u[j].freq;
                ri->bytes_iter[r][d] += u[j].bytes_iter;
            }
        }
    }

    /* GL, Eq. 1; gl8 scales it to the largest, rounding up so that a used
     * object never reads 0 (the runtime keeps GL in 8 bits, Sec. 3.4). */
    double top = 0;
    for (uint32_t d = 0; d < nobjs; d++) {
        for (uint32_t r = 0; r < ri->nregions; r++) ri->gl[d] += ri->rf[r] * ri->rl[r][d];
        if (ri->gl[d] > top) top = ri->gl[d];
    }
    for (uint32_t d = 0; d < nobjs; d++)
        ri->gl8[d] = top > 0 ? (uint8_t)fmin(255, ceil(255 * ri->gl[d] / top - 1e-9)) : 0;

    /* dist[r][r2]: the regions met after r's end up to and including r2's
     * start (Fig. 3: O used by TR_0 and next by TR_2 is at distance 2).
     * A path that leaves the program first counts the regions until the
     * exit (Listing 2's exit block, spec B.3.3); with exit_inf the
     * distance is conditioned on reaching r2 (+inf if it never is). */
    double h[MAXPOS + 1], q[MAXPOS + 1], g[MAXPOS + 1], rhs[MAXPOS + 1];
    double *a = xcalloc((size_t)(c.n + 1) * (c.n + 1), sizeof *a);
    for (uint32_t r2 = 0; r2 < ri->nregions; r2++) {
        uint32_t s2 = ri->site[r2];
        bool ok = hitting(&c, s2, 1.0, NULL, h, a);
        if (ok && o->exit_inf) {
            double zero[MAXPOS + 1] = { 0 };
            ok = hitting(&c, s2, 1.0, zero, q, a);      /* P(reach r2) */
            for (uint32_t i = 0; ok && i < c.n; i++) rhs[i] = c.region[i] >= 0 ? q[i] : 0;
            ok = ok && hitting(&c, s2, 1.0, rhs, g, a); /* E[count; reach] */
        }
        if (!ok) {
            free(a);
            snprintf(err, errlen, "the launch CFG's distances have no solution");
            return false;
        }
        for (uint32_t r = 0; r < ri->nregions; r++) {
            uint32_t from = ri->site[r] + 1;
            double dv = h[from];
            if (o->exit_inf) dv = q[from] > 1e-12 ? g[from] / q[from] : INFINITY;
            ri->dist[r][r2] = dv;
        }
    }
    free(a);
    for (uint32_t r = 0; r < ri->nregions; r++)
        for (uint32_t d = 0; d < nobjs; d++) {
            double best = INFINITY;
            for (uint32_t r2 = 0; r2 < ri->nregions; r2++)
                if (ri->uses[r2][d] && ri->dist[r][r2] < best) best = ri->dist[r][r2];
            ri->rd[r][d] = best;
        }
    return true;
}

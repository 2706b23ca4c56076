/* comd: CoMD classical molecular dynamics, the EAM force over link cells,
 * as NVIDIA's CUDA port that the thesis's simulator ran (thesis ref. [19],
 * Mohd-Yusof & Sakharnykh, GTC'14): proxy-apps-doe/comd (gpgpu-sim_
 * simulations; driver.cpp, utility.cpp, utils/domains.cpp, utils/
 * sim_reader.cpp, eam_thread_atom*.h, timestep_kernels.cu), run as
 * `CoMDCUDA -p ag -e -x 20 -y 20 -z 20 -n 0` (README default grid, the
 * default method thread_atom_warp_sync, which outside the ECX simulator is
 * the thread-per-atom kernel), double precision (Makefile -DDOUBLE).
 * Thesis (Agarwal) comd: the memory-insensitive workload of Ch. IV.
 *
 * Input (utils/sim_reader.cpp create_fcc_lattice, domains.cpp): Ag, lattice
 * constant 4.09 A (pots/ag.doc), cutoff 5.542 A (ag.phi's xn); an FCC lattice
 * of x*y*z unit cells at temperature 0: sites lat/4 + lat/2*(i, j, k) with
 * i+j+k odd, the counters running on across rows as the source's do.  Link
 * cells: nbx = 2 + floor(bounds/cutoff) per dimension, the last two of each
 * dimension halo boxes (mirrors of box nbx-3 and box 0); at most 16 atoms a
 * box (N_MAX_ATOMS), atom a of box b at slot 16*b + a, positions relative to
 * the box centre.  Every non-halo box has 27 neighbours (itself 13th),
 * periodic through the halos.  The atom list (n_list_boxes / n_list_atoms)
 * runs over the non-halo boxes in order.  Nothing here is random: sim.seed
 * does not change comd.
 *
 * Program (driver.cpp run with iters*steps = workload.comd.steps): the
 * host's copies in (fill_sim_dev: r, p, f, the grid arrays, the EAM tables;
 * the mass array, unused by the kernels, and the arrays only the cta_box
 * methods read are left out); compute_force(first): EAM_Force_thread_atom<1>,
 * EAM_Force_2, copy_halos, EAM_Force_thread_atom<3>; then per step
 * AdvancePositions, copy_halos, <1>, EAM_Force_2, copy_halos, <3>,
 * AdvanceVelocity, AdvancePositions; the energies copied out.
 *
 * EAM_Force_thread_atom<s><<<ceil(atoms/128), 128>>>, id < atoms: load
 *   n_list_atoms[id], n_list_boxes[id]; r.x/y/z[i]; n_atoms[ibox]; s = 3:
 *   f.x/y/z[i]; n_neighbors[ibox] and r_box.x/y/z[ibox] (loop invariants of
 *   a loop without stores: loaded once); per neighbour j < 27: load
 *   neighbor_list[27*ibox + j], r_box.x/y/z[jbox], n_atoms[jbox]; per atom
 *   jatom < n_atoms[jbox]: load r.x/y/z[jp]; if 0 < r2 <= cutoff^2:
 *   s = 1: phi[i1..i1+3], rho[i1..i1+3]; s = 3: rho[i1..i1+3], fi[i], fi[jp]
 *   (i1 = floor((r - 1.0) * 660.50198...), eamInterpolateDeriv_opt); then
 *   store f.x/y/z[i]; s = 1: store e[i], rho[i].
 * EAM_Force_2<<<boxes, max_atoms>>>: load n_atoms[ibox]; if the atom
 *   exists and the box is no halo: load rho[i], n_values[2], F[n+3..n+5],
 *   F[i1+2], F[i1], F[i1+3], F[i1+1]; store fi[i]; load e[i]; store e[i].
 *   At 0 K every atom has the same density (12 neighbours at a/sqrt2, 6
 *   at a, 24 at a*sqrt(3/2), within the 5.542 cutoff); interpolating ag.rho
 *   there (eamInterpolateDeriv_opt) gives 0.0913556, so i1 = floor((0.0913556
 *   - x0) * 3552.357828) = 323 with ag.f's x0 = 0 + 0.633664/2251 (2251
 *   values, xn 0.633664, as allocPotentialArray moves it).
 * copy_halos<<<boxes, max_atoms>>>: load n_atoms[ibox]; halo atoms: load
 *   fi, r.x, r.y, r.z of the mirror slot, each stored to the halo slot.
 * AdvancePositions / AdvanceVelocity<<<boxes, max_atoms>>>, non-halo boxes:
 *   load n_atoms[ibox]; per component: load r (p), load p (f), store r (p). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gen.h"

#define CM_MAXA 16          /* N_MAX_ATOMS */
#define CM_NB 27            /* N_MAX_NEIGHBORS */
#define CM_CTA 128          /* THREAD_ATOM_CTA */
#define CM_LAT 4.09
#define CM_CUT 5.542
/* ag.phi / ag.rho headers (big-endian Fortran records): n 3000, x0 1.0,
 * xn 5.542, invDx 660.50198...; eam_reader.cpp allocPotentialArray moves
 * x0 to x0 + (xn - x0)/n, the value the kernels get (HostEAMInit). */
#define CM_X0 (1.0 + (5.542 - 1.0) / 3000.0)
#define CM_INVDX 660.5019815060001
#define CM_NTAB 3000        /* ag.phi / ag.rho values */
#define CM_NF 2251          /* ag.f values */
#define CM_F_I1 323

enum { K_EAM1, K_EAM2, K_HALO, K_EAM3, K_ADVP, K_ADVV };
enum { A_RX, A_RY, A_RZ, A_PX, A_PY, A_PZ, A_FX, A_FY, A_FZ, A_E, A_FI, A_RHO,
       A_BX, A_BY, A_BZ, A_NL, A_NN, A_NA, A_LA, A_LB, A_TRHO, A_TPHI, A_TF, A_NV, A_N };

struct comd {
    struct wl_simple g;
    uint64_t steps, step;
    int nbx[3];
    uint64_t nboxes, atoms, ma;
    double boxsize[3];
    double *dc;             /* box centres, 3 per box */
    double *r;              /* positions relative to the box centre, 3 per slot */
    uint8_t *na;            /* atoms per box */
    int32_t *nl;            /* 27 neighbours per box */
    int32_t *lbox;          /* atom list: box, slot */
    uint8_t *latom;
    uint64_t a[A_N];
    int pc;
    const struct workload *wl;  /* for the copies' sizes */
};

const struct cfg_key comd_config_keys[] = {
    {"workload.comd.x", CFG_INT, "20", 2, 1000, NULL, "FCC unit cells in x (CoMD default -x 20)"},
    {"workload.comd.y", CFG_INT, "20", 2, 1000, NULL, "FCC unit cells in y (CoMD default -y 20)"},
    {"workload.comd.z", CFG_INT, "20", 2, 1000, NULL, "FCC unit cells in z (CoMD default -z 20)"},
    {"workload.comd.steps", CFG_INT, "0", 0, 1e6, NULL,
     "time steps after the first force computation (the thesis's runs: -n 0, none)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static bool cm_halo(const struct comd *m, uint64_t b)
{
    int x = (int)(b % (uint64_t)m->nbx[0]), y = (int)((b / (uint64_t)m->nbx[0]) % (uint64_t)m->nbx[1]),
        z = (int)(b / ((uint64_t)m->nbx[0] * (uint64_t)m->nbx[1]));
    return x >= m->nbx[0] - 2 || y >= m->nbx[1] - 2 || z >= m->nbx[2] - 2;
}

static uint64_t cm_mirror(const struct comd *m, uint64_t b)
{
    int c[3] = { (int)(b % (uint64_t)m->nbx[0]), (int)((b / (uint64_t)m->nbx[0]) % (uint64_t)m->nbx[1]),
                 (int)(b / ((uint64_t)m->nbx[0] * (uint64_t)m->nbx[1])) };
    for (int d = 0; d < 3; d++) {
        if (c[d] == m->nbx[d] - 2) c[d] = m->nbx[d] - 3;
        else if (c[d] == m->nbx[d] - 1) c[d] = 0;
    }
    return (uint64_t)c[0] + (uint64_t)m->nbx[0] * ((uint64_t)c[1] + (uint64_t)m->nbx[1] * (uint64_t)c[2]);
}

/* Table index of the EAM interpolation at distance^2 r2, or -1 outside
 * (0, cutoff^2]. */
static int64_t cm_i1(double r2)
{
    if (!(r2 <= CM_CUT * CM_CUT && r2 > 0)) return -1;
    double r = sqrt(r2);
    if (r < CM_X0) r = CM_X0;
    if (r > CM_CUT) r = CM_CUT;
    return (int64_t)floor((r - CM_X0) * CM_INVDX);
}

static double cm_r2(const struct comd *m, uint64_t ib, uint64_t ia, uint64_t jb, uint64_t ja)
{
    const double *ri = m->r + 3 * (ib * CM_MAXA + ia), *rj = m->r + 3 * (jb * CM_MAXA + ja);
    double d2 = 0;
    for (int k = 0; k < 3; k++) {
        double d = ri[k] - rj[k] + (m->dc[3 * ib + k] - m->dc[3 * jb + k]);
        d2 += d * d;
    }
    return d2;
}

static void cm_build(struct comd *m, uint64_t cx, uint64_t cy, uint64_t cz)
{
    double bounds[3] = { cx * CM_LAT, cy * CM_LAT, cz * CM_LAT };
    m->nboxes = 1;
    for (int d = 0; d < 3; d++) {
        m->nbx[d] = 2 + (int)floor(bounds[d] / CM_CUT);
        m->boxsize[d] = bounds[d] / (double)(m->nbx[d] - 2);
        m->nboxes *= (uint64_t)m->nbx[d];
    }
    uint64_t nb = m->nboxes;
    m->dc = xcalloc(3 * nb, sizeof *m->dc);
    m->r = xcalloc(3 * nb * CM_MAXA, sizeof *m->r);
    m->na = xcalloc(nb, 1);
    m->nl = xcalloc(nb * CM_NB, sizeof *m->nl);
    for (uint64_t b = 0; b < nb; b++) {
        int c[3] = { (int)(b % (uint64_t)m->nbx[0]), (int)((b / (uint64_t)m->nbx[0]) % (uint64_t)m->nbx[1]),
                     (int)(b / ((uint64_t)m->nbx[0] * (uint64_t)m->nbx[1])) };
        for (int d = 0; d < 3; d++) {
            m->dc[3 * b + d] = m->boxsize[d] * c[d];
            if (c[d] == m->nbx[d] - 2) m->dc[3 * b + d] = -m->boxsize[d];
            if (c[d] == m->nbx[d] - 1) m->dc[3 * b + d] = m->boxsize[d] * (c[d] - 1);
        }
    }
    /* create_fcc_lattice: i, j, k count every step, never reset */
    double half = CM_LAT / 2.0;
    uint64_t i = 0, j = 0, k = 0;
    for (double z = CM_LAT / 4.0; z < bounds[2]; z += half, k++)
        for (double y = CM_LAT / 4.0; y < bounds[1]; y += half, j++)
            for (double x = CM_LAT / 4.0; x < bounds[0]; x += half, i++) {
                if ((i + j + k) % 2 == 0) continue;
                double p[3] = { x, y, z };
                uint64_t ib[3];
                for (int d = 0; d < 3; d++) ib[d] = (uint64_t)floor(p[d] / m->boxsize[d]);
                uint64_t b = ib[0] + (uint64_t)m->nbx[0] * (ib[1] + (uint64_t)m->nbx[1] * ib[2]);
                if (m->na[b] == CM_MAXA)
                    user_error("workload.comd: more than %d atoms in a link cell", CM_MAXA);
                double *r = m->r + 3 * (b * CM_MAXA + m->na[b]++);
                for (int d = 0; d < 3; d++) r[d] = p[d] - m->dc[3 * b + d];
            }
    /* update_halos: a halo box holds its mirror's atoms, same slots */
    for (uint64_t b = 0; b < nb; b++) {
        uint64_t s = cm_mirror(m, b);
        if (s == b) continue;
        m->na[b] = m->na[s];
        memcpy(m->r + 3 * b * CM_MAXA, m->r + 3 * s * CM_MAXA, 3 * CM_MAXA * sizeof *m->r);
    }
    /* neighbours (getNeighborBoxes, periodic through the halos) and the list */
    m->lbox = xmalloc(nb * CM_MAXA * sizeof *m->lbox);
    m->latom = xmalloc(nb * CM_MAXA);
    for (uint64_t b = 0; b < nb; b++) {
        if (m->na[b] > m->ma) m->ma = m->na[b];
        if (cm_halo(m, b)) continue;
        int c[3] = { (int)(b % (uint64_t)m->nbx[0]), (int)((b / (uint64_t)m->nbx[0]) % (uint64_t)m->nbx[1]),
                     (int)(b / ((uint64_t)m->nbx[0] * (uint64_t)m->nbx[1])) };
        int n = 0;
        for (int x = c[0] - 1; x <= c[0] + 1; x++)
            for (int y = c[1] - 1; y <= c[1] + 1; y++)
                for (int z = c[2] - 1; z <= c[2] + 1; z++) {
                    int q[3] = { x, y, z };
                    for (int d = 0; d < 3; d++) {
                        if (q[d] < 0) q[d] = m->nbx[d] - 2;
                        else if (q[d] >= m->nbx[d] - 2) q[d] = m->nbx[d] - 1;
                    }
                    m->nl[b * CM_NB + (uint64_t)n++] = q[0] + m->nbx[0] * (q[1] + m->nbx[1] * q[2]);
                }
        for (uint64_t a = 0; a < m->na[b]; a++) {
            m->lbox[m->atoms] = (int32_t)b;
            m->latom[m->atoms++] = (uint8_t)a;
        }
    }
}

/* Positions of the thread-per-atom force kernel: prologue, 27 x (5 + ma x
 * inner), epilogue. */
static uint64_t cm_pro(int s) { return (s == 1 ? 6 : 9) + 4; }
static uint64_t cm_inner(int s) { return 3 + (s == 1 ? 8 : 6); }

static uint64_t cm_npos(const void *impl, const struct warp_ctx *w)
{
    const struct comd *m = impl;
    switch (w->k->id) {
    case K_EAM1: return cm_pro(1) + CM_NB * (5 + m->ma * cm_inner(1)) + 5;
    case K_EAM3: return cm_pro(3) + CM_NB * (5 + m->ma * cm_inner(3)) + 3;
    case K_EAM2: return 13;
    case K_HALO: return 9;
    default: return 10;
    }
}

static bool cm_force(const struct comd *m, int s, const struct wl_thread *t, uint64_t pos,
                     struct wl_top *op)
{
    uint64_t id = (uint64_t)t->bx * CM_CTA + t->tx;
    if (id >= m->atoms) return false;
    uint64_t ib = (uint64_t)m->lbox[id], ia = m->latom[id], ip = ib * CM_MAXA + ia;
    static const int rv[3] = { A_RX, A_RY, A_RZ }, fv[3] = { A_FX, A_FY, A_FZ },
                     bv[3] = { A_BX, A_BY, A_BZ };
    op->op = INST_LOAD;
    op->size = 8;
    uint64_t pro = cm_pro(s);
    if (pos < pro) {
        switch (pos) {
        case 0: op->size = 4; op->addr = m->a[A_LA] + id * 4; return true;
        case 1: op->size = 4; op->addr = m->a[A_LB] + id * 4; return true;
        case 2: case 3: case 4: op->addr = m->a[rv[pos - 2]] + ip * 8; return true;
        case 5: op->size = 4; op->addr = m->a[A_NA] + ib * 4; return true;
        default: break;
        }
        uint64_t q = pos - 6;
        if (s == 3) {
            if (q < 3) { op->addr = m->a[fv[q]] + ip * 8; return true; }
            q -= 3;
        }
        if (q == 0) { op->size = 4; op->addr = m->a[A_NN] + ib * 4; return true; }
        op->addr = m->a[bv[q - 1]] + ib * 8;
        return true;
    }
    uint64_t per = 5 + m->ma * cm_inner(s), q = pos - pro;
    if (q >= CM_NB * per) {     /* epilogue stores */
        q -= CM_NB * per;
        op->op = INST_STORE;
        op->addr = (q < 3 ? m->a[fv[q]] : m->a[q == 3 ? A_E : A_RHO]) + ip * 8;
        return true;
    }
    uint64_t j = q / per, r = q % per, jb = (uint64_t)m->nl[ib * CM_NB + j];
    if (r < 5) {
        if (r == 0) { op->size = 4; op->addr = m->a[A_NL] + (ib * CM_NB + j) * 4; }
        else if (r < 4) op->addr = m->a[bv[r - 1]] + jb * 8;
        else { op->size = 4; op->addr = m->a[A_NA] + jb * 4; }
        return true;
    }
    uint64_t ja = (r - 5) / cm_inner(s), e = (r - 5) % cm_inner(s), jp = jb * CM_MAXA + ja;
    if (ja >= m->na[jb]) return false;
    if (e < 3) { op->addr = m->a[rv[e]] + jp * 8; return true; }
    int64_t i1 = cm_i1(cm_r2(m, ib, ia, jb, ja));
    if (i1 < 0) return false;
    e -= 3;
    op->compute = e == 0 ? 30 : 0;     /* distance, rsqrt, interpolation, force */
    if (s == 1) op->addr = m->a[e < 4 ? A_TPHI : A_TRHO] + ((uint64_t)i1 + e % 4) * 8;
    else if (e < 4) op->addr = m->a[A_TRHO] + ((uint64_t)i1 + e) * 8;
    else op->addr = m->a[A_FI] + (e == 4 ? ip : jp) * 8;
    return true;
}

static bool cm_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct comd *m = impl;
    op->compute = 0;
    uint32_t id = w->k->id;
    if (id == K_EAM1 || id == K_EAM3) return cm_force(m, id == K_EAM1 ? 1 : 3, t, pos, op);
    uint64_t ib = t->bx, ia = t->tx, ip = ib * CM_MAXA + ia;
    op->op = INST_LOAD;
    op->size = 4;
    bool halo = cm_halo(m, ib);
    if ((id == K_ADVP || id == K_ADVV) && halo) return false;
    if (pos == 0) { op->addr = m->a[A_NA] + ib * 4; return true; }
    if (ia >= m->na[ib]) return false;
    op->size = 8;
    uint64_t q = pos - 1;
    switch (id) {
    case K_EAM2: {
        static const uint64_t f[4] = { CM_F_I1 + 2, CM_F_I1, CM_F_I1 + 3, CM_F_I1 + 1 };
        if (halo) return false;
        if (q == 0) op->addr = m->a[A_RHO] + ip * 8;
        else if (q == 1) { op->size = 4; op->addr = m->a[A_NV] + 2 * 4; }
        else if (q < 5) op->addr = m->a[A_TF] + (CM_NF + 3 + (q - 2)) * 8;
        else if (q < 9) { op->addr = m->a[A_TF] + f[q - 5] * 8; op->compute = q == 5 ? 4 : 0; }
        else {
            op->addr = m->a[q == 10 ? A_E : q == 9 ? A_FI : A_E] + ip * 8;
            if (q != 10) { op->op = INST_STORE; op->compute = q == 9 ? 12 : 1; }
        }
        return true;
    }
    case K_HALO: {
        static const int v[4] = { A_FI, A_RX, A_RY, A_RZ };
        if (!halo) return false;
        uint64_t jp = cm_mirror(m, ib) * CM_MAXA + ia;
        op->op = q % 2 ? INST_STORE : INST_LOAD;
        op->addr = m->a[v[q / 2]] + (q % 2 ? ip : jp) * 8;
        return true;
    }
    default: {  /* AdvancePositions: r += c*p; AdvanceVelocity: p -= dt*f */
        static const int pv[3] = { A_PX, A_PY, A_PZ }, rv[3] = { A_RX, A_RY, A_RZ },
                         fv[3] = { A_FX, A_FY, A_FZ };
        uint64_t c = q / 3, r = q % 3;
        int dst = id == K_ADVP ? rv[c] : pv[c], src = id == K_ADVP ? pv[c] : fv[c];
        op->addr = m->a[r == 1 ? src : dst] + ip * 8;
        if (r == 2) { op->op = INST_STORE; op->compute = 2; }
        return true;
    }
    }
}

static void cm_kernel(struct comd *m, struct wl_step *out, uint32_t id)
{
    static const char *const names[6] = { "EAM_Force_thread_atom<1>", "EAM_Force_2",
        "copy_halos_kernel", "EAM_Force_thread_atom<3>", "AdvancePositions", "AdvanceVelocity" };
    memset(out, 0, sizeof *out);
    out->kind = WL_STEP_KERNEL;
    snprintf(out->kernel.name, sizeof out->kernel.name, "%s", names[id]);
    out->kernel.id = id;
    out->kernel.arg = m->step;
    bool force = id == K_EAM1 || id == K_EAM3;
    out->kernel.grid = (struct dim3){ (uint32_t)(force ? (m->atoms + CM_CTA - 1) / CM_CTA
                                                        : m->nboxes), 1, 1 };
    out->kernel.block = (struct dim3){ force ? CM_CTA : (uint32_t)m->ma, 1, 1 };
    /* __launch_bounds__(128, 8) in DP: at most 64 registers */
    out->kernel.regs_per_thread = force ? 64 : 16;
}

#define CM_YIELD(m) do { (m)->pc = __LINE__; return true; case __LINE__:; } while (0)

static bool cm_next_step(void *impl, struct wl_step *out)
{
    struct comd *m = impl;
    static const int in[] = { A_RX, A_RY, A_RZ, A_PX, A_PY, A_PZ, A_FX, A_FY, A_FZ, A_BX, A_BY,
                              A_BZ, A_NL, A_NN, A_NA, A_LA, A_LB, A_TRHO, A_TPHI, A_TF, A_NV };
    switch (m->pc) {
    case 0:
        for (m->step = 0; m->step < sizeof in / sizeof in[0]; m->step++) {
            memset(out, 0, sizeof *out);
            out->kind = WL_STEP_MEMCPY;
            out->host.alloc = (uint32_t)in[m->step];
            out->host.bytes = m->wl->allocs[in[m->step]].size;
            out->host.dir = WL_TO_GPU;
            CM_YIELD(m);
        }
        m->step = 0;
        cm_kernel(m, out, K_EAM1); CM_YIELD(m);
        cm_kernel(m, out, K_EAM2); CM_YIELD(m);
        cm_kernel(m, out, K_HALO); CM_YIELD(m);
        cm_kernel(m, out, K_EAM3); CM_YIELD(m);
        for (m->step = 1; m->step <= m->steps; m->step++) {
            cm_kernel(m, out, K_ADVP); CM_YIELD(m);
            cm_kernel(m, out, K_HALO); CM_YIELD(m);
            cm_kernel(m, out, K_EAM1); CM_YIELD(m);
            cm_kernel(m, out, K_EAM2); CM_YIELD(m);
            cm_kernel(m, out, K_HALO); CM_YIELD(m);
            cm_kernel(m, out, K_EAM3); CM_YIELD(m);
            cm_kernel(m, out, K_ADVV); CM_YIELD(m);
            cm_kernel(m, out, K_ADVP); CM_YIELD(m);
        }
        memset(out, 0, sizeof *out);
        out->kind = WL_STEP_MEMCPY;
        out->host.alloc = A_E;
        out->host.bytes = m->wl->allocs[A_E].size;
        out->host.dir = WL_TO_HOST;
        CM_YIELD(m);
        m->pc = -1;
        /* fall through */
    default:
        return false;
    }
}

static void *cm_create(struct workload *wl, const struct config *cfg)
{
    struct comd *m = xcalloc(1, sizeof *m);
    m->wl = wl;
    m->steps = cfg_u64(cfg, "workload.comd.steps");
    cm_build(m, cfg_u64(cfg, "workload.comd.x"), cfg_u64(cfg, "workload.comd.y"),
             cfg_u64(cfg, "workload.comd.z"));
    uint64_t slots = m->nboxes * CM_MAXA * 8, nb = m->nboxes;
    static const char *const names[A_N] = { "r.x", "r.y", "r.z", "p.x", "p.y", "p.z", "f.x",
        "f.y", "f.z", "e", "fi", "rho", "r_box.x", "r_box.y", "r_box.z", "neighbor_list",
        "n_neighbors", "n_atoms", "n_list_atoms", "n_list_boxes", "eam_pot.rho",
        "eam_pot.phi", "eam_pot.F", "eam_pot.n_values" };
    for (int i = 0; i < A_N; i++) {
        uint64_t bytes = i <= A_RHO ? slots : i <= A_BZ ? nb * 8 : i == A_NL ? nb * CM_NB * 4
                       : i <= A_NA ? nb * 4 : i <= A_LB ? nb * CM_MAXA * 4
                       : i <= A_TPHI ? (CM_NTAB + 6) * 8 : i == A_TF ? (CM_NF + 6) * 8 : 3 * 4;
        m->a[i] = wl_add_alloc(wl, names[i], bytes);
    }
    m->g.npos = cm_npos;
    m->g.lane = cm_lane;
    return m;
}

static void cm_destroy(void *impl)
{
    struct comd *m = impl;
    free(m->dc);
    free(m->r);
    free(m->na);
    free(m->nl);
    free(m->lbox);
    free(m->latom);
    free(m);
}

static const struct workload_ops comd_ops = {
    "comd", cm_create, cm_next_step, wl_simple_warp_start, wl_simple_next_inst, cm_destroy,
};

const struct wl_info comd_info = {
    &comd_ops, comd_config_keys,
    "CoMD EAM force over link cells, thread per atom, as NVIDIA's CUDA port "
    "proxy-apps-doe/comd (-p ag -e, x*y*z FCC cells at 0 K); thesis (Agarwal) comd.",
    "B = boxes = prod(2 + floor(4.09*cells/5.542)): 12 x 128*B (r, p, f xyz, e, fi, rho) + "
    "3 x 8*B (r_box) + 108*B (neighbor_list) + 2 x 4*B + 2 x 64*B (atom list) + 2 x 24048 "
    "(rho, phi tables) + 18056 (F table) + 12 bytes; halo boxes' neighbour slots, p and the "
    "tables' unused entries are not touched without time steps",
};

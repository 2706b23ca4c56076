/* Rodinia cfd: unstructured-grid finite-volume Euler solver (euler3d).
 * Source: Rodinia 3.1 cfd/euler3d.cu (Corrigan et al., AIAA-2009-4001);
 * run by Li & Chapman SC19 (Sec. 5.1), whose Fig. 3 is this program's
 * launch CFG.  Defaults: 97046 elements (Rodinia's fvcorr.domn.097K),
 * BLOCK_SIZE 192 for every kernel, RK 3, NNB 4, NVAR 5; `iterations` is a
 * #define there (2000), here a key (2 by default, so a run takes seconds).
 *
 * Layout as euler3d.cu: nelr = 192 * ceil(nel / 192); structure of
 * arrays, variables[i + v*nelr] (v: 0 density, 1..3 momentum, 4 density
 * energy), elements_surrounding_elements[i + j*nelr], normals[i + (j +
 * k*NNB)*nelr]; padding elements nel..nelr-1 copy the last element's
 * neighbours and normals (read_domain).
 *
 * Program (main): initialize_variables; for it < iterations { copy
 * (old_variables <- variables: a device copy, a target region in SC19's
 * OpenMP port: one thread per float); compute_step_factor; for j < RK {
 * compute_flux; time_step(j) } }.  Rodinia also initialises old_variables
 * and fluxes before timing; SC19's Fig. 3 starts with one initialisation
 * and so does this program.
 *
 * Mesh: no fvcorr file is read; the mesh is generated (no seed: it is a
 * lattice).  Element i sits at (x, y, z) = (i % s, i / s % s, i / s^2) of
 * an s^3 lattice, s = ceil(cbrt(nel)); like a tetrahedron's four faces,
 * each element has four neighbours, the lattice of degree 4 (diamond-like):
 * face 0 x-1, face 1 x+1, face 2 y+1 and face 3 z+1 when x+y+z is even,
 * y-1 and z-1 when odd (so neighbourhood is symmetric).  A neighbour
 * outside the lattice or at index >= nel is a boundary: -1 (wing) below
 * (y or z < 0), -2 (far field) elsewhere, as read_domain encodes them.
 *
 * Per thread (i = blockIdx.x * 192 + threadIdx.x):
 *   initialize_variables: store variables[i + v*nelr], v < 5
 *   copy (k < nelr*5):    load variables[k], store old_variables[k]
 *   compute_step_factor:  load variables[i + v*nelr] v = 0..4, areas[i];
 *                         store step_factors[i]
 *   compute_flux:         load variables[i + v*nelr] v = 0..4; per face j:
 *                         load ese[i + j*nelr], normals[i + (j + k*4)*nelr]
 *                         k = 0..2; if nb >= 0: load variables[nb + v*nelr]
 *                         v = 0..4; then store fluxes[i + v*nelr] v = 0..4
 *   time_step(j):         load step_factors[i]; for v in 0, 4, 1, 2, 3:
 *                         load old_variables[i + v*nelr], fluxes[..];
 *                         store variables[i + v*nelr]
 * Far-field constants (ff_variable, ...) live in __constant__ memory and
 * are not global accesses. */
#include <math.h>
#include "gen.h"

#define CFD_BLOCK 192
#define CFD_NNB 4
#define CFD_NDIM 3
#define CFD_NVAR 5
#define CFD_RK 3

enum { K_INIT, K_COPY, K_STEP, K_FLUX, K_TIME };
enum { A_AREAS, A_ESE, A_NORMALS, A_VAR, A_OLD, A_FLUX, A_SF };

struct cfd {
    struct wl_simple g;
    uint64_t nel, nelr, side, iters;
    uint64_t a[7];
};

const struct cfg_key cfd_config_keys[] = {
    {"workload.cfd.elements", CFG_INT, "97046", 1, 1e9, NULL,
     "mesh elements (Rodinia fvcorr.domn.097K: 97046)"},
    {"workload.cfd.iterations", CFG_INT, "2", 1, 1e7, NULL,
     "outer time steps (euler3d.cu's #define iterations: 2000)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* Neighbour j of element e < nel: an element index, -1 (wing) or -2
 * (far field), as read_domain leaves elements_surrounding_elements. */
static int64_t cfd_nb(const struct cfd *m, uint64_t e, unsigned j)
{
    int64_t s = (int64_t)m->side, x = (int64_t)(e % m->side),
            y = (int64_t)(e / m->side % m->side), z = (int64_t)(e / (m->side * m->side));
    int64_t d = (x + y + z) % 2 ? -1 : 1;
    switch (j) {
    case 0: x--; break;
    case 1: x++; break;
    case 2: y += d; break;
    default: z += d; break;
    }
    if (y < 0 || z < 0) return -1;
    if (x < 0 || x >= s || y >= s || z >= s) return -2;
    int64_t n = x + s * (y + s * z);
    return n < (int64_t)m->nel ? n : -2;
}

/* read_domain's padding: elements past nel repeat the last one. */
static int64_t cfd_nb_r(const struct cfd *m, uint64_t i, unsigned j)
{
    return cfd_nb(m, i < m->nel ? i : m->nel - 1, j);
}

static uint64_t cfd_npos(const void *impl, const struct warp_ctx *w)
{
    (void)impl;
    switch (w->k->id) {
    case K_INIT: return CFD_NVAR;
    case K_COPY: return 2;
    case K_STEP: return CFD_NVAR + 2;
    case K_FLUX: return CFD_NVAR + CFD_NNB * (1 + CFD_NDIM + CFD_NVAR) + CFD_NVAR;
    default: return 1 + 3 * CFD_NVAR;
    }
}

static bool cfd_lane(const void *impl, const struct warp_ctx *w,
                     const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct cfd *m = impl;
    uint64_t i = (uint64_t)t->bx * CFD_BLOCK + t->tx, r = m->nelr;
    const uint64_t *a = m->a;
    op->size = 4;
    op->compute = 0;
    op->op = INST_LOAD;
    switch (w->k->id) {
    case K_INIT:
        op->op = INST_STORE;
        op->addr = a[A_VAR] + (i + pos * r) * 4;
        return true;
    case K_COPY:
        op->op = pos ? INST_STORE : INST_LOAD;
        op->addr = a[pos ? A_OLD : A_VAR] + i * 4;
        return true;
    case K_STEP:
        if (pos < CFD_NVAR) { op->addr = a[A_VAR] + (i + pos * r) * 4; return true; }
        if (pos == CFD_NVAR) { op->addr = a[A_AREAS] + i * 4; return true; }
        op->op = INST_STORE;
        op->compute = 20;               /* velocity, pressure, two sqrtf, a divide */
        op->addr = a[A_SF] + i * 4;
        return true;
    case K_FLUX: {
        if (pos < CFD_NVAR) { op->addr = a[A_VAR] + (i + pos * r) * 4; return true; }
        uint64_t q = pos - CFD_NVAR, per = 1 + CFD_NDIM + CFD_NVAR;
        if (q >= CFD_NNB * per) {
            op->op = INST_STORE;
            op->addr = a[A_FLUX] + (i + (q - CFD_NNB * per) * r) * 4;
            return true;
        }
        unsigned j = (unsigned)(q / per), s = (unsigned)(q % per);
        if (s == 0) {                   /* the previous face's flux arithmetic first */
            op->compute = j ? 40 : 20;
            op->addr = a[A_ESE] + (i + j * r) * 4;
            return true;
        }
        if (s <= CFD_NDIM) {
            op->addr = a[A_NORMALS] + (i + (j + (s - 1) * CFD_NNB) * r) * 4;
            return true;
        }
        int64_t nb = cfd_nb_r(m, i, j);
        if (nb < 0) return false;
        op->addr = a[A_VAR] + ((uint64_t)nb + (s - 1 - CFD_NDIM) * r) * 4;
        return true;
    }
    default: {
        static const unsigned order[CFD_NVAR] = { 0, 4, 1, 2, 3 };
        if (pos == 0) { op->addr = a[A_SF] + i * 4; return true; }
        uint64_t v = order[(pos - 1) / 3], s = (pos - 1) % 3;
        op->addr = a[s == 0 ? A_OLD : s == 1 ? A_FLUX : A_VAR] + (i + v * r) * 4;
        if (s == 2) { op->op = INST_STORE; op->compute = 2; }
        return true;
    }
    }
}

/* SC19 Sec. 4.1-4.2 as spec B.3.4 item 1 applies them (straight line 1,
 * guarded x 0.5, constant-trip loop x trips): per thread, S = 4 B.
 *   initialize_variables: variables W: loop j < NVAR (5): F 5, 20 B
 *   copy:                 variables R 1, 4 B; old_variables W 1, 4 B
 *   compute_step_factor:  variables R 5 straight loads: 20 B; areas R 1,
 *                         4 B; step_factors W 1, 4 B
 *   compute_flux:         variables R 5 + loop j < NNB (4) x guard nb >= 0
 *                         (0.5) x 5 = 15, 60 B; ese R 4 x 1 = 4, 16 B;
 *                         normals R 4 x 3 = 12, 48 B; fluxes W 5, 20 B
 *   time_step:            step_factors R 1, 4 B; old_variables R 5, 20 B;
 *                         fluxes R 5, 20 B; variables W 5, 20 B */
static size_t cfd_uses(const void *impl, const struct wl_kernel *k,
                       struct wl_use *out, size_t max)
{
    (void)impl;
    struct wl_use u[4];
    size_t n = 0;
#define USE(al, md, f) (u[n++] = (struct wl_use){ (al), (md), (f), (f) * 4 })
    switch (k->id) {
    case K_INIT: USE(A_VAR, WL_USE_W, 5); break;
    case K_COPY: USE(A_VAR, WL_USE_R, 1); USE(A_OLD, WL_USE_W, 1); break;
    case K_STEP: USE(A_VAR, WL_USE_R, 5); USE(A_AREAS, WL_USE_R, 1);
                 USE(A_SF, WL_USE_W, 1); break;
    case K_FLUX: USE(A_VAR, WL_USE_R, 5 + CFD_NNB * 0.5 * CFD_NVAR);
                 USE(A_ESE, WL_USE_R, CFD_NNB); USE(A_NORMALS, WL_USE_R, CFD_NNB * CFD_NDIM);
                 USE(A_FLUX, WL_USE_W, 5); break;
    default:     USE(A_SF, WL_USE_R, 1); USE(A_OLD, WL_USE_R, 5);
                 USE(A_FLUX, WL_USE_R, 5); USE(A_VAR, WL_USE_W, 5); break;
    }
#undef USE
    for (size_t i = 0; i < n && i < max; i++) out[i] = u[i];
    return n;
}

static void *cfd_create(struct workload *wl, const struct config *cfg)
{
    struct cfd *m = xcalloc(1, sizeof *m);
    m->nel = cfg_u64(cfg, "workload.cfd.elements");
    m->iters = cfg_u64(cfg, "workload.cfd.iterations");
    m->nelr = (uint64_t)CFD_BLOCK * ((m->nel + CFD_BLOCK - 1) / CFD_BLOCK);
    m->side = (uint64_t)ceil(cbrt((double)m->nel));
    while (m->side * m->side * m->side < m->nel) m->side++;
    while (m->side > 1 && (m->side - 1) * (m->side - 1) * (m->side - 1) >= m->nel) m->side--;
    uint64_t r = m->nelr;
    /* read_domain fills areas, neighbours and normals on the host. */
    m->a[A_AREAS] = wl_add_alloc_hint(wl, "areas", r * 4, WL_PLACE_HOST, 0);
    m->a[A_ESE] = wl_add_alloc_hint(wl, "elements_surrounding_elements", r * CFD_NNB * 4,
                                    WL_PLACE_HOST, 0);
    m->a[A_NORMALS] = wl_add_alloc_hint(wl, "normals", r * CFD_NDIM * CFD_NNB * 4,
                                        WL_PLACE_HOST, 0);
    m->a[A_VAR] = wl_add_alloc(wl, "variables", r * CFD_NVAR * 4);
    m->a[A_OLD] = wl_add_alloc(wl, "old_variables", r * CFD_NVAR * 4);
    m->a[A_FLUX] = wl_add_alloc(wl, "fluxes", r * CFD_NVAR * 4);
    m->a[A_SF] = wl_add_alloc(wl, "step_factors", r * 4);
    m->g.npos = cfd_npos;
    m->g.lane = cfd_lane;
    struct wl_prog *p = &m->g.prog;
    struct dim3 grid = { (uint32_t)(r / CFD_BLOCK), 1, 1 }, blk = { CFD_BLOCK, 1, 1 };
    struct dim3 cgrid = { (uint32_t)(r * CFD_NVAR / CFD_BLOCK), 1, 1 };
    /* Registers: no ptxas output of SC19's build; estimates that leave
     * 192-thread blocks unlimited by registers except compute_flux. */
    wl_prog_kernel(p, "initialize_variables", K_INIT, grid, blk, 8, 0);
    /* for it < iterations { copy; compute_step_factor; for j < RK {
     * compute_flux; time_step } }: SC19 Fig. 3's launch CFG, both trip
     * counts compile-time constants in euler3d.cu (#define iterations,
     * #define RK 3); j changes no address. */
    wl_prog_loop_begin(p, WL_TRIP_CONST, m->iters);
    wl_prog_kernel(p, "copy", K_COPY, cgrid, blk, 8, 0);
    wl_prog_kernel(p, "compute_step_factor", K_STEP, grid, blk, 16, 0);
    wl_prog_loop_begin(p, WL_TRIP_CONST, CFD_RK);
    wl_prog_kernel(p, "compute_flux", K_FLUX, grid, blk, 64, 0);
    wl_prog_kernel(p, "time_step", K_TIME, grid, blk, 16, 0);
    wl_prog_end(p);
    wl_prog_end(p);
    wl->kernel_uses = cfd_uses;
    return m;
}

static const struct workload_ops cfd_ops = {
    "cfd", cfd_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info cfd_info = {
    &cfd_ops, cfd_config_keys,
    "Rodinia 3.1 euler3d.cu: initialize_variables, then per iteration copy, "
    "compute_step_factor and RK = 3 x (compute_flux, time_step), on a generated degree-4 "
    "lattice mesh; SC19 (Li & Chapman) Fig. 3, Sec. 5.1.",
    "nelr = 192*ceil(elements/192): 4*nelr (areas) + 16*nelr (neighbours) + 48*nelr "
    "(normals) + 3 x 20*nelr (variables, old_variables, fluxes) + 4*nelr (step_factors) "
    "bytes, all touched",
};

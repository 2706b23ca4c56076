/* cns: the combustion proxy of the thesis (Agarwal; refs [20] Chan et al.,
 * "Software Design Space Exploration for Exascale Combustion Co-design",
 * ISC'13: the ExaCT compressible Navier-Stokes (CNS) proxy), as NVIDIA's
 * CUDA port that the thesis's simulator ran: proxy-apps-doe/cns/
 * prototype_simple.cu (gpgpu-sim_simulations), built with every TRACE_*
 * kernel (benchmarks/src/Makefile runs compile.bash, whose live nvcc line
 * builds prototype_simple.cu into cns_all; the prototype.cu line is
 * commented out) and run as `cns_all 64 32 32 1` (run.bash, size "small").
 * LDG is not defined, so __ldg(X) is the plain load *(X).  Eight padded double volumes; each kernel is
 * launched `iterations` times, in main()'s order:
 *   update_rho_single_pass, first_derivative_x, first_derivative_z,
 *   D_momentum_x, D_momentum_y_Q, D_momentum_z_Q, D_energy_4q, update_rE,
 *   update_xyz_m4s
 * (the volumes change roles between kernels, as d_volumes[i] does).
 *
 * Layout (main()): radius 4; nx_pad = nx + 8 plus 16 - (nx + 8) % 16
 * (cache_line_size_type = 128 / sizeof(double); nx a multiple of 32 makes
 * that + 8), ny_pad =
 * ny + 8, nz_pad = nz + 8; a volume is (12 + nx_pad*ny_pad*nz_pad) doubles
 * and element (x, y, z) sits at 12 + (z+4)*S + (y+4)*P + x + 4 with
 * P = nx_pad, S = nx_pad*ny_pad.  Blocks of 32 x 8 threads, one per (x, y)
 * column marching over z (D_momentum_y_Q: per (x, z), marching over y);
 * grid (nx/32, ny/8) (D_momentum_y_Q: (nx/32, nz/8)).
 *
 * Each kernel keeps a register queue of the 9 points along the marching
 * direction: 8 loads before the loop (offsets -4..+3 along it), one new
 * plane point (+4) per step.  The other stencil points are loaded every
 * step; an address repeated inside one step is loaded once (no store
 * intervenes, so the compiler keeps one load), in the order of first use
 * in the source.  The per-step lists are in the builders below.  Compute
 * before the step's first store: one cycle per loaded stencil point (one
 * DP FMA each).  Registers: the queues are fully unrolled register arrays
 * (#pragma unroll in advance()), 9 doubles = 18 registers each, plus 32 for
 * pointers, indices and accumulators (an estimate: no ptxas output of the
 * thesis's build survives; the kernels have no __launch_bounds__). */
#include "gen.h"

#define CNS_R 4
#define CNS_TX 32
#define CNS_TY 8
#define CNS_VOLS 8
#define CNS_KERNELS 9
#define CNS_MAXQ 5
#define CNS_MAXE 96

struct cns_e { int8_t vol, dx, dy, dz; uint8_t store; };

struct cns_k {
    const char *name;
    bool march_y;
    uint32_t nq, ne, nloads, first_store;
    int8_t q[CNS_MAXQ];
    struct cns_e e[CNS_MAXE];
};

struct cns {
    struct wl_simple g;
    uint64_t nx, ny, nz, iters, pc;
    uint64_t P, S, lead, vol[CNS_VOLS];
    struct cns_k k[CNS_KERNELS];
};

const struct cfg_key cns_config_keys[] = {
    {"workload.cns.nx", CFG_INT, "64", 32, 1e5, NULL, "grid points in x, a multiple of 32 (run.bash small: 64)"},
    {"workload.cns.ny", CFG_INT, "32", 8, 1e5, NULL, "grid points in y, a multiple of 8 (run.bash small: 32)"},
    {"workload.cns.nz", CFG_INT, "32", 8, 1e5, NULL, "grid points in z, a multiple of 8 (run.bash small: 32)"},
    {"workload.cns.iterations", CFG_INT, "1", 1, 1e6, NULL,
     "launches of each kernel (num_iterations; run.bash: 1)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static void add(struct cns_k *k, int vol, int dx, int dy, int dz)
{
    k->e[k->ne++] = (struct cns_e){ (int8_t)vol, (int8_t)dx, (int8_t)dy, (int8_t)dz, 0 };
    k->nloads++;
}

static void st(struct cns_k *k, int vol)
{
    if (!k->first_store) k->first_store = k->ne;
    k->e[k->ne++] = (struct cns_e){ (int8_t)vol, 0, 0, 0, 1 };
}

/* x and y neighbours at distance i of volume v: +x, -x, +y, -y. */
static void xy(struct cns_k *k, int v, int i)
{
    add(k, v, i, 0, 0); add(k, v, -i, 0, 0); add(k, v, 0, i, 0); add(k, v, 0, -i, 0);
}

static void queues(struct cns_k *k, const char *name, int n, const int8_t *q)
{
    k->name = name;
    k->nq = (uint32_t)n;
    for (int i = 0; i < n; i++) {
        k->q[i] = q[i];
        add(k, q[i], 0, 0, CNS_R);    /* the new plane point of each queue */
    }
}

static void build(struct cns_k *k)
{
    /* 0 update_rho_single_pass(rho=0, ux=1, uy=2, uz=3) */
    queues(&k[0], "update_rho_single_pass", 1, (const int8_t[]){ 3 });
    for (int i = 1; i <= CNS_R; i++) {
        add(&k[0], 1, i, 0, 0); add(&k[0], 1, -i, 0, 0);
        add(&k[0], 2, 0, i, 0); add(&k[0], 2, 0, -i, 0);
    }
    add(&k[0], 0, 0, 0, 0); st(&k[0], 0);
    /* 1 first_derivative_x(deriv=0, field=1) */
    k[1].name = "first_derivative_x";
    add(&k[1], 1, 0, 0, 0);
    for (int i = 1; i <= CNS_R; i++) { add(&k[1], 1, i, 0, 0); add(&k[1], 1, -i, 0, 0); }
    st(&k[1], 0);
    /* 2 first_derivative_z(deriv=0, field=1) */
    queues(&k[2], "first_derivative_z", 1, (const int8_t[]){ 1 });
    st(&k[2], 0);
    /* 3 D_momentum_x(difflux=0, vx=1, vy_y=2, vz_z=3) */
    queues(&k[3], "D_momentum_x", 1, (const int8_t[]){ 1 });
    add(&k[3], 2, 0, 0, 0); add(&k[3], 3, 0, 0, 0);
    for (int i = 1; i <= CNS_R; i++) {
        xy(&k[3], 1, i);
        add(&k[3], 2, i, 0, 0); add(&k[3], 2, -i, 0, 0);
        add(&k[3], 3, i, 0, 0); add(&k[3], 3, -i, 0, 0);
    }
    st(&k[3], 0);
    /* 4 D_momentum_y_Q(difflux=0, vy=1, vx_x=2, vz_z=3), marching in y:
     * here (dx, dy, dz) is (x, march, other) -- the "other" offsets are z */
    queues(&k[4], "D_momentum_y_Q", 3, (const int8_t[]){ 1, 2, 3 });
    k[4].march_y = true;
    for (int i = 1; i <= CNS_R; i++) xy(&k[4], 1, i);   /* vy +-x, +-z */
    st(&k[4], 0);
    /* 5 D_momentum_z_Q(difflux=0, vz=1, vx_x=2, vy_y=3) */
    queues(&k[5], "D_momentum_z_Q", 3, (const int8_t[]){ 1, 2, 3 });
    for (int i = 1; i <= CNS_R; i++) xy(&k[5], 1, i);
    st(&k[5], 0);
    /* 6 D_energy_4q(difflux_E=0, vx=1, vy=2, vz=3, dfx=4, dfy=5, dfz=6, T=7) */
    queues(&k[6], "D_energy_4q", 4, (const int8_t[]){ 7, 1, 2, 3 });
    for (int i = 1; i <= CNS_R; i++) {
        xy(&k[6], 7, i); xy(&k[6], 1, i); xy(&k[6], 2, i); xy(&k[6], 3, i);
    }
    add(&k[6], 4, 0, 0, 0); add(&k[6], 1, 0, 0, 0);
    add(&k[6], 5, 0, 0, 0); add(&k[6], 2, 0, 0, 0);
    add(&k[6], 6, 0, 0, 0); add(&k[6], 3, 0, 0, 0);
    st(&k[6], 0);
    /* 7 update_rE(rE=0, p=1, vx=2, vy=3, vz=4, difflux_E=5); the source's
     * y term reads vx (not vy): vy is never read */
    queues(&k[7], "update_rE", 3, (const int8_t[]){ 0, 1, 4 });
    for (int i = 1; i <= CNS_R; i++) {
        static const int8_t d[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
        for (int s = 0; s < 4; s++) {
            int x = d[s][0] * i, y = d[s][1] * i;
            add(&k[7], 2, x, y, 0); add(&k[7], 0, x, y, 0); add(&k[7], 1, x, y, 0);
        }
    }
    add(&k[7], 0, 0, 0, 0); add(&k[7], 5, 0, 0, 0); st(&k[7], 0);
    /* 8 update_xyz_m4s(ux=0, uy=1, uz=2, rho=3, dfx=4, dfy=5, dfz=6, p=7) */
    queues(&k[8], "update_xyz_m4s", 5, (const int8_t[]){ 0, 1, 2, 3, 7 });
    for (int i = 1; i <= CNS_R; i++) {
        struct cns_k *q = &k[8];
        add(q, 3, i, 0, 0); add(q, 0, i, 0, 0); add(q, 3, -i, 0, 0); add(q, 0, -i, 0, 0);
        add(q, 3, 0, i, 0); add(q, 0, 0, i, 0); add(q, 1, 0, i, 0);
        add(q, 3, 0, -i, 0); add(q, 0, 0, -i, 0); add(q, 1, 0, -i, 0);
        add(q, 7, i, 0, 0); add(q, 7, -i, 0, 0);
        add(q, 1, i, 0, 0); add(q, 1, -i, 0, 0); add(q, 7, 0, i, 0); add(q, 7, 0, -i, 0);
        add(q, 2, i, 0, 0); add(q, 2, -i, 0, 0); add(q, 2, 0, i, 0); add(q, 2, 0, -i, 0);
    }
    add(&k[8], 4, 0, 0, 0); st(&k[8], 0);
    add(&k[8], 5, 0, 0, 0); st(&k[8], 1);
    add(&k[8], 6, 0, 0, 0); st(&k[8], 2);
}

static uint64_t cns_steps(const struct cns *m, const struct cns_k *k)
{ return k->march_y ? m->ny : m->nz; }

static uint64_t cns_npos(const void *impl, const struct warp_ctx *w)
{
    const struct cns *m = impl;
    const struct cns_k *k = &m->k[w->k->id];
    return 8 * k->nq + cns_steps(m, k) * k->ne;
}

static bool cns_lane(const void *impl, const struct warp_ctx *w,
                     const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct cns *m = impl;
    const struct cns_k *k = &m->k[w->k->id];
    int64_t P = (int64_t)m->P, S = (int64_t)m->S;
    int64_t ix = (int64_t)t->bx * CNS_TX + t->tx, i2 = (int64_t)t->by * CNS_TY + t->ty;
    /* march stride; the "other" direction of the x/y offsets */
    int64_t step = k->march_y ? P : S, other = k->march_y ? S : P;
    int64_t out = (k->march_y ? i2 * S : i2 * P) + ix, idx;
    int vol;
    op->size = 8;
    op->compute = 0;
    op->op = INST_LOAD;
    if (pos < 8 * k->nq) {
        vol = k->q[pos % k->nq];
        idx = out + ((int64_t)(pos / k->nq) - CNS_R) * step;
    } else {
        uint64_t it = (pos - 8 * k->nq) / k->ne, e = (pos - 8 * k->nq) % k->ne;
        const struct cns_e *a = &k->e[e];
        vol = a->vol;
        idx = out + (int64_t)it * step + a->dx + a->dy * other + a->dz * step;
        if (a->store) {
            op->op = INST_STORE;
            if (e == k->first_store) op->compute = k->nloads;
        }
    }
    op->addr = m->vol[vol] + (uint64_t)((int64_t)m->lead + idx) * 8;
    return true;
}

static bool cns_next_step(void *impl, struct wl_step *out)
{
    struct cns *m = impl;
    if (m->pc == CNS_KERNELS * m->iters) return false;
    uint32_t id = (uint32_t)(m->pc / m->iters);
    struct cns_k *k = &m->k[id];
    out->kind = WL_STEP_KERNEL;
    struct wl_kernel *kk = &out->kernel;
    snprintf(kk->name, sizeof kk->name, "%s", k->name);
    kk->id = id;
    kk->arg = m->pc % m->iters;
    kk->grid = (struct dim3){ (uint32_t)(m->nx / CNS_TX),
                              (uint32_t)((k->march_y ? m->nz : m->ny) / CNS_TY), 1 };
    kk->block = (struct dim3){ CNS_TX, CNS_TY, 1 };
    kk->regs_per_thread = 32 + 18 * k->nq;
    m->pc++;
    return true;
}

static void *cns_create(struct workload *wl, const struct config *cfg)
{
    struct cns *m = xcalloc(1, sizeof *m);
    m->nx = cfg_u64(cfg, "workload.cns.nx");
    m->ny = cfg_u64(cfg, "workload.cns.ny");
    m->nz = cfg_u64(cfg, "workload.cns.nz");
    m->iters = cfg_u64(cfg, "workload.cns.iterations");
    if (m->nx % CNS_TX || m->ny % CNS_TY || m->nz % CNS_TY)
        user_error("workload.cns.nx must be a multiple of 32 and workload.cns.ny, "
                   "workload.cns.nz multiples of 8 (the kernels' grid nx/32 x ny/8, nz/8)");
    /* main(): cache_line_size_type = 128/8 = 16; nx_pad += 16 - nx_pad % 16;
     * lead_pad = 16 - radius; padding_to_first_output_cell below */
    uint64_t nxp = m->nx + 2 * CNS_R, nyp = m->ny + 2 * CNS_R, nzp = m->nz + 2 * CNS_R;
    nxp += 16 - nxp % 16;
    uint64_t lead_pad = 16 - CNS_R;
    m->P = nxp;
    m->S = nxp * nyp;
    m->lead = lead_pad + CNS_R * m->S + CNS_R * m->P + CNS_R;
    uint64_t bytes = (lead_pad + nxp * nyp * nzp) * 8;
    for (int i = 0; i < CNS_VOLS; i++) {
        char name[24];
        snprintf(name, sizeof name, "d_volumes[%d]", i);
        m->vol[i] = wl_add_alloc(wl, name, bytes);
    }
    build(m->k);
    m->g.npos = cns_npos;
    m->g.lane = cns_lane;
    return m;
}

static const struct workload_ops cns_ops = {
    "cns", cns_create, cns_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info cns_info = {
    &cns_ops, cns_config_keys,
    "CNS combustion proxy (ExaCT; thesis ref. [20]) as NVIDIA's CUDA port "
    "proxy-apps-doe/cns/prototype_simple.cu (all nine kernels, each `iterations` times); "
    "thesis (Agarwal) cns.",
    "8 x 8*(12 + (nx+16)*(ny+8)*(nz+8)) bytes (d_volumes[0..7]; nx_pad = nx+8 padded to "
    "128-byte rows, nx+16 as nx is a multiple of 32); touched: 6 volumes from the queues' "
    "first plane (z = -4) to their last (nz+3), d_volumes[5..6] only at the nx*ny*nz "
    "output cells",
};

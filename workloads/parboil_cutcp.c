/* Parboil cutcp: cutoff Coulomb potential on a 3-D lattice from binned
 * atoms.  Source: Parboil 2.5 cutcp/src/cuda/cutoff6overlap.cu,
 * cuda_cutoff_potential_lattice6overlap, one launch per z plane of 8^3
 * lattice regions (grid: x and y regions; blocks 8 x 2 x 8; each thread
 * four lattice points 2h apart in y); HPE (Yu et al. 2020) Table II type I
 * (CUT).  Defaults: lattice spacing h = 0.5 A, cutoff 12 A (Parboil's
 * values), a 96^3 lattice (the order of the small input's).
 *
 * The addresses do not depend on the atoms, only on the geometry: bins of
 * 4 A, c = ceil(cutoff/4) padding bins per side, binDim = ceil(8*regions*
 * h/4) + 2c per axis, 8 float4 atoms (128 B) per bin; the neighbour list
 * (the host's) holds the bin offsets (i,j,k) in [-c, c]^3 with (i^2+j^2+k^2)
 * *16 < (cutoff + s*4)^2, s = sqrt(3) when 8h is a multiple of 4, else
 * 2*sqrt(3).  Thread tid = (tz*2 + ty)*8 + tx of region (X, Y, Z), whose
 * centre bin is b = floor((8*R + 4)*h/4) per axis:
 *   for o < ceil(len/32): for q < 4 with n = (tid>>4) + 8*(4*o+q) < len:
 *       load bin(b + nbr[n]) float (tid&15), then float (tid&15)+16;
 *     sync; (atoms of up to 32 cached bins) sync;
 *   store region[(tid>>4)*64 + (tid&15) + 16*e] for e < 4. */
#include <math.h>
#include <stdlib.h>
#include "gen.h"

#define NBR_MAX (11 * 11 * 11)

struct cutcp {
    struct wl_simple g;
    uint64_t nx, ny, nz, rx, ry, rz, bdx, bdy, bdz, c, nlen;
    double h;
    int8_t nbr[NBR_MAX][3];
    uint64_t region, bins;
};

const struct cfg_key cutcp_config_keys[] = {
    {"workload.cutcp.nx", CFG_INT, "96", 1, 1e5, NULL, "lattice points along x"},
    {"workload.cutcp.ny", CFG_INT, "96", 1, 1e5, NULL, "lattice points along y"},
    {"workload.cutcp.nz", CFG_INT, "96", 1, 1e5, NULL, "lattice points along z"},
    {"workload.cutcp.spacing", CFG_FLOAT, "0.5", 0.01, 1, NULL, "lattice spacing h in A (Parboil: 0.5)"},
    {"workload.cutcp.cutoff", CFG_FLOAT, "12", 1, 20, NULL, "cutoff distance in A (Parboil: 12)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t outer_of(const struct cutcp *m) { return (m->nlen + 31) / 32; }

static uint64_t cc_npos(const void *impl, const struct warp_ctx *w)
{ (void)w; return 10 * outer_of(impl) + 4; }

static bool cc_lane(const void *impl, const struct warp_ctx *w,
                    const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct cutcp *m = impl;
    uint64_t tid = t->tid, half = tid >> 4, lane = tid & 15;
    uint64_t X = t->bx, Y = t->by, Z = w->k->arg;
    op->size = 4;
    op->compute = 0;
    uint64_t body = 10 * outer_of(m);
    if (pos >= body) {
        uint64_t e = pos - body;
        op->op = INST_STORE;
        op->compute = e == 0 ? 4 : 0;
        op->addr = m->region + (((Z * m->ry + Y) * m->rx + X) * 512 + half * 64 + lane + 16 * e) * 4;
        return true;
    }
    uint64_t o = pos / 10, r = pos % 10;
    if (r >= 8) {
        op->op = INST_BARRIER;
        if (r == 9) {   /* distances to up to 8 atoms of each cached bin, 4 points */
            uint64_t left = m->nlen - o * 32, nb = left < 32 ? left : 32;
            op->compute = (uint32_t)(nb * 8 * 24);
        }
        return true;
    }
    uint64_t n = half + 8 * (4 * o + r / 2);
    if (n >= m->nlen) return false;
    int64_t bx = (int64_t)floor((8.0 * (double)X + 4) * m->h / 4) + m->nbr[n][0] + (int64_t)m->c;
    int64_t by = (int64_t)floor((8.0 * (double)Y + 4) * m->h / 4) + m->nbr[n][1] + (int64_t)m->c;
    int64_t bz = (int64_t)floor((8.0 * (double)Z + 4) * m->h / 4) + m->nbr[n][2] + (int64_t)m->c;
    uint64_t bin = ((uint64_t)bz * m->bdy + (uint64_t)by) * m->bdx + (uint64_t)bx;
    op->op = INST_LOAD;
    op->addr = m->bins + bin * 128 + (lane + (r % 2) * 16) * 4;
    return true;
}

static void *cc_create(struct workload *wl, const struct config *cfg)
{
    struct cutcp *m = xcalloc(1, sizeof *m);
    m->nx = cfg_u64(cfg, "workload.cutcp.nx");
    m->ny = cfg_u64(cfg, "workload.cutcp.ny");
    m->nz = cfg_u64(cfg, "workload.cutcp.nz");
    m->h = cfg_f64(cfg, "workload.cutcp.spacing");
    double cutoff = cfg_f64(cfg, "workload.cutcp.cutoff");
    m->rx = (m->nx + 7) / 8; m->ry = (m->ny + 7) / 8; m->rz = (m->nz + 7) / 8;
    m->c = (uint64_t)ceil(cutoff / 4);
    m->bdx = (uint64_t)ceil((double)(8 * m->rx) * m->h / 4) + 2 * m->c;
    m->bdy = (uint64_t)ceil((double)(8 * m->ry) * m->h / 4) + 2 * m->c;
    m->bdz = (uint64_t)ceil((double)(8 * m->rz) * m->h / 4) + 2 * m->c;
    double ratio = 4 / (8 * m->h), s;
    if (ceil(ratio) == floor(ratio)) s = sqrt(3.0);
    else if (8 * m->h <= 8) s = 2 * sqrt(3.0);
    else user_error("workload.cutcp.spacing must be <= 1 (cutcp's own limit)");
    int64_t c = (int64_t)m->c;
    if (2 * c + (s > 2 ? 3 : 1) > 11)
        user_error("workload.cutcp.cutoff is too large for cutcp's 11^3 neighbour list");
    double r2 = (cutoff + s * 4) * (cutoff + s * 4);
    for (int64_t k = -c; k <= c; k++)
        for (int64_t j = -c; j <= c; j++)
            for (int64_t i = -c; i <= c; i++) {
                if ((double)(i * i + j * j + k * k) * 16 >= r2) continue;
                m->nbr[m->nlen][0] = (int8_t)i;
                m->nbr[m->nlen][1] = (int8_t)j;
                m->nbr[m->nlen][2] = (int8_t)k;
                m->nlen++;
            }
    uint64_t nbins = m->bdx * m->bdy * m->bdz;
    m->region = wl_add_alloc(wl, "regionZeroCuda", m->rx * m->ry * m->rz * 512 * 4);
    m->bins = wl_add_alloc(wl, "binBaseCuda", nbins * 128);
    m->g.npos = cc_npos;
    m->g.lane = cc_lane;
    struct wl_prog *p = &m->g.prog;
    wl_prog_host(p, WL_STEP_MEMCPY, 1, 0, nbins * 128, WL_TO_GPU, WL_ADV_NONE);
    uint32_t from = p->n;
    wl_prog_kernel(p, "cuda_cutoff_potential_lattice6overlap", 0,
                   (struct dim3){ (uint32_t)m->rx, (uint32_t)m->ry, 1 }, (struct dim3){ 8, 2, 8 },
                   32, (32 * 8 * 4 + 4) * 4);
    wl_prog_loop(p, from, m->rz);
    wl_prog_host(p, WL_STEP_MEMCPY, 0, 0, m->rx * m->ry * m->rz * 512 * 4, WL_TO_HOST, WL_ADV_NONE);
    return m;
}

static const struct workload_ops cc_ops = {
    "cutcp", cc_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info cutcp_info = {
    &cc_ops, cutcp_config_keys,
    "Parboil 2.5 cutcp cutoff6overlap.cu, cuda_cutoff_potential_lattice6overlap, one launch "
    "per z plane of 8^3 regions; HPE Table II type I (CUT).",
    "regions: 4*512*ceil(nx/8)*ceil(ny/8)*ceil(nz/8) bytes, all written; bins: 128*binDim^3 "
    "bytes allocated, touched only within the neighbour stencil of some region's centre bin",
};

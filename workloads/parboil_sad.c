/* Parboil sad: sum-of-absolute-differences motion estimation (H.264 VBSME)
 * of a frame against a reference frame, +-16 pixels around every 4x4 block.
 * Source: Parboil 2.5 sad/src/cuda: kernel.cu mb_sad_calc <<<(width/4,
 * height/4), 61>>> (THREADS_W = THREADS_H = 1, POS_PER_THREAD 18, MAX_POS
 * 1089 = 33^2, MAX_POS_PADDED P = 1096), then largerBlocks.cu
 * larger_sad_calc_8 <<<(mbw, mbh), (32, 4)>>> and larger_sad_calc_16
 * <<<(mbw, mbh), 32>>>, after copying both frames in, before copying the
 * 41*P*mbs SADs out (main.cu; mbw = width/16, mbh = height/16, mbs =
 * mbw*mbh).  HPE (Yu et al. 2020) Table II type III (SAD).  Defaults: 176 x
 * 144 (QCIF; an assumption for the default dataset, whose files hold it).
 *
 * The reference frame is a 2D texture (cudaArray, tex2D, clamp addressing)
 * in the original; here it is a managed allocation read with plain global
 * loads of 2 bytes at (clamp(y)*width + clamp(x))*2, so it faults and
 * migrates like the rest (no texture cache).  The sads memset is not a
 * program step.  Addresses depend on no data: the seed changes nothing.
 *
 * mb_sad_calc thread t of block (bx, by): mb = (bx>>2, by>>2), 4x4 block
 * (bx&3, by&3), frame origin (4bx, 4by), search positions [18t, min(18t+18,
 * 1089)); for each: for y, x < 4: load ref(4bx-16 + pos%33 + x, 4by-16 +
 * pos/33 + y), load frame[(4by+y)*width + 4bx + x]; store blk_sad[pos] of
 * vector 25*mbs + 16*mb + 4*(by&3) + (bx&3).  larger_sad_calc_8 (tx =
 * threadIdx.y & 1, ty = threadIdx.y >> 1) and _16: for sp = threadIdx.x;
 * sp < 545; sp += 32: four 4-byte loads from the smaller blocks' vectors and
 * five 4-byte stores to the larger ones (offsets in the kernels' text). */
#include "gen.h"

#define SP 1096u          /* MAX_POS_PADDED */
#define SMAX 1089u        /* MAX_POS */
#define SPT 18u           /* POS_PER_THREAD */
#define SHALF (SP / 2)
#define SITER ((SMAX + 1) / 2)    /* 545 uint pairs */

struct sad {
    struct wl_simple g;
    uint64_t w, h, mbw, mbh, mbs;
    uint64_t cur, ref, sads;
};

const struct cfg_key sad_config_keys[] = {
    {"workload.sad.width", CFG_INT, "176", 16, 1e5, NULL,
     "frame width in pixels, a multiple of 16 (QCIF: 176)"},
    {"workload.sad.height", CFG_INT, "144", 16, 1e5, NULL,
     "frame height in pixels, a multiple of 16 (QCIF: 144)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

static uint64_t sad_npos(const void *impl, const struct warp_ctx *w)
{
    (void)impl;
    if (w->k->id == 0) return SPT * 33;
    return 9 * wl_div_up(SITER, 32);
}

static int64_t sad_clamp(int64_t v, int64_t hi) { return v < 0 ? 0 : v > hi ? hi : v; }

static bool sad_lane(const void *impl, const struct warp_ctx *w,
                     const struct wl_thread *t, uint64_t pos, struct wl_top *op)
{
    const struct sad *m = impl;
    op->compute = 0;
    op->size = 4;
    if (w->k->id == 0) {
        uint64_t k = pos / 33, q = pos % 33, sp = (uint64_t)t->tx * SPT + k;
        if (sp >= SMAX) return false;
        int64_t fx = 4 * (int64_t)t->bx, fy = 4 * (int64_t)t->by;
        if (q == 32) {
            uint64_t mb = (t->by >> 2) * m->mbw + (t->bx >> 2);
            uint64_t vec = 25 * m->mbs + 16 * mb + 4 * (t->by & 3) + (t->bx & 3);
            op->op = INST_STORE;
            op->size = 2;
            op->addr = m->sads + (vec * SP + sp) * 2;
            return true;
        }
        int64_t y = (int64_t)(q / 8), x = (int64_t)(q % 8 / 2);
        op->op = INST_LOAD;
        op->size = 2;
        if (q % 2 == 0) {
            int64_t rx = sad_clamp(fx - 16 + (int64_t)(sp % 33) + x, (int64_t)m->w - 1);
            int64_t ry = sad_clamp(fy - 16 + (int64_t)(sp / 33) + y, (int64_t)m->h - 1);
            op->addr = m->ref + ((uint64_t)ry * m->w + (uint64_t)rx) * 2;
        } else {
            op->addr = m->cur + ((uint64_t)(fy + y) * m->w + (uint64_t)(fx + x)) * 2;
        }
        return true;
    }
    uint64_t sp = t->tx + (pos / 9) * 32, q = pos % 9;
    if (sp >= SITER) return false;
    uint64_t M = m->mbs * SP, mi = ((uint64_t)t->by * m->mbw + t->bx) * SP;
    uint64_t bi, o[3];       /* ushort offsets: input, and three outputs */
    /* [0] larger_sad_calc_16, [1] _8: load q reads uint sp + in[q]; store
     * q-4 writes output o[so[q-4]] at uint sp + sk[q-4]. */
    static const uint64_t in[2][4] = { { 0, SHALF, 2 * SHALF, 3 * SHALF },
                                       { 0, SHALF, 4 * SHALF, 5 * SHALF } };
    static const unsigned so[5] = { 0, 0, 1, 1, 2 };
    static const uint64_t sk[2][5] = { { 0, SHALF, 0, SHALF, 0 }, { 0, SHALF, 0, 2 * SHALF, 0 } };
    unsigned eight = w->k->id == 1;
    if (eight) {
        uint64_t tx = t->ty & 1, ty = t->ty >> 1;
        bi = (25 * m->mbs + ty * 8 + tx * 2) * SP + mi * 16;
        o[0] = (17 * m->mbs + ty * 4 + tx * 2) * SP + mi * 8;
        o[1] = (9 * m->mbs + ty * 4 + tx) * SP + mi * 8;
        o[2] = (5 * m->mbs + ty * 2 + tx) * SP + mi * 4;
    } else {
        bi = 5 * M + 4 * mi;
        o[0] = 3 * M + 2 * mi;
        o[1] = M + 2 * mi;
        o[2] = mi;
    }
    if (q < 4) {
        op->op = INST_LOAD;
        op->addr = m->sads + bi * 2 + (sp + in[eight][q]) * 4;
        return true;
    }
    op->op = INST_STORE;
    op->addr = m->sads + o[so[q - 4]] * 2 + (sp + sk[eight][q - 4]) * 4;
    return true;
}

static void *sad_create(struct workload *wl, const struct config *cfg)
{
    struct sad *m = xcalloc(1, sizeof *m);
    m->w = cfg_u64(cfg, "workload.sad.width");
    m->h = cfg_u64(cfg, "workload.sad.height");
    if (m->w % 16 || m->h % 16)
        user_error("workload.sad.width and workload.sad.height must be multiples of 16");
    m->mbw = m->w / 16;
    m->mbh = m->h / 16;
    m->mbs = m->mbw * m->mbh;
    m->cur = wl_add_alloc(wl, "d_cur_image", m->w * m->h * 2);
    m->ref = wl_add_alloc(wl, "ref_ary", m->w * m->h * 2);
    m->sads = wl_add_alloc(wl, "d_sads", 41 * SP * m->mbs * 2);
    m->g.npos = sad_npos;
    m->g.lane = sad_lane;
    struct wl_prog *p = &m->g.prog;
    wl_prog_host(p, WL_STEP_MEMCPY, 0, 0, m->w * m->h * 2, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_host(p, WL_STEP_MEMCPY, 1, 0, m->w * m->h * 2, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_kernel(p, "mb_sad_calc", 0, (struct dim3){ (uint32_t)(m->w / 4), (uint32_t)(m->h / 4), 1 },
                   (struct dim3){ wl_div_up(SMAX, SPT), 1, 1 }, 24, SP * 2);
    wl_prog_kernel(p, "larger_sad_calc_8", 1, (struct dim3){ (uint32_t)m->mbw, (uint32_t)m->mbh, 1 },
                   (struct dim3){ 32, 4, 1 }, 16, 0);
    wl_prog_kernel(p, "larger_sad_calc_16", 2, (struct dim3){ (uint32_t)m->mbw, (uint32_t)m->mbh, 1 },
                   (struct dim3){ 32, 1, 1 }, 16, 0);
    wl_prog_host(p, WL_STEP_MEMCPY, 2, 0, 41 * SP * m->mbs * 2, WL_TO_HOST, WL_ADV_NONE);
    return m;
}

static const struct workload_ops sad_ops = {
    "sad", sad_create, wl_simple_next_step, wl_simple_warp_start,
    wl_simple_next_inst, wl_simple_destroy,
};

const struct wl_info sad_info = {
    &sad_ops, sad_config_keys,
    "Parboil 2.5 sad (cuda): mb_sad_calc, larger_sad_calc_8, larger_sad_calc_16 "
    "(the texture-read reference frame as a managed allocation); HPE Table II type III (SAD).",
    "2 x 2*width*height + 2*41*1096*mbs bytes, mbs = (width/16)*(height/16); frames all "
    "touched, d_sads all but its last 12 bytes (padding of the last vector)",
};

/* mummergpu: MUMmerGPU's exact-match kernel (Schatz et al., BMC
 * Bioinformatics 2007), Rodinia 3.1 mummergpu/src as the thesis (Agarwal,
 * Ch. IV Sec. 4.3.1, Figs. 4.5-4.8 and 4.12; Ch. VI) ran it: kernel
 * mummergpuKernel (mummergpu_kernel.cu) in the default build of common.cu
 * (QRYTEX 0, COALESCED_QUERIES 0, REFTEX 0, REORDER_REF 0, TREETEX 1 so
 * nodes and children are 16-byte texels fetched with tex2D, MERGETEX 0,
 * REORDER_TREE 1, RENUMBER_TREE 1, no two-level tree), one query per
 * thread, <<<ceil(q/256), min(q, 256)>>> (BLOCKSIZE 256, matchOnGPU).
 *
 * Program (mummergpu.cu, one reference page and one query block: the
 * reference is at most BASES_PER_TREE_PAGE bases and the queries fit the
 * device): allocations and host-to-device copies of the reference string,
 * the node and children textures, the queries, their addresses and
 * lengths; the match-coordinate buffer (its cudaMemset is not modelled);
 * the kernel; the buffer copied back.  The print kernel that follows
 * (printKernel over the host-built match list) is not modelled.
 *
 * Thread qryid < numQueries (per mummergpuKernel; cur, mustmatch and
 * qry_match_len carry over between starts, the suffix-link walk):
 *   load queryLengths[qryid], queryAddrs[qryid] (4 B each);
 *   for qrystart = 0 .. qlen - min_match:
 *     if cur is NULL or qry_match_len < 1: cur = root, qry_match_len = 1,
 *       mustmatch = 0;
 *     load c = queries[qryAddr + qrystart + qry_match_len] (1 B);
 *     while c != '\0':
 *       load the children texel of cur (16 B); prev = cur; cur = its A, C,
 *       G or T child (none for any other c);
 *       none: if qry_match_len > min_match store the 8-byte MatchCoord
 *         (prev, 0); qry_match_len -= 1; mustmatch = 0; to the suffix link;
 *       load the node texel of cur (16 B): the edge S[start..end];
 *       mustmatch > 0: skip min(mustmatch, edge length) characters
 *       unread; otherwise count the first character (it chose the child);
 *       load c (next query character);
 *       while refpos <= end and c != '\0': load ref[refpos] (1 B); a
 *         mismatch ends the walk; else advance and load c;
 *     record: if qry_match_len > min_match store the MatchCoord (cur,
 *       refpos - start); mustmatch = refpos - start; qry_match_len -=
 *       mustmatch + 1;
 *     suffix link: load the node texel of prev; cur = its suffix link.
 * The MatchCoord of start qrystart is match_coords[qryAddr - qryid *
 * (min_match + 1) + qrystart] (MATCH_BASE, RESULT_SPAN 1).  Texture
 * fetches are 16-byte loads through the L1 like every load (no texture
 * cache, as parboil_sad.c), at the texel's row-major offset in the 4096-
 * texel-wide array, or at GPGPU-Sim's tiled timing address
 * (texture_layout; mummer.h); the kernel's registers:
 * 15 (experiments/tests.regs.s lists 15 and 19 for the default build,
 * "Ttn"; the larger is taken as the print kernel's).  No compute between
 * the loads (the graph kernels' lane machinery, graph.h, issues memory
 * instructions only). */
#include <stdlib.h>
#include <string.h>
#include "gen.h"
#include "graph.h"
#include "mummer.h"

#define MUM_BLOCK 256           /* mummergpu.cu BLOCKSIZE */
#define MUM_REGS 15

enum { A_REF, A_NODE, A_CHILD, A_QRY, A_ADDR, A_LEN, A_COORD, A_N };

struct mum {
    struct wl_prog prog;
    struct gk_slab slab;
    struct mum_input in;
    struct mum_tree t;
    uint32_t mml;
    bool gpgpusim;              /* texture_layout */
    uint64_t a[A_N];
};

const struct cfg_key mummergpu_config_keys[] = {
    {"workload.mummergpu.ref_len", CFG_INT, "1048576", 1, 8388608, NULL,
     "generated reference bases (Rodinia's NC_003997: 5.2 Mbp; 1 Mbp keeps a thesis-ch4 run "
     "near 25 s; at most BASES_PER_TREE_PAGE)"},
    {"workload.mummergpu.queries", CFG_INT, "8192", 1, 1e9, NULL,
     "generated queries (reads) (the thesis's count is not given)"},
    {"workload.mummergpu.query_len", CFG_INT, "100", 1, 8192, NULL,
     "bases per generated query (Rodinia's run: NC_003997_q100bp.fna, 100)"},
    {"workload.mummergpu.mismatch", CFG_FRACTION, "0%", 0, 1, NULL,
     "fraction of a generated query's bases mutated (genreads.py -m; Rodinia's reads: 0, "
     "genreads.py never applies it)"},
    {"workload.mummergpu.min_match", CFG_INT, "20", 1, 8192, NULL,
     "minimal match length (mummergpu -l, default 20)"},
    {"workload.mummergpu.texture_layout", CFG_ENUM, "row-major", 0, -1, "row-major|gpgpusim",
     "addresses of the node and children texels: row-major in the 4096-wide array, or the "
     "tiled timing addresses GPGPU-Sim 3.x gives 2-D fetches (128-byte texture lines)"},
    {"workload.mummergpu.ref_file", CFG_STRING, "", 0, -1, NULL,
     "reference FASTA file (one sequence; empty: generated)"},
    {"workload.mummergpu.query_file", CFG_STRING, "", 0, -1, NULL,
     "query multi-FASTA file (empty: generated)"},
    {NULL, 0, NULL, 0, 0, NULL, NULL},
};

/* ---- the kernel, one coroutine per thread (graph.h) ---- */

#define QS(L) ((L)->v[0])      /* qrystart */
#define CUR(L) ((L)->v[1])
#define PREV(L) ((L)->v[2])
#define QML(L) ((L)->v[3])     /* qry_match_len (never negative here) */
#define MM(L) ((L)->v[4])      /* mustmatch */
#define RP(L) ((L)->v[5])      /* refpos */

static uint8_t qchar(const struct mum *m, uint64_t q, uint64_t pos)
{ return m->in.qtext[m->in.qaddr[q] + pos]; }

static uint64_t qch_addr(const struct mum *m, uint64_t q, uint64_t pos)
{ return m->a[A_QRY] + m->in.qaddr[q] + pos; }

static uint64_t coord_addr(const struct mum *m, uint64_t q, uint64_t qs)
{ return m->a[A_COORD] + (m->in.qaddr[q] - q * (m->mml + 1ULL) + qs) * 8; }

static uint64_t texel(const struct mum *m, uint64_t id)
{ return m->gpgpusim ? mum_texel_gpgpusim((uint32_t)id) : mum_texel((uint32_t)id); }

static uint32_t child(const struct mum *m, uint32_t id, uint8_t c)
{
    switch (c) {
    case 'A': return m->t.kid[4 * id + 0];
    case 'C': return m->t.kid[4 * id + 1];
    case 'G': return m->t.kid[4 * id + 2];
    case 'T': return m->t.kid[4 * id + 3];
    default: return 0;
    }
}

static void thread(void *impl, struct gk_lane *L)
{
    struct mum *m = impl;
    const struct mum_tree *t = &m->t;
    uint64_t q = L->tid;
    GK_BEGIN(L);
    if (q >= m->in.nq) { L->pc = GK_DONE; return; }
    GK_OP(L, INST_LOAD, m->a[A_LEN] + q * 4, 4);
    GK_OP(L, INST_LOAD, m->a[A_ADDR] + q * 4, 4);
    CUR(L) = 0;
    MM(L) = 0;
    QML(L) = 0;
    for (QS(L) = 0; QS(L) + m->mml <= m->in.qlen[q]; QS(L)++) {
        if (!CUR(L) || QML(L) < 1) { CUR(L) = 1; QML(L) = 1; MM(L) = 0; }
        GK_OP(L, INST_LOAD, qch_addr(m, q, QS(L) + QML(L)), 1);
        RP(L) = 0;
        while (qchar(m, q, QS(L) + QML(L))) {
            SIM_ASSERT(t->en[CUR(L)] != t->N, "workload", 0,
                       "mummergpu: query %llu walks below leaf %llu",
                       (unsigned long long)q, (unsigned long long)CUR(L));
            GK_OP(L, INST_LOAD, m->a[A_CHILD] + texel(m, CUR(L)), MUM_TEXEL);
            PREV(L) = CUR(L);
            CUR(L) = child(m, (uint32_t)CUR(L), qchar(m, q, QS(L) + QML(L)));
            if (!CUR(L)) {
                GK_OP_IF(L, QML(L) > m->mml, INST_STORE, coord_addr(m, q, QS(L)), 8);
                QML(L) -= 1;
                MM(L) = 0;
                goto suffix_link;
            }
            GK_OP(L, INST_LOAD, m->a[A_NODE] + texel(m, CUR(L)), MUM_TEXEL);
            {
                uint64_t st = t->st[CUR(L)], en = t->en[CUR(L)], len = en - st + 1;
                if (MM(L)) {
                    RP(L) = st + MM(L) < en + 1 ? st + MM(L) : en + 1;
                    QML(L) += len < MM(L) ? len : MM(L);
                    MM(L) = MM(L) > len ? MM(L) - len : 0;
                } else {
                    QML(L)++;
                    RP(L) = st + 1;
                }
            }
            GK_OP(L, INST_LOAD, qch_addr(m, q, QS(L) + QML(L)), 1);
            while (RP(L) <= t->en[CUR(L)] && qchar(m, q, QS(L) + QML(L))) {
                GK_OP(L, INST_LOAD, m->a[A_REF] + RP(L), 1);
                if (m->in.S[RP(L)] != qchar(m, q, QS(L) + QML(L))) goto record;
                QML(L)++;
                RP(L)++;
                GK_OP(L, INST_LOAD, qch_addr(m, q, QS(L) + QML(L)), 1);
            }
        }
record:
        /* the outer walk ran at least once: the first character of a
         * start is a base (qrystart + qry_match_len <= qlen) */
        SIM_ASSERT(RP(L) > 0, "workload", 0, "mummergpu: empty walk");
        GK_OP_IF(L, QML(L) > m->mml, INST_STORE, coord_addr(m, q, QS(L)), 8);
        MM(L) = RP(L) - t->st[CUR(L)];
        /* qry_match_len - 1 characters matched: the parent's depth + mustmatch */
        SIM_ASSERT(QML(L) > MM(L), "workload", 0, "mummergpu: match length %llu after %llu "
                   "edge characters", (unsigned long long)QML(L), (unsigned long long)MM(L));
        QML(L) -= MM(L) + 1;
suffix_link:
        GK_OP(L, INST_LOAD, m->a[A_NODE] + texel(m, PREV(L)), MUM_TEXEL);
        CUR(L) = t->sl[PREV(L)];
    }
    GK_END(L);
}

/* ---- the program ---- */

static bool mum_next_step(void *impl, struct wl_step *out)
{
    return wl_prog_next(&((struct mum *)impl)->prog, out);
}

static void mum_warp_start(void *impl, struct warp_ctx *w)
{
    struct mum *m = impl;
    gk_warp_start(&m->slab, m, thread, w);
}

static void mum_next_inst(void *impl, struct warp_ctx *w, struct warp_inst *out)
{
    struct mum *m = impl;
    gk_next_inst(&m->slab, m, thread, w, out);
}

static void mum_destroy(void *impl)
{
    struct mum *m = impl;
    mum_input_free(&m->in);
    mum_tree_free(&m->t);
    gk_slab_free(&m->slab);
    free(m);
}

static void mum_cleanup(void *impl) { mum_destroy(impl); }

static void *mum_create(struct workload *wl, const struct config *cfg)
{
    uint32_t mml = (uint32_t)cfg_u64(cfg, "workload.mummergpu.min_match");
    if (!cfg_str(cfg, "workload.mummergpu.query_file")[0] &&
        cfg_u64(cfg, "workload.mummergpu.query_len") < mml)
        user_error("key 'workload.mummergpu.query_len': queries shorter than "
                   "workload.mummergpu.min_match are dropped (getQueriesTexture): none left");
    struct mum *m = xcalloc(1, sizeof *m);
    user_error_push_cleanup(mum_cleanup, m);
    m->mml = mml;
    m->gpgpusim = cfg_is(cfg, "workload.mummergpu.texture_layout", "gpgpusim");
    mum_input_load(&m->in, cfg, mml);
    uint32_t N = m->in.n + 1;
    if (mum_tree_host_bytes(N) > host_memory_limit())
        user_error("key 'workload.mummergpu.ref_len': the suffix tree of %u bases needs "
                   "more host memory than this machine allows", m->in.n);
    mum_tree_build(&m->t, m->in.S, N);
    user_error_pop_cleanup();

    /* initReferencePages with one page: begin 1, end = begin + n +
     * ceil(page_overlap / 2) + 1 (page_overlap = MAX_QUERY_LEN + 1 = 8193):
     * n + 4099; buildReferenceTexture: ref->len = end - begin + 3 = n +
     * 4101 bytes ('s', the bases, '$', the overlap's NULs, '$', NUL); the
     * tree is built on "s" + bases + "$" (strlen stops at the first NUL). */
    uint64_t rows = mum_tex_rows(m->t.nodes);
    uint64_t tex = (uint64_t)MUM_TEX_W * rows * MUM_TEXEL;
    uint64_t nq = m->in.nq, ncoord = 0;
    for (uint64_t i = 0; i < nq; i++) ncoord += m->in.qlen[i] - mml + 1ULL;
    m->a[A_REF] = wl_add_alloc(wl, "d_ref_array", m->in.n + 4101ULL);
    m->a[A_NODE] = wl_add_alloc(wl, "d_node_tex_array", tex);
    m->a[A_CHILD] = wl_add_alloc(wl, "d_children_tex_array", tex);
    m->a[A_QRY] = wl_add_alloc(wl, "d_tex_array", m->in.qbytes);
    m->a[A_ADDR] = wl_add_alloc(wl, "d_addrs_tex_array", nq * 4);
    m->a[A_LEN] = wl_add_alloc(wl, "d_lengths_array", nq * 4);
    m->a[A_COORD] = wl_add_alloc(wl, "d_match_coords", ncoord * 8);
    struct wl_prog *p = &m->prog;
    for (uint32_t i = A_REF; i <= A_LEN; i++)
        wl_prog_host(p, WL_STEP_MEMCPY, i, 0, wl->allocs[i].size, WL_TO_GPU, WL_ADV_NONE);
    wl_prog_kernel(p, "mummergpuKernel", 0, (struct dim3){ wl_div_up(nq, MUM_BLOCK), 1, 1 },
                   (struct dim3){ (uint32_t)(nq < MUM_BLOCK ? nq : MUM_BLOCK), 1, 1 },
                   MUM_REGS, 0);
    wl_prog_host(p, WL_STEP_MEMCPY, A_COORD, 0, ncoord * 8, WL_TO_HOST, WL_ADV_NONE);
    return m;
}

static const struct workload_ops mum_ops = {
    "mummergpu", mum_create, mum_next_step, mum_warp_start, mum_next_inst, mum_destroy,
};

const struct wl_info mummergpu_info = {
    &mum_ops, mummergpu_config_keys,
    "Rodinia 3.1 mummergpu (MUMmerGPU), mummergpuKernel in the default build (tree in two "
    "REORDER_TREE/RENUMBER_TREE textures): one query per thread walking the reference's "
    "suffix tree with suffix links; seeded reference and reads, or FASTA files; thesis "
    "(Agarwal) mummergpu.",
    "n + 4101 (reference; n bases) + 2 x 65536 x 32 x ceil((nodes + 1) / 131072) (node and "
    "children textures; nodes about 1.62 n for a random reference) + q (L + 2) (queries) + "
    "8 q (addresses, lengths) + 8 q (L - min_match + 1) (match coordinates) bytes for q "
    "queries of L bases; texels touched as the walks reach them (texture_layout=gpgpusim: "
    "the lower half of each texture only)",
};

/* Inside workloads/: MUMmerGPU's input (a reference and its queries) and
 * its suffix tree as the default Rodinia 3.1 build lays it out in the node
 * and children textures (rodinia_mummergpu.c runs the kernel over them). */
#ifndef UVMSIM_WL_MUMMER_H
#define UVMSIM_WL_MUMMER_H

#include <stdint.h>

struct config;

/* The reference string as mummergpu.cu's buildReferenceTexture builds it:
 * S[0] = 's', the bases S[1..n], S[n+1] = '$' (N = n + 1 is the text the
 * tree is built on).  The queries as getQueriesTexture packs them: for
 * query i, 'q' at qaddr[i], its qlen[i] bases after it, then '\0' (bases
 * are A, C, G, T; other letters became 'x'). */
struct mum_input {
    uint8_t *S;
    uint32_t n;
    uint8_t *qtext;
    uint64_t qbytes;              /* getQueriesTexture's texlen */
    uint32_t *qaddr, *qlen;
    uint64_t nq;
};

/* Reads workload.mummergpu.* : FASTA files, or the seeded generator (see
 * mummer_input.c for the recipe).  User errors name the key or FILE:LINE. */
void mum_input_load(struct mum_input *in, const struct config *cfg, uint32_t min_match);
void mum_input_free(struct mum_input *in);

/* The suffix tree of S[1..N] (suffix-tree.cpp's Ukkonen tree: the same
 * nodes, edges and suffix links), numbered as renumberTree numbers it
 * (RENUMBER_TREE 1): ids 1..nodes, the root 1, 0 the NULL node.  Per id:
 * the children by A, C, G, T (kid[4*id + b], 0 = none; the '$' child is
 * never followed by the kernel and not kept), the edge into the node as
 * S[st..en] (suffix-tree.cpp's m_start / m_end), and the suffix link (the
 * root links to itself; leaves have none, 0).  A leaf is a node whose edge
 * ends at N. */
struct mum_tree {
    uint32_t nodes, N;
    uint32_t *kid, *st, *en, *sl;
};

void mum_tree_build(struct mum_tree *t, const uint8_t *S, uint32_t N);
void mum_tree_free(struct mum_tree *t);

/* Host bytes mum_tree_build needs at most for a text of N characters (the
 * generator refuses inputs beyond the machine, host_memory_limit). */
uint64_t mum_tree_host_bytes(uint32_t N);

/* Node ID's texel (x, y) in either texture: id2addr with REORDER_TREE
 * (mummergpu_kernel.cu): bigx = id & 0x1FFFF, bigy = id >> 17, y = 32*bigy
 * + (bigx & 31), x = bigx >> 5, in a 4096-texel-wide array of 16-byte
 * texels.  Its byte offset, row-major: (y * 4096 + x) * 16 (the default,
 * docs/decisions.md). */
#define MUM_TEX_W 4096u
#define MUM_TEXEL 16u
static inline uint64_t mum_texel(uint32_t id)
{
    uint64_t bigx = id & 0x1FFFF, bigy = id >> 17;
    uint64_t y = 32 * bigy + (bigx & 31), x = bigx >> 5;
    return (y * MUM_TEX_W + x) * MUM_TEXEL;
}

/* The offset GPGPU-Sim 3.x presents to its memory system for a 2-D fetch
 * of that texel (src/cuda-sim/instructions.cc tex_impl, the timing address
 * m_last_effective_address; the data itself is read row-major): tiles of
 * Tx x Ty texels sized to a texture-cache line (gpgpu_ptx_sim_bindTexture-
 * ToArray: 128-byte lines, as the Fermi configs' gpgpu_tex_cache:l1, and
 * 16-byte texels give Tx = 4, Ty = 2), tile (x/4, y/2) at ((y/2) * 4096/4 +
 * x/4) << 6 -- 64 bytes apart though 128 long -- plus (x%4)*16 + (y%2)*64.
 * Only the lower half of the array is ever addressed. */
static inline uint64_t mum_texel_gpgpusim(uint32_t id)
{
    uint64_t bigx = id & 0x1FFFF, bigy = id >> 17;
    uint64_t y = 32 * bigy + (bigx & 31), x = bigx >> 5;
    return (((y >> 1) * (MUM_TEX_W / 4) + (x >> 2)) << 6) + (x & 3) * MUM_TEXEL + (y & 1) * 64;
}

/* Texture rows for NODES tree nodes (buildSuffixTreeTexture, REORDER_TREE:
 * ceil((nodes + 1) / (4096 * 32)) * 32, TEXBLOCKSIZE 32). */
static inline uint64_t mum_tex_rows(uint32_t nodes)
{
    uint64_t band = (uint64_t)MUM_TEX_W * 32;
    return ((nodes + 1ULL + band - 1) / band) * 32;
}

#endif

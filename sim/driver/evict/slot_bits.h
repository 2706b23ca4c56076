/* Private to sim/driver: a bit set over frame slots with a one-bit-per-word
 * summary, so "first set slot at or after i" costs capacity/4096 word reads
 * at worst instead of capacity/64 (RRIP's in-order search for a distant
 * page). */
#ifndef UVMSIM_DRIVER_SLOT_BITS_H
#define UVMSIM_DRIVER_SLOT_BITS_H

#include <stdlib.h>
#include "core/base.h"

struct slot_bits { uint64_t *w, *sum; size_t nw, ns; };

static inline void slot_bits_init(struct slot_bits *b, size_t slots)
{
    b->nw = (slots + 63) / 64 + 1;
    b->ns = (b->nw + 63) / 64;
    b->w = xcalloc(b->nw, sizeof *b->w);
    b->sum = xcalloc(b->ns, sizeof *b->sum);
}

static inline void slot_bits_free(struct slot_bits *b) { free(b->w); free(b->sum); }

static inline void slot_bits_set(struct slot_bits *b, size_t i)
{
    b->w[i / 64] |= 1ULL << (i % 64);
    b->sum[i / 4096] |= 1ULL << (i / 64 % 64);
}

static inline void slot_bits_clear(struct slot_bits *b, size_t i)
{
    size_t k = i / 64;
    b->w[k] &= ~(1ULL << (i % 64));
    if (!b->w[k]) b->sum[k / 64] &= ~(1ULL << (k % 64));
}

/* First set slot >= i, or SIZE_MAX. */
static inline size_t slot_bits_next(const struct slot_bits *b, size_t i)
{
    size_t k = i / 64;
    if (k >= b->nw) return SIZE_MAX;
    uint64_t m = b->w[k] & (~0ULL << (i % 64));
    if (m) return k * 64 + (size_t)__builtin_ctzll(m);
    k++;
    for (size_t s = k / 64; s < b->ns; s++) {
        uint64_t sm = b->sum[s];
        if (s == k / 64) sm &= k % 64 ? ~0ULL << (k % 64) : ~0ULL;
        if (!sm) continue;
        size_t w = s * 64 + (size_t)__builtin_ctzll(sm);
        return w * 64 + (size_t)__builtin_ctzll(b->w[w]);
    }
    return SIZE_MAX;
}

/* dst |= src; src = {} (whole-set moves: RRIP ageing). */
static inline void slot_bits_move(struct slot_bits *dst, struct slot_bits *src)
{
    for (size_t s = 0; s < src->ns; s++) {
        for (uint64_t sm = src->sum[s]; sm; sm &= sm - 1) {
            size_t k = s * 64 + (size_t)__builtin_ctzll(sm);
            dst->w[k] |= src->w[k];
            src->w[k] = 0;
        }
        dst->sum[s] |= src->sum[s];
        src->sum[s] = 0;
    }
}

#endif

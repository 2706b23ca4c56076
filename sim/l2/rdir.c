/* The remote directory's filter (thesis Sec. 6.2.1): which GPU-homed lines
 * the CPU may be caching, conservatively -- a cuckoo filter (Fan et al.,
 * "Cuckoo Filter: Practically Better Than Bloom", CoNEXT 2014), which
 * never reports a false negative and reports a false positive with
 * probability at most 2b / 2^f for buckets of b slots and f-bit
 * fingerprints (their Sec. 4: 8 / 256 = 3.1 % for the thesis' sizing,
 * 64 KB holding the 65536 lines of 8 MB of GPU memory in 8-bit
 * fingerprints, 4 per bucket: "64KB ... a false positive rate of 3%").
 *
 * Partial-key cuckoo hashing: a line's two buckets are i1 = h(line) and
 * i2 = i1 xor h(fingerprint), so a fingerprint can move between them
 * without the line.  An insertion into two full buckets kicks a random
 * resident to its other bucket, up to 500 times (their MaxNumKicks); when
 * that fails the filter is full.  Entries are never deleted: the thesis
 * resets the whole directory after making the CPU flush (rdir_reset).
 * Lookups read two buckets: nothing here allocates or scans after
 * rdir_create. */
#include <stdlib.h>
#include <string.h>
#include "l2.h"
#include "core/rng.h"

#define MAX_KICKS 500

struct rdir {
    uint16_t *slot;             /* nb x b fingerprints, 0: empty */
    uint32_t nb, b, fp_mask;    /* buckets (a power of two), slots, 2^f - 1 */
    uint64_t n;                 /* fingerprints held */
    struct rng rng;
};

static inline uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

static inline uint32_t fp_of(const struct rdir *d, uint64_t h)
{
    uint32_t f = (uint32_t)(h >> 32) & d->fp_mask;
    return f ? f : 1;           /* 0 marks an empty slot */
}

static inline uint32_t alt(const struct rdir *d, uint32_t i, uint32_t f)
{
    return (i ^ (uint32_t)mix(f)) & (d->nb - 1);
}

struct rdir *rdir_create(uint64_t bytes, unsigned bucket, unsigned fp_bits, uint64_t seed)
{
    if (!bucket || fp_bits < 2 || fp_bits > 16) return NULL;
    uint64_t nb = bytes * 8 / ((uint64_t)bucket * fp_bits);
    if (!nb) return NULL;
    uint64_t p = 1;
    while (p * 2 <= nb && p * 2 <= (1ULL << 31)) p *= 2;
    struct rdir *d = xcalloc(1, sizeof *d);
    d->nb = (uint32_t)p;
    d->b = bucket;
    d->fp_mask = (1u << fp_bits) - 1;
    d->slot = xcalloc((size_t)d->nb * d->b, sizeof *d->slot);
    rng_init(&d->rng, seed, "remote_dir");
    return d;
}

void rdir_free(struct rdir *d)
{
    if (!d) return;
    free(d->slot);
    free(d);
}

static bool in_bucket(const struct rdir *d, uint32_t i, uint32_t f)
{
    const uint16_t *s = &d->slot[(size_t)i * d->b];
    for (uint32_t k = 0; k < d->b; k++) if (s[k] == f) return true;
    return false;
}

static bool put(struct rdir *d, uint32_t i, uint32_t f)
{
    uint16_t *s = &d->slot[(size_t)i * d->b];
    for (uint32_t k = 0; k < d->b; k++)
        if (!s[k]) { s[k] = (uint16_t)f; d->n++; return true; }
    return false;
}

bool rdir_contains(const struct rdir *d, uint64_t line)
{
    if (!d->n) return false;
    uint64_t h = mix(line);
    uint32_t f = fp_of(d, h), i = (uint32_t)h & (d->nb - 1);
    return in_bucket(d, i, f) || in_bucket(d, alt(d, i, f), f);
}

bool rdir_insert(struct rdir *d, uint64_t line)
{
    uint64_t h = mix(line);
    uint32_t f = fp_of(d, h), i = (uint32_t)h & (d->nb - 1), j = alt(d, i, f);
    if (put(d, i, f) || put(d, j, f)) return true;
    i = rng_below(&d->rng, 2) ? j : i;
    for (int n = 0; n < MAX_KICKS; n++) {
        uint16_t *s = &d->slot[(size_t)i * d->b + rng_below(&d->rng, d->b)];
        uint32_t v = *s;
        *s = (uint16_t)f;
        f = v;
        i = alt(d, i, f);
        if (put(d, i, f)) return true;
    }
    /* Full: the fingerprint kicked last has no place (a line may now be
     * missing), so the caller resets the filter. */
    return false;
}

void rdir_reset(struct rdir *d)
{
    memset(d->slot, 0, (size_t)d->nb * d->b * sizeof *d->slot);
    d->n = 0;
}

uint64_t rdir_count(const struct rdir *d) { return d->n; }
uint64_t rdir_capacity(const struct rdir *d) { return (uint64_t)d->nb * d->b; }

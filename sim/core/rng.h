/* Deterministic random streams: xoshiro256** seeded through splitmix64
 * (Blackman & Vigna).  Each component derives its own stream from sim.seed
 * and a fixed stream name, so adding a component never shifts another's
 * numbers.  Never rand(). */
#ifndef UVMSIM_RNG_H
#define UVMSIM_RNG_H

#include "base.h"

struct rng { uint64_t s[4]; };

static inline uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* FNV-1a of the stream name, mixed with the seed. */
static inline void rng_init(struct rng *r, uint64_t seed, const char *stream)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (const char *c = stream; *c; c++) h = (h ^ (uint8_t)*c) * 0x100000001b3ULL;
    uint64_t x = seed ^ h;
    for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&x);
}

static inline uint64_t rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(struct rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return out;
}

/* Uniform in [0, n) without modulo bias (Lemire's multiply-shift with
 * rejection). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
    unsigned __int128 m = (unsigned __int128)rng_next(r) * n;
    uint64_t lo = (uint64_t)m;
    if (lo < n) {
        uint64_t t = -n % n;
        while (lo < t) { m = (unsigned __int128)rng_next(r) * n; lo = (uint64_t)m; }
    }
    return (uint64_t)(m >> 64);
}

#endif

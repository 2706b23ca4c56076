/* sim.model fast: a port's occupancy counter as a calendar of its cycles
 * (the L1D and L2 lookup ports, the crossbar's ports, the GPU DRAM data
 * bus; sm/fast.c, l2/l2_fast.c, dram/dram_fast.c).  Requests are timed
 * when they are looked up, which is not always in the order of their times
 * (a miss that waited for a register is sent later than a hit looked up
 * after it), so a single "free from" time would hold every earlier request
 * behind a later one.  Instead each cycle counts its own uses, `width` at
 * most: a request takes the first cycle at or after its time with room.
 *
 * The calendar is a ring of 64-cycle words, each tagged with its word
 * number (a word of another number is free) and holding one bit per cycle
 * that is full, allocated once; a width-1 port (every port at the default
 * config) needs nothing else, and its n uses are taken a run of free bits
 * at a time (a 128 B line on the DRAM bus is 8 clocks: one word operation,
 * not 8 cycle visits).  A port of more than one use a cycle also counts
 * each cycle's uses. */
#ifndef UVMSIM_SLOTS_H
#define UVMSIM_SLOTS_H

#include <stdlib.h>
#include <string.h>
#include "base.h"

#define SLOTS_RING 4096u

struct slots {
    uint64_t *tag;          /* the word number a word holds, or UINT64_MAX */
    uint64_t *full;         /* bit k: cycle tag x 64 + k is full */
    uint32_t *used;         /* width > 1: each cycle's uses (NULL at width 1) */
    uint32_t width;         /* uses per cycle */
    uint32_t words;         /* a power of two */
    sim_time period;
    /* Cycles [rf, ru) are all full: a saturated port (a streaming GDDR
     * bus) is passed over in one step, not scanned word by word. */
    uint64_t rf, ru;
};

/* ring: cycles, a power of two and a multiple of 64 */
static inline void slots_init_n(struct slots *s, uint32_t width, sim_time period, uint32_t ring)
{
    s->words = ring / 64;
    s->tag = xmalloc(s->words * sizeof *s->tag);
    s->full = xcalloc(s->words, sizeof *s->full);
    for (uint32_t i = 0; i < s->words; i++) s->tag[i] = UINT64_MAX;
    s->used = width > 1 ? xcalloc(ring, sizeof *s->used) : NULL;
    s->width = width;
    s->period = period;
    s->rf = s->ru = 0;
}

static inline void slots_init(struct slots *s, uint32_t width, sim_time period)
{ slots_init_n(s, width, period, SLOTS_RING); }

static inline void slots_free(struct slots *s) { free(s->tag); free(s->full); free(s->used); }

/* Word w's slot, cleared first if it held another word. */
static inline uint32_t slots_word_(struct slots *s, uint64_t w)
{
    uint32_t i = (uint32_t)(w & (s->words - 1));
    if (s->tag[i] != w) {
        s->tag[i] = w;
        s->full[i] = 0;
        if (s->used) memset(&s->used[(size_t)i * 64], 0, 64 * sizeof *s->used);
    }
    return i;
}

static inline bool slots_full_(const struct slots *s, uint64_t c)
{
    uint32_t i = (uint32_t)((c >> 6) & (s->words - 1));
    return s->tag[i] == c >> 6 && (s->full[i] >> (c & 63) & 1);
}

/* Cycles [a, b) just filled up: grow the full run, or start a later one. */
static inline void slots_filled_(struct slots *s, uint64_t a, uint64_t b)
{
    if (a == s->ru) {
        s->ru = b;
    } else if (b == s->rf) {
        s->rf = a;
    } else if (a > s->ru) {
        s->rf = a;
        s->ru = b;
    } else {
        return;
    }
    uint64_t ring = (uint64_t)s->words * 64;
    while (s->ru - s->rf < ring && slots_full_(s, s->ru)) s->ru++;
}

/* n uses from the first cycle at or after t with room (each use one
 * cycle's unit, in the following cycles with room): the first's time;
 * *last (may be NULL) the last's. */
static inline sim_time slots_take_last(struct slots *s, sim_time t, uint32_t n, sim_time *last)
{
    uint64_t c = (t + s->period - 1) / s->period;
    sim_time first = TIME_NEVER;
    while (n) {
        if (c >= s->rf && c < s->ru) c = s->ru;
        uint32_t i = slots_word_(s, c >> 6), k = (uint32_t)(c & 63);
        uint64_t room = ~s->full[i] >> k;       /* bit j: cycle c + j has room */
        if (!room) { c += 64 - k; continue; }
        k += (uint32_t)__builtin_ctzll(room);
        c = (c & ~63ull) | k;
        uint32_t take;
        if (!s->used) {
            /* the run of free cycles from c, within this word */
            uint64_t run = ~(~s->full[i] >> k);
            uint32_t len = run ? (uint32_t)__builtin_ctzll(run) : 64 - k;
            take = n < len ? n : len;
            s->full[i] |= (take == 64 ? ~0ull : ((1ull << take) - 1)) << k;
        } else {
            take = 1;
            if (++s->used[(size_t)i * 64 + k] == s->width) s->full[i] |= 1ull << k;
            else take = 0;
        }
        if (first == TIME_NEVER) first = (sim_time)c * s->period;
        if (!take) {                /* a use in a cycle that still has room */
            if (--n == 0 && last) *last = (sim_time)c * s->period;
            c++;
            continue;
        }
        n -= take;
        if (n == 0 && last) *last = (sim_time)(c + take - 1) * s->period;
        slots_filled_(s, c, c + take);
        c += take;
    }
    return first;
}

static inline sim_time slots_take(struct slots *s, sim_time t, uint32_t n)
{ return slots_take_last(s, t, n, NULL); }

#endif

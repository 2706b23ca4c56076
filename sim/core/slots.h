/* sim.model fast: a port's occupancy counter as a calendar of its cycles
 * (the L1D and L2 lookup ports, the crossbar's ports; sm/fast.c,
 * l2/l2_fast.c).  Requests are timed when they are looked up, which is not
 * always in the order of their times (a miss that waited for a register
 * is sent later than a hit looked up after it), so a single "free from"
 * time would hold every earlier request behind a later one.  Instead each
 * cycle counts its own uses, `width` at most: a request takes the first
 * cycle at or after its time with room.  The calendar is a ring of
 * SLOTS_RING cycles tagged with their cycle numbers (an entry of another
 * cycle is free), allocated once. */
#ifndef UVMSIM_SLOTS_H
#define UVMSIM_SLOTS_H

#include <stdlib.h>
#include "base.h"

#define SLOTS_RING 4096u

struct slots {
    uint64_t *cyc;          /* the cycle number an entry counts, or UINT64_MAX */
    uint32_t *used;
    uint32_t width;         /* uses per cycle */
    uint32_t ring;          /* a power of two */
    sim_time period;
    /* Cycles [rf, ru) are all full: a saturated port (a streaming GDDR
     * bus) is passed over in one step, not scanned cycle by cycle. */
    uint64_t rf, ru;
};

static inline void slots_init_n(struct slots *s, uint32_t width, sim_time period, uint32_t ring)
{
    s->cyc = xmalloc(ring * sizeof *s->cyc);
    s->used = xcalloc(ring, sizeof *s->used);
    for (uint32_t i = 0; i < ring; i++) s->cyc[i] = UINT64_MAX;
    s->width = width;
    s->ring = ring;
    s->period = period;
    s->rf = s->ru = 0;
}

static inline bool slots_full_(const struct slots *s, uint64_t c)
{
    uint32_t i = (uint32_t)(c & (s->ring - 1));
    return s->cyc[i] == c && s->used[i] >= s->width;
}

/* Cycle c just filled up: grow the full run, or start a later one. */
static inline void slots_filled_(struct slots *s, uint64_t c)
{
    if (c == s->ru) {
        s->ru++;
    } else if (c + 1 == s->rf) {
        s->rf = c;
    } else if (c > s->ru) {
        s->rf = c;
        s->ru = c + 1;
    } else {
        return;
    }
    while (slots_full_(s, s->ru) && s->ru - s->rf < s->ring) s->ru++;
}

static inline void slots_init(struct slots *s, uint32_t width, sim_time period)
{ slots_init_n(s, width, period, SLOTS_RING); }

static inline void slots_free(struct slots *s) { free(s->cyc); free(s->used); }

/* n uses from the first cycle at or after t with room (each use one
 * cycle's unit, in the following cycles with room): the first's time;
 * *last (may be NULL) the last's. */
static inline sim_time slots_take_last(struct slots *s, sim_time t, uint32_t n, sim_time *last)
{
    uint64_t c = (t + s->period - 1) / s->period;
    sim_time first = TIME_NEVER;
    while (n) {
        if (c >= s->rf && c < s->ru) c = s->ru;
        uint32_t i = (uint32_t)(c & (s->ring - 1));
        if (s->cyc[i] != c) { s->cyc[i] = c; s->used[i] = 0; }
        if (s->used[i] < s->width) {
            s->used[i]++;
            if (first == TIME_NEVER) first = (sim_time)c * s->period;
            if (last && n == 1) *last = (sim_time)c * s->period;
            n--;
            if (s->used[i] == s->width) slots_filled_(s, c);
        }
        c++;
    }
    return first;
}

static inline sim_time slots_take(struct slots *s, sim_time t, uint32_t n)
{ return slots_take_last(s, t, n, NULL); }

#endif

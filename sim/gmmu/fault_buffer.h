/* Private to sim/gmmu: the fault buffer, and the faults waiting for room
 * in it. */
#ifndef UVMSIM_GMMU_FAULT_BUFFER_H
#define UVMSIM_GMMU_FAULT_BUFFER_H

#include "gmmu.h"

#define FB_MAX_SMS 1024

struct fault_buffer {
    struct fault_entry *e;        /* ring */
    uint32_t cap, head, n;
    /* Faults that found the buffer full, in arrival order (through ->next
     * of their walk requests; the entry is rebuilt from the request). */
    struct mem_req *wait_head, *wait_tail;
    uint32_t nwait;
    uint32_t wait_of_sm[FB_MAX_SMS];
};

void fb_init(struct fault_buffer *f, uint32_t cap);
void fb_free(struct fault_buffer *f);
static inline bool fb_full(const struct fault_buffer *f) { return f->n == f->cap; }
void fb_push(struct fault_buffer *f, const struct fault_entry *e);
struct fault_entry fb_pop(struct fault_buffer *f);
void fb_wait(struct fault_buffer *f, struct mem_req *r);
/* Oldest waiting fault, removed; NULL when none. */
struct mem_req *fb_unwait(struct fault_buffer *f);

#endif

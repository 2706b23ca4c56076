/* Fault buffer (batch-aware paper Sec. 2 and Table 1: 1024 entries): the
 * hardware logs one entry per uTLB per faulted page, so a page faulted by
 * several SMs has several entries, duplicates the driver coalesces
 * (uvm_gpu_replayable_faults.c, preprocess_fault_batch).  When it is full
 * the GMMU cannot log, and the faulting SM's translation stops until the
 * driver makes room (HPE Sec. II: "the GPU first stops address
 * translation in the faulted SM"): back-pressure, no fault is dropped. */
#include <stdlib.h>
#include "fault_buffer.h"

void fb_init(struct fault_buffer *f, uint32_t cap)
{
    *f = (struct fault_buffer){0};
    f->cap = cap;
    f->e = xcalloc(cap, sizeof *f->e);
}

void fb_free(struct fault_buffer *f) { free(f->e); f->e = NULL; }

void fb_push(struct fault_buffer *f, const struct fault_entry *e)
{
    f->e[(f->head + f->n++) % f->cap] = *e;
}

struct fault_entry fb_pop(struct fault_buffer *f)
{
    struct fault_entry e = f->e[f->head];
    f->head = (f->head + 1) % f->cap;
    f->n--;
    return e;
}

void fb_wait(struct fault_buffer *f, struct fault_rec *r)
{
    r->wnext = NULL;
    if (f->wait_tail) f->wait_tail->wnext = r;
    else f->wait_head = r;
    f->wait_tail = r;
    f->nwait++;
    f->wait_of_sm[r->sm]++;
}

struct fault_rec *fb_unwait(struct fault_buffer *f)
{
    struct fault_rec *r = f->wait_head;
    if (!r) return NULL;
    f->wait_head = r->wnext;
    if (!f->wait_head) f->wait_tail = NULL;
    r->wnext = NULL;
    f->nwait--;
    f->wait_of_sm[r->sm]--;
    return r;
}

/* The 2 MiB / 64 KiB / 4 KiB buddy allocator (pmm.h). */
#include <stdlib.h>
#include "mem.h"

#define NIL UINT32_MAX
#define PER64 16u          /* 4 KiB frames per 64 KiB chunk */
#define PERROOT 32u        /* 64 KiB chunks per 2 MiB root chunk */

static void l_init(struct pmm_list *l, size_t n)
{
    l->head = NIL;
    l->next = xcalloc(n ? n : 1, sizeof *l->next);
    l->prev = xcalloc(n ? n : 1, sizeof *l->prev);
}
static void l_free(struct pmm_list *l) { free(l->next); free(l->prev); }
static void l_push(struct pmm_list *l, uint32_t i)
{
    l->prev[i] = NIL;
    l->next[i] = l->head;
    if (l->head != NIL) l->prev[l->head] = i;
    l->head = i;
}
static void l_remove(struct pmm_list *l, uint32_t i)
{
    if (l->prev[i] != NIL) l->next[l->prev[i]] = l->next[i];
    else l->head = l->next[i];
    if (l->next[i] != NIL) l->prev[l->next[i]] = l->prev[i];
}
static uint32_t l_pop(struct pmm_list *l)
{
    uint32_t i = l->head;
    if (i != NIL) l_remove(l, i);
    return i;
}

void pmm_init(struct pmm *m, uint64_t frames)
{
    SIM_ASSERT(frames < NIL, "driver", 0, "GPU memory of %llu frames", (unsigned long long)frames);
    m->frames = frames;
    m->n64 = (uint32_t)((frames + PER64 - 1) / PER64);
    m->nroot = (m->n64 + PERROOT - 1) / PERROOT;
    l_init(&m->l4, frames);
    l_init(&m->l64, m->n64);
    l_init(&m->lroot, m->nroot);
    m->used = xcalloc(frames ? frames : 1, 1);
    m->nfree4 = xcalloc(m->n64 ? m->n64 : 1, 1);
    m->whole64 = xcalloc(m->n64 ? m->n64 : 1, 1);
    m->nfree64 = xcalloc(m->nroot ? m->nroot : 1, 1);
    m->wholeroot = xcalloc(m->nroot ? m->nroot : 1, 1);
    m->free_frames = frames;
    m->splits_root = m->splits_64k = 0;
    m->lused = m->lunused = (struct pmm_deque){ NIL, NIL, NULL, NULL };
    m->lused.next = xcalloc(m->nroot ? m->nroot : 1, sizeof *m->lused.next);
    m->lused.prev = xcalloc(m->nroot ? m->nroot : 1, sizeof *m->lused.prev);
    m->lunused.next = xcalloc(m->nroot ? m->nroot : 1, sizeof *m->lunused.next);
    m->lunused.prev = xcalloc(m->nroot ? m->nroot : 1, sizeof *m->lunused.prev);
    m->on_list = xcalloc(m->nroot ? m->nroot : 1, 1);
    m->pins = xcalloc(m->nroot ? m->nroot : 1, sizeof *m->pins);
    m->held = xcalloc(m->nroot ? m->nroot : 1, 1);
    /* Whole roots free; a partial last root starts split into what fits
     * (whole 64 KiB chunks, then single frames), and never merges. */
    for (uint32_t r = m->nroot; r-- > 0;) {
        uint64_t first = (uint64_t)r * PERROOT * PER64;
        if (first + PERROOT * PER64 <= frames) { m->wholeroot[r] = 1; l_push(&m->lroot, r); continue; }
        for (uint32_t c = r * PERROOT; c < m->n64; c++) {
            uint64_t f0 = (uint64_t)c * PER64;
            if (f0 + PER64 <= frames) { m->whole64[c] = 1; m->nfree64[r]++; l_push(&m->l64, c); continue; }
            for (uint64_t f = f0; f < frames; f++) { m->nfree4[c]++; l_push(&m->l4, (uint32_t)f); }
        }
    }
}

void pmm_free_all(struct pmm *m)
{
    l_free(&m->l4); l_free(&m->l64); l_free(&m->lroot);
    free(m->used); free(m->nfree4); free(m->whole64); free(m->nfree64); free(m->wholeroot);
    free(m->lused.next); free(m->lused.prev); free(m->lunused.next); free(m->lunused.prev);
    free(m->on_list); free(m->pins); free(m->held);
}

/* Root r split into its 64 KiB chunks, all free. */
static void split_root(struct pmm *m, uint32_t r)
{
    m->wholeroot[r] = 0;
    m->splits_root++;
    m->nfree64[r] = PERROOT;
    for (uint32_t c = r * PERROOT + PERROOT; c-- > r * PERROOT;) { m->whole64[c] = 1; l_push(&m->l64, c); }
}

/* 64 KiB chunk c (whole and free, off its list) split into free frames. */
static void split_64k(struct pmm *m, uint32_t c)
{
    m->whole64[c] = 0;
    m->nfree64[c / PERROOT]--;
    m->splits_64k++;
    m->nfree4[c] = PER64;
    for (uint32_t f = c * PER64 + PER64; f-- > c * PER64;) l_push(&m->l4, f);
}

static void take_frames(struct pmm *m, uint64_t first, uint64_t n)
{
    for (uint64_t f = first; f < first + n; f++) {
        SIM_ASSERT(!m->used[f], "driver", 0, "frame %llu allocated twice", (unsigned long long)f);
        m->used[f] = 1;
    }
    m->free_frames -= n;
}

bool pmm_alloc(struct pmm *m, enum pmm_size size, uint64_t *pfn)
{
    if (size == PMM_2M) {
        uint32_t r = l_pop(&m->lroot);
        if (r == NIL) return false;
        m->wholeroot[r] = 0;
        *pfn = (uint64_t)r * PERROOT * PER64;
        take_frames(m, *pfn, PERROOT * PER64);
        return true;
    }
    if (size == PMM_4K && m->l4.head != NIL) {
        uint32_t f = l_pop(&m->l4);
        m->nfree4[f / PER64]--;
        *pfn = f;
        take_frames(m, f, 1);
        return true;
    }
    if (m->l64.head == NIL) {
        uint32_t r = l_pop(&m->lroot);
        if (r == NIL) return false;
        split_root(m, r);
    }
    uint32_t c = l_pop(&m->l64);
    if (size == PMM_64K) {
        m->whole64[c] = 0;
        m->nfree64[c / PERROOT]--;
        m->nfree4[c] = 0;
        *pfn = (uint64_t)c * PER64;
        take_frames(m, *pfn, PER64);
        return true;
    }
    split_64k(m, c);
    return pmm_alloc(m, PMM_4K, pfn);
}

void pmm_release(struct pmm *m, uint64_t pfn)
{
    SIM_ASSERT(pfn < m->frames && m->used[pfn], "driver", 0,
               "frame %llu freed but not allocated", (unsigned long long)pfn);
    m->used[pfn] = 0;
    m->free_frames++;
    uint32_t c = (uint32_t)(pfn / PER64);
    bool full64 = (uint64_t)(c + 1) * PER64 <= m->frames;
    if (!full64 || ++m->nfree4[c] < PER64) {
        if (!full64) m->nfree4[c]++;
        l_push(&m->l4, (uint32_t)pfn);
        return;
    }
    /* All 16 frames free: merge into a free 64 KiB chunk. */
    for (uint32_t f = c * PER64; f < c * PER64 + PER64; f++)
        if (f != pfn) l_remove(&m->l4, f);
    m->nfree4[c] = 0;
    m->whole64[c] = 1;
    uint32_t r = c / PERROOT;
    bool fullroot = (uint64_t)(r + 1) * PERROOT * PER64 <= m->frames;
    if (!fullroot || ++m->nfree64[r] < PERROOT) {
        if (!fullroot) m->nfree64[r]++;
        l_push(&m->l64, c);
        return;
    }
    for (uint32_t k = r * PERROOT; k < r * PERROOT + PERROOT; k++)
        if (k != c) { l_remove(&m->l64, k); m->whole64[k] = 0; }
    m->whole64[c] = 0;
    m->nfree64[r] = 0;
    m->wholeroot[r] = 1;
    l_push(&m->lroot, r);
}

/* ---- eviction lists of allocated roots ---- */

static void dq_remove(struct pmm_deque *q, uint32_t r)
{
    if (q->prev[r] != NIL) q->next[q->prev[r]] = q->next[r];
    else q->head = q->next[r];
    if (q->next[r] != NIL) q->prev[q->next[r]] = q->prev[r];
    else q->tail = q->prev[r];
}

static void dq_push_tail(struct pmm_deque *q, uint32_t r)
{
    q->next[r] = NIL;
    q->prev[r] = q->tail;
    if (q->tail != NIL) q->next[q->tail] = r;
    else q->head = r;
    q->tail = r;
}

void pmm_root_list(struct pmm *m, uint32_t r, enum pmm_evict_list which)
{
    SIM_ASSERT(r < m->nroot, "driver", 0, "root chunk %u of %u", r, m->nroot);
    if (m->on_list[r] == PMM_LIST_USED) dq_remove(&m->lused, r);
    if (m->on_list[r] == PMM_LIST_UNUSED) dq_remove(&m->lunused, r);
    m->on_list[r] = (uint8_t)which;
    if (m->held[r]) {             /* off the lists while held */
        m->on_list[r] = PMM_LIST_NONE;
        return;
    }
    if (which == PMM_LIST_USED) dq_push_tail(&m->lused, r);
    if (which == PMM_LIST_UNUSED) dq_push_tail(&m->lunused, r);
}

void pmm_root_pin(struct pmm *m, uint32_t r) { m->pins[r]++; }
void pmm_root_unpin(struct pmm *m, uint32_t r)
{
    SIM_ASSERT(m->pins[r] > 0, "driver", 0, "root chunk %u unpinned more than pinned", r);
    m->pins[r]--;
}

bool pmm_root_victim(const struct pmm *m, uint32_t *r)
{
    const struct pmm_deque *q[2] = { &m->lunused, &m->lused };
    for (int i = 0; i < 2; i++)
        for (uint32_t c = q[i]->head; c != NIL; c = q[i]->next[c])
            if (!m->pins[c]) { *r = c; return true; }
    return false;
}

void pmm_root_hold(struct pmm *m, uint32_t r)
{
    pmm_root_list(m, r, PMM_LIST_NONE);
    m->held[r] = 1;
}

void pmm_root_release(struct pmm *m, uint32_t r, enum pmm_evict_list which)
{
    SIM_ASSERT(m->held[r], "driver", 0, "root chunk %u released but not held", r);
    m->held[r] = 0;
    pmm_root_list(m, r, which);
}

uint32_t pmm_used_drain(struct pmm *m, uint32_t *out)
{
    uint32_t n = 0;
    while (m->lused.head != NIL) {
        uint32_t r = m->lused.head;
        pmm_root_list(m, r, PMM_LIST_NONE);
        out[n++] = r;
    }
    return n;
}

/* Private to sim/gmmu: the page table, a 4-level radix tree over a 48-bit
 * virtual address (9 index bits per level, 4 KiB leaves), the x86-64 /
 * NVIDIA Pascal+ shape.  Nodes are created on first use, so host memory is
 * proportional to the mapped (or faulted) address ranges.  Every node has a
 * physical address in a reserved page-table region of GPU memory: the
 * walker's PTE reads go there. */
#ifndef UVMSIM_GMMU_PAGE_TABLE_H
#define UVMSIM_GMMU_PAGE_TABLE_H

#include "core/base.h"

struct mem_req;

#define PT_LEVELS 4
#define PT_BITS 9
#define PT_FANOUT (1u << PT_BITS)
/* Page-table pages live here in GPU physical memory (above any frame the
 * driver hands out, below PADDR_HOST). */
#define PT_PHYS_BASE (1ULL << 46)

/* PTE states: not present (no flag); resident in GPU memory; mapped remote
 * (host memory, reachable over the link without a fault); read-only (a
 * write raises a protection fault); dirty (written since mapped).
 * PTE_FAULTED, PTE_RECS and PTE_REFERENCED are the GMMU's own
 * bookkeeping, not hardware bits: PTE_FAULTED, a fault entry has been
 * logged for the page since it last became absent (its next entries are
 * not unique faults); PTE_RECS, uTLB fault records are parked on the page;
 * PTE_REFERENCED, a walk has handed the GPU a translation of the page (the
 * OS sharers list of the thesis, Sec. 5.3.1: kept across remaps, never
 * cleared).  The state behind
 * them (the records, the time of the unique fault) lives in the GMMU's
 * fault-page map (fault_pages.h), only for pages that have it, so a PTE
 * is 8 bytes: host memory per simulated page is the leaf tables' 8 B. */
enum { PTE_PRESENT = 1, PTE_REMOTE = 2, PTE_READONLY = 4, PTE_DIRTY = 8, PTE_FAULTED = 16,
       PTE_RECS = 32, PTE_REFERENCED = 64 };

/* Frame numbers up to 2^40 (4 EiB of 4 KiB frames; remote PTEs hold the
 * page's own number, below 2^36 in a 48-bit address space). */
#define PTE_PFN_BITS 40

struct pte {
    uint32_t pfn_lo;          /* first 4 KiB frame of the page, bits 0..31 */
    uint8_t pfn_hi;           /* ... bits 32..39 */
    uint8_t flags;
    uint8_t shift;            /* page size: 12, 16 or 21 (constituent PTEs
                                 of a large page all carry it) */
    uint8_t spare;
};

_Static_assert(sizeof(struct pte) == 8, "a PTE is 8 bytes of host memory");

static inline uint64_t pte_pfn(const struct pte *p)
{ return p->pfn_lo | (uint64_t)p->pfn_hi << 32; }
static inline void pte_set_pfn(struct pte *p, uint64_t pfn)
{
    p->pfn_lo = (uint32_t)pfn;
    p->pfn_hi = (uint8_t)(pfn >> 32);
}

struct pt_node {
    uint64_t paddr;
    struct pt_node **child;   /* levels 4..2 */
    struct pte *pte;          /* level 1 */
};

struct page_table {
    struct pt_node root;      /* level 4 */
    uint64_t next_paddr;
    uint64_t nodes;
};

void pt_init(struct page_table *pt);
void pt_free(struct page_table *pt);
/* The PTE of vpn, created not-present (with its nodes) if absent. */
struct pte *pt_get(struct page_table *pt, uint64_t vpn);
/* The PTE of vpn or NULL (never creates). */
struct pte *pt_find(const struct page_table *pt, uint64_t vpn);
/* Host bytes of the table's nodes (docs/performance.md's accounting). */
size_t pt_bytes(const struct page_table *pt);
/* Index of vpn's entry at level (1..4). */
static inline unsigned pt_index(uint64_t vpn, unsigned level)
{ return (unsigned)(vpn >> (PT_BITS * (level - 1))) & (PT_FANOUT - 1); }
/* The walk of vpn: entry[k] is the physical address of the level-k entry
 * the walker reads (k = 1..4).  Returns the lowest level whose node
 * exists (1: the leaf table exists). */
unsigned pt_walk_path(const struct page_table *pt, uint64_t vpn, uint64_t entry[PT_LEVELS + 1]);

#endif

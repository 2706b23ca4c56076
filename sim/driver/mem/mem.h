/* sim/driver/mem/: the driver's GPU memory (the real driver's
 * uvm_pmm_gpu.c and the bookkeeping beside it): the PMM's root chunks and
 * pieces (pmm.c), sparse page-number maps (page_map.c) and per-page counts
 * (page_counts.c) and the frames whose write-back is on the link (wb.c).
 * The room's one public header. */
#ifndef UVMSIM_DRIVER_MEM_H
#define UVMSIM_DRIVER_MEM_H

#include "core/base.h"

/* Private to sim/driver: the GPU physical memory manager, after the real
 * driver's PMM (kernel-open/nvidia-uvm/uvm_pmm_gpu.c): memory is 2 MiB root
 * chunks, split on demand into 64 KiB chunks and those into 4 KiB pieces;
 * a freed piece merges back with its buddies into a 64 KiB chunk and then a
 * root chunk when all of them are free.  Frames are 4 KiB page numbers;
 * every free list is doubly linked through per-chunk arrays, so
 * allocation, free and merge take O(1) (merging touches the 16 or 32
 * buddies), never a scan of memory.
 * Allocated root chunks can also sit on the driver's eviction lists
 * (uvm_pmm_gpu.c root_chunks.alloc_list): UNUSED (no resident page) before
 * USED, each in the order the roots joined its tail; a root pinned by a
 * copy into it is skipped, as the real driver takes pinned roots off the
 * lists (chunk_update_lists_locked). */
enum pmm_size { PMM_4K, PMM_64K, PMM_2M };

struct pmm_list { uint32_t head; uint32_t *next, *prev; };
/* A root list with a tail, for the eviction order. */
struct pmm_deque { uint32_t head, tail; uint32_t *next, *prev; };
enum pmm_evict_list { PMM_LIST_NONE, PMM_LIST_UNUSED, PMM_LIST_USED };

struct pmm {
    uint64_t frames;                /* capacity in 4 KiB frames */
    uint32_t n64, nroot;
    struct pmm_list l4, l64, lroot; /* free pieces of each size */
    uint8_t *used;                  /* per frame */
    uint8_t *nfree4;                /* per 64 KiB chunk, while split */
    uint8_t *whole64;               /* per 64 KiB chunk: free and unsplit */
    uint8_t *nfree64;               /* per root, while split: unsplit free 64K chunks */
    uint8_t *wholeroot;
    uint64_t free_frames;
    uint64_t splits_root, splits_64k;
    struct pmm_deque lunused, lused;   /* eviction order of allocated roots */
    uint8_t *on_list;                  /* per root: enum pmm_evict_list */
    uint32_t *pins;                    /* per root: copies into it in flight */
    uint8_t *held;                     /* per root: kept off the lists (cyclic pinning) */
};

void pmm_init(struct pmm *m, uint64_t frames);
void pmm_free_all(struct pmm *m);
/* A free piece of `size` (first frame in *pfn), splitting a larger one if
 * needed; false when none is free. */
bool pmm_alloc(struct pmm *m, enum pmm_size size, uint64_t *pfn);
/* One 4 KiB frame back (merging buddies). */
void pmm_release(struct pmm *m, uint64_t pfn);

#define PMM_ROOT_FRAMES 512u
/* Root r to the tail of the USED or UNUSED list (or off both: NONE),
 * as uvm_pmm_gpu_mark_root_chunk_used / _unused. */
void pmm_root_list(struct pmm *m, uint32_t r, enum pmm_evict_list which);
void pmm_root_pin(struct pmm *m, uint32_t r);
void pmm_root_unpin(struct pmm *m, uint32_t r);
/* The root to evict: the first unpinned one of UNUSED, else of USED
 * (pick_root_chunk_to_evict); false when none.  Scans only past pinned
 * roots, which are bounded by the copies in flight. */
bool pmm_root_victim(const struct pmm *m, uint32_t *r);

/* Root r off the eviction lists until released, whatever joins it makes
 * meanwhile (the cyclic-thrashing paper's pinned pages, drv_cyclic.c);
 * released, it joins the tail of `which`. */
void pmm_root_hold(struct pmm *m, uint32_t r);
void pmm_root_release(struct pmm *m, uint32_t r, enum pmm_evict_list which);
/* Empties the USED list into out[] in its order; returns how many. */
uint32_t pmm_used_drain(struct pmm *m, uint32_t *out);

/* Private to sim/driver: a map from virtual page number to a small slot
 * index, O(1) expected for find, insert and erase (linear probing with
 * backward-shift deletion, so no tombstones accumulate).  It is sized for
 * the entries its owner expects (the GPU's frame count for a policy that
 * maps every resident page, fewer for sparse uses) and doubles when half
 * full, so its memory follows what it holds, never the footprint. */
#define PAGE_MAP_NONE UINT32_MAX

struct page_map {
    uint64_t *key;
    uint32_t *val;
    size_t mask, n;
};

void page_map_init(struct page_map *m, size_t max_entries);
void page_map_free(struct page_map *m);
/* Bytes held (docs/performance.md's accounting). */
size_t page_map_bytes(const struct page_map *m);
uint32_t page_map_get(const struct page_map *m, uint64_t vpn);
void page_map_put(struct page_map *m, uint64_t vpn, uint32_t v);
void page_map_erase(struct page_map *m, uint64_t vpn);

/* Private to sim/driver: a small count per virtual page, for histories
 * that span the footprint rather than GPU memory (evictions of a page not
 * yet answered by a fault, for the premature-eviction count; the
 * cyclic-thrashing detector's eviction counts).  One byte per page, in
 * 512-page (2 MiB) leaves allocated on a page's first count, reached
 * through a radix directory over the 2 MiB block number that is itself
 * allocated on first use; counts of 255 and more are kept exactly in an
 * overflow map (rare: a page evicted that often).  So a footprint costs
 * 1 B per page of the 2 MiB blocks that ever had a count, where a hash
 * map of counts cost 24-48 B per counted page. */
#define PC_LEVELS 3           /* directory levels over the 27-bit block number */
#define PC_BITS 9

struct page_counts {
    void **root;              /* PC_LEVELS of 512-pointer nodes, then leaves */
    struct page_map over;     /* counts >= 255 (the leaf holds 255) */
    size_t leaves, nodes;
};

void page_counts_init(struct page_counts *c);
void page_counts_free(struct page_counts *c);
uint32_t page_counts_get(const struct page_counts *c, uint64_t vpn);   /* 0 if never counted */
/* Add one; the new count. */
uint32_t page_counts_inc(struct page_counts *c, uint64_t vpn);
/* Take one from a count that is not 0; the new count. */
uint32_t page_counts_dec(struct page_counts *c, uint64_t vpn);
/* Bytes held (docs/performance.md's accounting). */
size_t page_counts_bytes(const struct page_counts *c);

/* Frames whose evicted page's write-back is still on the link (wb.c): a
 * bit per frame, and per write-back transfer the frames it frees.
 * wb_begin marks the n frames of one D2H write-back busy and returns its
 * id (the transfer's argument); wb_end clears them when it lands. */
struct wb_rec { uint64_t *pfn; uint32_t n, cap, next; };
struct wb_track {
    uint64_t *busy;                 /* bit per frame */
    struct wb_rec *rec;
    uint32_t nrec, free_head;
};
void wb_init(struct wb_track *w, uint64_t frames);
void wb_free(struct wb_track *w);
uint64_t wb_begin(struct wb_track *w, const uint64_t *pfn, unsigned n, sim_time now);
void wb_end(struct wb_track *w, uint64_t id, sim_time now);
static inline bool wb_busy(const struct wb_track *w, uint64_t pfn)
{ return w->busy[pfn / 64] >> (pfn % 64) & 1; }

#endif

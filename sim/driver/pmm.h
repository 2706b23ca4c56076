/* Private to sim/driver: the GPU physical memory manager, after the real
 * driver's PMM (kernel-open/nvidia-uvm/uvm_pmm_gpu.c): memory is 2 MiB root
 * chunks, split on demand into 64 KiB chunks and those into 4 KiB pieces;
 * a freed piece merges back with its buddies into a 64 KiB chunk and then a
 * root chunk when all of them are free.  Frames are 4 KiB page numbers;
 * every free list is doubly linked through per-chunk arrays, so
 * allocation, free and merge take O(1) (merging touches the 16 or 32
 * buddies), never a scan of memory. */
#ifndef UVMSIM_DRIVER_PMM_H
#define UVMSIM_DRIVER_PMM_H

#include "../base.h"

enum pmm_size { PMM_4K, PMM_64K, PMM_2M };

struct pmm_list { uint32_t head; uint32_t *next, *prev; };

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
};

void pmm_init(struct pmm *m, uint64_t frames);
void pmm_free_all(struct pmm *m);
/* A free piece of `size` (first frame in *pfn), splitting a larger one if
 * needed; false when none is free. */
bool pmm_alloc(struct pmm *m, enum pmm_size size, uint64_t *pfn);
/* One 4 KiB frame back (merging buddies). */
void pmm_release(struct pmm *m, uint64_t pfn);

#endif

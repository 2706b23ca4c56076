/* One HDF5 attribute writer for every file uvmsim writes (a run's result,
 * out/results.c; a merged sweep and its tables, sweep/): the same calls in
 * the same order, so the same attribute gives the same bytes whichever
 * writer made it (docs/results.md). */
#ifndef UVMSIM_H5ATTR_H
#define UVMSIM_H5ATTR_H

#include <hdf5.h>

/* Attribute NAME on OBJ of file type FTYPE over dataspace SPACE, written
 * from BUF in memory type MTYPE (BUF NULL: created, nothing written -- an
 * empty array).  -1 when any call fails (FTYPE, SPACE or MTYPE < 0
 * included: a caller's failed type or space falls through to here); the
 * caller names the failure.  Closes only what it opened. */
int h5_attr_write(hid_t obj, const char *name, hid_t ftype, hid_t space,
                  hid_t mtype, const void *buf);
/* The same over a scalar dataspace: one value. */
int h5_attr_scalar(hid_t obj, const char *name, hid_t ftype, hid_t mtype,
                   const void *buf);

#endif

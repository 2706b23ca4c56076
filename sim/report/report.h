/* uvmsim report: one self-contained HTML page (inline SVG, no script, no
 * network) from a run's HDF5 result or from a sweep directory's merged
 * sweep.h5.  The plots are drawn by this C code (svg.c), so a report needs
 * nothing but the simulator binary.  Layout of the page: docs/report.md. */
#ifndef UVMSIM_REPORT_H
#define UVMSIM_REPORT_H

#include <stddef.h>
#include <stdio.h>

/* Options of a sweep's page (docs/report.md): the bars' axis and the
 * value they are normalised to, "AXIS=VALUE" or "none" (NULL: the
 * default); the axis along x (NULL: the default). */
struct report_opts {
    const char *normalize_to, *x;
};

/* IN is a run's RESULT.h5, a merged sweep.h5, or a sweep directory (its
 * DIR/sweep.h5).  The page is written to OUT.tmp.<pid> and renamed, so OUT
 * exists only when whole.  Returns 0, or 2 (user error: missing or foreign
 * file, an option that names no axis or value) / 1 (cannot write) with a one-line message in err. */
int report_write(const char *in, const char *out, const struct report_opts *o,
                 char *err, size_t errlen);

/* The page of an HDF5 file held in memory (IMG, N bytes; HDF5's core
 * driver), written to OUT, named NAME in messages: the fuzz target's
 * entry (tests/fuzz/targets.c).  0, or 2 with err as report_write. */
int report_write_image(const void *img, size_t n, const char *name, const struct report_opts *o,
                       FILE *out, char *err, size_t errlen);

#endif

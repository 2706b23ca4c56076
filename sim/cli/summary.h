/* The short human summary printed at the end of a run. */
#ifndef UVMSIM_SUMMARY_H
#define UVMSIM_SUMMARY_H

#include <stdio.h>

struct stats;
struct run_info;

void print_summary(FILE *out, const struct stats *st, const struct run_info *ri,
                   const char *result_path);

#endif

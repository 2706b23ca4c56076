/* uvmsim profile: the profiling pass of static placement (thesis Ch. IV):
 * run the workload with every page in GPU memory and count, per
 * allocation, the page references of its warp instructions (the
 * profiler's counts, Sec. 4.4.1) and, per 4 KiB page, the accesses that
 * reach memory after the caches (the oracle's first pass, Sec. 4.3.2);
 * write them as a profile file (sim/driver/placement.h) for
 * driver.place.profile. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "config/config.h"
#include "system.h"
#include "driver/driver.h"

static const char usage_profile[] =
    "usage: uvmsim profile CONFIG -o PROFILE [-s KEY=VALUE]... [--seed N]\n"
    "\n"
    "Run CONFIG's workload once with every page in GPU memory (after the -s\n"
    "overrides: driver.placement=local, gpu.memory.capacity=0,\n"
    "gpu.memory.fraction=100%, driver.place.profile empty) and write PROFILE:\n"
    "per allocation its page references before the caches, per 4 KiB page\n"
    "its accesses to memory after them.  A later run reads it with\n"
    "-s driver.place.profile=PROFILE (driver.placement oracle or annotated).\n";

int cmd_profile(int argc, char **argv)
{
    struct opts o = {0};
    parse_opts(argc, argv, &o, usage_profile, true);
    if (!o.out) usage_error(usage_profile, "%s", "missing -o PROFILE");
    static const char *const pass1[] = { "driver.placement=local", "gpu.memory.capacity=0",
                                         "gpu.memory.fraction=100%", "driver.place.profile=" };
    for (size_t i = 0; i < sizeof pass1 / sizeof pass1[0]; i++) {
        if (o.nsets == MAX_SETS) usage_error(usage_profile, "%s", "too many -s options");
        o.sets[o.nsets++] = pass1[i];
    }
    struct config *cfg = load_or_exit(&o);
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", o.out) >= (int)sizeof tmp)
        user_error("-o %s: name too long", o.out);
    FILE *f = fopen(tmp, "w");
    if (!f) user_error("-o %s: cannot write '%s': %s", o.out, tmp, strerror(errno));
    fclose(f);
    remove(tmp);
    struct system *sys = system_build(cfg);
    struct driver_profile *p = system_profile(sys);
    enum run_status st = system_run(sys);
    int rc = EXIT_OK;
    if (st == RUN_INTERRUPTED) {
        fprintf(stderr, "uvmsim: the profiling run was interrupted; no profile written\n");
        rc = EXIT_INTERNAL;
    } else {
        /* A profile of a representative part (the thesis' profiler runs
         * "representative" inputs): what ran until the limit. */
        if (st != RUN_COMPLETED)
            fprintf(stderr, "uvmsim: warning: the profiling run stopped at %s; the profile "
                    "counts what ran until then\n",
                    st == RUN_TIME_LIMIT ? "sim.max_time" : "sim.max_events");
        f = fopen(tmp, "w");
        if (!f) {
            fprintf(stderr, "uvmsim: cannot write '%s': %s\n", tmp, strerror(errno));
            rc = EXIT_INTERNAL;
        } else {
            driver_profile_write(p, f);
            if (fclose(f) != 0 || rename(tmp, o.out) != 0) {
                fprintf(stderr, "uvmsim: cannot write '%s': %s\n", o.out, strerror(errno));
                remove(tmp);
                rc = EXIT_INTERNAL;
            } else if (!o.quiet) {
                printf("profile written to %s\n", o.out);
            }
        }
    }
    driver_profile_free(p);
    system_free(sys);
    config_free(cfg);
    return rc;
}

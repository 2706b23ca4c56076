/* uvmsim report: which page a file gets (a run, or a merged sweep), and
 * writing it whole or not at all. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "report.h"
#include "rpt_int.h"

static int write_page(hid_t fid, const char *in, const struct report_opts *o, FILE *f,
                      char *err, size_t errlen)
{
    /* A merged sweep (docs/results.md, "Sweeps") has /points and /runs. */
    bool sweep = H5Lexists(fid, "points", H5P_DEFAULT) > 0 &&
                 H5Lexists(fid, "runs", H5P_DEFAULT) > 0;
    char title[512];
    if (sweep) {
        snprintf(title, sizeof title, "uvmsim sweep %s", in);
        html_head(f, title);
        if (page_sweep(f, fid, title, o, err, errlen) != 0) return 2;
        html_tail(f);
        return 0;
    }
    if (o && (o->normalize_to || o->x)) {
        snprintf(err, errlen, "%s applies to a sweep's page, and this is a run's result",
                 o->normalize_to ? "--normalize-to" : "--x");
        return 2;
    }
    struct rpt_run r;
    if (rpt_run_read(fid, &r, err, errlen) != 0) return 2;
    snprintf(title, sizeof title, "uvmsim run %s", in);
    html_head(f, title);
    page_run(f, &r, title);
    html_tail(f);
    rpt_run_free(&r);
    return 0;
}

int report_write(const char *in, const char *out, const struct report_opts *o,
                 char *err, size_t errlen)
{
    struct stat st;
    char *path = NULL;
    if (stat(in, &st) != 0) {
        snprintf(err, errlen, "%s: %s", in, strerror(errno));
        return 2;
    }
    if (S_ISDIR(st.st_mode)) {
        size_t n = strlen(in);
        path = xmalloc(n + 16);
        snprintf(path, n + 16, "%s/sweep.h5", in);
        if (access(path, R_OK) != 0) {
            snprintf(err, errlen, "%s: no sweep.h5 in this directory (merge the sweep first)", in);
            free(path);
            return 2;
        }
    } else {
        path = xstrdup(in);
    }
    H5E_auto2_t old_fn;
    void *old_data;
    H5Eget_auto2(H5E_DEFAULT, &old_fn, &old_data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    int rc = 0;
    hid_t fid = H5Fis_hdf5(path) > 0 ? H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT) : -1;
    if (fid < 0) {
        snprintf(err, errlen, "%s: not an HDF5 file", path);
        rc = 2;
    } else {
        size_t n = strlen(out);
        char *tmp = xmalloc(n + 32);
        snprintf(tmp, n + 32, "%s.tmp.%ld", out, (long)getpid());
        FILE *f = fopen(tmp, "w");
        if (!f) {
            snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
            rc = 1;
        } else {
            char why[768] = "";
            rc = write_page(fid, path, o, f, why, sizeof why);
            if (rc) snprintf(err, errlen, "%s: %s", path, why);
            if (fclose(f) != 0 && !rc) {
                snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
                rc = 1;
            }
            if (!rc && rename(tmp, out) != 0) {
                snprintf(err, errlen, "cannot rename '%s' to '%s': %s", tmp, out, strerror(errno));
                rc = 1;
            }
            if (rc) remove(tmp);
        }
        free(tmp);
        H5Fclose(fid);
    }
    H5Eset_auto2(H5E_DEFAULT, old_fn, old_data);
    free(path);
    return rc;
}

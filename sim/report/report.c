/* uvmsim report: which page a file gets (a run, or a merged sweep), and
 * writing it whole or not at all. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "report.h"
#include "out/outfile.h"
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

int report_page(hid_t fid, const char *name, const struct report_opts *o, FILE *f,
                char *err, size_t errlen)
{
    rpt_fail_reset();
    char why[768] = "";
    int rc = write_page(fid, name, o, f, why, sizeof why);
    /* A reader refused the file: the page (written with the refused part
     * left out) is dropped. */
    if (rpt_failure()) snprintf(err, errlen, "%s: not a uvmsim result: %s", name, rpt_failure());
    else if (rc) snprintf(err, errlen, "%s: %s", name, why);
    rc = rpt_failure() ? 2 : rc;
    rpt_fail_reset();
    return rc;
}

int report_write_image(const void *img, size_t n, const char *name, const struct report_opts *o,
                       FILE *out, char *err, size_t errlen)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    /* No backing store: nothing is written; the image is copied. */
    bool ok = fapl >= 0 && n > 0 && H5Pset_fapl_core(fapl, 1 << 16, 0) >= 0 &&
              H5Pset_file_image(fapl, (void *)img, n) >= 0 &&
              H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) >= 0;
    hid_t fid = ok ? H5Fopen(name, H5F_ACC_RDONLY, fapl) : -1;
    if (fapl >= 0) H5Pclose(fapl);
    if (fid < 0) {
        snprintf(err, errlen, "%s: not an HDF5 file", name);
        return 2;
    }
    int rc = report_page(fid, name, o, out, err, errlen);
    H5Fclose(fid);
    return rc;
}

/* The temporary page, removed on every way out: a user error (its
 * cleanup), exit(1) on exhausted memory or an internal error (atexit),
 * SIGINT/SIGTERM (outfile_guard).  As `run` does (outfile.h). */
static char *page_tmp;

static void drop_tmp(void)
{
    if (page_tmp) unlink(page_tmp);
}

static void drop_tmp_cb(void *ctx)
{
    (void)ctx;
    drop_tmp();
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
    /* Our own one line says what is wrong: HDF5's error stack would add
     * dozens (issue 38 R7).  Left off: the report is the last thing the
     * process does. */
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    int rc = 0;
    /* A strong close closes whatever a reader left open, so nothing is
     * left for the library's own shutdown to loop over. */
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0) H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG);
    hid_t fid = H5Fis_hdf5(path) > 0 ? H5Fopen(path, H5F_ACC_RDONLY, fapl) : -1;
    if (fapl >= 0) H5Pclose(fapl);
    if (fid < 0) {
        snprintf(err, errlen, "%s: not an HDF5 file", path);
        rc = 2;
    } else {
        static bool registered;
        if (!registered) atexit(drop_tmp);
        registered = true;
        outfile_remove_stale(out);
        outfile_handle_signals();
        char *tmp = outfile_tmp_name(out);
        page_tmp = tmp;
        outfile_guard(tmp);
        user_error_push_cleanup(drop_tmp_cb, NULL);
        FILE *f = fopen(tmp, "w");
        if (!f) {
            snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
            rc = 1;
        } else {
            rc = report_page(fid, path, o, f, err, errlen);
            if (fclose(f) != 0 && !rc) {
                snprintf(err, errlen, "cannot write '%s': %s", tmp, strerror(errno));
                rc = 1;
            }
            if (!rc && rename(tmp, out) != 0) {
                snprintf(err, errlen, "cannot rename '%s' to '%s': %s", tmp, out, strerror(errno));
                rc = 1;
            }
            if (rc) unlink(tmp);
        }
        user_error_pop_cleanup();
        outfile_guard(NULL);
        page_tmp = NULL;
        free(tmp);
        H5Fclose(fid);
    }
    free(path);
    return rc;
}

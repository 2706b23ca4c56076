/* `uvmsim sweep merge DIR`: DIR/sweep.h5 from the plan and every valid
 * point result.  Each run is copied (not linked: the file stands alone
 * when DIR/points is gone) to /runs/NAME with its axis values as
 * attributes; its /host figures go to /host/NAME so that, as in a run
 * file, everything outside /host is deterministic.  Written to a temporary
 * name and renamed, like a run's result. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "out/results.h"
#include "sweep_int.h"
#include "out/h5attr.h"

/* Names of missing points listed on the terminal; the rest are counted. */
#define SHOW_MISSING 10

static int attr_str(hid_t obj, const char *name, const char *val)
{
    hid_t t = sweep_str_of(strlen(val));
    int rc = h5_attr_scalar(obj, name, t, t, val);
    if (t >= 0) H5Tclose(t);
    return rc;
}

static int attr_u64(hid_t obj, const char *name, uint64_t v)
{
    return h5_attr_scalar(obj, name, H5T_STD_U64LE, H5T_NATIVE_UINT64, &v);
}

static int attr_strings(hid_t obj, const char *name, char **v, size_t n)
{
    hsize_t dims = n;
    size_t len = 0;
    for (size_t i = 0; i < n; i++) if (strlen(v[i]) > len) len = strlen(v[i]);
    char *buf = xcalloc(n ? n : 1, len + 1);        /* fixed-length, as attr_str */
    for (size_t i = 0; i < n; i++) memcpy(buf + i * (len + 1), v[i], strlen(v[i]));
    hid_t t = sweep_str_of(len), sp = H5Screate_simple(1, &dims, NULL);
    int rc = h5_attr_write(obj, name, t, sp, t, n ? buf : NULL);
    free(buf);
    if (sp >= 0) H5Sclose(sp);
    if (t >= 0) H5Tclose(t);
    return rc;
}

static hid_t create_file(const char *path)
{
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE), fapl = H5Pcreate(H5P_FILE_ACCESS);
    hid_t f = -1;
    /* As results.c: no time stamps, the 1.8 format, strong close. */
    if (fcpl >= 0 && fapl >= 0 && H5Pset_obj_track_times(fcpl, 0) >= 0 &&
        H5Pset_link_phase_change(fcpl, RESULTS_MAX_COMPACT_LINKS,
                                 RESULTS_MAX_COMPACT_LINKS - 1) >= 0 &&
        H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18) >= 0 &&
        H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) >= 0)
        f = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
    if (fcpl >= 0) H5Pclose(fcpl);
    if (fapl >= 0) H5Pclose(fapl);
    return f;
}

static hid_t new_group(hid_t loc, const char *name)
{
    hid_t gcpl = sweep_gcpl();
    hid_t g = gcpl < 0 ? -1 : H5Gcreate2(loc, name, H5P_DEFAULT, gcpl,
                                         H5P_DEFAULT);
    if (gcpl >= 0) H5Pclose(gcpl);
    return g;
}

/* /runs/NAME and /host/NAME from the point's result file. */
static int copy_point(const struct sweep_dir *d, const struct sweep_plan *p,
                      size_t i, hid_t runs, hid_t host)
{
    char *rp = sweep_path(d, "points", p->names[i], ".h5");
    hid_t src = sweep_open_ro(rp);
    free(rp);
    hid_t root = src < 0 ? -1 : H5Gopen2(src, "/", H5P_DEFAULT);
    hid_t g = root < 0 ? -1 : new_group(runs, p->names[i]);
    int rc = g < 0 || sweep_copy_attrs(root, g) ? -1 : 0;
    for (size_t a = 0; !rc && a < p->naxes; a++)
        rc = sweep_axis_attr(g, p->keys[a], p->ck[a], p->vals[a][p->vi[i][a]]);
    if (!rc) rc = sweep_copy_members(root, g, "host");
    if (!rc && H5Lexists(root, "host", H5P_DEFAULT) > 0) {
        hid_t sh = H5Gopen2(root, "host", H5P_DEFAULT);
        hid_t dh = sh < 0 ? -1 : new_group(host, p->names[i]);
        rc = dh < 0 || sweep_copy_attrs(sh, dh) ||
             sweep_copy_members(sh, dh, NULL) ? -1 : 0;
        if (dh >= 0) H5Gclose(dh);
        if (sh >= 0) H5Gclose(sh);
    }
    if (g >= 0) H5Gclose(g);
    if (root >= 0) H5Gclose(root);
    if (src >= 0) H5Fclose(src);
    return rc;
}

struct merge {
    const struct sweep_dir *d;
    const struct sweep_plan *p;
    struct sweep_merged *m;
    size_t nm;
    size_t *missing;
    enum sweep_state *mstate;
    int *mcode;
    char **mwhy;                    /* the first SHOW_MISSING: why */
    size_t nmissing;
};

static int write_root(hid_t f, const struct merge *mg, const char *text)
{
    const struct sweep_plan *p = mg->p;
    int rc = attr_str(f, "uvmsim_version", UVMSIM_VERSION);
    rc |= attr_u64(f, "model_revision", UVMSIM_MODEL_REVISION);
    rc |= attr_str(f, "sweep_file", p->sweep_file);
    rc |= attr_str(f, "sweep_yaml", text);
    rc |= attr_u64(f, "points_planned", p->npoints);
    rc |= attr_u64(f, "points_merged", mg->nm);
    rc |= attr_strings(f, "axes", p->keys, p->naxes);
    return rc ? -1 : 0;
}

/* Which points have a valid result, before anything is written. */
static void classify(struct merge *mg)
{
    const struct sweep_plan *p = mg->p;
    for (size_t i = 0; i < p->npoints; i++) {
        int code = -1;
        char why[640];
        enum sweep_state st = sweep_point_state(mg->d, p->names[i], NULL,
                                                p->hash[i], &code, why,
                                                sizeof why);
        if (st == PT_DONE) {
            mg->m[mg->nm++].plan_index = i;
        } else {
            /* A damaged result is named with what is wrong in it. */
            if (mg->nmissing < SHOW_MISSING) mg->mwhy[mg->nmissing] = xstrdup(why);
            mg->missing[mg->nmissing] = i;
            mg->mstate[mg->nmissing] = st;
            mg->mcode[mg->nmissing++] = code;
        }
    }
}

static int write_all(hid_t f, struct merge *mg, const char *text, char *err,
                     size_t errlen)
{
    const struct sweep_plan *p = mg->p;
    classify(mg);
    hid_t runs = new_group(f, "runs"), host = new_group(f, "host");
    int rc = runs < 0 || host < 0 || write_root(f, mg, text) ? -1 : 0;
    if (rc) snprintf(err, errlen, "cannot write the file's root");
    for (size_t k = 0; !rc && k < mg->nm; k++) {
        size_t i = mg->m[k].plan_index;
        if (copy_point(mg->d, p, i, runs, host)) {
            snprintf(err, errlen, "cannot copy the result of point '%s'",
                     p->names[i]);
            rc = -1;
        }
    }
    if (!rc)
        rc = sweep_write_tables(f, p, mg->m, mg->nm, mg->missing, mg->mstate,
                                mg->mcode, mg->nmissing, err, errlen);
    if (runs >= 0) H5Gclose(runs);
    if (host >= 0) H5Gclose(host);
    return rc;
}

static void report(FILE *out, const struct merge *mg, const char *path)
{
    const struct sweep_plan *p = mg->p;
    fprintf(out, "merge: %zu of %zu points -> %s\n", mg->nm, p->npoints, path);
    for (size_t i = 0; i < mg->nmissing && i < SHOW_MISSING; i++) {
        if (mg->mstate[i] == PT_FAILED)
            fprintf(out, "  missing %s (failed, exit %d)\n",
                    p->names[mg->missing[i]], mg->mcode[i]);
        else
            fprintf(out, "  missing %s (%s)\n", p->names[mg->missing[i]],
                    mg->mstate[i] == PT_STALE ? mg->mwhy[i]
                                              : sweep_state_name(mg->mstate[i]));
    }
    if (mg->nmissing > SHOW_MISSING)
        fprintf(out, "  ... and %zu more (see /missing)\n",
                mg->nmissing - SHOW_MISSING);
}

int sweep_merge(const struct sweep_dir *d, FILE *out, char *err, size_t errlen)
{
    struct sweep_plan *p = sweep_plan_read(d, err, errlen);
    if (!p) return SWEEP_MERGE_BAD_PLAN;
    char *yp = sweep_path(d, NULL, "sweep.yaml", NULL);
    char *text = sweep_read_text(yp, NULL);
    free(yp);
    char *path = sweep_path(d, NULL, "sweep.h5", NULL);
    size_t n = strlen(path) + 32;
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
    size_t np = p->npoints ? p->npoints : 1;
    struct merge mg = {
        .d = d, .p = p, .m = xcalloc(np, sizeof *mg.m),
        .missing = xcalloc(np, sizeof *mg.missing),
        .mstate = xcalloc(np, sizeof *mg.mstate),
        .mcode = xcalloc(np, sizeof *mg.mcode),
        .mwhy = xcalloc(SHOW_MISSING, sizeof *mg.mwhy),
    };


    H5E_auto2_t fn;
    void *data;
    H5Eget_auto2(H5E_DEFAULT, &fn, &data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = create_file(tmp);
    int rc = f < 0 ? -1 : 0;
    if (rc) snprintf(err, errlen, "cannot create '%s'", tmp);
    if (!rc) rc = write_all(f, &mg, text ? text : "", err, errlen);
    if (f >= 0 && H5Fclose(f) < 0 && !rc) {
        snprintf(err, errlen, "cannot close '%s'", tmp);
        rc = -1;
    }
    if (!rc && rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot rename '%s' to '%s': %s", tmp, path,
                 strerror(errno));
        rc = -1;
    }
    if (rc) {
        remove(tmp);
        /* The previous merge no longer says what DIR holds: no stale
         * sweep.h5 stays beside a failed merge. */
        if (remove(path) == 0) {
            size_t n = strlen(err);
            snprintf(err + n, errlen - n, " (the previous %s removed)", path);
        }
    }
    H5Eclear2(H5E_DEFAULT);
    H5Eset_auto2(H5E_DEFAULT, fn, data);

    if (!rc) report(out, &mg, path);
    int result = rc ? -1 : mg.nmissing ? SWEEP_EXIT_INCOMPLETE : 0;
    free(mg.m);
    free(mg.missing);
    free(mg.mstate);
    free(mg.mcode);
    for (size_t i = 0; i < SHOW_MISSING; i++) free(mg.mwhy[i]);
    free(mg.mwhy);
    free(tmp);
    free(path);
    free(text);
    sweep_plan_free(p);
    return result;
}

/* Copying a run's groups, datasets and attributes into the merged file.
 *
 * Not H5Ocopy: HDF5 1.10 (Debian 12) crashes in H5Ocopy on attributes in
 * dense storage holding variable-length strings (/config has hundreds).
 * Copying by hand also keeps the output deterministic: members and
 * attributes in name order, no time stamps, the source's layout, chunks
 * and filters. */
#include <stdlib.h>
#include <string.h>
#include "out/results.h"
#include "sweep_int.h"
#include "out/h5attr.h"

hid_t sweep_gcpl(void)
{
    hid_t p = H5Pcreate(H5P_GROUP_CREATE);
    /* Compact links, as results.c writes them (issue 38 R5). */
    if (p >= 0 && (H5Pset_obj_track_times(p, 0) < 0 ||
                   H5Pset_link_phase_change(p, RESULTS_MAX_COMPACT_LINKS,
                                            RESULTS_MAX_COMPACT_LINKS - 1) < 0)) {
        H5Pclose(p);
        return -1;
    }
    return p;
}

hid_t sweep_open_ro(const char *path)
{
    /* A strong close closes whatever a failed copy left open: nothing is
     * left for the library's shutdown ("infinite loop closing library",
     * issue 38 R7). */
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    hid_t f = fapl >= 0 && H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) >= 0
              ? H5Fopen(path, H5F_ACC_RDONLY, fapl) : -1;
    if (fapl >= 0) H5Pclose(fapl);
    return f;
}

hid_t sweep_vlen_str(void)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0 && (H5Tset_size(t, H5T_VARIABLE) < 0 ||
                   H5Tset_cset(t, H5T_CSET_UTF8) < 0)) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* A fixed-length UTF-8 string type that holds S and its NUL (issue 38
 * R5: results and sweep files hold no variable-length strings, whose
 * global-heap reads libhdf5 1.10 does not check). */
hid_t sweep_str_of(size_t len)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    if (t >= 0 && (H5Tset_size(t, len + 1) < 0 ||
                   H5Tset_strpad(t, H5T_STR_NULLTERM) < 0 ||
                   H5Tset_cset(t, H5T_CSET_UTF8) < 0)) {
        H5Tclose(t);
        return -1;
    }
    return t;
}

/* Frees what a read allocated for variable-length members (a no-op for
 * fixed-size types). */
static void reclaim(hid_t t, hid_t space, void *buf)
{
#if H5_VERSION_GE(1, 12, 0)
    H5Treclaim(t, space, H5P_DEFAULT, buf);
#else
    H5Dvlen_reclaim(t, space, H5P_DEFAULT, buf);
#endif
}

/* ---- attributes ---- */

static herr_t copy_attr(hid_t loc, const char *name, const H5A_info_t *info,
                        void *op)
{
    (void)info;
    hid_t dst = *(hid_t *)op;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t t = a < 0 ? -1 : H5Aget_type(a);
    hid_t sp = a < 0 ? -1 : H5Aget_space(a);
    hid_t mt = t < 0 ? -1 : H5Tget_native_type(t, H5T_DIR_DEFAULT);
    hssize_t n = sp < 0 ? -1 : H5Sget_simple_extent_npoints(sp);
    herr_t rc = mt < 0 || n < 0 ? -1 : 0;
    void *buf = rc ? NULL : xcalloc((size_t)(n ? n : 1), H5Tget_size(mt));
    bool read = !rc && H5Aread(a, mt, buf) >= 0;
    if (!read) rc = -1;
    if (rc || h5_attr_write(dst, name, t, sp, mt, buf) < 0) rc = -1;
    if (read) reclaim(mt, sp, buf);
    free(buf);
    if (mt >= 0) H5Tclose(mt);
    if (sp >= 0) H5Sclose(sp);
    if (t >= 0) H5Tclose(t);
    if (a >= 0) H5Aclose(a);
    return rc;
}

int sweep_copy_attrs(hid_t src, hid_t dst)
{
    hsize_t idx = 0;
    return H5Aiterate2(src, H5_INDEX_NAME, H5_ITER_INC, &idx, copy_attr,
                       &dst) < 0 ? -1 : 0;
}

/* ---- datasets and groups ---- */

static int copy_dataset(hid_t src, hid_t dstg, const char *name)
{
    hid_t t = H5Dget_type(src), sp = H5Dget_space(src);
    hid_t dcpl = H5Dget_create_plist(src);
    hid_t mt = t < 0 ? -1 : H5Tget_native_type(t, H5T_DIR_DEFAULT);
    int rc = t < 0 || sp < 0 || dcpl < 0 || mt < 0 ||
             H5Pset_obj_track_times(dcpl, 0) < 0 ? -1 : 0;
    hid_t d = rc ? -1 : H5Dcreate2(dstg, name, t, sp, H5P_DEFAULT, dcpl,
                                   H5P_DEFAULT);
    hssize_t n = sp < 0 ? -1 : H5Sget_simple_extent_npoints(sp);
    if (d < 0 || n < 0) rc = -1;
    if (!rc && n > 0) {
        void *buf = xcalloc((size_t)n, H5Tget_size(mt));
        bool read = H5Dread(src, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0;
        if (!read || H5Dwrite(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
            rc = -1;
        if (read) reclaim(mt, sp, buf);
        free(buf);
    }
    if (!rc) rc = sweep_copy_attrs(src, d);
    if (d >= 0 && H5Dclose(d) < 0) rc = -1;
    if (mt >= 0) H5Tclose(mt);
    if (dcpl >= 0) H5Pclose(dcpl);
    if (sp >= 0) H5Sclose(sp);
    if (t >= 0) H5Tclose(t);
    return rc;
}

struct member_ctx { hid_t dst; const char *skip; };

static herr_t copy_member(hid_t g, const char *name, const H5L_info_t *info,
                          void *op)
{
    (void)info;
    struct member_ctx *c = op;
    if (c->skip && !strcmp(name, c->skip)) return 0;
    hid_t o = H5Oopen(g, name, H5P_DEFAULT);
    if (o < 0) return -1;
    int rc = 0;
    H5I_type_t type = H5Iget_type(o);
    if (type == H5I_GROUP) {
        hid_t gcpl = sweep_gcpl();
        hid_t ng = gcpl < 0 ? -1 : H5Gcreate2(c->dst, name, H5P_DEFAULT, gcpl,
                                              H5P_DEFAULT);
        rc = ng < 0 || sweep_copy_attrs(o, ng) || sweep_copy_members(o, ng, NULL)
             ? -1 : 0;
        if (ng >= 0 && H5Gclose(ng) < 0) rc = -1;
        if (gcpl >= 0) H5Pclose(gcpl);
    } else if (type == H5I_DATASET) {
        rc = copy_dataset(o, c->dst, name);
    }
    /* Committed datatypes: a result has none. */
    H5Oclose(o);
    return rc;
}

int sweep_copy_members(hid_t src, hid_t dst, const char *skip)
{
    struct member_ctx c = {dst, skip};
    hsize_t idx = 0;
    return H5Literate(src, H5_INDEX_NAME, H5_ITER_INC, &idx, copy_member,
                       &c) < 0 ? -1 : 0;
}

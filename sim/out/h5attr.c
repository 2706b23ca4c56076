/* The HDF5 attribute writer (h5attr.h). */
#include "h5attr.h"

int h5_attr_write(hid_t obj, const char *name, hid_t ftype, hid_t space,
                  hid_t mtype, const void *buf)
{
    hid_t a = ftype < 0 || space < 0 || mtype < 0 ? -1
            : H5Acreate2(obj, name, ftype, space, H5P_DEFAULT, H5P_DEFAULT);
    int rc = a < 0 || (buf && H5Awrite(a, mtype, buf) < 0) ? -1 : 0;
    if (a >= 0 && H5Aclose(a) < 0) rc = -1;
    return rc;
}

int h5_attr_scalar(hid_t obj, const char *name, hid_t ftype, hid_t mtype,
                   const void *buf)
{
    hid_t sp = H5Screate(H5S_SCALAR);
    int rc = h5_attr_write(obj, name, ftype, sp, mtype, buf);
    if (sp >= 0 && H5Sclose(sp) < 0) rc = -1;
    return rc;
}

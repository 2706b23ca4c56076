/* Does a point's result read whole?  A file damaged in the middle can keep
 * its /config intact (so its recorded config still matches) while an
 * object the merge copies is unreadable: opening /config alone called it
 * done forever, and every merge failed on it (issue 38, S2).  So a result
 * counts only when every object and attribute the merge copies opens and
 * reads, bounded in size before anything is allocated (a few hundred
 * bytes of file can declare a dataset of terabytes).
 *
 * The reading happens in a child process first: libhdf5 1.10 reads a
 * damaged global heap out of bounds (a variable-length string's length
 * taken from the file; issue 38 R5, found again by the sweepdir fuzz
 * target), so a crash there must make the result unreadable, not end the
 * sweep.  The child also makes the merge's copy, into memory.  Once the
 * child read and copied it whole, the same bytes read safely here. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "sweep_int.h"

void (*sweep_check_child_hook)(void);

struct walk {
    hsize_t bytes;              /* read so far, against SWEEP_MAX_RESULT_BYTES */
    char *why;
    size_t whylen;
};

static void reclaim(hid_t t, hid_t space, void *buf)
{
#if H5_VERSION_GE(1, 12, 0)
    H5Treclaim(t, space, H5P_DEFAULT, buf);
#else
    H5Dvlen_reclaim(t, space, H5P_DEFAULT, buf);
#endif
}

/* N elements of native type MT fit what is left of the budget. */
static bool budget(struct walk *w, hid_t mt, hssize_t n)
{
    size_t sz = mt < 0 ? 0 : H5Tget_size(mt);
    if (n < 0 || !sz || (hsize_t)n > (SWEEP_MAX_RESULT_BYTES - w->bytes) / sz)
        return false;
    w->bytes += (hsize_t)n * sz;
    return true;
}

/* Reads object OBJ's data (DSET) or attribute (else) whole: TYPE and SPACE
 * are its own. */
static bool read_whole(struct walk *w, hid_t obj, bool dset, hid_t type,
                       hid_t space)
{
    hid_t mt = type < 0 ? -1 : H5Tget_native_type(type, H5T_DIR_DEFAULT);
    hssize_t n = space < 0 ? -1 : H5Sget_simple_extent_npoints(space);
    bool ok = budget(w, mt, n);
    if (ok && n > 0) {
        void *buf = xcalloc((size_t)n, H5Tget_size(mt));
        ok = (dset ? H5Dread(obj, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf)
                   : H5Aread(obj, mt, buf)) >= 0;
        if (ok) reclaim(mt, space, buf);
        free(buf);
    }
    if (mt >= 0) H5Tclose(mt);
    return ok;
}

/* libhdf5 reads a chunked dataset a whole chunk at a time: a chunk
 * declared larger than the data still gets its buffer. */
static bool chunk_fits(struct walk *w, hid_t dset, hid_t type)
{
    hid_t dcpl = H5Dget_create_plist(dset);
    bool ok = dcpl >= 0;
    if (ok && H5Pget_layout(dcpl) == H5D_CHUNKED) {
        hsize_t dims[H5S_MAX_RANK];
        int rank = H5Pget_chunk(dcpl, H5S_MAX_RANK, dims);
        hsize_t n = 1;
        ok = rank > 0;
        for (int i = 0; ok && i < rank; i++)
            ok = dims[i] > 0 && n <= SWEEP_MAX_RESULT_BYTES / dims[i] &&
                 (n *= dims[i]) > 0;
        hid_t mt = ok ? H5Tget_native_type(type, H5T_DIR_DEFAULT) : -1;
        ok = ok && budget(w, mt, (hssize_t)n);
        if (mt >= 0) H5Tclose(mt);
    }
    if (dcpl >= 0) H5Pclose(dcpl);
    return ok;
}

static herr_t check_attr(hid_t loc, const char *name, const H5A_info_t *info,
                         void *op)
{
    (void)info;
    hid_t a = H5Aopen(loc, name, H5P_DEFAULT);
    hid_t t = a < 0 ? -1 : H5Aget_type(a);
    hid_t sp = a < 0 ? -1 : H5Aget_space(a);
    bool ok = t >= 0 && sp >= 0 && read_whole(op, a, false, t, sp);
    if (sp >= 0) H5Sclose(sp);
    if (t >= 0) H5Tclose(t);
    if (a >= 0) H5Aclose(a);
    return ok ? 0 : -1;
}

#if H5_VERSION_GE(1, 12, 0)
typedef H5O_info2_t obj_info;
#else
typedef H5O_info_t obj_info;
#endif

static herr_t check_object(hid_t root, const char *name, const obj_info *info,
                           void *op)
{
    (void)info;
    struct walk *w = op;
    hid_t o = H5Oopen(root, name, H5P_DEFAULT);
    bool ok = o >= 0;
    if (ok && H5Iget_type(o) == H5I_DATASET) {
        hid_t t = H5Dget_type(o), sp = H5Dget_space(o);
        ok = t >= 0 && sp >= 0 && chunk_fits(w, o, t) &&
             read_whole(w, o, true, t, sp);
        if (sp >= 0) H5Sclose(sp);
        if (t >= 0) H5Tclose(t);
    }
    hsize_t idx = 0;
    if (ok)
        ok = H5Aiterate2(o, H5_INDEX_NAME, H5_ITER_INC, &idx, check_attr, w) >= 0;
    if (o >= 0) H5Oclose(o);
    if (!ok) {
        snprintf(w->why, w->whylen, "unreadable result (its /%s)",
                 strcmp(name, ".") ? name : "");
        return -1;
    }
    return 0;
}

bool sweep_result_reads(hid_t f, char *why, size_t whylen)
{
    struct walk w = {0, why, whylen};
    snprintf(why, whylen, "unreadable result");
#if H5_VERSION_GE(1, 12, 0)
    herr_t rc = H5Ovisit3(f, H5_INDEX_NAME, H5_ITER_INC, check_object, &w,
                          H5O_INFO_BASIC);
#else
    herr_t rc = H5Ovisit2(f, H5_INDEX_NAME, H5_ITER_INC, check_object, &w,
                          H5O_INFO_BASIC);
#endif
    return rc >= 0;
}

/* The merge's copy of F, into a file in memory: writing converts every
 * value back to the source's types, and a damaged integer type (a
 * precision beyond its size) overruns libhdf5's buffers there, not in
 * the read. */
static bool copies(hid_t f)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    hid_t dst = fapl >= 0 && H5Pset_fapl_core(fapl, 1 << 20, 0) >= 0
              ? H5Fcreate("uvmsim-check-copy", H5F_ACC_TRUNC, H5P_DEFAULT, fapl)
              : -1;
    hid_t sr = H5Gopen2(f, "/", H5P_DEFAULT);
    hid_t dr = dst < 0 ? -1 : H5Gopen2(dst, "/", H5P_DEFAULT);
    bool ok = sr >= 0 && dr >= 0 && !sweep_copy_attrs(sr, dr) &&
              !sweep_copy_members(sr, dr, NULL);
    if (dr >= 0) H5Gclose(dr);
    if (sr >= 0) H5Gclose(sr);
    if (dst >= 0) H5Fclose(dst);
    if (fapl >= 0) H5Pclose(fapl);
    return ok;
}

/* libhdf5 allocates what a variable-length value's length, read from
 * the file, says (gigabytes for a flipped byte) before anything can look
 * at it: the child gets SWEEP_CHECK_HEADROOM of address space beyond what
 * it holds at the start, and an allocation past it fails (proc(5) statm:
 * the first field is the size in pages). */
#define SWEEP_CHECK_HEADROOM ((rlim_t)2 << 30)     /* the largest result and libhdf5's buffers */
/* A result of SWEEP_MAX_RESULT_BYTES reads in seconds. */
#define SWEEP_CHECK_SECONDS 30

static void bound_memory(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    bool ok = f && fscanf(f, "%lu", &pages) == 1;
    if (f) fclose(f);
    long psz = sysconf(_SC_PAGESIZE);
    struct rlimit rl;
    if (!ok || psz <= 0 || getrlimit(RLIMIT_AS, &rl) != 0) return;
    rlim_t want = (rlim_t)pages * (rlim_t)psz + SWEEP_CHECK_HEADROOM;
    if (rl.rlim_cur == RLIM_INFINITY || want < rl.rlim_cur) {
        rl.rlim_cur = want;
        setrlimit(RLIMIT_AS, &rl);
    }
}

/* Out of memory in the child (xmalloc's user error): the result is
 * unreadable, nothing more. */
static void child_user_error(const char *line)
{
    (void)line;
    _exit(1);
}

/* In the child: the verdict in its exit status, why on the pipe FD. */
static void child_check(const char *path, int fd)
{
    user_error_set_handler(child_user_error);
    if (sweep_check_child_hook) sweep_check_child_hook();
    bound_memory();
    /* A damaged file can loop libhdf5 for ever: SIGALRM ends the child
     * (its own action, not an inherited handler's). */
    signal(SIGALRM, SIG_DFL);
    alarm(SWEEP_CHECK_SECONDS);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    char why[512];
    snprintf(why, sizeof why, "unreadable result");
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    bool ok = f >= 0 && sweep_result_reads(f, why, sizeof why);
    if (ok && !(ok = copies(f)))
        snprintf(why, sizeof why, "unreadable result (it does not copy)");
    size_t n = strlen(why), off = 0;
    while (off < n) {
        ssize_t w = write(fd, why + off, n - off);
        if (w <= 0) break;
        off += (size_t)w;
    }
    _exit(ok ? 0 : 1);               /* no atexit: the parent's HDF5 state stays its own */
}

bool sweep_result_reads_isolated(const char *path, char *why, size_t whylen)
{
    int fds[2];
    pid_t pid = pipe(fds) == 0 ? fork() : -1;
    if (pid == 0) {
        close(fds[0]);
        child_check(path, fds[1]);
    }
    if (pid < 0) {
        /* No process to spare: read it here (as before the child). */
        snprintf(why, whylen, "unreadable result");
        hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
        bool ok = f >= 0 && sweep_result_reads(f, why, whylen);
        if (f >= 0) H5Fclose(f);
        return ok;
    }
    close(fds[1]);
    char buf[512];
    size_t n = 0;
    for (ssize_t r; n + 1 < sizeof buf &&
                    ((r = read(fds[0], buf + n, sizeof buf - 1 - n)) > 0 ||
                     (r < 0 && errno == EINTR));)
        if (r > 0) n += (size_t)r;
    buf[n] = '\0';
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok && WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
        snprintf(why, whylen, "unreadable result (libhdf5 still reading it "
                 "after %d s)", SWEEP_CHECK_SECONDS);
    else if (!ok && WIFSIGNALED(status))
        snprintf(why, whylen, "unreadable result (reading it crashed libhdf5: "
                 "signal %d)", WTERMSIG(status));
    else if (!ok && WEXITSTATUS(status) != 1)
        snprintf(why, whylen, "unreadable result (reading it failed in "
                 "libhdf5)");
    else if (!ok)
        snprintf(why, whylen, "%s", n ? buf : "unreadable result");
    return ok;
}

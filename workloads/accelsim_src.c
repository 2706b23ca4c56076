/* Lines of an Accel-Sim trace file, plain or xz-compressed.  The framework
 * writes kernel-N.traceg.xz through `xz -1 -T0` (post-traces-processing.cpp,
 * group_per_block) and reads it back through `xz -dc` (trace_parser.cc,
 * PipeReader::OpenFile); here liblzma decodes in-process, streams
 * concatenated, so no shell runs on a user's file name. */
#include <errno.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include "accelsim.h"

#define AS_INBUF 65536

struct as_src {
    char *path;
    FILE *f;
    bool xz, eof, done;
    lzma_stream z;
    uint8_t in[AS_INBUF];
    uint8_t out[AS_INBUF];
    size_t opos, olen;            /* decoded bytes not yet consumed */
    char *line;
    size_t len, cap;
    unsigned long lineno;
};

struct as_src *as_src_open(const char *path, const char *what)
{
    FILE *f = fopen(path, "rb");
    if (!f) user_error("%s: cannot read '%s': %s", what, path, strerror(errno));
    struct as_src *s = xcalloc(1, sizeof *s);
    s->f = f;
    s->path = xstrdup(path);
    size_t n = strlen(path);
    s->xz = n > 3 && !strcmp(path + n - 3, ".xz");
    if (s->xz) {
        s->z = (lzma_stream)LZMA_STREAM_INIT;
        /* No memory limit of liblzma's own: the host memory bound applies
         * to what we keep, and xz -1 needs about 1 MiB to decode. */
        if (lzma_stream_decoder(&s->z, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
            as_src_close(s);
            user_error("%s: cannot start the xz decoder for '%s'", what, path);
        }
    }
    return s;
}

/* Refills s->out; false at the end of the data. */
static bool fill(struct as_src *s)
{
    if (s->done) return false;
    if (!s->xz) {
        s->olen = fread(s->out, 1, sizeof s->out, s->f);
        s->opos = 0;
        if (s->olen) return true;
        if (ferror(s->f)) user_error("%s: read error", s->path);
        s->done = true;
        return false;
    }
    s->z.next_out = s->out;
    s->z.avail_out = sizeof s->out;
    while (s->z.avail_out == sizeof s->out) {
        lzma_action act = LZMA_RUN;
        if (!s->z.avail_in && !s->eof) {
            s->z.next_in = s->in;
            s->z.avail_in = fread(s->in, 1, sizeof s->in, s->f);
            if (ferror(s->f)) user_error("%s: read error", s->path);
            if (!s->z.avail_in) s->eof = true;
        }
        if (s->eof && !s->z.avail_in) act = LZMA_FINISH;
        lzma_ret r = lzma_code(&s->z, act);
        if (r == LZMA_STREAM_END) { s->done = true; break; }
        if (r != LZMA_OK) {
            const char *why = r == LZMA_FORMAT_ERROR ? "not in the xz format"
                            : r == LZMA_DATA_ERROR ? "corrupt xz data"
                            : r == LZMA_BUF_ERROR ? "truncated xz data"
                            : r == LZMA_MEM_ERROR ? "out of memory decoding xz" : "xz decoder error";
            user_error("%s: %s", s->path, why);
        }
    }
    s->opos = 0;
    s->olen = sizeof s->out - s->z.avail_out;
    return s->olen > 0;
}

const char *as_src_line(struct as_src *s, unsigned long *lineno)
{
    s->len = 0;
    for (;;) {
        if (s->opos == s->olen && !fill(s)) {
            if (!s->len) return NULL;
            user_error("%s:%lu: truncated line (no newline at the end of the file)", s->path,
                       s->lineno + 1);
        }
        const uint8_t *p = s->out + s->opos;
        size_t avail = s->olen - s->opos;
        const uint8_t *nl = memchr(p, '\n', avail);
        size_t take = nl ? (size_t)(nl - p) : avail;
        if (s->len + take + 1 > s->cap) {
            /* Lines are short (a warp's 32 addresses: ~600 bytes); a
             * runaway one is corrupt input, not a reason to grow forever. */
            if (s->len + take + 1 > (1u << 20))
                user_error("%s:%lu: line longer than 1 MiB", s->path, s->lineno + 1);
            s->cap = s->cap ? s->cap : 256;
            while (s->cap < s->len + take + 1) s->cap *= 2;
            s->line = xrealloc(s->line, s->cap);
        }
        memcpy(s->line + s->len, p, take);
        s->len += take;
        s->opos += take + (nl ? 1 : 0);
        if (nl) break;
    }
    if (s->len && s->line[s->len - 1] == '\r') s->len--;
    s->line[s->len] = 0;
    if (strlen(s->line) != s->len) user_error("%s:%lu: NUL byte in a line", s->path, s->lineno + 1);
    *lineno = ++s->lineno;
    return s->line;
}

void as_src_close(struct as_src *s)
{
    if (!s) return;
    if (s->xz) lzma_end(&s->z);
    if (s->f) fclose(s->f);
    free(s->line);
    free(s->path);
    free(s);
}

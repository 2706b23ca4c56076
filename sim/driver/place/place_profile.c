/* Profile files (placement.h): written by `uvmsim profile`, read back by
 * driver.place.profile.  A file from the user's disk is untrusted input:
 * every malformed line is a user error naming FILE:LINE:COL and the key. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "placement.h"
#include "core/mem_req.h"

struct reader {
    const char *path, *key;
    FILE *f;
    char *buf;
    size_t cap;
    unsigned long line;
    struct place_profile *p;
};

static void close_reader(void *ctx)
{
    struct reader *r = ctx;
    if (r->f) fclose(r->f);
    free(r->buf);
    place_profile_free(r->p);
}

#define BAD(r, col, ...) do { \
        char why_[512]; \
        snprintf(why_, sizeof why_, __VA_ARGS__); \
        user_error("%s:%lu:%u: key '%s': %s", (r)->path, (r)->line, (unsigned)(col), (r)->key, why_); \
    } while (0)

/* Allocation names as written: whitespace would split the field. */
static void name_token(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (; in[k] && k + 1 < n; k++) out[k] = (in[k] == ' ' || in[k] == '\t') ? '_' : in[k];
    out[k] = '\0';
    if (!k && n > 1) snprintf(out, n, "-");
}

/* Split the line at blanks; tok[i] and its 1-based column in col[i]. */
static size_t split(char *s, char **tok, unsigned *col, size_t max)
{
    size_t n = 0;
    char *p = s;
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p || *p == '#') break;
        if (n == max) { tok[n] = p; col[n] = (unsigned)(p - s + 1); return max + 1; }
        tok[n] = p;
        col[n] = (unsigned)(p - s + 1);
        n++;
        while (*p && *p != ' ' && *p != '\t') p++;
        if (*p) *p++ = '\0';
    }
    return n;
}

static uint64_t number(struct reader *r, const char *t, unsigned col, const char *what)
{
    if (!*t || strspn(t, "0123456789") != strlen(t))
        BAD(r, col, "expected %s (a whole number), got '%s'", what, t);
    errno = 0;
    unsigned long long v = strtoull(t, NULL, 10);
    if (errno == ERANGE) BAD(r, col, "%s '%s' out of range", what, t);
    return (uint64_t)v;
}

void place_profile_read(const char *path, const char *key, const struct workload *wl,
                        struct place_profile *p)
{
    memset(p, 0, sizeof *p);
    struct reader r = { path, key, NULL, NULL, 0, 0, p };
    uint64_t first[WL_MAX_ALLOCS + 1], npages[WL_MAX_ALLOCS];
    first[0] = 0;
    for (size_t i = 0; i < wl->nallocs; i++) {
        npages[i] = (wl->allocs[i].size + PAGE_SIZE - 1) / PAGE_SIZE;
        first[i + 1] = first[i] + npages[i];
    }
    p->npages = first[wl->nallocs];
    p->page_dram = xcalloc(p->npages ? p->npages : 1, sizeof *p->page_dram);
    r.f = fopen(path, "r");
    if (!r.f) user_error("key '%s': cannot read '%s': %s", key, path, strerror(errno));
    user_error_push_cleanup(close_reader, &r);
    bool header = false;
    ssize_t len;
    while ((len = getline(&r.buf, &r.cap, r.f)) >= 0) {
        r.line++;
        if (len && r.buf[len - 1] == '\n') r.buf[--len] = '\0';
        if ((size_t)len != strlen(r.buf)) BAD(&r, 1, "NUL byte in the line");
        char *tok[6];
        unsigned col[6];
        size_t n = split(r.buf, tok, col, 5);
        if (!n) continue;
        if (!header) {
            if (n != 2 || strcmp(tok[0], "uvmsim-profile") || strcmp(tok[1], "1"))
                BAD(&r, col[0], "not a uvmsim profile (first line must be 'uvmsim-profile 1')");
            header = true;
            continue;
        }
        if (!strcmp(tok[0], "alloc")) {
            if (n != 5) BAD(&r, col[0], "expected 'alloc NAME BYTES REFERENCES DRAM_ACCESSES'");
            size_t i = p->nallocs;
            if (i == wl->nallocs)
                BAD(&r, col[0], "more allocations than the workload's %zu", wl->nallocs);
            char want[64];
            name_token(wl->allocs[i].name, want, sizeof want);
            if (strcmp(tok[1], want))
                BAD(&r, col[1], "allocation %zu is '%s' in this workload, not '%s' "
                    "(a profile of another workload or input)", i, want, tok[1]);
            uint64_t bytes = number(&r, tok[2], col[2], "a size in bytes");
            if (bytes != wl->allocs[i].size)
                BAD(&r, col[2], "allocation '%s' has %llu bytes in this workload, not %llu "
                    "(a profile of another input size)", want,
                    (unsigned long long)wl->allocs[i].size, (unsigned long long)bytes);
            p->refs[i] = number(&r, tok[3], col[3], "a reference count");
            p->dram[i] = number(&r, tok[4], col[4], "an access count");
            p->nallocs++;
        } else if (!strcmp(tok[0], "page")) {
            if (n != 4) BAD(&r, col[0], "expected 'page ALLOC PAGE DRAM_ACCESSES'");
            if (p->nallocs != wl->nallocs)
                BAD(&r, col[0], "page line before all %zu alloc lines", wl->nallocs);
            uint64_t a = number(&r, tok[1], col[1], "an allocation index");
            if (a >= wl->nallocs)
                BAD(&r, col[1], "allocation %llu out of range (the workload has %zu)",
                    (unsigned long long)a, wl->nallocs);
            uint64_t pg = number(&r, tok[2], col[2], "a page index");
            if (pg >= npages[a])
                BAD(&r, col[2], "page %llu out of range (allocation %llu has %llu pages)",
                    (unsigned long long)pg, (unsigned long long)a, (unsigned long long)npages[a]);
            uint64_t c = number(&r, tok[3], col[3], "an access count");
            if (p->page_dram[first[a] + pg])
                BAD(&r, col[2], "page %llu of allocation %llu listed twice",
                    (unsigned long long)pg, (unsigned long long)a);
            p->page_dram[first[a] + pg] = c;
        } else {
            BAD(&r, col[0], "unknown record '%s' (expected alloc or page)", tok[0]);
        }
    }
    if (ferror(r.f)) user_error("key '%s': cannot read '%s': %s", key, path, strerror(errno));
    if (!header) BAD(&r, 1, "empty file: not a uvmsim profile");
    if (p->nallocs != wl->nallocs)
        BAD(&r, 1, "%zu alloc lines for the workload's %zu allocations", p->nallocs, wl->nallocs);
    user_error_pop_cleanup();
    fclose(r.f);
    free(r.buf);
}

void place_profile_free(struct place_profile *p)
{
    free(p->page_dram);
    p->page_dram = NULL;
}

void place_profile_write(FILE *f, const struct workload *wl, const struct place_profile *p)
{
    fprintf(f, "uvmsim-profile 1\n# alloc NAME BYTES REFERENCES DRAM_ACCESSES\n");
    for (size_t i = 0; i < wl->nallocs; i++) {
        char name[64];
        name_token(wl->allocs[i].name, name, sizeof name);
        fprintf(f, "alloc %s %llu %llu %llu\n", name,
                (unsigned long long)wl->allocs[i].size, (unsigned long long)p->refs[i],
                (unsigned long long)p->dram[i]);
    }
    fprintf(f, "# page ALLOC PAGE DRAM_ACCESSES (pages with any)\n");
    uint64_t first = 0;
    for (size_t i = 0; i < wl->nallocs; i++) {
        uint64_t n = (wl->allocs[i].size + PAGE_SIZE - 1) / PAGE_SIZE;
        for (uint64_t k = 0; k < n; k++)
            if (p->page_dram[first + k])
                fprintf(f, "page %zu %llu %llu\n", i, (unsigned long long)k,
                        (unsigned long long)p->page_dram[first + k]);
        first += n;
    }
}

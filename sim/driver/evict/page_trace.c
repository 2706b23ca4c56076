/* Reading page-reference files (replay traces and the reference stream an
 * Ideal run recorded in a first pass).  Format in evict.h. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "evict.h"

/* Parses "PAGE [R|W]"; returns 1 for a reference, 0 for a blank/comment
 * line, -1 when malformed. */
static int parse_line(char *s, uint64_t *page, bool *write)
{
    while (isspace((unsigned char)*s)) s++;
    if (!*s || *s == '#') return 0;
    if (!isdigit((unsigned char)*s)) return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s || v == UINT64_MAX) return -1;
    s = end;
    while (*s == ' ' || *s == '\t') s++;
    *write = false;
    if (*s == 'W' || *s == 'w') { *write = true; s++; }
    else if (*s == 'R' || *s == 'r') s++;
    while (isspace((unsigned char)*s)) s++;
    if (*s && *s != '#') return -1;
    *page = v;
    return 1;
}

int page_trace_read(FILE *in, const char *name, uint64_t **refs, bool **writes,
                    size_t *n, char *err, size_t errlen)
{
    size_t cap = 1024, len = 0;
    uint64_t *r = xmalloc(cap * sizeof *r);
    bool *w = xmalloc(cap * sizeof *w);
    /* Whole lines whatever their length: a fixed buffer would read the
     * rest of a long line as a line of its own. */
    char *line = NULL;
    size_t linecap = 0;
    unsigned long lineno = 0;
    ssize_t got;
    while ((got = getline(&line, &linecap, in)) >= 0) {
        lineno++;
        size_t l = (size_t)got;
        if (l && line[l - 1] == '\n') line[--l] = 0;
        if (strlen(line) != l) {
            snprintf(err, errlen, "%s:%lu: a NUL byte in the line", name, lineno);
            free(line);
            free(r);
            free(w);
            return -1;
        }
        uint64_t page;
        bool write;
        int k = parse_line(line, &page, &write);
        if (k == 0) continue;
        if (k < 0) {
            snprintf(err, errlen, "%s:%lu: expected a page number and optional R or W, got '%.60s'",
                     name, lineno, line);
            free(line);
            free(r);
            free(w);
            return -1;
        }
        if (len == cap) {
            cap *= 2;
            r = xrealloc(r, cap * sizeof *r);
            w = xrealloc(w, cap * sizeof *w);
        }
        r[len] = page;
        w[len++] = write;
    }
    free(line);
    *refs = r;
    if (writes) *writes = w; else free(w);
    *n = len;
    return 0;
}

/* Fatal-error paths and checked allocation. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base.h"
#include "engine.h"

void sim_panic(const char *component, sim_time now, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "uvmsim: internal error in %s at t=%llu ps: ",
            component, (unsigned long long)now);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    struct engine *e = engine_current();
    if (e) {
        fprintf(stderr, "uvmsim: state of every component:\n");
        engine_dump(e, stderr);
    }
    fflush(stderr);
    exit(EXIT_ABORT);
}

void user_error(const char *fmt, ...)
{
    va_list ap;
    fputs("uvmsim: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(EXIT_USER);
}

static void out_of_memory(size_t n)
{
    fprintf(stderr, "uvmsim: out of host memory (%zu bytes)\n", n);
    exit(EXIT_INTERNAL);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) out_of_memory(n);
    return p;
}

void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz ? sz : 1);
    if (!p) out_of_memory(n * sz);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) out_of_memory(n);
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

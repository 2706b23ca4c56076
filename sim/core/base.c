/* Fatal-error paths and checked allocation. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include "base.h"
#include "text.h"

static void (*panic_dump)(void *ctx, FILE *out);
static void *panic_dump_ctx;

void sim_set_panic_dump(void (*dump)(void *ctx, FILE *out), void *ctx)
{
    panic_dump = dump;
    panic_dump_ctx = ctx;
}

void sim_panic(const char *component, sim_time now, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "uvmsim: internal error in %s at t=%llu ps: ",
            component, (unsigned long long)now);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (panic_dump) {
        fprintf(stderr, "uvmsim: state of every component:\n");
        panic_dump(panic_dump_ctx, stderr);
    }
    fflush(stderr);
    exit(EXIT_ABORT);
}

/* ---- user errors ---- */

#define MAX_CLEANUPS 16
static struct { void (*fn)(void *); void *ctx; } cleanups[MAX_CLEANUPS];
static size_t ncleanups;
static user_error_locator locator;
static void *locator_ctx;
static void (*handler)(const char *line);

void user_error_set_locator(user_error_locator fn, void *ctx)
{
    locator = fn;
    locator_ctx = ctx;
}

void user_error_set_handler(void (*fn)(const char *line)) { handler = fn; }

void user_error_push_cleanup(void (*fn)(void *ctx), void *ctx)
{
    if (ncleanups == MAX_CLEANUPS)
        sim_panic("user_error", 0, "more than %d cleanups pushed", MAX_CLEANUPS);
    cleanups[ncleanups].fn = fn;
    cleanups[ncleanups++].ctx = ctx;
}

void user_error_pop_cleanup(void)
{
    if (!ncleanups) sim_panic("user_error", 0, "cleanup stack underflow");
    ncleanups--;
}

void user_error_line(const char *line)
{
    char esc[4096];
    text_escape(esc, sizeof esc, line);
    while (ncleanups) {
        ncleanups--;
        cleanups[ncleanups].fn(cleanups[ncleanups].ctx);
    }
    if (handler) {
        handler(esc);
        abort();                        /* a handler must not return */
    }
    fprintf(stderr, "%s\n", esc);
    exit(EXIT_USER);
}

void user_error(const char *fmt, ...)
{
    char msg[2048], line[3072];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!locator || !locator(locator_ctx, msg, line, sizeof line))
        snprintf(line, sizeof line, "uvmsim: %s", msg);
    user_error_line(line);
}

/* ---- host memory ---- */

static uint64_t mem_limit;

void host_memory_set_limit(uint64_t bytes) { mem_limit = bytes; }

uint64_t host_memory_limit(void)
{
    if (mem_limit) return mem_limit;
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    uint64_t lim = pages > 0 && psz > 0 ? mul_sat((uint64_t)pages, (uint64_t)psz) : UINT64_MAX;
    static const int res[] = { RLIMIT_AS, RLIMIT_DATA };
    for (size_t i = 0; i < 2; i++) {
        struct rlimit rl;
        if (getrlimit(res[i], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
            (uint64_t)rl.rlim_cur < lim)
            lim = (uint64_t)rl.rlim_cur;
    }
    return lim;
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

const char *time_str(char *buf, sim_time t)
{
    snprintf(buf, TIME_STR_MAX, "%llu.%06llu us (%llu ps)", (unsigned long long)(t / PS_PER_US),
             (unsigned long long)(t % PS_PER_US), (unsigned long long)t);
    return buf;
}

/* Policy-only replay: a page-reference trace through an eviction policy,
 * no timing.  For validating policies against references computed by hand
 * and for teaching.  Trace: one reference per line, a page number (decimal
 * or 0x-hex) optionally followed by R or W; blank lines and '#' comments
 * are skipped. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "driver.h"
#include "evict.h"
#include "page_map.h"

static int fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

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

int driver_replay(const struct config *cfg, const char *policy, uint64_t frames,
                  FILE *in, const char *name, struct replay_result *out,
                  char *err, size_t errlen)
{
    const struct evict_ops *ops = evict_find(policy);
    if (!ops) return fail(err, errlen, "--policy: no eviction policy '%s'", policy);
    if (!frames) return fail(err, errlen, "--frames: must be at least 1");
    memset(out, 0, sizeof *out);
    void *p = ops->create(cfg, frames);
    struct page_map resident;            /* value: 1 if dirty */
    page_map_init(&resident, frames);
    char line[256];
    unsigned long lineno = 0;
    int rc = 0;
    while (fgets(line, sizeof line, in)) {
        lineno++;
        uint64_t page;
        bool write;
        size_t len = strlen(line);
        if (len && line[len - 1] == '\n') line[--len] = 0;
        int k = parse_line(line, &page, &write);
        if (k == 0) continue;
        if (k < 0) {
            rc = fail(err, errlen, "%s:%lu: expected a page number and optional R or W, got '%.60s'",
                      name, lineno, line);
            break;
        }
        out->refs++;
        uint32_t d = page_map_get(&resident, page);
        if (d != PAGE_MAP_NONE) {
            if (ops->touch) ops->touch(p, page);
            if (write && !d) page_map_put(&resident, page, 1);
            continue;
        }
        out->faults++;
        if (resident.n == frames) {
            uint64_t victim;
            if (!ops->victim(p, &victim))
                sim_panic("replay", 0, "policy %s found no victim with %llu frames full",
                          policy, (unsigned long long)frames);
            uint32_t vd = page_map_get(&resident, victim);
            SIM_ASSERT(vd != PAGE_MAP_NONE, "replay", 0,
                       "policy %s evicted non-resident page %llu", policy,
                       (unsigned long long)victim);
            out->evictions++;
            out->writebacks += vd;
            page_map_erase(&resident, victim);
        }
        page_map_put(&resident, page, write ? 1 : 0);
        ops->on_resident(p, page);
    }
    page_map_free(&resident);
    ops->destroy(p);
    return rc;
}

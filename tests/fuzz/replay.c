/* Replays fuzz inputs through the same entry points as the harnesses, in
 * the normal build (gcc; under ASan+UBSan in `make check-asan`):
 *   fuzz_replay TARGET FILE...
 * prints "ok - TARGET/FILE (user error|parsed)" per file; a crash or a
 * sanitizer report ends the process (tests/e2e/fuzz_regressions.sh runs one
 * process per file and names the one that failed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "targets.h"

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    *n = len;
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: fuzz_replay TARGET FILE...\n", stderr);
        return 2;
    }
    int bad = 0;
    for (int i = 2; i < argc; i++) {
        size_t n;
        unsigned char *d = slurp(argv[i], &n);
        if (!d) { printf("not ok - %s: cannot read\n", argv[i]); bad++; continue; }
        int rc = fuzz_run(argv[1], d, n);
        free(d);
        if (rc < 0) { printf("not ok - %s: no target '%s'\n", argv[i], argv[1]); bad++; continue; }
        printf("ok - %s/%s (%s)\n", argv[1], strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1
                                                                     : argv[i],
               rc ? "user error" : "parsed");
    }
    return bad ? 1 : 0;
}

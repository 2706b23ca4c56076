/* UTF-8 (RFC 3629, Sec. 3 and 4: the well-formed byte sequences) and the
 * escaping that keeps every message one printable line. */
#include <stdio.h>
#include <string.h>
#include "text.h"

size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    if (!n) return 0;
    unsigned char c = s[0];
    if (c < 0x80) { *cp = c; return 1; }
    size_t len;
    uint32_t v, min;
    if (c >= 0xc2 && c <= 0xdf) { len = 2; v = c & 0x1f; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { len = 3; v = c & 0x0f; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { len = 4; v = c & 0x07; min = 0x10000; }
    else return 0;                       /* continuation byte, C0/C1, F5..FF */
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        v = v << 6 | (s[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
    *cp = v;
    return len;
}

long utf8_invalid_at(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t l = utf8_decode(p + i, n - i, &cp);
        if (!l) return (long)i;
        i += l;
    }
    return -1;
}

bool text_is_unsafe(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
           (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0x200e || cp == 0x200f || cp == 0xfeff;
}

void text_escape(char *out, size_t n, const char *in)
{
    if (!n) return;
    const unsigned char *p = (const unsigned char *)in;
    size_t len = strlen(in), j = 0;
    for (size_t i = 0; i < len;) {
        char tmp[16];
        uint32_t cp;
        size_t l = utf8_decode(p + i, len - i, &cp);
        if (!l) {
            snprintf(tmp, sizeof tmp, "\\x%02x", p[i]);
            l = 1;
        } else if (cp == '\n') {
            strcpy(tmp, "\\n");
        } else if (cp == '\r') {
            strcpy(tmp, "\\r");
        } else if (cp == '\t') {
            strcpy(tmp, "\\t");
        } else if (cp == '\\') {
            strcpy(tmp, "\\\\");
        } else if (text_is_unsafe(cp)) {
            if (cp < 0x80) snprintf(tmp, sizeof tmp, "\\x%02x", (unsigned)cp);
            else snprintf(tmp, sizeof tmp, "\\u%04x", (unsigned)cp);
        } else {
            memcpy(tmp, p + i, l);
            tmp[l] = 0;
        }
        size_t t = strlen(tmp);
        if (j + t + 4 > n) {           /* room for "..." and the NUL */
            if (j + 4 <= n) memcpy(out + j, "...", 4);
            else out[j < n ? j : n - 1] = 0;
            return;
        }
        memcpy(out + j, tmp, t);
        j += t;
        i += l;
    }
    out[j] = 0;
}

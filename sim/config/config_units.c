/* Parsing of typed config values: numbers with units, ranges, enums.
 *
 * Values with units are parsed as exact decimals (mantissa / 10^digits) so
 * that "1.5MiB" or "714ps" become exact integers without floating-point
 * rounding; the double in cfg_value.f is derived from the same decimal. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unit { const char *name; uint64_t mult; };

/* Descending order: the formatter picks the first unit that fits. */
static const struct unit time_units[] = {
    {"s", 1000000000000ULL}, {"ms", 1000000000ULL}, {"us", 1000000ULL},
    {"\xc2\xb5s", 1000000ULL}, {"ns", 1000ULL}, {"ps", 1ULL}, {NULL, 0},
};
static const struct unit freq_units[] = {
    {"GHz", 1000000000ULL}, {"MHz", 1000000ULL}, {"kHz", 1000ULL},
    {"Hz", 1ULL}, {NULL, 0},
};
static const struct unit size_units[] = {
    {"TiB", 1ULL << 40}, {"GiB", 1ULL << 30}, {"MiB", 1ULL << 20},
    {"KiB", 1ULL << 10}, {"TB", 1000000000000ULL}, {"GB", 1000000000ULL},
    {"MB", 1000000ULL}, {"KB", 1000ULL}, {"B", 1ULL}, {NULL, 0},
};

/* 2^64 as a double: TIME and SIZE values must stay below it. */
#define U64_LIMIT 18446744073709551616.0
/* Range bounds at or beyond these mean "no limit" in docs and messages. */
#define BIG_INT 9.0e18
#define BIG_REAL 1.0e300

const char *cfg_type_name(enum cfg_type t)
{
    switch (t) {
    case CFG_INT: return "int";
    case CFG_FLOAT: return "float";
    case CFG_BOOL: return "bool";
    case CFG_STRING: return "string";
    case CFG_ENUM: return "enum";
    case CFG_FREQ: return "frequency";
    case CFG_TIME: return "time";
    case CFG_BW: return "bandwidth";
    case CFG_SIZE: return "size";
    case CFG_FRACTION: return "fraction";
    }
    return "?";
}

const char *cfg_type_unit(enum cfg_type t)
{
    switch (t) {
    case CFG_FREQ: return "Hz, kHz, MHz, GHz";
    case CFG_TIME: return "ps, ns, us, ms, s";
    case CFG_BW:
        return "B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s";
    case CFG_SIZE: return "B, KB, MB, GB, TB, KiB, MiB, GiB, TiB";
    case CFG_FRACTION: return "%";
    default: return "";
    }
}

/* The noun used in "expected a time ...". */
static const char *type_noun(enum cfg_type t)
{
    switch (t) {
    case CFG_INT: return "an integer";
    case CFG_FLOAT: return "a number";
    case CFG_BOOL: return "true or false";
    case CFG_STRING: return "a string";
    case CFG_ENUM: return "one of";
    case CFG_FREQ: return "a frequency";
    case CFG_TIME: return "a time";
    case CFG_BW: return "a bandwidth";
    case CFG_SIZE: return "a size";
    case CFG_FRACTION: return "a fraction";
    }
    return "a value";
}

/* ---- formatting values in base units ---- */

static void fmt_in(double v, const struct unit *u, const char *suffix,
                   char *buf, size_t n)
{
    snprintf(buf, n, "%.15g%s%s", v / (double)u->mult, u->name, suffix);
}

static void fmt_scaled(double v, const struct unit *units, const char *zero,
                       const char *suffix, char *buf, size_t n)
{
    if (v == 0) {
        snprintf(buf, n, "%s%s", zero, suffix);
        return;
    }
    const struct unit *u = units;
    while (u[1].name && fabs(v) < (double)u->mult)
        u++;
    fmt_in(v, u, suffix, buf, n);
}

/* Sizes read best in whichever family writes them shorter: 1572864 is
 * "1.5MiB" (not "1.572864MB"), 1e13 is "10TB" (not "9.09494701772928TiB"). */
static void fmt_size(double v, const char *suffix, char *buf, size_t n)
{
    static const struct unit bin[] = {
        {"TiB", 1ULL << 40}, {"GiB", 1ULL << 30}, {"MiB", 1ULL << 20},
        {"KiB", 1ULL << 10}, {"B", 1ULL}, {NULL, 0},
    };
    static const struct unit dec[] = {
        {"TB", 1000000000000ULL}, {"GB", 1000000000ULL}, {"MB", 1000000ULL},
        {"KB", 1000ULL}, {"B", 1ULL}, {NULL, 0},
    };
    char b[64], d[64];
    fmt_scaled(v, bin, "0B", suffix, b, sizeof b);
    fmt_scaled(v, dec, "0B", suffix, d, sizeof d);
    snprintf(buf, n, "%s", strlen(b) < strlen(d) ? b : d);
}

/* A base-unit value as a user would write it: 1000 ps -> "1ns". */
static void fmt_base(enum cfg_type t, double v, char *buf, size_t n)
{
    switch (t) {
    case CFG_TIME: fmt_scaled(v, time_units, "0s", "", buf, n); break;
    case CFG_FREQ: fmt_scaled(v, freq_units, "0Hz", "", buf, n); break;
    case CFG_SIZE: fmt_size(v, "", buf, n); break;
    case CFG_BW: fmt_size(v, "/s", buf, n); break;
    case CFG_INT: snprintf(buf, n, "%.0f", v); break;
    case CFG_FRACTION: snprintf(buf, n, "%.15g%%", v * 100); break;
    default: snprintf(buf, n, "%.15g", v); break;
    }
}

/* ---- ranges ---- */

/* The bounds a type has by itself, before the key's own range. */
static void natural_bounds(enum cfg_type t, double *lo, double *hi)
{
    switch (t) {
    case CFG_INT: *lo = -BIG_INT; *hi = BIG_INT; break;
    case CFG_TIME: case CFG_SIZE: *lo = 0; *hi = BIG_INT; break;
    case CFG_FREQ: case CFG_BW: *lo = 0; *hi = BIG_REAL; break;
    case CFG_FRACTION: *lo = 0; *hi = 1; break;
    default: *lo = -BIG_REAL; *hi = BIG_REAL; break;
    }
}

static void range_text(enum cfg_type t, double lo, double hi, bool show_lo,
                       bool show_hi, char *buf, size_t n)
{
    char a[64], b[64];
    fmt_base(t, lo, a, sizeof a);
    fmt_base(t, hi, b, sizeof b);
    if (show_lo && show_hi)
        snprintf(buf, n, "[%s, %s]", a, b);
    else if (show_lo)
        snprintf(buf, n, ">= %s", a);
    else if (show_hi)
        snprintf(buf, n, "<= %s", b);
    else if (n)
        buf[0] = '\0';
}

static void choices_text(const char *choices, char *buf, size_t n)
{
    size_t j = 0;
    for (const char *p = choices; *p && j + 3 < n; p++) {
        if (*p == '|') {
            buf[j++] = ',';
            buf[j++] = ' ';
        } else {
            buf[j++] = *p;
        }
    }
    if (n)
        buf[j < n ? j : n - 1] = '\0';
}

void cfg_range_text(const struct cfg_key *k, char *buf, size_t n)
{
    if (k->type == CFG_ENUM) {
        choices_text(cfg_key_choices(k), buf, n);
        return;
    }
    double lo, hi;
    natural_bounds(k->type, &lo, &hi);
    bool has = k->min <= k->max;
    if (k->type == CFG_FRACTION) {
        /* Always shown: "0..1 or %" is not obvious from the type. */
        range_text(k->type, has && k->min > 0 ? k->min : 0,
                   has && k->max < 1 ? k->max : 1, true, true, buf, n);
        return;
    }
    if (!has || k->type == CFG_BOOL || k->type == CFG_STRING) {
        if (n)
            buf[0] = '\0';
        return;
    }
    range_text(k->type, k->min, k->max, k->min > lo, k->max < hi, buf, n);
}

/* Message for a value outside the key's (or the type's) bounds. */
static bool range_fail(const struct cfg_key *k, double lo, double hi,
                       bool low, const char *text, char *msg, size_t n)
{
    double nlo, nhi;
    natural_bounds(k->type, &nlo, &nhi);
    char r[160];
    bool both = k->type == CFG_FRACTION;
    range_text(k->type, lo, hi, both || low || lo > nlo,
               both || !low || hi < nhi, r, sizeof r);
    /* "[a, b]" reads as "in [a, b]"; one-sided ranges as ">= a". */
    snprintf(msg, n, "expected %s %s%s, got '%s'", type_noun(k->type),
             r[0] == '[' ? "in " : "", r, text);
    return false;
}

static bool check_range(const struct cfg_key *k, double f, const char *text,
                        char *msg, size_t n)
{
    double lo, hi;
    natural_bounds(k->type, &lo, &hi);
    if (k->type == CFG_TIME || k->type == CFG_SIZE)
        hi = U64_LIMIT;
    if (k->type == CFG_INT)
        hi = BIG_REAL, lo = -BIG_REAL; /* strtoll already bounded it */
    if (k->min <= k->max) {
        lo = k->min > lo ? k->min : lo;
        hi = k->max < hi ? k->max : hi;
    }
    bool too_big = f > hi || ((k->type == CFG_TIME || k->type == CFG_SIZE)
                              && f >= U64_LIMIT);
    if (f < lo)
        return range_fail(k, lo, hi, true, text, msg, n);
    if (too_big)
        return range_fail(k, lo, hi, false, text, msg, n);
    return true;
}

/* ---- numbers ---- */

/* An unsigned decimal "12", "1.5", ".5": value = mant / 10^frac. */
struct decimal { uint64_t mant; int frac; };

static const char *parse_decimal(const char *s, struct decimal *d)
{
    uint64_t m = 0;
    int frac = 0, digits = 0;
    bool point = false;
    const char *p = s;
    if (*p == '+')
        p++;
    for (;; p++) {
        if (*p == '.' && !point) {
            point = true;
            continue;
        }
        if (!isdigit((unsigned char)*p))
            break;
        if (m > (UINT64_MAX - 9) / 10)
            return NULL; /* more precision than any setting needs */
        m = m * 10 + (uint64_t)(*p - '0');
        digits++;
        if (point)
            frac++;
    }
    if (digits == 0)
        return NULL;
    while (frac > 0 && m % 10 == 0) {
        m /= 10;
        frac--;
    }
    d->mant = m;
    d->frac = frac;
    return p;
}

/* mant * mult / 10^frac as an exact integer; false when it is not whole
 * (or overflows, which the range check has already excluded). */
static bool exact_scale(struct decimal d, uint64_t mult, uint64_t *out)
{
    int twos = d.frac, fives = d.frac;
    uint64_t m = d.mant;
    while (twos > 0 && mult % 2 == 0) { mult /= 2; twos--; }
    while (fives > 0 && mult % 5 == 0) { mult /= 5; fives--; }
    while (twos > 0 && m % 2 == 0) { m /= 2; twos--; }
    while (fives > 0 && m % 5 == 0) { m /= 5; fives--; }
    if (twos || fives)
        return false;
    return !__builtin_mul_overflow(m, mult, out);
}

static double decimal_value(struct decimal d, uint64_t mult)
{
    return (double)d.mant * (double)mult / pow(10.0, d.frac);
}

static const struct unit *find_unit(const struct unit *units, const char *s,
                                    size_t len)
{
    for (const struct unit *u = units; u->name; u++)
        if (strlen(u->name) == len && memcmp(u->name, s, len) == 0)
            return u;
    return NULL;
}

/* Split TEXT into a decimal and a unit of type T; false if either is bad. */
static bool split_unit(enum cfg_type t, const char *text, struct decimal *d,
                       uint64_t *mult)
{
    if ((t == CFG_TIME || t == CFG_SIZE) && strcmp(text, "0") == 0) {
        d->mant = 0;
        d->frac = 0;
        *mult = 1;
        return true;
    }
    const char *p = parse_decimal(text, d);
    if (!p)
        return false;
    while (*p == ' ')
        p++;
    size_t len = strlen(p);
    const struct unit *units = t == CFG_TIME ? time_units
                             : t == CFG_FREQ ? freq_units : size_units;
    if (t == CFG_BW) {
        if (len < 2 || strcmp(p + len - 2, "/s") != 0)
            return false;
        len -= 2;
    }
    const struct unit *u = find_unit(units, p, len);
    if (!u)
        return false;
    *mult = u->mult;
    return true;
}

static bool parse_with_unit(const struct cfg_key *k, const char *text,
                            struct cfg_value *out, char *msg, size_t n)
{
    struct decimal d;
    uint64_t mult;
    if (!split_unit(k->type, text, &d, &mult)) {
        snprintf(msg, n, "expected %s with a unit (%s), got '%s'",
                 type_noun(k->type), cfg_type_unit(k->type), text);
        return false;
    }
    double f = decimal_value(d, mult);
    if (k->type == CFG_FREQ && f <= 0) {
        snprintf(msg, n, "expected a frequency above 0Hz, got '%s'", text);
        return false;
    }
    if (!check_range(k, f, text, msg, n))
        return false;
    out->f = f;
    out->u = 0;
    if (k->type == CFG_TIME || k->type == CFG_SIZE) {
        if (!exact_scale(d, mult, &out->u)) {
            snprintf(msg, n, "expected a whole number of %s, got '%s'",
                     k->type == CFG_TIME ? "picoseconds" : "bytes", text);
            return false;
        }
        out->f = (double)out->u;
    }
    return true;
}

static bool parse_int(const struct cfg_key *k, const char *text,
                      struct cfg_value *out, char *msg, size_t n)
{
    const char *p = text;
    bool neg = *p == '-';
    if (*p == '-' || *p == '+')
        p++;
    bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
    const char *digits = hex ? p + 2 : p;
    bool ok = *digits != '\0';
    for (const char *q = digits; *q && ok; q++)
        ok = hex ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q);
    int64_t v = 0;
    if (ok) {
        errno = 0;
        unsigned long long mag = strtoull(digits, NULL, hex ? 16 : 10);
        ok = errno == 0 && mag <= (neg ? (unsigned long long)INT64_MAX + 1
                                       : (unsigned long long)INT64_MAX);
        v = neg ? (int64_t)(0 - (uint64_t)mag) : (int64_t)mag;
    }
    if (!ok) {
        snprintf(msg, n, "expected an integer, got '%s'", text);
        return false;
    }
    if (!check_range(k, (double)v, text, msg, n))
        return false;
    out->f = (double)v;
    out->u = (uint64_t)v;
    return true;
}

/* strtod over the whole text, finite, no leading blanks. */
static bool parse_real(const char *text, size_t len, double *v)
{
    if (len == 0 || isspace((unsigned char)text[0]) || len >= 64)
        return false;
    char buf[64];
    memcpy(buf, text, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    *v = strtod(buf, &end);
    return *end == '\0' && errno == 0 && isfinite(*v)
        && strpbrk(buf, "xXpP") == NULL; /* no hex floats */
}

static bool parse_float(const struct cfg_key *k, const char *text,
                        struct cfg_value *out, char *msg, size_t n)
{
    double v;
    if (!parse_real(text, strlen(text), &v)) {
        snprintf(msg, n, "expected a number, got '%s'", text);
        return false;
    }
    if (!check_range(k, v, text, msg, n))
        return false;
    out->f = v;
    out->u = 0;
    return true;
}

static bool parse_fraction(const struct cfg_key *k, const char *text,
                           struct cfg_value *out, char *msg, size_t n)
{
    size_t len = strlen(text);
    bool pct = len > 0 && text[len - 1] == '%';
    double v;
    if (!parse_real(text, pct ? len - 1 : len, &v)) {
        snprintf(msg, n, "expected a fraction (0.75 or 75%%), got '%s'", text);
        return false;
    }
    if (pct)
        v /= 100;
    if (!check_range(k, v, text, msg, n))
        return false;
    out->f = v;
    out->u = 0;
    return true;
}

static bool parse_bool(const char *text, struct cfg_value *out, char *msg,
                       size_t n)
{
    /* Only true/false: YAML 1.1's yes/no/on/off are easy to write by
     * accident (a country code "no") and are rejected on purpose. */
    if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
        out->u = text[0] == 't';
        out->f = (double)out->u;
        return true;
    }
    snprintf(msg, n, "expected true or false, got '%s'", text);
    return false;
}

static bool parse_enum(const struct cfg_key *k, const char *text,
                       struct cfg_value *out, char *msg, size_t n)
{
    size_t len = strlen(text);
    const char *c = cfg_key_choices(k);
    for (uint64_t i = 0;; i++) {
        const char *bar = strchr(c, '|');
        size_t clen = bar ? (size_t)(bar - c) : strlen(c);
        if (clen == len && memcmp(c, text, len) == 0) {
            out->u = i; /* index among the choices */
            out->f = 0;
            return true;
        }
        if (!bar)
            break;
        c = bar + 1;
    }
    char r[512];
    choices_text(cfg_key_choices(k), r, sizeof r);
    snprintf(msg, n, "expected one of %s, got '%s'", r, text);
    return false;
}

bool cfg_parse(const struct cfg_key *k, const char *text,
               struct cfg_value *out, char *msg, size_t n)
{
    switch (k->type) {
    case CFG_INT: return parse_int(k, text, out, msg, n);
    case CFG_FLOAT: return parse_float(k, text, out, msg, n);
    case CFG_BOOL: return parse_bool(text, out, msg, n);
    case CFG_STRING: out->f = 0; out->u = 0; return true;
    case CFG_ENUM: return parse_enum(k, text, out, msg, n);
    case CFG_FRACTION: return parse_fraction(k, text, out, msg, n);
    case CFG_FREQ: case CFG_TIME: case CFG_BW: case CFG_SIZE:
        return parse_with_unit(k, text, out, msg, n);
    }
    snprintf(msg, n, "key has an unknown type %d", (int)k->type);
    return false;
}

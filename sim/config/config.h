/* Configuration: typed keys declared in schema tables, loaded from YAML.
 *
 * Every component declares its keys in a `struct cfg_key` table terminated
 * by an entry with path == NULL; sim/config/config_schema.c lists all tables.  Values
 * with units are converted once at load to base units:
 *   CFG_FREQ -> Hz (double)      CFG_TIME -> ps (uint64)
 *   CFG_BW   -> bytes/s (double) CFG_SIZE -> bytes (uint64)
 *   CFG_FRACTION -> 0..1 (double; "75%" or 0.75)
 * Unit spellings (docs/config.md): Hz kHz MHz GHz; ps ns us ms s (and µs);
 * B KB MB GB TB (powers of 1000) KiB MiB GiB TiB (powers of 1024);
 * bandwidth is a size unit followed by "/s".
 */
#ifndef UVMSIM_CONFIG_H
#define UVMSIM_CONFIG_H

#include <stdio.h>
#include "core/base.h"

enum cfg_type {
    CFG_INT,      /* signed 64-bit integer, no unit */
    CFG_FLOAT,    /* double, no unit */
    CFG_BOOL,     /* true/false */
    CFG_STRING,   /* free text (file names) */
    CFG_ENUM,     /* one of cfg_key.choices ("fifo|lru|random") */
    CFG_FREQ,
    CFG_TIME,
    CFG_BW,
    CFG_SIZE,
    CFG_FRACTION,
};

struct cfg_key {
    const char *path;     /* dotted, e.g. "gpu.sms" */
    enum cfg_type type;
    const char *def;      /* default, written as a user would write it */
    double min, max;      /* inclusive range in base units; ignored when min > max */
    const char *choices;  /* CFG_ENUM only: '|'-separated; NULL: from the key's
                           * registry (config_registries) */
    const char *desc;     /* one line */
};

/* One resolved value. */
struct cfg_value {
    const struct cfg_key *key;
    double f;             /* numeric value in base units (all numeric types) */
    uint64_t u;           /* integer value for INT (as int64 bits), TIME, SIZE, BOOL */
    const char *text;     /* the text as written (or the default text) */
    const char *file;     /* where it was set: file name, "-s", or NULL for default */
    int line, col;        /* 1-based; 0 when not from a file */
};

struct cfg_error { char msg[1024]; };

struct config;

/* Load PATH (following `base:` chains) and apply `-s key=value` overrides in
 * order.  PATH may be NULL: defaults plus overrides.  Returns NULL on error
 * with err->msg like "FILE:LINE:COL: key 'gpu.sms': expected integer in
 * [1, 1024], got 'abc'" (for -s: "-s 'gpu.sms=abc': key ..."). */
struct config *config_load(const char *path, const char *const *sets,
                           size_t nsets, struct cfg_error *err);
void config_free(struct config *c);

/* Typed getters: an unknown path or a type mismatch is a programming error
 * and panics.  cfg_u64 serves INT (>= 0), TIME, SIZE; cfg_f64 serves every
 * numeric type; cfg_str serves STRING and ENUM. */
uint64_t cfg_u64(const struct config *c, const char *path);
int64_t cfg_i64(const struct config *c, const char *path);
double cfg_f64(const struct config *c, const char *path);
bool cfg_bool(const struct config *c, const char *path);
const char *cfg_str(const struct config *c, const char *path);
/* A CFG_ENUM key's value as its index among the key's choices (for a
 * registry key: the fixed choices, then the ops table's entries). */
unsigned cfg_choice(const struct config *c, const char *path);
/* Whether a CFG_ENUM key's value is NAME; a NAME that is not among the
 * key's choices is a programming error and panics (a misspelt strcmp
 * would silently be false). */
bool cfg_is(const struct config *c, const char *path, const char *name);
/* Clock period in ps (rounded to nearest) of a CFG_FREQ key. */
sim_time cfg_period(const struct config *c, const char *path);
const struct cfg_value *cfg_get(const struct config *c, const char *path);

/* Visit every key of the schema in schema order with its resolved value. */
void config_foreach(const struct config *c,
                    void (*fn)(void *ctx, const struct cfg_value *v), void *ctx);

/* The fully resolved config as YAML (nested mappings, every key, comments
 * none); loading it back gives the same config.  Caller frees. */
char *config_to_yaml(const struct config *c);
/* Markdown reference of every key (docs/config.md is this output). */
void config_doc(FILE *out);

/* The schema: all tables, NULL-terminated list (sim/config/config_schema.c). */
extern const struct cfg_key *const config_schema_tables[];
/* The run's own keys, sim.* (sim/sim_keys.c). */
extern const struct cfg_key sim_config_keys[];

/* An enum key whose values name implementations takes its choices from
 * their ops table, the only list of names (a new policy is one file and one
 * table line): its key table gives choices NULL, and a registry here names
 * the key, the choices that have no entry (FIXED, '|'-separated, first;
 * e.g. "none"), and NAME(i), entry i's name or NULL past the last.  The
 * choices string is built from them once, when the schema is first read.
 * Terminated by key == NULL; listed in sim/config_schema.c. */
struct cfg_registry {
    const char *key;
    const char *fixed;
    const char *(*name)(size_t i);
};
extern const struct cfg_registry config_registries[];
/* K's choices, '|'-separated: its table's, or built from its registry
 * ("" for a non-enum key). */
const char *cfg_key_choices(const struct cfg_key *k);

/* Cross-key checks run by config_load after every value is set
 * (impossible combinations such as tRC < tRAS + tRP): each returns false
 * with "WHERE: key 'PATH': why" in err.  NULL-terminated list in
 * sim/config/config_schema.c. */
typedef bool (*cfg_check_fn)(const struct config *c, struct cfg_error *err);
extern const cfg_check_fn config_checks[];

/* Where V was set, as messages write it: "FILE:LINE:COL", "-s 'PATH=TEXT'",
 * or "" for a default. */
void cfg_where(const struct cfg_value *v, char *buf, size_t n);

/* An error across keys found after loading (a check such as tRC >= tRAS +
 * tRP, a component refusing a combination).  KEYS (full paths, NULL-
 * terminated, the one to blame by default first) are the keys involved;
 * the message names the first of them the user set (else the first), where
 * it was set, and where every other one came from:
 *   "WHERE: key 'K': MSG (OTHER=TEXT: default; OTHER2=TEXT: FILE:L:C)"
 * (MSG is about KEYS[0]: "K0: MSG" when K is another key)
 * (a default K: "uvmsim: key 'K' (default TEXT): MSG").  Returns false. */
bool cfg_fail_keys(const struct config *c, struct cfg_error *err,
                   const char *const *keys, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The same for a message that names its keys in its text (a component's
 * user_error while the system is built): every key path MSG mentions is a
 * key involved, in order of mention; a leading "key 'K': " is not repeated.
 * False (OUT untouched) when MSG names no key or already starts with a
 * location.  Fits user_error_set_locator (CTX: the config). */
bool cfg_locate_message(void *config, const char *msg, char *out, size_t n);

/* Unit parsing, exposed for tests and for other parsers (sweep files). */
const char *cfg_type_name(enum cfg_type t);
const char *cfg_type_unit(enum cfg_type t);

/* Used inside the config subsystem (YAML loader, docs) and by other parsers
 * that set keys themselves (sweep points).  Messages written to err/msg here
 * carry no location prefix: "key 'PATH': MESSAGE"; the caller prepends
 * "FILE:LINE:COL: " or "-s 'K=V': ". */

/* A config holding every key's default. */
struct config *config_new(void);
/* The dotted key PREFIX.KEY (KEY alone when PREFIX is empty), allocated:
 * how nested YAML mappings name their leaves, in configs and sweep files. */
char *cfg_join_path(const char *prefix, const char *key);
/* Set PATH from TEXT, recording where it was set (FILE may be NULL or "-s";
 * LINE/COL 0 when not from a file).  The config copies every string. */
bool config_set(struct config *c, const char *path, const char *text,
                const char *file, int line, int col, struct cfg_error *err);
/* Parse TEXT as a value of key K (type, unit, range): fills out->f and out->u
 * only.  On failure writes "expected ..., got 'TEXT'" to msg. */
bool cfg_parse(const struct cfg_key *k, const char *text,
               struct cfg_value *out, char *msg, size_t msgsz);
/* K's range in readable units ("[1ns, 1000s]", ">= 1", "<= 10ms") or its
 * choices ("fifo, lru"); "" when it has neither. */
void cfg_range_text(const struct cfg_key *k, char *buf, size_t bufsz);

#endif

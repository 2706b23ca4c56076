/* Writing configs out: `config show` (YAML that loads back to the same
 * config) and `config doc` (the Markdown key reference, docs/config.md). */
#include "config.h"
#include "core/text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- YAML scalars ---- */

/* Plain scalars we write must read back as the same text; anything beyond
 * a conservative ASCII set is double-quoted instead. */
static bool plain_char(unsigned char ch)
{
    return isalnum(ch) || strchr("._/+-%", ch) != NULL;
}

static bool plain_ok(const char *s)
{
    unsigned char c0 = (unsigned char)s[0];
    if (!c0 || c0 == '%' || (c0 == '-' && !s[1]))
        return false;
    for (const char *p = s; *p; p++)
        if (!plain_char((unsigned char)*p))
            return false;
    return true;
}

/* Inside double quotes, a code point is written raw only when libyaml's
 * reader accepts it as printable (YAML 1.1 Sec. 5.1: #x9, #xA, #xD,
 * #x20-#x7E, #x85, #xA0-#xD7FF, #xE000-#xFFFD, #x10000-#x10FFFF), it is no
 * line break (#x85, #x2028, #x2029 fold in quoted scalars) and it is
 * harmless on a terminal (text.h).  The rest is a \x, \u or \U escape of
 * the code point, which libyaml decodes back to the same UTF-8. */
static bool raw_in_quotes(uint32_t cp)
{
    bool printable = (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xd7ff) ||
                     (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
    return printable && !text_is_unsafe(cp);
}

static void put_scalar(FILE *out, const char *s)
{
    if (plain_ok(s)) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    const unsigned char *p = (const unsigned char *)s;
    size_t n = strlen(s);
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t l = utf8_decode(p + i, n - i, &cp);
        /* config_set admits UTF-8 only; a stray byte still becomes text. */
        if (!l) { cp = p[i]; l = 1; }
        if (cp == '"' || cp == '\\')
            fprintf(out, "\\%c", (int)cp);
        else if (raw_in_quotes(cp))
            fwrite(p + i, 1, l, out);
        else if (cp < 0x100)
            fprintf(out, "\\x%02x", (unsigned)cp);
        else if (cp < 0x10000)
            fprintf(out, "\\u%04x", (unsigned)cp);
        else
            fprintf(out, "\\U%08x", (unsigned)cp);
        i += l;
    }
    fputc('"', out);
}

/* ---- the key tree behind `config show` ---- */

/* One path segment; children keep the order of first appearance in the
 * schema so the YAML follows schema order. */
struct tnode {
    char *name;
    const struct cfg_value *v;
    struct tnode *kids;
    size_t nkids;
};

static struct tnode *child(struct tnode *t, const char *name, size_t len)
{
    for (size_t i = 0; i < t->nkids; i++)
        if (strlen(t->kids[i].name) == len &&
            memcmp(t->kids[i].name, name, len) == 0)
            return &t->kids[i];
    t->kids = xrealloc(t->kids, (t->nkids + 1) * sizeof *t->kids);
    struct tnode *k = &t->kids[t->nkids++];
    memset(k, 0, sizeof *k);
    k->name = xmalloc(len + 1);
    memcpy(k->name, name, len);
    k->name[len] = '\0';
    return k;
}

static void tree_add(void *ctx, const struct cfg_value *v)
{
    struct tnode *t = ctx;
    const char *p = v->key->path;
    for (;;) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        t = child(t, p, len);
        if (!dot)
            break;
        p = dot + 1;
    }
    t->v = v;
}

static void tree_free(struct tnode *t)
{
    for (size_t i = 0; i < t->nkids; i++)
        tree_free(&t->kids[i]);
    free(t->kids);
    free(t->name);
}

/* A node that is both a key and a prefix of other keys cannot nest in YAML;
 * its sub-keys are written dotted at its own level instead. */
static void emit(FILE *out, const struct tnode *t, int indent,
                 const char *prefix)
{
    for (size_t i = 0; i < t->nkids; i++) {
        const struct tnode *k = &t->kids[i];
        size_t lp = strlen(prefix), ln = strlen(k->name);
        char *label = xmalloc(lp + ln + 2);
        memcpy(label, prefix, lp);
        memcpy(label + lp, k->name, ln + 1);
        if (k->v) {
            fprintf(out, "%*s", indent, "");
            put_scalar(out, label);
            fputs(": ", out);
            put_scalar(out, k->v->text);
            fputc('\n', out);
        }
        if (k->nkids && k->v) {
            strcat(label, ".");
            emit(out, k, indent, label);
        } else if (k->nkids) {
            fprintf(out, "%*s", indent, "");
            put_scalar(out, label);
            fputs(":\n", out);
            emit(out, k, indent + 2, "");
        }
        free(label);
    }
}

char *config_to_yaml(const struct config *c)
{
    struct tnode root = {0};
    config_foreach(c, tree_add, &root);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (!out)
        sim_panic("config", 0, "open_memstream failed");
    emit(out, &root, 0, "");
    fclose(out);
    tree_free(&root);
    return buf;
}

/* ---- docs/config.md ---- */

/* Markdown table cells: '|' would end the cell, newlines the row. */
static void put_cell(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", out);
        else if (*s == '\n')
            fputc(' ', out);
        else
            fputc(*s, out);
    }
}

static void put_code_cell(FILE *out, const char *s)
{
    if (!s[0])
        return;
    fputc('`', out);
    put_cell(out, s);
    fputc('`', out);
}

static size_t section_len(const char *path)
{
    const char *dot = strchr(path, '.');
    return dot ? (size_t)(dot - path) : strlen(path);
}

static void doc_row(FILE *out, const struct cfg_key *k)
{
    char range[1024];
    cfg_range_text(k, range, sizeof range);
    fputs("| ", out);
    put_code_cell(out, k->path);
    fprintf(out, " | %s | ", cfg_type_name(k->type));
    put_cell(out, cfg_type_unit(k->type));
    fputs(" | ", out);
    put_code_cell(out, k->def ? k->def : "");
    fputs(" | ", out);
    put_cell(out, range);
    fputs(" | ", out);
    put_cell(out, k->desc ? k->desc : "");
    fputs(" |\n", out);
}

/* Was SECTION (the first LEN chars of a path) already written? */
static bool section_before(size_t table, const struct cfg_key *key,
                           const char *sec, size_t len)
{
    for (size_t t = 0; t <= table; t++)
        for (const struct cfg_key *k = config_schema_tables[t];
             k->path && k != key; k++)
            if (section_len(k->path) == len &&
                strncmp(k->path, sec, len) == 0)
                return true;
    return false;
}

static void doc_section(FILE *out, const char *sec, size_t len)
{
    fprintf(out, "\n## %.*s\n\n", (int)len, sec);
    fputs("| key | type | unit | default | range/choices | description |\n",
          out);
    fputs("|---|---|---|---|---|---|\n", out);
    for (size_t t = 0; config_schema_tables[t]; t++)
        for (const struct cfg_key *k = config_schema_tables[t]; k->path; k++)
            if (section_len(k->path) == len && strncmp(k->path, sec, len) == 0)
                doc_row(out, k);
}

static void doc_intro(FILE *out)
{
    fputs("# Configuration reference\n\n"
          "<!-- Generated by `uvmsim config doc` (make docs); do not edit. "
          "-->\n\n"
          "Every key `uvmsim` accepts, with its type, default and range. A "
          "config file\nis YAML; nested mappings and dotted keys are "
          "equivalent (`gpu:` / `sms: 15`\nis `gpu.sms: 15`). A top-level "
          "`base: FILE` loads FILE first (relative to\nthe including file); "
          "`base: [A, B, ...]` loads each in turn, a later one\noverriding "
          "an earlier one; `-s key=value` on the command line overrides all.\n\n"
          "Units are part of the value and required (a plain `0` is allowed "
          "for sizes\nand times):\n\n"
          "- time: ps, ns, us (or µs), ms, s\n"
          "- frequency: Hz, kHz, MHz, GHz\n"
          "- size: B; KB, MB, GB, TB (powers of 1000); KiB, MiB, GiB, TiB "
          "(powers of 1024)\n"
          "- bandwidth: a size unit followed by `/s`, e.g. `16GB/s`\n"
          "- fraction: `0.75` or `75%`\n"
          "- bool: `true` or `false` only\n"
          "- int: decimal or `0x` hexadecimal\n", out);
}

void config_doc(FILE *out)
{
    doc_intro(out);
    for (size_t t = 0; config_schema_tables[t]; t++) {
        for (const struct cfg_key *k = config_schema_tables[t]; k->path; k++) {
            size_t len = section_len(k->path);
            if (!section_before(t, k, k->path, len))
                doc_section(out, k->path, len);
        }
    }
}

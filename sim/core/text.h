/* Text that came from a user (keys, values, file names, trace lines) on
 * its way to a terminal or back into YAML: UTF-8 decoding and escaping. */
#ifndef UVMSIM_TEXT_H
#define UVMSIM_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* Decodes one UTF-8 sequence at S (N bytes available): returns its length
 * (1-4) and the code point, or 0 for an invalid sequence (stray
 * continuation byte, overlong form, surrogate, above U+10FFFF, truncated). */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/* The offset of the first byte of S that is not valid UTF-8, or -1. */
long utf8_invalid_at(const char *s);

/* A code point that must never reach a terminal raw: C0 and C1 controls,
 * DEL, the line and paragraph separators and the bidirectional overrides
 * (which reorder what the user sees). */
bool text_is_unsafe(uint32_t cp);

/* Copies IN to OUT (size N, always terminated; truncated with "..." when it
 * does not fit) with every unsafe code point and every invalid byte
 * escaped: \n \r \t \\ as such, other bytes below 0x80 and invalid bytes as
 * \xNN, unsafe code points above 0x7f as \uNNNN.  The result is one line of
 * printable text. */
void text_escape(char *out, size_t n, const char *in);

#endif

#ifndef UTF8_H
#define UTF8_H

#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"

/*
 * Text decoding as the reference does it (SPEC 4.1): Node's
 * readFileSync(path, "utf8") is the WHATWG UTF-8 decoder, which replaces
 * each maximal invalid subsequence with U+FFFD and keeps a BOM.
 */

/*
 * Append the repaired form of buf to out and return how many bytes were
 * consumed.  Unless final is set, an incomplete sequence at the very end
 * (at most 3 bytes) is left unconsumed: the caller keeps it and passes it
 * again in front of the next chunk.  *nrep, when not NULL, is increased by
 * the number of replacement characters written.
 */
size_t utf8_repair_chunk(struct strbuf *out, const char *buf, size_t len,
			 int final, size_t *nrep);

/*
 * Whole-buffer form of utf8_repair_chunk(); returns the number of
 * replacement characters written.
 */
size_t utf8_repair(struct strbuf *out, const char *buf, size_t len);

/* Length of the longest prefix of buf that is valid UTF-8. */
size_t utf8_valid_prefix(const char *buf, size_t len);

/*
 * Append code point cp (at most 0x10FFFF) as WTF-8.  A low surrogate
 * that follows a high surrogate at the end of sb is merged into one
 * four-byte sequence, as a JavaScript string would hold the pair.
 */
void wtf8_add(struct strbuf *sb, uint32_t cp);

/*
 * Decode one WTF-8 code point at *p (which must be well formed, as the
 * loaders guarantee) and advance *p.
 */
uint32_t wtf8_next(const unsigned char **p);

/*
 * Compare two WTF-8 strings by UTF-16 code units, as JavaScript's default
 * Array.prototype.sort() does.  Returns <0, 0 or >0.
 */
int utf16_cmp(const char *a, size_t alen, const char *b, size_t blen);

/*
 * Length of the (W)UTF-8 sequence that starts with byte lead: 1 to 4.
 * Only lead bytes are meaningful; the loaders guarantee well-formed text.
 */
size_t utf8_seq_length(unsigned char lead);

/* Number of code points in a (W)UTF-8 string: its non-continuation bytes. */
size_t utf8_code_points(const char *s, size_t len);

/* Byte offset of code point number cp (from 0), or len past the end. */
size_t utf8_offset_of(const char *s, size_t len, size_t cp);

/* Number of UTF-16 code units in a WTF-8 string. */
size_t utf16_length(const char *s, size_t len);

#endif

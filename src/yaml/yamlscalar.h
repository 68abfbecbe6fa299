#ifndef YAMLSCALAR_H
#define YAMLSCALAR_H

#include <stddef.h>
#include "strbuf.h"
#include "json/value.h"

/*
 * Resolve one scalar as yaml@2.8.3 does into *v.  `s` (n bytes of WTF-8,
 * NUL-terminated) is the scalar's value; `plain` says it was an untagged
 * plain scalar (the only kind the core schema's patterns apply to); `tag`
 * is its full tag or NULL.  An explicit core tag applies only when its
 * pattern matches, otherwise the value stays a string (yaml warns).
 * Strings and bytes are copied into arena.  Returns 0, or LOAD_EINVALID /
 * LOAD_EUNSUPPORTED with a reason appended to why.
 */
int yl_resolve_scalar(struct value *v, struct arena *arena, const char *s,
			size_t n, int plain, const char *tag, struct strbuf *why);

/*
 * parseInt(digits, 2, 8 or 16) for len digits of bits_per_digit bits
 * each: exact, then rounded to nearest even as V8 does.
 */
double yl_parse_pow2_radix(const char *s, size_t len, int bits_per_digit);

/*
 * Decode the source text of a double-quoted scalar, quotes included, as
 * yaml's doubleQuotedValue() does: line folding, trailing white space,
 * every escape including \u escapes of lone surrogates (kept as WTF-8).
 * Appends the value to out.  Returns 0 or LOAD_EINVALID with a reason
 * appended to why.
 */
int yl_decode_double_quoted(struct strbuf *out, const char *src, size_t len,
			      struct strbuf *why);

/*
 * yaml's foldLines() over a plain scalar's source text, which is also
 * its value.
 */
void yl_fold_lines(struct strbuf *out, const char *src, size_t len);

/* A single-quoted scalar's value from its source text, quotes included. */
void yl_single_quoted_value(struct strbuf *out, const char *src, size_t len);

/*
 * A block scalar's value as yaml's resolveBlockScalar() computes it from
 * the scalar's lines (the text after the header line, as the lexer cut
 * it).  folded is set for '>', chomp is '-', '+' or 0, and trim_indent is
 * the content indentation when the header gave one, -1 to detect it.
 * Returns 0 or LOAD_EINVALID with a reason appended to why.
 */
int yl_block_scalar_value(struct strbuf *out, const char *src, size_t len,
			    int folded, int chomp, int trim_indent,
			    struct strbuf *why);

#endif

#ifndef CANON_H
#define CANON_H

#include "strbuf.h"
#include "value.h"

/*
 * Canonical JSON text of a value tree, in one of two dialects:
 *
 * CANON_AHD is what the reference hashes, JSON.stringify(canonicalizeJson(
 * value)): object keys that are array indices (0 .. 4294967294 in
 * canonical form) first in numeric order, then the rest by UTF-16 code
 * units; a key `__proto__` vanishes; when two keys stringify alike (1 and
 * "1") the later value wins; non-string keys print as JavaScript's
 * String() does; !!binary bytes become {"0":b0,"1":b1,...}.
 *
 * CANON_JCS is RFC 8785: keys sorted by UTF-16 code units only, nothing
 * dropped.  Keys must be strings.
 *
 * Numbers print as ECMAScript Number::toString (non-finite as null),
 * strings as JSON.stringify escapes them.
 */
enum canon_dialect {
	CANON_AHD,
	CANON_JCS,
};

/* Deeper output (through aliases) is refused as unsupported. */
#define CANON_MAX_DEPTH 1000

/*
 * A destination for canonical text: bytes collect in buf and, when a
 * flush function is set, are handed to it in chunks (so a digest can be
 * computed without holding the whole text).
 */
struct canon_out {
	struct strbuf buf;
	void (*flush)(void *data, const char *bytes, size_t len);
	void *data;
};

/*
 * Write the canonical text of v.  Returns 0, or -2 (unsupported: a key
 * that is a collection or binary, output nested deeper than
 * CANON_MAX_DEPTH) with a one-line reason appended to err.  Any remaining
 * bytes stay in out->buf; call canon_flush() to pass them on.
 */
int canon_write(struct canon_out *out, const struct value *v,
		enum canon_dialect dialect, struct strbuf *err);
void canon_flush(struct canon_out *out);

/* Append s (WTF-8) as a JSON string literal, JSON.stringify's escaping. */
void canon_add_string(struct strbuf *sb, const char *s, size_t len);

#endif

#ifndef JSONOUT_H
#define JSONOUT_H

#include "jval.h"
#include "strbuf.h"

/*
 * The one writer for the JSON this tool prints for people and scripts:
 * sidecars, --format=json documents, values quoted in messages.  (The
 * canonical text that is hashed is canon.c's: the hash contract.)  Values
 * are jansson trees; numbers print as JavaScript prints them (1, not
 * jansson's 1.0), strings with JSON.stringify's escapes unless a flag
 * says otherwise.  Nothing else in the tree prints JSON through jansson.
 */

enum jsonout_layout {
	JSONOUT_PRETTY,		/* JSON.stringify(v, null, 2) */
	JSONOUT_COMPACT,	/* {"a":1,"b":[2]} */
	JSONOUT_SPACED,		/* {"a": 1, "b": [2]}, on one line */
};

enum jsonout_flags {
	/*
	 * Object keys that are array indices first, in numeric order, as a
	 * JavaScript object lists them; otherwise jansson's insertion order.
	 */
	JSONOUT_JS_KEY_ORDER = (1 << 0),
	/*
	 * Every control character and DEL as \u00xx, no short escapes: the
	 * form schema values take inside validation messages.
	 */
	JSONOUT_ESCAPE_CONTROLS = (1 << 1),
};

/* Append v in the given layout.  No final newline. */
void jsonout_write(struct strbuf *out, const struct jval *v,
		   enum jsonout_layout layout, unsigned flags);

/*
 * JSON.stringify(v, null, 2): JSONOUT_PRETTY with JavaScript's key order,
 * the form of sidecars and of every --format=json document.
 */
void jsonout_pretty(struct strbuf *out, const struct jval *v);

/*
 * A JSON string of s with invalid UTF-8 bytes as U+FFFD, as Node decodes
 * its command line, environment and file names.  Dies when memory runs
 * out, as jansson's constructors fail only then.
 */
struct jval *jsonout_text(const char *s);

/* Add v (stolen) to obj; dies when memory runs out (or v is NULL). */
void jsonout_set(struct jval *obj, const char *key, struct jval *v);

/* Write jsonout_pretty(v) and a newline to stdout. */
void jsonout_print(const struct jval *v);

#endif

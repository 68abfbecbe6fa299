#ifndef YAMLLOAD_H
#define YAMLLOAD_H

#include <stddef.h>
#include "strbuf.h"
#include "json/value.h"

/*
 * Load YAML into the value the reference builds with yaml@2.8.3's
 * `parse(text)` under default options: YAML 1.2 core schema, unique keys,
 * a single document, at most 100 alias expansions weighted as that
 * library weighs them.
 *
 * libyaml does the scanning and parsing; this module resolves scalars as
 * the core schema does, decodes double-quoted scalars itself (libyaml
 * refuses escapes of lone surrogates, which JavaScript strings allow), and
 * checks what libyaml does not: duplicate keys, several documents, alias
 * limits, implicit key length in UTF-16 units.  Constructs whose result we
 * cannot reproduce exactly are refused as unsupported.
 */

/* Collections nested deeper than this are refused. */
#define YL_MAX_DEPTH 512

enum {
	LOAD_EINVALID = -1,	/* the reference throws on this input too */
	LOAD_EUNSUPPORTED = -2,	/* we cannot reproduce the reference */
};

/*
 * Parse `len` bytes of valid UTF-8 at `text`.  On success stores the root
 * (allocated in `arena`, owned by it) in *out and returns 0.  Otherwise
 * returns LOAD_EINVALID or LOAD_EUNSUPPORTED with a one-line reason
 * appended to err.
 */
int yl_load(struct value **out, struct arena *arena, const char *text,
	      size_t len, struct strbuf *err);

/*
 * Where each node of a loaded tree starts: the byte offset in the text,
 * for messages that point at a node (a configuration file's keys).
 */
struct yl_mark {
	const struct value *node;
	size_t at;
};
struct yl_marks {
	struct yl_mark *items;
	size_t nr, alloc;
};
#define YL_MARKS_INIT { NULL, 0, 0 }

/* yl_load(), noting in marks where every node starts. */
int yl_load_marked(struct value **out, struct arena *arena, const char *text,
		   size_t len, struct yl_marks *marks, struct strbuf *err);

#endif

#ifndef JSONLOAD_H
#define JSONLOAD_H

#include "jval.h"
#include <stddef.h>
#include "strbuf.h"
#include "value.h"

/*
 * Load I-JSON (RFC 7493) for RFC 8785 canonicalization: any JSON value at
 * the top, numbers as doubles (JSON.parse's view), unique object keys,
 * no lone surrogates.  On success stores the root, allocated in arena, in
 * *out and returns 0; otherwise returns -1 and appends "invalid JSON: ..."
 * to err.
 */
int jsonload_ijson(struct value **out, struct arena *arena,
		    const char *text, size_t len, struct strbuf *err);

/*
 * jsonload_ijson() with JSON.parse's reading of a repeated key: the
 * last value wins (a sidecar's RFC 8785 form for signing, as verify and
 * validate read it).
 */
int jsonload_parse(struct value **out, struct arena *arena,
		    const char *text, size_t len, struct strbuf *err);

/*
 * Append "invalid JSON: <jansson's message> (line L, column C)", the
 * message on one line; of the input jansson quotes near the error, at
 * most a short excerpt, escaped (quote.h).  A number beyond the range
 * of a double (1e400, Infinity to JSON.parse) is "unsupported: ...".
 */
void jsonload_describe_error(struct strbuf *err, const struct jval_error *jerr);

#endif

#ifndef JSONSCHEMA_H
#define JSONSCHEMA_H

#include "jval.h"
#include "strbuf.h"

/*
 * A JSON Schema validator for the subset of keywords that
 * schema/replay.schema.json uses, and nothing more:
 *
 *   type (a name or an array of names), const, enum, minLength (Unicode
 *   code points), pattern, required, properties, additionalProperties
 *   (boolean or schema), anyOf, items (one schema for every element),
 *   minimum with draft-04's boolean exclusiveMinimum or draft-06's
 *   numeric exclusiveMinimum, and format "date-time" (RFC 3339 section
 *   5.6, strictly).  A schema may also be true or false (draft-06).
 *
 * Annotations ($schema, $id, id, $comment, title, description, default,
 * examples) are ignored.  Every other keyword, and every keyword used
 * with an argument of the wrong shape, is refused when the schema is
 * compiled: a constraint is never skipped silently.
 *
 * "integer" means a number without a fractional part, so 1.0 is an
 * integer (documents loaded with JSON_DECODE_INT_AS_REAL, as JSON.parse
 * reads them, cannot tell 1 from 1.0 anyway).  Numbers compare by value
 * in const and enum whether jansson holds them as integers or reals.
 *
 * Patterns are ECMA-262 regular expressions, translated by ecmaregex.c
 * where the translation is exact (see ecmaregex.h).
 */

struct jsonschema;

/*
 * One violation: path is the JSON Pointer (RFC 6901) of the value at
 * fault, "" for the document itself; message says what is wrong with it
 * ("must be > 0", "must have required property 'hash'"); keyword names
 * the schema keyword that failed ("minimum", "required"), a static
 * string.  path and message are owned by the list.
 */
struct jsonschema_error {
	char *path;
	char *message;
	const char *keyword;
};

/* The violations found by jsonschema_validate(), in document order. */
struct jsonschema_errors {
	struct jsonschema_error *v;
	size_t nr, alloc;
};
#define JSONSCHEMA_ERRORS_INIT { NULL, 0, 0 }

/* Free the paths and messages; the list is empty and reusable after. */
void jsonschema_errors_release(struct jsonschema_errors *errs);

/*
 * Check that schema uses only the supported keywords, each with a
 * well-formed argument, and compile its patterns.  On success stores a
 * new compiled schema in *out (free it with jsonschema_free()), which
 * holds its own reference to schema; the caller must not modify schema
 * afterwards.  On failure returns -1 and appends a one-line reason
 * naming the place in the schema ("/properties/x: unsupported keyword
 * 'oneOf'") to err.
 */
int jsonschema_compile(struct jsonschema **out, struct jval *schema,
		       struct strbuf *err);

/*
 * Read the schema document at path (a JSON file) and compile it.  Returns
 * 0, or -1 with "cannot open ...", "invalid JSON: ..." or a compile error
 * appended to err.
 */
int jsonschema_load(struct jsonschema **out, const char *path,
		    struct strbuf *err);

/* Release a compiled schema; NULL is fine. */
void jsonschema_free(struct jsonschema *schema);

/*
 * Validate doc against schema, appending every violation to out (which
 * the caller owns and releases).  Returns 0 when doc is valid, 1 when it
 * is not.
 */
int jsonschema_validate(struct jsonschema_errors *out,
			const struct jsonschema *schema, const struct jval *doc);

/*
 * Whether s (len bytes) is an RFC 3339 date-time (section 5.6, with the
 * lower-case "t" and "z" that its note allows): a real calendar date, a
 * leap second only at 23:59:60 UTC, offsets up to 23:59.
 */
int jsonschema_is_date_time(const char *s, size_t len);

/*
 * The replay sidecar's schema, as the binary finds it: $AHD_REPLAY_SCHEMA
 * when set; else schema/replay.schema.json beside the running binary (an
 * uninstalled, in-tree build); else the installed copy in AHD_DATADIR;
 * else, when built with AHD_SRCDIR defined, the source tree's.  Appends
 * the path to out and returns 0, or returns -1 with a reason in err.
 */
int jsonschema_find_replay(struct strbuf *out, struct strbuf *err);

#endif

#ifndef JVAL_H
#define JVAL_H

#include <stddef.h>
#include <stdint.h>
#include "strbuf.h"

/*
 * JSON documents as the rest of the tree builds and reads them: the one
 * door to jansson.  Only src/json/ includes <jansson.h>; everything else
 * holds a `struct jval *`, which is a jansson value behind this header,
 * so that the library can change without touching the commands.
 *
 * Ownership follows jansson's rules, so that the names say what they do:
 * a constructor returns a new reference (NULL only when memory runs
 * out); jval_object_set_new() and jval_array_append_new() steal the
 * reference to the value they are given, jval_object_set() takes one of
 * its own; a getter returns a borrowed reference, valid while its parent
 * lives; jval_decref() releases a reference and accepts NULL.
 */

struct jval;

enum jval_type {
	JVAL_OBJECT,
	JVAL_ARRAY,
	JVAL_STRING,
	JVAL_INTEGER,
	JVAL_REAL,
	JVAL_TRUE,
	JVAL_FALSE,
	JVAL_NULL,
};

/* Constructors. */
struct jval *jval_object(void);
struct jval *jval_array(void);
/* A string from UTF-8 text; NULL when s is NULL or not valid UTF-8. */
struct jval *jval_string(const char *s);
struct jval *jval_stringn(const char *s, size_t len);
struct jval *jval_integer(int64_t v);
struct jval *jval_real(double v);
struct jval *jval_boolean(int v);
struct jval *jval_true(void);
struct jval *jval_null(void);

struct jval *jval_incref(struct jval *v);
void jval_decref(struct jval *v);
/* A copy that shares nothing with v. */
struct jval *jval_deep_copy(const struct jval *v);
/* Equal as JSON values (objects regardless of key order). */
int jval_equal(const struct jval *a, const struct jval *b);

/* Types. */
enum jval_type jval_typeof(const struct jval *v);
int jval_is_object(const struct jval *v);
int jval_is_array(const struct jval *v);
int jval_is_string(const struct jval *v);
int jval_is_number(const struct jval *v);
int jval_is_integer(const struct jval *v);
int jval_is_real(const struct jval *v);
int jval_is_boolean(const struct jval *v);
int jval_is_true(const struct jval *v);
int jval_is_false(const struct jval *v);
int jval_is_null(const struct jval *v);

/* Scalars: NULL, 0 or 0.0 when v is not of that type. */
const char *jval_string_value(const struct jval *v);
size_t jval_string_length(const struct jval *v);
int64_t jval_integer_value(const struct jval *v);
double jval_real_value(const struct jval *v);
/* An integer or a real, as a double. */
double jval_number_value(const struct jval *v);

/* Objects: keys are UTF-8; insertion order is kept. */
struct jval *jval_object_get(const struct jval *obj, const char *key);
int jval_object_set_new(struct jval *obj, const char *key, struct jval *v);
int jval_object_set(struct jval *obj, const char *key, struct jval *v);
size_t jval_object_size(const struct jval *obj);

/*
 * Walking an object's members in order: jval_object_first(), then
 * jval_object_next() until NULL; jval_object_key()/jval_object_value()
 * read the member an iterator points at.  jval_object_foreach() wraps it.
 */
void *jval_object_first(struct jval *obj);
void *jval_object_next(struct jval *obj, void *iter);
const char *jval_object_key(void *iter);
struct jval *jval_object_value(void *iter);

#define jval_object_foreach(obj, key, value) \
	for (void *jval_it_ = jval_object_first(obj); \
	     jval_it_ && ((key) = jval_object_key(jval_it_)) && \
	     ((value) = jval_object_value(jval_it_)); \
	     jval_it_ = jval_object_next((obj), jval_it_))

/*
 * obj's member key when it is of type want (JVAL_TRUE and JVAL_FALSE
 * both stand for a boolean): 0 with it in *out, borrowed; otherwise -1
 * and jansson's words for why appended to why ("Object item not found:
 * version", "Expected integer, got string", or "Expected object, got
 * array" when obj is not an object), so that messages stay as they were.
 */
int jval_member(struct jval **out, const struct jval *obj, const char *key,
		enum jval_type want, struct strbuf *why);

/* Arrays. */
size_t jval_array_size(const struct jval *arr);
struct jval *jval_array_get(const struct jval *arr, size_t i);
int jval_array_append_new(struct jval *arr, struct jval *v);

#define jval_array_foreach(arr, index, value) \
	for ((index) = 0; \
	     (index) < jval_array_size(arr) && \
	     ((value) = jval_array_get((arr), (index))); \
	     (index)++)

/* Parsing. */
enum jval_load_flags {
	/* any value at the top, not only an object or an array */
	JVAL_DECODE_ANY = (1 << 0),
	/* every number a real, as JSON.parse reads them */
	JVAL_DECODE_INT_AS_REAL = (1 << 1),
	/* "\u0000" inside strings */
	JVAL_ALLOW_NUL = (1 << 2),
	/* an object with a repeated key is an error */
	JVAL_REJECT_DUPLICATES = (1 << 3),
};

enum jval_error_code {
	JVAL_ERROR_OTHER,
	JVAL_ERROR_NUMERIC_OVERFLOW,	/* a number beyond a double's range */
	JVAL_ERROR_NULL_CHARACTER,	/* "\u0000" without JVAL_ALLOW_NUL */
};

struct jval_error {
	char text[160];		/* the parser's message */
	char source[80];	/* what it was reading */
	int line;		/* 1-based; -1 when unknown */
	int column;
	size_t position;	/* bytes read before the error */
	enum jval_error_code code;
};

/*
 * Parse len bytes of text.  Returns a new reference, or NULL with err
 * (which may be NULL) filled in.
 */
struct jval *jval_loadb(const char *text, size_t len, unsigned flags,
			struct jval_error *err);

/*
 * The tree jval_loadb(text, len, JVAL_DECODE_ANY | JVAL_DECODE_INT_AS_REAL)
 * gives, read faster, when text is plain JSON (jsonplain.c says what
 * that is: ASCII strings without escapes, no repeated key, ...); NULL
 * for any other text, valid or not, which the caller then gives to
 * jval_loadb() for the answer and the error.
 */
struct jval *jval_loadb_plain(const char *text, size_t len);

#endif

/*
 * The door to jansson (see jval.h).  A `struct jval *` is a `json_t *`;
 * these functions only cast and translate flags and errors, so that no
 * file outside src/json/ depends on jansson's names.
 */
#include "config.h"
#include "jval.h"

#include <jansson.h>
#include <string.h>

static json_t *J(const struct jval *v)
{
	return (json_t *)v;
}

static struct jval *V(json_t *v)
{
	return (struct jval *)v;
}

struct jval *jval_object(void)
{
	return V(json_object());
}

struct jval *jval_array(void)
{
	return V(json_array());
}

struct jval *jval_string(const char *s)
{
	return s ? V(json_string(s)) : NULL;
}

struct jval *jval_stringn(const char *s, size_t len)
{
	return s ? V(json_stringn(s, len)) : NULL;
}

struct jval *jval_integer(int64_t v)
{
	return V(json_integer((json_int_t)v));
}

struct jval *jval_real(double v)
{
	return V(json_real(v));
}

struct jval *jval_boolean(int v)
{
	return V(json_boolean(v));
}

struct jval *jval_true(void)
{
	return V(json_true());
}

struct jval *jval_null(void)
{
	return V(json_null());
}

struct jval *jval_incref(struct jval *v)
{
	return V(json_incref(J(v)));
}

void jval_decref(struct jval *v)
{
	json_decref(J(v));
}

struct jval *jval_deep_copy(const struct jval *v)
{
	return V(json_deep_copy(J(v)));
}

int jval_equal(const struct jval *a, const struct jval *b)
{
	return json_equal(J(a), J(b));
}

enum jval_type jval_typeof(const struct jval *v)
{
	switch (json_typeof(J(v))) {
	case JSON_OBJECT:
		return JVAL_OBJECT;
	case JSON_ARRAY:
		return JVAL_ARRAY;
	case JSON_STRING:
		return JVAL_STRING;
	case JSON_INTEGER:
		return JVAL_INTEGER;
	case JSON_REAL:
		return JVAL_REAL;
	case JSON_TRUE:
		return JVAL_TRUE;
	case JSON_FALSE:
		return JVAL_FALSE;
	default:
		return JVAL_NULL;
	}
}

int jval_is_object(const struct jval *v)
{
	return json_is_object(J(v));
}

int jval_is_array(const struct jval *v)
{
	return json_is_array(J(v));
}

int jval_is_string(const struct jval *v)
{
	return json_is_string(J(v));
}

int jval_is_number(const struct jval *v)
{
	return json_is_number(J(v));
}

int jval_is_integer(const struct jval *v)
{
	return json_is_integer(J(v));
}

int jval_is_real(const struct jval *v)
{
	return json_is_real(J(v));
}

int jval_is_boolean(const struct jval *v)
{
	return json_is_boolean(J(v));
}

int jval_is_true(const struct jval *v)
{
	return json_is_true(J(v));
}

int jval_is_false(const struct jval *v)
{
	return json_is_false(J(v));
}

int jval_is_null(const struct jval *v)
{
	return json_is_null(J(v));
}

const char *jval_string_value(const struct jval *v)
{
	return json_string_value(J(v));
}

size_t jval_string_length(const struct jval *v)
{
	return json_string_length(J(v));
}

int64_t jval_integer_value(const struct jval *v)
{
	return (int64_t)json_integer_value(J(v));
}

double jval_real_value(const struct jval *v)
{
	return json_real_value(J(v));
}

double jval_number_value(const struct jval *v)
{
	return json_number_value(J(v));
}

struct jval *jval_object_get(const struct jval *obj, const char *key)
{
	return V(json_object_get(J(obj), key));
}

int jval_object_set_new(struct jval *obj, const char *key, struct jval *v)
{
	return json_object_set_new(J(obj), key, J(v));
}

int jval_object_set(struct jval *obj, const char *key, struct jval *v)
{
	return json_object_set(J(obj), key, J(v));
}

size_t jval_object_size(const struct jval *obj)
{
	return json_object_size(J(obj));
}

void *jval_object_first(struct jval *obj)
{
	return json_object_iter(J(obj));
}

void *jval_object_next(struct jval *obj, void *iter)
{
	return json_object_iter_next(J(obj), iter);
}

const char *jval_object_key(void *iter)
{
	return json_object_iter_key(iter);
}

struct jval *jval_object_value(void *iter)
{
	return V(json_object_iter_value(iter));
}

static const char *type_name(enum jval_type t)
{
	static const char *const names[] = {
		"object", "array", "string", "integer", "real", "true",
		"false", "null"
	};

	return names[t];
}

int jval_member(struct jval **out, const struct jval *obj, const char *key,
		enum jval_type want, struct strbuf *why)
{
	struct jval *v;
	enum jval_type got;

	if (!jval_is_object(obj)) {
		strbuf_addf(why, "Expected object, got %s",
			    type_name(jval_typeof(obj)));
		return -1;
	}
	v = jval_object_get(obj, key);
	if (!v) {
		strbuf_addf(why, "Object item not found: %s", key);
		return -1;
	}
	got = jval_typeof(v);
	if (got != want && !((want == JVAL_TRUE || want == JVAL_FALSE) &&
			     (got == JVAL_TRUE || got == JVAL_FALSE))) {
		strbuf_addf(why, "Expected %s, got %s", type_name(want),
			    type_name(got));
		return -1;
	}
	*out = v;
	return 0;
}

size_t jval_array_size(const struct jval *arr)
{
	return json_array_size(J(arr));
}

struct jval *jval_array_get(const struct jval *arr, size_t i)
{
	return V(json_array_get(J(arr), i));
}

int jval_array_append_new(struct jval *arr, struct jval *v)
{
	return json_array_append_new(J(arr), J(v));
}

static size_t load_flags(unsigned flags)
{
	size_t f = 0;

	if (flags & JVAL_DECODE_ANY)
		f |= JSON_DECODE_ANY;
	if (flags & JVAL_DECODE_INT_AS_REAL)
		f |= JSON_DECODE_INT_AS_REAL;
	if (flags & JVAL_ALLOW_NUL)
		f |= JSON_ALLOW_NUL;
	if (flags & JVAL_REJECT_DUPLICATES)
		f |= JSON_REJECT_DUPLICATES;
	return f;
}

struct jval *jval_loadb(const char *text, size_t len, unsigned flags,
			struct jval_error *err)
{
	json_error_t jerr;
	json_t *v = json_loadb(text, len, load_flags(flags), &jerr);

	if (!v && err) {
		memcpy(err->text, jerr.text, sizeof(err->text));
		err->text[sizeof(err->text) - 1] = '\0';
		memcpy(err->source, jerr.source, sizeof(err->source));
		err->source[sizeof(err->source) - 1] = '\0';
		err->line = jerr.line;
		err->column = jerr.column;
		err->position = jerr.position;
		switch (json_error_code(&jerr)) {
		case json_error_numeric_overflow:
			err->code = JVAL_ERROR_NUMERIC_OVERFLOW;
			break;
		case json_error_null_character:
			err->code = JVAL_ERROR_NULL_CHARACTER;
			break;
		default:
			err->code = JVAL_ERROR_OTHER;
		}
	}
	return V(v);
}

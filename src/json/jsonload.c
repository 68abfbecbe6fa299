#include "config.h"
#include "jsonload.h"
#include "quote.h"
#include "usage.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

static struct value *convert(struct arena *a, json_t *j)
{
	struct value *v;
	size_t i, n;

	switch (json_typeof(j)) {
	case JSON_OBJECT: {
		const char *key;
		json_t *child;

		v = value_new(a, VALUE_MAP);
		n = json_object_size(j);
		v->nr = (uint32_t)n;
		v->u.items = arena_alloc(a, (n ? 2 * n : 1) * sizeof(*v->u.items));
		i = 0;
		json_object_foreach(j, key, child) {
			struct value *k = value_new(a, VALUE_STRING);

			/*
			 * jansson keys are NUL-terminated; JSON_ALLOW_NUL
			 * does not cover keys, so a \u0000 in a key was
			 * already refused by the parser.
			 */
			k->u.str.len = strlen(key);
			k->u.str.ptr = arena_memdup(a, key, k->u.str.len);
			v->u.items[2 * i] = k;
			v->u.items[2 * i + 1] = convert(a, child);
			i++;
		}
		return v;
	}
	case JSON_ARRAY:
		v = value_new(a, VALUE_SEQ);
		n = json_array_size(j);
		v->nr = (uint32_t)n;
		v->u.items = arena_alloc(a, (n ? n : 1) * sizeof(*v->u.items));
		for (i = 0; i < n; i++)
			v->u.items[i] = convert(a, json_array_get(j, i));
		return v;
	case JSON_STRING:
		v = value_new(a, VALUE_STRING);
		v->u.str.len = json_string_length(j);
		v->u.str.ptr = arena_memdup(a, json_string_value(j),
					    v->u.str.len);
		return v;
	case JSON_INTEGER:
		v = value_new(a, VALUE_NUMBER);
		v->u.number = (double)json_integer_value(j);
		return v;
	case JSON_REAL:
		v = value_new(a, VALUE_NUMBER);
		v->u.number = json_real_value(j);
		return v;
	case JSON_TRUE:
	case JSON_FALSE:
		v = value_new(a, VALUE_BOOL);
		v->u.boolean = json_is_true(j);
		return v;
	case JSON_NULL:
		return value_new(a, VALUE_NULL);
	}
	BUG("unknown jansson type");
}

static int load(struct value **out, struct arena *arena, const char *text,
		size_t len, unsigned flags, struct strbuf *err)
{
	struct jval_error jerr;
	struct jval *root;

	root = jval_loadb(text, len, JVAL_DECODE_ANY | JVAL_DECODE_INT_AS_REAL |
			  JVAL_ALLOW_NUL | flags, &jerr);
	if (!root) {
		jsonload_describe_error(err, &jerr);
		return -1;
	}
	*out = convert(arena, (json_t *)root);
	jval_decref(root);
	return 0;
}

int jsonload_ijson(struct value **out, struct arena *arena,
		    const char *text, size_t len, struct strbuf *err)
{
	return load(out, arena, text, len, JVAL_REJECT_DUPLICATES, err);
}

int jsonload_parse(struct value **out, struct arena *arena,
		    const char *text, size_t len, struct strbuf *err)
{
	/* jansson keeps the last value of a repeated key, as JSON.parse */
	return load(out, arena, text, len, 0, err);
}

/* How much of the file a JSON error may quote: the token jansson names. */
#define JSONLOAD_EXCERPT_MAX 24

void jsonload_describe_error(struct strbuf *err,
			     const struct jval_error *jerr)
{
	const char *near = strstr(jerr->text, " near '");

	if (jerr->code == JVAL_ERROR_NUMERIC_OVERFLOW) {
		/*
		 * JSON.parse reads 1e400 as Infinity, which the reference
		 * prints as "Infinity" and its schema takes for a
		 * temperature: a double cannot carry it, so say so rather
		 * than call valid JSON invalid or print another number.
		 */
		strbuf_addf(err, "unsupported: a number beyond the range of a "
			    "double, which JSON.parse reads as Infinity (line "
			    "%d, column %d)", jerr->line, jerr->column);
		return;
	}
	strbuf_addstr(err, "invalid JSON: ");
	if (!near) {
		strbuf_add_printable(err, jerr->text);
	} else {
		/*
		 * jansson quotes the text it stopped at, which is the file's:
		 * a short escaped excerpt of it, no more.
		 */
		const char *tok = near + strlen(" near '");
		size_t n = strlen(tok);

		if (n && tok[n - 1] == '\'')
			n--;
		quote_escape(err, jerr->text, (size_t)(near - jerr->text));
		strbuf_addstr(err, " near '");
		quote_excerpt(err, tok, n, JSONLOAD_EXCERPT_MAX);
		strbuf_addch(err, '\'');
	}
	strbuf_addf(err, " (line %d, column %d)", jerr->line, jerr->column);
}

/*
 * One JSON writer for everything printed (see jsonout.h).  The layouts
 * differ only in the separators and line breaks; keys, strings and
 * numbers are written the same way in all of them.
 */
#include "config.h"
#include "jsonout.h"

#include <jansson.h>
#include "canon.h"
#include "numfmt.h"
#include "strutil.h"
#include "usage.h"
#include "utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct writer {
	struct strbuf *out;
	enum jsonout_layout layout;
	unsigned flags;
};

static void add_indent(struct strbuf *out, int level)
{
	int i;

	for (i = 0; i < level; i++)
		strbuf_add(out, "  ", 2);
}

struct okey {
	const char *key;
	int64_t index;
	size_t pos;
};

static int okey_cmp(const void *pa, const void *pb)
{
	const struct okey *a = pa, *b = pb;

	if ((a->index < 0) != (b->index < 0))
		return a->index < 0 ? 1 : -1;
	if (a->index >= 0 && a->index != b->index)
		return a->index < b->index ? -1 : 1;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

static void add_string(const struct writer *w, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i;

	if (!(w->flags & JSONOUT_ESCAPE_CONTROLS)) {
		canon_add_string(w->out, str, len);
		return;
	}
	strbuf_addch(w->out, '"');
	for (i = 0; i < len; i++) {
		if (s[i] == '"' || s[i] == '\\')
			strbuf_addf(w->out, "\\%c", s[i]);
		else if (s[i] < 0x20 || s[i] == 0x7f)
			strbuf_addf(w->out, "\\u%04x", s[i]);
		else
			strbuf_addch(w->out, s[i]);
	}
	strbuf_addch(w->out, '"');
}

/* Before the i-th member of a container at level (i counts from 0). */
static void open_item(const struct writer *w, size_t i, int level)
{
	switch (w->layout) {
	case JSONOUT_PRETTY:
		strbuf_addstr(w->out, i ? ",\n" : "\n");
		add_indent(w->out, level + 1);
		break;
	case JSONOUT_COMPACT:
		if (i)
			strbuf_addch(w->out, ',');
		break;
	case JSONOUT_SPACED:
		if (i)
			strbuf_add(w->out, ", ", 2);
		break;
	}
}

static void close_container(const struct writer *w, char close, int level)
{
	if (w->layout == JSONOUT_PRETTY) {
		strbuf_addch(w->out, '\n');
		add_indent(w->out, level);
	}
	strbuf_addch(w->out, close);
}

static void write_value(const struct writer *w, const json_t *v, int level);

static void write_object(const struct writer *w, const json_t *v, int level)
{
	size_t i = 0, n = json_object_size(v);
	struct okey *keys;
	const char *key;
	json_t *child;

	strbuf_addch(w->out, '{');
	if (!n) {
		strbuf_addch(w->out, '}');
		return;
	}
	keys = xmalloc(n * sizeof(*keys));
	json_object_foreach((json_t *)v, key, child) {
		keys[i].key = key;
		keys[i].index = js_array_index(key, strlen(key));
		keys[i].pos = i;
		i++;
	}
	if (w->flags & JSONOUT_JS_KEY_ORDER)
		qsort(keys, n, sizeof(*keys), okey_cmp);
	for (i = 0; i < n; i++) {
		open_item(w, i, level);
		add_string(w, keys[i].key, strlen(keys[i].key));
		if (w->layout == JSONOUT_COMPACT)
			strbuf_addch(w->out, ':');
		else
			strbuf_add(w->out, ": ", 2);
		write_value(w, json_object_get(v, keys[i].key), level + 1);
	}
	close_container(w, '}', level);
	free(keys);
}

static void write_value(const struct writer *w, const json_t *v, int level)
{
	char num[NUMFMT_MAX];
	size_t i, n;

	switch (json_typeof(v)) {
	case JSON_OBJECT:
		write_object(w, v, level);
		return;
	case JSON_ARRAY:
		n = json_array_size(v);
		strbuf_addch(w->out, '[');
		if (!n) {
			strbuf_addch(w->out, ']');
			return;
		}
		for (i = 0; i < n; i++) {
			open_item(w, i, level);
			write_value(w, json_array_get(v, i), level + 1);
		}
		close_container(w, ']', level);
		return;
	case JSON_STRING:
		add_string(w, json_string_value(v), json_string_length(v));
		return;
	case JSON_INTEGER:
	case JSON_REAL:
		strbuf_add(w->out, num, numfmt_json(num, json_number_value(v)));
		return;
	case JSON_TRUE:
		strbuf_add(w->out, "true", 4);
		return;
	case JSON_FALSE:
		strbuf_add(w->out, "false", 5);
		return;
	case JSON_NULL:
		strbuf_add(w->out, "null", 4);
		return;
	}
}

void jsonout_write(struct strbuf *out, const struct jval *v,
		   enum jsonout_layout layout, unsigned flags)
{
	struct writer w = { out, layout, flags };

	write_value(&w, (const json_t *)v, 0);
}

void jsonout_pretty(struct strbuf *out, const struct jval *v)
{
	jsonout_write(out, v, JSONOUT_PRETTY, JSONOUT_JS_KEY_ORDER);
}

void jsonout_print(const struct jval *v)
{
	struct strbuf out = STRBUF_INIT;

	jsonout_pretty(&out, v);
	strbuf_addch(&out, '\n');
	fwrite(out.buf, 1, out.len, stdout);
	strbuf_release(&out);
}

struct jval *jsonout_text(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	struct jval *v;

	utf8_repair(&sb, s, strlen(s));
	v = jval_stringn(sb.buf, sb.len);
	strbuf_release(&sb);
	if (!v)
		die("out of memory");
	return v;
}

void jsonout_set(struct jval *obj, const char *key, struct jval *v)
{
	if (!v || jval_object_set_new(obj, key, v))
		die("out of memory");
}

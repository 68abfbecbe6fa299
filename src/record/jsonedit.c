/*
 * Editing a JSON text in place (jsonedit.h).  The text was checked by
 * the JSON loader first, so the scanner here only finds where things
 * are; it still stops at anything unexpected rather than trust that.
 */
#include "config.h"
#include "jsonedit.h"
#include "json/jsonout.h"
#include "json/jval.h"
#include "usage.h"

#include <stdlib.h>
#include <string.h>

/* Deeper than any record; the loader refuses deeper texts anyway. */
#define JNODE_DEPTH_MAX 2048

static int is_ws(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static size_t skip_ws(const char *t, size_t len, size_t i)
{
	while (i < len && is_ws(t[i]))
		i++;
	return i;
}

/* Past the string that opens at *i. */
static int scan_string(const char *t, size_t len, size_t *i)
{
	size_t j = *i + 1;

	while (j < len && t[j] != '"')
		j += t[j] == '\\' ? 2 : 1;
	if (j >= len)
		return -1;
	*i = j + 1;
	return 0;
}

/* The JSON string text [start, end) decoded, or NULL. */
static char *decode(const char *text, size_t start, size_t end)
{
	struct jval *v = jval_loadb(text + start, end - start,
				    JVAL_DECODE_ANY, NULL);
	char *s = NULL;

	if (jval_is_string(v))
		s = xstrdup(jval_string_value(v));
	jval_decref(v);
	return s;
}

static int parse_value(struct jnode *n, const char *t, size_t len,
		       size_t *i, int depth);

static int parse_container(struct jnode *n, const char *t, size_t len,
			   size_t *i, int depth)
{
	char close = n->kind == JNODE_OBJECT ? '}' : ']';

	*i = skip_ws(t, len, *i + 1);
	if (*i < len && t[*i] == close)
		goto done;
	for (;;) {
		struct jnode *kid;

		ALLOC_GROW(n->kids, n->nr + 1, n->alloc);
		kid = &n->kids[n->nr++];
		memset(kid, 0, sizeof(*kid));
		if (n->kind == JNODE_OBJECT) {
			*i = skip_ws(t, len, *i);
			kid->key_start = *i;
			if (*i >= len || t[*i] != '"' ||
			    scan_string(t, len, i))
				return -1;
			kid->key_end = *i;
			kid->key = decode(t, kid->key_start, *i);
			*i = skip_ws(t, len, *i);
			if (*i >= len || t[*i] != ':')
				return -1;
			(*i)++;
		}
		if (parse_value(kid, t, len, i, depth + 1))
			return -1;
		if (n->kind == JNODE_ARRAY)
			kid->key_start = kid->key_end = kid->start;
		*i = skip_ws(t, len, *i);
		if (*i < len && t[*i] == ',') {
			(*i)++;
			continue;
		}
		if (*i < len && t[*i] == close)
			goto done;
		return -1;
	}
done:
	(*i)++;
	n->end = *i;
	return 0;
}

static int parse_value(struct jnode *n, const char *t, size_t len,
		       size_t *i, int depth)
{
	*i = skip_ws(t, len, *i);
	if (*i >= len || depth > JNODE_DEPTH_MAX)
		return -1;
	n->start = *i;
	switch (t[*i]) {
	case '{':
		n->kind = JNODE_OBJECT;
		return parse_container(n, t, len, i, depth);
	case '[':
		n->kind = JNODE_ARRAY;
		return parse_container(n, t, len, i, depth);
	case '"':
		n->kind = JNODE_STRING;
		if (scan_string(t, len, i))
			return -1;
		break;
	default:
		n->kind = len - *i >= 4 && !memcmp(t + *i, "null", 4) ?
			  JNODE_NULL : JNODE_OTHER;
		while (*i < len && !is_ws(t[*i]) && t[*i] != ',' &&
		       t[*i] != ']' && t[*i] != '}')
			(*i)++;
		if (*i == n->start)
			return -1;
	}
	n->end = *i;
	return 0;
}

int jnode_parse(struct jnode *out, const char *text, size_t len,
		struct strbuf *err)
{
	size_t i = 0;

	if (parse_value(out, text, len, &i, 0) ||
	    skip_ws(text, len, i) != len) {
		strbuf_addf(err, "cannot find the values of the JSON text "
			    "(near byte %zu)", i);
		return -1;
	}
	return 0;
}

void jnode_release(struct jnode *n)
{
	size_t i;

	for (i = 0; i < n->nr; i++)
		jnode_release(&n->kids[i]);
	free(n->kids);
	free(n->key);
	n->kids = NULL;
	n->key = NULL;
	n->nr = n->alloc = 0;
}

const struct jnode *jnode_child(const struct jnode *n, const char *key)
{
	size_t i;
	char *end;
	unsigned long idx;

	if (n->kind == JNODE_OBJECT) {
		for (i = n->nr; i-- > 0; )
			if (n->kids[i].key && !strcmp(n->kids[i].key, key))
				return &n->kids[i];
		return NULL;
	}
	/* RFC 6901: digits without a leading zero */
	if (n->kind != JNODE_ARRAY || !*key || strspn(key, "0123456789") !=
	    strlen(key) || (key[0] == '0' && key[1]))
		return NULL;
	idx = strtoul(key, &end, 10);
	return idx < n->nr ? &n->kids[idx] : NULL;
}

char *jnode_string(const struct jnode *n, const char *text)
{
	return n->kind == JNODE_STRING ? decode(text, n->start, n->end) :
	       NULL;
}

/* A JSON string of s, as the records' writers spell one. */
static void add_json_string(struct strbuf *out, const char *s)
{
	struct jval *v = jval_string(s);

	if (!v)
		die("out of memory");
	jsonout_write(out, v, JSONOUT_SPACED, 0);
	jval_decref(v);
}

/* {"t1": {"t2": value}} for the tokens toks[0..nr), on one line. */
static void nest(struct strbuf *out, char *const *toks, size_t nr,
		 const char *sep, const char *value)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (i)
			strbuf_addch(out, '{');
		add_json_string(out, toks[i]);
		strbuf_addstr(out, sep);
	}
	strbuf_addstr(out, value);
	for (i = 1; i < nr; i++)
		strbuf_addch(out, '}');
}

static void splice(struct strbuf *text, size_t start, size_t end,
		   const char *with)
{
	struct strbuf out = STRBUF_INIT;

	strbuf_add(&out, text->buf, start);
	strbuf_addstr(&out, with);
	strbuf_add(&out, text->buf + end, text->len - end);
	strbuf_reset(text);
	strbuf_addbuf(text, &out);
	strbuf_release(&out);
}

/*
 * Add the member toks[0..nr) (the first its key, the rest objects
 * inside it) to obj, after its last member and spaced as that one is:
 * the same break and indent before the key, the same text between key
 * and value.
 */
static void add_member(struct strbuf *text, const struct jnode *obj,
		       char *const *toks, size_t nr, const char *value)
{
	struct strbuf add = STRBUF_INIT, sep = STRBUF_INIT;
	const struct jnode *last = obj->nr ? &obj->kids[obj->nr - 1] : NULL;
	size_t ws, at;

	if (last) {
		ws = last->key_start;
		while (ws > obj->start + 1 && is_ws(text->buf[ws - 1]))
			ws--;
		strbuf_add(&sep, text->buf + last->key_end,
			   last->start - last->key_end);
		strbuf_addch(&add, ',');
		strbuf_add(&add, text->buf + ws, last->key_start - ws);
		/* {"a": 1} spaces its members; {"a":1} does not */
		if (ws == last->key_start && obj->nr == 1 &&
		    strchr(sep.buf, ' '))
			strbuf_addch(&add, ' ');
		at = last->end;
	} else {
		strbuf_addstr(&sep, ": ");
		at = obj->start + 1;
	}
	nest(&add, toks, nr, sep.buf, value);
	splice(text, at, at, add.buf);
	strbuf_release(&add);
	strbuf_release(&sep);
}

int jnode_fill(struct strbuf *text, char *const *toks, size_t nr,
	       const char *value, struct strbuf *err)
{
	struct jnode root = JNODE_INIT;
	const struct jnode *n = &root, *kid;
	struct strbuf with = STRBUF_INIT, json = STRBUF_INIT;
	size_t d;
	int ret = -1;

	add_json_string(&json, value);
	value = json.buf;
	if (jnode_parse(&root, text->buf, text->len, err))
		goto out;
	for (d = 0; d < nr; d++) {
		if (n->kind == JNODE_NULL)
			break;
		if (n->kind != JNODE_OBJECT && n->kind != JNODE_ARRAY) {
			strbuf_addf(err, "'%s' is inside a value that is no "
				    "object", toks[d]);
			goto out;
		}
		if (!(kid = jnode_child(n, toks[d])) &&
		    n->kind == JNODE_ARRAY) {
			strbuf_addf(err, "the list has no item '%s'",
				    toks[d]);
			goto out;
		}
		if (!kid)
			break;
		n = kid;
	}
	if (d == nr && n->kind != JNODE_NULL) {
		ret = 0;	/* it has a value: never overwritten */
		goto out;
	}
	if (n->kind == JNODE_NULL) {
		/* a null is no value: replaced, objects on the way with it */
		if (d < nr) {
			strbuf_addch(&with, '{');
			nest(&with, toks + d, nr - d, ": ", value);
			strbuf_addch(&with, '}');
		} else
			strbuf_addstr(&with, value);
		splice(text, n->start, n->end, with.buf);
	} else
		add_member(text, n, toks + d, nr - d, value);
	ret = 1;
out:
	jnode_release(&root);
	strbuf_release(&with);
	strbuf_release(&json);
	return ret;
}
